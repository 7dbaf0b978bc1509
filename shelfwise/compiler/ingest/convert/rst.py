"""reStructuredText reader: a line-based pass that keeps each paragraph's source text.

Section titles are found by their underline (and optional overline); a title's
level is the order in which its adornment style first appears, as docutils
does. Paragraphs, list items and headings keep their source text (lines
joined by single spaces, inline markup such as ``code`` and :pep:`484` kept).
A PEP's leading RFC 2822 header (``PEP: 484``, ``Title: ...``) becomes a
two-column table and gives the title. Literal blocks (``::``), doctest blocks
and code directives become code; admonitions and other directives with
content are read as body text; grid and simple tables become table rows. A definition list item (a term
line, its description indented under it) is one list item, "term: description", its term kept as the item's name.
"""

from __future__ import annotations

import re
from pathlib import Path

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.textio import read_text
from shelfwise.compiler.store.records import Converted, Element, definition_text, table_text

__all__ = ["read", "parse_rst"]

READER_VERSION = "3"  # 3: a definition list item is one item, "term: description"

_ADORN = re.compile(r"^([!-/:-@\[-`{-~])\1+\s*$")
_HEADER_FIELD = re.compile(r"^([A-Z][A-Za-z0-9-]*(?: [A-Za-z0-9-]+)*):\s*(.*)$")
_DOCINFO_FIELD = re.compile(r"^:([^:`\s][^:`]*):(?:\s+(.*))?$")
_DIRECTIVE = re.compile(r"^\.\.\s+([\w:.+-]+)::\s*(.*)$")
_BULLET = re.compile(r"^([-*+\u2022])(\s+)(\S.*)$")
_ENUM = re.compile(r"^((?:\d+|#|[a-zA-Z]|[ivxlcdm]+|[IVXLCDM]+)[.)]|\((?:\d+|#|[a-zA-Z]|[ivxlcdm]+)\))(\s+)(\S.*)$")
_SIMPLE_BORDER = re.compile(r"^=+(?: +=+)+\s*$|^=+\s*$")
_CODE_DIRECTIVES = {"code-block", "code", "sourcecode", "literalinclude", "parsed-literal", "productionlist", "highlight"}
_SKIPPED_DIRECTIVES = {"contents", "raw", "include", "sectnum", "header", "footer", "target-notes", "meta", "toctree", "index", "only", "role", "default-role", "title", "highlight"}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_adornment(line: str) -> bool:
    return bool(_ADORN.match(line)) and len(line.strip()) >= 2 and line.strip() != "::"


def _join(lines: list[str]) -> str:
    return " ".join(part.strip() for part in lines if part.strip())


def _dedent(lines: list[str]) -> list[str]:
    width = min((_indent(line) for line in lines if line.strip()), default=0)
    return [line[width:] for line in lines]


def _indented_chunk(lines: list[str], i: int) -> tuple[list[str], int]:
    """Lines from ``i`` that are blank or indented (an indented body), trailing blanks dropped."""
    j = i
    while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > 0):
        j += 1
    chunk = lines[i:j]
    while chunk and not chunk[-1].strip():
        chunk.pop()
    return chunk, j


def _title_ok(title: str, adornment: str) -> bool:
    return len(adornment.strip()) >= min(len(title.strip()), 4)


def _simple_table(block: list[str]) -> Element:
    border = block[0]
    spans = [(m.start(), m.end()) for m in re.finditer(r"=+", border)]
    borders = [k for k, line in enumerate(block) if _SIMPLE_BORDER.match(line)]
    rows: list[list[str]] = []
    for k, line in enumerate(block):
        if k in borders or not line.strip():
            continue
        cells = []
        for n, (start, end) in enumerate(spans):
            stop = spans[n + 1][0] if n + 1 < len(spans) else len(line)
            cells.append(line[start:stop].strip())
        if rows and not cells[0] and any(cells):
            rows[-1] = [" ".join(filter(None, [old, new])) for old, new in zip(rows[-1], cells)]
        else:
            rows.append(cells)
    header = 0
    if len(borders) >= 3:
        header = sum(1 for k, line in enumerate(block[: borders[1]]) if k not in borders and line.strip() and line[: spans[0][1]].strip())
    return Element(kind="table", text=table_text(rows), rows=rows, header_rows=header)


