"""Fit the PDF reader's layout-cue heading model on public PDFs with outlines, judged leave-one-document-out.

``python -m shelfwise.eval.fit_pdf_headings`` does three things:

1. **Collect.** Every document of ``shelfwise.eval.bench.pdf_headings`` (public PDFs whose outline names their
   headings) and every generated sample of ``tests/pdf_samples.py`` (headings known as drawn) is read page by page
   as the reader reads it (running headers and footers dropped); its outline entries are matched to the lines that
   start them (``label_lines``). Each line the style and numbering rules leave out is a candidate with its layout
   cues (``pdf_heading_cues.FEATURES``).
2. **Cross-validate.** Every combination of bounds in ``GRID`` (with ``FIXED_MINIMUMS`` and ``FIXED_MAXIMUMS``)
   scores every document's lines: recall of its entries, precision of its heading lines from the page of its first
   entry on (and over every page: ``strict_precision``). For each document, the combination with the best mean F1
   over the other documents is applied to it; then the check over every picked line (``fit_pdf_heading_check``) is
   fitted on the other documents, its threshold chosen by leave-one-document-out among them for
   ``TARGET_PRECISION``. Rules alone, rules plus cues, and both with the check, fold by fold to
   ``eval/results/fit_pdf_headings.json``.
3. **Ship.** The bounds and the check fitted on all documents are written to ``pdf_heading_weights.json`` beside
   the reader's cue module, with the documents' hashes and the cross-validation figures.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium

from shelfwise.compiler.ingest.convert.pdf_heading_cues import FEATURES, WEIGHTS_FILE, HeadingModel, heading_model
from shelfwise.compiler.ingest.convert.pdf_headings import rule_headings
from shelfwise.compiler.ingest.convert.pdf import WINDOW_FORMAT
from shelfwise.compiler.ingest.convert.pdf_layout import PageData, PageItem, read_page
from shelfwise.compiler.ingest.convert.pdf_tree import reading_lines
from shelfwise.eval.fit_pdf_heading_check import check_model, checked, choose_threshold, fit_check, joined, picked
from shelfwise.eval.bench.pdf_headings import eligible_entries, label_lines, page_keys, public_pdfs, usable_outline

__all__ = ["Document", "collect", "unlisted", "score_grid", "fit", "cross_validate", "line_scores", "main", "GRID", "FIXED_MINIMUMS", "FIXED_MAXIMUMS", "TARGET_PRECISION"]

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "eval" / "results" / "fit_pdf_headings.json"


@dataclass
class Document:
    """One document's lines as the reader sees them, with their labels."""

    name: str
    source: str
    sha256: str
    lines: list[PageItem]
    entries: int  # outline entries (or drawn headings) to find
    first_page: int  # page of the first entry: headings before it (title page, contents) are outside the outline's scope
    starts: set[int]  # lines that start an entry
    continued: set[int]  # lines that continue a wrapped entry
    rules: set[int]  # lines the rules call headings
    features: dict[int, list[float]] = field(default_factory=dict)  # every possible heading line (the rules' among them), with its cues

    @property
    def candidates(self) -> dict[int, list[float]]:
        """The possible heading lines the rules leave out, with their cues."""
        return {i: cues for i, cues in self.features.items() if i not in self.rules}


def _pages(path: Path, cache: Path | None) -> list[PageData]:
    """The PDF's pages as the reader reads them (kept as JSON under ``cache``, by content hash, when given)."""
    stored = cache / f"{hashlib.sha256(path.read_bytes()).hexdigest()[:16]}-w{WINDOW_FORMAT}.json" if cache else None
    if stored is not None and stored.is_file():
        return [PageData.model_validate(page) for page in json.loads(stored.read_text(encoding="utf-8"))]
    document = pdfium.PdfDocument(path)
    try:
        pages = []
        for index in range(len(document)):
            page = document[index]
            try:
                pages.append(read_page(page, index + 1))
            finally:
                page.close()
    finally:
        document.close()
    if stored is not None:
        stored.parent.mkdir(parents=True, exist_ok=True)
        stored.write_text(json.dumps([page.model_dump(mode="json") for page in pages]), encoding="utf-8")
    return pages


def _lines(path: Path, cache: Path | None) -> tuple[list[PageItem], float, int]:
    pages = _pages(path, cache)
    lines, body = reading_lines(pages)
    return lines, body, len(pages)


def _document(name: str, source: str, path: Path, entries: list[tuple[str, int | None]], cache: Path | None) -> Document:
    lines, body, pages = _lines(path, cache)
    starts, continued = label_lines(lines, entries)
    rules, features = rule_headings(lines, body, pages)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    first_page = min((page for _, page in entries if page), default=1)
    return Document(name, source, digest, lines, len(entries), first_page, set(starts), continued, rules, features)


