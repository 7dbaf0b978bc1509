"""Ruled tables of one page: pdfplumber's table finder fed with pdfium's paths and characters.

pdfplumber finds a table where ruling lines cross (its "lines" strategy), but
to get those lines it has pdfminer parse the whole page, which is slow on pages
full of vector drawings. Here the same edges are taken from pdfium's path
objects, the way pdfminer turns paths into lines, rectangles and curves and
pdfplumber turns those into edges, and handed with pdfium's characters to
pdfplumber's own ``TableFinder``; cells are filled by pdfplumber's
``Table.extract``. Nothing is parsed twice.
"""

from __future__ import annotations

import ctypes
from typing import Any

import pypdfium2.raw as raw
from pdfplumber.table import TableFinder

from compiler.convert.pdf_chars import Char, Matrix, compose, display_transform, page_objects

__all__ = ["page_edges", "find_tables"]

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


def page_edges(page: Any) -> list[dict]:
    """Every horizontal or vertical edge of the page's vector paths, Form XObjects included, as pdfplumber's dicts."""
    ctm, _width, height = display_transform(page)
    own = raw.FS_MATRIX()
    edges: list[dict] = []
    for kind, obj, matrix in page_objects(page):
        if kind != raw.FPDF_PAGEOBJ_PATH or not raw.FPDFPageObj_GetMatrix(obj, own):
            continue
        to_display = compose(compose((own.a, own.b, own.c, own.d, own.e, own.f), matrix), ctm)
        for points, closed in _subpaths(obj, to_display):
            if len(points) >= 2:
                edges.extend(_shape_edges(points, closed, height))
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
