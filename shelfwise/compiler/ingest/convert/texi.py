"""Texinfo reader: @chapter/@section structure, paragraphs, lists, tables and examples.

The source is read directly (no makeinfo needed). ``@include`` files are read
from the including file's folder; a missing one is a warning, not a failure.
Conditionals are resolved as the Info output would be (``@ifinfo`` and
``@ifnottex`` kept, ``@iftex``/``@ifhtml``/``@tex`` dropped, ``@ifset`` and
``@ifclear`` by the ``@set`` flags). Inline commands become plain text:
``@code{x}`` -> `x`, ``@emph{x}`` -> *x*, ``@xref{Node}`` -> "See Node".
The ``@copying`` block stands where ``@insertcopying`` places it, as in the Info
output: a manual's Top node says which edition it is ("This is Edition 0.77,
last updated ..."). A ``@value`` whose flag is not set (its ``@set`` is in an
include file the shelf lacks, e.g. ``version.texi``) leaves no text, and the
punctuation it stood before closes up ("last updated, of ...").
"""

from __future__ import annotations

import re
from pathlib import Path

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.textio import read_text
from shelfwise.compiler.store.records import Converted, Element, table_text

__all__ = ["read", "parse_texinfo", "render"]

READER_VERSION = "3"

_LEVELS = {
    "chapter": 1, "unnumbered": 1, "appendix": 1, "majorheading": 1, "chapheading": 1,
    "section": 2, "unnumberedsec": 2, "appendixsec": 2, "appendixsection": 2, "heading": 2,
    "subsection": 3, "unnumberedsubsec": 3, "appendixsubsec": 3, "subheading": 3,
    "subsubsection": 4, "unnumberedsubsubsec": 4, "appendixsubsubsec": 4, "subsubheading": 4,
}
_CODE_BLOCKS = {"example", "smallexample", "lisp", "smalllisp", "display", "smalldisplay", "format", "smallformat", "verbatim"}
_SKIP_BLOCKS = {"menu", "detailmenu", "direntry", "ignore", "tex", "html", "iftex", "ifhtml", "ifdocbook", "ifxml", "iflatex",
                "ifnotinfo", "ifnotplaintext", "docbook", "xml", "latex", "titlepage", "copying", "macro", "rmacro", "documentdescription"}
_TRANSPARENT = {"ifinfo", "ifnottex", "ifnothtml", "ifplaintext", "ifnotdocbook", "ifnotxml", "ifnotlatex", "quotation",
                "smallquotation", "cartouche", "indentedblock", "smallindentedblock", "group", "flushleft", "flushright", "raggedright", "float"}
_DEF_BLOCKS = re.compile(r"^def(?:fn|un|mac|spec|vr|var|opt|typefn|typefun|typevr|typevar|tp|op|method|cv|ivar)x?$")
_CODE_INLINE = {"code", "samp", "command", "env", "file", "option", "kbd", "key", "verb", "t", "indicateurl"}
_EMPH_INLINE = {"emph", "i", "dfn", "slanted"}
_STRONG_INLINE = {"strong", "b"}
_SYMBOLS = {"dots": "...", "enddots": "....", "copyright": "©", "registeredsymbol": "®", "result": "⇒", "expansion": "→",
            "equiv": "≡", "error": "error→", "print": "-|", "minus": "-", "bullet": "•", "TeX": "TeX", "LaTeX": "LaTeX",
            "tie": " ", "comma": ",", "atchar": "@", "lbracechar": "{", "rbracechar": "}", "arrow": "→", "point": "∗",
            "exclamdown": "¡", "questiondown": "¿", "today": "", "geq": "≥", "leq": "≤", "textdegree": "°", "euro": "€"}
_DROP_INLINE = {"anchor", "sortas", "image", "indexterm", "cindex", "footnotestyle"}
_BRACE_CMD = re.compile(r"@([A-Za-z]+)\s*\{")
_UNSET = "\x00"
"""What an unset ``@value`` renders as until ``_close_up`` removes it with the space before it."""


def _close_up(text: str) -> str:
    """Text without the marks of unset ``@value``s: "last updated \\x00, of" -> "last updated, of"."""
    return re.sub(r"\s*\x00", "", text) if _UNSET in text else text


