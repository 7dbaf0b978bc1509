"""Research mode without a model (issue 18): the fixed loop's reading plus one or two hops, within a budget.

Each hop starts from the sections the previous one read (the first from the
fixed loop's reading) and goes along the shelf's links (``shelfwise.api.answer.read.read.HOP_KINDS``,
either direction) and along shared rare names: a capitalised name holding a
word the shelf never writes in lower case (``shelfwise.compiler.links.relations.document_names``,
read per section here), held by at most ``RARE_DOCS`` documents. So a document
the question never names is reached when it shares a rare name with what was
read — the renamed thing of paper §6.14's bridge check. Candidates are taken
best first (recall's score, then how rare the shared names are) while they fit
``research.max_chars`` characters on top of the fixed reading (the first of two
hops fills at most ``FIRST_HOP_SHARE`` of it, so the second has room).
"""

from __future__ import annotations

from collections import defaultdict

from shelfwise.api.answer.read.read import HOP_KINDS, ReadSection
from shelfwise.api.answer.read.read import _ranks as recall_ranks
from shelfwise.api.answer.recall import Recall
from shelfwise.api.shelves import OpenShelf
from shelfwise.compiler.links.links import ShelfIndex
from shelfwise.compiler.links.relations import document_names

__all__ = ["expand_reading", "section_names", "RARE_DOCS"]

RARE_DOCS = 3
"""A name counts as rare when at most this many documents hold it."""
FIRST_HOP_SHARE = 0.6
"""Share of ``research.max_chars`` the first of two hops may fill, so the second has room."""
NAMES_SHOWN = 3
"""Shared names quoted in a hop's 'why'."""


def section_names(shelf: OpenShelf) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(section id -> its rare names, name -> section ids holding it), computed once per open shelf."""
    def make() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
        per_section = document_names(ShelfIndex([], {sid: [section] for sid, section in shelf.sections.items()}))
        holders: dict[str, set[str]] = defaultdict(set)
        for sid, names in per_section.items():
            for name in names:
                holders[name].add(sid)
        return per_section, dict(holders)
    return shelf.memo(("research-names",), make)


def _candidates(shelf: OpenShelf, frontier: set[str], chosen: set[str], in_scope: set[str],
                best: dict[str, tuple[float, str]]) -> dict[str, tuple[float, float, str, tuple[str, ...]]]:
    """Section id -> (recall score, name weight, why, shared names) of the sections one hop from ``frontier`` in one shelf."""
    per_section, holders = section_names(shelf)
    docs_of = {n: {shelf.sections[s].doc_id for s in sids} for n, sids in holders.items()}
    frontier_docs = {shelf.sections[sid].doc_id for sid in frontier}
    found: dict[str, tuple[float, float, str, tuple[str, ...]]] = {}

    def offer(sid: str, weight: float, why: str, names: tuple[str, ...] = ()) -> None:
        if sid in chosen or shelf.sections[sid].doc_id not in in_scope or not shelf.chars(sid) or not shelf.sections[sid].text.strip():
            return
        old = found.get(sid)
        found[sid] = (best.get(sid, (0.0, ""))[0], weight + (old[1] if old else 0.0), old[2] if old else why, (old[3] if old else ()) + names)

    shared: dict[str, list[str]] = defaultdict(list)
    for sid in sorted(frontier):
        for rare in sorted(per_section.get(sid, ())):
            if not 2 <= len(docs_of[rare]) <= RARE_DOCS:
                continue
            for other in sorted(holders[rare]):
                if shelf.sections[other].doc_id != shelf.sections[sid].doc_id:
                    shared[other].append(rare)
    for other, names in sorted(shared.items()):
        weight = sum(1.0 / len(docs_of[n]) for n in set(names))
        quoted = ", ".join(sorted(set(names))[:NAMES_SHOWN])
        offer(other, weight, f"shares the rare name(s) {quoted} with what was read", tuple(sorted(set(names))))
    for link in shelf.links:
        if link.kind not in HOP_KINDS:
            continue
        for here_doc, here_sec, there_doc, there_sec in ((link.src_doc, link.src_section, link.dst_doc, link.dst_section),
                                                         (link.dst_doc, link.dst_section, link.src_doc, link.src_section)):
            if there_doc not in in_scope or not (here_sec in frontier if here_sec else here_doc in frontier_docs):
                continue
            target = there_sec if there_sec in shelf.sections else _target(shelf, there_doc, frontier, best)
            if target is not None:
                offer(target, 0.5, f"a '{link.kind}' link from {here_sec or here_doc}")
    return found


def _target(shelf: OpenShelf, doc_id: str, frontier: set[str], best: dict[str, tuple[float, str]]) -> str | None:
    """The section of ``doc_id`` a document-level link leads to: the one sharing most rare names with the frontier,
    else recall's best section of the document, else its first section with text."""
    per_section, _ = section_names(shelf)
    names = set().union(*(per_section.get(sid, set()) for sid in frontier)) if frontier else set()
    texts = [sid for sid in shelf.doc_sections.get(doc_id, []) if shelf.sections[sid].text.strip()]
    if not texts:
        return None
    sharing = max(texts, key=lambda sid: (len(per_section.get(sid, set()) & names), best.get(sid, (0.0, ""))[0], -texts.index(sid)))
    if per_section.get(sharing, set()) & names:
        return sharing
    recalled = [sid for sid in texts if sid in best]
    return max(recalled, key=lambda sid: best[sid][0]) if recalled else texts[0]


