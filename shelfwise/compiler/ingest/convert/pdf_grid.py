"""Numeric tables (financial statements, figures by period) rebuilt from their words as grids with column headers.

A statement table in a PDF is a column of row labels and columns of figures, each
column named by header lines set above it ("Three Months Ended" over two columns,
then "July 1," and "2023" over one). The ruled-table finder cuts such a table at
its shading, so the header lines stay paragraphs above it, a currency sign set at
the left of its column becomes a cell of its own and the row's figures shift.
Here a table found (ruled, borderless, or a run of lines holding two figures or
more) is a seed: the region grows over the
physical lines above and below it that belong to it (header lines over the figure
columns, rows of figures, a label line opening a group of rows), and the grid is
rebuilt from the region's words. A figure's sign stays in its cell ("$ 63,355",
"42.5%", "(265)"); the columns are the x-ranges the figures cover; each header
cell names the columns it stands over, and a column's header pieces are joined top
down: pieces spanning the same columns with a space, a narrower piece after " › "
("Three Months Ended › July 1, 2023"). A region that is not mostly figures is left
to the table finders as before.
"""

from __future__ import annotations

import re

__all__ = ["HEADER_JOIN", "CELL_GAP", "ROW_GAP", "MIN_RUN_ROWS", "LABEL_WORDS", "YEAR", "Box", "line_bounds", "line_within", "numeric_grid", "grow_region", "numeric_tables"]

HEADER_JOIN = " › "
"""Between a column header's levels: a header over several columns, then one over this column alone."""

_NUMBER = re.compile(r"^\(?[-–−]?(?:[$€£¥]\s?)?\(?[-–−]?\d[\d,]*(\.\d+)?\)?%?\)?[*†‡]?$|^(?:[$€£¥]\s?)?[—–-]$")
YEAR = re.compile(r"^(19|20)\d\d$")
_PERIOD = re.compile(r"\b(?:19|20)\d\d\b|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2}\b|\b(?:Q[1-4]|FY|YTD)\b")
_AMOUNT = re.compile(r"\d\d|[.,%$€£¥()]")  # a figure as tables state amounts, not a lone digit of a diagram
_LEADING_SIGN = re.compile(r"^(\(|[$€£¥]|[$€£¥]\(|US\$|C\$|A\$)$")
_TRAILING_SIGN = re.compile(r"^(%|\)|%\))$")
_RANGE = re.compile(r"^[-–]$| [-–]$")
CELL_GAP = 1.0  # font sizes: a wider gap between two words separates two cells
ROW_GAP = 2.5  # font sizes: a wider gap between two lines ends a table region
_HEADER_GAP = 1.5  # font sizes: column headers are set tight; a wider gap above one leaves the title out
_MIN_FIGURE_ROWS = 2  # rows of figures a region needs to be read as a numeric table
MIN_RUN_ROWS = 3  # lines of two figures or more that make a table without rules
LABEL_WORDS = 8  # a line of one cell this short may be a group label between rows of figures ("Net sales:")
_HEADER_WORDS = 8  # a column header piece is a few words ("Three Months Ended", "Gross Unrealized Gains")
_SPAN_SHARE = 0.2  # a header piece stands over a column when it covers this share of the narrower of the two


def _is_number(text: str) -> bool:
    return bool(_NUMBER.match(text))


def _cells(line: list[dict]) -> list[dict]:
    """A physical line's words grouped into cells: split at wide gaps and between two figures; signs kept with figures."""
    cells: list[dict] = []
    for word in line:
        text = word["text"]
        prev = cells[-1] if cells else None
        if prev is not None and _LEADING_SIGN.match(prev["text"]) and (_is_number(text) or _LEADING_SIGN.match(text)):
            joined = prev["text"] + ("" if prev["text"].endswith("(") or text.startswith(")") else " ") + text
            prev.update(text=joined, x1=word["x1"])
            continue
        if prev is not None and _TRAILING_SIGN.match(text) and _is_number(prev["text"]):
            prev.update(text=prev["text"] + text, x1=word["x1"])
            continue
        wide = prev is not None and word["x0"] - prev["x1"] > CELL_GAP * max(prev["size"], word["size"])
        if prev is not None and not wide and (_RANGE.match(text) and _is_number(prev["text"]) or _RANGE.search(prev["text"]) and _is_number(text)):
            prev.update(text=prev["text"] + " " + text, x1=word["x1"])  # a range: "2024 - 2044", "3.80% - 4.95%"
            continue
        two_figures = prev is not None and _is_number(prev["text"]) and (_is_number(text) or bool(_LEADING_SIGN.match(text)))
        if prev is None or wide or two_figures:
            cells.append({"text": text, "x0": word["x0"], "x1": word["x1"], "size": word["size"]})
        else:
            prev.update(text=prev["text"] + " " + text, x1=word["x1"])
    return cells


