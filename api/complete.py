"""Complete: each obligation covered or not, one plain line per gap, and the answer's label (paper §3.3 "Completeness").

An obligation nothing was shown for gets "The documents do not say ..."; one whose shown
sentences do not establish it (the writer's ``covered`` below the threshold) gets "The
sentences shown may not fully answer ...": it is never presented as complete.

Labels: ``complete`` (every obligation covered), ``partial`` (some obligation
not covered, while something the documents say about the question is shown),
``not_in_documents`` (nothing shown for any obligation: the answer says so and
cites nothing; never when a read section establishes part of it) and
``conditional`` (every obligation covered, but a verdict or value holds only
under a condition the documents state: "unless", "except", "provided that").
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from api.plan import Plan
from api.write import Unit

__all__ = ["ObligationStatus", "Completion", "complete_answer", "gap_line", "part_line", "NOT_IN_DOCUMENTS"]

Label = Literal["complete", "partial", "conditional", "not_in_documents"]
NOT_IN_DOCUMENTS = "This is not in these documents"
_CONDITION = re.compile(r"\b(unless|except|provided that|only if|only when|subject to)\b", re.I)


class ObligationStatus(BaseModel):
    """Whether the shown answer covers one obligation."""

    index: int
    kind: str
    ask: str
    covered: bool
    units: list[str] = Field(description="Ids of the shown units that serve it.")


class Completion(BaseModel):
    """The acceptance step's result."""

    label: Label
    obligations: list[ObligationStatus]
    gaps: list[str] = Field(description="One plain line per obligation not covered.")


def _indirect(ask: str) -> str:
    text = ask.strip().rstrip("?.! ").strip()
    return text[:1].lower() + text[1:] if text else "this"


def gap_line(ask: str) -> str:
    """'The documents do not say <what was asked>.'"""
    return f"The documents do not say {_indirect(ask)}."


def part_line(ask: str) -> str:
    """'The sentences shown may not fully answer <what was asked>.' (something was shown, not enough to cover it)"""
    return f"The sentences shown may not fully answer {_indirect(ask)}."


def complete_answer(plan: Plan, shown: list[Unit], covered: dict[int, float], threshold: float) -> Completion:
    """Compare the shown units with the plan's obligations."""
    statuses, gaps = [], []
    for index, obligation in enumerate(plan.obligations):
        own = [u.id for u in shown if (u.obligation == index or index in u.also) and u.kind not in ("table_header", "figure")]
        is_covered = bool(own) and covered.get(index, 0.0) >= threshold
        statuses.append(ObligationStatus(index=index, kind=obligation.kind, ask=obligation.ask, covered=is_covered, units=own))
        if not is_covered:
            gaps.append(part_line(obligation.ask) if own else gap_line(obligation.ask))
    n_covered = sum(1 for s in statuses if s.covered)
    if not any(s.units for s in statuses):
        label: Label = "not_in_documents"
    elif n_covered < len(statuses):
        label = "partial"
    else:
        verdicts = {s.index for s in statuses if s.kind in ("judge", "lookup")}
        conditional = any(u.obligation in verdicts and _CONDITION.search(u.text) for u in shown)
        label = "conditional" if conditional else "complete"
    return Completion(label=label, obligations=statuses, gaps=gaps)
