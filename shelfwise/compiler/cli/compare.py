"""`shelfwise compare SHELF DOC_A DOC_B` and `shelfwise compare SHELF --batch`: the model-free change set of a compiled shelf."""

from __future__ import annotations

import argparse
import json

from shelfwise.compiler.errors import ShelfwiseError

__all__ = ["add_commands", "cmd_compare"]


def cmd_compare(args: argparse.Namespace, settings) -> int:
    from shelfwise.compiler.cli.inspection import open_store
    from shelfwise.compiler.compare import compare_batch, compare_pair, links_from_store, views_from_store

    given = [d for d in (args.doc_a, args.doc_b) if d]
    if args.batch and given:
        raise ShelfwiseError("give either two document ids or --batch, not both")
    if not args.batch and len(given) != 2:
        raise ShelfwiseError("give two document ids (the older first), or --batch for every pair; 'shelfwise documents SHELF' lists the ids")
    store = open_store(args.shelf, settings)
    try:
        docs = views_from_store(store)
        result = compare_batch(docs, links_from_store(store)) if args.batch else compare_pair(docs, args.doc_a, args.doc_b)
    finally:
        store.close()
    print(json.dumps(result.model_dump(), indent=1, ensure_ascii=False) if args.json else result.markdown, end="" if not args.json else "\n")
    return 0


def add_commands(commands, common, bind) -> None:
    """compare: one pair of documents, or every pair of a shelf matched by identity."""
    parser = commands.add_parser(
        "compare", help="say what changed between two documents (or every pair of versions in a shelf)",
        description="Compare two documents of a compiled shelf (the older first) section by section and field by field: "
        "added, removed and changed values with their differences computed by code, reworded sentences, moved sections. "
        "--batch compares every pair matched by identity (a person's id number or exact name, a supplier, a document code "
        "with revisions, supersedes links).",
    )
    parser.add_argument("shelf", help="shelf folder, or its name under the build dir")
    parser.add_argument("doc_a", nargs="?", default=None, help="the older document's id")
    parser.add_argument("doc_b", nargs="?", default=None, help="the newer document's id")
    parser.add_argument("--batch", action="store_true", help="compare every pair of versions in the shelf")
    common(parser)
    parser.add_argument("--json", action="store_true", help="print the change sets as JSON")
    parser.set_defaults(func=bind(cmd_compare))
