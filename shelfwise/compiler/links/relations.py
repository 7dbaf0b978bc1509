"""Links between documents that do not name each other (paper §6.14), and candidate contradictions.

- same_series: titles that differ only in a series marker (Part 2 continues
  Part 1, Rev D is newer than Rev C; a gap is only "maybe the same series"),
  or file names that differ only in a sequence number; or one title over
  documents whose identities read different revisions or editions from their
  own cover or front matter, whatever came between (each document says which
  it is): "Rev C is newer than Rev B" (a controlled document's new revision
  replaces the old, as a title's marker says), "Edition 0.77 is a later
  edition than Edition 0.75" (a manual's editions stand side by side, one per
  release still in use: the older is superseded only where the newer says so).
- shares_names: names read from the sections' text; a name must hold a word the
  shelf never writes in lower case, and a pair is linked only when sharing that
  many names is rarer than chance (Poisson tail under independence < ALPHA).
- contradicts_candidate: two rules on one subject stating different values for
  one unit; flagged as a candidate, never asserted.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from itertools import combinations

from shelfwise.compiler.store.records import Assertion, Link
from shelfwise.compiler.language.numbers import CARDINALS, alternation
from shelfwise.compiler.links.links import ShelfIndex, content_words, link_id

__all__ = ["ALPHA", "PAIR_HOLDERS", "SUBJECT_PAIRS", "series_links", "document_names", "name_links", "contradiction_links"]

ALPHA = 0.01
PAIR_HOLDERS = 50
"""Candidate pairs come only from names at most this many documents hold (all shared names still count in a
candidate's test): a name in every document (the company's) would otherwise make every pair a candidate, N²/2
of them, and sharing it is what chance gives anyway (p ≈ 1 − e^−λ with λ ≥ 1)."""

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10}
_MARKER = re.compile(
    r"\b(?P<kind>Part|Volume|Vol\.?|Book|Rev\.?|Revision|Edition|Release|Issue|Phase)\s+(?P<value>\d+|[A-Z]\b|[IVX]+\b|"
    rf"{alternation(CARDINALS)})",
    re.IGNORECASE,
)


def _marker_value(kind: str, value: str) -> int:
    low = value.lower()
    if low.isdigit():
        return int(low)
    if low in CARDINALS:
        return CARDINALS[low]
    roman_first = kind not in {"rev", "revision"}
    if value.isupper() and low in _ROMAN and (len(value) > 1 or roman_first):
        return _ROMAN[low]
    if len(value) == 1 and value.isalpha():
        return ord(value.upper()) - ord("A") + 1
    return 0


def _series_key(title: str) -> tuple[str, str, int, str] | None:
    title = re.sub(r"\([^)]*\)", " ", title)
    match = _MARKER.search(title)
    if not match:
        return None
    kind = match.group("kind").rstrip(".").lower().replace("vol", "volume").replace("volumeume", "volume")
    kind = {"rev": "revision"}.get(kind, kind)
    stem = " ".join(content_words(title[: match.start()] + " " + title[match.end() :]))
    order = _marker_value(kind, match.group("value"))
    return (stem, kind, order, match.group(0)) if stem and order else None


def series_links(index: ShelfIndex) -> list[Link]:
    """Consecutive members of a series: 'continues' (no gap) or 'maybe the same series' (a gap)."""
    groups: dict[tuple[str, str], list[tuple[int, str, str]]] = defaultdict(list)
    for doc_id, doc in sorted(index.docs.items()):
        key = _series_key(doc.title)
        if key:
            groups[(key[0], key[1])].append((key[2], key[3], doc_id))
            continue
        stem = doc.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        match = re.match(r"^(?P<stem>.*?[A-Za-z][^0-9]*?)[-_ ]?(?P<n>\d{1,3})$", stem)
        if match:
            groups[(doc.path.rsplit("/", 1)[0] + "/" + match.group("stem").lower(), "sequence")].append(
                (int(match.group("n")), stem, doc_id)
            )
    links = _edition_links(index)
    for (stem, kind), members in sorted(groups.items()):
        members.sort()
        for (n1, m1, d1), (n2, m2, d2) in zip(members, members[1:]):
            if n1 == n2:
                continue
            if n2 == n1 + 1:
                verb = "is newer than" if kind in {"revision", "edition", "release", "issue"} else "continues"
                reason = f"{m2} {verb} {m1}"
            else:
                reason = f"maybe the same series: {m1} and {m2} (a gap between them)"
            links += _pair_links(index, (d2, m2), (d1, m1), f"{index.docs[d2].title} / {index.docs[d1].title}", reason)
    return links


def _pair_links(index: ShelfIndex, newer: tuple[str, str], older: tuple[str, str], evidence: str, reason: str) -> list[Link]:
    """The same_series link from the newer (doc id, marker) to the older, and a supersedes link where the newer says
    it supersedes the older."""
    (d2, m2), (d1, m1) = newer, older
    links = [Link(id=link_id("same_series", d2, d1), kind="same_series", src_doc=d2, dst_doc=d1, evidence=evidence, reason=reason)]
    said = _supersession_sentence(index, d2, m1)
    if said:
        links.append(Link(id=link_id("supersedes", said[0], d1), kind="supersedes", src_doc=d2, src_section=said[0],
                          dst_doc=d1, evidence=said[1], reason=f"{m2} says it supersedes {m1}"))
    return links


def _edition_links(index: ShelfIndex) -> list[Link]:
    """'Rev C is newer than Rev B', 'Edition 0.77 is a later edition than Edition 0.75': documents of one title without
    a series marker in it, each with the revision or edition its identity read from the document itself, ordered by it
    (numbers part by part, letters in order)."""
    groups: dict[str, list[tuple[tuple, str, str]]] = defaultdict(list)
    for doc_id, doc in sorted(index.docs.items()):
        order = _revision_order(doc.revision)
        if order and _series_key(doc.title) is None:
            groups[" ".join(content_words(doc.title)) or doc.title.lower()].append((order, doc.revision, doc_id))
    links = []
    for members in groups.values():
        members.sort()
        for (o1, m1, d1), (o2, m2, d2) in zip(members, members[1:]):
            if o1 == o2 or m1.split()[0] != m2.split()[0]:
                continue
            verb = "is newer than" if m2.split()[0] == "Rev" else f"is a later {m2.split()[0].lower()} than"
            links += _pair_links(index, (d2, m2), (d1, m1), f"{index.docs[d2].title} {m2} / {index.docs[d1].title} {m1}",
                                 f"{m2} {verb} {m1}")
    return links


def _revision_order(revision: str) -> tuple[int, ...]:
    """'Edition 0.77' -> (0, 77); 'Rev D' -> (4,); 'Version 2.1' -> (2, 1); () when it gives no order."""
    value = revision.split()[-1] if revision.split() else ""
    if re.fullmatch(r"\d+(?:\.\d+)*", value):
        return tuple(int(part) for part in value.split("."))
    if re.fullmatch(r"[A-Z]", value):
        return (_marker_value("revision", value),)
    return ()


_SUPERSEDE_WORDS = re.compile(r"\b(supersedes|superseded|replaces|replaced|obsoletes|withdrawn)\b", re.I)


def _supersession_sentence(index: ShelfIndex, doc_id: str, older_marker: str) -> tuple[str, str] | None:
    """(section id, sentence) where the newer member says it supersedes the older ('Rev C' or 'Revision C')."""
    kind, value = older_marker.split()[0].rstrip(".").lower(), older_marker.split()[-1]
    names = {older_marker.lower(), f"revision {value}".lower(), f"rev. {value}".lower()} if kind.startswith("rev") else {older_marker.lower()}
    from shelfwise.compiler.ledger.rules import sentences

    for section in index.sections.get(doc_id, []):
        for sentence in sentences(section.text):
            low = sentence.lower()
            if _SUPERSEDE_WORDS.search(sentence) and any(re.search(rf"\b{re.escape(n)}\b", low) for n in names):
                return section.id, sentence
    return None


_CAPSEQ = re.compile(r"\b[A-Z][\w'’-]*(?:\s+(?:[A-Z][\w'’-]*|of|de|van|von|la|le))*")


def document_names(index: ShelfIndex) -> dict[str, set[str]]:
    """Each document's rare names: capitalised runs holding a word the shelf never writes in lower case."""
    lower: set[str] = set()
    for sections in index.sections.values():
        for section in sections:
            lower.update(w for w in re.findall(r"(?<![\w-])[a-z][a-z'’-]*", section.text))
    names: dict[str, set[str]] = {}
    for doc_id, sections in sorted(index.sections.items()):
        found: set[str] = set()
        for section in sections:
            for match in _CAPSEQ.finditer(section.text):
                words = match.group(0).split()
                while words and (words[0].lower() in lower or not re.search(r"[A-Za-z]{2}", words[0])):
                    words.pop(0)
                while words and (words[-1].lower() in lower or words[-1] in {"of", "de", "van", "von", "la", "le"}):
                    words.pop()
                if not words:
                    continue
                rare = [w for w in words if w.lower().strip("'’-") not in lower and re.search(r"[A-Za-z]{2}", w)]
                if rare:
                    found.add(" ".join(words))
        names[doc_id] = found
    return names


