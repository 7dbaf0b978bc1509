"""One PDF page's text layer as positioned items: lines with their style, tables, figures.

``read_page`` turns a page opened in pdfium into a :class:`PageData`: text lines
in reading order (two-column pages read column by column) with font size, bold
and monospace flags, plus table and figure elements placed where they sit.
Words and image boxes come from pdfium (``pdf_chars``), ruled tables from
pdfplumber's table finder fed with pdfium's paths (``pdf_tables``). Nothing here looks beyond the
page, so a window of pages can be read, stored and reloaded on its own;
``pdf_tree.assemble`` makes every decision that needs the whole document.
"""

from __future__ import annotations

import base64
import functools
import io
import re
from collections import Counter
from typing import Any, Literal

from pydantic import BaseModel, Field

from shelfwise.compiler.ingest.convert.pdf_chars import LINE_GAP, SPACE_GAP_RATIO, Char, image_boxes, image_coverage, page_chars, page_words
from shelfwise.compiler.ingest.convert.pdf_bidi import is_rtl, logical_order
from shelfwise.compiler.ingest.convert.pdf_boxes import boxed_columns, prose as _prose
from shelfwise.compiler.ingest.convert.pdf_bridge import bridge_tables
from shelfwise.compiler.ingest.convert.pdf_glossary import glossary_tables
from shelfwise.compiler.ingest.convert.pdf_grid import numeric_tables
from shelfwise.compiler.ingest.convert.pdf_tables import find_tables, text_tables

__all__ = ["PageItem", "PageData", "read_page", "monospace_family", "CAPTION"]

_BOLD = re.compile(r"bold|black|heavy|demi|semibold|cmbx|cmb\d|-medi\b|medi$|\.b$|-b$|,b$", re.IGNORECASE)
_MONO = re.compile(r"mono|courier|consol|typewriter|cmtt|sltt|inconsolata|menlo|code", re.IGNORECASE)
CAPTION = re.compile(r"^(figure|fig\.|table|tab\.|chart|exhibit)\s*(\d+|[A-Z](\.\d+)?)(\.\d+)?\s*[:.|—–-]", re.IGNORECASE)
_LEADING_CID = re.compile(r"^\(cid:\d+\)\s+")
_CID = re.compile(r"\(cid:\d+\)")
_FIGURE_CAPTION = re.compile(r"^(figure|fig\.|chart|exhibit)\s*\d", re.IGNORECASE)

MAX_CROP_PIXELS = 800  # longest side of a figure crop, in pixels
_MIN_TEXT_CHARS = 20  # a page with fewer characters in its text layer ...
_MIN_SCAN_COVERAGE = 0.3  # ... and an image over this share of its area is a scan (read by OCR when that is on)


class PageItem(BaseModel):
    """A text line, table or figure on one page, with its box in points from the page's top-left."""

    kind: Literal["line", "table", "figure"] = Field(description="What the item is.")
    page: int = Field(description="1-based page number.")
    x0: float
    x1: float
    top: float
    bottom: float
    column: int = Field(default=0, description="0: full width or single-column page; 1: left column; 2: right column.")
    text: str = Field(default="", description="Line text, or a figure's caption.")
    size: float = Field(default=0.0, description="Median font size of the line's characters.")
    bold: bool = Field(default=False, description="Nearly all letters are set in a bold font.")
    mono: bool = Field(default=False, description="Nearly all characters are set in a monospace font.")
    font: str = Field(default="", description="The font family most of the line's letters are set in (lower case, no subset prefix or style suffix).")
    rtl: bool = Field(default=False, description="A right-to-left line (Arabic, Hebrew): its text is in logical order, its edge is x1.")
    rows: list[list[str]] | None = Field(default=None, description="Table cells, row by row.")
    header_rows: int | None = Field(default=None, description="A numeric table's header rows (its column headers); None: the first row.")
    png: str | None = Field(default=None, description="Figure crop as base64 PNG (JSON-safe).")


class PageData(BaseModel):
    """Everything the reader keeps of one page."""

    page: int
    width: float
    height: float
    items: list[PageItem] = Field(default_factory=list, description="Items in reading order.")
    ocr: bool = Field(default=False, description="The page had no text layer and its lines were read by OCR.")
    no_text: bool = Field(default=False, description="The page had (almost) no text layer and was not read by OCR.")


