"""Plain-text reader, with RFC-style documents recognised and de-paginated.

RFC style (a ``Request for Comments:`` line on the first page, or ``[Page N]``
footers): page footers, running headers and form feeds are removed and each
element records its page; a paragraph split by a page break is joined again.
Column-0 lines are headings: numbered ones (``1.``, ``4.1.2.``, ``Appendix A.``,
``A.1.``) get the level of their numbering, unnumbered ones (``Abstract``,
``Authors' Addresses``) level 1; the table of contents is body text.

Other plain text (licenses, READMEs): a YAML front matter block is skipped
(its ``title:`` becomes the title); a one-line block that is all capitals,
Title Case, or numbered with a Title Case name (``0. Definitions.``, also
run-in: ``2. Grant of Copyright License. Subject to ...``) is a heading.

In both, paragraphs are blank-line separated with their lines joined by single
spaces; blocks that look drawn or typed (box drawing, arrows, column gaps,
dense symbols) are kept as code with their line breaks.
"""

from __future__ import annotations

import re
from pathlib import Path

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.textio import read_text
from shelfwise.compiler.language.force import LABEL_KEYWORDS
from shelfwise.compiler.language.numbers import alternation
from shelfwise.compiler.store.records import Converted, Element, definition_text
from shelfwise.compiler.ingest.sections import numbering_depth

__all__ = ["read", "parse_rfc", "parse_plain", "is_rfc"]

READER_VERSION = "2"  # 2: definition lists read as items, term and description together

_FOOTER = re.compile(r"^\S.*\s{2,}\[Page \d+\]\s*$")
_RUNNING_HEADER = re.compile(r"^RFC \d{3,5} {2,}.*\S {2,}\S.*\d{4}\s*$")
_NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*\.?|Appendix [A-Z](?:\.\d+)*\.?|[A-Z](?:\.\d+)+\.?)\s+\S")
_TOC_LEADER = re.compile(r"\.{3,}\s*\d+\s*$|\s\.\s\.\s")
_ART = re.compile(r"\+[-=+]{2,}|[-=]{2,}\+|-{2,}>|<-{2,}|\|.*\||^\s*[|+]\s*$|^\s*[-=_~]{5,}\s*$")
_GAP = re.compile(r"\S {3,}\S")
_LABEL = re.compile(r"^(?:\S{1,6}|\[[^\]]{1,30}\])\s+")
_BULLET = re.compile(r"^(\s*)([o*-])  +(\S.*)$")
_SYMBOLS = set("{}<>=&/:_\\|#@*^~`$%")
_FIGURE = re.compile(r"^\s*(Figure|Table)\s+\d+[.:]?\s+\S")
_RUN_IN = re.compile(r"^(\s*\d+(?:\.\d+)*\.)\s+([A-Z][^.]{2,70}\.)\s+(\S.*)$")
_PLAIN_NUMBERED = re.compile(r"^\s*(\d+(?:\.\d+)*)[.)]?\s+(\S.*)$")
_TERM_SAME_LINE = re.compile(rf"^(\s*)([A-Za-z][\w.-]*[\w]) {{2,}}((?:{alternation(LABEL_KEYWORDS)})\b.*)$")
"""A parameter and its description on one line, as RFC 7009 sets them: "token   REQUIRED.  The token that ..." """
_REFERENCE = re.compile(r"^\[[^\]]+\]$")  # "[RFC2119]" over its citation: a reference, kept a paragraph
_TERM_INDENT = 12  # a term stands near the margin (nested lists included); lines indented further are centred (a title over its version line)
_TERM_CHARS = 50  # a definition list's term is a name, not a line of prose ...
_TERM_WORDS = 6  # ... of a few words ("active", "Type name:", "Collision-Resistant Name")

Line = tuple[str, int | None]


def is_rfc(lines: list[str]) -> bool:
    """True for RFC/Internet-Draft style text: an RFC header on the first page or page footers."""
    head = "\n".join(lines[:80])
    return bool(re.search(r"^Request for Comments:\s*\d+", head, re.MULTILINE)) or sum(1 for line in lines if _FOOTER.match(line)) >= 2


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _title_case(words: list[str]) -> bool:
    significant = [w.strip("\"'()[],.;:") for w in words if len(w.strip("\"'()[],.;:")) >= 4]
    alphabetic = [w for w in significant if w[:1].isalpha()]
    capitalised = sum(1 for w in alphabetic if w[:1].isupper())
    return bool(words) and words[0][:1].isupper() and capitalised >= 0.6 * len(alphabetic)


