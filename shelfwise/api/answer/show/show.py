"""What is shown: the steps after the writer, each returning what it kept and what it removed, with the reason.

The answer driver (``shelfwise.api.answer``) runs them in the order of ``STEPS`` on one ``Showing``:

1. gate      displayed = checked (``shelfwise.api.answer.check.gate``): what the checker or the display rules refused;
2. fallback  a model part that came to nothing shown is filled with the extractive writer's checked quotes
             (``shelfwise.api.answer.check.fallback``); the model's units of a filled part give way;
3. evidence  an obligation whose asked words no read section holds, or whose asked subject no section that would
             answer it is about, or whose asked period no unit that would be shown names while no document of the
             issuer has it (``shelfwise.api.answer.read.periods``), shows nothing
             (``shelfwise.api.answer.read.evidence``), nor does a part going on about such a part by a pronoun
             ("..., and how did it change?"); a question sentence states
             nothing; and once the answer is fitted, an answer no shown unit of which answers any part says it is
             not in these documents and shows nothing;
4. premise   the sentence contradicting the question's premise leads (``shelfwise.api.answer.check.premise``);
5. verdict   verdicts derived by code from a shown rule and record (``shelfwise.api.answer.check.verdict``, extractive writer);
6. repeats   each unit labelled with its document, then each statement shown once (``shelfwise.api.answer.show.shape.distinct``);
7. order     per obligation, current documents first and the superseded only where they matter; the extractive
             writer's units stay on the documents the question names, most relevant block first;
8. fit       the least relevant units give way until the rendered answer fits its room; the answer is completed
             (``shelfwise.api.answer.complete``) and rendered, and refitted to a tighter limit while it is over.

Each step's ``Shown`` goes to the trace (``Trace.shown_steps``), so every unit written and not shown names the step
that removed it and why (``shelfwise trace ID``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from pydantic import BaseModel, Field

from shelfwise.api.currency import current_first, label_units
from shelfwise.api.answer.check.fallback import fill_failed_parts
from shelfwise.api.answer.check.gate import Gated, not_shown_line
from shelfwise.api.answer.check.premise import correction_unit
from shelfwise.api.answer.check.verdict import derive_verdicts
from shelfwise.api.answer.write.write import is_question
from shelfwise.api.answer.complete import Completion, complete_answer
from shelfwise.api.answer.render import render_markdown
from shelfwise.api.answer.show.shape import FIXED, about_named, distinct, fit_units, most_relevant_first, on_bound_reports
from shelfwise.api.answer.read.evidence import on_shelves, read_shelves, referring_back, unheld_subjects, unstated_obligations
from shelfwise.api.answer.read.periods import unheld_periods
from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.answer.read.read import Reading
from shelfwise.api.answer.records import Draft, Removal, Unit, Writer
from shelfwise.api.shelves import OpenShelf
from shelfwise.compiler.tuning import DEFAULT_TUNING, AnswerTuning

__all__ = ["Shown", "Showing", "STEPS", "gate", "fallback", "evidence", "premise", "verdict", "repeats", "order", "fit",
           "REFITS", "REFIT_MARGIN"]

STEPS = ("gate", "fallback", "evidence", "premise", "verdict", "repeats", "order", "fit")
"""The steps of what is shown, in the order the driver runs them."""
REFITS = 4
"""Times the answer is shaped again, to a tighter limit, when its Markdown (gap lines and footers included) is over
its room."""
REFIT_MARGIN = 60
"""Characters taken off the shaping limit beyond the excess on each refit."""


class Shown(BaseModel):
    """What one step of what is shown kept (in order) and removed, each removal with its step and reason."""

    step: str = Field(description="One of STEPS.")
    kept: list[Unit]
    removed: list[Removal] = Field(default_factory=list)

    def record(self) -> dict:
        """The trace's account of the step: kept unit ids, and per removal the unit id, its stage, reason and cell."""
        return {"step": self.step, "kept": [u.id for u in self.kept],
                "removed": [{"unit": r.unit.id, "stage": r.stage, "reason": r.reason, "cell": r.cell} for r in self.removed]}