def _cluster_lines(words: list[dict]) -> list[list[dict]]:
    """Group words into physical lines by vertical overlap (words sorted by top, then x)."""
    lines: list[list[dict]] = []
    for word in sorted(words, key=lambda w: (round(w["top"], 1), w["x0"])):
        height = word["bottom"] - word["top"]
        for line in reversed(lines[-3:]):
            ref = line[0]
            overlap = min(ref["bottom"], word["bottom"]) - max(ref["top"], word["top"])
            if overlap > 0.5 * min(height, ref["bottom"] - ref["top"]):
                line.append(word)
                break
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w["x0"]) for line in lines]


def _segments(line: list[dict], width: float) -> list[list[dict]]:
    """Split a physical line at a wide gap across the page's middle (the gutter of two columns)."""
    parts = [[line[0]]]
    mid, slack = width / 2, max(4.0, width * 0.008)
    for word in line[1:]:
        prev = parts[-1][-1]
        gap = word["x0"] - prev["x1"]
        if gap > max(0.8 * word["size"], 6.0) and prev["x1"] < mid + slack and word["x0"] > mid - slack:
            parts.append([word])
        else:
            parts[-1].append(word)
    return parts


def _box_item(lines: list[list[dict]], top: float, page_no: int) -> PageItem:
    """One box of ``boxed_columns`` (its lines' words) as one line item: its lines' texts joined (a line-end hyphen kept
    and joined to the next line's word, as in a narrow text: "one-" over "time"), at the top of its run, so that the
    run's boxes are read left to right."""
    texts = [_line_item(line, page_no).text for line in lines]
    text = texts[0]
    for more in texts[1:]:
        text += more if text.endswith("-") and more[:1].isalpha() else f" {more}"
    return _line_item([w for line in lines for w in line], page_no).model_copy(update={"text": text, "top": top})


def monospace_family(family: str) -> bool:
    """Whether a font family's name says it is monospace (Courier, a TeX typewriter face, a code font)."""
    return bool(_MONO.search(family))


@functools.lru_cache(maxsize=512)
def _font_family(fontname: str) -> str:
    """'ABCDEF+TimesNewRomanPS-BoldMT' -> 'timesnewromanps': the family a font's name starts with."""
    return re.split(r"[-,]", fontname.split("+")[-1])[0].lower()


@functools.lru_cache(maxsize=512)
def _font_style(fontname: str) -> tuple[bool, bool]:
    """(bold, monospace) from a font's name, its subset prefix (ABCDEF+) dropped."""
    name = fontname.split("+")[-1]
    return bool(_BOLD.search(name)), bool(_MONO.search(name))


_MARK = re.compile(r"\d{1,3}(?:,\d{1,3})*")
"""A footnote's number as a superscript sets it: digits, or several joined by commas ("27,28")."""
_MARK_SIZE = 0.8
"""A mark's type is at most this share of its line's (typesetting's superscript is about 0.6 of the size)."""