def _matching(text: str, start: int) -> int:
    """Index of the brace closing the one opened just before ``start`` (or len(text))."""
    depth = 1
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "@" and i + 1 < len(text):
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)


def render(text: str, values: dict[str, str]) -> str:
    """Texinfo inline markup rendered to plain text (code in backquotes, emphasis in asterisks)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "@":
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if nxt in "@{}":
            out.append(nxt)
            i += 2
            continue
        if nxt in ".!?":
            out.append(nxt)
            i += 2
            continue
        if nxt in ":-/|" or nxt == "":
            i += 2
            continue
        if nxt in "* \t\n":
            out.append(" ")
            i += 2
            continue
        if nxt in "'\"`^~=,":  # accents: keep the letter
            i += 2
            continue
        match = _BRACE_CMD.match(text, i)
        if match:
            name = match.group(1)
            end = _matching(text, match.end())
            inner = text[match.end() : end]
            out.append(_inline(name, inner, values))
            i = end + 1
            continue
        word = re.match(r"@([A-Za-z]+)", text[i:])
        if word:
            i += len(word.group(0))
            out.append(_SYMBOLS.get(word.group(1), ""))
            continue
        out.append(ch)
        i += 1
    rendered = _close_up("".join(out))
    return rendered.replace("``", "\u201c").replace("''", "\u201d")


def _inline(name: str, inner: str, values: dict[str, str]) -> str:
    if name == "value":
        return values.get(inner.strip(), _UNSET)
    if name in _SYMBOLS:
        return _SYMBOLS[name]
    if name in _DROP_INLINE:
        return ""
    if name == "verb":
        return f"`{inner[1:-1]}`"
    args = [render(part, values).strip() for part in _split_args(inner)]
    first = args[0] if args else ""
    if name in _CODE_INLINE:
        return f"`{render(inner, values)}`"
    if name in _EMPH_INLINE:
        return f"*{render(inner, values)}*"
    if name in _STRONG_INLINE:
        return f"**{render(inner, values)}**"
    if name == "var":
        return render(inner, values)
    if name in {"xref", "pxref", "ref", "inforef"}:
        label = args[2] if len(args) > 2 and args[2] else (args[1] if len(args) > 1 and args[1] else first)
        return {"xref": "See ", "pxref": "see "}.get(name, "") + label
    if name in {"uref", "url"}:
        return f"{args[1]} ({first})" if len(args) > 1 and args[1] else first
    if name == "email":
        return args[1] if len(args) > 1 and args[1] else first
    if name == "footnote":
        return f" ({render(inner, values).strip()})"
    if name in {"acronym", "abbr"}:
        return f"{first} ({args[1]})" if len(args) > 1 and args[1] else first
    return render(inner, values)


def _split_args(inner: str) -> list[str]:
    parts, depth, current = [], 0, []
    i = 0
    while i < len(inner):
        ch = inner[i]
        if ch == "@" and i + 1 < len(inner):
            current.append(inner[i : i + 2])
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    parts.append("".join(current))
    return parts


def _expand_includes(path: Path, lines: list[str], warnings: list[str], depth: int = 0) -> list[str]:
    out: list[str] = []
    for number, line in enumerate(lines, 1):
        match = re.match(r"^@include\s+(\S+)\s*$", line)
        if not match:
            out.append(line)
            continue
        target = path.parent / match.group(1)
        if depth > 8 or not target.is_file():
            warnings.append(f"{path.name}:{number}: @include {match.group(1)} not found next to {path.name}; its content is skipped")
            continue
        text, more = read_text(target)
        warnings.extend(more)
        out.extend(_expand_includes(target, text.split("\n"), warnings, depth + 1))
    return out



def _enumerated(start: str, n: int) -> str:
    """The label of an @enumerate list's n-th item: "@enumerate 3" counts 3, 4, ...; "@enumerate a" counts a, b, ..."""
    if start.isdigit():
        return f"{int(start) + n - 1}."
    if len(start) == 1 and start.isalpha():
        return f"{chr(ord(start) + n - 1)}."
    return f"{n}."

