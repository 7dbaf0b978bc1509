"""An answer's Markdown with the documents' markup made inert: shown as text, never run or fetched by a client that
renders it (``api.inert_markup``; on by default for /v1/chat/completions).

An answer quotes documents verbatim, so a document's ``<script>``, ``[click](javascript:...)`` or
``![x](file:///etc/passwd)`` would reach a chat client's Markdown renderer as markup. As on the site
(shelfwise/compiler/publish/inert.py: document text printed, never interpreted), the quoted text is neutralised by
escaping; the answer's own structure stays: paragraphs, lists, tables, bold labels, its ``[section id]``
citations (turned into links to the site only afterwards, by shelfwise/api/cite_links.py).

Outside code blocks: ``<`` becomes ``&lt;`` (no raw HTML, no comments, no ``<scheme:...>`` autolinks); the
brackets of links, images and link reference definitions get a backslash (``\\](``, ``!\\[``, ``\\]:``), so no
document URL becomes a link or an image whatever its scheme or entity encoding; ``{`` gets one (no Python-Markdown
attribute lists such as ``{: onclick=...}``). Code blocks are left as they are when every renderer agrees they are
code: a fence at the start of a line (backticks or tildes, at most a word after it) closed by the same fence at the
start of a line, as the answer's own code blocks are written (shelfwise/api/answer/render.py). Anywhere else,
including inline code spans, the escapes apply: a renderer that disagrees about where code starts or ends must
never get raw markup, and inside code an escape shows as itself at worst.
"""

from __future__ import annotations

import re

__all__ = ["inert_markdown"]

_OPEN = re.compile(r"(`{3,}|~{3,})[\w#.+-]*[ ]*")
_LIVE = r"(?<!\\)((?:\\\\)*)"  # a character after an even number of backslashes (none included) is live markup
_ESCAPES = [
    (re.compile(r"<"), "&lt;"),
    (re.compile(_LIVE + r"!\["), r"\1!\\["),
    (re.compile(_LIVE + r"\](?=[(:\[])"), r"\1\\]"),
    (re.compile(_LIVE + r"\{"), r"\1\\{"),
]


def _escape(line: str) -> str:
    for pattern, replacement in _ESCAPES:
        line = pattern.sub(replacement, line)
    return line


def _closing(lines: list[str], start: int, fence: str) -> int | None:
    """The index of the line closing the fence opened above ``start``, when CommonMark and Python-Markdown both
    close it there (the first line that could close it is the fence itself at the start of the line); else None."""
    could_close = re.compile(r" {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*")
    for index in range(start, len(lines)):
        if could_close.fullmatch(lines[index]):
            return index if lines[index].rstrip(" ") == fence else None
    return None


def inert_markdown(markdown: str) -> str:
    """``markdown`` with raw HTML, links, images, reference definitions and attribute lists shown as text (see above)."""
    lines = markdown.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        opened = _OPEN.fullmatch(line)
        end = _closing(lines, index + 1, opened.group(1)) if opened else None
        if end is not None:
            out.extend(lines[index:end + 1])
            index = end + 1
            continue
        out.append(_escape(line))
        index += 1
    return "\n".join(out)