def collect(scratch: Path, cache: Path | None = None, progress=print) -> list[Document]:
    """Every public PDF with a usable outline and every generated sample, read and labelled."""
    documents = []
    for source, path in public_pdfs(scratch):
        marks = usable_outline(path)
        if not marks:
            continue
        entries = [(title, page) for _, title, page in eligible_entries(marks, page_keys(path))]
        documents.append(_document(path.name, source, path, entries, cache))
        progress(f"{source:<18}{path.name[:44]:<46}{len(entries):>5} entries {len(documents[-1].starts):>5} matched")
    sys.path.insert(0, str(ROOT / "tests"))
    from pdf_samples import write_samples

    for sample in write_samples(scratch / "samples"):
        documents.append(_document(sample.name, "generated", sample.path, [(title, None) for title in sample.headings], cache))
        progress(f"{'generated':<18}{sample.name:<46}{len(sample.headings):>5} entries {len(documents[-1].starts):>5} matched")
    return documents


GRID: dict[str, tuple[float, ...]] = {
    "style_alone": (0.3, 0.5, 0.7, 0.8, 0.9),  # at least: share of the style's lines that stand alone
    "style_pages": tuple(math.log1p(pages) for pages in (1, 2, 3, 5, 8)),  # at least: pages the style is used on
    "gap_balance": (-3.0, 0.0),  # at least: no more space below the line than above it (0), or any (-3)
    "words": tuple(math.log1p(words) for words in (8, 12, 25)),  # at most: words in the line
    "letter_share": (0.0, 0.7),  # at least: share of letters among its characters
    "above_text_block": (0.0, 1.0),  # at most: 0 keeps lines set above where a page's body text starts out, 1 lets them in
}
"""The bounds tried: every combination, each with the fixed bounds of ``FIXED``."""
FIXED_MINIMUMS = {"isolated_set_apart": 1.0}
"""Every cue heading stands alone (a paragraph break above, short, no final period) in a style unlike the body's."""
FIXED_MAXIMUMS: dict[str, float] = {}
"""No cue is bounded above whatever the fit."""
TARGET_PRECISION = 0.8
"""The pooled precision (every page) the check's threshold is chosen to reach, at the best recall."""


def _combinations() -> list[tuple[dict[str, float], dict[str, float]]]:
    out = []
    for alone, pages, balance, words, letters, above in itertools.product(*GRID.values()):
        out.append(({**FIXED_MINIMUMS, "style_alone": alone, "style_pages": pages, "gap_balance": balance, "letter_share": letters},
                    {**FIXED_MAXIMUMS, "words": words, "above_text_block": above}))
    return out


def _predicted(document: Document, model: HeadingModel | None) -> set[int]:
    """Rules plus the model's lines (those its check keeps, when it has one), a line that continues the heading above
    it (same style, tight below it, no number of its own: the reader joins them) left out."""
    heads = picked(document, model)
    if model is not None and model.check is not None:
        heads = checked(document, heads, lambda i: model.check.keeps(document.features[i]))
    return joined(document, heads)


def line_scores(document: Document, model: HeadingModel | None) -> dict:
    """Recall of the document's entries and precision of its heading lines from the page of its first entry on
    (the outline's scope), rules plus the model (rules alone: ``model`` None); ``strict_*``: precision over every
    page (title page and contents included)."""
    every = _predicted(document, model)
    heads = {i for i in every if document.lines[i].page >= document.first_page}
    labelled = document.starts | document.continued
    hits = len(heads & document.starts)
    true = len(heads & labelled)
    recall = hits / document.entries if document.entries else 0.0
    precision = true / len(heads) if heads else 0.0
    f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0
    strict_true = len(every & labelled)
    return {"recall": round(recall, 3), "precision": round(precision, 3), "f1": round(f1, 4), "headings": len(heads), "matched": hits,
            "entries": document.entries, "strict_precision": round(strict_true / len(every), 3) if every else 0.0,
            "strict_headings": len(every), "strict_true": strict_true}


def unlisted(document: Document, model: HeadingModel) -> list[dict]:
    """The heading lines ``model`` finds that no outline entry names, each with the lines above and below it: what
    strict precision counts as wrong, though an outline that stops at level 2 leaves real subheadings out
    (``pdf_heading_audit`` judges a sample of them by hand)."""
    out = []
    for index in sorted(_predicted(document, model) - document.starts - document.continued):
        line = document.lines[index]
        out.append({"page": line.page, "text": line.text,
                    "above": document.lines[index - 1].text if index > 0 else "",
                    "below": document.lines[index + 1].text if index + 1 < len(document.lines) else ""})
    return out


def score_grid(documents: list[Document]) -> list[list[dict]]:
    """Every document's line scores under every combination of bounds: [document][combination]."""
    models = [heading_model(*bounds) for bounds in _combinations()]
    return [[line_scores(document, model) for model in models] for document in documents]


def fit(scores: list[list[dict]], documents: list[int]) -> int:
    """The combination with the best mean F1 over ``documents`` (indexes into ``scores``); ties to the stricter."""
    count = len(scores[0])
    return max(range(count), key=lambda c: (round(statistics.mean(scores[d][c]["f1"] for d in documents), 4), -c))


