"""Structure fidelity: does each gold quote stand in exactly one section with its gold heading?

For every evidence entry (shelf, doc, heading, quote) of a questions file, the
document is converted with ``shelfwise.compiler.ingest.convert.convert_file``, walked into
sections with ``build_sections`` (doc id = the shelf-relative path), and the
entry passes when exactly one section whose heading equals the gold heading
(whitespace collapsed) holds the quote (whitespace collapsed) in its own text.

    python -m shelfwise.eval.bench.structure                       # ../shared/questions/dev.yaml
    python -m shelfwise.eval.bench.structure --questions shelves/northwind/questions.yaml --shelf-dir shelves/northwind

Prints each failure and the share passed; writes eval/results/structure.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from shelfwise.compiler.ingest.convert import convert_file  # noqa: E402
from shelfwise.compiler.errors import ConversionError  # noqa: E402
from shelfwise.api.answer.check.guards import fold  # noqa: E402
from shelfwise.compiler.store.records import Section  # noqa: E402
from shelfwise.compiler.ingest.sections import build_sections  # noqa: E402


_collapse = fold
"""Headings and quotes compared whitespace-normalised with typographic quotes and dashes folded, as the answer eval
compares quotes: docling writes an HTML page's "Section 2 – Scope." as "Section 2 - Scope."."""


def evidence_entries(questions: list[dict]) -> list[dict]:
    """Every evidence entry of a questions file, with its question id and shelf."""
    entries = []
    for question in questions:
        for must in question.get("must", []):
            for evidence in must.get("evidence", []):
                entries.append({"id": question["id"], "shelf": question.get("shelf", ""), **evidence})
    return entries


def check_entry(entry: dict, sections: list[Section]) -> str | None:
    """None when exactly one section with the gold heading holds the quote; else the reason."""
    heading = _collapse(entry["heading"])
    quote = _collapse(entry["quote"])
    named = [s for s in sections if _collapse(s.heading) == heading]
    if not named:
        near = [s.heading for s in sections if heading.lower() in s.heading.lower() or s.heading.lower() in heading.lower()]
        return f"no section headed {heading!r} (near: {near[:3]})"
    holding = [s for s in named if quote in _collapse(s.text)]
    if len(holding) == 1:
        return None
    if not holding:
        where = [s.heading for s in sections if quote in _collapse(s.text)]
        return f"quote not in the {len(named)} section(s) headed {heading!r}; found under {where[:3]}"
    return f"quote in {len(holding)} sections headed {heading!r}, expected exactly one"


def run(questions_path: Path, corpora: Path, shelf_dir: Path | None) -> dict:
    """Check every evidence entry; return the result record."""
    questions = yaml.safe_load(questions_path.read_text(encoding="utf-8")) or []
    entries = evidence_entries(questions)
    cache: dict[Path, list[Section] | str] = {}
    failures = []
    for entry in entries:
        folder = shelf_dir if shelf_dir is not None else corpora / entry["shelf"]
        path = folder / entry["doc"]
        if path not in cache:
            try:
                cache[path] = build_sections(entry["doc"], convert_file(path))[0]
            except (ConversionError, OSError) as exc:
                cache[path] = f"cannot convert {path}: {exc}"
        sections = cache[path]
        reason = sections if isinstance(sections, str) else check_entry(entry, sections)
        if reason is not None:
            failures.append({"id": entry["id"], "doc": entry["doc"], "heading": entry["heading"], "quote": entry["quote"], "reason": reason})
    passed = len(entries) - len(failures)
    return {
        "questions": str(questions_path),
        "entries": len(entries),
        "passed": passed,
        "share": round(passed / len(entries), 4) if entries else 0.0,
        "documents": len(cache),
        "failures": failures,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=ROOT.parent / "shared" / "questions" / "dev.yaml")
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora", help="folder holding <shelf>/ folders")
    parser.add_argument("--shelf-dir", type=Path, default=None, help="folder the doc paths are relative to (overrides <corpora>/<shelf>)")
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results" / "structure.json")
    args = parser.parse_args(argv)
    if not args.questions.is_file():
        print(f"questions file {args.questions} not found; pass --questions PATH", file=sys.stderr)
        return 1
    result = run(args.questions, args.corpora, args.shelf_dir)
    for failure in result["failures"]:
        print(f"FAIL {failure['id']} {failure['doc']} [{failure['heading']}] {failure['quote'][:60]!r}: {failure['reason']}")
    print(f"structure fidelity: {result['passed']}/{result['entries']} = {result['share']:.1%} over {result['documents']} documents")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
