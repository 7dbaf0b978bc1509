"""Which columns of a statement table hold the period a question asks about.

A 10-Q's statement table gives each row for several periods: "Total net sales | $ 81,797 | $ 82,959 | $ 293,787 |
$ 304,182" under "Three Months Ended › July 1, 2023 | Three Months Ended › June 25, 2022 | Nine Months Ended ...".
The period a figure is for is its column's header, and which column comes first is the filer's habit (one puts the
year before first). ``period_columns`` says which columns hold the period the question names ("Q3 2023", "the
quarter ended July 1, 2023"; a fiscal quarter is the period end of the issuer's document of that quarter), or, when
the question names none, the period the document itself reports (its compiled identity's period end: the most recent
period of the document). The answer shows each first among the columns of its length ("Three Months Ended 2023 |
Three Months Ended 2022 | Nine Months Ended 2023 | Nine Months Ended 2022": ``column_order``), under headers that
say which period each is (``column_labels``): a PDF's spanning header "Three Months Ended" placed over one column of its two
("June 25, 2022 | Three Months Ended June 26, 2021") is the other column's too.
"""

from __future__ import annotations

import re

from shelfwise.compiler.digests.identity_match import periods_named

__all__ = ["column_labels", "column_order", "column_periods", "asked_dates", "period_columns", "mark_period_columns"]

_DURATION = re.compile(r"\b(?:(?:one|three|six|nine|twelve|thirteen|twenty-six|thirty-nine|fifty-two|\d{1,2})[\s-]+"
                       r"(?:months?|weeks?)|quarter|(?:fiscal\s+)?year|period)s?\s+ended\b", re.I)
"""The length of a column's period, as a statement header writes it ("Three Months Ended", "Fiscal Year Ended")."""
_JOIN = " \u203a "
"""How a joined header writes its parts ("Three Months Ended › July 1, 2023"), as the compiler joins header rows."""


def _date(cell: str) -> str:
    """The one date a header cell names, as an ISO key; '' when it names none or several (a range)."""
    dates = [key for key in periods_named(cell).values() if re.match(r"\d{4}-\d\d-\d\d$", key)]
    return dates[0] if len(set(dates)) == 1 else ""


def column_periods(header: list[str]) -> list[tuple[str, str]]:
    """Per header cell: (the length of its period as written, "" when it says none; its date key, "" when none). A
    dated cell that says no length, right before a dated cell that does, takes that length: the spanning header of a
    pair of columns was read into one of them."""
    periods = []
    for cell in header:
        match = _DURATION.search(cell)
        periods.append((match.group(0) if match else "", _date(cell)))
    for index, (length, date) in enumerate(periods[:-1]):
        after_length, after_date = periods[index + 1]
        if date and not length and after_date and after_length and after_date != date:
            periods[index] = (after_length, date)
    return periods


def column_labels(header: list[str]) -> list[str]:
    """The header cells as shown: a cell whose period length was read into its neighbour gets it back
    ("June 25, 2022" -> "Three Months Ended › June 25, 2022")."""
    labels = []
    for cell, (length, date) in zip(header, column_periods(header)):
        labels.append(f"{length}{_JOIN}{cell}" if length and date and not _DURATION.search(cell) else cell)
    return labels


def asked_dates(question: str, identity, identities: dict) -> set[str]:
    """The period ends a question asks about, for a table of the document ``identity`` (its compiled identity, or None):
    the dates it names, the period ends of the issuer's documents of the fiscal quarters it names, and, when it names
    no period, the document's own period end."""
    named = periods_named(question)
    dates = {key for key in named.values() if re.match(r"\d{4}-\d\d-\d\d$", key)}
    quarters = {key for key in named.values() if key not in dates}
    if identity is not None:
        for other in identities.values():
            if other.issuer == identity.issuer and other.fiscal_quarter in quarters and other.period_end:
                dates.add(other.period_end)
        if not named and identity.period_end:
            dates.add(identity.period_end)
    return dates


def period_columns(header: list[str], dates: set[str]) -> list[int]:
    """Indexes of the header's columns of the periods ending on ``dates`` (the shortest period first: the quarter
    before the nine months that end with it); empty when the table has a single dated column or none of them."""
    periods = column_periods(header)
    dated = [i for i, (_, date) in enumerate(periods) if date]
    if len(dated) < 2:
        return []
    asked = [i for i in dated if periods[i][1] in dates]
    if len(asked) == len(dated):
        return []  # every column is of the asked period: nothing to prefer
    return sorted(asked, key=lambda i: (_months(periods[i][0]), i))


_NUMBERS = {"one": 1, "three": 3, "six": 6, "nine": 9, "twelve": 12, "quarter": 3, "year": 12}


def _months(length: str) -> int:
    """A period length's months, for ordering (a length in weeks or unknown sorts after the known ones)."""
    first = length.lower().split()[0] if length else ""
    if first.isdigit():
        return int(first)
    return _NUMBERS.get(first, _NUMBERS.get(first.split("-")[0], 99))


def column_order(header: list[str], asked: list[int]) -> list[int]:
    """The order to show a table's columns in: each run of adjacent dated columns of one period length with its asked
    columns (``period_columns``) first, every other column where it stands (a row's label, a "Change" column)."""
    periods = column_periods(header)
    order = list(range(len(header)))
    start = 0
    while start < len(periods):
        end = start + 1
        if periods[start][1]:
            while end < len(periods) and periods[end][1] and periods[end][0].lower() == periods[start][0].lower():
                end += 1
            run = order[start:end]
            order[start:end] = [i for i in run if i in asked] + [i for i in run if i not in asked]
        start = end
    return order


def mark_period_columns(units: list, question: str, shelves: dict) -> list:
    """Each written table's columns of the asked period (``period_columns`` for ``asked_dates`` of the question and the
    table's document) set on its header's and rows' ``period_columns``; ``shelves``: the open shelves by name. Returns ``units``."""
    headers = [u for u in units if u.kind == "table_header" and u.cells]
    for header in headers:
        shelf = shelves.get(header.shelf)
        section = shelf.sections.get(header.citations[0]) if shelf and header.citations else None
        if section is None:
            continue
        dates = asked_dates(question, shelf.identities.get(section.doc_id), shelf.identities)
        columns = period_columns(header.cells, dates)
        for unit in units:
            if unit.group == header.group and unit.kind in ("table_header", "table_row") and len(unit.cells) == len(header.cells):
                unit.period_columns = list(columns)
    return units
