"""What a table's rows mean beside their own cells, for the extractive writer: the row that labels the rows under it
and the sentence that announces the table.

A 10-Q's segment table writes "AWS" on a row of its own and "Net sales | 20,538 | 23,059" under it; its
statement of operations introduces the table with "Operating expenses ... were as follows (dollars in millions):".
A row means what its label row says (``row_labels``: the writer quotes the label with the row), and a sentence that
announces a table gives no figure without its rows (``introduced_tables``, ``with_introduced_tables``: the rows come
with the sentence, as a list's items come with the sentence introducing the list).
"""

from __future__ import annotations

from shelfwise.api.answer.write.unit_shape import label_row

__all__ = ["row_labels", "introduced_tables", "with_introduced_tables"]


def row_labels(units: list) -> dict[int, int]:
    """Each table row's label row (``unit_shape.label_row``): the nearest row above it in its table that only labels
    the rows under it. ``units`` are the writer's pool, in document order; the result maps their indexes."""
    labels: dict[int, int] = {}
    current: dict[str, int] = {}
    for index, unit in enumerate(units):
        if unit.kind != "table_row":
            continue
        if label_row(unit):
            current[unit.group] = index
        elif unit.group in current:
            labels[index] = current[unit.group]
    return labels


def introduced_tables(units: list) -> dict[int, list[int]]:
    """A sentence that ends with a colon right before a table in its section ("Operating expenses for the three months
    ended ... were as follows (dollars in millions):") introduces it: each such sentence's index -> the table's rows'
    indexes, in order."""
    tables: dict[int, list[int]] = {}
    for index, unit in enumerate(units[:-1]):
        after = units[index + 1]
        if (unit.kind == "sentence" and unit.text.rstrip().endswith(":") and after.section_id == unit.section_id
                and after.kind in ("table_header", "table_row")):
            tables[index] = [i for i in range(index + 1, len(units))
                             if units[i].group == after.group and units[i].kind == "table_row"]
    return tables


def with_introduced_tables(pool, picked: list[tuple[float, int]], eligible: list[tuple[float, int]],
                           room: float) -> list[tuple[float, int]]:
    """``picked`` and the rows of each table a picked sentence introduces ("Share repurchase activity during the three
    months ended July 1, 2023 was as follows (in millions ...):"): without them it announces figures it does not give.
    The rows that rank for the obligation (``eligible``, best first) come first, then the others in the table's order,
    each at 0.9 of the sentence's score (a list item's factor beside its lead-in), while the written units fit ``room``
    characters (the part's budget with its overrun)."""
    have = {p for _, p in picked}
    used = sum(len(pool.units[p].text) for p in have)
    ranked = {i: r for r, (_, i) in enumerate(eligible)}
    extra = []
    for score, p_index in sorted(picked, reverse=True):
        rows = [i for i in pool.tables.get(p_index, []) if i not in have]
        for n_index in sorted(rows, key=lambda i: (ranked.get(i, len(ranked)), i)):
            if used + len(pool.units[n_index].text) > room:
                continue
            extra.append((round(score * 0.9, 4), n_index))
            have.add(n_index)
            used += len(pool.units[n_index].text)
    return picked + extra