def _figure_cells(cells: list[dict]) -> list[dict]:
    return [c for c in cells if _is_number(c["text"]) and not YEAR.match(c["text"])]


def _placed_figures(cells: list[dict], value_left: float) -> list[dict]:
    """The figures standing in the figure columns (not a footnote's "(1)" at the left margin)."""
    return [c for c in _figure_cells(cells) if c["x0"] >= value_left - c["size"]]


def _value_left(lines: list[list[dict]]) -> float | None:
    """Where the figure columns begin: the left edge of the leftmost column of figures that two lines or more hold
    (a figure that a wrapped label carries onto the next line, "$4", stands alone at the left and does not count)."""
    spans: list[tuple[float, float, int]] = []
    for index, line in enumerate(lines):
        cells = _cells(line)
        marker = len(cells) > 1 and not all(_is_number(c["text"]) for c in cells)  # "(1) Products net sales ...": a footnote
        spans += [(c["x0"], c["x1"], index) for c in _figure_cells(cells[1:] if marker else cells)]
    if not spans:
        return None
    columns: list[list] = []
    for x0, x1, index in sorted(spans):
        if columns and x0 <= columns[-1][1]:
            columns[-1][1] = max(columns[-1][1], x1)
            columns[-1][2].add(index)
        else:
            columns.append([x0, x1, {index}])
    held = [column[0] for column in columns if len(column[2]) >= 2]
    return min(held) if held else columns[0][0]


def _has_label(cells: list[dict], value_left: float) -> bool:
    return bool(cells) and not _is_number(cells[0]["text"]) and cells[0]["x0"] < value_left - 0.5 * cells[0]["size"]


def _is_row(cells: list[dict], value_left: float) -> bool:
    """A line of the table body: figures (besides years) in the figure columns, or a short label left of them."""
    if _placed_figures(cells, value_left):
        return True
    return len(cells) == 1 and _has_label(cells, value_left) and cells[0]["x1"] < value_left


def _is_header(cells: list[dict], value_left: float) -> bool:
    """A header line: no figure but a year, something over the figure columns ('Three Months Ended', 'July 1,', '2023')."""
    short = all(len(c["text"].split()) <= _HEADER_WORDS for c in cells)  # a line of prose beside the table is no header
    return short and not _figure_cells(cells) and any(c["x0"] >= value_left - 2 * c["size"] for c in cells)


def line_bounds(line: list[dict]) -> tuple[float, float, float, float]:
    return min(w["x0"] for w in line), min(w["top"] for w in line), max(w["x1"] for w in line), max(w["bottom"] for w in line)


