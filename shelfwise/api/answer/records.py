"""The answer's records: the units an answer is made of, the draft a writer returns, and the seam a writer fills.

``Unit`` is one displayable unit (a sentence, list item, step, table row, heading, figure caption, code block); its
``origin`` says who wrote it: a writer (extractive or model), the fallback's quotes filling a model's failed part,
the premise check's correction, a verdict derived by code, a day count computed by the checker, or the computed
comparison. ``Draft`` is what a writer returns and the checker fills in: every field a stage after the writer reads
is declared here, with its default when that stage did not run. ``Writer`` is the seam the answer driver calls.
The stages that make and judge these records live in ``shelfwise.api.answer.write``, ``shelfwise.api.answer.check`` (check, gate) and
``shelfwise.api.answer.show`` (what is shown; rendered by ``shelfwise.api.answer.render``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from shelfwise.api.answer.plan.plan import Plan
    from shelfwise.api.answer.read.read import Reading
    from shelfwise.api.shelves import OpenShelf

__all__ = ["Unit", "UnitKind", "Origin", "Draft", "Claim", "InventedCitation", "Removal", "Writer"]

UnitKind = Literal["sentence", "list_item", "step", "table_header", "table_row", "figure", "heading", "connective", "code"]
Origin = Literal["writer", "fallback", "correction", "verdict", "computed", "comparison"]
"""Who wrote a unit: the writer (extractive or model); the extractive writer's quotes filling a model part that came to
nothing shown (``shelfwise.api.answer.check.fallback``); the premise check's correction (``shelfwise.api.answer.check.premise``); a
verdict derived by code (``shelfwise.api.answer.check.verdict``); a day count computed by the checker
(``shelfwise.api.answer.check.check.with_day_counts``); the computed comparison (``shelfwise.api.answer.compare.compare_answer``)."""


class Unit(BaseModel):
    """One displayable unit of the draft."""

    id: str = Field(description="u1, u2, ... in draft order (x1, x2, ... for the fallback's quotes, so every id in a "
                                "trace names one unit; v<n> for a derived verdict, c<n>-<m> for a comparison's).")
    kind: UnitKind
    text: str = Field(description="The unit's text as displayed (without citation marks).")
    origin: Origin = Field(default="writer", description="Who wrote it (``Origin``).")
    shelf: str = Field(default="", description="Shelf of the cited sections.")
    citations: list[str] = Field(default_factory=list, description="Section ids it rests on.")
    obligation: int = Field(description="Index of the obligation it serves.")
    score: float = Field(default=0.0, description="How well it establishes the obligation (extractive writer).")
    status: str = Field(default="written", description="written, verbatim, supports, unconfirmed, ... as the checker sets it.")
    group: str = Field(default="", description="Units that display together (one table, one procedure).")
    cells: list[str] = Field(default_factory=list, description="A table row's or header's cells as its table holds them "
                             "(``text`` is them joined by ``row_text``); empty for other units and for a row known only as text.")
    also: list[int] = Field(default_factory=list, description="Other obligations this unit establishes (it is shown once).")
    period_columns: list[int] = Field(default_factory=list, description="A table header's or row's columns of the period "
                                      "the question asks about (else the period its document reports), shown first after the "
                                      "row's label (``shelfwise.api.answer.write.columns``); empty when the table has one period.")
    source: str = Field(default="", description="Short name of the cited document (\"QM-001 Rev D\"), set by shelfwise.api.currency.label_units.")
    superseded_by: str = Field(default="", description="Short name of the document superseding the cited one; empty when current.")


class Claim(BaseModel):
    """One checkable statement: a unit, or one cell of a table row."""

    id: str = Field(description="c1, c2, ... in draft order.")
    unit_id: str = Field(description="The unit it comes from.")
    cell: int | None = Field(default=None, description="Column of the table cell it is; None for a whole unit.")
    kind: Literal["sentence", "list_item", "step", "figure", "table_cell", "change_cell"]
    text: str = Field(description="What is checked, as displayed.")
    context: str = Field(default="", description="What the checker needs to read a cell: its column header and row.")
    shelf: str = ""
    citations: list[str] = Field(default_factory=list)
    verdict: str = Field(default="pending", description="verbatim, supports, restated, contradicts, unconfirmed, unchecked, computed, carried.")
    span: str = Field(default="", description="The verified span of the cited section that decided it.")
    reason: str = Field(default="", description="Why it was not confirmed, in words.")
    restated: str = Field(default="", description="The cited section's sentence shown in its place after the second look.")
    tries: int = Field(default=0, description="Checker calls that carried it.")


class InventedCitation(BaseModel):
    """Section ids one unit cited that the writer was not given: dropped from the unit, recorded in the trace."""

    unit: str = Field(description="The unit's id in the draft ('u3').")
    text: str = Field(description="The unit's text, as the writer wrote it.")
    ids: list[str] = Field(description="The section ids it cited that were not among the sections read, in its order.")
    kept: list[str] = Field(description="The citations left on the unit; none: it cites nothing else and is not shown.")

    def note(self) -> str:
        """The warning naming them (the answer's warnings say it in words)."""
        return (f"the model writer cited section id(s) {', '.join(self.ids)} that it was not given, in {self.unit} "
                f"{self.text[:120]!r}; {'those citations were dropped' if self.kept else 'it cites nothing else and is not shown'}")


class Draft(BaseModel):
    """What a writer produced, and what the checker made of it. The fields after ``raw`` stay empty where their stage
    did not run (the extractive writer writes no notes; without a checker there are no claims)."""

    writer: str = Field(description="'extractive' or the writer model id.")
    units: list[Unit]
    covered: dict[int, float] = Field(default_factory=dict, description="Per obligation, the share of its words its best unit holds.")
    raw: str | None = Field(default=None, description="A model writer's raw text, kept for the trace.")
    notes: list[str] = Field(default_factory=list, description="The model writer's invented citation ids dropped and sentences "
                                                               "attributed, in words (the answer's warnings).")
    invented: list[InventedCitation] = Field(default_factory=list, description="Each unit's invented citation ids (the notes "
                                                                               "name them in words; the trace keeps these).")
    unanswered: list[int] = Field(default_factory=list, description="Parts the model writer said the documents do not answer.")
    claims: list[Claim] = Field(default_factory=list, description="Every claim the checker saw, with its verdict, verified span and reason.")
    checker: str = Field(default="", description="The checker's name (model id or a fake's); empty when no checker ran.")
    calls: int = Field(default=0, description="Checker calls made.")
    warnings: list[str] = Field(default_factory=list, description="What went wrong while checking, in words.")
    verbatim: bool = Field(default=False, description="Every unit is the documents' own text though a model wrote the draft (a "
                                                      "model that chose and ordered quotes: models.writer_role = 'select').")


class Removal(BaseModel):
    """A unit (or one table cell of it) that was written but not shown."""

    unit: Unit
    stage: str = Field(description="The step that removed it: 'check' (the claim checker's verdict) or 'gate' (the display "
                                   "rules), or a later step of what is shown (``shelfwise.api.answer.show.show.STEPS``).")
    reason: str
    cell: int | None = Field(default=None, description="The blanked cell's column when only a table cell was removed.")


class Writer(Protocol):
    """Turns what was read into a draft."""

    name: str

    def write(self, plan: Plan, reading: Reading, shelves: dict[str, OpenShelf]) -> Draft: ...
