"""Boxes of prose set side by side on a PDF page (a report's summary panel), found among its physical lines.

``pdf_layout`` reads a page's physical lines in columns when a page has two (a gutter across its middle); a row of three
boxes or more, each a few lines of prose under a key figure or a chart, has gutters anywhere. ``boxed_columns`` finds
such runs so that each box is read as one text, left to right, not line by line across the boxes.
"""

from __future__ import annotations

from shelfwise.compiler.ingest.convert.pdf_chars import LINE_GAP
from shelfwise.compiler.ingest.convert.pdf_tables import gap_cells

__all__ = ["boxed_columns", "prose", "PROSE_LETTERS", "BOX_GAP", "BOX_ALIGN", "BOX_WORDS"]

PROSE_LETTERS = 0.6
"""A line of prose is at least this share letters (of its characters but spaces); a table's row of figures read as a
line ("$ (153) $ 300 $ (475) $ 694", "Jul 1, 2023 Jul 2, 2022") is not."""


def prose(text: str) -> bool:
    """Whether a line reads as prose: ``PROSE_LETTERS`` of its characters (but spaces) are letters."""
    chars = [c for c in text if not c.isspace()]
    return bool(chars) and sum(c.isalpha() for c in chars) >= PROSE_LETTERS * len(chars)


BOX_GAP = 0.6
"""A gap between two words of a physical line wider than this share of the type size may be a gutter between boxes of
text set side by side (a space between words is about a quarter of it)."""
BOX_ALIGN = 2.0
"""Points within which the first words of one box's lines start."""
BOX_WORDS = 3
"""Words a box's lines hold on average: a box of prose (a figure's scattered labels hold one or two)."""


def _gutters(run: list[list[dict]]) -> list[float]:
    """The x positions where, in two lines of ``run`` or more, a chunk of words starts after a gutter (a gap wider than
    ``BOX_GAP`` of the type: ``pdf_tables.gap_cells``), each the leftmost start within ``BOX_ALIGN`` of it."""
    starts = sorted(chunk[0]["x0"] for line in run for chunk in gap_cells(line, BOX_GAP)[1:])
    groups: list[list[float]] = []
    for x in starts:
        if groups and x - groups[-1][0] <= BOX_ALIGN:
            groups[-1].append(x)
        else:
            groups.append([x])
    return [group[0] for group in groups if len(group) >= 2]


def boxed_columns(physical: list[list[dict]]) -> tuple[list[list[list[list[dict]]]], list[list[dict]]]:
    """Runs of physical lines set as three or more boxes of prose side by side (a report's summary panel: "Lower revenue
    in CCG, | Lower GAAP gross margin from | Lower GAAP EPS attributable to | Lower operating cash flow driven"): each
    line split at the gutters the run's lines share. Read as lines, the boxes' sentences were interleaved across the
    page. Returns (per run, top to bottom, its boxes left to right, each box's lines top to bottom, each line's words;
    the physical lines left). A run is lines closer than ``pdf_chars.LINE_GAP`` of their type (a block's), two gutters
    or more aligned in two lines or more and crossed by no word, and each box two lines or more of prose, ``BOX_WORDS``
    words a line (a table's row of figures is no prose, a figure's scattered labels are too few words)."""
    boxes: list[list[list[list[dict]]]] = []
    rest: list[list[dict]] = []
    runs: list[list[list[dict]]] = []
    for line in sorted(physical, key=lambda ln: min(w["top"] for w in ln)):
        size = max(w["size"] for w in line)
        if runs and 0 <= min(w["top"] for w in line) - max(w["bottom"] for w in runs[-1][-1]) < LINE_GAP * size:
            runs[-1].append(line)
        else:
            runs.append([line])
    for run in runs:
        columns = _boxes(run)
        if columns:
            boxes.append([[part for part in column if part] for column in columns if any(column)])
        else:
            rest.extend(run)
    return boxes, rest


def _boxes(run: list[list[dict]]) -> list[list[list[dict]]]:
    """The boxes of a run of lines (per box, per line, its words), or [] when the run is no row of boxes of prose
    (``boxed_columns``)."""
    gutters = _gutters(run) if len(run) >= 2 else []
    if len(gutters) < 2 or any(w["x0"] < g - BOX_ALIGN and w["x1"] > g for line in run for w in line for g in gutters):
        return []  # fewer than three boxes, or a word crossing a gutter: no row of boxes
    columns = [[[w for w in line if (left is None or w["x0"] >= left - BOX_ALIGN) and (right is None or w["x0"] < right - BOX_ALIGN)]
                for line in run] for left, right in zip([None, *gutters], [*gutters, None])]
    if sum(1 for n in range(len(run)) if sum(1 for column in columns if column[n]) >= 3) < 2:
        return []  # three boxes side by side in two lines at least
    for column in columns:
        parts = [part for part in column if part]
        if len(parts) < 2 or sum(map(len, parts)) < BOX_WORDS * len(parts) or not all(prose(" ".join(w["text"] for w in p)) for p in parts):
            return []
    return columns
