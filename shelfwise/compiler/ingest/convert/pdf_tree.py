"""The whole document's decisions over its pages' items: one element stream.

``assemble`` runs once over every page of a PDF (however many windows they
were read in): it drops running headers and footers, finds the body font size,
picks headings by size, weight and numbering (or from the PDF's outline when
asked), ranks their levels, and joins lines into paragraphs, list items and
code blocks across line, column and page breaks, de-hyphenating words split
at a line end when the document itself spells them whole.
"""

from __future__ import annotations

import base64
import re
from collections import Counter, defaultdict
from collections.abc import Callable

from shelfwise.compiler.ingest.convert.pdf_chars import LINE_GAP
from shelfwise.compiler.ingest.convert.pdf_continued import carry_headers
from shelfwise.compiler.ingest.convert.pdf_headings import heading_levels, heading_lines, numbering
from shelfwise.compiler.ingest.convert.pdf_layout import CAPTION, PageData, PageItem
from shelfwise.compiler.ingest.convert.pdf_lines import join_line as _join, joined as _joined, document_vocabulary as _vocabulary, mend_ligatures
from shelfwise.compiler.ingest.convert.pdf_tiles import tile_texts
from shelfwise.compiler.prose import normalise
from shelfwise.compiler.store.records import Element
from shelfwise.compiler.ingest.sections import numbering_depth

__all__ = ["Bookmark", "assemble", "normalize_heading", "reading_lines"]

Bookmark = tuple[int, str, int | None]  # (level, 1 = top; title; 1-based page or None)

_PAGE_NUMBER = re.compile(r"^\W*(page\s*)?([0-9]+|[ivxlcdm]+)(\s*(of|/)\s*[0-9]+)?\W*$", re.IGNORECASE)
_BULLET = re.compile(r"^([•◦▪▫●○■□‣⁃∙·*–—-]|\(?[0-9]{1,2}[.)]|\(?[a-z][.)]|\([ivx]+\))\s+\S")
_SENTENCE_END = (".", "!", "?", ":", ";", "。", "！", "？", "：", "؛", "؟")
_NUMBER_PREFIX = re.compile(r"^(?:(?:appendix|annex|chapter|part|section)\s+)?(?:\d+|[A-Z]|[IVXL]+)(?:\.\d+)*\.?\s+", re.IGNORECASE)


def normalize_heading(text: str) -> str:
    """Heading text for matching: ``shelfwise.compiler.prose.normalise``, then the numbering prefix dropped and a
    search-key folding (lower case, letters and digits only)."""
    text = _NUMBER_PREFIX.sub("", normalise(text), count=1) if numbering_depth(text) else normalise(text)
    return normalise(re.sub(r"[^0-9a-z]+", " ", text.lower()))


def _digitless(text: str) -> str:
    """A line's text for telling running lines apart: folded, every run of digits one "#" (the page number aside)."""
    return re.sub(r"\d+", "#", normalise(text.lower()))