@dataclass
class Showing:
    """One answer's way through the steps: their inputs, and what each step leaves for the ones after it."""

    plan: Plan
    reading: Reading
    shelves: dict[str, OpenShelf]
    draft: Draft
    gate: Callable[[Draft], Gated]
    fill_writer: Callable[[], Writer]
    """The extractive writer that fills a failed model part (made only when the fallback runs)."""
    room: int
    """Characters the rendered answer may take."""
    tuning: AnswerTuning = DEFAULT_TUNING
    """The thresholds the steps use (``answer.tuning``)."""
    extractive: bool = field(init=False)
    verbatim: bool = field(init=False)
    gated: Gated | None = None
    covered: dict[int, float] = field(default_factory=dict)
    fill_line: str = ""
    warnings: list[str] = field(default_factory=list)
    written: list[Unit] = field(default_factory=list)
    unstated: dict[int, list[str]] = field(default_factory=dict)
    about: set[int] = field(default_factory=set)
    held: dict[int, str] = field(default_factory=dict)
    """Per obligation asking about a period the shelf does not hold, which periods it holds (``read.periods``)."""
    correction: Unit | None = None
    completion: Completion | None = None
    markdown: str = ""
    steps: list[Shown] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.extractive = self.draft.writer == "extractive"
        self.verbatim = self.extractive or self.draft.verbatim  # quotes only (a model may have chosen them)
        self.covered = dict(self.draft.covered)
        self.written = list(self.draft.units)

    @property
    def asks(self) -> list[str]:
        return [o.ask for o in self.plan.obligations]

    @property
    def shown(self) -> list[Unit]:
        """What the last step kept."""
        return self.steps[-1].kept if self.steps else []


def _dropped(before: list[Unit], after: list[Unit], step: str, reason: Callable[[Unit], str]) -> list[Removal]:
    """Removals of the units of ``before`` that ``after`` no longer holds (by id), each with ``reason(unit)``."""
    kept = {u.id for u in after}
    return [Removal(unit=u, stage=step, reason=reason(u)) for u in before if u.id not in kept]


def gate(units: list[Unit], s: Showing) -> Shown:
    """Displayed = checked: the gate's shown units and its removals (stage 'check' or 'gate')."""
    s.gated = s.gate(s.draft)
    return Shown(step="gate", kept=s.gated.shown, removed=s.gated.removed)


def fallback(units: list[Unit], s: Showing) -> Shown:
    """A model draft's failed parts filled with the extractive writer's checked quotes; nothing for the extractive writer."""
    if s.extractive:
        return Shown(step="fallback", kept=units)
    before = s.gated
    filled = fill_failed_parts(s.plan, s.reading, s.shelves, s.draft, before, s.fill_writer(), unanswered=set(s.draft.unanswered))
    s.gated, s.covered, s.fill_line = filled.gated, filled.covered, filled.line
    s.warnings += filled.warnings
    s.written += [u for u in (filled.fill_draft.units if filled.fill_draft else []) if u.obligation in filled.filled]
    gave_way = [Removal(unit=u, stage="fallback", reason=f"the model's part {u.obligation + 1} came to nothing shown; the documents' "
                                                          "own sentences are shown for it instead")
                for u in units if u.obligation in filled.filled]
    return Shown(step="fallback", kept=filled.gated.shown, removed=[*gave_way, *filled.gated.removed[len(before.removed):]])


def evidence(units: list[Unit], s: Showing) -> Shown:
    """Obligations the read sections do not state show nothing; question sentences state nothing."""
    s.unstated = unstated_obligations(s.plan, s.reading, s.shelves)
    scope = read_shelves(s.reading, s.shelves)
    for index, words in s.unstated.items():  # words the shelf uses elsewhere: no section read for the part is about them
        if all(on_shelves(word, scope) for word in words):
            s.about.add(index)
    for index, names in unheld_subjects(s.plan, units, s.shelves).items():  # what would be shown is about something else
        if index not in s.unstated:
            s.unstated[index] = names
            s.about.add(index)
    for index, period in unheld_periods(s.plan, units, s.shelves).items():  # what would be shown is of other periods
        if index not in s.unstated:
            s.unstated[index], s.held[index] = period.asked, period.held
            s.about.add(index)
    for index, earlier in referring_back(s.plan, set(s.unstated)).items():  # "..., and how did it change?": of that too
        s.unstated[index] = s.unstated[earlier]
        if earlier in s.about:
            s.about.add(index)
        if earlier in s.held:
            s.held[index] = s.held[earlier]
    removed, kept = [], []
    for unit in units:
        if unit.obligation in s.unstated:
            names = ", ".join(f"\u201c{n}\u201d" for n in s.unstated[unit.obligation])
            why = (f"no section that would answer part {unit.obligation + 1} is about {names}" if unit.obligation in s.about
                   else f"no section read mentions {names}, which part {unit.obligation + 1} asks about")
            removed.append(Removal(unit=unit, stage="evidence", reason=why))
        elif unit.kind not in FIXED and unit.group not in ("verdict", "correction") and is_question(unit.text):
            removed.append(Removal(unit=unit, stage="evidence", reason="a question sentence asks, it does not state"))
        else:
            kept.append(unit)
    return Shown(step="evidence", kept=kept, removed=removed)


