"""Tables a page break cut in two: the part on the next page gets the column header of the part above.

A PDF printed from HTML (an SEC filing) does not repeat a table's header on the page its rows run on to, so the part
on the next page is read as a table of its own whose first row stands for its header: Intel's 10-Q went on with
"Restructuring and other charges | Restructuring charges are costs ... | We exclude restructuring ..." as the header
of its non-GAAP table's second page, and an answer quoting that part labelled its columns with a row's sentences.
"""

from __future__ import annotations

import math
from statistics import median

from shelfwise.compiler.store.records import Element

__all__ = ["carry_headers"]


def _size(cell: str) -> float:
    return math.log1p(len(cell.strip()))


def _reads_as_body(row: list[str], header: list[str], body: list[list[str]]) -> bool:
    """Whether ``row`` is nearer, cell by cell, to the body rows of a table (each column's median cell length) than to
    its header row, lengths compared on a log scale: a header names its columns in a few words ("Definition"), a body
    row of a table of text states things ("Restructuring charges are costs associated with ..."); a header over
    figures is longer than the figures under it ("Three Months Ended › Jul 1, 2023" over "$ 1,234")."""
    to_header = sum(abs(_size(cell) - _size(head)) for cell, head in zip(row, header))
    to_body = sum(abs(_size(cell) - median(_size(other[column]) for other in body)) for column, cell in enumerate(row))
    return to_body < to_header


def carry_headers(elements: list[Element]) -> list[Element]:
    """``elements`` with each table that goes on from the table right before it given that table's header rows: the
    two stand next to each other in reading order (nothing between them), the second opens the next page, both have
    as many columns, the second repeats no header of the first, and its first row reads like the first's body rows
    (``_reads_as_body``), not like a header of its own. A table with a header of several rows keeps it."""
    for prev, table in zip(elements, elements[1:]):
        if prev.kind != "table" or table.kind != "table" or not prev.rows or not table.rows or not prev.header_rows \
                or table.header_rows > 1 or prev.page is None or table.page != prev.page + 1:
            continue
        head, body = prev.rows[:prev.header_rows], prev.rows[prev.header_rows:]
        width = len(head[-1])
        if not body or any(len(row) != width for row in [*prev.rows, *table.rows]) or table.rows[0] in head:
            continue
        if _reads_as_body(table.rows[0], head[-1], body):
            table.rows = [list(row) for row in head] + table.rows
            table.header_rows = len(head)
    return elements