def cross_validate(documents: list[Document], scores: list[list[dict]], target: float = TARGET_PRECISION, progress=print) -> list[dict]:
    """Leave one document out: the bounds fitted on the rest, then the check fitted on the rest with its threshold
    chosen by leave-one-out inside the rest; the held-out document scored by the rules alone, the rules plus the cue
    bounds, and both with the check."""
    combinations = _combinations()
    folds = []
    for held, document in enumerate(documents):
        rest = [d for d in range(len(documents)) if d != held]
        chosen = fit(scores, rest)
        bounds = heading_model(*combinations[chosen])
        threshold = choose_threshold(documents, bounds, rest, target)
        with_check = check_model(bounds, fit_check(documents, bounds, rest, threshold))
        folds.append({"document": document.name, "source": document.source, "bounds": combinations[chosen], "threshold": threshold,
                      "rules": line_scores(document, None), "rules_and_cues": scores[held][chosen], "checked": line_scores(document, with_check),
                      "unlisted": unlisted(document, with_check)})
        progress(f"fold {held + 1}/{len(documents)} {document.name}: threshold {threshold}")
    return folds


def _pooled(folds: list[dict], key: str) -> dict:
    matched = sum(f[key]["matched"] for f in folds)
    entries = sum(f[key]["entries"] for f in folds)
    true_heads = sum(f[key]["precision"] * f[key]["headings"] for f in folds)
    heads = sum(f[key]["headings"] for f in folds)
    strict_true = sum(f[key]["strict_true"] for f in folds)
    strict_heads = sum(f[key]["strict_headings"] for f in folds)
    return {"recall": round(matched / entries, 3) if entries else None, "precision": round(true_heads / heads, 3) if heads else None,
            "strict_precision": round(strict_true / strict_heads, 3) if strict_heads else None,
            "mean_f1": round(statistics.mean(f[key]["f1"] for f in folds), 3)}


def _rounded(bounds: dict[str, float]) -> dict[str, float]:
    return {name: round(value, 4) for name, value in sorted(bounds.items())}


def _bounds_text(bounds: tuple[dict[str, float], dict[str, float]]) -> str:
    minimums, maximums = bounds
    return " ".join([f"{k}>={v:.2f}" for k, v in sorted(minimums.items()) if k not in FIXED_MINIMUMS]
                    + [f"{k}<={v:.2f}" for k, v in sorted(maximums.items()) if k not in FIXED_MAXIMUMS])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--weights", type=Path, default=WEIGHTS_FILE, help="where the fit on all documents is written")
    parser.add_argument("--precision", type=float, default=TARGET_PRECISION, help="the pooled strict precision the check's threshold must reach")
    parser.add_argument("--cache", type=Path, default=None, help="a folder keeping each PDF's read pages between runs (by content hash)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        documents = collect(Path(scratch), args.cache)
    scores = score_grid(documents)
    folds = cross_validate(documents, scores, args.precision)
    print(f"\n{'held-out document':<48}{'source':<18}{'rules R':>8}{'P':>7}{'+cues R':>9}{'P':>7}{'checked R':>10}{'P':>7}{'strict P':>9}  bounds")
    for f in folds:
        print(f"{f['document'][:46]:<48}{f['source']:<18}{f['rules']['recall']:>8}{f['rules']['strict_precision']:>7}"
              f"{f['rules_and_cues']['recall']:>9}{f['rules_and_cues']['strict_precision']:>7}{f['checked']['recall']:>10}"
              f"{f['checked']['precision']:>7}{f['checked']['strict_precision']:>9}  {_bounds_text(f['bounds'])} t={f['threshold']}")
    kinds = ("rules", "rules_and_cues", "checked")
    sources = sorted({f["source"] for f in folds})
    summary = {s: {k: _pooled([f for f in folds if f["source"] == s], k) for k in kinds} for s in sources}
    public = [f for f in folds if f["source"] != "generated"]
    summary["public"] = {k: _pooled(public, k) for k in kinds}
    for source, s in summary.items():
        print(f"{source:<18}" + "  ".join(f"{k} R {s[k]['recall']} P {s[k]['precision']} strict {s[k]['strict_precision']}" for k in kinds))
    everything = list(range(len(documents)))
    minimums, maximums = _combinations()[fit(scores, everything)]
    bounds = heading_model(minimums, maximums)
    check = fit_check(documents, bounds, everything, choose_threshold(documents, bounds, everything, args.precision))
    shipped = {"features": list(FEATURES), "minimums": _rounded(minimums), "maximums": _rounded(maximums), "check": check,
               "target_precision": args.precision,
               "documents": [{"name": d.name, "source": d.source, "sha256": d.sha256} for d in documents],
               "cross_validation": summary}
    args.weights.write_text(json.dumps(shipped, indent=2) + "\n", encoding="utf-8")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "folds": folds, "minimums": shipped["minimums"], "maximums": shipped["maximums"]}, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {args.weights} and {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
