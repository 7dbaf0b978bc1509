"""Lines of a PDF's text joined into running text: a paragraph's, a table cell's, a figure caption's.

A line-end hyphen is undone, kept, or joined to the rest of the word it broke by what the whole document spells
(``document_vocabulary``): ``join_line`` appends one line to a paragraph's pieces, ``joined`` joins a cell's or a caption's lines.
"""

from __future__ import annotations

import re

from shelfwise.compiler.ingest.convert.pdf_layout import PageItem

__all__ = ["document_vocabulary", "join_line", "joined"]

_CJK_END = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]$")
_CJK_START = re.compile(r"^[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


def document_vocabulary(lines: list[PageItem], items: list[PageItem] = ()) -> set[str]:
    """The words the document spells in its lines, its tables' cells and its captions, lower-case."""
    texts = [line.text for line in lines] + [item.text for item in items if item.kind == "figure"]
    texts += [cell for item in items if item.kind == "table" for row in item.rows or [] for cell in row]
    return {word.lower() for text in texts for word in re.findall(r"[A-Za-z][A-Za-z'-]*[A-Za-z]", text)}


def _head(pieces: list[str]) -> str:
    """The run of letters just before the final '-' of the text ``pieces`` join into (the word a line-end hyphen
    splits); it reaches into earlier pieces only while they are letters throughout (one joined without a space)."""
    letters: list[str] = []
    rest = pieces[-1][:-1]
    for index in range(len(pieces) - 1, -1, -1):
        piece = rest if index == len(pieces) - 1 else pieces[index]
        run = re.search(r"[A-Za-z]*\Z", piece).group(0)
        letters.append(run)
        if len(run) < len(piece):
            break
    return "".join(reversed(letters))


def join_line(pieces: list[str], more: str, vocabulary: set[str], narrow: bool = False) -> None:
    """Append a line to a paragraph's ``pieces`` (joined once, when the paragraph ends: linear in its length), undoing
    a line-end hyphen when the document spells the word whole, or does not spell it hyphenated, unless the line goes on
    with the rest of a hyphenated compound ("retrieval-" over "and-generate steps", "mark-to-" over "market": the
    compound broke at its own hyphen). A line going on with a capital or a figure after a line-end hyphen ("Flan-" over
    "T5-large") goes on with the same word, its hyphen kept unless the document spells the word whole. In a ``narrow``
    text (a table cell, a caption) a hyphen the document decides neither way is kept: a cell breaks compounds
    ("process-" over "focused") as often as words. Only the last piece is looked at."""
    last = pieces[-1]
    head = _head(pieces) if last.endswith("-") else ""
    if head and more[:1].islower():
        tail = re.match(r"([A-Za-z]+)(-[A-Za-z])?", more)
        word, compound = (tail.group(1), tail.group(2) is not None) if tail else ("", False)
        whole = (head + word).lower()
        hyphenated = f"{head}-{word}".lower()
        going_on = re.search(r"[A-Za-z]-[A-Za-z]+-\Z", last) is not None  # "day-to-" over "day": never "today"
        if not going_on and (whole in vocabulary or (hyphenated not in vocabulary and not compound and not narrow)):
            pieces[-1] = last[:-1]
        pieces.append(more)
        return
    if re.search(r"[A-Za-z0-9]-\Z", last) and re.match(r"[A-Z0-9]", more):
        # a compound broken at its own hyphen before a capital or a figure ("Flan-" over "T5-large", "GPT-" over "4"):
        # one word, its hyphen kept, unless the document spells it whole ("FACTOID-" over "WIKI" of FACTOIDWIKI)
        word = re.match(r"[A-Za-z0-9]*", more).group(0)
        if head and (head + word).lower() in vocabulary:
            pieces[-1] = last[:-1]
        pieces.append(more)
        return
    if _CJK_END.search(last) and _CJK_START.match(more):
        pieces.append(more)  # Chinese and Japanese lines wrap between characters, not at spaces
        return
    pieces += [" ", more]


def joined(text: str, vocabulary: set[str]) -> str:
    """A table cell's or a figure caption's lines (as the page window keeps them, one a line) joined as a paragraph's
    are: "acquisition-" over "related" is "acquisition-related", "proposi-" over "tions" is "propositions" where the
    document spells the word so."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if len(lines) < 2:
        return lines[0] if lines else ""
    pieces = [lines[0]]
    for line in lines[1:]:
        join_line(pieces, line, vocabulary, narrow=True)
    return "".join(pieces)
