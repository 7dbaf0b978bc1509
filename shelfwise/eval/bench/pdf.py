"""PDF reader benchmark: headings against make.pdf's own outline, and pages per second.

Run from the repository root:  .venv/bin/python -m shelfwise.eval.bench.pdf  [--quick]

(1) make.pdf: the headings the reader finds (text and level) against the PDF's
bookmarks, with the outline switched off (text layer alone) and on; matched by
normalised text (numbering prefix, case, punctuation and spacing ignored).
(2) pages per second on the papers shelf, make.pdf and the office shelf PDFs.
(3) the generated varied set (tests/pdf_samples.py: body-size bold and
numbered headings, two columns, Roman numbering, Korean, Chinese, Arabic,
Hebrew): heading recall and precision and word recall per document.
(4) OCR pages per second, on scanned copies of the first pages of the
generated set (each page rendered at 150 dpi and stored as an image only).
``--compare /work/main`` also times main's reader on the same files in a
subprocess, right after this one, so the two speeds are measured side by side.
Writes eval/results/pdf.json and prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pypdfium2 as pdfium

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf import outline, read_text_layer
from shelfwise.compiler.ingest.convert.pdf_tree import normalize_heading
from shelfwise.compiler.store.records import Converted

ROOT = Path(__file__).resolve().parents[3]
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


def sample_scores(folder: Path) -> list[dict]:
    """Heading and word scores on the generated varied PDF set."""
    sys.path.insert(0, str(ROOT / "tests"))
    from pdf_samples import score, write_samples

    rows = []
    for sample in write_samples(folder):
        result = score(sample, read_text_layer(sample.path, ReadOptions()))
        rows.append({"document": sample.name, **{k: result[k] for k in ("heading_recall", "heading_precision", "word_recall")}})
    return rows


def ocr_throughput(folder: Path, pages: int) -> dict:
    """Pages per second on image-only copies of the generated samples' first pages (OCR), against their text layers."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    sources = sorted(folder.glob("*.pdf"))[:pages]
    scans = []
    for source in sources:
        document = pdfium.PdfDocument(source)
        page = document[0]
        width, height = page.get_size()
        image = page.render(scale=150 / 72).to_pil().convert("L")
        document.close()
        target = folder / "scans" / source.name
        target.parent.mkdir(exist_ok=True)
        scan = canvas.Canvas(str(target), pagesize=(width, height))
        scan.drawImage(ImageReader(image), 0, 0, width=width, height=height)
        scan.save()
        scans.append(target)
    start = time.perf_counter()
    ocr_pages = sum(read_text_layer(path, ReadOptions()).pages for path in scans)
    ocr_seconds = time.perf_counter() - start
    return {"ocr_pages": ocr_pages, "ocr_seconds": round(ocr_seconds, 2), "ocr_pages_per_s": round(ocr_pages / ocr_seconds, 3)}


_TIMING = """
import json, sys, time
from pathlib import Path
from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf import read_text_layer
out = []
for name in sys.argv[1:]:
    start = time.perf_counter()
    converted = read_text_layer(Path(name), ReadOptions())
    out.append({"pages": converted.pages, "seconds": time.perf_counter() - start})
print(json.dumps(out))
"""


def _timed_in(checkout: Path, files: list[Path]) -> list[dict]:
    """Read ``files`` with the reader of another checkout (its own code on PYTHONPATH), timed in its own process."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, "-c", _TIMING, *map(str, files)], env=env, cwd=checkout, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="make.pdf only (skip the throughput shelves)")
    parser.add_argument("--compare", type=Path, help="another checkout (e.g. /work/main) whose reader is timed on the same files")
    parser.add_argument("--ocr-pages", type=int, default=3, help="scanned pages to OCR for the OCR speed (0: skip)")
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
    with tempfile.TemporaryDirectory() as tmp:
        results["samples"] = sample_scores(Path(tmp))
        if args.ocr_pages:
            results["ocr"] = ocr_throughput(Path(tmp), args.ocr_pages)
    text_files = [MAKE, *shelves]
    text_pages = sum(row["pages"] for row in results["throughput"][1:2]) + sum(row["pages"] for row in results["throughput"][2:])
    text_seconds = results["throughput"][1]["seconds"] + sum(row["seconds"] for row in results["throughput"][2:])
    results["text_pages_per_s"] = round(text_pages / text_seconds, 1)
    if args.compare:
        theirs = _timed_in(args.compare.resolve(), text_files)
        mine = _timed_in(ROOT, text_files)
        results["compare"] = {
            "checkout": str(args.compare),
            "files": len(text_files),
            "pages": sum(r["pages"] for r in mine),
            "this_pages_per_s": round(sum(r["pages"] for r in mine) / sum(r["seconds"] for r in mine), 1),
            "other_pages_per_s": round(sum(r["pages"] for r in theirs) / sum(r["seconds"] for r in theirs), 1),
        }
        results["compare"]["ratio"] = round(results["compare"]["this_pages_per_s"] / results["compare"]["other_pages_per_s"], 3)
    print(f"make.pdf headings vs its {len(bookmarks)} bookmarks")
    print(f"{'mode':<14}{'found':>7}{'matched':>9}{'recall':>8}{'precision':>11}{'levels':>8}")
    for label, s in results["make_pdf"].items():
        print(f"{label:<14}{s['headings_found']:>7}{s['matched']:>9}{s['recall']:>8}{s['precision']:>11}{s['level_agreement']:>8}")
    print(f"\n{'file':<58}{'pages':>6}{'seconds':>9}{'pages/s':>9}")
    for row in results["throughput"]:
        print(f"{row['file']:<58}{row['pages']:>6}{row['seconds']:>9}{row['pages_per_s']:>9}")
    print(f"\n{'generated document':<24}{'h.recall':>9}{'h.prec':>8}{'words':>7}")
    for row in results["samples"]:
        print(f"{row['document']:<24}{row['heading_recall']:>9}{row['heading_precision']:>8}{row['word_recall']:>7}")
    print(f"\ntext pages/s (make.pdf with outline and the shelves): {results['text_pages_per_s']}")
    if "ocr" in results:
        o = results["ocr"]
        print(f"OCR pages/s (scanned pages, rapidocr): {o['ocr_pages_per_s']} ({o['ocr_pages']} pages in {o['ocr_seconds']} s)")
    if "compare" in results:
        c = results["compare"]
        print(f"side by side on {c['files']} files, {c['pages']} pages: this checkout {c['this_pages_per_s']} p/s, {c['checkout']} {c['other_pages_per_s']} p/s (ratio {c['ratio']})")
    results["load_average_at_end"] = round(os.getloadavg()[0], 2)
    print(f"\nload average (1 min): {results['load_average_at_start']} at start, {results['load_average_at_end']} at end (2 cores)")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"\nwrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
