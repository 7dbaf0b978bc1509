"""Readers: one file in, a :class:`~shelfwise.compiler.store.records.Converted` element stream out.

``detect_format`` sniffs the bytes (never trusting the name alone) and
``convert_file`` dispatches to the reader for that format. Each reader module
exposes ``read(path, options) -> Converted`` and raises ``ConversionError``
with a reason a person can act on.
"""

from __future__ import annotations

import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from shelfwise.compiler.ingest.convert import limits
from shelfwise.compiler.errors import ConversionError
from shelfwise.compiler.store.records import Converted

__all__ = ["ConversionError", "Converted", "ReadOptions", "SUFFIX_FORMATS", "detect_format", "convert_file"]

SUFFIX_FORMATS: dict[str, str] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".xlsx": "xlsx",
    ".pptx": "pptx",
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".rst": "rst",
    ".texi": "texinfo",
    ".texinfo": "texinfo",
}

_FORMAT_NAMES = {
    "pdf": "a PDF document",
    "docx": "a Word document",
    "xlsx": "an Excel workbook",
    "pptx": "a PowerPoint deck",
    "zip": "a zip archive",
    "html": "an HTML page",
    "text": "plain text",
    "binary": "binary data",
}


class ReadOptions(BaseModel):
    """What a reader may need beyond the file itself."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    window_pages: int = Field(default=10, description="PDF pages per window (each window is checkpointed).")
    use_outline: bool = Field(default=True, description="Take PDF headings from the outline (bookmarks) when the file has one.")
    ocr: bool = Field(default=True, description="Read PDF pages that have no text layer (scans) by OCR.")
    checkpoint_dir: Path | None = Field(default=None, description="Where finished PDF windows are kept; None: no checkpoints.")
    docling_artifacts_path: Path | None = Field(default=None, description="Local docling model weights for the standard PDF pipeline.")
    progress: Callable[[str], None] | None = Field(default=None, description="Called with a short progress line.")
    max_unzipped_mb: float | None = Field(default=None, description="docx/xlsx/pptx: largest sum of uncompressed part sizes; None: no limit.")
    max_xml_elements: int | None = Field(default=None, description="docx/xlsx/pptx: most XML elements in the document parts; None: no limit.")
    max_sheet_rows: int | None = Field(default=None, description="xlsx: most rows in one sheet; None: no limit.")
    max_text_chars: int | None = Field(default=None, description="Text formats: most characters in one file; None: no limit.")


def _sniff(head: bytes, path: Path) -> str:
    if head.startswith(b"%PDF"):
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(path) as archive:
                names = set(archive.namelist())
        except (zipfile.BadZipFile, OSError):
            return "zip"
        if "word/document.xml" in names:
            return "docx"
        if "xl/workbook.xml" in names:
            return "xlsx"
        if "ppt/presentation.xml" in names:
            return "pptx"
        return "zip"
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if stripped.startswith((b"<!doctype html", b"<html")):
        return "html"
    if b"\x00" in head[:4096] and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "binary"
    return "text"


def detect_format(path: Path) -> str:
    """The reader format for ``path``, from its suffix checked against its bytes.

    Raises ConversionError for an empty file, an unknown suffix, or a file
    whose content is not what its name says.
    """
    suffix = path.suffix.lower()
    claimed = SUFFIX_FORMATS.get(suffix)
    if claimed is None:
        raise ConversionError(f"unsupported file type {suffix or '(no suffix)'}; supported: {', '.join(sorted(SUFFIX_FORMATS))}")
    size = path.stat().st_size
    if size == 0:
        raise ConversionError("file is empty (0 bytes)")
    with path.open("rb") as handle:
        head = handle.read(8192)
    actual = _sniff(head, path)
    text_like = {"html", "markdown", "text", "rst", "texinfo"}
    if claimed in text_like:
        if actual in {"pdf", "docx", "xlsx", "pptx", "zip", "binary"}:
            raise ConversionError(f"named {suffix} but holds {_FORMAT_NAMES[actual]}; rename it to match its content")
        return claimed
    if actual != claimed:
        if actual == "zip" and claimed in {"docx", "xlsx", "pptx"}:
            raise ConversionError(f"corrupt {suffix} file: the zip archive is damaged or lacks the parts of {_FORMAT_NAMES[claimed]}")
        raise ConversionError(f"named {suffix} but holds {_FORMAT_NAMES[actual]}; rename it to match its content")
    return claimed


def _reader(fmt: str) -> Callable[[Path, ReadOptions], Converted]:
    if fmt == "pdf":
        from shelfwise.compiler.ingest.convert import pdf

        return pdf.read
    if fmt in {"docx", "xlsx", "pptx", "html"}:
        from shelfwise.compiler.ingest.convert import docling_reader

        return docling_reader.read
    if fmt == "markdown":
        from shelfwise.compiler.ingest.convert import markdown

        return markdown.read
    if fmt == "text":
        from shelfwise.compiler.ingest.convert import text

        return text.read
    if fmt == "rst":
        from shelfwise.compiler.ingest.convert import rst

        return rst.read
    from shelfwise.compiler.ingest.convert import texi

    return texi.read


def _read_html(path: Path, options: ReadOptions) -> Converted:
    """HTML through its reader, decoded first (textio.decode_text) so a page in another encoding reaches the
    reader as UTF-8 with the guess warned about, never silently decoded by a library's own guess."""
    from shelfwise.compiler.ingest.convert.textio import utf8_html

    transcoded, warnings = utf8_html(path.read_bytes())
    if transcoded is None:
        return _reader("html")(path, options)
    with tempfile.TemporaryDirectory(prefix="shelfwise-html-") as folder:
        copy = Path(folder) / path.name
        copy.write_bytes(transcoded)
        converted = _reader("html")(copy, options)
    return converted.model_copy(update={"warnings": [*warnings, *converted.warnings]})


def convert_file(path: Path, options: ReadOptions | None = None) -> Converted:
    """Read one file into its element stream; raises ConversionError with the reason."""
    fmt = detect_format(path)
    options = options or ReadOptions()
    limits.check_limits(path, fmt, options)
    if fmt == "html":
        converted = _read_html(path, options)
    else:
        converted = _reader(fmt)(path, options)
    if not any(element.text.strip() or element.rows for element in converted.elements):
        raise ConversionError("no text found (a blank or image-only document; scanned PDF pages are read by OCR when pdf.ocr is on, other formats are not)")
    return converted
