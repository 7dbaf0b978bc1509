"""A limit the premise goes past: "lets memorized secrets be as short as 4 characters" against "SHALL be at least 8
characters in length"; "may allow up to 20 consecutive failed authentication attempts" against "SHALL allow no more than
5 consecutive failed authentication attempts"; "the salt only needs to be 16 bits long" against "The salt SHALL be at
least 32 bits in length"; "notify ... within a month" against "not later than 72 hours".

A sentence states a bound ("at least", "no more than", "a maximum of", "up to", "not later than", ...) of a number of
some thing; the premise gives a figure of the same thing (the word right after the number, or the last word of the
thing's name before a preposition: "20 consecutive failed attempts" and "5 consecutive failed authentication attempts"
are attempts) past that bound. The thing is any noun, not a list of units: a limit is said of bits, characters,
attempts, iterations or days alike. Durations compare in hours, a month as at least 28 days and a year as at least 365
(a month may be longer: the premise's "a month" goes past "72 hours" however long the month).

When unsure, nothing is said: a premise that states a bound the same way ("at least 4 characters" against "at least 8")
asks nothing the sentence denies; a sentence giving several bounds of the thing the same way ("a maximum of 7 days but
MAY be made valid up to 21 days") is gone past only when every one of them is. A premise saying a thing is limited
("limits the jobs to the number of CPUs") is gone past by a sentence saying there is no limit on it ("there is no limit
on the number of job slots"). The words are English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelfwise.api.terms import word_stems
from shelfwise.compiler.language.numbers import CARDINALS, alternation

__all__ = ["Figure", "DURATION_HOURS", "limit_passed", "premise_figures", "bounds"]

_LOWER = r"at least|no (?:fewer|less) than|not (?:fewer|less) than|a minimum of|minimum of|(?:a|the) minimum (?:length|size) of"
_AT_MOST = r"at most|no more than|not more than|a maximum of|maximum of|(?:a|the) maximum (?:length|size) of|not (?:to )?exceed(?:ing)?"
_UPPER = rf"{_AT_MOST}|up to|not later than|no later than|within"
"""A sentence's maximum. In a premise, "up to 20 attempts" and "within a month" say what it takes to be allowed (a figure),
not a maximum it states (``_GIVEN``)."""
_NUMBER = rf"(?P<n>\d[\d,]*(?:\.\d+)?|an?|{alternation(CARDINALS)})"
_STOP = frozenset("""of in on for to at by with from per and or but before after within when if which that than as is are
be shall should must may can will long wide in length size each every""".split())
_WORD = rf"(?!(?:{'|'.join(sorted(_STOP, key=len, reverse=True))})\b)[A-Za-z][\w-]*"
_THING = rf"(?P<thing>{_WORD}(?:\s+{_WORD}){{0,3}})"
"""The thing a figure counts: up to four words before the first function word ("8 characters" of "8 characters in length")."""
_AMOUNT = frozenset(word_stems("hundred thousand million billion trillion percent per cent dollars usd euros eur pounds"))
"""Words that say how large a figure is, not what it counts ("$14 billion" of revenue, "5 billion" of repurchases)."""
_BOUND = re.compile(rf"\b(?P<op>{_LOWER}|{_UPPER})\s+{_NUMBER}\s+{_THING}", re.I)
_ALSO = re.compile(rf"\s*,?\s+(?:or|and)\s+(?P<n>\d[\d,]*(?:\.\d+)?)\s+{_THING}")
"""A second figure the same bound sets: "no more than 5 consecutive failed authentication attempts or 10 consecutive
failed attempts"."""
_LIMITED = re.compile(rf"\blimit(?:s|ed|ing)?\s+{_THING}[^.;:]{{0,40}}?\s+to\s+(?:(?:{_AT_MOST})\s+)?(?P<n>\d[\d,]*(?:\.\d+)?)\b", re.I)
"""A maximum set by limiting a thing: "SHALL limit consecutive failed authentication attempts on a single account to no
more than 100"."""
_GIVEN = re.compile(rf"(?:\b(?P<op>{_LOWER}|{_AT_MOST})\s+)?(?<![\w.,$€£])(?P<n>\d[\d,]*(?:\.\d+)?|an?|one)\s+{_THING}", re.I)
_UPPER_RE = re.compile(rf"^(?:{_UPPER})$", re.I)
DURATION_HOURS = {"minute": (1 / 60, 1 / 60), "hour": (1.0, 1.0), "day": (24.0, 24.0), "week": (168.0, 168.0),
                  "month": (672.0, 744.0), "year": (8760.0, 8784.0)}