def grow_region(lines: list[list[dict]], seed: tuple[float, float, float, float]) -> tuple[int, int, int] | None:
    """(first, header_end, last) line indexes of the numeric table around ``seed`` (a table's box), or None.

    ``lines`` are a page's physical lines top to bottom. Lines first..header_end-1 are the header lines. The region
    takes the lines inside the box, then the rows of figures and short group labels next to it, then the header lines
    above it; every line must lie within the box's width (a font size of slack) and close to its neighbour."""
    x0, top, x1, bottom = seed
    inside = [i for i, line in enumerate(lines) if top - 1 <= (line_bounds(line)[1] + line_bounds(line)[3]) / 2 <= bottom + 1
              and line_bounds(line)[0] >= x0 - 2 and line_bounds(line)[2] <= x1 + 2]
    if not inside:
        return None
    first, last = inside[0], inside[-1]
    value_left = _value_left(lines[first:last + 1])
    if value_left is None:
        return None
    size = max(w["size"] for w in lines[first])

    def near(a: int, b: int, gap: float = ROW_GAP) -> bool:  # line a directly above line b, both within the box's width
        within = all(line_bounds(lines[i])[0] >= x0 - 2 * size and line_bounds(lines[i])[2] <= x1 + 2 * size for i in (a, b))
        return within and line_bounds(lines[b])[1] - line_bounds(lines[a])[3] < gap * size

    while last + 1 < len(lines) and near(last, last + 1):
        cells = _cells(lines[last + 1])
        if _placed_figures(cells, value_left):
            last += 1
        elif last + 2 < len(lines) and _is_row(cells, value_left) and near(last + 1, last + 2) and _placed_figures(_cells(lines[last + 2]), value_left):
            last += 2  # a group label, then its first row
        else:
            break
    single = _one_column(lines, first, last, value_left)
    while first > 0 and near(first - 1, first) and _is_row(cells := _cells(lines[first - 1]), value_left) and not _is_header(cells, value_left) \
            and (not single or _placed_figures(cells, value_left) or len(cells[0]["text"].split()) <= LABEL_WORDS):
        first -= 1  # over one column of figures, rows and short labels ("(In Millions)"), not the paragraph above's lines
    if first > 1 and near(first - 1, first) and _group_label(lines, first - 1, first, value_left) and _is_header(above := _cells(lines[first - 2]), value_left) \
            and near(first - 2, first - 1, ROW_GAP if any(_PERIOD.search(c["text"]) for c in above) else _HEADER_GAP):
        first -= 1  # a group's label right under the column headers ("w/o relevance judgement"), running over the figure columns
    header_start = first
    while header_start > 0 and _is_header(cells := _cells(lines[header_start - 1]), value_left) and near(
            header_start - 1, header_start, ROW_GAP if any(_PERIOD.search(c["text"]) for c in cells) else _HEADER_GAP):
        header_start -= 1  # a line naming dates or years over the figures may stand apart; a title above them may not
    header_end = first
    while header_end < last and _is_header(_cells(lines[header_end]), value_left):
        header_end += 1
    if _one_column(lines, header_end, last, value_left) and sum(1 for i in range(header_start, header_end) if _label_and_text(_cells(lines[i]), value_left)) >= 2:
        return first, first, last  # "Name  Jordan Ellis" over "Tax year  2023": a form's rows of a label and its value
    return header_start, header_end, last


def _group_label(lines: list[list[dict]], index: int, row: int, value_left: float) -> bool:
    """Whether line ``index`` is a group's label over the rows from line ``row``: one short piece of text, no figure,
    set at the left edge of the row's label; it may run over the figure columns, as a paper's "w/o relevance
    judgement" does (a label the rows' labels fit beside the figures is a row by ``_is_row``)."""
    cells, below = _cells(lines[index]), _cells(lines[row])
    return len(cells) == 1 and not _figure_cells(cells) and len(cells[0]["text"].split()) <= LABEL_WORDS \
        and _has_label(below, value_left) and abs(cells[0]["x0"] - below[0]["x0"]) <= 0.5 * cells[0]["size"]


def _one_column(lines: list[list[dict]], first: int, last: int, value_left: float) -> bool:
    """Whether lines ``first``..``last`` each hold one figure or none in the figure columns."""
    return all(len(_placed_figures(_cells(lines[i]), value_left)) <= 1 for i in range(first, last + 1))


def _label_and_text(cells: list[dict], value_left: float) -> bool:
    """A label left of the figure column and words over it: a row of a form of labels and values ("Filing status
    Single"), read as such when its figures stand in one column and two lines or more above them are so. A statement's
    column header over one column leaves the label column empty in all its lines but one ("(In millions)" beside
    "December 31,", then "2023" alone); over several columns, its lines may wrap in the label column too."""
    return _has_label(cells, value_left) and any(c["x0"] >= value_left - 2 * c["size"] for c in cells[1:])