def _running_lines(pages: list[PageData]) -> set[int]:
    """ids of header/footer lines: in the top or bottom margin band and repeated across pages."""
    by_text: dict[tuple[str, str], set[int]] = defaultdict(set)
    by_digitless: dict[tuple[str, str], set[int]] = defaultdict(set)
    by_offset: dict[tuple[str, str, int], set[int]] = defaultdict(set)
    by_place: dict[tuple[str, str, int], set[int]] = defaultdict(set)
    candidates: list[tuple[PageItem, tuple[str, str], tuple[str, str], list[tuple[str, str, int]], tuple[str, str, int]]] = []
    for page in pages:
        for item in page.items:
            if item.kind != "line":
                continue
            zone = "top" if item.bottom < page.height * 0.12 else ("bottom" if item.top > page.height * 0.88 else "")
            if not zone:
                continue
            key = (zone, _digitless(item.text))
            # a numbered line at one place on many pages, in one text (its digits aside): "- 7 -", "Page 7 of 40"; not
            # any line that stands where a page's first line of text stands ("Article 3" atop a page of articles)
            place = (zone, key[1], round((item.top if zone == "top" else item.bottom) / 3))
            exact = (zone, normalise(item.text.lower()))
            # a page number: its page plus one offset on every page
            offsets = [(*key, int(number) - page.page) for number in re.findall(r"\d+", item.text)]
            by_text[exact].add(page.page)
            by_digitless[key].add(page.page)
            for offset in offsets:
                by_offset[offset].add(page.page)
            by_place[place].add(page.page)
            candidates.append((item, exact, key, offsets, place))
    n = len(pages)
    text_min = 2 if n <= 4 else 3
    body = _body_size([item for page in pages for item in page.items if item.kind == "line"])
    drop = set()
    for item, exact, key, offsets, place in candidates:
        numbered = bool(re.search(r"(^\d+\s)|(\s\d+$)|^\d+$", item.text.strip())) or bool(_PAGE_NUMBER.match(item.text))
        small = item.size <= body + 0.5  # a running title set no larger than the body: furniture even on two pages
        # one text on several pages, or one text whose number follows the page on most pages it stands on ("Page 7",
        # "Form 10-Q | 7"), or at one place on many pages; not one whose numbers merely differ ("Article 3", "Article
        # 7", each atop its page, at the height where every page's text starts: pages opening with consecutive
        # articles share an offset too, on a few of the pages the text stands on)
        followed = max((len(by_offset[offset]) for offset in offsets if 2 * len(by_offset[offset]) >= len(by_digitless[key])), default=0)
        repeated = len(by_text[exact]) >= (2 if small else text_min)
        # a line of figures alone ("3-12", "A-7": a page numbered within its chapter) repeats in its digitless form
        figures_alone = len(re.findall(r"[^\W\d_]", item.text)) <= 1 and len(by_digitless[key]) >= (2 if small else text_min)
        if repeated or figures_alone or followed >= max(2 if small else text_min, min(3, n)) or (numbered and n >= 3 and min(len(by_place[place]), followed) >= max(2, n * 0.4)):
            drop.add(id(item))
        elif _PAGE_NUMBER.match(item.text) and len(item.text) < 12:
            drop.add(id(item))
    drop |= _page_numbered_lines(pages)
    return drop | _footer_companions(pages, drop)


FOLLOWED_PAGES = 3
"""Pages a line's number must follow the page's number on (one offset) for the line to be a page number wherever it
stands (``_page_numbered_lines``, ``_numbers_alone``): two pages may agree by chance, three in step are a count."""
_EDGE_NUMBER = re.compile(r"(?:^(\d{1,4})\s*[|·•–—-]?\s+\S)|(?:\S\s*[|·•–—-]?\s+(\d{1,4})$)")


def _page_numbered_lines(pages: list[PageData]) -> set[int]:
    """ids of running lines wherever they stand on the page: one text (its digits aside) on three pages or more, its
    leading or trailing number the page's number plus one offset on each ("Apple Inc. | Q3 2022 Form 10-Q | 7" set
    right under a page's last paragraph in a PDF printed from HTML, where no margin band holds it)."""
    seen: dict[str, list[tuple[int, int, PageItem]]] = defaultdict(list)
    for page in pages:
        for item in page.items:
            text = item.text.strip()
            match = _EDGE_NUMBER.search(text) if item.kind == "line" and len(text) <= 120 else None
            if match:
                number = int(match.group(1) or match.group(2))
                seen[_digitless(text)].append((page.page, number, item))
    drop = set()
    for occurrences in seen.values():
        pages_of = {page for page, _, _ in occurrences}
        offsets = {number - page for page, number, _ in occurrences}
        if len(pages_of) >= FOLLOWED_PAGES and len(pages_of) == len(occurrences) and len(offsets) == 1:
            drop.update(id(item) for _, _, item in occurrences)
    return drop | _numbers_alone(pages)


def _footer_companions(pages: list[PageData], drop: set[int]) -> set[int]:
    """ids of lines set on the row of a running line holding a page number (one of ``drop``), the same text on
    ``FOLLOWED_PAGES`` pages or more: the rest of a footer a PDF printed from HTML sets under each page's last paragraph,
    at every height ("MD&A" left of "38" in Intel's 10-Q, read as a heading on each page of its part, which cut the
    part's sections at every page and glued "MD&A" to a paragraph's first words)."""
    seen: dict[str, list[PageItem]] = defaultdict(list)
    for page in pages:
        lines = [item for item in page.items if item.kind == "line"]
        numbers = [item for item in lines if id(item) in drop and re.search(r"\d", item.text)]
        for item in lines:
            if id(item) not in drop and any(abs(item.top - number.top) < number.size / 2 for number in numbers):
                seen[normalise(item.text.lower())].append(item)
    return {id(item) for items in seen.values() if len({item.page for item in items}) >= FOLLOWED_PAGES for item in items}