def _grid_table(block: list[str]) -> Element:
    cuts = [k for k, ch in enumerate(block[0].rstrip()) if ch == "+"]
    rows: list[list[str]] = []
    current: list[list[str]] | None = None
    header = 0
    for line in block[1:]:
        if line.lstrip().startswith("+"):
            if current is not None:
                rows.append([_join(cell) for cell in current])
            current = None
            if "=" in line and not header:
                header = len(rows)
            continue
        if current is None:
            current = [[] for _ in cuts[:-1]]
        for n in range(len(cuts) - 1):
            current[n].append(line[cuts[n] + 1 : cuts[n + 1]].strip(" |"))
    if current is not None:
        rows.append([_join(cell) for cell in current])
    return Element(kind="table", text=table_text(rows), rows=rows, header_rows=header)


class _Parser:
    def __init__(self) -> None:
        self.styles: list[tuple[str, bool]] = []
        self.elements: list[Element] = []

    def heading(self, text: str, style: tuple[str, bool]) -> None:
        if style not in self.styles:
            self.styles.append(style)
        self.elements.append(Element(kind="heading", text=" ".join(text.split()), level=self.styles.index(style) + 1))

    def directive(self, name: str, argument: str, body: list[str]) -> None:
        body = _dedent(body)
        while body and body[0].strip().startswith(":") and _DOCINFO_FIELD.match(body[0].strip()):
            body.pop(0)  # directive options
        while body and not body[0].strip():
            body.pop(0)
        if name in _CODE_DIRECTIVES:
            if body:
                self.elements.append(Element(kind="code", text="\n".join(body).rstrip(), name=argument or None))
        elif name in {"image", "figure"}:
            caption = _join(body[: body.index("")] if "" in body else body) if name == "figure" else ""
            self.elements.append(Element(kind="figure", text=caption or argument, name=argument or None))
        elif name not in _SKIPPED_DIRECTIVES:
            if argument and name in {"admonition", "topic", "sidebar", "rubric", "deprecated", "versionadded", "versionchanged"}:
                self.elements.append(Element(kind="paragraph", text=argument.strip()))
            self.blocks(body)

    def blocks(self, lines: list[str]) -> None:
        i = 0
        literal_next = False
        while i < len(lines):
            line = lines[i]
            if not line.strip():
                i += 1
                continue
            if _indent(line) > 0:
                chunk, i = _indented_chunk(lines, i)
                if literal_next:
                    self.elements.append(Element(kind="code", text="\n".join(_dedent(chunk))))
                else:
                    self.blocks(_dedent(chunk))
                literal_next = False
                continue
            literal_next = False
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if _is_adornment(line) and i + 2 < len(lines) and lines[i + 1].strip() and lines[i + 2].strip() == line.strip():
                self.heading(lines[i + 1], (line.strip()[0], True))
                i += 3
                continue
            if line.strip() and not _is_adornment(line) and _is_adornment(nxt) and _title_ok(line, nxt):
                self.heading(line, (nxt.strip()[0], False))
                i += 2
                continue
            if _SIMPLE_BORDER.match(line) and " " in line.strip():
                j = i + 1
                while j < len(lines) and not (_SIMPLE_BORDER.match(lines[j]) and (j + 1 >= len(lines) or not lines[j + 1].strip()) and j > i + 1):
                    j += 1
                self.elements.append(_simple_table(lines[i : j + 1]))
                i = j + 1
                continue
            if _is_adornment(line):
                i += 1  # a transition
                continue
            if line.startswith("+-") and line.rstrip().endswith("+"):
                j = i
                while j < len(lines) and lines[j].strip() and lines[j].lstrip()[0] in "+|":
                    j += 1
                self.elements.append(_grid_table(lines[i:j]))
                i = j
                continue
            if line.startswith(".."):
                body, j = _indented_chunk(lines, i + 1)
                directive = _DIRECTIVE.match(line)
                footnote = re.match(r"^\.\.\s+(\[[^\]]+\])\s*(.*)$", line)
                if directive:
                    self.directive(directive.group(1), directive.group(2), body)
                elif footnote:
                    text = _join([footnote.group(1) + " " + footnote.group(2), *body])
                    self.elements.append(Element(kind="paragraph", text=text))
                i = j
                continue
            if line.startswith(">>>"):
                j = i
                while j < len(lines) and lines[j].strip():
                    j += 1
                self.elements.append(Element(kind="code", text="\n".join(lines[i:j])))
                i = j
                continue
            item = _BULLET.match(line) or _ENUM.match(line)
            if item and (not nxt.strip() or _indent(nxt) > 0 or _BULLET.match(nxt) or _ENUM.match(nxt)):
                i, literal_next = self._list_item(lines, i, item)
                continue
            field = _DOCINFO_FIELD.match(line)
            if line.startswith("|") and not field:
                j = i
                while j < len(lines) and lines[j].strip():
                    j += 1
                self.elements.append(Element(kind="paragraph", text=_join(lines[i:j])))
                i = j
                continue
            i, literal_next = self._paragraph(lines, i, line, field)

    def _list_item(self, lines: list[str], i: int, item: re.Match) -> tuple[int, bool]:
        """A bullet or enumerated item at ``i`` and what is indented under it; the next line, and whether a literal
        block follows (the item ends in "::")."""
        literal_next = False
        width = len(item.group(1)) + len(item.group(2))
        first = [item.group(3)]
        j = i + 1
        while j < len(lines) and lines[j].strip() and _indent(lines[j]) > 0:
            first.append(lines[j])
            j += 1
        text = _join(first)
        marker = item.group(1)
        if item.re is _ENUM and "#" not in marker:
            text = f"{marker} {text}"  # an enumerated item keeps its number ("3." or "(c)")
        self.elements.append(Element(kind="list_item", text=text))
        if text.endswith("::"):
            literal_next = True
        rest, k = _indented_chunk(lines, j)
        if rest and any(r.strip() for r in rest):
            if literal_next:
                self.elements.append(Element(kind="code", text="\n".join(_dedent(rest))))
                literal_next = False
            else:
                self.blocks([r[width:] if _indent(r) >= width else r.lstrip() for r in rest])
            i = k
        else:
            i = j
        return i, literal_next

    def _paragraph(self, lines: list[str], i: int, line: str, field) -> tuple[int, bool]:
        """The paragraph (or field, or definition list item) at ``i``; the next line, and whether a literal block
        follows (the paragraph ends in "::")."""
        para = [line]
        j = i + 1
        while j < len(lines) and lines[j].strip() and _indent(lines[j]) == 0 and not (j + 1 < len(lines) and _is_adornment(lines[j + 1]) and not _is_adornment(lines[j])):
            para.append(lines[j])
            j += 1
        definition = j < len(lines) and lines[j].strip() and _indent(lines[j]) > 0
        text = _join(para)
        kind = "list_item" if field else "paragraph"
        if definition and len(para) == 1:
            body, j = _indented_chunk(lines, j)
            start = len(self.elements)
            self.blocks(_dedent(body))
            described = start < len(self.elements) and self.elements[start].kind == "paragraph" and not field
            if described:  # a definition list item: the term and its description's first paragraph, one item
                self.elements[start] = Element(kind="list_item", text=definition_text(text, self.elements[start].text), name=text)
            else:
                self.elements.insert(start, Element(kind=kind, text=text))
            return j, False
        if definition:
            body, j = _indented_chunk(lines, j)
            text = _join([*para, *body])
        if text != "::":
            self.elements.append(Element(kind=kind, text=text))
        literal_next = text.endswith("::")
        return j, literal_next