def _columns(rows: list[list[dict]]) -> list[list[float]]:
    """The x-ranges the figure columns cover: the rows' value cells' ranges, overlapping ones merged."""
    spans = sorted([c["x0"], c["x1"]] for row in rows for c in row)
    merged: list[list[float]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def _column_of(cell: dict, columns: list[list[float]]) -> int:
    overlaps = [min(b, cell["x1"]) - max(a, cell["x0"]) for a, b in columns]
    best = max(range(len(columns)), key=lambda i: overlaps[i])
    if overlaps[best] > 0:
        return best
    centre = (cell["x0"] + cell["x1"]) / 2
    return min(range(len(columns)), key=lambda i: abs((columns[i][0] + columns[i][1]) / 2 - centre))


def _header(lines: list[list[dict]], columns: list[list[float]]) -> list[str]:
    """The label column's header, then one per figure column, from the header lines: a piece names the columns under it."""
    parts: list[list[tuple[str, int]]] = [[] for _ in columns]
    label: list[str] = []
    for line in lines:
        placed = []
        for cell in _cells(line):
            if cell["x1"] <= columns[0][0]:
                label.append(cell["text"])  # "(In Millions)" over the row labels
                continue
            over = [i for i, (a, b) in enumerate(columns) if min(b, cell["x1"]) - max(a, cell["x0"]) > _SPAN_SHARE * min(b - a, cell["x1"] - cell["x0"])]
            placed.append((cell["text"], over or [_column_of(cell, columns)], (cell["x0"] + cell["x1"]) / 2))
        for text, over in _equal_groups(placed, columns):
            for i in over:
                parts[i].append((text, len(over)))
    headers = []
    for pieces in parts:
        text = ""
        for index, (piece, span) in enumerate(pieces):
            if index and span < pieces[index - 1][1] and not text.endswith(","):
                text += HEADER_JOIN
            elif index:
                text += " "
            text += piece
        headers.append(text)
    return [" ".join(label), *headers]


def _group_labels(body: list[list[dict]], value_left: float) -> bool:
    """Whether the body's lines hold one piece of text left of the figures, or several where all but the last are
    groups' labels: short pieces in columns of their own left of the row labels, each set on one row of its group
    ("Adaptive  Self-RAG  9.90 ..."), so that other rows' labels start where the last pieces start. Two pieces in every
    row are a table of text columns; a longer piece is prose beside the table: both are left to the table finders."""
    texts = [[c for c in cells if c["x0"] < value_left - c["size"] and not _is_number(c["text"])] for cells in body]
    paired = [pieces for pieces in texts if len(pieces) > 1]
    if not paired:
        return True
    if any(len(c["text"].split()) > LABEL_WORDS for pieces in paired for c in pieces):
        return False
    starts = [pieces[-1]["x0"] for pieces in paired]
    alone = [pieces[0] for pieces, cells in zip(texts, body) if len(pieces) == 1 and _placed_figures(cells, value_left)]
    return all(any(abs(c["x0"] - start) <= c["size"] for c in alone) for start in starts) \
        and all(pieces[-2]["x1"] < min(c["x0"] for c in alone) for pieces in paired)


def _equal_groups(placed: list[tuple[str, list[int], float]], columns: list[list[float]]) -> list[tuple[str, list[int]]]:
    """A header line's pieces (text, columns it stands over, its centre) with the columns they name: pieces that
    divide the columns into equal groups of two or more (one piece: one group of all the columns, Apple's "June 25,
    2022" over a securities table's "Adjusted Cost" to "Fair Value"), each piece over columns of its own group only and
    centred on it (nearer the group's middle than any other column's centre: its middle column's, or the point between
    its two middle ones), name their whole groups: Apple's "Three Months Ended" centred over a quarter's two periods
    and their change, a results table's "FLAN-T5-XL (3B)" over its five measures, "DL19" over the gap between its two.
    Otherwise they name the columns they stand over: "% of Net", right-aligned over each period's percentage beside
    its amount, is no group's."""
    plain = [(text, over) for text, over, _ in placed]
    size = len(columns) // len(placed) if placed else 0
    if not placed or size < 2 or len(columns) % len(placed):
        return plain
    centres = [(a + b) / 2 for a, b in columns]
    for n, (_, over, centre) in enumerate(placed):
        group = range(n * size, (n + 1) * size)
        middle = centres[group[size // 2]] if size % 2 else (centres[group[size // 2 - 1]] + centres[group[size // 2]]) / 2
        if not set(over) <= set(group) or any(abs(centre - centres[i]) < abs(centre - middle) for i in group if centres[i] != middle):
            return plain
    return [(text, list(range(n * size, (n + 1) * size))) for n, (text, _, _) in enumerate(placed)]


def _label_and_values(cells: list[dict], value_left: float) -> tuple[dict | None, list[dict]]:
    """A body line's label (its cells left of the figure columns, joined) and its cells in the figure columns."""
    left = [c for c in cells if c["x0"] < value_left - c["size"]]
    if not left or (len(left) == 1 and _is_number(left[0]["text"]) and len(cells) == 1):
        return None, cells
    label = {"text": " ".join(c["text"] for c in left), "x0": left[0]["x0"], "x1": left[-1]["x1"], "size": left[0]["size"]}
    return label, cells[len(left):]


def numeric_grid(lines: list[list[dict]], header_lines: int) -> tuple[list[list[str]], int] | None:
    """(rows, header row count) of a numeric table from its physical lines (the first ``header_lines`` its header).

    Each row is its label, then one cell per figure column. None when the body is not mostly rows of figures."""
    body = [_cells(line) for line in lines[header_lines:]]
    value_left = _value_left(lines[header_lines:])
    if value_left is None or sum(1 for cells in body if _figure_cells(cells)) < _MIN_FIGURE_ROWS:
        return None
    if not _group_labels(body, value_left):
        return None  # two pieces of text left of the figures: prose beside a table, or a table of text columns
    split = [_label_and_values(cells, value_left) for cells in body]
    columns = _columns([[c for c in values if _is_number(c["text"])] for _, values in split])
    if not columns:
        return None
    values = [c for _, vals in split for c in vals]
    if sum(1 for c in values if _is_number(c["text"])) < 0.6 * len(values):
        return None  # words in the figure columns: a text table
    rows: list[list[str]] = []
    for label, vals in split:
        row = [label["text"] if label else ""] + [""] * len(columns)
        for cell in vals:
            index = 1 + _column_of(cell, columns)
            row[index] = " ".join(filter(None, [row[index], cell["text"]]))
        lone = bool(rows) and bool(rows[-1][0]) and not any(rows[-1][1:]) and not rows[-1][0].endswith(":")  # a label, no group's
        if lone and label and not label["text"][:1].isupper():
            row[0] = rows.pop()[0] + "\n" + row[0]  # a label wrapped onto the row's line of figures (the tree joins it)
        elif lone and label is None and any(row[1:]):
            row[0] = rows.pop()[0]  # a label set a line above its figures ("Total cash and investments 1" lifted by its note mark)
        rows.append(row)
    if header_lines:
        return [_header(lines[:header_lines], columns), *rows], 1
    return rows, 0


Box = tuple[float, float, float, float]


def _figure_runs(lines: list[list[dict]]) -> list[Box]:
    """Boxes of tables drawn without rules or shading: runs of close lines, at least three of them holding two figures
    or more ("Products  $ 1,234  $ 1,100"); a line of one figure (a contents entry and its page) does not count."""
    runs: list[Box] = []
    members: list[int] = []
    amounts: dict[int, int] = {}  # line index -> its figures stating amounts
    single: dict[int, dict] = {}  # line index -> its one figure, for a line of a label and one amount (``_single_figure``)

    def close() -> None:
        counted = [i for i in members if amounts[i] >= 2]
        singles = [i for i in members if i in single]
        if len(counted) < MIN_RUN_ROWS and len(singles) >= MIN_RUN_ROWS:
            rights = [single[i]["x1"] for i in singles]
            size = max(w["size"] for i in singles for w in lines[i])
            if max(rights) - min(rights) <= size:  # one column of figures, right-aligned: a rollforward, a maturity schedule
                counted = singles
        if len(counted) >= MIN_RUN_ROWS:
            words = [w for i in range(counted[0], counted[-1] + 1) for w in lines[i]]
            runs.append((min(w["x0"] for w in words), min(w["top"] for w in words), max(w["x1"] for w in words), max(w["bottom"] for w in words)))
        members.clear()

    for index, line in enumerate(lines):
        cells = _cells(line)
        figures = amounts[index] = len([c for c in _figure_cells(cells) if _AMOUNT.search(c["text"])])
        if (figure := _single_figure(cells)) is not None:
            single[index] = figure
        texts = [c for c in cells if not _is_number(c["text"])]
        if len(texts) > 1 and (any(len(c["text"].split()) > LABEL_WORDS for c in texts) or texts[-1]["x1"] > cells[-1]["x0"]):
            figures = 0  # text beside text (a column of prose next to the figures): not a statement's row; short labels
            # left of the figures may be groups' ("Single-step  Adaptive  Self-RAG  2.20 ...", ``_group_labels``)
        size = max(w["size"] for w in line)
        if members and line_bounds(line)[1] - line_bounds(lines[members[-1]])[3] >= ROW_GAP * size:
            close()
        if figures >= 2 or index in single or (members and len(cells) == 1 and len(line) <= LABEL_WORDS):
            members.append(index)
        else:
            close()
    close()
    return runs


def _single_figure(cells: list[dict]) -> dict | None:
    """The figure cell of a line's cells (``_cells``) that are a label and one amount set apart at its right ("Cash
    payments   (923)"), or None: a statement with one column of figures (a rollforward) holds such lines only."""
    if len(cells) != 2 or _is_number(cells[0]["text"]) or not _figure_cells(cells[1:]) or not _AMOUNT.search(cells[1]["text"]) \
            or len(cells[0]["text"].split()) > _HEADER_WORDS + LABEL_WORDS:
        return None
    return cells[1]


def _headed_rows(lines: list[list[dict]]) -> list[tuple[int, list[list[str]]]]:
    """(line index, rows) of each schedule of one row: a line of a label and three figures or more set right under a
    line of as many periods, one word each ("2023 2024 2025 2026 2027 Thereafter Total"), each period nearest its own
    figure in turn ("Scheduled vesting — restricted stock units  70.7  224.5 ..."). No run of rows seeds it; its header
    is the periods' line (the lines above it, "Year Ended December 31," over several columns, stay text)."""
    found: list[tuple[int, list[list[str]]]] = []
    for index in range(1, len(lines)):
        cells = _cells(lines[index])
        periods = _cells(lines[index - 1])
        if len(cells) < 2 or _is_number(cells[0]["text"]) or _figure_cells(periods):
            continue
        figures = cells[1:]
        if len(figures) < MIN_RUN_ROWS or len(periods) != len(figures) or not all(_is_number(c["text"]) and _AMOUNT.search(c["text"]) for c in figures):
            continue
        if sum(1 for c in periods if YEAR.match(c["text"])) < 2 or not all(YEAR.match(c["text"]) or (c["text"].istitle() and " " not in c["text"]) for c in periods):
            continue  # "2023", "Thereafter", "Total"
        size = max(w["size"] for w in lines[index])
        if line_bounds(lines[index])[1] - line_bounds(lines[index - 1])[3] >= ROW_GAP * size or periods[0]["x0"] <= cells[0]["x1"]:
            continue
        centres = [(c["x0"] + c["x1"]) / 2 for c in figures]
        if all(min(range(len(centres)), key=lambda i: abs(centres[i] - (p["x0"] + p["x1"]) / 2)) == n for n, p in enumerate(periods)):
            found.append((index, [["", *(p["text"] for p in periods)], [cells[0]["text"], *(c["text"] for c in figures)]]))
    return found


def numeric_tables(lines: list[list[dict]], seeds: list[Box]) -> tuple[list[tuple[Box, list[list[str]], int]], set[int], set[int]]:
    """The numeric tables grown from the seeds (tables found on the page) over its physical lines, top to bottom.

    Returns each table's (box, rows, header row count), the indexes of the seeds it replaces (their lines all inside
    a region) and the ids of the words it took."""
    regions: list[tuple[int, int, int]] = []
    for seed in sorted([*seeds, *_figure_runs(lines)], key=lambda box: box[1]):
        region = grow_region(lines, seed)
        if region is None:
            continue
        if regions and region[0] <= regions[-1][2]:  # overlaps the region grown from the seed above: one table
            prev = regions.pop()
            region = (min(prev[0], region[0]), prev[1] if prev[0] <= region[0] else region[1], max(prev[2], region[2]))
        regions.append(region)
    found, replaced, taken = [], set(), set()
    for first, header_end, last in regions:
        grid = numeric_grid(lines[first:last + 1], header_end - first)
        if grid is None:
            continue
        words = [w for line in lines[first:last + 1] for w in line]
        box = (min(w["x0"] for w in words), min(w["top"] for w in words), max(w["x1"] for w in words), max(w["bottom"] for w in words))
        found.append((box, grid[0], grid[1]))
        taken.update(id(w) for w in words)
        for index, seed in enumerate(seeds):
            if box[1] - 1 <= (seed[1] + seed[3]) / 2 <= box[3] + 1 and seed[0] < box[2] and seed[2] > box[0]:
                replaced.add(index)
    for index, rows in _headed_rows(lines):
        words = [w for line in lines[index - 1:index + 1] for w in line]
        if any(id(w) in taken for w in words) or any(line_within(line, seeds) for line in lines[index - 1:index + 1]):
            continue  # part of a table found otherwise
        found.append((line_bounds(words), rows, 1))
        taken.update(id(w) for w in words)
    return found, replaced, taken


def line_within(line: list[dict], boxes: list[Box]) -> bool:
    """Whether a physical line's centre lies within one of ``boxes`` (a point of slack): a line of a table found."""
    x0, top, x1, bottom = line_bounds(line)
    return any(b[0] - 1 <= (x0 + x1) / 2 <= b[2] + 1 and b[1] - 1 <= (top + bottom) / 2 <= b[3] + 1 for b in boxes)