def _numbers_alone(pages: list[PageData]) -> set[int]:
    """ids of lines holding only a number that is the page's number plus the offset most of them share, on
    ``FOLLOWED_PAGES`` pages or more: a page number a PDF printed from HTML sets under each page's last paragraph, at every height (Amazon's
    10-Q: "39" at 78% of page 39's height, under the margin band), which read as the first word of the next page's
    first paragraph ("39 As our agreements terminate, ..."). Other lines of figures alone (a chart's axis labels,
    a year) keep their place: their numbers follow no page."""
    alone = [(page.page, int(item.text.strip()), item) for page in pages for item in page.items
             if item.kind == "line" and re.fullmatch(r"\d{1,4}", item.text.strip())]
    pages_by_offset: dict[int, set[int]] = defaultdict(set)
    for page, number, _ in alone:
        pages_by_offset[number - page].add(page)
    offset, held = max(pages_by_offset.items(), key=lambda entry: (len(entry[1]), -abs(entry[0])), default=(0, set()))
    if len(held) < FOLLOWED_PAGES:
        return set()
    return {id(item) for page, number, item in alone if number - page == offset}


def _style(item: PageItem) -> tuple[float, bool]:
    return (round(item.size * 2) / 2, item.bold)


def _body_size(lines: list[PageItem]) -> float:
    weights: Counter = Counter()
    for line in lines:
        if not line.mono:
            weights[round(line.size * 2) / 2] += len(line.text)
    return weights.most_common(1)[0][0] if weights else 10.0


def reading_lines(pages: list[PageData], drop: set[int] | None = None) -> tuple[list[PageItem], float]:
    """The text lines of all pages in reading order, running headers and footers (``drop``: their ids) left out,
    and the body text's font size."""
    drop = _running_lines(pages) if drop is None else drop
    lines = [item for page in pages for item in page.items if item.kind == "line" and id(item) not in drop]
    return lines, _body_size(lines)


def _merge_heading_lines(lines: list[PageItem], heads: set[int], absorbed: set[int]) -> dict[int, str]:
    """Heading text per first line id; a heading wrapped over lines of one style becomes one heading."""
    merged: dict[int, str] = {}
    previous: PageItem | None = None
    for line in lines:
        if id(line) not in heads:
            previous = None
            continue
        if (
            previous is not None
            and _style(previous) == _style(line)
            and previous.page == line.page
            and 0 <= line.top - previous.bottom < LINE_GAP * line.size
            and numbering(line.text) is None
        ):
            first = next(reversed(merged))
            merged[first] += " " + line.text
            absorbed.add(id(line))
        else:
            merged[id(line)] = line.text
        previous = line
    return merged


def _apply_outline(
    lines: list[PageItem], outline: list[Bookmark], heads: set[int], texts: dict[int, str], levels: dict[int, int], absorbed: set[int]
) -> None:
    """Make each bookmark's line a heading at the bookmark's level (lines on or after its page)."""
    start = 0
    for level, title, page in outline:
        wanted = normalize_heading(title)
        if not wanted:
            continue
        for index in range(start, len(lines)):
            line = lines[index]
            if page is not None and line.page < page:
                continue
            if page is not None and line.page > page + 1:
                break
            text = texts.get(id(line), line.text)
            got = normalize_heading(text)
            if got.replace(" ", "") == wanted.replace(" ", ""):  # a kerned or letter-spaced title: "REAC T" for "ReAct"
                got = wanted
            if got == wanted or (got and wanted.startswith(got) and len(got) > 0.5 * len(wanted)):
                heads.add(id(line))
                texts[id(line)] = text if got == wanted else _extend(lines, index, wanted, absorbed)
                levels[id(line)] = level
                start = index + 1
                break


