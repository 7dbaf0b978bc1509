"""What a financial statement calls its lines, and the everyday words a question uses for them.

A filer's statement lists "Operating expenses" where a reader asks about "operational expenditures" or "spending",
and reports "Net income" and "Operating income" where a reader asks about "earnings" or "profit". Word overlap cannot
see that the line answers the question ("operational" and "operating" do not even stem alike). ``STATEMENT_NAMES``
pairs each statement phrase with the stems of the words that name the same line (``word_stems`` stems, as the
writer's query holds them); a table row or header of a periodic report (a filing) that says the phrase also holds
those words (``name_statement_lines``).

This is the vocabulary of financial reporting, not a fit to any question: each pair is a line of an income statement
and its everyday name. A phrase that only shares a word is not paired ("Provision for income taxes" is no earnings).
Only a statement's lines are named so, not prose: "increases in headcount-related expenses" is no expenditure a
question about R&D asks for. "Net sales" is not paired with "revenue" either, although it is the same line: a filer
that reports net sales says it in every sentence of its results, and naming all of them revenue buried the row asked
for (measured on dev-filings: figures in the answer 0.485 -> 0.492 in prose and rows, 0.483 in rows; Apple's Services
revenue row and Amazon's segment revenue rows lost to net sales sentences). The words are English.
"""

from __future__ import annotations

import re
from collections import Counter

from shelfwise.api.terms import word_stems

__all__ = ["STATEMENT_NAMES", "also_called", "name_statement_lines"]

STATEMENT_NAMES: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = tuple((re.compile(phrase, re.I), frozenset(word_stems(words))) for phrase, words in (
    (r"\bexpenses\b", "expenditures spending"),
    (r"\boperating\s+expenses\b", "operational"),  # "operational" and "operating" stem apart
    (r"\b(?:net|operating)\s+income\b", "earnings profit"),
))
"""(a statement's phrase, the stems of the everyday words for the same line): "expenses" are expenditures and
spending, "Operating expenses" operational ones, "Net income" and "Operating income" earnings and profit."""


def also_called(text: str) -> frozenset[str]:
    """The stems of the everyday names of the statement lines ``text`` names ("Total operating expenses | 122,584" ->
    {"expenditur", "spend", "oper"})."""
    found: set[str] = set()
    for phrase, words in STATEMENT_NAMES:
        if phrase.search(text):
            found |= words
    return frozenset(found)


def name_statement_lines(units: list) -> None:
    """Give each table row and header among ``units`` (the writer's ``Candidate``s of periodic reports) the everyday
    names of the statement line it names: "Operating expenses | 112,775 | 122,584" then holds "expenditures" for "How
    did Amazon's operational expenditures stack up against its earnings in Q1 2023?"."""
    for unit in units:
        if unit.kind not in ("table_row", "table_header"):
            continue
        extra = also_called(unit.text) - unit.words
        if extra:
            unit.tf = unit.tf + Counter(extra)  # a new Counter: the one a unit is made with is shared
            unit.words = unit.words | extra
