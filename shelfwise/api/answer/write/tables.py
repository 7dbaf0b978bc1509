"""What a table's rows mean beside their own cells, for the extractive writer: the row that labels the rows under it
and the sentence that announces the table.

A 10-Q's segment table writes "AWS" on a row of its own and "Net sales | 20,538 | 23,059" under it; its
statement of operations introduces the table with "Operating expenses ... were as follows (dollars in millions):".
A row means what its label row says (``row_labels``: the writer quotes the label with the row), and a sentence that
announces a table gives no figure without its rows (``introduced_tables``, ``with_introduced_tables``: the rows come
with the sentence, as a list's items come with the sentence introducing the list). A statement's row is read with the
rows around it (``with_table_rows``): the other line items of the statement, the other segments of a segment table,
the rows a total or a rate is computed from. A table continued page after page repeats its header rows; read as rows,
they are no statement (``repeated_rows``). A note under a table ("(1) Includes product sales and digital media
content ...") says what its row holds ("Online stores (1) | $ 53,489 | $ 57,267"): the row comes with the note
(``annotated_rows``, ``with_annotated_rows``), as the figures the note explains.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from shelfwise.api.answer.write.unit_shape import label_row
from shelfwise.api.terms import unit_cells

__all__ = ["statement_row", "row_labels", "introduced_tables", "with_introduced_tables", "with_table_rows", "contents_tables",
           "repeated_rows", "REPEATED_ROW", "annotated_rows", "with_annotated_rows", "caption_label", "captioned_tables",
           "named_labels", "named_captions", "caption_rest", "label_only"]


_PAGE_CELL = re.compile(r"^(?:pages?|pp?\.)(?:\s+\d{1,4}(?:\s*[-\u2013]\s*\d{1,4})?)?$", re.I)
"""A cell that gives a page ("Page", "Pages 37 - 38", "p. 4"): the column of a table of contents."""


def contents_tables(units: list) -> set[str]:
    """The tables (groups) that are a document's table of contents ("Item 1. | Financial Statements | Pages 4 - 23",
    "Liquidity and Capital Resources | 37" under a "Page" column): a cell of the header or of a row gives a page, or
    every row is a title and then a page (``_paged_rows``). Their rows name sections, they state nothing: never an
    answer (as a contents line with dot leaders is not)."""
    found = {unit.group for unit in units if unit.kind in ("table_header", "table_row") and unit.group
             and any(_PAGE_CELL.match(cell.strip()) for cell in unit_cells(unit))}
    rows: dict[str, list[list[str]]] = {}
    for unit in units:
        if unit.kind in ("table_header", "table_row") and unit.group:
            rows.setdefault(unit.group, []).append([cell.strip() for cell in unit_cells(unit) if cell.strip()])
    return found | {group for group, cells in rows.items() if _paged_rows(cells)}


_PAGE_NUMBER = re.compile(r"\d{1,3}")
PAGED_ROWS = 3
"""Rows of titles each followed by a page, at least, that make a table a table of contents without a "Page" column.
Measured over every table of the nine compiled shelves (filings, papers, office, licenses, identity, oauth, typing, make,
northwind): 2 and 3 find the same 15 tables, all contents; 4 loses four of them (Apple's three-row contents tables,
"Item 2. | Management's Discussion and Analysis ... | 14"). 3 is the largest that loses none: the fewest rows whose pages
may go up by chance (two rows do so half the time)."""


def _paged_rows(rows: list[list[str]]) -> bool:
    """Whether every row (its non-empty cells) is a title in words and then a bare page number, the numbers never going
    down ("Segment Trends and Results | 24", "Consolidated Results of Operations | 33", "Liquidity and Capital Resources |
    38"), over ``PAGED_ROWS`` rows or more: a contents table whose column of pages has no header. A figure is never a
    bare page: "$ 7,621", "1,250", "12.5" and "(3,523)" are not."""
    pages = []
    for cells in rows:
        if len(cells) < 2 or not _PAGE_NUMBER.fullmatch(cells[-1]) or not all(re.search(r"[A-Za-z]{3}", c) for c in cells[:-1]):
            return False
        pages.append(int(cells[-1]))
    return len(pages) >= PAGED_ROWS and pages == sorted(pages)


def row_labels(units: list) -> dict[int, int]:
    """Each table row's label row (``unit_shape.label_row``): the nearest row above it in its table that only labels
    the rows under it. ``units`` are the writer's pool, in document order; the result maps their indexes."""
    labels: dict[int, int] = {}
    current: dict[str, int] = {}
    for index, unit in enumerate(units):
        if unit.kind != "table_row":
            continue
        if label_row(unit):
            current[unit.group] = index
        elif unit.group in current:
            labels[index] = current[unit.group]
    return labels


def introduced_tables(units: list) -> dict[int, list[int]]:
    """A sentence that ends with a colon right before a table in its section ("Operating expenses for the three months
    ended ... were as follows (dollars in millions):") introduces it: each such sentence's index -> the table's rows'
    indexes, in order."""
    tables: dict[int, list[int]] = {}
    for index, unit in enumerate(units[:-1]):
        after = units[index + 1]
        if (unit.kind == "sentence" and unit.text.rstrip().endswith(":") and after.section_id == unit.section_id
                and after.kind in ("table_header", "table_row")):
            tables[index] = [i for i in range(index + 1, len(units))
                             if units[i].group == after.group and units[i].kind == "table_row"]
    return tables


_CAPTION = re.compile(r"^(?P<kind>table|figure|fig\.|exhibit)\s+(?P<number>[a-z]?\d+(?:[.-]\d+)*[a-z]?)\s*(?:[:.\u2013\u2014|-]|$)", re.I)
"""A caption's opening: "Table 1: Averaged results ...", "Figure 8. After filtering ...", "Table 6-2 ...", "Exhibit 3 -"."""
_NAMED = re.compile(r"\b(?P<kind>table|figure|fig\.|exhibit)\s+(?P<number>[a-z]?\d+(?:[.-]\d+)*[a-z]?)(?![\w-])", re.I)
"""A table or figure a question names by its number ("its Table 1", "Figure 3 of the RAPTOR paper", "table 6-2")."""


def _label(kind: str, number: str) -> tuple[str, str]:
    kind = kind.lower().rstrip(".")
    return ("figure" if kind == "fig" else kind, number.lower())


def caption_label(text: str) -> tuple[str, str] | None:
    """("table", "1") for a caption opening "Table 1: ..." (a figure's "Fig. 3." is ("figure", "3")), else None."""
    match = _CAPTION.match(text.strip())
    return _label(match.group("kind"), match.group("number")) if match else None


def label_only(text: str) -> bool:
    """Whether ``text`` is a caption's label and nothing else ("Figure 2.", "Fig. 3.", "Table 6-2."): the sentence
    splitter cuts "Figure 2. NIST Risk Management Framework" after the label."""
    match = _CAPTION.match(text.strip())
    return bool(match) and not text.strip()[match.end():].strip()


def named_labels(ask: str) -> set[tuple[str, str]]:
    """The tables and figures an ask names by number ("what does its Table 1 show": {("table", "1")})."""
    return {_label(m.group("kind"), m.group("number")) for m in _NAMED.finditer(ask)}


def captioned_tables(units: list, page_of: Callable[[int], int | None]) -> dict[int, list[int]]:
    """A table's caption ("Table 1: Averaged results on a collection of benchmark datasets ...") -> its table's rows: the
    first table after the caption in its section, or else the last one before it (a caption set under its table), with
    no other caption between them, on the caption's page (``page_of``: pool index -> page, asked only of the captions and
    the units around them; a unit without one is read as on every page). A PDF reader sets a caption apart from its table by the header lines it could not read as cells
    ("Types Methods EM F1 Acc Step Time"): the caption says what the rows are, as a sentence announcing a table does."""
    out: dict[int, list[int]] = {}
    captions = [i for i, u in enumerate(units) if u.kind in ("sentence", "figure") and (caption_label(u.text) or ("",))[0] == "table"
                and (i == 0 or units[i - 1].section_id != u.section_id or units[i - 1].order[1] != u.order[1])]  # a paragraph's first sentence
    for index in captions:
        unit = units[index]
        page = page_of(index)

        def same_page(i: int) -> bool:
            return page is None or page_of(i) in (None, page)

        group = None
        for step in (1, -1):  # after the caption first, then before it
            i = index + step
            while 0 <= i < len(units) and units[i].section_id == unit.section_id and same_page(i):
                if units[i].kind in ("table_header", "table_row") and units[i].group:
                    group = units[i].group
                    break
                if caption_label(units[i].text):
                    break
                i += step
            if group is not None:
                break
        if group is not None:
            out[index] = [i for i, u in enumerate(units) if u.group == group and u.kind == "table_row"]
    return out


def named_captions(ask: str, pool, eligible: list[tuple[float, int]]) -> list[int]:
    """The captions of the tables and figures ``ask`` names by number ("what does its Table 1 show about cost ..."), of
    the document the part is answered from: the best-ranked document among ``eligible`` (best first) holding such a
    caption ("Table 1" of every paper on the shelf is not the one asked about)."""
    wanted = named_labels(ask)
    if not wanted:
        return []
    found: dict[str, list[int]] = {}
    for index, unit in enumerate(pool.units):
        if unit.kind in ("sentence", "figure") and caption_label(unit.text) in wanted:
            found.setdefault(unit.doc_id, []).append(index)
    for _, index in eligible:
        doc = pool.units[index].doc_id
        if doc in found:
            return found[doc]
    return []


def caption_rest(pool, index: int) -> list[int]:
    """The sentences of a caption after its title ("Figure 6: Test-Time Documents Varying: ..." then "In NQ, we find that
    training with 4 documents leads to the best performance ..."): what a named figure shows is said there."""
    unit = pool.units[index]
    rest = []
    for i in range(index + 1, len(pool.units)):  # a block's units stand together in the pool
        if pool.units[i].section_id != unit.section_id or pool.units[i].order[:2] != unit.order[:2]:
            break
        if pool.units[i].kind == "sentence":
            rest.append(i)
    return rest


def with_introduced_tables(pool, picked: list[tuple[float, int]], eligible: list[tuple[float, int]],
                           room: float) -> list[tuple[float, int]]:
    """``picked`` and the rows of each table a picked sentence introduces ("Share repurchase activity during the three
    months ended July 1, 2023 was as follows (in millions ...):"): without them it announces figures it does not give.
    The rows that rank for the obligation (``eligible``, best first) come first, then the others in the table's order,
    each at 0.9 of the sentence's score (a list item's factor beside its lead-in), while the written units fit ``room``
    characters (the part's budget with its overrun)."""
    have = {p for _, p in picked}
    used = sum(len(pool.units[p].text) for p in have)
    ranked = {i: r for r, (_, i) in enumerate(eligible)}
    extra = []
    for score, p_index in sorted(picked, reverse=True):
        rows = [i for i in pool.tables.get(p_index, []) if i not in have and pool.units[i].group not in pool.contents]
        for n_index in sorted(rows, key=lambda i: (ranked.get(i, len(ranked)), i)):
            if used + len(pool.units[n_index].text) > room:
                continue
            extra.append((round(score * 0.9, 4), n_index))
            have.add(n_index)
            used += len(pool.units[n_index].text)
    return picked + extra


_FIGURE_CELL = re.compile(r"^[$\u20ac\u00a3(\s]*[-+\u2212]?\d[\d,.]*\s*%?\)?\s*%?$|^[-\u2013\u2014]$")
"""A cell that is one figure: "$ 20,538", "(412)", "(5)%", "12.5%", or a dash for none."""


def statement_row(unit) -> bool:
    """A row of a statement: a label, then figures only (every non-empty cell after the label is one figure), at least
    one. A register's record ("CAL-11 | Flow-rate analyzer | ... | OUT OF CALIBRATION") is not: its cells are values of
    their own, and a record is no line of the records beside it."""
    cells = [c.strip() for c in unit_cells(unit)[1:] if c.strip()]
    return unit.kind == "table_row" and bool(cells) and all(_FIGURE_CELL.match(c) for c in cells)


def with_table_rows(pool, picked: list[tuple[float, int]], room: float, whole: bool = False) -> list[tuple[float, int]]:
    """``picked`` and, around each picked statement row (``statement_row``), the other rows of its table, nearest first, while the written
    units fit ``room`` characters (the part's budget with its overrun): a table's row is one line of a statement whose
    other lines ("Net sales", "Operating expenses", "Operating income" of each segment; the income and the tax a rate
    is computed from) a reader reads with it. They are the row's context, not evidence of their own: each scores under
    every picked unit (0.7 of the lowest, a section's next sentence's factor beside its best unit, once more per row
    of distance), so the answer's size limit drops them first, the farthest first. Label rows come with their rows
    when the answer is shown. For an ask for the parts a whole is made of (``whole``: "the revenue breakdown across its
    service offerings", ``shelfwise.api.answer.question.BREAKDOWN``), the other rows of a table no longer than the room are
    the answer itself, each as much as the picked row, whatever room the other picks left: the answer's size limit then
    weighs them against those picks."""
    have = {p for _, p in picked}
    used = sum(len(pool.units[p].text) for p in have)
    rows: dict[str, list[int]] = {}
    for index, unit in enumerate(pool.units):
        if unit.kind == "table_row" and unit.group:
            rows.setdefault(unit.group, []).append(index)
    lowest = min((score for score, _ in picked), default=0.0)
    extra = []
    for score, p_index in sorted(picked, reverse=True):
        unit = pool.units[p_index]
        if not statement_row(unit) or unit.group not in rows:
            continue
        members = rows[unit.group]
        entire = whole and sum(len(pool.units[i].text) for i in members) <= room  # the answer, not context: whatever else was picked
        for n_index in sorted(members, key=lambda i: (abs(i - p_index), i)):
            if n_index in have or n_index in pool.label_rows or not statement_row(pool.units[n_index]):
                continue
            if used + len(pool.units[n_index].text) > room and not entire:
                break
            extra.append((round(score if entire else lowest * 0.7 ** abs(n_index - p_index), 6), n_index))
            have.add(n_index)
            used += len(pool.units[n_index].text)
    return picked + extra


REPEATED_ROW = 3
"""A row without a figure that a document's tables repeat this many times is a running header (a table continued
page after page repeats its header rows: "| HIPAA Security | | Security Controls |"), not a statement. Twice is still a
value two tables share."""


def repeated_rows(units: list) -> set[int]:
    """Indexes of the table rows holding no digit whose text stands ``REPEATED_ROW`` times or more among one document's rows."""
    count = Counter((u.doc_id, u.text) for u in units if u.kind == "table_row" and not any(c.isdigit() for c in u.text))
    return {i for i, u in enumerate(units) if u.kind == "table_row" and count.get((u.doc_id, u.text), 0) >= REPEATED_ROW}


_NOTE = re.compile(r"^\s*\(([0-9]{1,2}|[a-z])\)\s+\S")
"""A note's marker at its start: "(1) Includes ...", "(a) Represents ..."."""
_MARKED = re.compile(r"\(([0-9]{1,2}|[a-z])\)\s*$")
"""A row label's note marker at its end: "Online stores (1)", "Other (6)"."""


def annotated_rows(units: list) -> dict[int, int]:
    """Each note's index -> the index of the table row its marker annotates: the nearest row above it in its section
    whose label ends with the same marker ("(1) Includes product sales ..." under "Online stores (1) | $ 53,489 | ...")."""
    out: dict[int, int] = {}
    marked: dict[tuple[str, str], int] = {}  # (section, marker) -> the last row so marked
    for index, unit in enumerate(units):
        if unit.kind == "table_row" and unit.group:
            cells = unit_cells(unit)
            found = _MARKED.search(cells[0]) if cells else None
            if found:
                marked[(unit.section_id, found.group(1))] = index
        elif unit.kind not in ("table_header", "heading"):
            note = _NOTE.match(unit.text)
            if note and (unit.section_id, note.group(1)) in marked:
                out[index] = marked[(unit.section_id, note.group(1))]
    return out


def with_annotated_rows(pool, picked: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """``picked`` and the row each picked note annotates (``Pool.notes``): a note says what a row holds, the row
    gives its figures. The two are one statement, the row its lead and the note its item: the row takes the note's
    score and the note 0.9 of it (a list item's factor beside its lead-in), so the answer's size limit drops a long note
    before its row. The row comes whatever is left of the part's room (a row is a line); ``with_table_rows`` then reads
    the other rows of its table around it, within that room."""
    have = {p for _, p in picked}
    out, extra = [], []
    for score, p_index in picked:
        row = pool.notes.get(p_index)
        if row is None or row in have:
            out.append((score, p_index))
            continue
        out.append((round(score * 0.9, 4), p_index))
        extra.append((score, row))
        have.add(row)
    return out + extra