class _Reader:
    def __init__(self, values: dict[str, str]) -> None:
        self.values = values
        self.elements: list[Element] = []
        self.para: list[str] = []
        self.lists: list[dict] = []
        self.title: str | None = None
        self.copying: list[str] = []

    def flush(self, blank: bool = False) -> None:
        """The paragraph read so far as an element; a table's or list's item takes its term. ``blank``: a blank line
        ends the paragraph, and an item's term with no text yet waits for its first paragraph (a blank line, or a
        comment and a blank line, may stand between "@itemx --quiet" and "Silent operation; ...")."""
        text = " ".join(render(" ".join(line.strip() for line in self.para), self.values).split())
        self.para = []
        top = self.lists[-1] if self.lists else None
        if blank and not text and top is not None and "pending" in top:
            return
        if top is not None and "pending" in top:
            term = top.pop("pending")
            if top["kind"] == "table":
                text = f"{term}: {text}" if text and term else (term or text)
            elif top["kind"] == "enumerate" and text:
                text = f"{term} {text}"  # the item keeps its number, so "step 3" can be found
            if text:
                self.elements.append(Element(kind="list_item", text=text))
            return
        if text:
            self.elements.append(Element(kind="paragraph", text=text))

    def item(self, argument: str) -> None:
        self.flush()
        top = self.lists[-1]
        term = " ".join(render(top["wrap"].format(argument.strip()) if argument.strip() else "", self.values).split())
        if top["kind"] == "enumerate":
            top["n"] = top.get("n", 0) + 1
            term = _enumerated(top.get("start", "1"), top["n"])
        top["pending"] = term
        if top["kind"] != "table" and argument.strip():
            self.para.append(argument)

    def _cells(self, text: str) -> None:
        top = self.lists[-1]
        for n, cell in enumerate(re.split(r"@tab\b", text)):
            rendered = " ".join(render(cell, self.values).split())
            if n == 0 and top["rows"][-1]:
                top["rows"][-1][-1] = f"{top['rows'][-1][-1]} {rendered}".strip()
            else:
                top["rows"][-1].append(rendered)
        top["continued"] = True

    def code_block(self, lines: list[str], i: int, name: str) -> int:
        """The body of an @example-like block from line ``i`` to its @end, as one code element; the line after it."""
        self.flush()
        body: list[str] = []
        while i < len(lines) and not re.match(rf"^@end\s+{name}\b", lines[i].strip()):
            raw = lines[i]
            i += 1
            if re.match(r"^@(c|comment|group|end group|noindent)\b", raw.strip()) or re.match(r"^@[a-z]*index\b", raw.strip()):
                continue
            body.append(raw if name == "verbatim" else render(raw, self.values))
        i += 1
        top = self.lists[-1] if self.lists else None
        if top is not None and "pending" in top:
            self.flush()
        self.elements.append(Element(kind="code", text="\n".join(body).strip("\n")))
        return i

    def item_command(self, name: str, argument: str) -> None:
        """@item, @itemx or @headitem in the innermost list or table."""
        top = self.lists[-1]
        if top["kind"] == "multitable":
            self.flush()
            if name == "headitem":
                top["header_rows"] = len(top["rows"]) + 1
            top["rows"].append([])
            top["continued"] = False
            self._cells(argument)
            return
        if name == "itemx" and "pending" in top:
            extra = " ".join(render(top["wrap"].format(argument.strip()), self.values).split())
            top["pending"] = f"{top['pending']}, {extra}"
            return
        self.item(argument)

    def end(self, argument: str) -> None:
        """@end of a block: a list or table closes (a multitable's rows become a table element)."""
        self.flush()
        ended = argument.strip()
        if ended in {"itemize", "enumerate", "table", "ftable", "vtable", "multitable"} and self.lists:
            top = self.lists.pop()
            if top["kind"] == "multitable" and top["rows"]:
                rows = [row for row in top["rows"] if row]
                self.elements.append(
                    Element(kind="table", text=table_text(rows), rows=rows, header_rows=top["header_rows"])
                )