def _poisson_tail(k: int, lam: float) -> float:
    if lam <= 0:
        return 0.0 if k > 0 else 1.0
    term = math.exp(-lam)
    below = 0.0
    for i in range(k):
        below += term
        term *= lam / (i + 1)
    return max(0.0, 1.0 - below)


def name_links(index: ShelfIndex, alpha: float = ALPHA) -> list[Link]:
    """Pairs of documents (of different volumes) sharing more rare names than chance would give."""
    names = document_names(index)
    df: dict[str, int] = defaultdict(int)
    for found in names.values():
        for name in found:
            df[name] += 1
    total = len(names)
    if total < 2:
        return []
    shared = {d: {n for n in found if df[n] >= 2} for d, found in names.items()}
    mean_size = sum(len(s) for s in shared.values()) / total or 1.0
    holders: dict[str, list[str]] = defaultdict(list)
    for doc_id, found in sorted(shared.items()):
        for name in found:
            holders[name].append(doc_id)
    pairs: set[tuple[str, str]] = set()
    for docs in holders.values():
        if len(docs) <= PAIR_HOLDERS:
            pairs.update(combinations(sorted(docs), 2))
    chance = {d: math.fsum((df[n] - 1) / (total - 1) for n in found) for d, found in shared.items()}  # fsum: exact, so no set order shows
    links = []
    for a, b in sorted(pairs):
        if index.docs[a].group == index.docs[b].group:
            continue
        common = sorted(shared[a] & shared[b], key=lambda n: (df[n], n))
        lam = chance[a] * len(shared[b]) / mean_size
        p = _poisson_tail(len(common), lam)
        if p >= alpha:
            continue
        links.append(
            Link(
                id=link_id("shares_names", a, b),
                kind="shares_names",
                src_doc=a,
                dst_doc=b,
                evidence="; ".join(common[:8]),
                reason=f"share {len(common)} rare names (expected {lam:.2f} by chance, p={p:.2g})",
            )
        )
    return links


