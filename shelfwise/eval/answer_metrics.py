"""Per-answer metrics read from a stored run line and its grade (paper §4.2).

- verified share against displayed sentences (§6.4): every statement the answer
  displays (each sentence of a paragraph, each list item, each table row;
  headings, the mode and removal footers, the plain not-covered lines (and the not-in-documents lines), quoted code
  blocks and fragments under three words left out) counts in the denominator; it counts as verified
  when it stands inside a unit the checker or code confirmed (shelfwise.api.answer.check.gate.CHECKED).
- label against grade: an answer labelled complete or conditional claims
  completeness, partial or not_in_documents does not; the grade says complete
  when every must item got full credit. They agree when both say the same.
"""

from __future__ import annotations

from collections import Counter

from shelfwise.api.answer.check.gate import CHECKED
from shelfwise.eval.judge import _plain, displayed_statements

__all__ = ["verified_share", "label_agrees", "CLAIMS_COMPLETE"]

CLAIMS_COMPLETE = ("complete", "conditional")


def verified_share(record: dict) -> tuple[int, int]:
    """(verified, displayed) statements of one answer record."""
    answer = record.get("answer") or {}
    checked = [_plain(s["text"]) for s in answer.get("sentences", []) if s.get("status") in CHECKED]
    rows = [_cells(s["text"]) for s in answer.get("sentences", []) if s.get("status") in CHECKED and s.get("kind") == "table_row"]
    shown = displayed_statements(answer.get("markdown", ""), answer.get("not_covered"))
    verified = 0
    for statement in shown:
        piece = _plain(statement)
        if piece and (any(piece in unit or unit in piece for unit in checked if unit)
                      or (statement.startswith("|") and any(_same_row(_cells(statement), row) for row in rows))):
            verified += 1
    return verified, len(shown)


def _cells(row: str) -> Counter:
    """A table row's non-empty cells, each as compared for quotes (its citations dropped)."""
    return Counter(cell for cell in (_plain(part) for part in row.strip().strip("|").split("|")) if cell)


def _same_row(shown: Counter, row: Counter) -> bool:
    """Whether a displayed table row shows a checked row's cells, in whatever order its columns are shown (the asked
    period first: ``shelfwise.api.answer.write.columns``), beside at most its Source cell's document name."""
    return bool(row) and not row - shown and sum((shown - row).values()) <= 1


def label_agrees(label: str | None, item_scores: list[float], expect: str = "") -> bool | None:
    """Whether the answer's own label matches its grade; None when either is missing. A not-in-documents question
    agrees when labelled not_in_documents; a false-premise one when not labelled complete (its premise fails)."""
    if expect == "not_in_documents" and label:
        return label == "not_in_documents"
    if expect == "false_premise" and label:
        return label not in CLAIMS_COMPLETE
    if not label or label == "n/a" or not item_scores:
        return None
    graded_complete = all(score >= 1.0 for score in item_scores)
    return (label in CLAIMS_COMPLETE) == graded_complete