def _skip_to_end(lines: list[str], i: int, name: str) -> int:
    depth = 1
    while i < len(lines):
        if re.match(rf"^@{name}\b", lines[i]):
            depth += 1
        elif re.match(rf"^@end\s+{name}\b", lines[i].strip()):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def parse_texinfo(lines: list[str], values: dict[str, str] | None = None) -> tuple[list[Element], str | None]:
    """The element stream of Texinfo source lines (includes already expanded) and its @settitle."""
    reader = _Reader(dict(values or {}))
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        i += 1
        stripped = line.strip()
        command = re.match(r"^@([A-Za-z]+)(?=\s|$)\s*(.*)$", stripped)
        if not stripped:
            reader.flush(blank=True)
            continue
        if stripped.startswith("\\input"):
            continue
        if not command:
            if reader.lists and reader.lists[-1]["kind"] == "multitable" and reader.lists[-1]["rows"]:
                reader._cells(stripped)
            else:
                reader.para.append(line)
            continue
        name, argument = command.group(1), command.group(2)
        if name in {"c", "comment"} or name.endswith("index") and name not in {"printindex"}:
            continue
        if name == "bye":
            break
        if name == "set":
            key, _, value = argument.partition(" ")
            reader.values[key] = value.strip()
            continue
        if name == "clear":
            reader.values.pop(argument.strip(), None)
            continue
        if name == "settitle":
            reader.title = " ".join(render(argument, reader.values).split())
            continue
        if name in {"ifset", "ifclear"}:
            flag = argument.strip() in reader.values
            if flag != (name == "ifset"):
                i = _skip_to_end(lines, i, name)
            continue
        if name == "copying":
            end = _skip_to_end(lines, i, name)
            reader.copying = [line for line in lines[i:end - 1] if not line.strip().startswith("@insertcopying")]
            i = end
            continue
        if name == "insertcopying":
            reader.flush()
            lines[i:i] = reader.copying  # read in place, as makeinfo writes it
            continue
        if name in _SKIP_BLOCKS:
            i = _skip_to_end(lines, i, name)
            continue
        if name in _CODE_BLOCKS:
            i = reader.code_block(lines, i, name)
            continue
        if name in _LEVELS:
            reader.flush()
            text = " ".join(render(argument, reader.values).split())
            reader.elements.append(Element(kind="heading", text=text, level=_LEVELS[name]))
            continue
        if name in {"itemize", "enumerate"}:
            reader.flush()
            reader.lists.append({"kind": name, "wrap": "{}", "start": argument.strip() or "1"})
            continue
        if name in {"table", "ftable", "vtable"}:
            reader.flush()
            wrap = argument.strip().lstrip("@")
            reader.lists.append({"kind": "table", "wrap": f"@{wrap}{{{{{{}}}}}}" if wrap and wrap not in {"asis"} else "{}"})
            continue
        if name == "multitable":
            reader.flush()
            reader.lists.append({"kind": "multitable", "rows": [], "header_rows": 0})
            continue
        if name in {"item", "itemx", "headitem"} and reader.lists:
            reader.item_command(name, argument)
            continue
        if name == "tab" and reader.lists and reader.lists[-1]["kind"] == "multitable":
            reader._cells("@tab " + argument)
            continue
        if name == "end":
            reader.end(argument)
            continue
        if _DEF_BLOCKS.match(name):
            reader.flush()
            reader.elements.append(Element(kind="list_item", text=" ".join(render(argument, reader.values).split())))
            continue
        if name in _TRANSPARENT or name in {"top", "node", "noindent", "need", "sp", "page", "vskip", "printindex", "contents",
                                             "summarycontents", "shortcontents", "finalout", "setfilename",
                                             "setchapternewpage", "syncodeindex", "synindex", "dircategory", "documentencoding",
                                             "documentlanguage", "defindex", "defcodeindex", "headings", "paragraphindent",
                                             "exampleindent", "firstparagraphindent", "footnotestyle", "refill", "columnfractions",
                                             "author", "title", "subtitle", "shorttitlepage", "center", "exdent"}:
            if name in {"center", "exdent"} and argument:
                reader.para.append(argument)
            continue
        reader.para.append(line)  # an unknown line command: keep its text
    reader.flush()
    return reader.elements, reader.title


def read(path: Path, options: ReadOptions) -> Converted:
    """Read a Texinfo file (its @include files from the same folder) into its element stream."""
    text, warnings = read_text(path)
    lines = _expand_includes(path, text.split("\n"), warnings)
    elements, title = parse_texinfo(lines)
    if title is None:
        headings = [e for e in elements if e.kind == "heading"]
        title = headings[0].text if headings else path.stem
    return Converted(title=title, elements=elements, reader="texinfo", reader_version=READER_VERSION, warnings=warnings)
