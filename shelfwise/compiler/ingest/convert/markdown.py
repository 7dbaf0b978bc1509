"""Markdown reader: a line-based pass that keeps each paragraph's source text.

docling would render inline markup away; citations quote the source with its
``code``, *emphasis* and [links](#anchor) intact, so this reader keeps every
paragraph, list item and heading as written (lines joined by single spaces).
It knows ATX and setext headings, fenced and indented code, pipe tables,
HTML tables, list items (and HTML ``<ol>``/``<ul>`` lists, nested ones too, each ``<li>`` an item, tags removed),
definition lists (``Term`` then ``: description``, and
HTML ``<dl>``; each item "term: description", its term kept as the item's name),
block quotes, images (figures with their alt text as caption) and YAML front matter (skipped from the body; its ``title:`` becomes
the document title). Invisible ``<a name=...></a>`` anchors are removed from
headings; other inline HTML and entities are kept as written.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.textio import read_text
from shelfwise.compiler.store.records import Converted, Element, definition_text, table_text

__all__ = ["read", "parse_markdown"]

READER_VERSION = "4"  # 3: definition lists read as items; 4: HTML lists read as items

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*)|$)")
_DELIM = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-*:?\s*)*\|?\s*$")
_ANCHOR = re.compile(r"<a\s+(?:name|id)\s*=\s*[\"'][^\"']*[\"']\s*>\s*</a>", re.IGNORECASE)
_ATTRS = re.compile(r"\s*\{:?\s*[#.][^}]*\}\s*$")
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]*)(?:\s+\"([^\"]*)\")?\)")
_HTML_TAG_LINE = re.compile(r"^\s*(?:</?(?:div|span|p|center|section|br|hr)\b[^>]*>\s*)+$", re.IGNORECASE)
_DEFINITION = re.compile(r"^ {0,3}:[ \t]+(\S.*)$")
_TERM_CHARS = 80  # a line longer than this is a paragraph, not a definition list's term
_HTML_BLOCK = re.compile(r"^ {0,3}<(?:table|pre|ul|ol|dl|blockquote|figure|details|!--|[a-zA-Z][\w-]*)[\s>/]", re.IGNORECASE)


def _clean_heading(text: str) -> str:
    text = _ANCHOR.sub(" ", text)
    text = _ATTRS.sub("", text)
    return " ".join(text.split())


def _split_row(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    cells = re.split(r"(?<!\\)\|", line)
    return [cell.strip() for cell in cells]


class _HtmlDefinitions(HTMLParser):
    """(terms, description) of each ``<dd>`` of an HTML ``<dl>`` block, tags removed and entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[tuple[str, str]] = []
        self._terms: list[str] = []
        self._open: str | None = None  # the dt or dd being read
        self._last: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("dt", "dd"):
            self._close()
            if tag == "dt" and self._last == "dd":
                self._terms = []  # a new entry's first term
            self._open, self._text = tag, []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("dt", "dd", "dl"):
            self._close()

    def handle_data(self, data: str) -> None:
        if self._open:
            self._text.append(data)

    def _close(self) -> None:
        if self._open is None:
            return
        text = " ".join("".join(self._text).split())
        if self._open == "dt" and text:
            self._terms.append(text)
        elif self._open == "dd" and text and self._terms:
            self.items.append((", ".join(self._terms), text))
        self._last, self._open = self._open, None


class _HtmlList(HTMLParser):
    """The items of an HTML ``<ol>`` or ``<ul>`` block, a nested list's after the item holding it: each ``<li>``'s own
    text (up to a list it holds), tags removed and entities decoded. SP 800-63A writes its requirements so: read as one
    paragraph, a correction quoted "... maximum of 7 days.</li> </ol> </li> <li><strong>If the CSP ..." with its tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[str] = []
        self._open: list[list[str]] = []  # the text of each open <li>, innermost last

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag == "li":
            self._open.append([])
        elif tag in ("ol", "ul") and self._open:
            self._emit()  # the open item's own text ends where the list it holds begins
        elif tag == "br" and self._open:
            self._open[-1].append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and self._open:
            self._emit()
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1].append(data)

    def _emit(self) -> None:
        text = " ".join("".join(self._open[-1]).split())
        if text:
            self.items.append(text)
        self._open[-1] = []


_LIST_OPEN = re.compile(r"<(?:ol|ul)\b", re.IGNORECASE)
_LIST_CLOSE = re.compile(r"</(?:ol|ul)\s*>", re.IGNORECASE)


def _list_end(lines: list[str], start: int) -> int | None:
    """The line after the one closing the HTML list opened at ``lines[start]`` (nested lists counted), or None when it
    is never closed."""
    depth = 0
    for index in range(start, len(lines)):
        depth += len(_LIST_OPEN.findall(lines[index])) - len(_LIST_CLOSE.findall(lines[index]))
        if depth <= 0:
            return index + 1
    return None


class _HtmlTable(HTMLParser):
    """Rows of an HTML ``<table>`` block, cell text with tags removed and entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.header_rows = 0
        self._cell: list[str] | None = None
        self._row_is_header = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
            self._row_is_header = True
        elif tag in {"td", "th"}:
            self._cell = []
            self._row_is_header = self._row_is_header and tag == "th"
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in {"td", "th"} and self._cell is not None:
            if not self.rows:
                self.rows.append([])
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self.rows and self._row_is_header and self.header_rows == len(self.rows) - 1:
            self.header_rows += 1

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _front_matter(lines: list[str]) -> tuple[int, str | None]:
    """Lines to skip for a leading YAML front matter block, and its ``title:`` value."""
    if not lines or lines[0].strip() != "---":
        return 0, None
    for end in range(1, min(len(lines), 400)):
        if lines[end].strip() in {"---", "..."}:
            title = None
            for line in lines[1:end]:
                match = re.match(r"^title:\s*(.+?)\s*$", line)
                if match:
                    title = match.group(1).strip("'\"")
            return end + 1, title
    return 0, None


