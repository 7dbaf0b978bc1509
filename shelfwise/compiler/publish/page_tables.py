"""Document tables as HTML a reader can use: escaped cells, a header row that stays in view, a first column
that stays put while a wide table scrolls sideways, identifiers and dates kept whole, figures ("$ 63,355",
"(265)", "42.5%") whole and aligned right, and an anchor per row.

Row anchors are ``<section id>-r<n>``, n counting the rows (header rows included) of every table of the
section from 1, so a citation into a table can land on its row (the ask widget finds the row whose cells,
joined by " | ", are the cited text). Every cell goes through ``html.escape``: document text is printed,
never interpreted. The HTML is one block with no blank line, so Markdown passes it through untouched.
"""

from __future__ import annotations

import html
import re

from shelfwise.compiler.publish.inert import Md

__all__ = ["KEEP_WHOLE", "keep_whole", "table_html"]

# A cell kept on one line: one token (an id, a code, a number), or a short cell holding a date.
KEEP_WHOLE = 32
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2} [A-Z][a-z]{2,8}\.? \d{4}|[A-Z][a-z]{2,8}\.? \d{1,2},? \d{4})\b")


def keep_whole(text: str) -> bool:
    """Whether a cell should not wrap: a single token of at most KEEP_WHOLE characters, or a short date."""
    if not text:
        return False
    if " " not in text and len(text) <= KEEP_WHOLE:
        return True
    return len(text) <= 24 and bool(_DATE.search(text))


_FIGURE = re.compile(r"^(?:[$€£¥]\s?)?\(?[-–−]?(?:[$€£¥]\s?)?\d[\d,]*(?:\.\d+)?\)?\s?%?\)?$|^(?:[$€£¥]\s?)?[—–-]$")

# inside a cell that wraps, a hyphenated token with a digit ("DPG-200", "2025-10-14") stays on one line
_TOKEN = re.compile(r"[^\s-]*\d[^\s-]*(?:-[^\s-]+)+|[^\s-]+(?:-[^\s-]*\d[^\s-]*)+")


def _cell(tag: str, text: str, extra: str = "") -> str:
    flat = " ".join(str(text).split())
    if tag == "td" and _FIGURE.match(flat):  # a figure with its sign, "$ 63,355", "(265)", "42.5%": whole, aligned right
        return f'<{tag}{extra} class="sw-nw sw-num">{html.escape(flat, quote=True)}</{tag}>'
    if keep_whole(flat):
        return f'<{tag}{extra} class="sw-nw">{html.escape(flat, quote=True)}</{tag}>'
    parts, last = [], 0
    for match in _TOKEN.finditer(flat):
        parts.append(html.escape(flat[last:match.start()], quote=True))
        parts.append(f'<span class="sw-nw">{html.escape(match.group(0), quote=True)}</span>')
        last = match.end()
    parts.append(html.escape(flat[last:], quote=True))
    return f"<{tag}{extra}>{''.join(parts)}</{tag}>"


def table_html(rows: list[list[str]], header_rows: int, section_id: str, first_row: int, name: str | None = None,
               where: str = "") -> tuple[Md, int]:
    """The table as one HTML block, its rows anchored from ``first_row``; returns (html, rows written).
    ``where`` (the section's heading) names an untitled table for screen readers."""
    width = max((len(row) for row in rows), default=0)
    if width == 0:
        return Md(""), 0
    grid = [list(row) + [""] * (width - len(row)) for row in rows]
    label = html.escape(" ".join((name or (f"Table in {where}" if where else "Table")).split()), quote=True)
    wide = " sw-wide" if width >= 5 else ""
    parts = [f'<div class="sw-table{wide}" role="region" aria-label="{label}" tabindex="0">',
             f'<table class="sw-grid">']
    if name:
        parts.append(f"<caption>{label}</caption>")
    head = grid[:header_rows] if header_rows >= 1 else []
    number = first_row
    if head:
        parts.append("<thead>")
        for row in head:
            cells = "".join(_cell("th", c, ' scope="col"') for c in row)
            parts.append(f'<tr id="{section_id}-r{number}">{cells}</tr>')
            number += 1
        parts.append("</thead>")
    parts.append("<tbody>")
    for row in grid[len(head):]:
        cells = _cell("th", row[0], ' scope="row"') + "".join(_cell("td", c) for c in row[1:])
        parts.append(f'<tr id="{section_id}-r{number}">{cells}</tr>')
        number += 1
    parts.append("</tbody></table></div>")
    return Md("\n".join(parts)), number - first_row
