"""The kinds of contradiction the premise check (``shelfwise.api.answer.check.premise``) tries on a read sentence, in order.

Two families, each a tuple of checks tried in turn, the first that says why winning:

- ``BY_FORM``: a sentence contradicts by its form, whatever share of the premise's words it holds: an item's BCP 14
  label, a count of what the premise says is absent, what is done instead, one thing at a time against interleaved, an
  edition that has not yet added something, swapped terms, a comparison the other way round, several against only one,
  again and again against once;
- ``BY_WORDS``: a sentence that holds ``answer.tuning.premise_share`` of the premise's content words contradicts it by
  a passed limit, a reversed order, a requirement or a freedom the premise denies, or another answer to what it asks.

Each check is a reading of language written in its own module; none is a weight.
"""

from __future__ import annotations

from shelfwise.api.answer.check.about import About
from shelfwise.api.answer.check.each import (comparison_reversed, in_turn_against_interleaved, many_against_only_one,
                                              order_reversed, repeated_against_once)
from shelfwise.api.answer.check.editions import not_yet
from shelfwise.api.answer.check.limits import limit_passed
from shelfwise.api.answer.check.modality import labelled
from shelfwise.api.answer.check.presence import absent, answered_otherwise, free, instead, required
from shelfwise.api.answer.check.swapped import swapped

__all__ = ["BY_FORM", "BY_WORDS", "by_form", "by_words"]

BY_FORM = (labelled, absent, instead, in_turn_against_interleaved, not_yet, swapped, comparison_reversed, many_against_only_one,
           repeated_against_once)
"""Checks of ``by_form``, in the order they are tried."""
BY_WORDS = (limit_passed, order_reversed, required, free, answered_otherwise)
"""Checks of ``by_words``, in the order they are tried: each ``(premise, sentence) -> why``."""
_READ = {swapped}
"""Checks of ``BY_FORM`` that read every sentence of the reading (the terms it defines), not the sentence's document."""
_PLAIN = {comparison_reversed, many_against_only_one, repeated_against_once}
"""Checks of ``BY_FORM`` that need nothing but the premise and the sentence."""


def by_form(premise: str, sentence: str, known: About | None, read: list[str]) -> str:
    """Why ``sentence`` contradicts ``premise`` by its form ("" when it does not); ``known`` is what its document is,
    ``read`` every sentence read for the question."""
    for check in BY_FORM:
        why = check(premise, sentence, read) if check in _READ else check(premise, sentence) if check in _PLAIN \
            else check(premise, sentence, known)
        if why:
            return why
    return ""


def by_words(premise: str, sentence: str) -> str:
    """Why ``sentence``, which holds enough of the premise's words, contradicts it ("" when it does not)."""
    for check in BY_WORDS:
        why = check(premise, sentence)
        if why:
            return why
    return ""