def premise(units: list[Unit], s: Showing) -> Shown:
    """The read sentence contradicting the question's premise, shown first."""
    s.correction = correction_unit(s.plan.question, s.reading, s.shelves, s.tuning)
    if s.correction is None:
        return Shown(step="premise", kept=units)
    s.written.append(s.correction)
    return Shown(step="premise", kept=[s.correction, *units])


def verdict(units: list[Unit], s: Showing) -> Shown:
    """Verdicts derived by code from shown rules and records (extractive writer), after the correction."""
    shown = [u for u in units if u.origin != "correction"]
    verdicts = derive_verdicts(s.plan.question, [(o.kind, o.ask) for o in s.plan.obligations], shown) if s.verbatim else []
    s.written += verdicts
    lead = [u for u in units if u.origin == "correction"]
    return Shown(step="verdict", kept=[*lead, *verdicts, *shown])


def repeats(units: list[Unit], s: Showing) -> Shown:
    """Each unit labelled with its document (and what superseded it), then each statement once."""
    kept, removed = distinct(label_units(units, s.shelves), s.tuning)
    return Shown(step="repeats", kept=kept, removed=removed)


def _off_named(unit: Unit) -> str:
    if unit.kind == "table_header":
        return "no row of its table is shown"
    return "its part names documents by their identifiers, and it neither comes from nor names one of them"


def _off_period(unit: Unit) -> str:
    return "its part is bound to other reports of the same issuer (another period's figures)"


def _restated_old(unit: Unit) -> str:
    if unit.kind == "table_header":
        return "no row of its table is shown"
    return f"its document is superseded by {unit.superseded_by}, and a current document shown states the same rule"


def order(units: list[Unit], s: Showing) -> Shown:
    """Per obligation current documents first (the superseded only where they matter); the extractive writer's units
    on the documents the question names, most relevant block first."""
    removed: list[Removal] = []
    if s.extractive:
        named = about_named(units, s.asks, s.shelves)
        removed += _dropped(units, named, "order", _off_named)
        bound = on_bound_reports(named, s.plan, s.shelves)
        removed += _dropped(named, bound, "order", _off_period)
        units = bound
    current = current_first(units, s.asks, s.tuning)
    removed += _dropped(units, current, "order", _restated_old)
    return Shown(step="order", kept=most_relevant_first(current) if s.extractive else current, removed=removed)


def _too_long(limit: int) -> Callable[[Unit], str]:
    def why(unit: Unit) -> str:
        if unit.kind == "table_header":
            return f"every row of its table gave way to the size limit ({limit:,} characters)"
        if unit.kind == "code":
            return f"the sentence introducing it gave way to the size limit ({limit:,} characters), or it did"
        return f"among the least relevant units (score {unit.score:.3f}), it gave way to the size limit ({limit:,} characters)"
    return why


def fit(units: list[Unit], s: Showing) -> Shown:
    """The least relevant units give way until the rendered answer fits ``s.room``; the answer is completed and rendered
    each time (the gap lines and footers are known only then), and refitted to a tighter limit while it is over. An
    answer no shown unit of which answers any part says it is not in these documents and shows nothing: those removals
    carry the stage 'evidence'."""
    room, limit = s.room, s.room
    not_shown = "\n\n".join(line for line in (s.fill_line, not_shown_line(s.gated)) if line)
    for _ in range(REFITS):
        used = limit
        fitted, short = fit_units(units, limit, s.extractive, s.tuning,
                                  procedures={i for i, o in enumerate(s.plan.obligations) if o.kind == "trace"})
        s.completion = complete_answer(s.plan, fitted, s.covered, s.tuning.covered_share, unstated=s.unstated, short=short, about=s.about,
                                       false_premise=s.correction is not None, held=s.held)
        shown = fitted if s.completion.label != "not_in_documents" else []
        quoted = s.extractive or (s.fill_line and all(u.origin == "fallback" for u in shown if u.kind != "heading"))
        mode = "model-free" if quoted else "model-chosen" if s.verbatim else "model"
        s.markdown = render_markdown(s.plan, shown, s.completion, s.shelves, mode, not_shown=not_shown)
        over = len(s.markdown) - room
        if over <= 0 or limit <= room // 2:
            break
        limit = max(limit - over - REFIT_MARGIN, room // 2)
    removed = _dropped(units, fitted, "fit", _too_long(used))
    why = "no shown unit answers any part of the question: the answer says this is not in these documents"
    removed += [Removal(unit=u, stage="evidence", reason=why) for u in fitted if not shown]
    return Shown(step="fit", kept=shown, removed=removed)
