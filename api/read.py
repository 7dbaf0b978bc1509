"""Read: which whole sections the writer gets (paper §3.3 "Recall", §6.10, §6.14).

The whole scope when its text fits the reading budget. Otherwise the budget
(less a share kept for one hop) is filled with the most relevant whole
documents, then the most relevant sections of the rest; then one hop along the
ledger's resolved links from what was read fills the spare budget. What is
read is given in document order. Every candidate not opened is recorded with
the reason.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from api.recall import Recall
from api.shelves import OpenShelf

__all__ = ["ReadSection", "NotOpened", "Reading", "read_sections", "HOP_KINDS"]

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
    return [sid for sid in shelf.doc_sections.get(doc_id, []) if shelf.sections[sid].text.strip()]


def read_sections(
    recall: Recall,
    shelves: dict[str, OpenShelf],
    scope: dict[str, set[str]],
    *,
    budget: int,
    hop_share: float,
) -> Reading:
    """Choose what to read from ``scope`` (shelf -> document ids) within ``budget`` characters."""
    chosen: dict[tuple[str, str], str] = {}
    scope_chars = sum(
        shelves[name].chars(sid) for name in scope for doc_id in scope[name] for sid in _text_sections(shelves[name], doc_id)
    )
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
        relevance: dict[tuple[str, str], list[float]] = {}
        for candidate in recall.candidates:
            relevance.setdefault((candidate.shelf, candidate.doc_id), []).append(candidate.score)
        ranked_docs = sorted(relevance, key=lambda key: (-sum(sorted(relevance[key], reverse=True)[:3]), key))
        for name, doc_id in ranked_docs:
            sids = _text_sections(shelves[name], doc_id)
            cost = sum(shelves[name].chars(sid) for sid in sids)
            if used + cost > main:
                break
            for sid in sids:
                chosen[(name, sid)] = "whole document"
            used += cost
        for candidate in recall.candidates:
            key = (candidate.shelf, candidate.section_id)
            if key in chosen:
                continue
            cost = shelves[candidate.shelf].chars(candidate.section_id)
            if used + cost <= main:
                chosen[key] = "relevant section"
                used += cost
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
            sections.append(ReadSection(shelf=name, section_id=sid, doc_id=section.doc_id, chars=shelf.chars(sid), why=chosen[(name, sid)],
                                        ranks=ranks.get((name, sid), {})))
    return Reading(
        budget=budget, scope_chars=scope_chars, whole_scope=whole, chars_read=used, sections=sections, not_opened=not_opened
    )


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