"""A duration's least and greatest length in hours (a month is 28 to 31 days, a year 365 or 366)."""
_HOURS = {next(iter(word_stems(unit))): hours for unit, hours in DURATION_HOURS.items()}


@dataclass(frozen=True)
class Figure:
    """A number of a thing: the thing's first and last stems (``first``, ``head``), the figure as written
    (``written``: "32 bits"), its least and greatest value, and the way it bounds (-1: at least, 1: at most, 0: a figure)."""

    first: str
    head: str
    written: str
    low: float
    high: float
    way: int


def _value(text: str) -> float | None:
    low = text.lower()
    if low in ("a", "an", "one"):
        return 1.0
    if low in CARDINALS:
        return float(CARDINALS[low])
    try:
        return float(low.replace(",", ""))
    except ValueError:
        return None


def _thing_stems(thing: str) -> list[str]:
    """The stems of a thing's words (``_THING`` stops before its first function word)."""
    return [stem for word in thing.split() for stem in word_stems(word)]


def _figure(op: str | None, number: str, thing: str) -> Figure | None:
    stems, value = _thing_stems(thing), _value(number)
    if not stems or value is None or stems[0] in _AMOUNT or (number.lower() in ("a", "an", "one") and stems[0] not in _HOURS):
        return None  # "a" counts only a duration ("within a month"), never "a single shell"
    low, high, written = value, value, f"{number} {thing}"
    if stems[0] in _HOURS:
        least, most = _HOURS[stems[0]]
        low, high, stems = value * least, value * most, ["hour"]
    way = 0 if not op else (1 if _UPPER_RE.match(" ".join(op.split())) else -1)
    return Figure(first=stems[0], head=stems[-1], written=written, low=low, high=high, way=way)


def premise_figures(premise: str) -> list[Figure]:
    """The figures the premise gives, each with the bound it states (if any)."""
    return [f for m in _GIVEN.finditer(premise) if (f := _figure(m.group("op"), m.group("n"), m.group("thing"))) is not None]


def bounds(sentence: str) -> list[Figure]:
    """The bounds a sentence states ("at least 8 characters", "no more than 100 ...", "not later than 72 hours")."""
    found = []
    for m in _BOUND.finditer(sentence):
        found.append(_figure(m.group("op"), m.group("n"), m.group("thing")))
        also = _ALSO.match(sentence, m.end())  # "no more than 5 ... attempts or 10 ..."
        if also:
            found.append(_figure(m.group("op"), also.group("n"), also.group("thing")))
    found += [_figure("at most", m.group("n"), m.group("thing")) for m in _LIMITED.finditer(sentence)]
    return [f for f in found if f is not None]


def _same_thing(a: Figure, b: Figure) -> bool:
    return a.first == b.first or a.head == b.head


_CLAIMED_LIMIT = re.compile(rf"\blimit(?:s|ed|ing)?\s+(?:the\s+)?{_THING}\s+to\b", re.I)
_NO_LIMIT = re.compile(rf"\bno\s+(?:limit|maximum|upper bound|cap)\s+(?:on|to|for)\s+(?:the\s+)?(?:number\s+of\s+)?{_THING}", re.I)
"""A premise saying a thing is limited ("limits the jobs to the number of CPUs"); a sentence saying it is not ("there is
no limit on the number of job slots")."""


def limit_passed(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` by a limit it sets ('' when it does not): the premise's figure of a thing
    is below every minimum, or above every maximum, the sentence sets for that thing; or the premise says the thing is
    limited and the sentence that there is no limit on it."""
    claimed = [stems for m in _CLAIMED_LIMIT.finditer(premise) if (stems := _thing_stems(m.group("thing")))]
    for lifted in _NO_LIMIT.finditer(sentence):
        thing = _thing_stems(lifted.group("thing"))
        if thing and any(c[0] == thing[0] or c[-1] == thing[-1] for c in claimed):  # the same thing (``_same_thing``)
            return f"the documents say there is {lifted.group(0)}"
    stated = bounds(sentence)
    for given in premise_figures(premise):
        for way in (-1, 1):
            if given.way == way:
                continue  # "at least 4" against "at least 8": the premise states a bound too, and not a wrong one
            same = [b for b in stated if b.way == way and _same_thing(given, b)]
            if not same:
                continue
            if way == -1 and all(given.high < b.low for b in same):
                return f"the documents set a minimum ({min(same, key=lambda b: b.low).written})"
            if way == 1 and all(given.low > b.high for b in same):
                return f"the documents set a maximum ({max(same, key=lambda b: b.high).written})"
    return ""