def _prose_words(lines: list[str]) -> float:
    words = [w.strip("\"'()[],.;:!?") for line in lines for w in line.split()]
    return sum(1 for w in words if w.isalpha()) / len(words) if words else 0.0


def _preformatted(lines: list[str]) -> bool:
    """Whether a block is drawn or typed text whose line breaks matter (figures, messages, code)."""
    if any(_ART.search(line) for line in lines):
        return True
    if any(_GAP.search(_LABEL.sub("", line.strip(), count=1)) for line in lines):
        return True
    chars = [c for line in lines for c in line if not c.isspace()]
    symbols = sum(1 for c in chars if c in _SYMBOLS)
    return symbols >= 2 and symbols / len(chars) > 0.04 and _prose_words(lines) < 0.6


def _code_text(lines: list[str]) -> str:
    width = min((_indent(line) for line in lines if line.strip()), default=0)
    return "\n".join(line[width:].rstrip() for line in lines)


def _join(lines: list[str]) -> str:
    return " ".join(line.strip() for line in lines if line.strip())


def _blocks(lines: list[Line]) -> list[tuple[list[Line], bool]]:
    """Blank-line separated blocks; the flag says a page break fell just before the block."""
    blocks: list[tuple[list[Line], bool]] = []
    current: list[Line] = []
    broke = False
    pending = False
    for text, page in lines:
        if text is None:  # a removed page break
            pending = True
            continue
        if not text.strip():
            if current:
                blocks.append((current, broke))
                current, broke = [], False
            continue
        if not current:
            broke, pending = pending, False
        current.append((text, page))
    if current:
        blocks.append((current, broke))
    return blocks


def _depaginate(raw: list[str]) -> tuple[list[Line], int]:
    """Lines with their page numbers, footers/headers/form feeds removed (None marks a break)."""
    footers = any(_FOOTER.match(line) for line in raw)
    out: list[Line] = []
    page = 1
    for line in raw:
        if "\f" in line:
            if not footers:
                page += 1
                out.append((None, page))  # type: ignore[arg-type]
            line = line.replace("\f", "")
        if footers and _FOOTER.match(line):
            page += 1
            out.append((None, page))  # type: ignore[arg-type]
            continue
        if _RUNNING_HEADER.match(line):
            continue
        out.append((line.rstrip(), page))
    last_text_page = max((p for t, p in out if t), default=1)
    return out, last_text_page or 1


def _add_paragraph(elements: list[Element], text: str, page: int | None, broke: bool) -> None:
    prev = elements[-1] if elements else None
    if broke and prev is not None and prev.kind == "list_item" and prev.name and (text[:1].islower() or not prev.text.rstrip().endswith((".", ":"))):
        prev.text = f"{prev.text} {text}"  # a definition's description cut by a page break
        return
    if broke and prev is not None and prev.kind == "paragraph" and (not prev.text.rstrip().endswith((".", ":", ";")) or text[:1].islower()):
        prev.text = f"{prev.text} {text}"
        return
    elements.append(Element(kind="paragraph", text=text, page=page))


def _rfc_heading(line: str) -> bool:
    if _indent(line) or _TOC_LEADER.search(line):
        return False
    if _NUMBERED.match(line):
        return True
    words = line.split()
    return len(line) <= 72 and len(words) <= 10 and line[:1].isupper() and not line.rstrip().endswith((".", ",", ";"))