def _open_term(elements: list[Element]) -> str | None:
    """The term a ": description" line after a blank line belongs to: a one-line paragraph just before it, or the
    term of the definition just before it (a second description of one term)."""
    last = elements[-1] if elements else None
    if last is not None and last.kind == "paragraph" and len(last.text) <= _TERM_CHARS and not last.text.endswith((".", ":")):
        return last.text
    if last is not None and last.kind == "list_item" and last.name:
        return last.name
    return None


class _Parser:
    """The state of one pass over a Markdown text: the elements so far, and the open paragraph or list item."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.elements: list[Element] = []
        self.para: list[str] = []
        self.item: list[str] | None = None
        self.term: str | None = None  # the term of the definition ``item`` holds
        self.prev_blank = True

    def flush(self) -> None:
        """Close the open paragraph or list item into an element."""
        if self.item is not None:
            joined = " ".join(part.strip() for part in self.item if part.strip())
            if self.term is not None:
                self.elements.append(Element(kind="list_item", text=definition_text(self.term, joined), name=self.term))
            else:
                self.elements.append(Element(kind="list_item", text=joined))
            self.item, self.term = None, None
        if self.para:
            joined = " ".join(line.strip() for line in self.para)
            images = _IMAGE.findall(joined)
            if images and not _IMAGE.sub("", joined).strip():
                for alt, src, caption in images:
                    if alt.strip() or caption.strip():
                        self.elements.append(Element(kind="figure", text=(caption or alt).strip(), name=src))
            elif joined:
                self.elements.append(Element(kind="paragraph", text=joined))
            self.para = []

    def parse(self, i: int) -> list[Element]:
        """The elements of the lines from ``i`` on, each line read by the first reader that takes it."""
        while i < len(self.lines):
            line = self.lines[i]
            stripped = line.strip()
            step = self._structure(i, line, stripped)
            if step is None:
                step = self._html(i, line, stripped)
            if step is None:
                step = self._text(i, line, stripped)
            i = step
        self.flush()
        return self.elements

    def _structure(self, i: int, line: str, stripped: str) -> int | None:
        """Blank lines, fenced code, headings, thematic breaks and pipe tables; the next line, or None."""
        if not stripped:
            self.flush()
            self.prev_blank = True
            i += 1
            return i
        fence = _FENCE.match(line)
        if fence and (fence.group(2)[0] == "~" or "`" not in fence.group(3)):
            self.flush()
            mark = fence.group(2)
            body: list[str] = []
            i += 1
            while i < len(self.lines) and not (self.lines[i].strip().startswith(mark[0] * len(mark)) and not self.lines[i].strip().strip(mark[0])):
                body.append(self.lines[i])
                i += 1
            self.elements.append(Element(kind="code", text="\n".join(body), name=fence.group(3).strip() or None))
            i += 1
            self.prev_blank = False
            return i
        atx = _ATX.match(line)
        if atx:
            self.flush()
            heading = _clean_heading(atx.group(2) or "")
            if heading:
                self.elements.append(Element(kind="heading", text=heading, level=len(atx.group(1))))
            i += 1
            self.prev_blank = False
            return i
        if self.para and self.item is None and _SETEXT.match(line) and not self.para[-1].lstrip().startswith(("|", "<")):
            heading = _clean_heading(" ".join(self.para))
            self.para = []
            self.elements.append(Element(kind="heading", text=heading, level=1 if stripped[0] == "=" else 2))
            i += 1
            self.prev_blank = False
            return i
        if _BREAK.match(line) and not self.para:
            self.flush()
            i += 1
            self.prev_blank = True
            return i
        if "|" in line and i + 1 < len(self.lines) and _DELIM.match(self.lines[i + 1]) and "-" in self.lines[i + 1] and not self.para:
            self.flush()
            rows = [_split_row(line)]
            i += 2
            while i < len(self.lines) and self.lines[i].strip() and "|" in self.lines[i]:
                rows.append(_split_row(self.lines[i]))
                i += 1
            self.elements.append(Element(kind="table", text=table_text(rows), rows=rows, header_rows=1))
            self.prev_blank = False
            return i
        return None

    def _html(self, i: int, line: str, stripped: str) -> int | None:
        """Layout tags, HTML tables, definition lists and blocks; the next line, or None."""
        if _HTML_TAG_LINE.match(line) or (_ANCHOR.fullmatch(stripped)):
            self.flush()  # layout wrappers and invisible anchors: no text of their own
            i += 1
            self.prev_blank = True
            return i
        if stripped.lower().startswith("<table") and not self.para:
            self.flush()
            block: list[str] = []
            while i < len(self.lines):
                block.append(self.lines[i])
                i += 1
                if "</table>" in block[-1].lower():
                    break
            parser = _HtmlTable()
            parser.feed("\n".join(block))
            rows = [row for row in parser.rows if row]
            if rows:
                self.elements.append(Element(kind="table", text=table_text(rows), rows=rows, header_rows=parser.header_rows))
            self.prev_blank = False
            return i
        if stripped.lower().startswith("<dl") and not self.para:
            self.flush()
            block = []
            while i < len(self.lines):
                block.append(self.lines[i])
                i += 1
                if "</dl>" in block[-1].lower():
                    break
            definitions = _HtmlDefinitions()
            definitions.feed("\n".join(block))
            definitions.close()
            self.elements.extend(Element(kind="list_item", text=definition_text(t, d), name=t) for t, d in definitions.items)
            self.prev_blank = False
            return i
        end = _list_end(self.lines, i) if _LIST_OPEN.match(stripped) and not self.para else None
        if end is not None:  # a list never closed is read as the HTML block it starts, up to a blank line (below)
            self.flush()
            listed = _HtmlList()
            listed.feed("\n".join(self.lines[i:end]))
            listed.close()
            self.elements.extend(Element(kind="list_item", text=text) for text in listed.items)
            self.prev_blank = False
            return end
        if self.prev_blank and _HTML_BLOCK.match(line) and not self.para and self.item is None:
            self.flush()
            block = []
            while i < len(self.lines) and self.lines[i].strip():
                block.append(self.lines[i].strip())
                i += 1
            self.elements.append(Element(kind="paragraph", text=" ".join(block)))
            return i
        return None

    def _text(self, i: int, line: str, stripped: str) -> int:
        """Definitions, list items, indented code, quotes and paragraph text; the next line."""
        described = _DEFINITION.match(line)
        if described and self.term is not None:
            named = self.term  # another description of the same term
            self.flush()
            self.item, self.term = [described.group(1)], named
            i += 1
            return i
        if described and self.item is None and (len(self.para) == 1 or not self.para and _open_term(self.elements)):
            named = self.para[0].strip() if self.para else _open_term(self.elements)
            if self.para:
                self.para = []
            elif self.elements[-1].kind == "paragraph":
                self.elements.pop()  # the term, a blank line above its description
            self.flush()
            self.item, self.term = [described.group(1)], named
            i += 1
            self.prev_blank = False
            return i
        listed = _ITEM.match(line)
        if listed and (listed.group(3) or "").strip() and not (self.para and listed.group(2)[0].isdigit()):
            self.flush()
            marker = listed.group(2)
            self.item = [f"{marker} {listed.group(3)}" if marker[0].isdigit() else listed.group(3)]  # "7. Review ...": the step keeps its number
            i += 1
            self.prev_blank = False
            return i
        if line.startswith(("    ", "\t")) and self.prev_blank and not self.para and self.item is None and (not self.elements or self.elements[-1].kind != "list_item"):
            body = []
            while i < len(self.lines) and (self.lines[i].startswith(("    ", "\t")) or not self.lines[i].strip()):
                body.append(self.lines[i][4:] if self.lines[i].startswith("    ") else self.lines[i][1:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            self.elements.append(Element(kind="code", text="\n".join(body)))
            self.prev_blank = True
            return i
        if stripped.startswith(">"):
            stripped = stripped.lstrip(">").strip()
        if self.item is not None:
            self.item.append(stripped)
        else:
            self.para.append(stripped)
        self.prev_blank = False
        i += 1
        return i


def parse_markdown(text: str) -> tuple[list[Element], str | None]:
    """The element stream of a Markdown text, and the front matter's title (if any)."""
    lines = text.split("\n")
    start, title = _front_matter(lines)
    return _Parser(lines).parse(start), title


def read(path: Path, options: ReadOptions) -> Converted:
    """Read a Markdown file into its element stream (page=None throughout)."""
    text, warnings = read_text(path)
    elements, title = parse_markdown(text)
    if title is None:
        headings = [e for e in elements if e.kind == "heading"]
        title = headings[0].text if headings else path.stem
    return Converted(
        title=title,
        elements=elements,
        reader="markdown-lines",
        reader_version=READER_VERSION,
        warnings=warnings,
    )
