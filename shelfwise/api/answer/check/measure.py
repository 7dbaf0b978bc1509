"""Which figure a premise and a sentence are about: the content words they are compared by, and whether a clause says
that figure moved (read by the false-premise check, ``shelfwise.api.answer.check.premise``).

A premise that a figure rose is contradicted only by a sentence saying the same figure fell: the measure named before
the word that moves it ("Sales increased 13% in Q3 2023", "Total revenue of $11.7 billion was down $6.6 billion"), not
a part of it ("International segment net sales", "CCG revenue") nor something that moves it ("Changes in foreign
exchange rates increased net sales"). The words are English (``shelfwise.compiler.language``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from shelfwise.api.terms import word_stems
from shelfwise.compiler.language.directions import MOVED_PAIR, OPPOSITES, WHOLE_WORDS
from shelfwise.compiler.language.numbers import PERIOD_WORDS, quarters_in_words

__all__ = ["DOTTED", "COMPARISON_FRAME", "content_words", "measure_words", "moved_measure", "whole_moved", "named_only"]

_UNIT_STEMS = frozenset(word_stems("day days calendar working business week weeks month months year years hour hours minute minutes"))
_FUNCTION_STEMS = frozenset(word_stems("every all each such he him his she her hers our ours me my your yours has had have "
                                       "everything anything something everyone anyone someone"))
"""Quantifiers, determiners, pronouns and the forms of "have" the stemmer keeps ("always", "their" it drops): words that
say nothing a sentence must hold ("a customer has withdrawn her consent": "has" and "her" are no subject of it)."""

COMPARISON_FRAME = re.compile(
    r"\b(?:compared (?:to|with)|versus|vs\.?|against|over|from)\s+(?:a|the|one)?\s*(?:year|quarter|period)\s+(?:earlier|ago|before)\b|"
    r"\b(?:compared (?:to|with)|versus|vs\.?|against|over|from)\s+(?:the\s+)?(?:prior|previous|preceding|last|same)\s+"
    r"(?:year|quarter|period)(?:\s+(?:period|quarter))?(?:\s+(?:of|in|a|last)\s+(?:the\s+)?(?:prior\s+|previous\s+)?year)?\b|"
    r"\b(?:compared (?:to|with)|versus|vs\.?|against)\s+(?:the\s+)?(?:(?:first|second|third|fourth)\s+quarter\s+(?:of\s+)?|"
    r"Q[1-4]\s+|(?:fiscal\s+)?(?:year\s+)?)(?:fiscal\s+)?(?:19|20)\d\d\b|"
    r"\b(?:year|quarter)[- ]over[- ](?:year|quarter)\b|\ba year (?:earlier|ago|before)\b", re.I)
"""What a premise's figure is compared with when it says the figure moved ("compared with a year earlier",
"year over year", "from the prior-year quarter", "compared with the second quarter of 2022"): the frame of the movement, not words of its measure, so a sentence
saying the measure moved ("revenue was $12.9 billion, down $2.4 billion ... from Q2 2022") need not hold them."""

DOTTED = re.compile(r"(?<=\w)\.(?=[A-Za-z_])")
"""The dot of a qualified name: "typing.ParamSpec" holds "ParamSpec"."""


@lru_cache(maxsize=64)
def measure_words(premise: str) -> frozenset[str]:
    """The content words of a premise's measure and period, without what it compares with (``COMPARISON_FRAME``); made
    once per premise, however many sentences it is read against."""
    return frozenset(content_words(COMPARISON_FRAME.sub(" ", premise)) & content_words(premise)) - _SEGMENT


_SEGMENT = frozenset(word_stems("segment segments"))
"""What kind of part the measure's owner is ("Amazon's AWS segment sales"): a filing writes "AWS sales"."""


def content_words(text: str) -> set[str]:
    """The stems a premise and a sentence are compared by: no figures, no units, no direction words, no quantifiers the
    stemmer's stop list lacks (``_FUNCTION_STEMS``: "questions such as the name of their first pet" asks nothing of
    "such"); "Rev" is "Revision", "Q3" is "third quarter", "typing.ParamSpec" holds "ParamSpec"."""
    text = quarters_in_words(re.sub(r"\bRev\b\.?", "Revision", text))
    for up, down in OPPOSITES:
        text = re.sub(down, " ", re.sub(up, " ", text, flags=re.I), flags=re.I)
    words = set(word_stems(re.sub(r"\d+(?:\.\d+)?", " ", DOTTED.sub(" ", text))))
    return words - _UNIT_STEMS - _FUNCTION_STEMS


