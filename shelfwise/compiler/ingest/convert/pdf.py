"""PDF reader: the text layer rebuilt into headings, paragraphs, lists, tables and figures.

docling's standard pipeline needs layout weights that cannot be fetched here,
so it runs only when ``ReadOptions.docling_artifacts_path`` names a folder that
exists (``pdf_docling``). Otherwise the model-free route reads the text layer
with pdfium (characters with fonts, paths, image boxes, outline, figure crops;
pdfplumber's table finder turns the paths into ruled tables),
``options.window_pages`` pages at a time. Each window's
page items are stored as ``window-NNNN.json`` under ``options.checkpoint_dir``
when one is given, so an interrupted read resumes from the last finished window;
``pdf_tree.assemble`` then runs once over all pages, so a windowed read equals a
single pass.
"""

from __future__ import annotations

import os
from importlib.metadata import version
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
from pydantic import BaseModel, Field, ValidationError

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf_layout import PageData, read_page
from shelfwise.compiler.ingest.convert.pdf_structure import heading_like, tagged_headings
from shelfwise.compiler.ingest.convert.pdf_tree import Bookmark, assemble
from shelfwise.compiler.errors import ConversionError
from shelfwise.compiler.store.records import Converted

__all__ = ["read", "read_text_layer", "outline", "WINDOW_FORMAT", "WindowFile"]

WINDOW_FORMAT = 19  # bump when PageData or read_page changes what a stored window means (19: one header piece centred over all the figure columns names each; 18: a table beside a justified column of prose leaves the prose out; 17: a numeric table's group labels left of its row labels; centred header pieces name their equal groups of columns; 16: a glossary in two columns is a table of term and meaning; 15: a schedule of one row under a line of as many periods is a table; 14: a bridge chart's lines led by amounts are a table of label and amount; a diagram's labels in type smaller than its caption's, about a small embedded picture, belong to its figure; 13: one column of figures beside labels is a numeric table; 12: a numeric table's label set a line above its figures is that row's label; 11: three boxes of prose or more set side by side, each read as one line of text; 10: a ruled table cell's, a wrapped row label's and a figure caption's lines kept one a line, joined by the tree as a paragraph's are; 9: a form's label-and-value rows over a numeric table are rows, not its column header; 4: numeric tables with headers; 5: a line's font family; 6: a trailing footnote mark left out of a line; 7: ruling lines cut to their clip path, a footnote mark left alone at a column's gutter dropped; 8: a line "Figure 8. After ..." going on with the sentence of the line above it is no caption, a band of two columns of prose on a one-column page read column by column)
_ENCRYPTED = "PDF is encrypted (password-protected); remove the password and compile again"
_PDFIUM_PASSWORD_ERROR = 4


def _reader_version() -> str:
    return f"pypdfium2 {version('pypdfium2')}; pdfplumber {version('pdfplumber')}; window format {WINDOW_FORMAT}"


class WindowFile(BaseModel):
    """One finished window as stored on disk; every field but ``pages`` is checked before reuse."""

    format: int = Field(description="WINDOW_FORMAT of the code that wrote it.")
    reader_version: str = Field(description="Library versions that read the pages.")
    file_size: int = Field(description="Size in bytes of the PDF that was read.")
    page_count: int = Field(description="Pages in the whole PDF.")
    window_pages: int = Field(description="Window size the read used.")
    ocr: bool = Field(description="Whether pages without a text layer were read by OCR.")
    first_page: int = Field(description="First page of the window (1-based).")
    last_page: int = Field(description="Last page of the window (1-based, inclusive).")
    pages: list[PageData] = Field(description="The window's pages, in order.")


def _open(path: Path) -> pdfium.PdfDocument:
    """Open with pdfium, turning its failures into reasons a person can act on."""
    try:
        document = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == _PDFIUM_PASSWORD_ERROR:
            raise ConversionError(_ENCRYPTED) from exc
        if getattr(exc, "err_code", None) == 0 or _has_no_pages(path):
            raise ConversionError("PDF has no pages; export it again from its source") from exc
        raise ConversionError(f"PDF is damaged or truncated ({exc}); re-export or download it again") from exc
    if len(document) == 0:
        document.close()
        raise ConversionError("PDF has no pages; export it again from its source")
    return document


def _has_no_pages(path: Path) -> bool:
    """Whether pdfminer reads the file as a well-formed PDF with zero pages (pdfium calls that a format error)."""
    try:
        with pdfplumber.open(path) as plumber:
            return len(plumber.pages) == 0
    except Exception:  # noqa: BLE001 - any failure here means damaged, which the caller reports
        return False


def outline(document: pdfium.PdfDocument) -> list[Bookmark]:
    """The PDF's bookmarks as (level, title, page), level 1 = top, in document order."""
    marks: list[Bookmark] = []
    try:
        for bookmark in document.get_toc(max_depth=8):
            dest = bookmark.get_dest()
            index = dest.get_index() if dest is not None else None
            title = " ".join((bookmark.get_title() or "").split())
            if title:
                marks.append((bookmark.level + 1, title, index + 1 if index is not None else None))
    except pdfium.PdfiumError:
        return []  # a broken outline is no reason to fail the read; the text layer still has headings
    return marks


def _window_path(checkpoint_dir: Path, index: int) -> Path:
    return checkpoint_dir / f"window-{index:04d}.json"


