"""What a unit's shape says of it as evidence: a table row holding the asked-for value, a run of bare figures, a
boilerplate paragraph or a fragment (factors of the extractive writer's ranking, ``shelfwise.api.answer.write.rank``)."""

from __future__ import annotations

import re

from shelfwise.api.terms import unit_cells

__all__ = ["NUMERIC_RUN", "axis_labels", "without_axis_labels", "value_match", "numeric_share", "shape_factor", "label_row",
           "REFERENCE_LIST", "CONTENTS_ENTRY", "names_only"]

REFERENCE_LIST = re.compile(r"^\s*(?:[A-Z]?\d+(?:\.\d+)*\.?\s+)?(?:normative |informative )?(?:references|bibliography|works cited|"
                            r"literature cited|cited works)\s*$", re.I)
"""A heading of a reference list: its entries name works, they state nothing a question asks (unless it asks who cites what)."""
CONTENTS_ENTRY = re.compile(r"[.…](?:\s?[.…]){3,}\s*\|?\s*(?:\d{1,4}|[ivxlc]{1,5})?\s*(?:\||$)", re.I)
"""A line of a table of contents: dot leaders, then a page number ("TOC - About OWASP ………… | 1"). It names a
section, it states nothing: never an answer, in whatever shape the reader kept it (a sentence, a list item, a table row)."""

_TITLE_PAGE = re.compile(r"^(?P<title>.*[^\s.!?;,])\s+\d{1,3}$")
_TITLE_WORDS = frozenset("of and the in for to from on by a an or at with vs vs.".split())


def names_only(text: str) -> bool:
    """Whether a unit is a line of a table of contents, naming a section and saying nothing: with dot leaders
    (``CONTENTS_ENTRY``) or as a title in capitalised words and then its page ("A10:2017 Insufficient Logging and
    Monitoring 33", "Financial Statements Consolidated Condensed Statements of Cash Flows 7"). Never an answer, in
    whatever shape the reader kept it. (A chart's axis labels, "Cash from Operations $B Capital Expenditures $B", say
    nothing either; left out of the answer's candidates, the sections they stand in lost their place and two filings
    answers lost their figures, so they are not read as contents here but taken out once picked: ``without_axis_labels``.)"""
    if CONTENTS_ENTRY.search(text):
        return True
    titled = _TITLE_PAGE.match(text.strip())
    words = titled.group("title").split() if titled else []
    return len([w for w in words if w[:1].isupper() or w[:1] == "+"]) >= 2 and all(_title_word(w) for w in words)


def _title_word(word: str) -> bool:
    """Whether a word may stand in a title: capitalised, a figure or a mark opening a name, or a title's connective."""
    return bool(re.match(r"[A-Z0-9+(]", word)) or word.lower() in _TITLE_WORDS


_UNIT_OF_MEASURE = re.compile(r"^\(?(?:\$[BMK]|%)\)?$")
"""A unit of measure written alone: "$B", "$M", "%", "($B)"."""


def axis_labels(text: str) -> bool:
    """Whether a unit is a chart's titles and axis labels read as a line ("Cash from Operations $B Capital Expenditures
    $B", "DCAI Operating Income (Loss) $B"): capitalised names and a unit of measure with no figure to measure, and no
    sentence's end. It says nothing; the answer does not show it (the chart's section may still be shown for it)."""
    if re.search(r"\d", text) or text.rstrip().endswith((".", ":", ";", "?", "!")):
        return False
    words = text.replace("-", " ").split()
    names = [w for w in words if re.search(r"[A-Za-z]", w) and not _UNIT_OF_MEASURE.match(w)]
    return len(names) < len(words) and any(_UNIT_OF_MEASURE.match(w) for w in words) and bool(names) and all(
        _title_word(w) for w in names)  # a title's words, as ``names_only`` reads them


def without_axis_labels(units: list, chosen: dict) -> dict:
    """``chosen`` (a unit's index in ``units`` -> what it was picked for) without the sentences, items and steps that are
    a chart's labels (``axis_labels``; a chart's legend read as a bulleted list in a section of numbered items is
    steps). They go once the answer is picked: as picks they kept their section's sentences and figures in the answer
    (left out of the candidates, two filings answers lost their figures)."""
    return {i: o for i, o in chosen.items() if not (units[i].kind in ("sentence", "list_item", "step") and axis_labels(units[i].text))}


_CELL_WORDS = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")
_MARKS = re.compile(r"\s*(?:\(\d{1,2}\)|\[\d{1,2}\]|[*\u2020\u2021\u00ae\u2122\u00a9])")
"""What a row's label carries beside its words: a note's number ("Total net sales (4)"), a trade mark ("iPhone®")."""


def value_match(ask: str, unit, label_only: bool = False) -> bool:
    """Whether a cell of the table row ``unit`` reads, as whole words, as a phrase of ``ask`` (a cell of letters of 4+
    characters, not a number or code). ``label_only``: only the row's label (its first non-empty cell, without a note's
    number or a trade mark: "Total net sales (4)", "iPhone®") counts — the row a question names ("total net sales"),
    where any cell would also match a value a list ask only mentions."""
    if unit.kind != "table_row":
        return False
    asked = " " + " ".join(_CELL_WORDS.findall(ask.lower())) + " "
    cells = [c for c in unit_cells(unit) if c.strip()]
    for cell in [_MARKS.sub("", c) for c in cells[:1]] if label_only else cells:  # a label carries its notes' marks;
        # the values a list ask names are compared as written
        words = _CELL_WORDS.findall(cell.lower())
        phrase = " ".join(words)
        if len(phrase) >= 4 and phrase == " ".join(cell.lower().split()).strip(" .") and f" {phrase} " in asked:
            return True
    return False


def label_row(unit) -> bool:
    """A table row that only labels the rows under it ("North America", "Operating expenses:", "April 2, 2023 to May 6,
    2023:"): of several columns, one cell holds text and no other holds anything. It states nothing alone; the rows
    under it mean what it says."""
    if unit.kind != "table_row":
        return False
    cells = unit_cells(unit)
    held = [c for c in cells if c.strip()]
    return len(cells) > 1 and len(held) == 1 and held[0] == cells[0] and bool(_CELL_WORDS.search(held[0]))


_TOKEN = re.compile(r"\S+")
_NUMERIC = re.compile(r"^[(\[]?[-+−]?\d[\d.,:%/]*[)\]%*∗†]*[,;]?$")
NUMERIC_RUN = 0.35
"""A sentence whose tokens are at least this share bare numbers is a table's row read as text (a PDF's results table):
evidence only for a question asking for numbers."""


def numeric_share(text: str) -> float:
    """Share of the text's tokens that are bare numbers ("15.60", "0.50", "(3B)" is not)."""
    tokens = _TOKEN.findall(text)
    return sum(1 for t in tokens if _NUMERIC.match(t)) / len(tokens) if tokens else 0.0


def shape_factor(unit) -> float:
    """Sentence-level evidence over boilerplate: long units and fragments count less."""
    chars = len(unit.text)
    if unit.kind in ("table_row", "step"):  # a row or a procedure's step is one piece of evidence, however long
        return 1.0
    if chars > 450:
        return (450 / chars) ** 0.5
    if len(unit.text.split()) < 4:
        return 0.7
    return 1.0
