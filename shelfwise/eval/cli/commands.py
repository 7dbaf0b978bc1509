"""`shelfwise eval …`: retrieval, answer runs and the scoreboard, registered into the CLI through the
``shelfwise.commands`` entry point (compiler/ never imports eval/)."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["add_commands", "cmd_eval_retrieval", "cmd_eval_scoreboard", "cmd_eval_answers", "cmd_eval_baseline"]


def cmd_eval_retrieval(args: argparse.Namespace, settings) -> int:
    import sys

    from shelfwise.eval.retrieval import run_retrieval_eval

    result = run_retrieval_eval(
        args.questions, build_dir=settings.build_dir, results_path=args.out, progress=lambda line: print(line, file=sys.stderr, flush=True),
        section_read_chars=settings.answer.section_read_chars,
    )
    from shelfwise.eval.retrieval import ablation_table
    from shelfwise.eval.scoreboard import retrieval_table

    print(retrieval_table(result))
    print()
    print(ablation_table(result))
    return 0


def cmd_eval_scoreboard(args: argparse.Namespace, settings) -> int:
    from shelfwise.eval.scoreboard import run_scoreboard

    text = run_scoreboard(args.results)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


def cmd_eval_answers(args: argparse.Namespace, settings) -> int:
    from shelfwise.eval.cli.answer_runs import eval_answers_command

    return eval_answers_command(args.questions, args.runs, args.label, settings)


def cmd_eval_baseline(args: argparse.Namespace, settings) -> int:
    from shelfwise.eval.cli.answer_runs import eval_baseline_command

    return eval_baseline_command(args.questions, args.runs, args.label, settings)


def add_commands(commands, common, bind) -> None:
    evaluate = commands.add_parser("eval", help="evaluation: retrieval metrics, answer runs, the scoreboard", description="Evaluate retrieval against gold evidence and print the scoreboard.")
    evals = evaluate.add_subparsers(dest="eval_command", metavar="EVAL", required=True)
    retrieval = evals.add_parser("retrieval", help="score every retrieval system against a questions file's gold evidence", description="Score BM25, dense, hybrid sections and the chunk-RAG baseline on a questions file (dev.yaml format); its shelves must be compiled under the build dir.")
    retrieval.add_argument("--questions", type=Path, required=True, help="questions file (dev.yaml format)")
    common(retrieval)
    retrieval.add_argument("--out", type=Path, default=None, help="result JSON (default eval/results/retrieval-<stem>.json)")
    retrieval.set_defaults(func=bind(cmd_eval_retrieval))
    for name, func, text in (
        ("answers", cmd_eval_answers, "run every question through the answering pipeline, store the runs and grade them"),
        ("baseline-answers", cmd_eval_baseline, "run the chunk-RAG baseline answerer (needs models.writer) and grade it the same way"),
    ):
        sub = evals.add_parser(name, help=text, description=text[0].upper() + text[1:] + ": runs go to eval/runs/<label>/ as JSON lines; with models.judge a blind, quote-checked judge scores coverage, otherwise the model-free quote recall is reported.")
        sub.add_argument("--questions", type=Path, required=True, help="questions file (dev.yaml format)")
        common(sub)
        sub.add_argument("--runs", type=int, default=1, help="how many runs of the same configuration (2 measures noise)")
        sub.add_argument("--label", default=None, help="run label (default: derived from the mode and questions file)")
        sub.set_defaults(func=bind(func))
    scoreboard = evals.add_parser("scoreboard", help="regenerate the scoreboard tables from stored results", description="Regenerate every table from the stored results in eval/results as Markdown; unmeasured metrics print n.m.")
    common(scoreboard)
    scoreboard.add_argument("--results", type=Path, default=Path("eval/results"), help="results folder (default eval/results)")
    scoreboard.add_argument("--out", type=Path, default=None, help="also write the Markdown here")
    scoreboard.set_defaults(func=bind(cmd_eval_scoreboard))
