"""Word, Excel, PowerPoint and HTML through docling (offline: these formats need no model weights).

docling loses an Excel sheet's name (its page number is the sheet's index), so
sheet names are read from the workbook and each sheet becomes a heading. The
title is the file's core-properties title, else its first title-styled text,
else (never a sheet's name) the file name. Numbered list items keep their
number; a "Figure N:"/"Table N:" paragraph up to two paragraphs from a figure
or table without a caption becomes its caption.
"""

from __future__ import annotations

import io
import re
import zipfile
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from xml.etree import ElementTree

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.errors import ConversionError
from shelfwise.compiler.store.records import Converted, Element, table_text

_SHEET_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


@lru_cache(maxsize=1)
def _converter():
    from shelfwise.compiler.offline import prepare

    prepare()
    from docling.datamodel.backend_options import MsExcelBackendOptions
    from docling.datamodel.base_models import InputFormat
    from docling.document_converter import DocumentConverter, ExcelFormatOption

    # A sheet's blank spacer row or column (between a table's rows, or between its key columns and the rest) is
    # layout, not the end of a table: docling's default (gap_tolerance 0) cut the FedRAMP registry's sheets into one
    # table per row, each row its own "header". Two blank rows or columns still separate two tables. A lone cell with
    # blank neighbours is a note, read as a paragraph.
    excel = MsExcelBackendOptions(gap_tolerance=SHEET_GAP, treat_singleton_as_text=True)
    return DocumentConverter(format_options={InputFormat.XLSX: ExcelFormatOption(backend_options=excel)})


SHEET_GAP = 1
"""Blank rows or columns a sheet's table may hold inside it (docling's ``gap_tolerance``)."""


