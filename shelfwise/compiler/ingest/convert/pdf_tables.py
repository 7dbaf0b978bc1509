"""Ruled tables of one page: pdfplumber's table finder fed with pdfium's paths and characters.

pdfplumber finds a table where ruling lines cross (its "lines" strategy), but
to get those lines it has pdfminer parse the whole page, which is slow on pages
full of vector drawings. Here the same edges are taken from pdfium's path
objects, the way pdfminer turns paths into lines, rectangles and curves and
pdfplumber turns those into edges, and handed with pdfium's characters to
pdfplumber's own ``TableFinder``; cells are filled by pdfplumber's
``Table.extract``. Nothing is parsed twice. Tables drawn without ruling
lines are found from the words alone (``text_tables``): three or more
consecutive lines whose words stand in the same columns, the blank x-ranges
between the columns running through every line.
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Callable
from typing import Any

import pypdfium2.raw as raw
from pdfplumber.table import TableFinder

from shelfwise.compiler.ingest.convert.pdf_chars import Char, Matrix, compose, display_transform, page_objects

__all__ = ["page_edges", "find_tables", "text_tables", "gap_cells"]

_SAME = 0.01  # points: coordinates this close count as equal (pdfium computes in single precision)
_MIN_EDGE = 3.0  # pdfplumber's edge_min_length: shorter edges never bound a cell


def _subpaths(path: Any, matrix: Matrix) -> list[tuple[list[tuple[float, float]], bool]]:
    """The path's subpaths as display points (bezier control points kept, as pdfminer keeps them) and closed flags."""
    a, b, c, d, e, f = matrix
    x, y = ctypes.c_float(), ctypes.c_float()
    subpaths: list[tuple[list[tuple[float, float]], bool]] = []
    for index in range(raw.FPDFPath_CountSegments(path)):
        segment = raw.FPDFPath_GetPathSegment(path, index)
        if not segment or not raw.FPDFPathSegment_GetPoint(segment, x, y):
            continue
        point = (a * x.value + c * y.value + e, b * x.value + d * y.value + f)
        if raw.FPDFPathSegment_GetType(segment) == raw.FPDF_SEGMENT_MOVETO or not subpaths:
            subpaths.append(([point], False))
        else:
            subpaths[-1][0].append(point)
        if raw.FPDFPathSegment_GetClose(segment):
            subpaths[-1] = (subpaths[-1][0], True)
    return subpaths


def _edge(kind: str, x0: float, top: float, x1: float, bottom: float, orientation: str | None) -> dict:
    return {
        "object_type": kind,
        "x0": x0,
        "x1": x1,
        "top": top,
        "bottom": bottom,
        "doctop": top,
        "width": x1 - x0,
        "height": bottom - top,
        "orientation": orientation,
    }


def _is_rect(points: list[tuple[float, float]]) -> bool:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points[:4]
    same = lambda p, q: abs(p - q) <= _SAME  # noqa: E731
    return (same(x0, x1) and same(y1, y2) and same(x2, x3) and same(y3, y0)) or (same(y0, y1) and same(x1, x2) and same(y2, y3) and same(x3, x0))


def _shape_edges(points: list[tuple[float, float]], closed: bool, height: float) -> list[dict]:
    """pdfminer's reading of one subpath (line, rectangle or curve) as pdfplumber's edges, in top-down coordinates."""
    flipped = [(x, height - y) for x, y in points]
    if len(flipped) == 2 and not (closed and flipped[0] == flipped[1]):  # "ml" or "mlh": a line
        (xa, ya), (xb, yb) = flipped
        horizontal = abs(ya - yb) <= _SAME
        return [_edge("line", min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb), "h" if horizontal else "v")]
    rect_points = flipped[:4] if len(flipped) == 4 and closed else (flipped[:4] if len(flipped) == 5 and flipped[4] == flipped[0] else None)
    if rect_points and _is_rect(rect_points):
        xs, ys = [p[0] for p in rect_points], [p[1] for p in rect_points]
        x0, x1, top, bottom = min(xs), max(xs), min(ys), max(ys)
        return [
            _edge("rect_edge", x0, top, x1, top, "h"),
            _edge("rect_edge", x0, bottom, x1, bottom, "h"),
            _edge("rect_edge", x0, top, x0, bottom, "v"),
            _edge("rect_edge", x1, top, x1, bottom, "v"),
        ]
    edges = []
    for (xa, ya), (xb, yb) in zip(flipped, flipped[1:]):
        orientation = "v" if abs(xa - xb) <= _SAME else ("h" if abs(ya - yb) <= _SAME else None)
        if orientation is not None:
            edges.append(_edge("curve_edge", min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb), orientation))
    return edges


