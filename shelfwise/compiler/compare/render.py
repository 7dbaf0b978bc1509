"""The change set as Markdown: one named table per pair, with section ids on both sides."""

from __future__ import annotations

from collections.abc import Callable

from shelfwise.compiler.compare.changes import Change, ChangeSet
from shelfwise.compiler.store.records import table_line

__all__ = ["render_pair", "render_batch", "change_cells", "MODEL_FREE_NOTE"]

MODEL_FREE_NOTE = "Model-free comparison: every change and difference below is computed by code from the two documents."


def _cell(text: str | None) -> str:
    return " ".join((text or "").split()).replace("|", "\\|") or "—"


def _code(section_id: str) -> str:
    return f"(`{section_id}`)"


def _side(section_id: str | None, heading: str, cite: Callable[[str], str] = _code) -> str:
    return " ".join(filter(None, [_cell(heading), cite(section_id)])) if section_id else "—"


def change_cells(change: Change, cite: Callable[[str], str] = _code) -> list[str]:
    """The cells of one change's row after its number: change, what, old, new, difference, section in A, section in B."""
    detail = change.difference or change.words or ""
    return [change.kind, _cell(change.what), _cell(change.old), _cell(change.new), _cell(detail),
            _side(change.section_a, change.heading_a, cite), _side(change.section_b, change.heading_b, cite)]


def _row(number: int, change: Change, cite: Callable[[str], str] = _code) -> str:
    return table_line([str(number), *change_cells(change, cite)])


def render_pair(changes: ChangeSet, name: str = "", cite: Callable[[str], str] = _code) -> str:
    """'### name: A → B', a line of counts, then the table of changes (or a line saying there are none).

    ``cite`` writes a section id in the table (by default as code; an answer writes it as ``[sid]``)."""
    title = f"{changes.title_a} → {changes.title_b}"
    lines = [f"### {name}: {title}" if name else f"### {title}", ""]
    lines.append(f"`{changes.doc_a}` → `{changes.doc_b}`: {len(changes.changes)} change(s); "
                 f"{changes.fields_compared} field(s) on both sides, {changes.sections_aligned} section(s) aligned.")
    lines.append("")
    if not changes.changes:
        lines.append("No differences: every field, line item and sentence reads the same in both.")
        return "\n".join(lines)
    lines.append("| # | Change | What | Old (A) | New (B) | Difference | Section in A | Section in B |")
    lines.append("|---|---|---|---|---|---|---|---|")
    lines.extend(_row(n, c, cite) for n, c in enumerate(changes.changes, start=1))
    return "\n".join(lines)


def render_batch(named: list[tuple[str, ChangeSet]], alone: list[tuple[str, str, str]]) -> str:
    """Every pair's table under its name, then the documents with nothing to compare (name, doc id, title)."""
    parts = [MODEL_FREE_NOTE, ""]
    for name, changes in named:
        parts.extend([render_pair(changes, name), ""])
    if alone:
        parts.extend(["### Not compared", "", "These documents have no other version in the shelf:", ""])
        parts.extend(f"- {name or title}: `{doc_id}` ({_cell(title)})" for name, doc_id, title in alone)
    return "\n".join(parts).rstrip() + "\n"
