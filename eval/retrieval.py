"""Retrieval evaluation against gold evidence (paper §4.2), every system scored at section level.

Metrics per question, then averaged over the questions that have evidence:

    recall@5/10/20, precision@5/10, MRR, nDCG@10   over the union of the question's evidence sections
    ctx_recall@5/10/20     share of must items with at least one evidence section in the top k
    ctx_precision          average precision over the top 10 (RAGAS context precision)
    budget_4k/16k/64k      context recall when each system reads its own units in rank order until
                           that many characters are spent; a unit that does not fit is skipped

Systems: BM25 sections, dense sections, BM25 + dense sections, hybrid sections
(all search routes) and the chunk-RAG baseline (eval/baseline.py).
"""

from __future__ import annotations

import json
import math
import platform
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from compiler.embedders import Embedder
from compiler.errors import SearchError
from compiler.search import ShelfSearcher
from compiler.store import Store
from eval.baseline import CHUNK_CHARS, CHUNK_OVERLAP, ChunkIndex
from eval.questions import GoldQuestion, load_questions, map_gold

__all__ = ["Unit", "question_metrics", "mean_metrics", "run_retrieval_eval", "SYSTEMS", "BUDGETS", "METRICS"]

DEPTH = 100
BUDGETS = (4000, 16000, 64000)
SYSTEMS = {
    "bm25 sections": ("bm25",),
    "dense sections": ("dense",),
    "bm25+dense sections": ("bm25", "dense"),
    "hybrid sections": ("bm25", "dense", "heading", "named", "figures", "numeric"),
}
CHUNK_SYSTEM = "chunk RAG (2000/250, bm25+dense)"
METRICS = (
    "recall@5", "recall@10", "recall@20", "precision@5", "precision@10", "mrr", "ndcg@10",
    "ctx_recall@5", "ctx_recall@10", "ctx_recall@20", "ctx_precision", "budget_4k", "budget_16k", "budget_64k",
)  # fmt: skip


class Unit(BaseModel):
    """What a system hands its reader: a section, or a chunk and the sections it carries."""

    chars: int = Field(description="Characters the reader spends on the unit.")
    sections: list[str] = Field(description="Sections the unit retrieves.")


def _dedupe(units: list[Unit]) -> list[str]:
    return list(dict.fromkeys(sid for unit in units for sid in unit.sections))


def question_metrics(gold: GoldQuestion, units: list[Unit]) -> dict[str, float]:
    """All metrics of one question for one system's ranked units."""
    ranked = _dedupe(units)
    relevant = gold.relevant
    items = [set(item) for item in gold.items if item]
    out: dict[str, float] = {}
    for k in (5, 10, 20):
        top = ranked[:k]
        hits = sum(1 for sid in top if sid in relevant)
        out[f"recall@{k}"] = hits / len(relevant)
        if k in (5, 10):
            out[f"precision@{k}"] = hits / k
        out[f"ctx_recall@{k}"] = sum(1 for item in items if item & set(top)) / len(items)
    first = next((rank for rank, sid in enumerate(ranked, start=1) if sid in relevant), None)
    out["mrr"] = 1.0 / first if first else 0.0
    dcg = sum(1.0 / math.log2(rank + 1) for rank, sid in enumerate(ranked[:10], start=1) if sid in relevant)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(relevant), 10) + 1))
    out["ndcg@10"] = dcg / ideal
    hits, precision_sum = 0, 0.0
    for rank, sid in enumerate(ranked[:10], start=1):
        if sid in relevant:
            hits += 1
            precision_sum += hits / rank
    out["ctx_precision"] = precision_sum / hits if hits else 0.0
    for budget in BUDGETS:
        spent, read = 0, set()
        for unit in units:
            if spent + unit.chars <= budget:
                spent += unit.chars
                read.update(unit.sections)
        out[f"budget_{budget // 1000}k"] = sum(1 for item in items if item & read) / len(items)
    return out


def mean_metrics(rows: list[dict[str, float]]) -> dict[str, float]:
    return {name: round(sum(r[name] for r in rows) / len(rows), 4) for name in METRICS} if rows else {}


