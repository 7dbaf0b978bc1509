"""Numbers written as words: "two", "fifteen", "sixty", "twice".

One table, read wherever a figure written in words counts as the figure: the ledger's thresholds ("fifteen days":
``shelfwise.compiler.ledger.rules``), the parts of a series ("Part Two": ``shelfwise.compiler.links.relations``),
the answer's number guard ("twice" stands for the source's "2": ``shelfwise.api.answer.check.guards``), same-rule figures
(``shelfwise.api.currency``), frequencies ("twice a year": ``shelfwise.api.answer.check.premise``) and amounts a unit gives
in words (``shelfwise.api.answer.write.rank``). The words are English.
"""

from __future__ import annotations

import re

__all__ = ["CARDINALS", "MULTIPLES", "NUMBER_WORDS", "QUARTER_ORDINALS", "PERIOD_WORDS", "quarters_in_words", "alternation"]

CARDINALS: dict[str, int] = {word: value for value, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty".split())} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
                                          "ninety": 90, "hundred": 100, "thousand": 1000}
"""A cardinal number written as one word -> its value."""

MULTIPLES: dict[str, int] = {"once": 1, "twice": 2, "thrice": 3}
"""How many times, as one word -> the count ("twice a year")."""

NUMBER_WORDS: dict[str, int] = CARDINALS | MULTIPLES
"""Every number word -> its value."""


def alternation(words) -> str:
    """A regular-expression alternation of ``words``, longest first (so "sixteen" is tried before "six")."""
    return "|".join(sorted(words, key=lambda w: (-len(w), w)))


QUARTER_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth"}
"""A quarter's number -> its ordinal ("Q3": "third quarter")."""
_QUARTER = re.compile(r"\bQ([1-4])\b")


def quarters_in_words(text: str) -> str:
    """``text`` with each quarter written "Q3" written "third quarter": one measure, however the filing writes it
    ("Sales increased 13% in Q3 2023" is about "the third quarter of 2023")."""
    return _QUARTER.sub(lambda m: f"{QUARTER_ORDINALS[int(m.group(1))]} quarter", text)


PERIOD_WORDS = frozenset("""quarter quarters quarterly year years annual month months week weeks fiscal first second third fourth
half nine six three twelve ended ending period periods ytd""".split())
"""Words that say which period a figure is of ("the third quarter of fiscal 2023"), not which figure it is."""
