"""Retrieval evaluation against gold evidence (paper §4.2), every system scored at section level.

Metrics per question, then averaged over the questions that have evidence:

    recall@5/10/20, precision@5/10, MRR, nDCG@10   over the union of the question's evidence sections
    ctx_recall@5/10/20     share of must items with at least one evidence section in the top k
    ctx_precision          average precision over the top 10 (RAGAS context precision)
    budget_4k/16k/64k      context recall when each system reads its own units in rank order until
                           that many characters are spent; a unit that does not fit is skipped

Systems: BM25 sections, dense sections, BM25 + dense sections, hybrid sections
(all search routes), section reading units (the hybrid ranking, a section longer
than the read limit at each budget -- a quarter of it, at least
``answer.section_read_chars`` -- read as its opening and most relevant passages,
as the answerer reads it: shelfwise/compiler/search/reading.py) and the chunk-RAG baseline
(shelfwise/eval/baseline.py). A section read in part covers a must item at a budget only
when one of the item's evidence quotes lies in what was read; so does a chunk (its text is
what was read: a 2,000-character chunk carrying 200 characters of a long section does not
hold the rest of it), while at ranks a chunk retrieves every section it carries.

Ablations: the hybrid without each of its routes, in turn (``ablations`` in the result).
"""

from __future__ import annotations

import json
import math
import platform
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.errors import SearchError
from shelfwise.compiler.search.reading import SectionReader, read_limit
from shelfwise.compiler.search.search import ROUTES, ShelfSearcher
from shelfwise.compiler.store.store import Store
from shelfwise.eval.baseline import CHUNK_CHARS, CHUNK_OVERLAP, ChunkIndex
from shelfwise.eval.questions import GoldQuestion, _key, load_questions, map_gold

__all__ = ["Unit", "chunk_units", "question_metrics", "ndcg_at_10", "mean_metrics", "run_retrieval_eval", "ablation_table", "SYSTEMS", "BUDGETS", "METRICS"]

DEPTH = 100
BUDGETS = (4000, 16000, 64000)
SYSTEMS = {
    "bm25 sections": ("bm25",),
    "dense sections": ("dense",),
    "bm25+dense sections": ("bm25", "dense"),
    "hybrid sections": ROUTES,
}
READING_SYSTEM = "section reading units"
ABLATIONS = {f"hybrid - {route}": tuple(r for r in ROUTES if r != route) for route in ROUTES}
CHUNK_SYSTEM = "chunk RAG (2000/250, bm25+dense)"
METRICS = (
    "recall@5", "recall@10", "recall@20", "precision@5", "precision@10", "mrr", "ndcg@10",
    "ctx_recall@5", "ctx_recall@10", "ctx_recall@20", "ctx_precision", "budget_4k", "budget_16k", "budget_64k",
)  # fmt: skip


class Unit(BaseModel):
    """What a system hands its reader: a section, or a chunk and the sections it carries."""

    chars: int = Field(description="Characters the reader spends on the unit.")
    sections: list[str] = Field(description="Sections the unit retrieves.")
    read_key: str | None = Field(
        default=None, description="For a section read in part: its read text, normalised as quotes are; None: read whole."
    )
    repeats: list[str] = Field(
        default_factory=list, description="Sections of other documents the unit's section holds nearly word for word (SearchHit.repeats): "
        "retrieved at its rank without taking one; read at a budget only for the quotes that stand in what was read of it.",
    )
    read_text_key: str | None = Field(default=None, description="With repeats: what was read of the section (whole or in part), normalised as quotes are.")


def _dedupe(units: list[Unit]) -> list[str]:
    return list(dict.fromkeys(sid for unit in units for sid in unit.sections))


def _slots(units: list[Unit]) -> list[set[str]]:
    """The ranks of a system's output: each section a unit gives first takes one, its folded repeats with it (a chunk
    holding three sections gives three ranks; a section holding another document's copy gives one)."""
    seen: set[str] = set()
    slots: list[set[str]] = []
    for unit in units:
        for sid in unit.sections:
            if sid not in seen:
                seen.add(sid)
                slots.append({sid})
        extra = {sid for sid in unit.repeats if sid not in seen}
        if extra and slots:
            seen |= extra
            slots[-1] |= extra
    return slots


def ndcg_at_10(hits: list[bool], relevant: int) -> float:
    """Binary nDCG@10 of a ranking whose first results are relevant where ``hits`` says, with ``relevant`` relevant in all."""
    dcg = sum(1.0 / math.log2(rank + 1) for rank, hit in enumerate(hits[:10], start=1) if hit)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(relevant, 10) + 1))
    return dcg / ideal if ideal else 0.0