def parse_rfc(text: str) -> tuple[list[Element], str | None, int]:
    """Elements, title and page count of an RFC-style text."""
    lines, pages = _depaginate(text.split("\n"))
    blocks = _blocks(lines)
    elements: list[Element] = []
    title: str | None = None
    started = False
    in_toc = False
    for block, broke in blocks:
        texts = [t for t, _ in block]
        page = block[0][1]
        first = texts[0]
        if not started:
            if _indent(first) == 0 and _rfc_heading(first) and not _GAP.search(first) and ":" not in first:
                started = True
            elif _indent(first) >= 4 and title is None and not _preformatted(texts):
                title = _join(texts)
                continue
            else:
                elements.append(Element(kind="code", text=_code_text(texts), page=page))
                continue
        if _rfc_heading(first):
            heading = first.strip()
            rest = texts[1:]
            if rest and len(first) >= 50 and _indent(rest[0]) > 0 and len(rest) == 1:
                heading, rest = f"{heading} {rest[0].strip()}", []
            depth = numbering_depth(heading)
            in_toc = heading.lower() == "table of contents"
            elements.append(Element(kind="heading", text=heading, level=depth or 1, page=page))
            if rest:
                _emit_body(elements, rest, page, False)
            continue
        _emit_body(elements, texts, page, broke, verbatim=in_toc)
    if pages <= 1:
        for element in elements:
            element.page = None
        pages = 0
    return elements, title, pages


def _emit_body(elements: list[Element], texts: list[str], page: int | None, broke: bool, verbatim: bool = False) -> None:
    bullet = _BULLET.match(texts[0])
    if verbatim:
        elements.append(Element(kind="code", text=_code_text(texts), page=page))
    elif len(texts) == 1 and _FIGURE.match(texts[0]) and elements and elements[-1].kind == "code":
        elements.append(Element(kind="figure", text=texts[0].strip(), page=page))
    elif bullet and not any(_ART.search(line) for line in texts):
        items: list[list[str]] = []
        for line in texts:
            match = _BULLET.match(line)
            if match and len(match.group(1)) == len(bullet.group(1)):
                items.append([match.group(3)])
            else:
                items[-1].append(line)
        for item in items:
            elements.append(Element(kind="list_item", text=_join(item), page=page))
    elif _preformatted(texts):
        elements.append(Element(kind="code", text=_code_text(texts), page=page))
    elif definitions := _definitions(texts):
        for term, description in definitions:
            elements.append(Element(kind="list_item", text=definition_text(term, description), page=page, name=term))
    else:
        _add_paragraph(elements, _join(texts), page, broke)


def _is_term(line: str, following: str) -> bool:
    """A definition list's term: a short line that is no sentence, its description indented deeper below it and
    opening as a sentence does (a line continuing in lower case under a shorter one is a hanging indent)."""
    term = line.strip()
    continues = following.lstrip()[:1].islower() and " " in following.strip()  # lower-case words: the same sentence
    return (_indent(line) <= _TERM_INDENT and _indent(following) > _indent(line) and not continues and len(term) <= _TERM_CHARS and len(term.split()) <= _TERM_WORDS
            and not term.endswith((".", ",", ";")) and not _BULLET.match(line) and not _REFERENCE.match(term))


def _definitions(texts: list[str]) -> list[tuple[str, str]]:
    """(term, description) of each item when the block is a definition list ("active" over an indented
    "REQUIRED.  Boolean indicator ..."); empty when it is not."""
    same_line = _TERM_SAME_LINE.match(texts[0])
    if not (same_line or len(texts) >= 2 and _is_term(texts[0], texts[1])):
        return []
    items: list[tuple[str, list[str]]] = []
    margin = _indent(texts[0])
    for index, line in enumerate(texts):
        following = texts[index + 1] if index + 1 < len(texts) else ""
        run_in = _TERM_SAME_LINE.match(line)
        if _indent(line) == margin and run_in:
            items.append((run_in.group(2), [run_in.group(3)]))
        elif _indent(line) == margin and following and _is_term(line, following):
            items.append((line.strip(), []))
        elif _indent(line) > margin:
            items[-1][1].append(line)
        else:
            return []  # a line back at the term's margin that starts no item: a paragraph with a hanging indent
    return [(term, _join(body)) for term, body in items]


def _front_matter(lines: list[str]) -> tuple[int, str | None]:
    if not lines or lines[0].strip() != "---":
        return 0, None
    for end in range(1, min(len(lines), 400)):
        if lines[end].strip() in {"---", "..."}:
            title = next((m.group(1).strip("'\"") for m in (re.match(r"^title:\s*(.+?)\s*$", x) for x in lines[1:end]) if m), None)
            return end + 1, title
    return 0, None


