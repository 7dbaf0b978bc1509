"""Gate: displayed = checked (paper §3.4, §6.10, §6.15, §6.17). A unit is shown only when it is checked.

- A sentence, list item, step or figure caption is shown only with a confirmed status: verbatim
  (its text stands in a section it cites, ``verify_verbatim``), supports (checker + code
  guards), restated (the second look's sentence of the section), carried, computed.
- A table cell that fails is blanked alone; its row stays (removed only when no cell is left).
- A heading (or a table header cell) stays only when it is a fixed label, or holds no digit and
  every content word of it stands in the checked text under it.
- Connective text and lead-ins pass unchecked only when they carry no number, date, name or
  modal verb, and every content word of them stands in the checked text of the answer.
- A verdict is shown first in its part, labelled "derived from the documents", only while every
  premise it rests on is shown checked; otherwise it is removed naming the premise that failed.
Every removal is returned with its stage and reason; ``not_shown_line`` says how many.
"""

from __future__ import annotations

from pydantic import BaseModel

from shelfwise.api.answer.check.guards import MODALS, markers, names, numbers
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import normalise, stems, unit_cells
from shelfwise.compiler.store.records import row_text
from shelfwise.api.answer.records import Draft, Removal, Unit

__all__ = ["Gated", "verify_verbatim", "gate", "not_shown_line", "CHECKED", "FIXED_LABELS", "DERIVED_LABEL"]

CHECKED = ("verbatim", "supports", "restated", "carried", "computed")
CHECK_FAILURES = ("contradicts", "unconfirmed", "unchecked", "not_found", "cells-failed")
DERIVED_LABEL = "Derived from the documents:"
FIXED_LABELS = frozenset(
    "answer summary overview details definition definitions steps procedure process comparison changes conditions "
    "exceptions requirements timeline background notes verdict sources references key points what changed "
    "how it works why in short deadlines limits roles responsibilities scope example examples".split()
) | {"what changed", "how it works", "key points", "in short"}

CONNECTIVE_WORDS = frozenset(stems("short summary however addition example instance therefore thus hence first second "
                                   "third finally next then further furthermore moreover words put simply together "
                                   "following below above briefly overall contrast likewise similarly meanwhile"))


class Gated(BaseModel):
    """The units shown and the units removed."""

    shown: list[Unit]
    removed: list[Removal]


def _section_text(shelf: OpenShelf, section_id: str) -> str:
    return shelf.memo(("normalised", section_id), lambda: normalise(shelf.sections[section_id].text))


def verify_verbatim(draft: Draft, shelves: dict[str, OpenShelf]) -> Draft:
    """Mark 'verbatim' every unit whose text stands in one of its cited sections (code, no model)."""
    units = []
    for unit in draft.units:
        shelf = shelves.get(unit.shelf)
        text = normalise(unit.text)
        found = bool(shelf) and bool(text) and any(
            sid in shelf.sections and text in _section_text(shelf, sid) for sid in unit.citations
        )
        units.append(unit.model_copy(update={"status": "verbatim"}) if found and unit.status == "written" else unit)
    return draft.model_copy(update={"units": units})


def _content(text: str) -> set[str]:
    return set(stems(text))


def _is_label(text: str) -> bool:
    return normalise(text).strip(" :*#").lower() in FIXED_LABELS


def _claims_by_unit(draft: Draft) -> dict[str, list]:
    out: dict[str, list] = {}
    for claim in draft.claims:
        out.setdefault(claim.unit_id, []).append(claim)
    return out


def _unit_reason(unit: Unit, claims: list) -> tuple[str, str]:
    if not unit.citations:
        return "gate", "cites no section"
    if claims and claims[0].reason:
        return ("check" if unit.status in CHECK_FAILURES else "gate"), f"{unit.status}: {claims[0].reason}"
    return "gate", f"not checked ({unit.status}): its text does not stand in {', '.join(unit.citations)}"


def _row(unit: Unit, claims: list, removed: list[Removal]) -> Unit | None:
    """A table row with its failed cells blanked, or None when nothing of it is checked."""
    if unit.status in ("verbatim", "supports"):
        return unit
    if not unit.citations or not claims:
        stage, reason = _unit_reason(unit, claims)
        removed.append(Removal(unit=unit, stage=stage, reason=reason))
        return None
    cells = unit_cells(unit)
    for claim in claims:
        if claim.verdict not in CHECKED and claim.cell is not None and claim.cell < len(cells):
            cells[claim.cell] = ""
            removed.append(Removal(unit=unit.model_copy(update={"text": claim.text}), stage="check", cell=claim.cell,
                                   reason=f"table cell {claim.verdict}: {claim.reason or 'not confirmed'}"))
    if not any(cell.strip() for cell in cells):
        return None
    return unit.model_copy(update={"text": row_text(cells), "cells": cells, "status": "supports"})


