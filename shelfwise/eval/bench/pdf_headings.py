"""PDF heading benchmark on public PDFs whose outline (bookmarks) names their headings.

Run from the repository root:  .venv/bin/python -m shelfwise.eval.bench.pdf_headings  [--rules-only]

Documents: every PDF under ../shared/corpora and every PDF (or .pdf.gz) under
/usr/share/doc whose outline can serve as ground truth: at least 5 entries,
titles of at most 12 words at the median (GDPR's outline lists its paragraphs,
not headings). An outline entry counts when its title stands in the text of
its page or the next (a "Cover" bookmark over a picture does not). The reader
runs with the outline HIDDEN (headings from the text layer alone), then with
it; headings are matched to entries by text (case, punctuation, spacing and a
leading section number or letter ignored, with its label: "Note 1 : Basis of
Presentation" is the outline's "Basis of Presentation"), in any order. Precision counts
every heading found that no entry names, so it is a lower bound where an
outline lists only the upper levels (libtasn1's function headings, HIPAA's
subsections); scoped precision leaves out the headings found before the
outline's first page (title page, contents) or deeper than its deepest level. ``--rules-only`` switches the fitted layout cues off (the reader
before them). Writes eval/results/pdf_headings.json (or ``--out``) and prints
a table per document and per source.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import statistics
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium

from shelfwise.compiler.ingest.convert.pdf_structure import MAX_MEDIAN_WORDS  # the reader's own test of a heading list
from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf import outline, read_text_layer
from shelfwise.compiler.ingest.convert.pdf_layout import PageItem
from shelfwise.compiler.ingest.convert.pdf_tree import Bookmark, normalize_heading

__all__ = ["heading_key", "public_pdfs", "usable_outline", "page_keys", "eligible_entries", "label_lines", "score_headings", "main"]

ROOT = Path(__file__).resolve().parents[3]
CORPORA = ROOT.parent / "shared" / "corpora"
SYSTEM_DOCS = Path("/usr/share/doc")
RESULTS = ROOT / "eval" / "results" / "pdf_headings.json"
MIN_ENTRIES = 5
# a section number written with its label ("Note 1: Basis of Presentation", "Chapter 2 Graphics", "Item 1A. Risk
# Factors"): an outline lists the same heading with or without it, as it does a bare number
_LABELLED_NUMBER = re.compile(r"^(?:note|chapter|appendix|annex|part|item|section|article|schedule)\s+(?:\d+[a-z]?(?: \d+)*|[ivxlc]+|[a-z])\s+(?=\S)")


def heading_key(text: str) -> str:
    """Text for matching a heading to an outline entry: normalised, a leading section number or letter dropped (with
    its label: "Note 1 :", "Chapter 2", "Item 1A."), no spaces."""
    key = normalize_heading(text)
    if 2 * sum(ch.isalpha() for ch in key) < sum(ch.isalpha() for ch in text):  # Korean, Chinese, Arabic: keep every letter
        key = " ".join(re.sub(r"[\W_]+", " ", text.casefold()).split())
    key = _LABELLED_NUMBER.sub("", key)
    key = re.sub(r"^(?:[a-z]|[ivx]+|\d+(?: \d+)*)\s+(?=\S)", "", key)
    return key.replace(" ", "")


def public_pdfs(scratch: Path) -> list[tuple[str, Path]]:
    """(source, path) of every candidate PDF: the shared corpora's and the system documentation's (.pdf.gz unpacked into ``scratch``)."""
    found = [(f"corpora/{p.parent.name}", p) for p in sorted(CORPORA.glob("*/*.pdf"))]
    for path in sorted(SYSTEM_DOCS.glob("**/*.pdf")) + sorted(SYSTEM_DOCS.glob("**/*.pdf.gz")):
        if path.suffix == ".gz":
            target = scratch / f"{path.parent.name}-{path.stem}"
            target.write_bytes(gzip.decompress(path.read_bytes()))
            path = target
        found.append(("system-doc", path))
    unique: dict[str, tuple[str, Path]] = {}
    for source, path in found:
        unique.setdefault(hashlib.sha256(path.read_bytes()).hexdigest(), (source, path))
    return sorted(unique.values(), key=lambda item: (item[0], item[1].name))


def usable_outline(path: Path) -> list[Bookmark]:
    """The PDF's outline when it can serve as ground truth (enough entries, titles of heading length), else []."""
    try:
        document = pdfium.PdfDocument(path)
    except pdfium.PdfiumError:
        return []
    try:
        marks = [mark for mark in outline(document) if mark[2] is not None]
    finally:
        document.close()
    if len(marks) < MIN_ENTRIES or statistics.median(len(title.split()) for _, title, _ in marks) > MAX_MEDIAN_WORDS:
        return []
    return marks


def page_keys(path: Path) -> dict[int, str]:
    """Each page's text (pdfium's text layer) as one ``heading_key``, by 1-based page number."""
    document = pdfium.PdfDocument(path)
    try:
        return {index + 1: heading_key(document[index].get_textpage().get_text_range()) for index in range(len(document))}
    finally:
        document.close()


def eligible_entries(marks: list[Bookmark], text: dict[int, str]) -> list[Bookmark]:
    """The outline entries whose title stands in the text (``page_keys``) of their page or the next."""
    return [mark for mark in marks if (key := heading_key(mark[1])) and key in text.get(mark[2], "") + text.get(mark[2] + 1, "")]


