"""Lead-ins: the sentences that introduce what an answer quotes after them, and what they introduce.

A list shows under the sentence introducing it ("The client MUST NOT use this method unless all of the following
conditions are met:"), and a table under the sentence announcing it ("Net sales ... were as follows (in millions):").
``list_runs`` and ``table_runs`` find them among the units an answer shows, ``all_or_none`` the lists that are one rule
whole; the size limit (``shelfwise.api.answer.show.shape.fit_units``) keeps or drops them together.
"""

from __future__ import annotations

import re

from shelfwise.api.answer.records import Unit
from shelfwise.api.answer.write.beside import introduces_code
from shelfwise.api.answer.write.unit_shape import label_row

__all__ = ["ITEMS", "ALL_OR_NONE", "list_runs", "table_runs", "all_or_none"]

ITEMS = ("list_item", "step")
ALL_OR_NONE = re.compile(
    r"\b(?:all|each|every|any|one|none|either|both|neither)\s+of\s+the\s+following\b"
    r"|\bthe\s+following\s+(?:\w+\s+){0,2}?(?:conditions?|requirements?|criteria|circumstances|cases|rules)\b"
    r"|\b(?:if|unless|only|provided|must|shall|required|requires?)\b[^:]*\bfollowing\b", re.I)
"""A lead-in whose list is a whole: its items are the conditions, requirements or alternatives of a rule ("unless all
of the following conditions are met:", "one of the following", "The CSP SHALL collect the following"), so a part of
the list read as the whole list misleads."""


def list_runs(units: list[Unit]) -> list[tuple[int | None, list[int]]]:
    """The lists ``units`` quote: per run of one list's items in a row (list items or steps of one section), the index
    of the sentence introducing it (the unit right before the run, of the same section, ending in ':'; None when the
    answer does not quote one) and the items' indexes."""
    runs: list[tuple[int | None, list[int]]] = []
    index = 0
    while index < len(units):
        unit = units[index]
        if unit.kind not in ITEMS or not unit.group:
            index += 1
            continue
        items = [index]
        while items[-1] + 1 < len(units) and units[items[-1] + 1].kind == unit.kind and units[items[-1] + 1].group == unit.group:
            items.append(items[-1] + 1)
        before = units[index - 1] if index else None
        lead = index - 1 if (before is not None and before.kind == "sentence" and before.citations[:1] == unit.citations[:1]
                             and introduces_code(before.text)) else None
        runs.append((lead, items))
        index = items[-1] + 1
    return runs


def table_runs(units: list[Unit]) -> list[tuple[int, list[int]]]:
    """The tables ``units`` quote with a sentence announcing a table ("Net sales ... were as follows (in millions):",
    a sentence ending in ':' of a section some quoted table row stands in): per such sentence, its index and the rows of
    its section's tables that state something. The answer orders blocks by relevance, so the sentence and its table need
    not be neighbours; without any of those rows the sentence announces figures the answer does not give."""
    rows: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        if u.kind == "table_row" and u.group and u.citations and not label_row(u):
            rows.setdefault(u.citations[0], []).append(i)
    return [(i, rows[u.citations[0]]) for i, u in enumerate(units)
            if u.kind == "sentence" and u.citations and u.citations[0] in rows and u.text.rstrip().endswith(":")]


def all_or_none(lead: Unit | None) -> bool:
    """Whether the list a sentence introduces is shown whole or not at all (``ALL_OR_NONE``)."""
    return lead is not None and bool(ALL_OR_NONE.search(lead.text))