def _load_window(path: Path, expected: dict) -> list[PageData] | None:
    """The stored window when it exists and was written for this very read; else None."""
    if not path.is_file():
        return None
    try:
        stored = WindowFile.model_validate_json(path.read_bytes())
    except (ValidationError, ValueError, OSError):
        return None  # half-written or from another version: read the window again
    if any(getattr(stored, key) != value for key, value in expected.items()):
        return None
    return stored.pages


def _save_window(path: Path, window: WindowFile) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.partial")
    partial.write_text(window.model_dump_json(), encoding="utf-8")
    os.replace(partial, path)  # a kill mid-write leaves only the .partial file


def _read_window(document: pdfium.PdfDocument, first: int, last: int, ocr: bool) -> list[PageData]:
    """Pages first..last (1-based, inclusive) read from the text layer (pages without one by OCR when ``ocr``)."""
    pages = []
    try:
        for page_no in range(first, last + 1):
            pdfium_page = document[page_no - 1]
            try:
                pages.append(read_page(pdfium_page, page_no, ocr))
            finally:
                pdfium_page.close()
    except ConversionError:
        raise
    except Exception as exc:  # pdfium, or pdfplumber's table finder on malformed paths
        raise ConversionError(f"PDF pages {first}-{last} could not be read ({type(exc).__name__}: {exc}); re-export or download it again") from exc
    return pages


def read_text_layer(path: Path, options: ReadOptions, *, use_outline: bool = True, heading_cues: bool = True) -> Converted:
    """The model-free read; headings from the bookmarks when they read as headings (``pdf_structure.heading_like``),
    else from the tagged structure, and from the text layer;
    ``use_outline=False`` ignores bookmarks and tags (headings from the text layer alone);
    ``heading_cues=False`` picks headings by the style and numbering rules alone (no fitted layout cues)."""
    document = _open(path)
    try:
        count = len(document)
        # bookmarks that run to sentences at the median are a paragraph index, not headings (GDPR bookmarks each
        # numbered paragraph and point): the tagged structure, else the text layer, says what the headings are
        marks = (heading_like(outline(document)) or tagged_headings(document)) if use_outline else []
        window = max(1, options.window_pages)
        expected_base = {
            "format": WINDOW_FORMAT,
            "reader_version": _reader_version(),
            "file_size": path.stat().st_size,
            "page_count": count,
            "window_pages": window,
            "ocr": options.ocr,
        }
        pages: list[PageData] = []
        for index, first in enumerate(range(1, count + 1, window)):
            last = min(first + window - 1, count)
            if options.progress is not None:
                options.progress(f"{path.name}: pages {first}-{last} of {count}")
            expected = {**expected_base, "first_page": first, "last_page": last}
            target = _window_path(options.checkpoint_dir, index) if options.checkpoint_dir else None
            stored = _load_window(target, expected) if target else None
            if stored is None:
                stored = _read_window(document, first, last, options.ocr)
                if target:
                    _save_window(target, WindowFile(**expected, pages=stored))
            pages.extend(stored)
        metadata = document.get_metadata_dict(skip_empty=True)
    finally:
        document.close()
    report = None if options.progress is None else (lambda line: options.progress(f"{path.name}: {line}"))
    elements = assemble(pages, marks or None, progress=report, window=window, heading_cues=heading_cues)
    scanned = [page.page for page in pages if page.ocr]
    blank = [page.page for page in pages if page.no_text]
    warnings = []
    reader_version = _reader_version()
    if scanned:
        from shelfwise.compiler.ingest.convert.ocr import ocr_version

        reader_version += f"; OCR {ocr_version()} on pages {_page_list(scanned)}"
        warnings.append(f"{_pages_phrase(scanned)} no text layer; read by OCR ({ocr_version()}): check the text of {'it' if len(scanned) == 1 else 'them'}")
    if blank and not options.ocr:
        warnings.append(f"{_pages_phrase(blank)} no text layer and OCR is off (pdf.ocr = false): {'its' if len(blank) == 1 else 'their'} content is not read")
    return Converted(
        title=_title(metadata.get("Title", ""), elements, path),
        elements=elements,
        pages=count,
        reader="pdf-text" if len(scanned) < count else "pdf-ocr",
        reader_version=reader_version,
        warnings=warnings,
    )


def _page_list(numbers: list[int]) -> str:
    """1-based page numbers as ranges: [1, 2, 3, 7] -> '1-3, 7'."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


def _pages_phrase(numbers: list[int]) -> str:
    return f"page {numbers[0]} has" if len(numbers) == 1 else f"pages {_page_list(numbers)} have"


def _title(meta_title: str, elements: list, path: Path) -> str:
    """Metadata title when it looks like one; else the first page-1 heading of the top level; else the file name."""
    title = " ".join(meta_title.split())
    junk = ("untitled", "microsoft word", "slide 1", "powerpoint")
    if title and not title.lower().startswith(junk) and not title.lower().endswith((".doc", ".docx", ".dvi", ".pdf", ".tex")):
        return title
    headings = [e for e in elements if e.kind == "heading" and (e.page or 1) <= 2]
    if headings:
        top = min(e.level or 1 for e in headings)
        return next(e.text for e in headings if (e.level or 1) == top)
    return path.stem


def read(path: Path, options: ReadOptions) -> Converted:
    """Read a PDF: docling's standard pipeline when its weights are configured, else the text layer."""
    artifacts = options.docling_artifacts_path
    if artifacts is not None and Path(artifacts).is_dir():
        _open(path).close()  # the same clear reasons for encrypted, empty or damaged files
        from shelfwise.compiler.ingest.convert import pdf_docling

        return pdf_docling.read(path, Path(artifacts))
    return read_text_layer(path, options, use_outline=options.use_outline)
