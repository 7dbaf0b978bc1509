"""PDF reader benchmark: headings against make.pdf's own outline, and pages per second.

Run from the repository root:  .venv/bin/python -m eval.bench.pdf  [--quick]

(1) make.pdf: the headings the reader finds (text and level) against the PDF's
bookmarks, with the outline switched off (text layer alone) and on; matched by
normalised text (numbering prefix, case, punctuation and spacing ignored).
(2) pages per second on the papers shelf, make.pdf and the office shelf PDFs.
Writes eval/results/pdf.json and prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import pypdfium2 as pdfium

from compiler.convert import ReadOptions
from compiler.convert.pdf import outline, read_text_layer
from compiler.convert.pdf_tree import normalize_heading
from compiler.records import Converted

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT.parent / "shared" / "corpora"
MAKE = CORPORA / "make" / "make.pdf"
RESULTS = ROOT / "eval" / "results" / "pdf.json"


def heading_scores(converted: Converted, bookmarks: list[tuple[int, str, int | None]]) -> dict:
    """Recall, precision and level agreement of the converted headings against the bookmarks, in order."""
    found = [(e.level, normalize_heading(e.text), e.text) for e in converted.elements if e.kind == "heading"]
    used: set[int] = set()
    matched = level_ok = 0
    missed = []
    for level, title, _page in bookmarks:
        wanted = normalize_heading(title)
        hit = next((i for i, (_, text, _) in enumerate(found) if i not in used and text == wanted), None)
        if hit is None:
            missed.append(title)
            continue
        used.add(hit)
        matched += 1
        level_ok += found[hit][0] == level
    return {
        "bookmarks": len(bookmarks),
        "headings_found": len(found),
        "matched": matched,
        "recall": round(matched / len(bookmarks), 3) if bookmarks else None,
        "precision": round(len(used) / len(found), 3) if found else None,
        "level_agreement": round(level_ok / matched, 3) if matched else None,
        "missed": missed[:20],
    }


def timed(path: Path, use_outline: bool = True) -> tuple[Converted, float]:
    start = time.perf_counter()
    converted = read_text_layer(path, ReadOptions(), use_outline=use_outline)
    return converted, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="make.pdf only (skip the throughput shelves)")
    args = parser.parse_args(argv)
    if not MAKE.is_file():
        print(f"corpus missing: {MAKE}", file=sys.stderr)
        return 1
    document = pdfium.PdfDocument(MAKE)
    bookmarks = outline(document)
    document.close()
    results: dict = {"make_pdf": {}, "throughput": [], "load_average_at_start": round(os.getloadavg()[0], 2)}
    for label, use_outline in (("text_layer", False), ("with_outline", True)):
        converted, seconds = timed(MAKE, use_outline)
        scores = heading_scores(converted, bookmarks)
        scores["words"] = sum(len(e.text.split()) for e in converted.elements)
        results["make_pdf"][label] = scores
        results["throughput"].append({"file": f"make/make.pdf ({label})", "pages": converted.pages, "seconds": round(seconds, 2), "pages_per_s": round(converted.pages / seconds, 1)})
    shelves = [] if args.quick else [*sorted((CORPORA / "papers").glob("*.pdf")), *sorted((CORPORA / "office").glob("*.pdf"))]
    for path in shelves:
        converted, seconds = timed(path)
        headings = sum(1 for e in converted.elements if e.kind == "heading")
        results["throughput"].append(
            {"file": f"{path.parent.name}/{path.name}", "pages": converted.pages, "seconds": round(seconds, 2), "pages_per_s": round(converted.pages / seconds, 1), "headings": headings}
        )
    print(f"make.pdf headings vs its {len(bookmarks)} bookmarks")
    print(f"{'mode':<14}{'found':>7}{'matched':>9}{'recall':>8}{'precision':>11}{'levels':>8}")
    for label, s in results["make_pdf"].items():
        print(f"{label:<14}{s['headings_found']:>7}{s['matched']:>9}{s['recall']:>8}{s['precision']:>11}{s['level_agreement']:>8}")
    print(f"\n{'file':<58}{'pages':>6}{'seconds':>9}{'pages/s':>9}")
    for row in results["throughput"]:
        print(f"{row['file']:<58}{row['pages']:>6}{row['seconds']:>9}{row['pages_per_s']:>9}")
    results["load_average_at_end"] = round(os.getloadavg()[0], 2)
    print(f"\nload average (1 min): {results['load_average_at_start']} at start, {results['load_average_at_end']} at end (2 cores)")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"\nwrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