def expand_reading(fixed: list[ReadSection], recall: Recall, shelves: dict[str, OpenShelf], scope: dict[str, set[str]],
                   *, max_chars: int, hops: int) -> tuple[list[ReadSection], list[str], list[str]]:
    """Sections ``hops`` hops from the ``fixed`` reading that fit ``max_chars``, one line per hop for the trace, and the
    rare names that led into a document the fixed reading did not touch (the bridging names)."""
    best = {(c.shelf, c.section_id): (c.score, c.doc_id) for c in recall.candidates}
    ranks = recall_ranks(recall)
    chosen = {(r.shelf, r.section_id) for r in fixed}
    frontier = set(chosen)
    added: list[ReadSection] = []
    lines: list[str] = []
    bridges: list[str] = []
    touched = {(r.shelf, r.doc_id) for r in fixed}
    used = 0
    for hop in range(1, hops + 1):
        offers: list[tuple[float, float, str, str, str, tuple[str, ...]]] = []
        for name in sorted(scope):
            shelf = shelves[name]
            mine = {sid for n, sid in frontier if n == name}
            if not mine:
                continue
            local_best = {sid: v for (n, sid), v in best.items() if n == name}
            found = _candidates(shelf, mine, {sid for n, sid in chosen if n == name}, scope[name], local_best)
            offers += [(score, weight, name, sid, why, names) for sid, (score, weight, why, names) in found.items()]
        offers.sort(key=lambda o: (-o[0], -o[1], o[2], o[3]))
        frontier = set()
        skipped = 0
        limit = int(max_chars * FIRST_HOP_SHARE) if hop < hops else max_chars
        for score, weight, name, sid, why, names in offers:
            cost = shelves[name].chars(sid)
            if used + cost > limit:
                skipped += 1
                continue
            used += cost
            chosen.add((name, sid))
            frontier.add((name, sid))
            doc = (name, shelves[name].sections[sid].doc_id)
            if doc not in touched:
                bridges += [n for n in names if n not in bridges]
                touched.add(doc)
            added.append(ReadSection(shelf=name, section_id=sid, doc_id=shelves[name].sections[sid].doc_id, chars=cost,
                                     why=f"research expansion, hop {hop}: {why}", ranks=ranks.get((name, sid), {})))
        lines.append(f"hop {hop}: {len(offers)} section(s) reachable, {len(frontier)} read"
                     + (f", {skipped} left for the budget ({limit:,} of research.max_chars {max_chars:,} characters by this hop)" if skipped else ""))
        if not frontier:
            break
    return added, lines, bridges