def _section_units(searcher: ShelfSearcher, query: str, routes: tuple[str, ...]) -> list[Unit]:
    result = searcher.search(query, k=DEPTH, routes=routes)
    return [Unit(chars=len(hit.heading) + 2 + hit.chars, sections=[hit.section_id]) for hit in result.hits]


def _evaluate_shelf(
    shelf: str,
    golds: list[GoldQuestion],
    build_dir: Path,
    embedder: Embedder,
    progress: Callable[[str], None],
) -> dict[str, list[dict]]:
    shelf_dir = build_dir / shelf
    store = Store(shelf_dir / "store.sqlite", create=False)
    searcher = ShelfSearcher(store, shelf_dir / "lexical", embedder, depth=DEPTH)
    progress(f"retrieval: {shelf}: building the chunk baseline")
    chunks = ChunkIndex(store, embedder, shelf_dir / "eval-chunks", progress)
    per_system: dict[str, list[dict]] = {name: [] for name in [*SYSTEMS, CHUNK_SYSTEM]}
    try:
        for gold in golds:
            query = gold.question.question
            for name, routes in SYSTEMS.items():
                started = time.perf_counter()
                units = _section_units(searcher, query, routes)
                per_system[name].append(_row(gold, units, time.perf_counter() - started))
            started = time.perf_counter()
            found = chunks.search(query, DEPTH)
            units = [Unit(chars=len(c.text), sections=c.sections) for c in found]
            per_system[CHUNK_SYSTEM].append(_row(gold, units, time.perf_counter() - started))
            progress(f"retrieval: {gold.question.id} done")
    finally:
        chunks.close()
        searcher.close()
        store.close()
    return per_system


def _row(gold: GoldQuestion, units: list[Unit], seconds: float) -> dict:
    return {
        "id": gold.question.id,
        "metrics": {k: round(v, 4) for k, v in question_metrics(gold, units).items()},
        "top10": _dedupe(units)[:10],
        "seconds": round(seconds, 4),
    }


def run_retrieval_eval(
    questions_path: Path,
    *,
    build_dir: Path = Path("build"),
    embedder: Embedder | None = None,
    results_path: Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict:
    """``shelfwise eval retrieval --questions PATH``: score every system on the questions' compiled shelves.

    Each question's shelf must be compiled under ``build_dir/<shelf>/``. Writes the
    result JSON to ``results_path`` (default eval/results/retrieval-<questions file stem>.json)
    and returns it.
    """
    from compiler.embedders import default_embedder

    progress = progress or (lambda line: None)
    embedder = embedder or default_embedder()
    questions = load_questions(Path(questions_path))
    shelves = sorted({q.shelf for q in questions})
    missing = [s for s in shelves if not (Path(build_dir) / s / "store.sqlite").exists()]
    if missing:
        raise SearchError(
            f"shelves not compiled under {build_dir}: {', '.join(missing)}; run "
            + " and ".join(f"'shelfwise build <corpora>/{s} --build-dir {build_dir}'" for s in missing)
        )
    per_system: dict[str, list[dict]] = {}
    notes: list[str] = []
    skipped: list[str] = []
    for shelf in shelves:
        store = Store(Path(build_dir) / shelf / "store.sqlite", create=False)
        golds = [map_gold(q, store) for q in questions if q.shelf == shelf]
        store.close()
        for gold in golds:
            notes.extend(gold.notes)
        scored = [g for g in golds if g.relevant]
        skipped.extend(g.question.id for g in golds if not g.relevant)
        for name, rows in _evaluate_shelf(shelf, scored, Path(build_dir), embedder, progress).items():
            per_system.setdefault(name, []).extend(rows)
    result = {
        "kind": "retrieval",
        "questions": str(questions_path),
        "n_questions": len(questions),
        "n_scored": len(questions) - len(skipped),
        "skipped_without_evidence": skipped,
        "embedder": embedder.model_id,
        "chunking": {"chars": CHUNK_CHARS, "overlap": CHUNK_OVERLAP},
        "machine": platform.platform(),
        "systems": {name: mean_metrics([r["metrics"] for r in rows]) for name, rows in per_system.items()},
        "per_question": per_system,
        "gold_notes": notes,
    }
    results_path = results_path or Path("eval/results") / f"retrieval-{Path(questions_path).stem}.json"
    results_path.parent.mkdir(parents=True, exist_ok=True)
    results_path.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return result
