"""`shelfwise` commands over compiled shelves: search, ask, trace, serve, eval."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

__all__ = ["add_commands"]


def cmd_search(args: argparse.Namespace, settings) -> int:
    from compiler.build import current_build
    from compiler.search_cli import format_result, run_search

    result = run_search(current_build(args.shelf, settings), args.query, k=args.k, settings=settings)
    print(json.dumps(result.model_dump(), indent=1, ensure_ascii=False) if args.json else format_result(result))
    return 0


def cmd_ask(args: argparse.Namespace, settings) -> int:
    from api.cli import ask_command

    return ask_command(args.shelf, args.question, args.json, settings)


def cmd_trace(args: argparse.Namespace, settings) -> int:
    from api.cli import trace_command

    return trace_command(args.trace_id, settings, json_out=args.json)


def cmd_serve(args: argparse.Namespace, settings) -> int:
    from api.cli import serve_command

    return serve_command(args.shelves, args.host, args.port, settings)


def cmd_eval_retrieval(args: argparse.Namespace, settings) -> int:
    import sys

    from eval.retrieval import run_retrieval_eval

    result = run_retrieval_eval(
        args.questions, build_dir=settings.build_dir, results_path=args.out, progress=lambda line: print(line, file=sys.stderr, flush=True),
        section_read_chars=settings.answer.section_read_chars,
    )
    from eval.retrieval import ablation_table
    from eval.scoreboard import retrieval_table

    print(retrieval_table(result))
    print()
    print(ablation_table(result))
    return 0


def cmd_eval_scoreboard(args: argparse.Namespace, settings) -> int:
    from eval.scoreboard import run_scoreboard

    text = run_scoreboard(args.results)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


def cmd_eval_answers(args: argparse.Namespace, settings) -> int:
    from eval.cli_eval import eval_answers_command

    return eval_answers_command(args.questions, args.runs, args.label, settings)


def cmd_eval_baseline(args: argparse.Namespace, settings) -> int:
    from eval.cli_eval import eval_baseline_command

    return eval_baseline_command(args.questions, args.runs, args.label, settings)


def add_commands(commands, common, load) -> None:
    def wrap(func):
        return lambda args: func(args, load(args))

    search = commands.add_parser("search", help="search a compiled shelf (BM25 + dense + headings + named documents, fused)", description="Search a compiled shelf: sections ranked by reciprocal-rank fusion of BM25, dense, heading, named-document, figure-caption and numeric routes, with each route's rank.")
    search.add_argument("shelf", help="shelf folder, its build folder, or its name under the build dir")
    search.add_argument("query", help="the search query")
    common(search)
    search.add_argument("-k", type=int, default=10, help="how many sections (default 10)")
    search.add_argument("--json", action="store_true", help="print JSON")
    search.set_defaults(func=wrap(cmd_search))

    ask = commands.add_parser("ask", help="answer a question from a compiled shelf, in-process", description="Answer one question with the same pipeline as POST /api/ask (plan, recall, read, write, check, complete) and store its trace.")
    ask.add_argument("shelf", help="shelf name under the build dir (or its folder)")
    ask.add_argument("question", help="the question")
    common(ask)
    ask.add_argument("--json", action="store_true", help="print the answer JSON")
    ask.set_defaults(func=wrap(cmd_ask))

    trace = commands.add_parser("trace", help="show the stored trace of an answer", description="Show what an answer read, skipped and removed, and why, with cost, latency and models.")
    trace.add_argument("trace_id", help="the trace id printed with the answer")
    common(trace)
    trace.add_argument("--json", action="store_true", help="print JSON")
    trace.set_defaults(func=wrap(cmd_trace))

    serve = commands.add_parser("serve", help="serve the answering endpoint and the compiled sites on 127.0.0.1", description="Serve the Litestar endpoint (/api/ask, /api/search, /api/sections/{id}, /api/answers/{id}, /api/health, /api/schema) and each compiled site under /sites/<shelf>/.")
    serve.add_argument("shelves", nargs="*", help="shelf names under the build dir (default: all compiled shelves)")
    common(serve)
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.set_defaults(func=wrap(cmd_serve))

    evaluate = commands.add_parser("eval", help="evaluation: retrieval metrics, answer runs, the scoreboard", description="Evaluate retrieval against gold evidence and print the scoreboard.")
    evals = evaluate.add_subparsers(dest="eval_command", metavar="EVAL", required=True)
    retrieval = evals.add_parser("retrieval", help="score every retrieval system against a questions file's gold evidence", description="Score BM25, dense, hybrid sections and the chunk-RAG baseline on a questions file (dev.yaml format); its shelves must be compiled under the build dir.")
    retrieval.add_argument("--questions", type=Path, required=True, help="questions file (dev.yaml format)")
    common(retrieval)
    retrieval.add_argument("--out", type=Path, default=None, help="result JSON (default eval/results/retrieval-<stem>.json)")
    retrieval.set_defaults(func=wrap(cmd_eval_retrieval))
    for name, func, text in (
        ("answers", cmd_eval_answers, "run every question through the answering pipeline, store the runs and grade them"),
        ("baseline-answers", cmd_eval_baseline, "run the chunk-RAG baseline answerer (needs models.writer) and grade it the same way"),
    ):
        sub = evals.add_parser(name, help=text, description=text[0].upper() + text[1:] + ": runs go to eval/runs/<label>/ as JSON lines; with models.judge a blind, quote-checked judge scores coverage, otherwise the model-free quote recall is reported.")
        sub.add_argument("--questions", type=Path, required=True, help="questions file (dev.yaml format)")
        common(sub)
        sub.add_argument("--runs", type=int, default=1, help="how many runs of the same configuration (2 measures noise)")
        sub.add_argument("--label", default=None, help="run label (default: derived from the mode and questions file)")
        sub.set_defaults(func=wrap(func))
    scoreboard = evals.add_parser("scoreboard", help="regenerate the scoreboard tables from stored results", description="Regenerate every table from the stored results in eval/results as Markdown; unmeasured metrics print n.m.")
    common(scoreboard)
    scoreboard.add_argument("--results", type=Path, default=Path("eval/results"), help="results folder (default eval/results)")
    scoreboard.add_argument("--out", type=Path, default=None, help="also write the Markdown here")
    scoreboard.set_defaults(func=wrap(cmd_eval_scoreboard))
