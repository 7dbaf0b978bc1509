"""Research-mode benchmark (issue 18): how often each must item's gold evidence section was read, fixed loop vs expansion.

    .venv/bin/python -m shelfwise.eval.bench.research [--build-dir build] [--questions ../shared/questions/dev.yaml ...]
                                            [--budgets 400000 100000 25000] [--max-chars 60000 10000]

Every question is answered model-free with ``mode: "research"``, which runs the
fixed loop and then the model-free expansion (the fixed loop's reading plus one
or two hops along links and shared rare names); its trace keeps both readings
(``trace.research``). A must item counts as read when one of its gold sections
(``shelfwise.eval.questions.map_gold``: document path, heading and quote mapped to section
ids) is among the sections read. Items whose evidence maps to no section are
left out and counted. Each reading budget (``answer.reading_budget_chars``) is run
twice: at the budget (fixed loop, and the expansion adding up to ``research.max_chars``)
and at the budget plus ``research.max_chars`` (the fixed loop given the same extra
characters, the control). Figures print and go to eval/results/research.json.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from shelfwise.api.answer import answer_question, build_pipeline
from shelfwise.api.schemas import AskRequest
from shelfwise.api.shelves import close_shelves, open_shelves
from shelfwise.api.trace import TraceStore
from shelfwise.compiler.index.embedders import embedder_from_settings
from shelfwise.compiler.settings import Settings
from shelfwise.eval.questions import load_questions, map_gold

__all__ = ["research_figures", "main"]

ROOT = Path(__file__).resolve().parents[3]
QUESTIONS = [ROOT.parent / "shared" / "questions" / "dev.yaml", ROOT.parent / "shared" / "questions" / "dev-formats.yaml"]


def _question_row(pipeline, question, shelves, traces) -> dict:
    started = time.perf_counter()
    gold = map_gold(question, shelves[question.shelf].store).items
    answer = answer_question(pipeline, AskRequest(question=question.question, shelf=question.shelf, mode="research"), shelves,
                             token="eval", traces=traces)
    trace = traces.get(answer.trace_id)
    fixed = set(trace.research["fixed_loop"]["sections"])
    expanded = {r["section_id"] for r in trace.read}
    items = [sids for sids in gold if sids]
    return {
        "id": question.id, "shelf": question.shelf, "items": len(items), "unmapped_items": len(gold) - len(items),
        "read_fixed": sum(1 for sids in items if fixed & set(sids)),
        "read_expansion": sum(1 for sids in items if expanded & set(sids)),
        "whole_scope": trace.research["fixed_loop"]["whole_scope"],
        "chars_fixed": trace.research["fixed_loop"]["chars_read"], "chars_added": trace.research.get("chars_added", 0),
        "added_documents": trace.research.get("added_documents", []), "hops": trace.research.get("hops", []),
        "label": answer.label, "seconds": round(time.perf_counter() - started, 3),
    }


def _rows(questions, build_dir: Path, settings: Settings, embedder) -> list[dict]:
    names = sorted({q.shelf for q in questions})
    shelves = open_shelves({n: build_dir / n for n in names}, embedder, settings=settings)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        traces = TraceStore(Path(tmp) / "traces.sqlite")
        try:
            pipeline = build_pipeline(settings, {})
            for question in questions:
                rows.append(_question_row(pipeline, question, shelves, traces))
        finally:
            traces.close()
            close_shelves(shelves)
    return rows


def research_figures(questions_path: Path, build_dir: Path, settings: Settings, embedder) -> dict:
    """Per question and in total, the must items whose gold evidence the fixed loop, the expansion and the fixed loop
    with the expansion's extra characters (the control) read, at ``settings.answer.reading_budget_chars``."""
    questions = load_questions(questions_path)
    rows = _rows(questions, build_dir, settings, embedder)
    wider = settings.model_copy(update={"answer": settings.answer.model_copy(
        update={"reading_budget_chars": settings.answer.reading_budget_chars + settings.research.max_chars})})
    control = {r["id"]: r for r in _rows(questions, build_dir, wider, embedder)}
    for row in rows:
        row["read_fixed_wider"], row["chars_fixed_wider"] = control[row["id"]]["read_fixed"], control[row["id"]]["chars_fixed"]
    items = sum(r["items"] for r in rows)
    fixed, expansion = sum(r["read_fixed"] for r in rows), sum(r["read_expansion"] for r in rows)
    wide = sum(r["read_fixed_wider"] for r in rows)
    return {
        "questions": str(questions_path.name), "reading_budget_chars": settings.answer.reading_budget_chars,
        "research_max_chars": settings.research.max_chars,
        "n_questions": len(rows), "must_items": items,
        "unmapped_items": sum(r["unmapped_items"] for r in rows),
        "evidence_read_fixed": round(fixed / items, 3) if items else None,
        "evidence_read_expansion": round(expansion / items, 3) if items else None,
        "evidence_read_fixed_wider": round(wide / items, 3) if items else None,
        "items_gained": expansion - fixed, "questions_whole_scope": sum(1 for r in rows if r["whole_scope"]),
        "mean_chars_fixed": round(sum(r["chars_fixed"] for r in rows) / len(rows)) if rows else 0,
        "mean_chars_added": round(sum(r["chars_added"] for r in rows) / len(rows)) if rows else 0,
        "mean_chars_fixed_wider": round(sum(r["chars_fixed_wider"] for r in rows) / len(rows)) if rows else 0,
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shelfwise.eval.bench.research", description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build", help="folder holding the compiled corpus shelves, read only (default build/: compile them first with shelfwise build ../shared/corpora/<shelf>)")
    parser.add_argument("--questions", type=Path, nargs="+", default=QUESTIONS, help="question files (default: dev and dev-formats)")
    parser.add_argument("--budgets", type=int, nargs="+", default=[400_000, 100_000, 25_000],
                        help="reading budgets (answer.reading_budget_chars) to run at")
    parser.add_argument("--max-chars", type=int, nargs="+", default=[60_000, 10_000],
                        help="research.max_chars values to run each budget with (the first is the setting's default)")
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results" / "research.json", help="where the figures go")
    args = parser.parse_args(argv)
    base = Settings(build_dir=args.build_dir)
    embedder = embedder_from_settings(base)
    result = {"build_dir": str(args.build_dir), "settings": {"hop_share": base.answer.hop_share, **base.research.model_dump()}, "sets": []}
    for budget, max_chars in [(b, m) for b in args.budgets for m in args.max_chars]:
        settings = base.model_copy(update={"answer": base.answer.model_copy(update={"reading_budget_chars": budget}),
                                           "research": base.research.model_copy(update={"max_chars": max_chars})})
        for path in args.questions:
            figures = research_figures(path, args.build_dir, settings, embedder)
            result["sets"].append(figures)
            print(f"{figures['questions']} at {budget:,} characters: {figures['must_items']} must items "
                  f"({figures['unmapped_items']} unmapped), {figures['n_questions']} questions; gold evidence read: fixed loop "
                  f"{figures['evidence_read_fixed']}, expansion {figures['evidence_read_expansion']} ({figures['items_gained']:+d} items), "
                  f"fixed loop +{settings.research.max_chars:,} characters {figures['evidence_read_fixed_wider']}; whole scope in "
                  f"{figures['questions_whole_scope']}; mean characters {figures['mean_chars_fixed']:,} + {figures['mean_chars_added']:,} "
                  f"added (control {figures['mean_chars_fixed_wider']:,})", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
