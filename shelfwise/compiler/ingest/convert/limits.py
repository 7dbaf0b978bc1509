"""Per-document limits checked before a reader runs, so a bomb is named and refused instead of exhausting the build.

Zip-based formats (docx, xlsx, pptx): the sum of the members' uncompressed
sizes (from the zip directory, nothing is unpacked), then a streaming count of
the XML elements of the document parts and of each sheet's rows. Text formats:
the number of characters. Each limit comes from ``compile.*`` settings through
:class:`~shelfwise.compiler.ingest.convert.ReadOptions`; None means no limit.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from shelfwise.compiler.errors import ConversionError

__all__ = ["check_limits"]

_PARTS = {
    "docx": re.compile(r"^word/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$"),
    "xlsx": re.compile(r"^xl/(worksheets/sheet\d+|sharedStrings)\.xml$"),
    "pptx": re.compile(r"^ppt/(slides/slide\d+|notesSlides/notesSlide\d+)\.xml$"),
}
_SHEET = re.compile(r"^xl/worksheets/sheet(\d+)\.xml$")
_TEXT_FORMATS = {"html", "markdown", "text", "rst", "texinfo"}


def _check_zip(path: Path, fmt: str, options) -> None:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ConversionError(f"corrupt {fmt} file: {exc}") from exc
    with archive:
        infos = archive.infolist()
        if options.max_unzipped_mb is not None:
            total = sum(info.file_size for info in infos)
            if total > options.max_unzipped_mb * 1_000_000:
                raise ConversionError(
                    f"expands to more than {options.max_unzipped_mb:g} MB when unzipped ({total / 1e6:,.0f} MB in "
                    f"{len(infos)} parts; compile.max_unzipped_mb); it is not converted"
                )
        if options.max_xml_elements is None and (fmt != "xlsx" or options.max_sheet_rows is None):
            return
        elements = 0
        for info in infos:
            if not _PARTS[fmt].match(info.filename):
                continue
            sheet = _SHEET.match(info.filename)
            rows = 0
            with archive.open(info) as member:
                try:
                    for _, element in ElementTree.iterparse(member, events=("end",)):
                        elements += 1
                        if sheet and element.tag.endswith("}row"):
                            rows += 1
                            if options.max_sheet_rows is not None and rows > options.max_sheet_rows:
                                raise ConversionError(
                                    f"sheet {sheet.group(1)} has more than {options.max_sheet_rows:,} rows "
                                    "(compile.max_sheet_rows); it is not converted"
                                )
                        if options.max_xml_elements is not None and elements > options.max_xml_elements:
                            raise ConversionError(
                                f"holds more than {options.max_xml_elements:,} XML elements (compile.max_xml_elements); "
                                "it is not converted"
                            )
                        element.clear()
                except ElementTree.ParseError as exc:
                    raise ConversionError(f"corrupt {fmt} file: {info.filename} is not well-formed XML ({exc})") from exc


def _check_text(path: Path, options) -> None:
    limit = options.max_text_chars
    if limit is None or path.stat().st_size <= limit:
        return  # a character takes at least one byte
    chars = len(path.read_bytes().decode("utf-8", errors="replace"))
    if chars > limit:
        raise ConversionError(f"has {chars:,} characters, more than {limit:,} (compile.max_text_chars); it is not converted")


def check_limits(path: Path, fmt: str, options) -> None:
    """Raise ConversionError naming the limit ``path`` (of format ``fmt``) goes past."""
    if fmt in _PARTS:
        _check_zip(path, fmt, options)
    elif fmt in _TEXT_FORMATS:
        _check_text(path, options)