def gate(draft: Draft) -> Gated:
    """Show checked units; remove the rest with the reason (see the module text)."""
    claims = _claims_by_unit(draft)
    removed: list[Removal] = []
    decided: dict[str, Unit | None] = {}
    for unit in draft.units:
        if unit.kind in ("heading", "connective", "table_header") or unit.group == "verdict":
            continue
        if unit.kind == "table_row":
            decided[unit.id] = _row(unit, claims.get(unit.id, []), removed)
        elif unit.status in CHECKED and unit.citations:
            decided[unit.id] = unit
        else:
            stage, reason = _unit_reason(unit, claims.get(unit.id, []))
            removed.append(Removal(unit=unit, stage=stage, reason=reason))
            decided[unit.id] = None
    shown_text = " ".join(u.text for u in decided.values() if u is not None)
    answer_words = _content(shown_text)
    for index, unit in enumerate(draft.units):
        if unit.id in decided:
            continue
        if unit.group == "verdict":
            decided[unit.id] = _verdict(unit, draft.units, decided, removed)
        elif unit.kind == "heading":
            decided[unit.id] = _heading(unit, _under(draft.units, index, decided), removed)
        elif unit.kind == "table_header":
            decided[unit.id] = _header(unit, [decided.get(u.id) for u in draft.units if u.group == unit.group], removed)
        else:
            decided[unit.id] = _connective(unit, answer_words, _under(draft.units, index, decided), removed)
    shown = [decided[u.id] for u in draft.units if decided.get(u.id) is not None]
    verdicts = [u for u in shown if u.group == "verdict"]
    rest = [u for u in shown if u.group != "verdict"]
    ordered: list[Unit] = []
    for obligation in dict.fromkeys(u.obligation for u in draft.units):
        ordered += [u for u in verdicts if u.obligation == obligation] + [u for u in rest if u.obligation == obligation]
    return Gated(shown=ordered, removed=removed)


def _under(units: list[Unit], index: int, decided: dict[str, Unit | None]) -> list[Unit]:
    """The shown units after ``units[index]`` up to the next heading of the same part."""
    out = []
    for unit in units[index + 1:]:
        if unit.kind == "heading" or unit.obligation != units[index].obligation:
            break
        if decided.get(unit.id) is not None:
            out.append(decided[unit.id])
    return out


def _heading(unit: Unit, under: list[Unit], removed: list[Removal]) -> Unit | None:
    if not under:
        removed.append(Removal(unit=unit, stage="gate", reason="heading over nothing shown"))
        return None
    if _is_label(unit.text) or unit.status == "verbatim":
        return unit.model_copy(update={"status": "label"})
    if any(ch.isdigit() for ch in unit.text):
        removed.append(Removal(unit=unit, stage="gate", reason="heading holds a digit and is not a fixed label"))
        return None
    missing = sorted(_content(unit.text) - _content(" ".join(u.text for u in under)))
    if missing:
        removed.append(Removal(unit=unit, stage="gate", reason=f"heading word(s) {', '.join(missing)} not in the checked text under it"))
        return None
    return unit.model_copy(update={"status": "label"})


def _header(unit: Unit, rows: list[Unit | None], removed: list[Removal]) -> Unit | None:
    shown_rows = [r for r in rows if r is not None and r.kind == "table_row"]
    if not shown_rows:
        removed.append(Removal(unit=unit, stage="gate", reason="table header over no shown row"))
        return None
    if unit.status == "verbatim":
        return unit
    cells = unit_cells(unit)
    for index, cell in enumerate(cells):
        if any(ch.isdigit() for ch in cell) and not _is_label(cell):
            removed.append(Removal(unit=unit.model_copy(update={"text": cell}), stage="gate", cell=index,
                                   reason="table header cell holds a digit and is not a fixed label"))
            cells[index] = ""
    return unit.model_copy(update={"text": row_text(cells), "cells": cells, "status": "label"})


def _connective(unit: Unit, answer_words: set[str], under: list[Unit], removed: list[Removal]) -> Unit | None:
    problems = []
    if numbers(unit.text):
        problems.append("a number or date")
    if names(unit.text):
        problems.append(f"a name ({', '.join(names(unit.text)[:3])})")
    if markers(unit.text, MODALS):
        problems.append(f"a modal verb ({', '.join(sorted(markers(unit.text, MODALS)))})")
    missing = sorted(_content(unit.text) - answer_words - CONNECTIVE_WORDS)
    if missing:
        problems.append(f"word(s) {', '.join(missing[:4])} not in the checked text")
    if unit.group == "lead-in" and not under:
        problems.append("nothing shown after it")
    if problems:
        removed.append(Removal(unit=unit, stage="gate", reason=f"unchecked {unit.kind} carries {'; '.join(problems)}"))
        return None
    return unit.model_copy(update={"status": "connective"})


def _verdict(unit: Unit, units: list[Unit], decided: dict[str, Unit | None], removed: list[Removal]) -> Unit | None:
    premises = [u for u in units if u.group == "premise" and u.obligation == unit.obligation]
    failed = [u for u in premises if decided.get(u.id) is None or decided[u.id].status not in CHECKED]
    if not premises or failed:
        what = f"its premise {failed[0].text[:160]!r} is not checked" if failed else "it rests on no written premise"
        removed.append(Removal(unit=unit, stage="gate", reason=f"verdict not shown: {what}"))
        return None
    cites = list(dict.fromkeys(sid for p in premises for sid in decided[p.id].citations))
    return unit.model_copy(update={"text": f"{DERIVED_LABEL} {unit.text}", "citations": cites, "status": "derived"})


def not_shown_line(gated: Gated) -> str:
    """'2 statements could not be verified and are not shown.' (empty when nothing was removed)."""
    n = len(gated.removed)
    if not n:
        return ""
    return f"{n} statement{'s' if n != 1 else ''} could not be verified and {'are' if n != 1 else 'is'} not shown."
