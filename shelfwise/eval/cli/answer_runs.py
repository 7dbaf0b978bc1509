"""Command functions for `shelfwise eval answers` and `shelfwise eval baseline-answers`: parse-free, print, return an exit code.

After the runs, every run is graded by quote recall (model-free) and, when a
judge model is configured, by the blind quote-checked model judge; then the
answer tables are printed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from shelfwise.compiler.settings import Settings

__all__ = ["eval_answers_command", "eval_baseline_command", "judge_model", "DEFAULT_JUDGE"]

DEFAULT_JUDGE = "gpt-4o"


def judge_model(settings: Settings) -> str | None:
    """models.judge; else gpt-4o when the model server is OpenAI's own; else None (quote recall only)."""
    if settings.models.judge:
        return settings.models.judge
    if settings.models.base_url and "api.openai.com" in settings.models.base_url:
        return DEFAULT_JUDGE
    return None


def _judge(settings: Settings, http_client=None):
    from shelfwise.compiler.errors import ShelfwiseError
    from shelfwise.compiler.models import ChatModel, make_client
    from shelfwise.eval.judge import ModelJudge

    model = judge_model(settings)
    if model is None:
        return None
    if not settings.models.base_url and http_client is None:
        raise ShelfwiseError(f"models.judge is set ({model}) but models.base_url is not; set the model server, or remove models.judge to grade by quote recall only")
    return ModelJudge(ChatModel(make_client(settings.models, http_client=http_client), model))


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _finish(run_dir: Path, questions: Path, settings: Settings, http_client) -> int:
    from shelfwise.eval.answer_scoreboard import answer_tables
    from shelfwise.eval.run import grade_runs

    judge = _judge(settings, http_client)
    if judge is None:
        _progress("no judge model configured (models.judge): coverage is n.m.; graded by quote recall only")
    grade_runs(run_dir, questions, judge=judge, progress=_progress)
    print(answer_tables(runs_dir=run_dir.parent))
    return 0


def eval_answers_command(questions: Path, runs: int, label: str | None, settings: Settings, *, http_client=None) -> int:
    """``shelfwise eval answers --questions PATH [--runs 2] [--label NAME]``: run, grade, print the answer tables."""
    from shelfwise.api.answer import chat_models
    from shelfwise.eval.run import run_answers

    chat = chat_models(settings, http_client=http_client)
    run_dir = run_answers(Path(questions), runs=runs, label=label, settings=settings, progress=_progress, chat=chat)
    print(f"runs stored in {run_dir}", file=sys.stderr)
    return _finish(run_dir, Path(questions), settings, http_client)


def eval_baseline_command(questions: Path, runs: int, label: str | None, settings: Settings, *, http_client=None) -> int:
    """``shelfwise eval baseline-answers --questions PATH [--runs 2] [--label NAME]``: the chunk-RAG baseline, graded the same way."""
    from shelfwise.eval.baseline_answer import run_baseline_answers

    run_dir = run_baseline_answers(Path(questions), runs=runs, label=label, settings=settings, progress=_progress, http_client=http_client)
    if run_dir is None:
        print("chunk RAG baseline: n.m. (no model configured; set models.base_url and models.writer)")
        return 0
    return _finish(run_dir, Path(questions), settings, http_client)
