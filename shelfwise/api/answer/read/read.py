"""Read: which whole sections the writer gets (paper §3.3 "Recall", §6.10, §6.14).

The whole scope when its text fits the reading budget. Otherwise the budget
(less a share kept for one hop) is filled with the most relevant whole
documents, then the best section of each document the plan binds (the
question names it), then the most relevant sections of the rest; then one hop along the
ledger's resolved links from what was read fills the spare budget. What is
read is given in document order. Every candidate not opened is recorded with
the reason.

A relevant section longer than the read limit (a quarter of the budget, at least
``section_read_chars``: shelfwise/compiler/search/reading.py ``read_limit``) is not read whole when the
scope does not fit: it is read as its opening paragraph and its most relevant
passages with their neighbours (shelfwise/compiler/search/reading.py); ``ReadSection.spans``
says which characters, ``read_text`` gives them to the writers, and the rest is
recorded as not opened ("section longer than N characters; passages k of n read").
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from shelfwise.api.answer.recall import Candidate, Recall
from shelfwise.api.shelves import OpenShelf
from shelfwise.compiler.search.reading import SectionReader, read_limit

__all__ = ["ReadSection", "NotOpened", "Reading", "read_sections", "read_text", "read_blocks", "HOP_KINDS"]

HOP_KINDS = ("resolves", "cites", "depends_on", "supersedes", "updates", "same_series", "shares_names")


class ReadSection(BaseModel):
    """A section given whole to the writer."""

    shelf: str
    section_id: str
    doc_id: str
    chars: int = Field(description="Characters it cost (heading path and its own text).")
    why: str = Field(description="'whole scope', 'whole document', 'relevant section' or the link hop that brought it.")
    ranks: dict[int, int] = Field(
        default_factory=dict, description="Per obligation index, the section's 1-based rank among recall's candidates (absent: not found)."
    )
    spans: list[tuple[int, int]] | None = Field(
        default=None, description="Character spans of the section text that were read, in order; None: the whole section."
    )
    not_read: str = Field(default="", description="For a section read in part: what was left unopened, e.g. 'section longer than 6,000 characters; passages 3 of 9 read'.")


class NotOpened(BaseModel):
    """A candidate that was not read, and why."""

    shelf: str
    section_id: str
    doc_id: str
    score: float
    reason: str


class Reading(BaseModel):
    """What was read and what was not."""

    budget: int = Field(description="The reading budget in characters.")
    scope_chars: int = Field(description="Characters of the whole document scope.")
    whole_scope: bool = Field(description="Whether the whole scope fit and was read.")
    chars_read: int
    sections: list[ReadSection] = Field(description="Read sections in document order.")
    not_opened: list[NotOpened] = Field(description="Candidates not read, with the reason.")


def _text_sections(shelf: OpenShelf, doc_id: str) -> list[str]:
    return shelf.text_sections(doc_id)


def read_sections(
    recall: Recall,
    shelves: dict[str, OpenShelf],
    scope: dict[str, set[str]],
    *,
    budget: int,
    hop_share: float,
    section_read_chars: int | None = None,
) -> Reading:
    """Choose what to read from ``scope`` (shelf -> document ids) within ``budget`` characters.

    ``section_read_chars``: when the scope does not fit, a relevant section longer than ``read_limit(budget less
    the hop share, section_read_chars)`` is read in part (its opening and its most relevant passages); None reads
    every chosen section whole.
    """
    partial: dict[tuple[str, str], tuple[list[tuple[int, int]], str, int]] = {}
    chosen: dict[tuple[str, str], str] = {}
    scope_chars = sum(shelves[name].document_chars(doc_id) for name in scope for doc_id in scope[name])
    whole = scope_chars <= budget
    used = 0
    if whole:
        for name in sorted(scope):
            for doc_id in scope[name]:
                for sid in _text_sections(shelves[name], doc_id):
                    chosen[(name, sid)] = "whole scope"
        used = scope_chars
    else:
        main = int(budget * (1 - hop_share))
        limit = read_limit(main, section_read_chars) if section_read_chars else None
        relevance: dict[tuple[str, str], list[float]] = {}
        for candidate in recall.candidates:
            relevance.setdefault((candidate.shelf, candidate.doc_id), []).append(candidate.score)
        ranked_docs = sorted(relevance, key=lambda key: (-sum(sorted(relevance[key], reverse=True)[:3]), key))
        for name, doc_id in ranked_docs:
            sids = _text_sections(shelves[name], doc_id)
            cost = shelves[name].document_chars(doc_id)
            if used + cost > main:
                break
            for sid in sids:
                chosen[(name, sid)] = "whole document"
            used += cost
        for candidate in [*_bound_first(recall), *recall.candidates]:
            key = (candidate.shelf, candidate.section_id)
            if key in chosen:
                continue
            cost = shelves[candidate.shelf].chars(candidate.section_id)
            if limit and cost > limit:
                part = _read_part(recall, shelves[candidate.shelf], candidate, limit)
                if part is not None:
                    partial[key] = part
                    cost = part[2]
            if used + cost <= main:
                chosen[key] = "relevant section"
                used += cost
            else:
                partial.pop(key, None)
        used = _hop(shelves, scope, recall, chosen, used, budget)
    not_opened = []
    for candidate in recall.candidates:
        if (candidate.shelf, candidate.section_id) in chosen:
            continue
        cost = shelves[candidate.shelf].chars(candidate.section_id)
        reason = (
            f"not opened: the reading budget of {budget:,} characters went to more relevant documents and sections "
            f"({budget - used:,} left; this section needs {cost:,})"
            if cost
            else "not opened: the section has no text of its own (its subsections carry it)"
        )
        not_opened.append(
            NotOpened(shelf=candidate.shelf, section_id=candidate.section_id, doc_id=candidate.doc_id, score=candidate.score, reason=reason)
        )
    ranks = _ranks(recall)
    sections = []
    for name in sorted(scope):
        shelf = shelves[name]
        order = {doc_id: n for n, doc_id in enumerate(shelf.doc_order())}
        keys = sorted(
            (sid for (n, sid) in chosen if n == name),
            key=lambda sid: (order[shelf.sections[sid].doc_id], shelf.sections[sid].seq),
        )
        for sid in keys:
            section = shelf.sections[sid]
            spans, not_read, cost = partial.get((name, sid), (None, "", shelf.chars(sid)))
            sections.append(ReadSection(shelf=name, section_id=sid, doc_id=section.doc_id, chars=cost, why=chosen[(name, sid)],
                                        ranks=ranks.get((name, sid), {}), spans=spans, not_read=not_read))
    return Reading(
        budget=budget, scope_chars=scope_chars, whole_scope=whole, chars_read=used, sections=sections, not_opened=not_opened
    )


def _bound_first(recall: Recall) -> list[Candidate]:
    """The best section of each document the plan binds (recall's "bound" route, BM25 within the document), best
    bound rank first: a question that names documents reads each of them, whatever the fusion ranks first."""
    best: dict[tuple[str, str], Candidate] = {}
    for candidate in recall.candidates:
        rank = candidate.routes.get("bound")
        key = (candidate.shelf, candidate.doc_id)
        if rank is not None and (key not in best or rank < best[key].routes["bound"]):
            best[key] = candidate
    return sorted(best.values(), key=lambda c: (c.routes["bound"], c.shelf, c.section_id))


def _read_part(recall: Recall, shelf: OpenShelf, candidate, limit: int) -> tuple[list[tuple[int, int]], str, int] | None:
    """(spans, what was not read, cost) of a long section read for the obligations that found it; None: read whole."""
    reader = shelf.memo("section_reader", lambda: SectionReader(shelf.searcher))
    queries = [recall.obligations[i].query for i in sorted(candidate.scores) if i < len(recall.obligations)]
    with shelf.lock:
        part = reader.read(candidate.section_id, queries, limit)
    if part is None or not part.spans:
        return None
    section = shelf.sections[candidate.section_id]
    note = f"section longer than {limit:,} characters; {part.chars:,} of its {len(section.text):,} characters read, the rest not opened"
    return part.spans, note, part.chars + sum(len(h) for h in section.heading_path)


def read_text(shelf: OpenShelf, read: ReadSection) -> str:
    """The text of ``read`` that was read: the whole section, or its spans in order joined by ' … '."""
    text = shelf.sections[read.section_id].text
    if read.spans is None:
        return text
    return "\n\n…\n\n".join(text[start:end].strip() for start, end in read.spans)


def read_blocks(shelf: OpenShelf, read: ReadSection) -> set[int] | None:
    """Indexes of the section's blocks that overlap what was read; None: every block (read whole)."""
    if read.spans is None:
        return None
    kept, position = set(), 0
    for index, block in enumerate(shelf.sections[read.section_id].blocks):
        if not block.text:
            continue
        start, end = position, position + len(block.text)
        if any(a < end and start < b for a, b in read.spans):
            kept.add(index)
        position = end + 2
    return kept


def _ranks(recall: Recall) -> dict[tuple[str, str], dict[int, int]]:
    """(shelf, section id) -> obligation index -> the section's rank among that obligation's candidates."""
    per: dict[int, list[tuple[float, str, str]]] = {}
    for candidate in recall.candidates:
        for index, score in candidate.scores.items():
            per.setdefault(index, []).append((-score, candidate.shelf, candidate.section_id))
    out: dict[tuple[str, str], dict[int, int]] = {}
    for index in sorted(per):
        for rank, (_, shelf, sid) in enumerate(sorted(per[index]), start=1):
            out.setdefault((shelf, sid), {})[index] = rank
    return out


def _hop(
    shelves: dict[str, OpenShelf],
    scope: dict[str, set[str]],
    recall: Recall,
    chosen: dict[tuple[str, str], str],
    used: int,
    budget: int,
) -> int:
    """One hop along resolved links from the read sections, into the spare budget; returns the characters used."""
    best_in_doc: dict[tuple[str, str], str] = {}
    for candidate in recall.candidates:
        best_in_doc.setdefault((candidate.shelf, candidate.doc_id), candidate.section_id)
    for name in sorted(scope):
        shelf = shelves[name]
        read = {sid for (n, sid) in chosen if n == name}
        read_docs = {shelf.sections[sid].doc_id for sid in read}
        for link in shelf.links:
            if link.kind not in HOP_KINDS or link.dst_doc not in scope[name]:
                continue
            from_read = link.src_section in read if link.src_section else link.src_doc in read_docs
            if not from_read:
                continue
            target = link.dst_section or best_in_doc.get((name, link.dst_doc))
            if target is None:
                texts = _text_sections(shelf, link.dst_doc)
                target = texts[0] if texts else None
            if target is None or target not in shelf.sections or (name, target) in chosen:
                continue
            cost = shelf.chars(target)
            if cost and used + cost <= budget:
                chosen[(name, target)] = f"one hop along a '{link.kind}' link from {link.src_section or link.src_doc}"
                used += cost
    return used
