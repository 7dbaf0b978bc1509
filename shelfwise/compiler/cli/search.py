"""`shelfwise search`: the fused search over a compiled shelf, from the command line."""

from __future__ import annotations

import argparse
import json

__all__ = ["add_commands", "cmd_search"]


def cmd_search(args: argparse.Namespace, settings) -> int:
    from shelfwise.compiler.store.locate import compiled_shelf, current_build

    build = current_build(compiled_shelf(args.shelf, settings))  # a mistyped shelf is answered before search loads
    from shelfwise.compiler.search.search_cli import format_result, run_search

    result = run_search(build, args.query, k=args.k, settings=settings)
    print(json.dumps(result.model_dump(), indent=1, ensure_ascii=False) if args.json else format_result(result))
    return 0


def add_commands(commands, common, bind) -> None:
    search = commands.add_parser("search", help="search a compiled shelf (BM25 + dense + headings + named documents, fused)", description="Search a compiled shelf: sections ranked by reciprocal-rank fusion of BM25, dense, heading, named-document, figure-caption and numeric routes, with each route's rank.")
    search.add_argument("shelf", help="shelf folder, its build folder, or its name under the build dir")
    search.add_argument("query", help="the search query")
    common(search)
    search.add_argument("-k", type=int, default=10, help="how many sections (default 10)")
    search.add_argument("--json", action="store_true", help="print JSON")
    search.set_defaults(func=bind(cmd_search))