def _extend(lines: list[PageItem], index: int, wanted: str, absorbed: set[int]) -> str:
    text = lines[index].text
    for line in lines[index + 1 : index + 4]:
        if normalize_heading(text) == wanted:
            break
        text += " " + line.text
        absorbed.add(id(line))
    return text


def _close(block: Element | None, pieces: list[str]) -> None:
    if block is not None:
        block.text = "".join(pieces)


def _start(line: PageItem) -> float:
    """Where a line starts, as a coordinate that grows in reading direction (a right-to-left line starts at its right edge)."""
    return -line.x1 if line.rtl else line.x0


def _left_edges(lines: list[PageItem]) -> dict[tuple[int, int, bool], float]:
    edges: dict[tuple[int, int, bool], Counter] = defaultdict(Counter)
    for line in lines:
        edges[(line.page, line.column, line.rtl)][round(_start(line))] += 1
    return {key: float(counter.most_common(1)[0][0]) for key, counter in edges.items()}


def _line_gap(lines: list[PageItem]) -> float:
    gaps = sorted(
        round(b.top - a.bottom, 1)
        for a, b in zip(lines, lines[1:])
        if a.page == b.page and a.column == b.column and 0 <= b.top - a.bottom < a.size
    )
    return gaps[int(0.3 * len(gaps))] if gaps else 2.0  # the lower third: paragraph breaks of short paragraphs do not count


def _report(progress: Callable[[str], None], page: int, count: int, window: int) -> int:
    """Say which window of pages assembly has reached; the last page of that window (to report the next one after)."""
    first = (page - 1) // window * window + 1
    last = min(first + window - 1, max(count, page))
    progress(f"assembling pages {first}-{last} of {count}")
    return last


def assemble(pages: list[PageData], outline: list[Bookmark] | None = None, *,
             progress: Callable[[str], None] | None = None, window: int = 10, heading_cues: bool = True) -> list[Element]:
    """The document's element stream from all its pages' items; ``progress`` hears each ``window`` of pages reached;
    ``heading_cues=False``: headings by the style and numbering rules alone."""
    mend_ligatures(pages)
    drop = _running_lines(pages)
    items = [item for page in pages for item in page.items if id(item) not in drop]
    lines, body = reading_lines(pages, drop)
    heads = {id(lines[index]) for index in heading_lines(lines, body, len(pages), cues=heading_cues)}
    absorbed: set[int] = set()
    texts = _merge_heading_lines(lines, heads, absorbed)
    heads -= absorbed
    position = {id(line): index for index, line in enumerate(lines)}
    by_index = heading_levels(lines, {position[h] for h in heads}, {position[k]: v for k, v in texts.items() if k in heads})
    levels = {id(lines[index]): level for index, level in by_index.items()}
    if outline:
        _apply_outline(lines, outline, heads, texts, levels, absorbed)
    vocabulary = _vocabulary(lines, items)
    edges = _left_edges(lines)
    gap = _line_gap(lines)
    notes = _footnotes(lines, body, heads)
    deferred: list[tuple[int, list[str]]] = []  # (page, pieces) of footnotes met since the last block opened or closed
    elements: list[Element] = []
    open_block: Element | None = None
    pieces: list[str] = []  # the open block's text, joined when it closes
    prev: PageItem | None = None
    held: tuple[Element, list[str], PageItem] | None = None  # a paragraph cut mid-sentence by a float (``_resumes``)
    reported = 0
    for item in items:
        if progress is not None and item.page > reported:
            reported = _report(progress, item.page, len(pages), window)
        if id(item) in notes:  # set after the paragraph that runs on past it, or where it stands when none does
            if notes[id(item)] or not deferred:
                deferred.append((item.page, [item.text.strip()]))
            else:
                _join(deferred[-1][1], item.text.strip(), vocabulary)
            continue
        if item.kind in ("table", "figure") or id(item) in heads:
            held = None if id(item) in heads else _cut(open_block, pieces, prev, body) or held
            _close(open_block, pieces)
            open_block, prev = None, None
            elements += _notes(deferred)
        if item.kind == "table" and (tiles := tile_texts(item.rows or [], vocabulary)):
            elements += [Element(kind="list_item", text=text, page=item.page) for text in tiles]  # key figures side by side
            continue
        if item.kind == "table":
            rows = [[_joined(cell, vocabulary) for cell in row] for row in item.rows or []]
            elements.append(Element(kind="table", page=item.page, rows=rows, header_rows=1 if item.header_rows is None else item.header_rows))
            continue
        if item.kind == "figure":
            image = base64.b64decode(item.png) if item.png else None
            caption = _joined(item.text, vocabulary)
            elements.append(Element(kind="figure", text=caption, page=item.page, image=image, name=_label(caption)))
            continue
        if id(item) in absorbed or not item.text.strip():
            continue
        if id(item) in heads:
            elements.append(Element(kind="heading", text=normalise(texts[id(item)]), level=levels[id(item)], page=item.page))
            continue
        kind = "code" if item.mono else ("list_item" if _BULLET.match(item.text) else "paragraph")
        if open_block is not None and prev is not None and _continues(open_block, pieces[-1], prev, item, kind, edges, gap):
            if open_block.kind == "code":
                pieces += ["\n", item.text]
            else:
                _join(pieces, item.text.strip(), vocabulary)
        elif held is not None and _resumes(held, item, kind, edges):
            _close(open_block, pieces)
            open_block, pieces, _ = held  # the cut paragraph reads on; what stood between follows it
            held = None
            _join(pieces, item.text.strip(), vocabulary)
        else:
            if held is not None and (kind == "code" or abs(item.size - held[2].size) <= 1.0):
                held = None  # the body's text goes on elsewhere (or an example it introduces): the cut paragraph ended
            if held is None and kind != "code" and prev is not None and abs(item.size - prev.size) > 1.0:
                held = _cut(open_block, pieces, prev, body)  # a table's or a caption's lines in other type cut it
            _close(open_block, pieces)
            elements += _notes(deferred)
            open_block, pieces = Element(kind=kind, text="", page=item.page), [item.text.strip()]
            elements.append(open_block)
        prev = item
    _close(open_block, pieces)
    return _table_captions(_without_empty_columns(carry_headers(elements + _notes(deferred))))