_CLIP_SLACK = 0.5  # points: an edge this close outside its clip box is drawn on the box's border (an axis, a frame)


def _clip_box(obj: Any, matrix: Matrix, height: float) -> tuple[float, float, float, float] | None:
    """The box (x0, top, x1, bottom, top-down display coordinates) a path object is clipped to, or None: the
    intersection of its clip paths' bounding boxes (a clip path is in the object's container's space, ``matrix`` maps
    that to the display)."""
    clip = raw.FPDFPageObj_GetClipPath(obj)
    if not clip:
        return None
    a, b, c, d, e, f = matrix
    x, y = ctypes.c_float(), ctypes.c_float()
    box = None
    for path in range(max(raw.FPDFClipPath_CountPaths(clip), 0)):
        points = []
        for index in range(max(raw.FPDFClipPath_CountPathSegments(clip, path), 0)):
            segment = raw.FPDFClipPath_GetPathSegment(clip, path, index)
            if segment and raw.FPDFPathSegment_GetPoint(segment, x, y):
                points.append((a * x.value + c * y.value + e, height - (b * x.value + d * y.value + f)))
        if not points:
            continue
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        own = (min(xs), min(ys), max(xs), max(ys))
        box = own if box is None else (max(box[0], own[0]), max(box[1], own[1]), min(box[2], own[2]), min(box[3], own[3]))
    return box


def _clipped(edge: dict, box: tuple[float, float, float, float] | None) -> dict | None:
    """The part of ``edge`` its clip box lets show (None: none of it): a bar drawn past a chart's axis and clipped there
    ends at the axis, not in the text below the chart."""
    if box is None:
        return edge
    x0, top, x1, bottom = box
    if edge["orientation"] == "h":
        if not top - _CLIP_SLACK <= edge["top"] <= bottom + _CLIP_SLACK:
            return None
        left, right = max(edge["x0"], x0), min(edge["x1"], x1)
        return _edge(edge["object_type"], left, edge["top"], right, edge["bottom"], "h") if right > left else None
    if not x0 - _CLIP_SLACK <= edge["x0"] <= x1 + _CLIP_SLACK:
        return None
    upper, lower = max(edge["top"], top), min(edge["bottom"], bottom)
    return _edge(edge["object_type"], edge["x0"], upper, edge["x1"], lower, "v") if lower > upper else None


def page_edges(page: Any) -> list[dict]:
    """Every horizontal or vertical edge of the page's vector paths, Form XObjects included, as pdfplumber's dicts, each
    cut to the part its clip path lets show (pdfminer, and so pdfplumber, reads paths unclipped)."""
    ctm, _width, height = display_transform(page)
    own = raw.FS_MATRIX()
    edges: list[dict] = []
    for kind, obj, matrix in page_objects(page):
        if kind != raw.FPDF_PAGEOBJ_PATH or not raw.FPDFPageObj_GetMatrix(obj, own):
            continue
        to_display = compose(compose((own.a, own.b, own.c, own.d, own.e, own.f), matrix), ctm)
        drawn = [edge for points, closed in _subpaths(obj, to_display) if len(points) >= 2 for edge in _shape_edges(points, closed, height)]
        if drawn:  # the clip path is read only for a path that has edges (most curves and glyph outlines have none)
            box = _clip_box(obj, compose(matrix, ctm), height)
            edges.extend(kept for edge in drawn if (kept := _clipped(edge, box)) is not None)
    return edges


def _char_dicts(chars: list[Char]) -> list[dict]:
    """Upright characters as pdfplumber's char dicts, each folded space restored as a space character."""
    dicts: list[dict] = []
    prev: Char | None = None
    for ch in chars:
        if not ch.upright:
            continue
        if ch.space and prev is not None and abs(prev.top - ch.top) < 1 and prev.x1 <= ch.x0:
            dicts.append(_char(" ", prev.x1, ch.x0, ch.top, ch.bottom, ch.size))
        dicts.append(_char(ch.text, ch.x0, ch.x1, ch.top, ch.bottom, ch.size))
        prev = ch
    return dicts