_MOVEMENT_CLAUSE = re.compile(r",(?!\s*(?:which|down|up)\b)\s*|;\s*|\s+and\s+", re.I)
"""Where a sentence's clauses part; "total net sales, which decreased" and "Revenue was $3.7 billion, down $2.4 billion"
stay one clause."""
_PERIOD_STEMS = frozenset(word_stems(" ".join(PERIOD_WORDS)))
_WHOLE_STEMS = frozenset(word_stems(" ".join(WHOLE_WORDS)))


def _part_of(measure: set[str], words: set[str], side: str) -> bool:
    """Whether the measure as ``side`` names it is a part of it: the word before its first word is another content
    word ("International segment net sales", "CCG revenue"), not a whole ("Total revenue"), an owner ("the Company's")
    nor one of the premise's."""
    tokens = re.findall(r"[\w'’-]+", side)
    first = next((i for i, token in enumerate(tokens) if set(word_stems(token)) & measure), None)
    if not first:
        return False
    if re.search(r"['’]s?$", tokens[first - 1]):  # "the Company's total net sales": whose, not which part
        return False
    qualifier = content_words(tokens[first - 1])
    return bool(qualifier) and not qualifier & (words | _WHOLE_STEMS)


def _measure_after(premise: str, measure: set[str], sign: int) -> bool:
    """Whether the premise names its measure after the word that moves it ("Rev D reduced management review": the
    revision moved it) rather than before it ("net sales decreased")."""
    match = re.search(MOVED_PAIR[0 if sign > 0 else 1], premise, re.I)
    return bool(match) and not content_words(premise[:match.start()]) & measure


def moved_measure(words: set[str], premise: str, text: str, sign: int, headings: set[str]) -> bool:
    """Whether a clause of ``text`` says the premise's measure (``words`` less its period: "net sales") moved the way
    ``sign`` says, named on the same side of the word that moves it as the premise names it: before it ("Sales
    increased 13%", "Total revenue ... was down $6.6 billion") for "net sales decreased", after it ("Revision D ...
    increases the frequency of management review") for "Rev D reduced management review"; its section's ``headings``
    (their content words) may hold the rest of it ("Net Sales"). "Changes in foreign exchange rates increased net
    sales" moves the exchange rates' effect, not net sales; "valued at the lower of cost" moves no measure."""
    measure = words - _PERIOD_STEMS
    after = _measure_after(premise, measure, -sign)
    for clause in _MOVEMENT_CLAUSE.split(text):
        for match in re.finditer(MOVED_PAIR[0 if sign > 0 else 1], clause, re.I):
            side = clause[match.end():] if after else clause[:match.start()]
            held = content_words(side)
            if not measure or (held & measure and measure <= held | headings and not _part_of(measure, words, side)):
                return True
    return False


_WHOLE_OR_OWN = re.compile(rf"\b(?:{'|'.join(sorted(WHOLE_WORDS))}|our|the company['’]s)\b", re.I)
"""What names a measure as the filer's whole one: "Total revenue", "Our Q2 2023 revenue", "the Company's total net sales"."""


def _movement(text: str) -> int:
    """+1 when ``text`` says a figure rose, -1 fell, 0 neither or both."""
    up, down = (bool(re.search(pattern, text, re.I)) for pattern in MOVED_PAIR)
    return 1 if up and not down else -1 if down and not up else 0


def whole_moved(measure: set[str], premise: str, sentence: str, headings: set[str]) -> bool:
    """Whether ``sentence`` names the premise's measure as a whole (``_WHOLE_OR_OWN``) and says it moved the way the
    premise says: then the premise holds, and a sentence saying a bare "Revenue was $232 million, up $175 million"
    under a segment's heading ("Intel Foundry Services") is about that segment, not a contradiction."""
    sign = _movement(premise)
    return bool(sign) and _movement(sentence) == sign and bool(_WHOLE_OR_OWN.search(sentence)) \
        and moved_measure(measure, premise, sentence, sign, headings)


_NOUN_AT = re.compile(r"\b(?:the|a|an|its|their|this|that|these|those|every|each|any)\s+([A-Za-z][\w-]*)\b(?!['’]s)|\b([A-Za-z][\w-]*)['’]s\b", re.I)


def named_only(premise: str) -> set[str]:
    """Stems the premise writes only as a thing, after a determiner or with a possessive ("the data subject's rights"):
    what it names, not what it says is done, which a sentence's "not subject to" does not deny."""
    named = {stem for match in _NOUN_AT.finditer(premise) for stem in word_stems(match.group(1) or match.group(2))}
    other = _NOUN_AT.sub(" ", premise)
    return named - set(word_stems(other))
