"""Lines of a PDF's text joined into running text: a paragraph's, a table cell's, a figure caption's.

A line-end hyphen is undone, kept, or joined to the rest of the word it broke by what the whole document spells
(``document_vocabulary``): ``join_line`` appends one line to a paragraph's pieces, ``joined`` joins a cell's or a caption's lines.
``mend_ligatures`` first rejoins the words a font's ligature broke ("dif er" is "differ").
"""

from __future__ import annotations

import re
from collections import Counter

from whoosh.lang.porter import stem

from shelfwise.compiler.ingest.convert.pdf_layout import PageData, PageItem

__all__ = ["document_vocabulary", "join_line", "joined", "mend_ligatures"]

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


_BROKEN = re.compile(r"(?<![A-Za-z])([A-Za-z]*f) ([a-z]+)(?![A-Za-z])")
_LIGATURE_RESTS = ("f", "i", "l", "fi", "fl")  # what an ff, fi, fl, ffi or ffl glyph loses when its font maps it to "f"


def _texts(pages: list[PageData]) -> list[tuple[PageItem, int | None, int | None]]:
    """Where each text of the pages is: (item, None, None) for a line's or a caption's, (item, row, cell) for a cell's."""
    out: list[tuple[PageItem, int | None, int | None]] = []
    for page in pages:
        for item in page.items:
            if item.kind == "table":
                out += [(item, row, cell) for row, cells in enumerate(item.rows or []) for cell in range(len(cells))]
            else:
                out.append((item, None, None))
    return out


def mend_ligatures(pages: list[PageData]) -> None:
    """Rejoin, in place, the words a font's ligature broke. A font whose ToUnicode map gives its
    "ff" glyph as a plain "f" prints "differ" as "dif" and "er" (the glyph is wider than an f, so pdfium puts a space
    after it): "Af ect", "Suf ers". The pair is one word when the document spells that word whole elsewhere (by its
    stem: "suffer" for "Suf ers") with the glyph's lost letters ("f"; "i", "l", "fi", "fl" for the other f-ligatures)
    and neither piece ever stands alone in the document: "of set" stays two words, for "of" is a word of its own."""
    where = _texts(pages)
    texts = [item.text if row is None else item.rows[row][cell] for item, row, cell in where]
    words = Counter(word.lower() for text in texts for word in re.findall(r"[A-Za-z]+", text))
    stems = {stem(word) for word in words}
    found: dict[tuple[str, str], str] = {}
    lefts: Counter = Counter()
    rights: Counter = Counter()
    for text in texts:
        for match in _BROKEN.finditer(text):
            left, right = match.group(1).lower(), match.group(2)
            rest = next((rest for rest in _LIGATURE_RESTS if (whole := left + rest + right) in words or stem(whole) in stems), None)
            if rest is not None:
                found[(left, right)] = rest
                lefts[left] += 1
                rights[right] += 1
    mend = {pair: rest for pair, rest in found.items() if words[pair[0]] == lefts[pair[0]] and words[pair[1]] == rights[pair[1]]}
    if not mend:
        return

    def repl(match: re.Match) -> str:
        rest = mend.get((match.group(1).lower(), match.group(2)))
        return match.group(0) if rest is None else match.group(1) + rest + match.group(2)

    for (item, row, cell), text in zip(where, texts):
        new = _BROKEN.sub(repl, text)
        if new != text:
            if row is None:
                item.text = new
            else:
                item.rows[row][cell] = new
