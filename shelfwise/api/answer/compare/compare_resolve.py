"""Which documents a compare question is about: two revisions, two years, or one series of a shelf's documents.

``resolve_pairs`` reads one obligation of the plan ("What changed between Rev C
and Rev D of QM-001?", "What is different in the 2025 return compared with
2024?", "Compare WI-022 revision 1 and 2") and returns the (older, newer)
document pairs of one shelf it asks about, or nothing, and then the question
takes the normal answering path. Documents are versions of one series when
they share an identity (``shelfwise.compiler.compare.identity_of``: a document code, a
person's id number or exact name, a supplier) or a supersedes / same_series
link of the ledger joins them; two documents of different series are never
compared here (a question contrasting two procedures is not a version
question). Revisions and years are read from the titles (and the fields
ordering a series: tax year, invoice date, effective date).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelfwise.api.answer.plan.plan import Obligation
from shelfwise.api.answer.question import read_phrase
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import document_keys
from shelfwise.compiler.compare import DocView, Identity, identity_of
from shelfwise.compiler.compare.pairs import one_series

__all__ = ["ComparePair", "asks_to_compare", "resolve_pairs", "shelf_views", "revisions_in", "years_in"]

_COMPARE = re.compile(r"\b(chang\w*|differ\w*|compar\w*|versus|vs\.?|what(?:'s| is) new)\b", re.I)
_TOKEN = r"(?:[A-Z]{1,2}|\d{1,3})\b"
_REVISIONS = re.compile(rf"(?i:\brev(?:ision)?s?\.?|\bversions?|\bv\.?)\s*(?P<first>{_TOKEN})"
                        rf"(?P<more>(?:\s*(?:,|(?i:and|to|vs\.?|versus|with|against))?\s*(?:->|→|-)?\s*"
                        rf"(?:(?i:rev(?:ision)?\.?|version|v\.?)\s*)?{_TOKEN})*)")
_TITLE_REVISION = re.compile(rf"(?i:\brev(?:ision)?\.?|\bversion|\bv\.?)\s*({_TOKEN})")
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")


@dataclass(frozen=True)
class ComparePair:
    """Two versions of one series to compare, the older first, and the identity that makes them one series."""

    shelf: str
    older: DocView
    newer: DocView
    identity: Identity
    reason: str


def asks_to_compare(obligation: Obligation) -> bool:
    """A compare obligation, or one worded as a comparison ("what is different", "compared with")."""
    return obligation.kind == "compare" or bool(_COMPARE.search(obligation.ask))


def revisions_in(text: str) -> list[str]:
    """Revisions a question names, in order: "Rev C and Rev D" -> ['C', 'D']; "revision 1 and 2" -> ['1', '2']."""
    found: list[str] = []
    for match in _REVISIONS.finditer(text):
        found.append(match.group("first"))
        found.extend(re.findall(_TOKEN, re.sub(r"(?i)\b(?:rev(?:ision)?|version|and|to|vs|versus|with|against|v)\b", " ", match.group("more"))))
    return list(dict.fromkeys(found))


def years_in(text: str) -> list[str]:
    return list(dict.fromkeys(_YEAR.findall(text)))


def shelf_views(shelf: OpenShelf) -> dict[str, DocView]:
    """Every document of an open shelf as the comparison reads it, by doc id (computed once per open shelf)."""
    return shelf.memo("compare_views", lambda: {
        doc_id: DocView(doc_id, shelf.documents[doc_id]["title"], shelf.documents[doc_id]["path"],
                        [shelf.sections[sid] for sid in shelf.doc_sections.get(doc_id, [])])
        for doc_id in shelf.doc_order()
    })


def _identities(shelf: OpenShelf, views: dict[str, DocView]) -> dict[str, Identity]:
    return shelf.memo("compare_identities", lambda: {doc_id: identity_of(view) for doc_id, view in views.items()})


def _revision(view: DocView) -> str:
    match = _TITLE_REVISION.search(view.title)
    return match.group(1) if match else ""


def _year(view: DocView, identity: Identity) -> str:
    """The year a version is named by: its title's ("Tax Return 2024"), else a year field's ("Tax year: 2024").
    An effective or invoice date does not name a version ("between 2025 and 2026" asks about something else)."""
    title = _YEAR.search(view.title)
    if title:
        return title.group(1)
    ordered = str(identity.order[1]) if len(identity.order) > 1 else ""
    return ordered if _YEAR.fullmatch(ordered) else ""


def _version_links(shelf: OpenShelf, identities: dict[str, Identity]) -> list[tuple[str, str, str]]:
    """(kind, newer, older) of the shelf's same_series links, and of its supersedes links between two versions of one
    series (a sentence saying one procedure supersedes another does not make them versions)."""
    out = []
    for link in shelf.links:
        newer, older = link.src_doc, link.dst_doc
        if link.kind not in ("supersedes", "same_series") or newer == older or newer not in identities or older not in identities:
            continue
        if link.kind == "supersedes" and not one_series(identities[newer], identities[older]):
            continue
        out.append((link.kind, newer, older))
    return sorted(set(out))


def _series(docs: list[str], identities: dict[str, Identity], links: list[tuple[str, str, str]]) -> list[list[str]]:
    """Documents grouped into series: one identity key, or joined by a supersedes / same_series link (union-find)."""
    parent = {d: d for d in docs}

    def root(d: str) -> str:
        while parent[d] != d:
            parent[d] = parent[parent[d]]
            d = parent[d]
        return d

    by_key: dict[tuple, str] = {}
    for doc in docs:
        key = identities[doc].key
        if key:
            if key in by_key:
                parent[root(doc)] = root(by_key[key])
            else:
                by_key[key] = doc
    for _, newer, older in links:
        if newer in parent and older in parent:
            parent[root(newer)] = root(older)
    groups: dict[str, list[str]] = {}
    for doc in docs:
        groups.setdefault(root(doc), []).append(doc)
    return [members for members in groups.values() if len(members) > 1]


def _ordered(members: list[str], identities: dict[str, Identity], links: list[tuple[str, str, str]]) -> list[str]:
    """Oldest first: by revision and date, a link saying which is newer winning over both."""
    order = sorted(members, key=lambda d: identities[d].order)
    newer_than = {(newer, older) for _, newer, older in links}
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            if (order[i], order[j]) in newer_than:
                order[i], order[j] = order[j], order[i]
    return order


def _picked(order: list[str], labels: dict[str, str], wanted: list[str]) -> list[str]:
    """The series' documents whose label (revision or year) the question names; with one named, it and its predecessor."""
    chosen = [d for d in order if labels[d] and labels[d] in wanted]
    if len({labels[d] for d in chosen}) >= 2:
        return chosen
    if len(wanted) == 1 and len(chosen) == 1 and order.index(chosen[0]) > 0:
        return [order[order.index(chosen[0]) - 1], chosen[0]]
    return []