def _sheet_names(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    return [sheet.get("name", "") for sheet in root.iter(f"{_SHEET_NS}sheet")]


def _page(item) -> int | None:
    prov = getattr(item, "prov", None)
    return prov[0].page_no if prov else None


def _columns(item) -> tuple | None:
    """A sheet table's page and first and last column (docling's bbox of a sheet table counts cells)."""
    prov = getattr(item, "prov", None)
    return (prov[0].page_no, prov[0].bbox.l, prov[0].bbox.r) if prov else None


def _table(item, doc) -> Element:
    grid = item.data.grid
    rows = [[" ".join((cell.text or "").split()) for cell in row] for row in grid]
    # Merged cells repeat their text across the span; keep the grid as docling gives it.
    header_rows = 0
    for row in grid:
        if row and all(cell.column_header for cell in row):
            header_rows += 1
        else:
            break
    if header_rows == 0 and len(rows) > 1:
        header_rows = 1  # the first row of a sheet or slide table is its header in practice
    caption = item.caption_text(doc) if hasattr(item, "caption_text") else ""
    text = table_text(rows)
    return Element(kind="table", text=text, rows=rows, header_rows=header_rows, page=_page(item), name=caption or None)


def _sheet_table(item, above: tuple | None) -> tuple[list[Element], tuple | None]:
    """A sheet's table as its reader sees it, and what a table continuing it needs (its header rows, kept columns and
    width). Text set out on a sheet (one text a row: an "About" sheet, each paragraph in a merged cell) is paragraphs;
    title lines above the header are paragraphs before the table. A cell merged across columns shows its text once, in
    its first column, except in the header, where each column keeps the group it stands under; a column blank in every
    row (a spacer) is left out. ``above``: the state of the table above on the same sheet over the same columns, which
    this one continues past two blank rows or more (its rows under that table's header, repeated on top as a continued
    table's header is)."""
    grid = item.data.grid
    page = _page(item)
    rows = [[_cell_text(cell) for cell in row] for row in grid]
    if not rows:
        return [], None
    if all(len(_distinct(row)) <= 1 for row in rows):
        return [Element(kind="paragraph", text=_distinct(row)[0], page=page) for row in rows if _distinct(row)], None

    def once(row) -> list[str]:
        return [_cell_text(cell) if cell.start_col_offset_idx == j else "" for j, cell in enumerate(row)]

    if above is not None and above[2] == len(rows[0]):
        head, kept, width = above
        body = [[row[j] for j in kept] for row in map(once, grid)]
        rows = [list(row) for row in head] + body
        return [Element(kind="table", text=table_text(rows), rows=rows, header_rows=len(head), page=page)], above
    width = len(rows[0])
    titles, grid, rows = _sheet_titles(grid, rows)
    header_rows = _sheet_header_rows(grid, rows)
    rows = rows[:header_rows] + [once(row) for row in grid[header_rows:]]
    kept = [j for j in range(width) if any(row[j] for row in rows)]
    rows = [[row[j] for j in kept] for row in rows]
    out = [Element(kind="paragraph", text=title, page=page) for title in titles]
    table = Element(kind="table", text=table_text(rows), rows=rows, header_rows=header_rows, page=page)
    return out + [table], (rows[:header_rows], kept, width)


_MIDNIGHT = re.compile(r"^(\d{4}-\d{2}-\d{2}) 00:00:00$")
"""A date cell as docling writes it (the cell's datetime, at midnight): the date is what the sheet shows."""


def _cell_text(cell) -> str:
    return _MIDNIGHT.sub(r"\1", " ".join((cell.text or "").split()))


def _distinct(row: list[str]) -> list[str]:
    return list(dict.fromkeys(cell for cell in row if cell))


def _sheet_titles(grid, rows: list[list[str]]):
    """A sheet table's leading blank rows dropped, and up to two leading title rows (one text over a table three columns
    wide or more: a banner such as "DRAFT", a title merged over the columns) taken out as title lines, as long as a
    header and a row stay under them. A row of two texts or more is a header ("Region | Sales" over "Q1 | Q2"). (Every
    leading one-text row taken out as text, notes above a table included, was measured and left out: the FedRAMP
    registry's notes and links, as sentences, took an answer's room from its rows: dev-formats office-03 0.8 -> 0.4.)"""
    titles: list[str] = []
    while rows and len(rows) > 2:
        texts = _distinct(rows[0])
        if texts and (len(rows[0]) < 3 or len(texts) > 1):
            break
        if texts:
            titles.append(texts[0])
        grid, rows = grid[1:], rows[1:]
        if len(titles) == 2:
            break
    return titles, grid, rows


def _sheet_header_rows(grid, rows: list[list[str]]) -> int:
    """A sheet table's header: its first row, and the row under it while the row above holds a merged cell that starts
    there and spans columns ("Cardinality" over "Baseline | SSP | SAP") or reaches down into it, up to three rows, a
    body row left."""
    header = 1
    while header < 3 and header < len(rows) - 1:
        above = grid[header - 1]
        at = min((cell.start_row_offset_idx + (cell.row_span or 1) - 1 for cell in above), default=0)  # the row's own index
        spans = any(((cell.col_span or 1) > 1 and cell.start_row_offset_idx == at) or cell.end_row_offset_idx > at + 1 for cell in above)
        if not spans:
            break
        header += 1
    return header


def _picture(item, doc) -> Element:
    caption = item.caption_text(doc) if hasattr(item, "caption_text") else ""
    image = None
    try:
        pil = item.get_image(doc)
    except Exception:  # docling raises assorted errors for images it cannot decode; the caption is kept
        pil = None
    if pil is not None:
        buffer = io.BytesIO()
        pil.save(buffer, format="PNG")
        image = buffer.getvalue()
    return Element(kind="figure", text=" ".join(caption.split()), page=_page(item), image=image)


_CAPTION = re.compile(r"^(figure|fig\.|table|chart|diagram|exhibit)\s*\d+[.:]", re.IGNORECASE)
_REACH = 3  # a caption may be this many paragraphs away (two others between) before or after its figure or table


def _caption_index(elements: list[Element], index: int, taken: set[int]) -> int | None:
    """The nearest "Figure N:"/"Table N:" paragraph within _REACH paragraphs after, else before, element ``index`` (same page)."""
    wanted = ("table",) if elements[index].kind == "table" else ("figure", "fig.", "chart", "diagram", "exhibit")
    for step in (1, -1):
        seen = 0
        probe = index + step
        while 0 <= probe < len(elements) and seen < _REACH:
            element = elements[probe]
            if element.kind != "paragraph" or (element.page is not None and elements[index].page is not None and element.page != elements[index].page):
                break  # a heading, list, table or figure in between, or another slide or page: the caption belongs elsewhere
            match = _CAPTION.match(element.text)
            if probe not in taken and match and match.group(1).lower() in wanted:
                return probe
            seen += 1
            probe += step
    return None


def _attach_captions(elements: list[Element]) -> list[Element]:
    """A figure or table docling left without a caption takes the adjacent "Figure N: ..." ("Table N: ...") paragraph."""
    taken: set[int] = set()
    updates: dict[int, Element] = {}
    for index, element in enumerate(elements):
        if element.kind == "figure" and not element.text or element.kind == "table" and not element.name:
            found = _caption_index(elements, index, taken)
            if found is None:
                continue
            taken.add(found)
            caption = " ".join(elements[found].text.split())
            field = "text" if element.kind == "figure" else "name"
            updates[index] = element.model_copy(update={field: caption})
    return [updates.get(index, element) for index, element in enumerate(elements) if index not in taken]


_CORE = {"dc": "http://purl.org/dc/elements/1.1/"}
_JUNK_TITLES = re.compile(r"^(untitled|document\d*|presentation\d*|powerpoint presentation|slide \d+|book\d*|sheet\d*|microsoft (word|excel|powerpoint)\b.*)$", re.IGNORECASE)


def _core_title(path: Path) -> str:
    """The title in an Office file's core properties (docProps/core.xml), when it is a real one."""
    try:
        with zipfile.ZipFile(path) as archive:
            root = ElementTree.fromstring(archive.read("docProps/core.xml"))
    except (KeyError, zipfile.BadZipFile, ElementTree.ParseError, OSError):
        return ""
    node = root.find("dc:title", _CORE)
    title = " ".join((node.text or "").split()) if node is not None else ""
    return "" if _JUNK_TITLES.match(title) or title.lower().endswith((".docx", ".doc", ".pptx", ".xlsx")) else title


def _list_text(item, counters: dict) -> str:
    """A list item's text with its number when the list is numbered (docling's marker, else its place in the list)."""
    text = item.text.strip()
    if not getattr(item, "enumerated", False):
        return text
    parent = getattr(getattr(item, "parent", None), "cref", None)
    counters[parent] = counters.get(parent, 0) + 1
    marker = (getattr(item, "marker", "") or "").strip() or f"{counters[parent]}."
    return text if text.startswith(marker) else f"{marker} {text}"


_NO_SPACE_BEFORE = re.compile(r"\s+([.,;:!?)\]}%])")
_NO_SPACE_AFTER = re.compile(r"([(\[{])\s+")


class _InlineRuns:
    """docling gives a Word paragraph holding a hyperlink or mixed formatting as an inline group of runs ("A4-Insecure
    Direct Object References", "and", "A7-…", "merged into", …): the runs of one group are joined back into one
    paragraph (or list item, when the group is a list item's text), so a sentence is read, searched and quoted whole."""

    def __init__(self, doc, counters: dict):
        self.doc = doc
        self.counters = counters
        self.key: str | None = None
        self.parts: list[str] = []
        self.page: int | None = None
        self.owner = None

    def take(self, item, page: int | None) -> list[Element] | None:
        """None when ``item`` is no inline run; else the elements finished by it (the previous group's paragraph)."""
        from docling_core.types.doc import GroupLabel, ListItem

        parent = getattr(item, "parent", None)
        group = parent.resolve(self.doc) if parent is not None else None
        if group is None or getattr(group, "label", None) != GroupLabel.INLINE:
            return None
        done: list[Element] = []
        if parent.cref != self.key:
            done = self.flush()
            self.key, self.page = parent.cref, page
            owner = group.parent.resolve(self.doc) if getattr(group, "parent", None) is not None else None
            self.owner = owner if isinstance(owner, ListItem) else None
        text = " ".join(item.text.split())
        if text:
            self.parts.append(text)
        return done

    def flush(self) -> list[Element]:
        """The paragraph (or list item) of the group being joined, if any."""
        if self.key is None:
            return []
        text = _NO_SPACE_AFTER.sub(r"\1", _NO_SPACE_BEFORE.sub(r"\1", " ".join(self.parts))).strip()
        out: list[Element] = []
        if text and self.owner is not None:
            out.append(Element(kind="list_item", text=_list_text(self.owner.model_copy(update={"text": text}), self.counters), page=self.page))
        elif text:
            out.append(Element(kind="paragraph", text=text, page=self.page))
        self.key, self.parts, self.owner = None, [], None
        return out


BOLD_HEADING_WORDS = 12
"""An HTML paragraph of at most this many words, all of it bold, is a heading: "Section 2 – Scope." set as
<p><strong> in Creative Commons' legal code, as pages written without <h1>-<h6> mark their sections. A bold sentence
(a warning) runs longer; a label ending in a colon ("Note:") or a bold lead-in run of a paragraph is none. In a Word
file docling gives each bold table cell as such a paragraph too, so only HTML is read so. Twelve: of the 3,712
headings compiled from the nine shelves of ../shared/corpora, 95% hold 11 words or fewer."""


def bold_heading(item, text: str) -> bool:
    """Whether a paragraph docling gives as one text item is a heading set in bold (see ``BOLD_HEADING_WORDS``)."""
    formatting = getattr(item, "formatting", None)
    words = text.split()
    return bool(formatting is not None and formatting.bold and 0 < len(words) <= BOLD_HEADING_WORDS
                and not text.rstrip().endswith(":") and re.search(r"[A-Za-z]", text))


def _document(path: Path):
    """docling's document of ``path``; ConversionError with docling's reasons when it could not read it."""
    from docling.datamodel.base_models import ConversionStatus

    try:
        result = _converter().convert(str(path), raises_on_error=False)
    except Exception as exc:  # docling wraps parser failures in several exception types
        raise ConversionError(f"docling could not read it: {type(exc).__name__}: {exc}") from exc
    if result.status not in (ConversionStatus.SUCCESS, ConversionStatus.PARTIAL_SUCCESS):
        reasons = "; ".join(str(e.error_message) for e in result.errors) or str(result.status)
        raise ConversionError(f"docling could not read it: {reasons}")
    return result.document


def read(path: Path, options: ReadOptions) -> Converted:
    from shelfwise.compiler.offline import prepare

    prepare()
    from docling_core.types.doc import (
        ListItem,
        PictureItem,
        SectionHeaderItem,
        TableItem,
        TextItem,
        TitleItem,
    )

    doc = _document(path)
    fmt = path.suffix.lower()
    sheets = _sheet_names(path) if fmt == ".xlsx" else []
    captions = set()
    for item, _ in doc.iterate_items():
        for ref in getattr(item, "captions", []) or []:
            captions.add(ref.cref)
    elements: list[Element] = []
    counters: dict = {}
    inline = _InlineRuns(doc, counters)
    title = _core_title(path) if fmt in (".docx", ".pptx", ".xlsx") else ""
    properties_title = bool(title)
    current_sheet = None
    last_table: tuple | None = None  # a sheet's last table: (page, first column, last column), what continues it
    bold: set[int] = set()  # elements that are headings by being a short paragraph set in bold alone
    for item, _depth in doc.iterate_items():
        page = _page(item)
        done = inline.take(item, page) if isinstance(item, TextItem) else None
        if done is not None:  # one run of a paragraph docling split at a hyperlink or a change of formatting
            elements.extend(done)
            continue
        elements.extend(inline.flush())
        if sheets and page is not None and page != current_sheet:
            current_sheet = page
            name = sheets[page - 1] if 0 < page <= len(sheets) else f"Sheet {page}"
            elements.append(Element(kind="heading", text=name, level=1, page=page))
        if getattr(item, "self_ref", None) in captions:
            continue
        if isinstance(item, TableItem) and sheets:
            columns = _columns(item)
            above = last_table[1] if columns and last_table and last_table[0] == columns else None
            parts, state = _sheet_table(item, above)
            for element in parts:
                if element.kind == "table" and current_sheet:
                    element.name = sheets[current_sheet - 1] if current_sheet <= len(sheets) else None
            if state is not None and columns:
                last_table = (columns, state)
            elements.extend(parts)
        elif isinstance(item, TableItem):
            elements.append(_table(item, doc))
        elif isinstance(item, PictureItem):
            elements.append(_picture(item, doc))
        elif isinstance(item, TitleItem):
            text = " ".join(item.text.split())
            if not text:
                continue
            if not title and fmt != ".pptx":
                title = text
                continue
            if properties_title and text == title and fmt != ".pptx":
                continue  # the title page repeats the document's title
            elements.append(Element(kind="heading", text=text, level=1, page=page))
        elif isinstance(item, SectionHeaderItem):
            text = " ".join(item.text.split())
            if text:
                level = item.level + (1 if fmt == ".pptx" else 0)
                elements.append(Element(kind="heading", text=text, level=level, page=page))
        elif isinstance(item, ListItem):
            if item.text.strip():
                elements.append(Element(kind="list_item", text=_list_text(item, counters), page=page))
        elif isinstance(item, TextItem):
            text = item.text.strip()
            if not text:
                continue
            if fmt in (".html", ".htm") and bold_heading(item, text):  # a Word file's bold lines are mostly its tables' cells
                above = next((elements[i].level or 1 for i in range(len(elements) - 1, -1, -1)
                              if elements[i].kind == "heading" and i not in bold), 0)
                bold.add(len(elements))
                elements.append(Element(kind="heading", text=" ".join(text.split()), level=above + 1, page=page))
                continue
            kind = "code" if str(item.label) in {"code", "DocItemLabel.CODE"} else "paragraph"
            elements.append(Element(kind=kind, text=text, page=page))
    elements.extend(inline.flush())
    elements = _attach_captions(elements)
    pages = len(sheets) if sheets else (len(doc.pages) if doc.pages else 0)
    if not title:
        first = None if sheets else next((e.text for e in elements if e.kind == "heading"), None)  # a sheet's name is no title
        title = first or path.stem.replace("_", " ").replace("-", " ")
    return Converted(
        title=title,
        elements=elements,
        pages=pages,
        reader="docling",
        reader_version=f"docling {version('docling')}",
    )