def _cut(block: Element | None, pieces: list[str], last: PageItem | None, body: float
         ) -> tuple[Element, list[str], PageItem] | None:
    """The open block, when it is a paragraph in the body's type (``body``, within a point) whose sentence a float or
    lines in other type cut (its text so far does not end a sentence): (block, its pieces, its last line), for
    ``_resumes``; else None."""
    if block is None or last is None or block.kind != "paragraph" or not pieces or abs(last.size - body) > 1.0:
        return None
    tail = pieces[-1].rstrip()
    return None if not tail or tail.endswith(_SENTENCE_END) else (block, pieces, last)


def _resumes(held: tuple[Element, list[str], PageItem], line: PageItem, kind: str, edges: dict) -> bool:
    """Whether ``line`` reads on in the paragraph a table, a figure or lines in other type (a caption, a table read as
    lines) cut mid-sentence: a paragraph line in the cut paragraph's type, on its page or the next, opening in lower
    case ("answering (QA) ..." after "... including question-" and a figure) at its column's left edge, where the
    body's lines start (a caption's second line beside a table, "number of CoT-SC samples used.", starts elsewhere)."""
    _, _, last = held
    text = line.text.strip()
    edge = edges.get((line.page, line.column, line.rtl), _start(line))
    return (kind == "paragraph" and abs(line.size - last.size) <= 1.0 and 0 <= line.page - last.page <= 1
            and text[:1].isalpha() and text[:1].islower() and abs(_start(line) - edge) <= line.size)


def _without_empty_columns(elements: list[Element]) -> list[Element]:
    """Each table without the columns empty in every row, its header's too: a ruled table's finder splits a cell at
    each rule it crosses, and HIPAA's guide read "|  | Key Activities |  |  | Description |  |  | Sample Questions |  |"
    (62 of its tables), Amazon's notes table 12 columns for 8. An empty column says nothing; the others keep their
    order."""
    for element in elements:
        if element.kind != "table" or not element.rows:
            continue
        width = max(len(row) for row in element.rows)
        kept = [j for j in range(width) if any(j < len(row) and row[j].strip() for row in element.rows)]
        if len(kept) < width:
            element.rows = [[row[j] if j < len(row) else "" for j in kept] for row in element.rows]
    return elements