def _char(text: str, x0: float, x1: float, top: float, bottom: float, size: float) -> dict:
    return {"text": text, "x0": x0, "x1": x1, "top": top, "bottom": bottom, "doctop": top, "upright": True, "size": size, "width": x1 - x0, "height": bottom - top}


class _Page:
    """What pdfplumber's TableFinder and Table read of a page: its box, edges and characters."""

    def __init__(self, width: float, height: float, edges: list[dict], chars: list[dict]):
        self.bbox = (0.0, 0.0, width, height)
        self.edges = edges
        self.chars = chars


def find_tables(page: Any, chars: list[Char]) -> list[tuple[tuple[float, float, float, float], list[list[str | None]]]]:
    """(bbox, rows) of each ruled table on the page, as pdfplumber's find_tables() and extract() give them."""
    edges = page_edges(page)
    long_h = sum(1 for e in edges if e["orientation"] == "h" and e["width"] >= _MIN_EDGE)
    long_v = sum(1 for e in edges if e["orientation"] == "v" and e["height"] >= _MIN_EDGE)
    if long_h < 2 or long_v < 2:
        return []  # no grid to find: most pages stop here
    _, width, height = display_transform(page)
    finder = TableFinder(_Page(width, height, edges, []))
    if not finder.tables:
        return []
    dicts = _char_dicts(chars)
    found = []
    for table in finder.tables:
        x0, top, x1, bottom = table.bbox
        inside = [ch for ch in dicts if x0 <= (ch["x0"] + ch["x1"]) / 2 <= x1 and top <= (ch["top"] + ch["bottom"]) / 2 <= bottom]
        table.page = _Page(width, height, edges, inside)  # extract() tests every char of its page against every cell
        found.append((table.bbox, table.extract()))
    return found


_CELL_GAP = 1.0  # a gap between words wider than this many font sizes separates two cells of a borderless table
_MIN_ROWS = 3
_LEADER = re.compile(r"(\.\s?){4,}|…{2,}|\(cid:\d+\)")  # contents lines, and glyphs without text
_PROSE_WORDS = 5  # a column whose median cell holds this many words or more is running text, not a table's cells
_MARKER = re.compile(r"^([•◦▪●○■□‣⁃∙·*–—-]|\(?\d{1,2}[.)]|\(?[a-z][.)])$")


def gap_cells(line: list[dict], gap: float = _CELL_GAP) -> list[list[dict]]:
    """A physical line's words split at gaps wider than ``gap`` font sizes (by default the space between two table
    columns; ``pdf_boxes`` splits at narrower gutters, between boxes of prose set side by side)."""
    cells = [[line[0]]]
    for word in line[1:]:
        prev = cells[-1][-1]
        if word["x0"] - prev["x1"] > gap * max(prev["size"], word["size"]):
            cells.append([word])
        else:
            cells[-1].append(word)
    return cells


def _columns(rows: list[list[list[dict]]]) -> list[tuple[float, float]]:
    """The x-ranges the rows' cells cover, merged: the blank 'rivers' between them separate the columns."""
    spans = sorted((min(w["x0"] for w in cell), max(w["x1"] for w in cell)) for row in rows for cell in row)
    merged = [list(spans[0])]
    for x0, x1 in spans[1:]:
        if x0 <= merged[-1][1] + 2.0:
            merged[-1][1] = max(merged[-1][1], x1)
        else:
            merged.append([x0, x1])
    return [(a, b) for a, b in merged]


def _in_column(x0: float, column: tuple[float, float]) -> bool:
    """Whether a cell starting at ``x0`` stands in ``column`` (half a point of slack)."""
    return column[0] - 0.5 <= x0 <= column[1] + 0.5


def _grid(rows: list[list[list[dict]]], columns: list[tuple[float, float]]) -> list[list[str]]:
    grid = []
    for row in rows:
        cells = [""] * len(columns)
        for cell in row:
            x0 = min(w["x0"] for w in cell)
            index = next(i for i, column in enumerate(columns) if _in_column(x0, column))
            cells[index] = " ".join(filter(None, [cells[index], " ".join(w["text"] for w in cell)]))
        grid.append(cells)
    return grid