def label_lines(lines: list[PageItem], entries: list[tuple[str, int | None]]) -> tuple[dict[int, int], set[int]]:
    """Match entries (title, page or None) in order to the lines that start them: {line index: entry index}, and the
    indexes of the lines that continue a matched title (a heading wrapped over two lines)."""
    starts: dict[int, int] = {}
    continued: set[int] = set()
    cursor = 0
    for number, (title, page) in enumerate(entries):
        wanted = heading_key(title)
        for index in range(cursor, len(lines)):
            line = lines[index]
            if page is not None and line.page < page:
                continue
            if page is not None and line.page > page + 1:
                break
            got = heading_key(line.text)
            if not got or not wanted.startswith(got) or len(got) < 0.4 * len(wanted):
                continue
            joined, extra = got, []
            for later in range(index + 1, min(index + 4, len(lines))):
                if joined == wanted:
                    break
                joined += heading_key(lines[later].text)
                extra.append(later)
                if not wanted.startswith(joined):
                    break
            if joined != wanted and got != wanted:
                continue
            starts[index] = number
            continued |= set(extra) if joined == wanted else set()
            cursor = index + 1
            break
    return starts, continued


def score_headings(found: list[tuple[str, int, int]], wanted: list[Bookmark]) -> dict:
    """Recall and precision of found headings (text, level, page) against outline entries (level, title, page),
    matched by ``heading_key`` in any order. ``precision`` counts every found heading; ``scoped_precision`` leaves
    out those the outline does not cover: before the page of its first entry (title page, contents) or at a level
    deeper than its deepest entry."""
    pool = [heading_key(text) for text, _, _ in found]
    hits, missed = 0, []
    for _, title, _ in wanted:
        key = heading_key(title)
        if key in pool:
            pool.remove(key)
            hits += 1
        else:
            missed.append(title)
    extra = [(text, level, page) for text, level, page in found if heading_key(text) in pool]
    first_page = min((page for _, _, page in wanted if page), default=1)
    deepest = max((level for level, _, _ in wanted), default=1)
    out_of_scope = [h for h in extra if h[2] < first_page or h[1] > deepest]
    scoped = len(found) - len(out_of_scope)
    return {
        "entries": len(wanted),
        "found": len(found),
        "matched": hits,
        "recall": round(hits / len(wanted), 3) if wanted else None,
        "precision": round(hits / len(found), 3) if found else None,
        "scoped_found": scoped,
        "scoped_precision": round(hits / scoped, 3) if scoped else None,
        "missed": missed[:15],
        "unmatched_found": [text for text, _, _ in extra if (text, _, _) not in out_of_scope][:15],
        "out_of_scope": [text for text, _, _ in out_of_scope][:15],
    }


def _document(source: str, path: Path, marks: list[Bookmark], heading_cues: bool) -> dict:
    row: dict = {"source": source, "document": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()[:16]}
    wanted = eligible_entries(marks, page_keys(path))
    for label, use_outline in (("outline_hidden", False), ("outline_used", True)):
        converted = read_text_layer(path, ReadOptions(), use_outline=use_outline, heading_cues=heading_cues)
        row[label] = score_headings([(e.text, e.level or 1, e.page or 1) for e in converted.elements if e.kind == "heading"], wanted)
    return row


def _pooled(rows: list[dict], label: str) -> dict:
    matched = sum(r[label]["matched"] for r in rows)
    entries = sum(r[label]["entries"] for r in rows)
    found = sum(r[label]["found"] for r in rows)
    scoped = sum(r[label]["scoped_found"] for r in rows)
    return {"documents": len(rows), "entries": entries, "found": found,
            "recall": round(matched / entries, 3) if entries else None, "precision": round(matched / found, 3) if found else None,
            "scoped_precision": round(matched / scoped, 3) if scoped else None,
            "mean_recall": round(statistics.mean(r[label]["recall"] or 0 for r in rows), 3) if rows else None,
            "mean_precision": round(statistics.mean(r[label]["precision"] or 0 for r in rows), 3) if rows else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules-only", action="store_true", help="switch the fitted layout cues off (the reader before them)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for source, path in public_pdfs(Path(scratch)):
            marks = usable_outline(path)
            if marks:
                rows.append(_document(source, path, marks, heading_cues=not args.rules_only))
                hidden = rows[-1]["outline_hidden"]
                print(f"{source:<18}{path.name[:44]:<46}{hidden['entries']:>6}{hidden['found']:>7}{hidden['recall']:>8}{hidden['precision']:>8}"
                      f"{hidden['scoped_precision']:>8}", flush=True)
    sources = sorted({r["source"] for r in rows})
    summary = {label: {"all": _pooled(rows, label), **{s: _pooled([r for r in rows if r["source"] == s], label) for s in sources}}
               for label in ("outline_hidden", "outline_used")}
    print(f"\n{'outline':<16}{'source':<18}{'docs':>5}{'entries':>8}{'found':>7}{'recall':>8}{'precision':>10}{'scoped':>8}")
    for label, by_source in summary.items():
        for source, s in by_source.items():
            print(f"{label:<16}{source:<18}{s['documents']:>5}{s['entries']:>8}{s['found']:>7}{s['recall']:>8}{s['precision']:>10}{s['scoped_precision']:>8}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"heading_cues": not args.rules_only, "summary": summary, "documents": rows}, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