def _mark_beside(mark: dict, others: list[dict]) -> bool:
    """Whether ``mark`` reads as a footnote's number set in smaller type than ``others`` (their median size)."""
    sizes = sorted(w["size"] for w in others)
    return bool(_MARK.fullmatch(mark["text"])) and mark["size"] <= _MARK_SIZE * sizes[len(sizes) // 2]


def _footnote_mark(words: list[dict]) -> bool:
    """The line's last word is a footnote's number set as a superscript after the text ("4.4. Information Access
    Management (§ 164.308(a)(4))" and a raised "27"): digits (or "27,28") in type no more than 0.8 of the rest's,
    its foot above theirs. Not part of the line's text (read as "...(4))27" it looks like a contents entry's page)."""
    if len(words) < 2 or not _mark_beside(words[-1], words[:-1]):
        return False
    rest = sorted(w["size"] for w in words[:-1])
    size, foot = rest[len(rest) // 2], max(w["bottom"] for w in words[:-1])
    return words[-1]["bottom"] < foot - 0.15 * size


def _stray_mark(segment: list[dict], line: list[dict]) -> bool:
    """A footnote's number left alone in its column: a raised mark is clustered with whichever line of the page's other
    column its height overlaps ("3" after "pairs" in the right column joins a line of the left one) and the split at the
    gutter leaves it a line of its own. Digits (or "27,28") in type no more than 0.8 of the other words' of its physical
    line, the typesetter's superscript as ``_footnote_mark`` reads it."""
    return len(segment) == 1 and len(line) >= 2 and _mark_beside(segment[0], [w for w in line if w is not segment[0]])


def _line_item(words: list[dict], page_no: int) -> PageItem:
    if _footnote_mark(words):
        words = words[:-1]
    text = words[0]["text"]
    for prev, word in zip(words, words[1:]):
        gap = word["x0"] - prev["x1"]
        if gap > 0.1 * word["size"] or (word["space"] and gap > SPACE_GAP_RATIO * word["size"]):
            text += " "
        text += word["text"]
    text = _CID.sub("", _LEADING_CID.sub("• ", text)).strip()  # glyphs without unicode: a leading one is a bullet
    rtl = is_rtl(text)
    if rtl:
        text = logical_order(text)
    letters = [(len(w["text"]), _font_style(w["fontname"])) for w in words]
    total = sum(n for n, _ in letters) or 1
    bold = sum(n for n, style in letters if style[0]) / total >= 0.9
    mono = sum(n for n, style in letters if style[1]) / total >= 0.8
    sizes = sorted(w["size"] for w in words for _ in range(len(w["text"])))
    families = Counter()
    for word in words:
        families[_font_family(word["fontname"])] += len(word["text"])
    return PageItem(
        kind="line",
        page=page_no,
        x0=min(w["x0"] for w in words),
        x1=max(w["x1"] for w in words),
        top=min(w["top"] for w in words),
        bottom=max(w["bottom"] for w in words),
        text=text,
        size=round(sizes[len(sizes) // 2], 2),
        bold=bold,
        mono=mono,
        font=families.most_common(1)[0][0],
        rtl=rtl,
    )


def _column(x0: float, x1: float, mid: float, slack: float) -> int:
    if x1 <= mid + slack:
        return 1
    if x0 >= mid - slack:
        return 2
    return 0


def _reading_order(items: list[PageItem], width: float) -> list[PageItem]:
    """Order items top to bottom; on a two-column page, by bands split at full-width items."""
    mid = width / 2
    slack = width * 0.02
    chars = Counter()
    for item in items:
        item.column = _column(item.x0, item.x1, mid, slack)
        chars[item.column] += len(item.text) if item.kind == "line" else 0
    two_column = chars[2] > 0.25 * sum(chars.values()) and chars[1] > 0.25 * sum(chars.values())
    if not two_column:
        return _single_column_order(items, width)
    ordered: list[PageItem] = []
    band: list[PageItem] = []
    for item in sorted(items, key=lambda i: (i.top, i.x0)):
        if item.column == 0:
            ordered.extend(sorted(band, key=lambda i: (i.column, i.top, i.x0)))
            band = []
            ordered.append(item)
        else:
            band.append(item)
    ordered.extend(sorted(band, key=lambda i: (i.column, i.top, i.x0)))
    return ordered


COLUMN_LINE = 0.3
"""A line at least this share of the page's width fills a column of a two-column band (a column is about 0.4 of it)."""
COLUMN_LINES = 3
"""Lines of prose filling each column, side by side, that make a band of a one-column page read column by column."""
def _single_column_order(items: list[PageItem], width: float) -> list[PageItem]:
    """A page whose text is mostly full width, top to bottom; but a band of it between full-width items whose two halves
    each hold ``COLUMN_LINES`` lines of prose filling a column, side by side, is read column by column: a two-column
    page under a full-width figure of text (a prompt, a chart's labels), text set beside a table. A table read as lines
    (a label at the left, figures at the right) holds no prose at the right, and keeps its rows."""
    ordered: list[PageItem] = []
    band: list[PageItem] = []
    for item in sorted(items, key=lambda i: (i.top, i.x0)) + [None]:
        if item is None or item.column == 0:
            if _columned(band, width):
                ordered.extend(sorted(band, key=lambda i: (i.column, i.top, i.x0)))
            else:
                for one in band:
                    one.column = 0
                ordered.extend(band)
            band = []
            if item is not None:
                ordered.append(item)
        else:
            band.append(item)
    return ordered


def _columned(band: list[PageItem], width: float) -> bool:
    """Whether each half of ``band`` holds ``COLUMN_LINES`` lines filling a column, the halves side by side."""
    full = {column: [i for i in band if i.kind == "line" and i.column == column and i.x1 - i.x0 >= COLUMN_LINE * width
                     and _prose(i.text)] for column in (1, 2)}
    if any(len(lines) < COLUMN_LINES for lines in full.values()):
        return False
    return max(i.top for i in full[1]) > min(i.top for i in full[2]) and max(i.top for i in full[2]) > min(i.top for i in full[1])


def _inside(word: dict, box: tuple[float, float, float, float]) -> bool:
    cx = (word["x0"] + word["x1"]) / 2
    cy = (word["top"] + word["bottom"]) / 2
    return box[0] - 1 <= cx <= box[2] + 1 and box[1] - 1 <= cy <= box[3] + 1


def _tables(pdfium_page: Any, chars: list[Char], page_no: int) -> list[PageItem]:
    found = []
    for bbox, cells in find_tables(pdfium_page, chars):
        rows = [[_lines_kept(cell or "") for cell in row] for row in cells]  # the tree joins a cell's lines (pdf_tree)
        rows = [row for row in rows if any(row)]
        if len(rows) < 2 or max(len(row) for row in rows) < 2:
            continue
        x0, top, x1, bottom = bbox
        found.append(PageItem(kind="table", page=page_no, x0=x0, x1=x1, top=top, bottom=bottom, rows=rows))
    return found


def _lines_kept(text: str) -> str:
    """A cell's text with each line's whitespace collapsed and its line breaks kept: whether a line-end hyphen is a
    compound's ("acquisition-" over "related") or a broken word's is decided where the whole document is read."""
    return "\n".join(" ".join(line.split()) for line in text.split("\n") if line.strip())


def _crop_png(pdfium_page: Any, box: tuple[float, float, float, float], width: float, height: float) -> str:
    x0, top, x1, bottom = box
    scale = min(2.0, MAX_CROP_PIXELS / max(x1 - x0, bottom - top, 1.0))
    crop = (max(x0, 0), max(height - bottom, 0), max(width - x1, 0), max(top, 0))
    image = pdfium_page.render(scale=scale, crop=crop).to_pil()
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG", compress_level=6)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _caption_for(box: tuple[float, float, float, float], lines: list[PageItem], used: set[int]) -> int | None:
    """Index of the caption line nearest below (or else above) an image box, overlapping it horizontally."""
    best: tuple[float, int] | None = None
    for index, line in enumerate(lines):
        if index in used or not CAPTION.match(line.text) or line.x1 < box[0] or line.x0 > box[2]:
            continue
        below = line.top - box[3]
        above = box[1] - line.bottom
        distance = below if -5 <= below <= 60 else (above + 30 if -5 <= above <= 40 else None)
        if distance is not None and (best is None or distance < best[0]):
            best = (distance, index)
    return best[1] if best else None


def _caption_text(start: int, lines: list[PageItem], used: set[int]) -> str:
    """The caption line and the lines that continue its paragraph, marked used; one line each (the tree joins them)."""
    parts = [lines[start].text]
    used.add(start)
    prev = lines[start]
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if index in used or line.column != prev.column or line.top - prev.bottom > 0.6 * prev.size or abs(line.size - prev.size) > 0.6:
            break
        parts.append(line.text)
        used.add(index)
        prev = line
    return "\n".join(parts)


def _column_span(item: PageItem, width: float) -> tuple[float, float]:
    """The x-range of the column ``item`` stands in: the page's width, or its left or right half."""
    return (0.0, width) if item.column == 0 else ((0.0, width / 2) if item.column == 1 else (width / 2, width))


def _vector_figure_box(caption: PageItem, lines: list[PageItem], used: set[int], width: float) -> tuple[float, float, float, float] | None:
    """The region above a figure caption with no embedded image, up to the nearest full text line above."""
    col_x0, col_x1 = _column_span(caption, width)
    ceiling = 0.0
    for index, line in enumerate(lines):
        if index in used or line.bottom > caption.top or line.x1 < col_x0 or line.x0 > col_x1:
            continue
        if line.x1 - line.x0 > 0.6 * (col_x1 - col_x0) and len(line.text) > 40:
            ceiling = max(ceiling, line.bottom)
    if caption.top - ceiling < 40:
        return None
    margin_x0 = min((ln.x0 for ln in lines if ln.column == caption.column), default=col_x0)
    margin_x1 = max((ln.x1 for ln in lines if ln.column == caption.column), default=col_x1)
    return (margin_x0, ceiling + 2, margin_x1, caption.top - 2)


def _drawn_labels(caption: PageItem, lines: list[PageItem], used: set[int], width: float) -> set[int]:
    """The lines of a drawing about an embedded image, above the image's caption: in type smaller than the caption's,
    below the nearest line above the caption in its type or larger (the paragraph before the figure, a heading), within
    the caption's column. A chart's or a diagram's labels drawn as text about a small embedded picture (RAPTOR's Figure
    1: "Root layer", "Leaf layer", "Text chunks" in 5-point type about a 56-point icon) were read as paragraphs of the
    section."""
    col_x0, col_x1 = _column_span(caption, width)
    inside = [i for i, ln in enumerate(lines) if i not in used and ln.kind == "line" and ln.bottom <= caption.top + 1
              and ln.x1 >= col_x0 and ln.x0 <= col_x1]
    ceiling = max((lines[i].bottom for i in inside if lines[i].size >= caption.size - 0.5), default=0.0)
    return {i for i in inside if lines[i].size < caption.size - 0.5 and lines[i].top >= ceiling}


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _union(box: tuple[float, float, float, float], items: list[PageItem]) -> tuple[float, float, float, float]:
    return (min([box[0]] + [i.x0 for i in items]), min([box[1]] + [i.top for i in items]),
            max([box[2]] + [i.x1 for i in items]), max([box[3]] + [i.bottom for i in items]))


def read_page(pdfium_page: Any, page_no: int, ocr: bool = False) -> PageData:
    """The positioned items of one page (opened in pdfium), in reading order; ``ocr``: read a page without text by OCR."""
    chars, width, height = page_chars(pdfium_page)
    if sum(1 for ch in chars if not ch.text.isspace()) < _MIN_TEXT_CHARS and image_coverage(pdfium_page) >= _MIN_SCAN_COVERAGE:
        if not ocr:
            return PageData(page=page_no, width=width, height=height, items=_text_page(pdfium_page, chars, page_no, width, height).items, no_text=True)
        from shelfwise.compiler.ingest.convert.ocr import ocr_lines

        lines = _reading_order(ocr_lines(pdfium_page, page_no, width, height), width)
        return PageData(page=page_no, width=width, height=height, items=lines, ocr=True)
    return _text_page(pdfium_page, chars, page_no, width, height)


def _page_tables(pdfium_page: Any, chars: list[Char], page_no: int) -> tuple[list[PageItem], list[list[dict]]]:
    """The page's tables (ruled, borderless, and numeric ones rebuilt with their headers) and its other physical lines."""
    ruled = _tables(pdfium_page, chars, page_no)
    all_words = [w for w in page_words(chars) if w["text"].strip()]
    ruled_boxes = [(t.x0, t.top, t.x1, t.bottom) for t in ruled]
    physical = _cluster_lines([w for w in all_words if not any(_inside(w, b) for b in ruled_boxes)])
    aligned, taken = text_tables(physical, lambda word: _font_style(word["fontname"])[1])
    tables = ruled + [PageItem(kind="table", page=page_no, x0=x0, x1=x1, top=top, bottom=bottom, rows=rows) for (x0, top, x1, bottom), rows in aligned]
    clustered = _cluster_lines(all_words)
    seeds = [(t.x0, t.top, t.x1, t.bottom) for t in tables]
    numeric, replaced, numeric_taken = numeric_tables(clustered, seeds)
    # a bridge chart runs through the text tables the aligned-column finder cut out of it ("$ | 10,746 | Q3 2021 Gross
    # Margin"): those whose every word a bridge takes are the bridge's
    bridges, bridge_taken = bridge_tables(clustered, ruled_boxes + [box for box, _, _ in numeric], numeric_taken)
    for index in range(len(ruled), len(tables)):
        inside = [id(w) for w in all_words if _inside(w, seeds[index])]
        if inside and all(i in bridge_taken for i in inside):
            replaced.add(index)
    bridges = [b for b in bridges if not any(index not in replaced and index >= len(ruled) and _overlaps(b[0], seeds[index]) for index in range(len(tables)))]
    bridge_taken = {id(w) for w in all_words for b in bridges if _inside(w, b[0])} & bridge_taken
    numeric, numeric_taken = numeric + bridges, numeric_taken | bridge_taken
    kept_seeds = [seed for index, seed in enumerate(seeds) if index not in replaced]
    glossaries, glossary_taken = glossary_tables(clustered, kept_seeds + [box for box, _, _ in numeric], taken | numeric_taken,
                                                 lambda fontname: _font_style(fontname)[1])
    numeric, numeric_taken = numeric + glossaries, numeric_taken | glossary_taken
    if numeric:
        kept_boxes = [box for index, box in enumerate(ruled_boxes) if index not in replaced]
        tables = [t for index, t in enumerate(tables) if index not in replaced]
        tables += [PageItem(kind="table", page=page_no, x0=x0, x1=x1, top=top, bottom=bottom, rows=rows, header_rows=header_rows)
                   for (x0, top, x1, bottom), rows, header_rows in numeric]
        taken |= numeric_taken
        physical = _cluster_lines([w for w in all_words if id(w) not in taken and not any(_inside(w, b) for b in kept_boxes)])
    elif taken:
        physical = [kept for line in physical if (kept := [w for w in line if id(w) not in taken])]
    return tables, physical


def _runs_on(prev: PageItem, line: PageItem) -> bool:
    """Whether ``line`` goes on with the sentence of ``prev``, the line just above it in its column and type: ``prev``
    does not end a sentence and the gap between them is a line's, not a paragraph's."""
    return (prev.kind == "line" and prev.column == line.column and abs(prev.size - line.size) <= 0.5
            and 0 <= line.top - prev.bottom < LINE_GAP * line.size and not prev.text.rstrip().endswith((".", ":", ";", "!", "?")))


def _text_page(pdfium_page: Any, chars: list[Char], page_no: int, width: float, height: float) -> PageData:
    tables, physical = _page_tables(pdfium_page, chars, page_no)
    boxes, physical = boxed_columns(physical)
    lines = [_line_item(seg, page_no) for line in physical for seg in _segments(line, width) if not _stray_mark(seg, line)]
    lines += [_box_item(box, min(w["top"] for each in run for line in each for w in line), page_no) for run in boxes for box in run]
    lines = _reading_order(lines, width)
    used: set[int] = set()
    figures: list[PageItem] = []
    for box in image_boxes(pdfium_page, width, height):
        caption_index = _caption_for(box, lines, used)
        inner = {i for i, ln in enumerate(lines) if _inside({"x0": ln.x0, "x1": ln.x1, "top": ln.top, "bottom": ln.bottom}, box)}
        if caption_index is not None and lines[caption_index].top >= box[3] - 5:
            labels = _drawn_labels(lines[caption_index], lines, used | inner, width)
            inner |= labels
            box = _union(box, [lines[i] for i in labels])
        caption = _caption_text(caption_index, lines, used) if caption_index is not None else ""
        used |= inner
        png = _crop_png(pdfium_page, box, width, height)
        figures.append(PageItem(kind="figure", page=page_no, x0=box[0], top=box[1], x1=box[2], bottom=box[3], text=caption, png=png))
    for index, line in enumerate(lines):
        if index in used or not _FIGURE_CAPTION.match(line.text) or not CAPTION.match(line.text):
            continue
        if index > 0 and index - 1 not in used and _runs_on(lines[index - 1], line):
            continue  # "... as shown in" | "Figure 8. After filtering, ...": a sentence names the figure, no caption
        box = _vector_figure_box(line, lines, used, width)
        top = line.top
        caption = _caption_text(index, lines, used)
        png = None
        if box is not None:
            used |= {i for i, ln in enumerate(lines) if i not in used and ln.top >= box[1] and ln.bottom <= box[3] + 2 and ln.x0 >= box[0] - 1 and ln.x1 <= box[2] + 1}
            png = _crop_png(pdfium_page, box, width, height)
            top = box[1]
        figures.append(PageItem(kind="figure", page=page_no, x0=line.x0, top=top, x1=line.x1, bottom=line.bottom, text=caption, png=png))
    kept = [line for index, line in enumerate(lines) if index not in used]
    items = _reading_order(kept + tables + figures, width)
    return PageData(page=page_no, width=width, height=height, items=items)
