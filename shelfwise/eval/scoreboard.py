"""Scoreboard: Markdown tables regenerated from stored results (eval/results/*.json).

A metric not measured for a system prints ``n.m.``, never a blank (paper §4.2).
"""

from __future__ import annotations

import json
from pathlib import Path

from shelfwise.compiler.store.records import table_line

__all__ = ["retrieval_table", "render_scoreboard", "run_scoreboard"]

RETRIEVAL_COLUMNS = [
    ("recall@5", "R@5"), ("recall@10", "R@10"), ("recall@20", "R@20"), ("precision@10", "P@10"),
    ("mrr", "MRR"), ("ndcg@10", "nDCG@10"), ("ctx_recall@10", "ctxR@10"), ("ctx_precision", "ctxP"),
    ("budget_4k", "ctxR 4k"), ("budget_16k", "ctxR 16k"), ("budget_64k", "ctxR 64k"),
]  # fmt: skip


SYSTEM_ORDER = ["chunk RAG (2000/250, bm25+dense)", "bm25 sections", "dense sections", "bm25+dense sections", "hybrid sections", "section reading units"]


def _cell(value) -> str:
    return "n.m." if value is None else f"{value:.3f}"


def retrieval_table(result: dict) -> str:
    """One Markdown table: a row per system, a column per metric."""
    header = table_line(["system", *(label for _, label in RETRIEVAL_COLUMNS)])
    rule = "|---|" + "---:|" * len(RETRIEVAL_COLUMNS)
    systems = result.get("systems", {})
    names = [n for n in SYSTEM_ORDER if n in systems] + sorted(n for n in systems if n not in SYSTEM_ORDER)
    rows = [table_line([name, *(_cell(systems[name].get(key)) for key, _ in RETRIEVAL_COLUMNS)]) for name in names]
    title = (
        f"Retrieval on {result.get('questions', '?')} ({result.get('n_scored', '?')} questions with evidence; "
        f"embedder {result.get('embedder', '?')})"
    )
    return "\n".join([f"### {title}", "", header, rule, *rows])


def render_scoreboard(results_dir: Path = Path("eval/results")) -> str:
    """Every stored retrieval result as a table, in file-name order."""
    sections = []
    for path in sorted(Path(results_dir).glob("*.json")):
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            sections.append(f"<!-- {path.name}: not valid JSON ({exc}); rerun the evaluation that writes it -->")
            continue
        if isinstance(result, dict) and result.get("kind") == "retrieval":
            sections.append(f"{retrieval_table(result)}\n\n_source: {path.name}_")
    return "\n\n".join(sections) if sections else f"no stored results in {results_dir}; run 'shelfwise eval retrieval --questions PATH'"


def run_scoreboard(results_dir: Path = Path("eval/results")) -> str:
    """``shelfwise eval scoreboard``: every table — retrieval, then answers (runs under eval/runs) — as Markdown."""
    from shelfwise.eval.answer_scoreboard import answer_tables

    from shelfwise.eval.reference import reference_table

    references = []
    for path in sorted(Path(results_dir).glob("reference-*.json")):
        result = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(result, dict) and result.get("kind") == "reference":
            references.append(f"{reference_table(result)}\n\n_source: {path.name}_")
    tail = "\n\n## Reference answers\n\n" + "\n\n".join(references) if references else ""
    return "## Retrieval\n\n" + render_scoreboard(results_dir) + "\n\n## Answers\n\n" + answer_tables(Path(results_dir)) + tail
