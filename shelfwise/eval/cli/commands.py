"""`shelfwise eval …`: retrieval, answer runs and the scoreboard, registered into the CLI through the
``shelfwise.commands`` entry point (compiler/ never imports eval/)."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["add_commands", "cmd_eval_retrieval", "cmd_eval_scoreboard", "cmd_eval_answers", "cmd_eval_baseline", "cmd_eval_reference"]


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


def cmd_eval_reference(args: argparse.Namespace, settings) -> int:
    import sys

    from shelfwise.eval.reference import reference_table, run_reference_eval
    from shelfwise.eval.run import RUNS_DIR, run_answers, run_files

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    label = args.label or f"reference-{args.questions.stem}"
    run_dir = RUNS_DIR / label
    if not run_files(run_dir):
        run_dir = run_answers(args.questions, label=label, settings=settings, progress=progress)
    result = run_reference_eval(args.questions, run_dir, settings=settings, results_path=args.out, budget=settings.answer.max_answer_chars,
                                chunks=not args.no_baseline, progress=progress)
    print(reference_table(result))
    return 0


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
    reference = evals.add_parser(
        "reference", help="score answers against reference answers: source documents found and cited, reference figures and names shown",
        description="Answer every question of a set with reference answers (dev-filings.yaml format) unless the label already holds a run, "
                    "then score per question the source documents among the search's top 10 and the citations, and the share of the "
                    "reference answer's figures and named facts in the answer, the cited sections, the source documents' compiled text "
                    "(the reading ceiling) and the chunk-RAG baseline's top chunks at the answer's character budget.")
    reference.add_argument("--questions", type=Path, required=True, help="questions file with reference_answer and source_documents fields")
    common(reference)
    reference.add_argument("--label", default=None, help="run label under eval/runs (default reference-<questions stem>); an existing run is scored, not re-run")
    reference.add_argument("--out", type=Path, default=None, help="result file (default eval/results/reference-<questions stem>.json)")
    reference.add_argument("--no-baseline", action="store_true", help="skip the chunk-RAG baseline (it embeds every chunk once)")
    reference.set_defaults(func=bind(cmd_eval_reference))
    scoreboard = evals.add_parser("scoreboard", help="regenerate the scoreboard tables from stored results", description="Regenerate every table from the stored results in eval/results as Markdown; unmeasured metrics print n.m.")
    common(scoreboard)
    scoreboard.add_argument("--results", type=Path, default=Path("eval/results"), help="results folder (default eval/results)")
    scoreboard.add_argument("--out", type=Path, default=None, help="also write the Markdown here")
    scoreboard.set_defaults(func=bind(cmd_eval_scoreboard))