def resolve_pairs(obligation: Obligation, shelves: dict[str, OpenShelf], scope: dict[str, set[str]]) -> list[ComparePair]:
    """The version pairs a compare obligation asks about (see the module text); empty when it names none."""
    if not asks_to_compare(obligation):
        return []
    text = " ".join([obligation.ask, *(t for t in obligation.targets if read_phrase(t).identifiers)])
    keys = set(read_phrase(text).keys)
    revisions, years = revisions_in(obligation.ask), years_in(obligation.ask)
    lowered = " ".join(text.lower().split())
    pairs: list[ComparePair] = []
    for name in sorted(scope):
        shelf = shelves[name]
        views = shelf_views(shelf)
        identities = _identities(shelf, views)
        docs = [d for d in views if d in scope[name]]
        named = {d for d in docs if keys & document_keys(d, views[d].title, "")}
        people = {d for d in docs if len(identities[d].name) > 3
                  and re.search(rf"(?<!\w){re.escape(' '.join(identities[d].name.lower().split()))}(?!\w)", lowered)}
        if not (named or people or revisions or years):
            continue
        links = _version_links(shelf, identities)
        for members in _series(docs, identities, links):
            if (named and not named & set(members)) or (people and not people & set(members)):
                continue
            order = _ordered(members, identities, links)
            if revisions:
                chosen = _picked(order, {d: _revision(views[d]) for d in order}, revisions)
            elif years:
                chosen = _picked(order, {d: _year(views[d], identities[d]) for d in order}, years)
            else:
                chosen = order if named or people else []
            for older, newer in zip(chosen, chosen[1:]):
                reason = next((f"{kind} link" for kind, n, o in links if (n, o) == (newer, older)), f"same {identities[newer].kind or 'series'}")
                pairs.append(ComparePair(name, views[older], views[newer], identities[newer], reason))
    return pairs