def _header(lines: list[str]) -> tuple[list[list[str]], int]:
    """The leading RFC 2822 (PEP) or docinfo field list: rows of [name, value], and lines used."""
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    rows: list[list[str]] = []
    i = start
    while i < len(lines) and lines[i].strip():
        match = _HEADER_FIELD.match(lines[i]) or _DOCINFO_FIELD.match(lines[i])
        if match:
            rows.append([match.group(1), (match.group(2) or "").strip()])
        elif rows and _indent(lines[i]) > 0:
            rows[-1][1] = _join([rows[-1][1], lines[i]])
        else:
            return [], 0
        i += 1
    if len(rows) < 2:
        return [], 0
    return rows, i


def parse_rst(text: str) -> tuple[list[Element], str | None]:
    """The element stream of a reStructuredText text and its title (from a Title field), if any."""
    lines = text.expandtabs(8).split("\n")
    rows, used = _header(lines)
    parser = _Parser()
    title = None
    if rows:
        parser.elements.append(Element(kind="table", text="\n".join(f"{k}: {v}" for k, v in rows), rows=rows, header_rows=0))
        title = next((v for k, v in rows if k.lower() == "title"), None)
    parser.blocks([line.rstrip() for line in lines[used:]])
    return parser.elements, title


def read(path: Path, options: ReadOptions) -> Converted:
    """Read a reStructuredText file into its element stream (page=None throughout)."""
    text, warnings = read_text(path)
    elements, title = parse_rst(text)
    if title is None:
        headings = [e for e in elements if e.kind == "heading"]
        title = headings[0].text if headings else path.stem
    return Converted(title=title, elements=elements, reader="rst-lines", reader_version=READER_VERSION, warnings=warnings)
