"""`shelfwise documents`, `sections`, `ledger` and `links`: what a compiled store holds, read from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from shelfwise.compiler.digests.identity import document_name
from shelfwise.compiler.errors import ShelfwiseError

__all__ = ["add_commands", "open_store", "cmd_documents", "cmd_ledger", "cmd_links", "cmd_sections"]


def open_store(shelf: str, settings):
    """The compiled store of a shelf given as ``shelf_dir_for`` accepts it (an error with "did you mean" when none is)."""
    from shelfwise.compiler.store.locate import compiled_shelf, current_build
    from shelfwise.compiler.store.store import Store

    return Store(current_build(compiled_shelf(shelf, settings)) / "store.sqlite", create=False)


def cmd_sections(args: argparse.Namespace, settings) -> int:
    store = open_store(args.shelf, settings)
    try:
        if args.id:
            return _print_section(store, args)
        docs = store.documents()
        if args.doc and not any(d["doc_id"] == args.doc for d in docs):
            raise ShelfwiseError(f"no document {args.doc!r} in this shelf; 'shelfwise documents {args.shelf}' lists them")
        rows = []
        for doc in docs:
            if args.doc and doc["doc_id"] != args.doc:
                continue
            for section in store.sections(doc["doc_id"]):
                rows.append(section)
        if args.json:
            print(json.dumps([s.model_dump() | {"text": s.text} for s in rows], indent=1, ensure_ascii=False))
        else:
            for s in rows:
                pages = f"p.{s.page_start}" if s.page_start else ""
                print(f"{s.id}  {'  ' * s.level}{s.heading}  {pages}  ({len(s.text)} chars)")
    finally:
        store.close()
    return 0


def _print_section(store, args: argparse.Namespace) -> int:
    """One section by id; an old id of a renamed section prints the section it became, with a 'moved' note."""
    from shelfwise.compiler.ingest.renames import moved_note

    found, alias = store.section(args.id), None
    if found is None:
        alias = store.section_alias(args.id)
        found = store.section(alias.new_id) if alias else None
    if found is None:
        raise ShelfwiseError(f"no section {args.id!r} in this shelf; 'shelfwise sections {args.shelf}' lists the section ids")
    note = moved_note(alias, found) if alias else None
    if args.json:
        print(json.dumps(found.model_dump() | {"text": found.text, "moved_from": alias and args.id, "note": note}, indent=1, ensure_ascii=False))
        return 0
    if note:
        print(note, file=sys.stderr)
    pages = f"  p.{found.page_start}" if found.page_start else ""
    print(f"{found.id}  {' › '.join(found.heading_path) or found.heading}{pages}\n\n{found.text}")
    return 0


def cmd_documents(args: argparse.Namespace, settings) -> int:
    store = open_store(args.shelf, settings)
    try:
        docs, failures = store.documents(), store.failures()
        if args.json:
            print(json.dumps({"documents": docs, "failures": failures}, indent=1, ensure_ascii=False))
            return 0
        for d in docs:
            print(f"{d['doc_id']:<40} {d['format']:<5} {d['pages']:>4} p {d['n_sections']:>4} sections  {document_name(d)[:60]}  [{d['reader']}]")
        for f in failures:
            print(f"FAILED {f['path']}: {f['reason']}")
    finally:
        store.close()
    return 0


def cmd_ledger(args: argparse.Namespace, settings) -> int:
    from shelfwise.compiler.ledger.extract import ledger_rows

    store = open_store(args.shelf, settings)
    try:
        rows = ledger_rows(store, args.doc)
    finally:
        store.close()
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    for row in rows:
        extra = "".join(f"  {k}: {row[k]}" for k in ("conditions", "exceptions", "thresholds") if row.get(k))
        print(f"{row['section_id']}  {row['kind']:<11} {row['subject'] or ''}: {row['quote']}{extra}")
    print(f"{len(rows)} assertions", file=sys.stderr)
    return 0


def cmd_links(args: argparse.Namespace, settings) -> int:
    from shelfwise.compiler.links.linking import link_rows

    store = open_store(args.shelf, settings)
    try:
        rows = link_rows(store, open_only=args.open)
    finally:
        store.close()
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    for row in rows:
        if args.open:
            print(f"OPEN {row['doc_id']}#{row['section_id']}  {row['kind']} {row['text']!r}: {row['reason']}")
        else:
            target = f"{row['dst_doc']}#{row['dst_section']}" if row.get("dst_section") else row["dst_doc"]
            print(f"{row['kind']:<22} {row['src_doc']}#{row['src_section']} -> {target}  ({row['reason']})")
    print(f"{len(rows)} {'open references' if args.open else 'links'}", file=sys.stderr)
    return 0


def add_commands(commands, common, bind) -> None:
    """documents, sections, ledger, links: each reads one compiled shelf and prints text or --json."""
    specs = [
        ("documents", cmd_documents, "list a compiled shelf's documents and failures",
         "List the documents of a compiled shelf (by folder or name) with their readers, and the files that failed.", False, False),
        ("sections", cmd_sections, "print a compiled shelf's section trees with their ids",
         "Print the section tree of every document (or one) with stable section ids and pages.", True, False),
        ("ledger", cmd_ledger, "print a compiled shelf's assertion ledger",
         "Print the assertions (definitions, rules with conditions and exceptions, steps, findings, dependencies, "
         "supersessions) with their verbatim quotes.", True, False),
        ("links", cmd_links, "print typed links between documents (or the open references)",
         "Print the typed links (resolves, cites, supersedes, depends_on, same_series, shares_names, "
         "contradicts_candidate) with their reasons; --open prints every reference left open and why.", False, True),
    ]
    for name, func, help_text, description, by_doc, open_flag in specs:
        parser = commands.add_parser(name, help=help_text, description=description)
        parser.add_argument("shelf", help="shelf folder, or its name under the build dir")
        common(parser)
        if by_doc:
            parser.add_argument("--doc", default=None, help="only this document id")
        if name == "sections":
            parser.add_argument("--id", default=None, help="print this section (an old id of a renamed section prints the section it became, with a note)")
        if open_flag:
            parser.add_argument("--open", action="store_true", help="list the references not linked, with the reason")
        parser.add_argument("--json", action="store_true", help="print JSON")
        parser.set_defaults(func=bind(func))
