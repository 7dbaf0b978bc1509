"""Fallback: a model draft that failed for an obligation whose evidence was read is filled with checked quotes.

A model writer's part can come to nothing shown: its units cite nothing, cite ids it was not given, fail the
checker or the gate, or it wrote nothing (or "not in these documents") for that part. The completion step
would then read the empty part as "not in these documents", though the sections read may state it. So, per
obligation with nothing shown, the extractive writer (``shelfwise.api.answer.write.write.ExtractiveWriter``, the model-free writer,
called as it is) writes that obligation from the same reading; its quotes are verified by code and pass the
same gate. An obligation the extractive writer finds nothing for stays not covered: "not in these documents"
is then decided from the evidence, never from a failed writer. Each filled part is named in a warning and in
one plain line of the answer, so that a weak model never makes the answer worse than the model-free one.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from shelfwise.api.answer.check.gate import Gated, gate, verify_verbatim
from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.answer.read.read import Reading
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.answer.records import Draft, Unit, Writer

__all__ = ["Filled", "fill_failed_parts", "ANSWERING", "fill_line"]

ANSWERING = ("sentence", "list_item", "step", "table_row")
"""Unit kinds that answer (headings, lead-ins, connective text, table headers and figure captions do not)."""


class Filled(BaseModel):
    """The shown units after the fill, and what the fill did."""

    gated: Gated = Field(description="The shown units (model parts kept, failed parts filled) and every removal.")
    covered: dict[int, float] = Field(description="Per obligation, its coverage (the extractive writer's for a filled part).")
    filled: list[int] = Field(default_factory=list, description="Obligations filled with the extractive writer's quotes.")
    warnings: list[str] = Field(default_factory=list, description="One per filled obligation: why the model's part failed.")
    line: str = Field(default="", description="The plain line the answer carries when a part was filled ('' when none).")
    fill_draft: Draft | None = Field(default=None, description="The extractive writer's draft the fill drew from (for the trace).")


def _answering(units: list[Unit], index: int) -> list[Unit]:
    return [u for u in units if u.kind in ANSWERING and (u.obligation == index or index in u.also)]


def _why(index: int, draft: Draft, gated: Gated, unanswered: set[int]) -> str:
    said = ("connective", *ANSWERING)  # an uncited sentence is parsed as connective text: it is still the model's statement
    written = [u for u in draft.units if u.obligation == index and u.kind in said and u.group != "lead-in"]
    if written:
        reasons = [r.reason if r.unit.citations else "it cites no section" for r in gated.removed
                   if r.unit.obligation == index and r.unit.kind in said]
        first = f" (first: {reasons[0]})" if reasons else ""
        return f"none of its {len(written)} statement(s) could be verified{first}"
    if index in unanswered:
        return "the model said the documents do not answer it, but the sections read state its terms"
    return "the model wrote nothing for it"


def fill_line(plan: Plan, filled: list[int], *, uncited: bool = False) -> str:
    """The answer's plain line naming the parts filled with the documents' own sentences; ``uncited``: the model's
    statements for them cited no section (it is said so, not "could not be verified")."""
    if not filled:
        return ""
    failed = "cited nothing" if uncited else "could not be verified"
    if len(filled) == len(plan.obligations):
        what = "draft" if uncited else "answer"
        return f"The model's {what} {failed}, so the documents' own sentences are shown instead."
    asks = ", ".join(f"\u201c{plan.obligations[i].ask.strip().rstrip('?.')}\u201d" for i in filled)
    return (f"The model's text for {asks} {failed}, so the documents' own sentences are shown for "
            f"{'it' if len(filled) == 1 else 'them'} instead.")


def _uncited(draft: Draft, filled: list[int]) -> bool:
    """Whether the model wrote statements for the filled parts and none of them cites a section."""
    said = [u for u in draft.units if u.obligation in filled and u.kind in ("connective", *ANSWERING) and u.group != "lead-in"]
    return bool(said) and not any(u.citations for u in said)


def fill_failed_parts(plan: Plan, reading: Reading, shelves: dict[str, OpenShelf], draft: Draft, gated: Gated,
                      extractive: Writer, *, unanswered: set[int] | frozenset[int] = frozenset()) -> Filled:
    """Fill every obligation the model's checked draft shows nothing for with the extractive writer's checked quotes.

    ``draft`` is the checked model draft, ``gated`` its gate result, ``unanswered`` the parts the model said the
    documents do not answer.
    """
    covered = dict(draft.covered)
    empty = [i for i in range(len(plan.obligations)) if not _answering(gated.shown, i)]
    if not empty:
        return Filled(gated=gated, covered=covered)
    quotes = verify_verbatim(extractive.write(plan, reading, shelves), shelves)
    quotes = quotes.model_copy(update={"units": [u.model_copy(update={"id": f"x{u.id.lstrip('u')}", "origin": "fallback"}) for u in quotes.units]})
    quoted = gate(quotes)
    filled = [i for i in empty if _answering(quoted.shown, i)]
    if not filled:
        return Filled(gated=gated, covered=covered, fill_draft=quotes)
    into: list[Unit] = []
    for unit in quoted.shown:
        serves = [i for i in [unit.obligation, *unit.also] if i in filled]
        if serves:
            into.append(unit.model_copy(update={"obligation": serves[0], "also": serves[1:]}))
    kept = [u for u in gated.shown if u.obligation not in filled]
    shown = sorted([*kept, *into], key=lambda u: u.obligation)  # stable: each part keeps its own order
    removed = [*gated.removed, *(r for r in quoted.removed if r.unit.obligation in filled)]
    warnings = []
    for i in filled:
        covered[i] = quotes.covered.get(i, 0.0)
        warnings.append(f"the model's text for part {i + 1} ({plan.obligations[i].ask!r}) could not be used: "
                        f"{_why(i, draft, gated, set(unanswered))}; the documents' own sentences are shown for it instead")
    return Filled(gated=Gated(shown=shown, removed=removed), covered=covered, filled=filled, warnings=warnings,
                  line=fill_line(plan, filled, uncited=_uncited(draft, filled)), fill_draft=quotes)
