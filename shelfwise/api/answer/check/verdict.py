"""Judgments derived by code (paper §6.15): a day count from checked dates against a checked limit.

A judgment question ("was complaint X closed in time?", "is instrument Y still in its interval on 1 August
2026?") is answered by the documents only through a rule and a record: they state the limit and the dates,
never the conclusion. When the shown, checked units hold both — a record (a table row or sentence) naming the
identifier the question names, with dates, and a rule giving a limit ("within 30 calendar days", "every 6
months") — code counts from the record's first date to the event (the date the question names, else the
record's next date) and compares with the limit. The verdict is shown first in its part, labelled "Derived from
the documents", citing both premises; it is made only while both are shown checked. Working-day limits are not
counted (no working calendar is known), and nothing is derived from an unchecked unit.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from shelfwise.api.answer.question import read_phrase
from shelfwise.api.answer.check.gate import CHECKED, DERIVED_LABEL
from shelfwise.api.terms import identifier_key, identifiers, unit_cells, word_stems
from shelfwise.api.answer.records import Unit

__all__ = ["derive_verdicts", "question_date", "add_months"]

_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTHS = {name.lower(): number for number, name in enumerate(calendar.month_name) if name}
_WRITTEN = re.compile(r"\b(\d{1,2})\s+(" + "|".join(_MONTHS) + r")\s+(\d{4})\b|\b(" + "|".join(_MONTHS) + r")\s+(\d{1,2}),?\s+(\d{4})\b", re.I)
_DAYS = re.compile(r"\bwithin\s+(\d+)\s+(calendar\s+)?days?\b", re.I)
_MONTHLY = re.compile(r"\bevery\s+(\d+)\s+months?\b", re.I)
_JUDGE = ("judge", "lookup")


def _dates(text: str) -> list[date]:
    out = []
    for y, m, d in _ISO.findall(text):
        try:
            out.append(date(int(y), int(m), int(d)))
        except ValueError:
            continue
    return out


def question_date(text: str) -> date | None:
    """The one date a question names ("15 September 2026", "August 1, 2026", "2026-08-01"), or None."""
    found = _dates(text)
    for match in _WRITTEN.finditer(text):
        day, month, year = (match.group(1), match.group(2), match.group(3)) if match.group(1) else (match.group(5), match.group(4), match.group(6))
        try:
            found.append(date(int(year), _MONTHS[month.lower()], int(day)))
        except ValueError:
            continue
    return found[0] if len(set(found)) == 1 else None


def add_months(start: date, months: int) -> date:
    month = start.month - 1 + months
    year, month = start.year + month // 12, month % 12 + 1
    return date(year, month, min(start.day, calendar.monthrange(year, month)[1]))


def _limit(units: list[Unit], question: str) -> tuple[Unit, str, int] | None:
    """The checked rule unit giving a calendar-day or a monthly limit that shares most words with the question:
    (unit, 'days' | 'months', n)."""
    words = set(word_stems(question))
    for unit in sorted(units, key=lambda u: -len(words & set(word_stems(u.text)))):
        if unit.kind == "table_row":
            continue
        days = _DAYS.search(unit.text)
        if days and (days.group(2) or "working" not in unit.text[days.start():days.end() + 12].lower()):
            return unit, "days", int(days.group(1))
        months = _MONTHLY.search(unit.text)
        if months:
            return unit, "months", int(months.group(1))
    return None


_COLUMN = re.compile(r"\b(days?|months?)\b", re.I)


def _column_limit(record: Unit, headers: dict[str, Unit]) -> tuple[Unit, str, int] | None:
    """A limit the record's own table gives: a column headed in days or months ("Interval (months)") holding a number."""
    header = headers.get(record.group)
    if record.kind != "table_row" or header is None:
        return None
    for name, cell in zip(unit_cells(header), unit_cells(record)):
        unit = _COLUMN.search(name)
        if unit and cell.strip().isdigit() and "working" not in name.lower():
            return record, "months" if unit.group(1).lower().startswith("month") else "days", int(cell)
    return None


def _verdict_text(record: str, start: date, end: date, event_named: bool, kind: str, limit: int) -> str:
    days = (end - start).days
    if kind == "days":
        where = "within the limit" if days <= limit else f"over the limit by {days - limit} days"
        return (f"{record}: from {start.isoformat()} to {end.isoformat()} is {days} calendar days; the limit is {limit} "
                f"calendar days, so it is {where}.")
    due = add_months(start, limit)
    state = "within" if end <= due else "past"
    return (f"{record}: {limit} months from {start.isoformat()} ends on {due.isoformat()}; "
            f"{end.isoformat()} is {state} that interval.")


def derive_verdicts(question: str, asks: list[tuple[str, str]], shown: list[Unit]) -> list[Unit]:
    """Verdict units (group 'verdict', status 'computed') for judgment obligations whose rule and record are shown checked.

    ``asks`` holds each obligation's (kind, ask)."""
    checked = [u for u in shown if u.status in CHECKED and u.citations and u.group not in ("verdict", "correction")]
    asked = read_phrase(question)
    named = dict(zip(asked.keys, asked.identifiers))
    event = question_date(question)
    headers = {u.group: u for u in shown if u.kind == "table_header" and u.group}
    out = []
    for index, (kind, ask) in enumerate(asks):
        if kind not in _JUDGE or not named:
            continue
        records = [u for u in checked if _dates(u.text) and {identifier_key(i) for i in identifiers(u.text)} & named.keys()]
        records.sort(key=lambda u: not ({identifier_key(i) for i in identifiers(unit_cells(u)[0])} & named.keys()))
        limit = _limit(checked, question) or (_column_limit(records[0], headers) if records else None)
        if not records or limit is None:
            continue
        record, (rule, unit, number) = records[0], limit
        dates = _dates(record.text)
        end = event or (dates[1] if len(dates) > 1 else None)
        if end is None:
            continue
        ident = next(named[k] for k in named if k in {identifier_key(i) for i in identifiers(record.text)})
        text = f"{DERIVED_LABEL} {_verdict_text(ident, dates[0], end, event is not None, unit, number)}"
        out.append(Unit(id=f"v{index}", kind="sentence", text=text, shelf=record.shelf, obligation=index, status="computed",
                        citations=list(dict.fromkeys([*record.citations, *rule.citations])), group="verdict", score=1.0, origin="verdict",
                        source=record.source))
    return out
