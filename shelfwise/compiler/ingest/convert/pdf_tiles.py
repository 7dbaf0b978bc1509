"""Figure tiles: a row of key figures, each over the lines that say what it is, read as one text per tile.

A report's overview page sets its key figures side by side, each figure over its basis and a few wrapped lines of what
it is ("$12.9B" over "GAAP" over "Revenue down $2.4B or" over "15% from Q2 2022"). The words stand in columns, so the
table finder reads a grid whose first row holds the figures and whose other rows hold the pieces of the tiles' lines:
"Revenue down $2.4B or | Gross margin | ..." is no record, and no column header heads the figures. ``tile_texts`` reads
such a grid column by column, each tile one text, in its own words and order ("$12.9B GAAP Revenue down $2.4B or 15%
from Q2 2022"); any other grid is left to be a table.
"""

from __future__ import annotations

import re

from shelfwise.compiler.ingest.convert.pdf_lines import joined

__all__ = ["tile_texts"]

_FIGURE = re.compile(r"^\(?[-–−+]?(?:[$€£¥]\s?)?\(?[-–−]?\d[\d,]*(?:\.\d+)?\)?\s?(?:%|[KMBT]|bn|billion|million)?\)?$")
_GOES_ON = re.compile(r"^(?:[a-z]|[-–−+]?[$€£¥(]?\d)")  # a wrapped line goes on in lower case or with a figure


def tile_texts(rows: list[list[str]], vocabulary: set[str]) -> list[str] | None:
    """One text per tile when ``rows`` are figure tiles: a first row of figures only (two or more), words under each
    (fewer figures alone than words: a year may end a wrapped line), and in at least half of the figures' columns a
    line that goes on from the one above it (lower case or a figure: "down 0.7 ppt" under "Gross margin", "15% from Q2
    2022" under "Revenue down $2.4B or"); else None."""
    if len(rows) < 3 or not rows[0]:
        return None
    first = [cell.strip() for cell in rows[0]]
    columns = [c for c, cell in enumerate(first) if cell]
    if len(columns) < 2 or not all(_FIGURE.match(first[c]) for c in columns):
        return None
    texts, wrapped = [], 0
    for c in columns:
        lines = [" ".join(line.split()) for row in rows if c < len(row) for line in row[c].split("\n") if line.strip()]
        if 2 * sum(1 for line in lines[1:] if _FIGURE.match(line)) >= len(lines) - 1:
            return None  # figures under a figure: a table of figures (years over amounts), not a tile's words
        wrapped += any(_GOES_ON.match(below) and not above.endswith((".", ":", ";")) for above, below in zip(lines[1:], lines[2:]))
        texts.append(joined("\n".join(lines), vocabulary))
    return texts if 2 * wrapped >= len(columns) else None