def _is_table(rows: list[list[list[dict]]], columns: list[tuple[float, float]]) -> bool:
    """Aligned columns of short cells: each column filled in most rows, no list bullets, not two columns of prose."""
    if len(rows) < _MIN_ROWS or len(columns) < 2:
        return False
    grid = _grid(rows, columns)
    filled = [sum(1 for cell in row if cell) for row in grid]
    if sum(1 for n in filled if n >= 2) < max(_MIN_ROWS, 0.6 * len(rows)):
        return False
    if any(sum(1 for row in grid if row[i]) < 0.5 * len(rows) for i in range(len(columns))):
        return False  # a column almost empty: labels scattered in a drawing, not a table
    if sum(1 for row in grid if _MARKER.match(row[0])) > 0.3 * len(rows):
        return False  # bullets or numbers set apart from their text: a list
    width = columns[-1][1] - columns[0][0]
    if len(columns) == 2 and max(b - a for a, b in columns) > 0.4 * width:
        return False  # two wide columns: a two-column page of prose
    prose = 0
    for i in range(len(columns)):
        counts = sorted(len(row[i].split()) for row in grid if row[i])
        prose += counts[len(counts) // 2] >= _PROSE_WORDS
    if prose >= 2:
        return False  # two columns of running text (with a figure or gutter between): a page, not a table
    words_per_cell = sum(len(cell) for row in rows for cell in row) / sum(len(row) for row in rows)
    return words_per_cell <= 6


def _beside_prose(rows: list[list[list[dict]]], columns: list[tuple[float, float]]) -> list[list[list[dict]]] | None:
    """The rows without their first or last column when that column is running text set justified (most of its cells
    hold five words or more and end at one right edge, within a type size: the lines of a column of prose, "concept of
    proposition and how a passage can be", beside a small table in the page's other column); None otherwise. A table's
    labels, however long, are set ragged."""
    if len(columns) < 3:
        return None
    for index in (0, len(columns) - 1):
        cells = [cell for row in rows for cell in row if _in_column(min(w["x0"] for w in cell), columns[index])]
        if len(cells) < _MIN_ROWS or sorted(len(c) for c in cells)[len(cells) // 2] < _PROSE_WORDS:
            continue
        right = max(w["x1"] for c in cells for w in c)
        size = max(w["size"] for c in cells for w in c)
        if sum(1 for c in cells if right - max(w["x1"] for w in c) <= size) < 2 / 3 * len(cells):
            continue
        kept = [[cell for cell in row if not _in_column(min(w["x0"] for w in cell), columns[index])] for row in rows]
        return [row for row in kept if row]
    return None


def text_tables(lines: list[list[dict]], mono: Callable[[dict], bool]) -> tuple[list[tuple[tuple[float, float, float, float], list[list[str]]]], set[int]]:
    """Tables drawn without ruling lines: runs of at least three lines whose words stand in the same columns.

    ``lines`` are a page's physical lines (words sorted by x), top to bottom. Returns
    each table's (bbox, rows) and the ids of the words it took.
    """
    found, used = [], set()
    run: list[list[list[dict]]] = []

    def close() -> None:
        nonlocal run
        for _attempt in range(3):  # the run, then without one or two leading lines (a caption or heading set in columns)
            if len(run) < _MIN_ROWS:
                break
            columns = _columns(run)
            if (beside := _beside_prose(run, columns)) is not None:
                run = beside  # a table in one column of a two-column page, the other column's lines left to the text
                columns = _columns(run)
            if _is_table(run, columns):
                words = [w for row in run for cell in row for w in cell]
                bbox = (min(w["x0"] for w in words), min(w["top"] for w in words), max(w["x1"] for w in words), max(w["bottom"] for w in words))
                found.append((bbox, _grid(run, columns)))
                used.update(id(w) for w in words)
                break
            run = run[1:]
        run = []

    for line in lines:
        cells = gap_cells(line)
        size = max(w["size"] for w in line)
        tight = run and line[0]["top"] - max(w["bottom"] for cell in run[-1] for w in cell) < 1.5 * size
        if len(cells) >= 2 and not any(mono(w) or _LEADER.search(w["text"]) for w in line):  # contents lines (dot leaders) are not columns
            if run and not tight:
                close()
            run.append(cells)
        else:
            close()
    close()
    return found, used
