"""The figures a premise and a sentence give, by unit (the premise check's "another figure"): "60 days", "72 hours" (also
in hours, so 3 days and 72 hours are one figure), "three years" in words, "twice a year" per year, "HTTP 404" as a
status code. The words are English."""

from __future__ import annotations

import re

from shelfwise.api.answer.check.limits import DURATION_HOURS
from shelfwise.compiler.language.numbers import CARDINALS, MULTIPLES, NUMBER_WORDS, alternation

__all__ = ["STATUS", "figures", "per_year"]

_UNITS = r"(calendar days?|working days?|business days?|days?|weeks?|months?|years?|hours?|minutes?|%|per ?cent|characters?|times)"
_FIGURE = re.compile(rf"\b(\d+(?:\.\d+)?)[\s-]*{_UNITS}\b", re.I)
_SPELLED = re.compile(rf"(?<!-)\b(?P<word>{alternation(set(CARDINALS) - {'zero', 'one', 'hundred', 'thousand'})})[\s-]+{_UNITS}\b", re.I)
"""A figure written in words: "three years", "six years" ("twenty-one days" is left unread, not read as one). Not "a"
or "one": "within a day" is a bound (``check.limits`` reads it against "not later than 72 hours"), "a year earlier" no
figure."""
STATUS = re.compile(r"\bHTTP\s+(?:(?:status|response)\s+(?:code\s+)?)?([1-5]\d\d)\b|\bstatus code (?:of )?([1-5]\d\d)\b", re.I)
"""An HTTP status code ("HTTP 404", "HTTP status code 200", "status code 401"): a figure of the series, not a name."""

_PER = {"year": 1, "month": 12, "week": 52}
_FREQUENCY = re.compile(rf"\b((?:{alternation(MULTIPLES)})|(?:{alternation(CARDINALS)}) times) (?:a|per|each) (year|month|week)\b|\bevery (\d+) (months?|weeks?)\b", re.I)


def per_year(text: str) -> set[str]:
    """How often a sentence says something happens, per year ("twice a year", "every 6 months": 2)."""
    out = set()
    for times, per, every, unit in _FREQUENCY.findall(text):
        if times:
            out.add(f"{NUMBER_WORDS[times.lower().split()[0]] * _PER[per.lower()]:g}")
        elif int(every):
            out.add(f"{(12 if unit.lower().startswith('month') else 52) / int(every):g}")
    return out


_HOURS = {unit: least for unit, (least, most) in DURATION_HOURS.items() if least == most}
"""Durations that convert exactly, in hours: "7 days" and "72 hours" are two figures of one unit (months and years vary)."""


def figures(text: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    yearly = per_year(text)
    if yearly:
        out["per year"] = yearly
    written = [(m.group(1), m.group(2)) for m in _FIGURE.finditer(text)] + [
        (str(CARDINALS[m.group("word").lower()]), m.group(2)) for m in _SPELLED.finditer(text)]
    for number, unit in written:
        key = unit.lower().split()[-1].rstrip("s") if unit.strip() not in ("%",) else "%"
        out.setdefault(key, set()).add(number)
        if key in _HOURS and key != "hour":
            out.setdefault("hour", set()).add(f"{float(number) * _HOURS[key]:g}")
    if "hour" in out:
        out["hour"] = {f"{float(n):g}" for n in out["hour"]}
    for match in STATUS.finditer(text):
        out.setdefault("HTTP status code", set()).add(match.group(1) or match.group(2))
    return out
