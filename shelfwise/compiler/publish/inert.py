"""Document text as inert Markdown: shown literally, never interpreted as HTML or Markdown.

Page templates (shelfwise/compiler/publish/pages.py) print document text through ``finalize``:
every ``{{ value }}`` that is a plain string is escaped; only :class:`Md`
values, which our own code builds (anchors, links to our pages, tables whose
cells it escaped), pass through. A template (including a shelf's override)
therefore cannot print document text unescaped by forgetting a filter.

Escaping: ``& < >`` become entities (no raw HTML, no autolinks, no entities
of the document's own); the characters Python-Markdown treats as syntax
(emphasis, code, links, images, attribute lists, table pipes) get a backslash;
a line never starts with a block marker (heading, quote, list, rule).
"""

from __future__ import annotations

import re

from shelfwise.compiler.store.records import table_line

__all__ = ["Md", "escape_inline", "finalize", "code_block", "table", "link", "heading", "alias_anchors"]


class Md(str):
    """Markdown built by shelfwise's own code; printed as is by page templates."""


# The characters Python-Markdown (with the tables extension) honours a backslash escape for, minus
# the ones that are harmless mid-line ('.', '-', '+', '(', ')', '>'), which are handled at line start.
_INLINE = re.compile(r"([\\`*_{}\[\]!|#])")
_LINE_START = re.compile(r"^([>+=~-]|\d+(?=[.)]))")


def escape_inline(text: object) -> Md:
    """``text`` on one line, every Markdown and HTML control character neutralised."""
    flat = " ".join(str(text).split())
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    flat = _INLINE.sub(r"\\\1", flat)
    match = _LINE_START.match(flat)
    if match:
        if match.group(1)[0].isdigit():  # "1. text" would start an ordered list: escape the dot
            end = match.end()
            flat = flat[:end] + "\\" + flat[end:]
        else:
            flat = "\\" + flat if flat[0] in "+-" else "&#" + str(ord(flat[0])) + ";" + flat[1:]
    return Md(flat)


def finalize(value: object) -> str:
    """Jinja ``finalize`` hook: our Markdown passes, anything else is escaped; None prints nothing."""
    if value is None:
        return ""
    if isinstance(value, Md):
        return value
    return escape_inline(value)


def code_block(text: str) -> Md:
    """A fenced code block whose fence is longer than any backtick run in ``text`` (so it cannot be closed early)."""
    runs = [len(run) for run in re.findall(r"`+", text)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    body = "\n".join(line.rstrip() for line in text.strip("\n").splitlines())
    return Md(f"{fence}text\n{body}\n{fence}")


def table(rows: list[list[str]], header_rows: int = 0) -> Md:
    """A Markdown table with escaped cells; the first row heads it (an empty header when the grid has none)."""
    width = max((len(row) for row in rows), default=0)
    if width == 0:
        return Md("")
    grid = [[escape_inline(cell) for cell in row] + [Md("")] * (width - len(row)) for row in rows]
    if header_rows >= 1:
        head, body = grid[0], grid[1:]
    else:
        head, body = [Md(" ")] * width, grid
    lines = [table_line(head), "|" + "---|" * width]
    lines += [table_line(row) for row in body]
    return Md("\n".join(lines))


def link(label: object, url: str) -> Md:
    """A link with an escaped label to ``url``, a page path our code made (never a document's URL)."""
    if not re.fullmatch(r"[A-Za-z0-9._/#-]*", url) or url.startswith("//"):
        raise ValueError(f"refusing to link to {url!r}: page links are built from ids only")
    return Md(f"[{escape_inline(label)}]({url})")


def _check_anchor(anchor: str) -> None:
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", anchor):
        raise ValueError(f"bad anchor {anchor!r}: anchors are section ids")


def alias_anchors(anchors: list[str]) -> Md | None:
    """Empty elements holding the old ids of a renamed section, set just above its heading (None: no old ids)."""
    for anchor in anchors:
        _check_anchor(anchor)
    return Md("".join(f'<span id="{anchor}" class="sw-moved"></span>' for anchor in anchors)) if anchors else None


def heading(level: int, text: object, anchor: str) -> Md:
    """A Markdown heading (level capped at 6) whose id is ``anchor`` (attr_list)."""
    _check_anchor(anchor)
    return Md("#" * max(1, min(level, 6)) + " " + (escape_inline(text) or "(untitled)") + " {#" + anchor + "}")