def _linked_pairs(items: list, neighbours: dict[str, set[str]]):
    """The pairs of ``items`` (in combinations order) whose documents are the same or linked."""
    by_doc: dict[str, list[int]] = defaultdict(list)
    for n, item in enumerate(items):
        by_doc[item[0]].append(n)
    pairs = set()
    for n, item in enumerate(items):
        for doc in {item[0]} | neighbours.get(item[0], set()):
            pairs.update((min(n, m), max(n, m)) for m in by_doc.get(doc, ()) if m != n)
    return [(items[i], items[j]) for i, j in sorted(pairs)]


def _unit(unit: str) -> str:
    unit = unit.lower().split()[-1]
    return unit[:-1] if unit.endswith("s") and len(unit) > 3 else unit


SUBJECT_PAIRS = 20
"""A subject stated by more rules than this is compared only between documents that are already linked (a
series, a citation, a reference, shared rare names): a parameter that hundreds of documents each set for
themselves would otherwise give every pair of them as a candidate, N²/2 of them."""


def contradiction_links(rows: list[tuple[str, str, Assertion]], linked: set[tuple[str, str]] | None = None) -> list[Link]:
    """Rules on one subject that state different values for one unit: candidates, never asserted.

    ``rows`` holds (doc id, section id, assertion) for every rule of the shelf; ``linked`` the (document,
    document) pairs other links join, in either order, which bound a subject of more than SUBJECT_PAIRS rules.
    """
    by_subject: dict[str, list[tuple[str, str, Assertion]]] = defaultdict(list)
    for doc_id, section_id, assertion in rows:
        if assertion.kind != "rule" or not assertion.thresholds:
            continue
        key = " ".join(content_words(assertion.subject))
        if key:
            by_subject[key].append((doc_id, section_id, assertion))
    links = []
    neighbours: dict[str, set[str]] = defaultdict(set)
    for a, b in linked or ():
        neighbours[a].add(b)
        neighbours[b].add(a)
    for subject, items in sorted(by_subject.items()):
        crowded = len(items) > SUBJECT_PAIRS and linked is not None
        for (d1, s1, a1), (d2, s2, a2) in combinations(items, 2) if not crowded else _linked_pairs(items, neighbours):
            if s1 == s2:
                continue
            for t1 in a1.thresholds:
                clash = [t2 for t2 in a2.thresholds
                         if _unit(t2.unit) == _unit(t1.unit) and t2.comparator == t1.comparator and t2.value != t1.value]
                if clash:
                    t2 = clash[0]
                    links.append(
                        Link(
                            id=link_id("contradicts_candidate", s1, s2, t1.text + "|" + t2.text),
                            kind="contradicts_candidate",
                            src_doc=d1,
                            src_section=s1,
                            dst_doc=d2,
                            dst_section=s2,
                            evidence=f"{a1.quote} | {a2.quote}",
                            reason=f"two rules on '{subject}' state '{t1.text}' and '{t2.text}' (a candidate, not asserted)",
                        )
                    )
                    break
    return links