def _notes(deferred: list[tuple[int, list[str]]]) -> list[Element]:
    """The footnotes set aside, as paragraphs; ``deferred`` is emptied."""
    out = [Element(kind="paragraph", text="".join(pieces), page=page) for page, pieces in deferred]
    deferred.clear()
    return out


_NOTE_MARK = re.compile(r"^(?:\d{1,3}|[*†‡§¶]|\(\d{1,3}\))\s?[A-Za-z(]")
"""How a footnote starts: its number or sign, then its text ("1 It is worth noting", "3As we", "* Equal contribution",
"(1) OJ C 229")."""


_NOTE_SIZE = 0.85
"""A footnote's type is at most this share of the body's (footnotes are set about 0.7-0.8 of it)."""


def _footnotes(lines: list[PageItem], body: float, heads: set[int]) -> dict[int, bool]:
    """The lines of the footnotes at each column's foot (id -> whether the line starts a note): after the column's last
    line in the body's type (a column with none has no footnotes), in smaller type (at most 0.85 of it), the first one
    opening with a note's mark. They are set aside while a paragraph runs on past them into the next column or page."""
    last: dict[tuple[int, int], int] = {}
    for index, line in enumerate(lines):
        if line.size > _NOTE_SIZE * body or id(line) in heads:
            last[(line.page, line.column)] = index
    out: dict[int, bool] = {}
    foot: tuple[int, int] | None = None
    for index, line in enumerate(lines):
        key = (line.page, line.column)
        if key not in last or index <= last[key] or line.size > _NOTE_SIZE * body or id(line) in heads:
            foot = None  # a column without body text (an index, a page of small print) has no foot notes
            continue
        mark = bool(_NOTE_MARK.match(line.text.strip()))
        if mark or foot == key:
            out[id(line)] = mark
            foot = key
    return out


_TABLE_CAPTION = re.compile(r"^(table|tab\.)\s*([0-9]+|[A-Z](\.[0-9]+)?)(\.[0-9]+)?\s*[:.|—–-]", re.IGNORECASE)


def _table_captions(elements: list[Element]) -> list[Element]:
    """A "Table N: ..." paragraph just above (or else just below) a table on its page names it, and leaves the text flow."""
    taken: set[int] = set()
    for index, element in enumerate(elements):
        if element.kind != "table" or element.name:
            continue
        for near in (index - 1, index + 1):
            if 0 <= near < len(elements) and near not in taken:
                other = elements[near]
                if other.kind == "paragraph" and other.page == element.page and _TABLE_CAPTION.match(other.text):
                    element.name = other.text
                    taken.add(near)
                    break
    return [element for index, element in enumerate(elements) if index not in taken]


def _label(caption: str) -> str | None:
    match = CAPTION.match(caption)
    return match.group(0).rstrip(":.|—–- ") if match else None


def _continues(block: Element, tail: str, prev: PageItem, line: PageItem, kind: str, edges: dict, gap: float) -> bool:
    """Whether ``line`` continues the open block (paragraph, list item or code) that ``prev`` ended; ``tail`` is the
    last piece of its text so far."""
    if kind == "list_item":
        return False
    if block.kind == "code" or kind == "code":
        return block.kind == kind == "code" and prev.page == line.page and line.top - prev.bottom < 1.2 * line.size
    if abs(line.size - prev.size) > 1.0:
        return False
    edge = edges.get((line.page, line.column, line.rtl), _start(line))
    indented = _start(line) - edge > 0.8 * line.size and _start(line) - edge < 6 * line.size
    ended = tail.rstrip().endswith(_SENTENCE_END)
    if prev.page != line.page or prev.column != line.column or line.top < prev.top:
        return not ended and not indented
    if line.top - prev.bottom > gap + 0.2 * line.size:
        return False
    if block.kind == "list_item":
        return _start(line) > edges.get((prev.page, prev.column, prev.rtl), _start(prev)) + 0.5 * line.size or not ended
    return _start(line) - _start(prev) <= 0.8 * line.size
