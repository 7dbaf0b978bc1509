"""Recall: candidate sections per obligation, over the search routes and the ledger (paper §3.3 "Recall").

For each obligation the shelf's searcher fuses the routes its fit keeps (BM25,
dense, code tokens: search.ROUTE_WEIGHTS) by reciprocal rank; the
ledger's facts whose subject or sentence holds a target add their sections as
one more route ("ledger"); the documents the plan binds (named by number, title,
issuer and period, or cited by earlier turns) give their own best sections as a
route ("bound": BM25 within them, each document in turn). Only sections inside
the request's document scope are kept. (A flat vote for every found section of
a bound document, the "planned" route before the bound one, was dropped: without
it answers were the same on six sets, unseen-cross 0.514 -> 0.525, filings'
figures in the answer 0.412 -> 0.440, names 0.426 -> 0.404.)

The bound route is the reader's, not the search's: a question that names a
document is read in that document whatever the search ranks first, while the
search (the widget's, the benchmark's) fuses only the routes its fit keeps.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.shelves import OpenShelf
from shelfwise.compiler.search.search import RRF_K

__all__ = ["Candidate", "ObligationRecall", "Recall", "recall_candidates"]

BOUND_WEIGHT = 1.0
"""Weight of the bound-documents route in recall's fusion: one route, one vote, as BM25 and dense."""
TRACE_TOP = 30
"""Candidates per obligation kept in the trace with their route ranks."""


class Candidate(BaseModel):
    """A section some route found for some obligation."""

    shelf: str
    section_id: str
    doc_id: str
    score: float = Field(description="Best fused score over the obligations that found it.")
    scores: dict[int, float] = Field(description="Fused score per obligation index.")
    routes: dict[str, int] = Field(description="Best 1-based rank per route (search routes, 'ledger', 'bound').")


class ObligationRecall(BaseModel):
    """What recall did for one obligation, for the trace."""

    obligation: int
    query: str
    routes: dict[str, int] = Field(description="Sections each route returned.")
    top: list[dict] = Field(description="The best candidates with their route ranks (at most 30).")
    out_of_scope: int = Field(default=0, description="Sections found outside the request's document scope (dropped).")


class Recall(BaseModel):
    """Candidates over every obligation, best first."""

    candidates: list[Candidate]
    obligations: list[ObligationRecall]
    warnings: list[str] = Field(default_factory=list)


def _query(ask: str, targets: list[str]) -> str:
    seen = ask.lower()
    extra = [t for t in targets if t.lower() not in seen]
    return " ".join([ask, *extra])


def _lowered_facts(shelf: OpenShelf) -> list[tuple[str, str, str, str, str]]:
    """(doc id, kind, section id, subject, quote) of every ledger fact, lower-cased once per open shelf."""
    return shelf.memo(("lowered_facts",), lambda: [(f.doc_id, f.kind, f.section_id, f.subject.lower(), f.quote.lower())
                                                    for f in shelf.facts])


def _ledger_route(shelf: OpenShelf, targets: list[str], scope: set[str]) -> list[str]:
    """Sections of ledger facts naming a target: subject matches first (definitions before the rest), then sentences."""
    wanted = [t.lower() for t in targets if len(t) > 3 and (" " in t or any(c.isupper() or c.isdigit() for c in t))]
    if not wanted:
        return []
    by_subject, by_quote = [], []
    for doc_id, kind, section_id, subject, quote in _lowered_facts(shelf):
        if doc_id not in scope:
            continue
        if any(w == subject or (w in subject and len(w) >= len(subject) / 2) for w in wanted):
            by_subject.append((0 if kind == "definition" else 1, section_id))
        elif any(w in quote for w in wanted):
            by_quote.append(section_id)
    ordered = [sid for _, sid in sorted(by_subject, key=lambda x: x[0])] + by_quote
    return list(dict.fromkeys(ordered))


def recall_candidates(
    plan: Plan,
    shelves: dict[str, OpenShelf],
    scope: dict[str, set[str]],
    *,
    depth: int,
    check_deadline: Callable[[str], None] = lambda stage: None,
) -> Recall:
    """Candidates for every obligation of ``plan`` over ``shelves``, limited to ``scope`` (shelf -> document ids)."""
    found: dict[tuple[str, str], Candidate] = {}
    reports: list[ObligationRecall] = []
    warnings: list[str] = []
    for index, obligation in enumerate(plan.obligations):
        check_deadline("recall")
        query = _query(obligation.ask, obligation.targets)
        counts: dict[str, int] = {}
        scored: list[tuple[float, str, str, dict[str, int]]] = []
        dropped = 0
        for name in sorted(shelves):
            shelf = shelves[name]
            in_scope = scope.get(name, set())
            with shelf.lock:
                result = shelf.searcher.search(query, k=depth)
            for warning in result.warnings:
                if warning not in warnings:
                    warnings.append(warning)
            for route, count in result.routes.items():
                counts[route] = counts.get(route, 0) + count
            fused: dict[str, tuple[float, dict[str, int]]] = {}
            for hit in result.hits:
                if hit.doc_id not in in_scope:
                    dropped += 1
                    continue
                fused[hit.section_id] = (hit.score, dict(hit.ranks))
            ledger = _ledger_route(shelf, obligation.targets, in_scope)
            counts["ledger"] = counts.get("ledger", 0) + len(ledger)
            for rank, sid in enumerate(ledger, start=1):
                score, ranks = fused.get(sid, (0.0, {}))
                fused[sid] = (score + 1.0 / (RRF_K + rank), {**ranks, "ledger": rank})
            bound_docs = set(obligation.documents) & in_scope
            bound = shelf.searcher.route_named(query, sorted(bound_docs)) if bound_docs else []
            counts["bound"] = counts.get("bound", 0) + len(bound)
            for rank, sid in enumerate(bound, start=1):
                score, ranks = fused.get(sid, (0.0, {}))
                fused[sid] = (score + BOUND_WEIGHT / (RRF_K + rank), {**ranks, "bound": rank})
            for sid, (score, ranks) in fused.items():
                scored.append((score, name, sid, ranks))
        scored.sort(key=lambda item: (-item[0], item[1], item[2]))
        for score, name, sid, ranks in scored:
            key = (name, sid)
            candidate = found.get(key)
            if candidate is None:
                candidate = found[key] = Candidate(
                    shelf=name, section_id=sid, doc_id=shelves[name].sections[sid].doc_id, score=0.0, scores={}, routes={}
                )
            candidate.scores[index] = round(score, 6)
            candidate.score = max(candidate.score, round(score, 6))
            for route, rank in ranks.items():
                candidate.routes[route] = min(candidate.routes.get(route, rank), rank)
        reports.append(
            ObligationRecall(
                obligation=index,
                query=query,
                routes=dict(sorted(counts.items())),
                top=[{"shelf": n, "section_id": s, "score": round(sc, 6), "ranks": r} for sc, n, s, r in scored[:TRACE_TOP]],
                out_of_scope=dropped,
            )
        )
    candidates = sorted(found.values(), key=lambda c: (-c.score, c.shelf, c.section_id))
    return Recall(candidates=candidates, obligations=reports, warnings=warnings)