def _plain_heading(line: str) -> bool:
    stripped = line.strip()
    words = stripped.split()
    if not stripped or len(stripped) > 70 or len(words) > 10 or stripped[0] in "<([{\"'":
        return False
    letters = [c for c in stripped if c.isalpha()]
    if len(letters) >= 4 and not any(c.islower() for c in letters) and not stripped.endswith((",", ";")):
        return True
    numbered = _PLAIN_NUMBERED.match(stripped)
    if numbered:
        name = numbered.group(2)
        return _title_case(name.split()) and not name.endswith((",", ";", ":")) and name.count(".") <= 1
    return _title_case(words) and not stripped.endswith((".", ",", ";", ":"))


_SENTENCE_NUMBERED = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}[.)])\s+([A-Z][^.,;:]*)$")


def _line_number(block: list[Line]) -> str | None:
    """The number a one-line block starts with ('2', '2.1'), or None."""
    match = _PLAIN_NUMBERED.match(block[0][0].strip()) if len(block) == 1 else None
    return match.group(1) if match else None


def _lone_numbered(blocks: list[tuple[list[Line], bool]], index: int) -> bool:
    """Whether block ``index`` is a numbered heading in sentence case ('2. First week'): one line, a number of at most
    three digits a part, a capitalised name of at most ten words without sentence punctuation, and no neighbour block
    that is a numbered line of the same depth (those make it an item of a list spaced by blank lines)."""
    block = blocks[index][0]
    match = _SENTENCE_NUMBERED.match(block[0][0].strip()) if len(block) == 1 else None
    if not match or len(block[0][0].strip()) > 70 or len(match.group(2).split()) > 10:
        return False
    depth = match.group(1).rstrip(".)").count(".")
    for other in (index - 1, index + 1):
        near = _line_number(blocks[other][0]) if 0 <= other < len(blocks) else None
        if near is not None and near.count(".") == depth:
            return False
    return True


def parse_plain(text: str) -> tuple[list[Element], str | None]:
    """Elements and title of a plain (non-RFC) text."""
    raw = text.split("\n")
    start, title = _front_matter(raw)
    blocks = _blocks([(line.replace("\f", "").rstrip(), None) for line in raw[start:]])
    elements: list[Element] = []
    headings: list[tuple[int, bool]] = []
    for number, (block, _) in enumerate(blocks):
        texts = [t for t, _ in block]
        if len(texts) == 1 and (_plain_heading(texts[0]) or _lone_numbered(blocks, number)):
            elements.append(Element(kind="heading", text=texts[0].strip()))
            headings.append((len(elements) - 1, bool(_PLAIN_NUMBERED.match(texts[0].strip()))))
            continue
        run_in = _RUN_IN.match(texts[0])
        if run_in and _title_case(run_in.group(2).split()):
            elements.append(Element(kind="heading", text=f"{run_in.group(1).strip()} {run_in.group(2)}"))
            headings.append((len(elements) - 1, True))
            elements.append(Element(kind="paragraph", text=_join([run_in.group(3), *texts[1:]])))
            continue
        _emit_body(elements, texts, None, False)
    seen_unnumbered = False
    for index, numbered in headings:
        if numbered:
            depth = numbering_depth(elements[index].text) or 1
            elements[index].level = depth + (1 if seen_unnumbered else 0)
        else:
            seen_unnumbered = True
            elements[index].level = 1
    if title is None:
        first = next((e for e in elements if e.text.strip()), None)
        if first is not None and len(first.text) <= 80:
            title = first.text.split("  ")[0].strip()
    return elements, title


def read(path: Path, options: ReadOptions) -> Converted:
    """Read a plain-text file (RFC-style or not) into its element stream."""
    text, warnings = read_text(path)
    if is_rfc(text.split("\n")):
        elements, title, pages = parse_rfc(text)
        reader = "text-rfc"
    else:
        elements, title = parse_plain(text)
        pages, reader = 0, "text-plain"
    return Converted(
        title=title or path.stem,
        elements=elements,
        pages=pages,
        reader=reader,
        reader_version=READER_VERSION,
        warnings=warnings,
    )