def question_metrics(gold: GoldQuestion, units: list[Unit], budget_units: dict[int, list[Unit]] | None = None) -> dict[str, float]:
    """All metrics of one question for one system's ranked units; ``budget_units`` (budget -> units) gives a system
    whose units depend on the budget (the section reader) its own units at each budget."""
    slots = _slots(units)
    relevant = gold.relevant
    musts = list(gold.question.must) + [None] * max(0, len(gold.items) - len(gold.question.must))
    pairs = [(set(item), must) for item, must in zip(gold.items, musts) if item]
    items = [item for item, _ in pairs]
    quotes = [[_key(e.quote) for e in must.evidence if _key(e.quote)] if must else [] for _, must in pairs]
    out: dict[str, float] = {}
    for k in (5, 10, 20):
        top = set().union(*slots[:k])
        out[f"recall@{k}"] = len(top & relevant) / len(relevant)
        if k in (5, 10):
            out[f"precision@{k}"] = sum(1 for slot in slots[:k] if slot & relevant) / k
        out[f"ctx_recall@{k}"] = sum(1 for item in items if item & top) / len(items)
    first = next((rank for rank, slot in enumerate(slots, start=1) if slot & relevant), None)
    out["mrr"] = 1.0 / first if first else 0.0
    out["ndcg@10"] = ndcg_at_10([bool(slot & relevant) for slot in slots[:10]], len(relevant))
    hits, precision_sum = 0, 0.0
    for rank, slot in enumerate(slots[:10], start=1):
        if slot & relevant:
            hits += 1
            precision_sum += hits / rank
    out["ctx_precision"] = precision_sum / hits if hits else 0.0
    for budget in BUDGETS:
        spent, read, parts, echoes = 0, set(), [], []
        for unit in (budget_units or {}).get(budget, units):
            if spent + unit.chars <= budget:
                spent += unit.chars
                if unit.read_key is None:
                    read.update(unit.sections)
                else:
                    parts.append(unit)
                if unit.repeats:
                    echoes.append(unit)
        covered = 0
        for item, item_quotes in zip(items, quotes):
            in_part = any(item & set(u.sections) and any(q in u.read_key for q in item_quotes) for u in parts)
            in_repeat = any(item & set(u.repeats) and any(q in u.read_text_key for q in item_quotes) for u in echoes)
            covered += bool(item & read) or in_part or in_repeat
        out[f"budget_{budget // 1000}k"] = covered / len(items)
    return out


def mean_metrics(rows: list[dict[str, float]]) -> dict[str, float]:
    return {name: round(sum(r[name] for r in rows) / len(rows), 4) for name in METRICS} if rows else {}


def _section_units(searcher: ShelfSearcher, query: str, routes: tuple[str, ...]) -> list[Unit]:
    result = searcher.search(query, k=DEPTH, routes=routes)
    return [
        Unit(chars=len(hit.heading) + 2 + hit.chars, sections=[hit.section_id], repeats=hit.repeats,
             read_text_key=_key(searcher.sections[hit.section_id][3]) if hit.repeats else None)
        for hit in result.hits
    ]


def chunk_units(chunks) -> list[Unit]:
    """The chunk baseline's units: at ranks each retrieves the sections it carries; at a budget it covers a must
    item only when one of the item's quotes lies in its text (what the reader reads is the chunk, not the sections
    it touches)."""
    return [Unit(chars=len(c.text), sections=c.sections, read_key=_key(c.text)) for c in chunks]


def _reading_units(searcher: ShelfSearcher, reader: SectionReader, query: str, limit: int) -> list[Unit]:
    """The hybrid ranking, each long section as the answerer reads it (heading, opening, best passages)."""
    units = []
    for hit in searcher.search(query, k=DEPTH, routes=ROUTES).hits:
        part = reader.read(hit.section_id, [query], limit)
        text = searcher.sections[hit.section_id][3]
        if part is None:
            units.append(Unit(chars=len(hit.heading) + 2 + hit.chars, sections=[hit.section_id], repeats=hit.repeats,
                              read_text_key=_key(text) if hit.repeats else None))
            continue
        read = _key(" ".join(text[a:b] for a, b in part.spans))
        units.append(Unit(chars=len(hit.heading) + 2 + part.chars, sections=[hit.section_id], read_key=read, repeats=hit.repeats,
                          read_text_key=read if hit.repeats else None))
    return units


