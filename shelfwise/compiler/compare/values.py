"""Values as a comparison reads them: amounts, percentages, durations, dates and plain numbers, and their differences.

A value's text is parsed once into a :class:`Value` (kind, number, unit). Two
values of one kind and unit have a signed difference that code computes, never
a writer: ``new - old`` for numbers (in the unit of both), day counts for dates.
Values that are numerically equal ("1,000.00" and "1000") are the same value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

__all__ = ["Value", "parse_value", "values_in", "difference", "same_value", "format_number"]

_MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), start=1)}
_MONTHS.update({name[:3]: number for name, number in list(_MONTHS.items())})
_MONTHS["sept"] = 9

_CURRENCY = r"(?:US\$|C\$|CA\$|A\$|AU\$|\$|€|£|USD|CAD|AUD|EUR|GBP)"
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_DURATION_UNITS = r"(?:(?:calendar|working|business) )?(?:days?|weeks?|months?|years?|hours?|minutes?)"
_ISO = r"\d{4}-\d{2}-\d{2}"
_DMY = r"\d{1,2} (?:%s)\.? \d{4}" % "|".join(sorted(_MONTHS, key=len, reverse=True))
_MDY = r"(?:%s)\.? \d{1,2}, \d{4}" % "|".join(sorted(_MONTHS, key=len, reverse=True))

_TOKEN = re.compile(
    rf"(?P<date>{_ISO}|{_DMY}|{_MDY})"
    rf"|(?P<neg>\()?(?P<minus>-|−)?(?P<cur>{_CURRENCY})\s?(?P<minus2>-)?(?P<amount>{_NUM})\)?(?:\s?(?P<code>USD|CAD|AUD|EUR|GBP))?"
    rf"|(?<![\w.:/-])(?P<minus3>-|−)?(?P<num>{_NUM})(?:\s?(?P<pct>%|percent\b)|[\s-](?P<unit>{_DURATION_UNITS})\b)?(?![\w]|[.:/-]\d)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Value:
    """A value read from text: ``kind`` is amount, percent, duration, date, number or text."""

    text: str
    kind: str
    number: Decimal | None = None
    unit: str = ""
    day: date | None = None


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def _date(text: str) -> date | None:
    text = text.replace(".", "").replace(",", "")
    try:
        if re.fullmatch(_ISO, text):
            year, month, day = (int(p) for p in text.split("-"))
            return date(year, month, day)
        parts = text.split()
        if parts[0].isdigit():
            return date(int(parts[2]), _MONTHS[parts[1].lower()], int(parts[0]))
        return date(int(parts[2]), _MONTHS[parts[0].lower()], int(parts[1]))
    except (ValueError, KeyError, IndexError):
        return None


def _unit(unit: str) -> str:
    """'Calendar days' and 'days' stay apart (they count differently); a plural and its singular are one unit."""
    unit = " ".join(unit.lower().split())
    return unit if unit.endswith("s") else unit + "s"


def _from_match(match: re.Match) -> Value | None:
    text = match.group(0).strip()
    if match.group("date"):
        day = _date(match.group("date"))
        return Value(text, "date", day=day) if day else None
    if match.group("amount"):
        number = _decimal(match.group("amount"))
        if number is None:
            return None
        if match.group("neg") and text.endswith(")") or match.group("minus") or match.group("minus2"):
            number = -number
        currency = (match.group("code") or match.group("cur")).upper().replace("US$", "$")
        return Value(text, "amount", number, currency)
    number = _decimal(match.group("num"))
    if number is None:
        return None
    if match.group("minus3"):
        number = -number
    if match.group("pct"):
        return Value(text, "percent", number, "%")
    if match.group("unit"):
        return Value(text, "duration", number, _unit(match.group("unit")))
    return Value(text, "number", number)


def values_in(text: str) -> list[tuple[int, int, Value]]:
    """Every value written in ``text``, with its character span, in order."""
    found = []
    for match in _TOKEN.finditer(text):
        value = _from_match(match)
        if value is not None:
            found.append((match.start(), match.end(), value))
    return found


def parse_value(text: str) -> Value:
    """The value of a field's text: one value filling the text (bar punctuation), else the text itself."""
    clean = " ".join(text.split()).strip(" .;:")
    spans = values_in(clean)
    if len(spans) == 1:
        start, end, value = spans[0]
        rest = (clean[:start] + clean[end:]).strip(" .;:")
        if not rest:
            return value
    return Value(clean, "text")


def same_value(old: Value, new: Value) -> bool:
    """True when both say the same: equal numbers of one kind and unit, equal dates, or equal text (case and spacing aside)."""
    if old.kind != new.kind:
        return False
    if old.kind == "date":
        return old.day == new.day
    if old.kind == "text":
        return " ".join(old.text.lower().split()) == " ".join(new.text.lower().split())
    return old.unit == new.unit and old.number == new.number


def format_number(number: Decimal, *, signed: bool = False) -> str:
    """'1,234.50' (two decimals kept when the value has them), with a sign when ``signed``."""
    exponent = number.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    body = f"{abs(number):,.{places}f}"
    if not signed:
        return ("-" if number < 0 else "") + body
    return ("+" if number > 0 else "−" if number < 0 else "±") + body


def difference(old: Value, new: Value) -> str | None:
    """The signed difference ``new - old`` as text ("−15 calendar days", "+$1,250.00", "+307 days"), or None when not comparable."""
    if old.kind != new.kind or old.kind == "text":
        return None
    if old.kind == "date":
        if old.day is None or new.day is None:
            return None
        days = (new.day - old.day).days
        return f"{format_number(Decimal(days), signed=True)} day{'s' if abs(days) != 1 else ''}"
    if old.unit != new.unit or old.number is None or new.number is None:
        return None
    delta = new.number - old.number
    if old.kind == "amount":
        sign = "+" if delta > 0 else "−" if delta < 0 else "±"
        symbol = "" if old.unit.isalpha() else old.unit
        code = "" if symbol else f" {old.unit}"
        return f"{sign}{symbol}{format_number(abs(delta))}{code}"
    if old.kind == "percent":
        return f"{format_number(delta, signed=True)} percentage points"
    if old.kind == "duration":
        return f"{format_number(delta, signed=True)} {old.unit}"
    return format_number(delta, signed=True)