def _evaluate_shelf(
    shelf: str,
    golds: list[GoldQuestion],
    build_dir: Path,
    embedder: Embedder,
    progress: Callable[[str], None],
    section_read_chars: int,
    baseline: bool = True,
) -> dict[str, list[dict]]:
    shelf_dir = build_dir / shelf
    store = Store(shelf_dir / "store.sqlite", create=False)
    searcher = ShelfSearcher(store, shelf_dir / "lexical", embedder, depth=DEPTH)
    chunks = None
    if baseline:
        progress(f"retrieval: {shelf}: building the chunk baseline")
        chunks = ChunkIndex(store, embedder, shelf_dir / "eval-chunks", progress)
    reader = SectionReader(searcher)
    per_system: dict[str, list[dict]] = {name: [] for name in [*SYSTEMS, READING_SYSTEM, *([CHUNK_SYSTEM] if baseline else []), *ABLATIONS]}
    try:
        for gold in golds:
            query = gold.question.question
            for name, routes in {**SYSTEMS, **ABLATIONS}.items():
                started = time.perf_counter()
                units = _section_units(searcher, query, routes)
                per_system[name].append(_row(gold, units, time.perf_counter() - started))
            started = time.perf_counter()
            by_budget = {budget: _reading_units(searcher, reader, query, read_limit(budget, section_read_chars)) for budget in BUDGETS}
            per_system[READING_SYSTEM].append(_row(gold, by_budget[BUDGETS[0]], time.perf_counter() - started, by_budget))
            if chunks is not None:
                started = time.perf_counter()
                found = chunks.search(query, DEPTH)
                per_system[CHUNK_SYSTEM].append(_row(gold, chunk_units(found), time.perf_counter() - started))
            progress(f"retrieval: {gold.question.id} done")
    finally:
        if chunks is not None:
            chunks.close()
        searcher.close()
        store.close()
    return per_system


def _row(gold: GoldQuestion, units: list[Unit], seconds: float, budget_units: dict[int, list[Unit]] | None = None) -> dict:
    return {
        "id": gold.question.id,
        "metrics": {k: round(v, 4) for k, v in question_metrics(gold, units, budget_units).items()},
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
    section_read_chars: int | None = None,
    baseline: bool = True,
) -> dict:
    """``shelfwise eval retrieval --questions PATH``: score every system on the questions' compiled shelves.

    Each question's shelf must be compiled under ``build_dir/<shelf>/``. Writes the
    result JSON to ``results_path`` (default eval/results/retrieval-<questions file stem>.json)
    and returns it. ``baseline=False`` leaves out the chunk-RAG baseline (it embeds every chunk of the shelves).
    """
    from shelfwise.compiler.index.embedders import default_embedder
    from shelfwise.compiler.settings import AnswerSettings

    section_read_chars = section_read_chars or AnswerSettings().section_read_chars
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
        for name, rows in _evaluate_shelf(shelf, scored, Path(build_dir), embedder, progress, section_read_chars, baseline).items():
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
        "section_read_chars": section_read_chars,
        "systems": {name: mean_metrics([r["metrics"] for r in rows]) for name, rows in per_system.items() if name not in ABLATIONS},
        "ablations": {name: mean_metrics([r["metrics"] for r in rows]) for name, rows in per_system.items() if name in ABLATIONS},
        "per_question": {name: rows for name, rows in per_system.items() if name not in ABLATIONS},
        "gold_notes": notes,
    }
    results_path = results_path or Path("eval/results") / f"retrieval-{Path(questions_path).stem}.json"
    results_path.parent.mkdir(parents=True, exist_ok=True)
    results_path.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return result


def ablation_table(result: dict) -> str:
    """The hybrid against itself without each route: nDCG@10, MRR and the budget recalls, with the change in nDCG@10."""
    hybrid = result.get("systems", {}).get("hybrid sections", {})
    lines = ["| hybrid without | nDCG@10 | change | MRR | ctxR 4k | ctxR 16k |", "|---|---:|---:|---:|---:|---:|"]
    for name, metrics in result.get("ablations", {}).items():
        change = metrics.get("ndcg@10", 0.0) - hybrid.get("ndcg@10", 0.0)
        lines.append(f"| {name.removeprefix('hybrid - ')} | {metrics['ndcg@10']:.3f} | {change:+.3f} | {metrics['mrr']:.3f} | "
                     f"{metrics['budget_4k']:.3f} | {metrics['budget_16k']:.3f} |")
    return "\n".join(["### Route ablations (a negative change: the route helps)", "", *lines])
