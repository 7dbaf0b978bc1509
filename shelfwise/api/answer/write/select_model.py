"""The model as chooser (``models.writer_role = "select"``): per obligation, the model picks and orders quoted units by id.

A small model (Qwen2.5-Coder-1.5B on llama.cpp) cannot write cited prose: in the "write" role 188 of its 192 units
cited nothing (issue 37). It can read a numbered list and name the numbers that answer a part. So ``SelectingWriter``:

1. writes the model-free draft first (``shelfwise.api.answer.write.write.ExtractiveWriter``, called as the model-free
   pipeline calls it, on the same reading): the model's answer starts from everything the model-free one holds;
2. per obligation offers the model that draft's answering units and the next best units of the reading (``score_units``
   order, not already in the draft), best first: the first ``LISTS`` lists of ``BATCH``, one call each, numbered, each
   unit with its document and heading, after a worked example (``SELECT_EXAMPLE``). Given 25 passages at once this 1.5B
   model chose 2 (identity-01; 18 of 82 shown units over four dev questions); given 18 it counted 3, 4, ... 18;
3. the model replies ``{"ids": [..]}``, under a JSON schema that admits only the list's numbers (llama.cpp turns it into
   a grammar): the units that help answer the part, most useful first. Its choices lead the part, list by list (a
   section's sentences with its lists' items, or a table's rows, stay together, in document order, where the first of
   them was chosen, so a passage reads as its document has it and a list stays after the sentence introducing it); the model-free draft's units it did not choose (or was not
   offered) follow them, so nothing the model-free answer shows is lost to a weak choice; the further units it did not
   choose are not shown. The answer's size limit drops units by their model-free scores, as it does model-free: giving
   the model's choices its part's highest scores (so the limit dropped what it left out first) lost typing-01 a gold
   point the model-free answer shows (2 against 3), so its choices are not lifted; short lists of the best units are
   what keep them shown (offered all at once, the limit dropped 14 of the 18 units it chose for identity-01).

Every unit's text is its section's own (checked by construction: ``verify_verbatim`` finds it verbatim). A chosen
unit's id starts with "m" (the trace's written units tell the model's choices from the fallback's). A further unit the
model chose ranks below every model-free unit under the answer's size limit, so the limit never trades a model-free
unit for one the model added. A failed call or an unusable reply leaves that list as the model-free draft has it, and
the draft's ``notes`` (the answer's warnings) say so in words; when the model chose nothing at all the draft is the
model-free one (writer "extractive") and says why.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, Field, ValidationError

from shelfwise.api.answer.write.pool import build_pool
from shelfwise.api.answer.write.rank import score_units
from shelfwise.api.answer.write.semantic import semantic_rerank
from shelfwise.api.answer.write.write import ExtractiveWriter, section_units
from shelfwise.api.answer.records import Draft, Unit
from shelfwise.api.prompts import SELECT_EXAMPLE, SELECT_SYSTEM, SELECT_USER
from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.answer.read.read import Reading
from shelfwise.api.shelves import OpenShelf
from shelfwise.compiler.models import ChatModel, ModelError

__all__ = ["SelectingWriter", "SelectDraft", "Selection", "OFFERED", "SHOWN_CHARS", "BATCH", "LISTS", "choice_schema"]

OFFERED = ("sentence", "list_item", "step", "table_row")
"""Unit kinds the model is offered (headings, table headers, figure captions and code follow the units they belong to)."""
SHOWN_CHARS = 400
"""Characters of one offered unit's text the prompt shows (the answer shows the unit whole)."""
REPLY_TOKENS = 60
"""Tokens the model may reply with: a JSON list of at most ``BATCH`` numbers."""
BATCH = 6
"""Units one call offers. Over four dev questions this 1.5B model, offered all of a part's units at once (up to 25),
chose 18 of the 82 shown; a short list is one it reads through. The default of ``models.select_batch``."""
LISTS = 2
"""Lists offered per part: its best ``LISTS * BATCH`` units (model-free ranking); a unit not offered is shown as the
model-free answer has it. Each list is a call (about a minute on two loaded cores). The default of ``models.select_lists``."""


def choice_schema(count: int) -> dict:
    """The JSON schema of a reply choosing among ``count`` numbered units: {"ids": [numbers from 1 to count]}."""
    return {"type": "object", "required": ["ids"],
            "properties": {"ids": {"type": "array", "maxItems": count, "items": {"type": "integer", "enum": list(range(1, count + 1))}}}}


class _Unusable(ModelError):
    """Raised by ``SelectingWriter._choose`` when the model answered, but not with the JSON asked for."""


class _Choice(BaseModel):
    ids: list[int] = Field(description="Numbers of the offered units that answer the part, most important first.")


class Selection(BaseModel):
    """What the model did for one obligation (kept in the draft for the trace and the eval)."""

    obligation: int
    offered: int = Field(description="Units offered: the model-free draft's answering units, then further ones.")
    chosen: int = Field(default=0, description="Units the model chose (shown first, in its order).")
    beyond: int = Field(default=0, description="Chosen units the model-free draft did not hold.")
    kept: int = Field(default=0, description="The model-free draft's units it did not choose (shown after its choices).")
    not_offered: int = Field(default=0, description="Of those, the ones beyond the ``LISTS`` lists it was offered.")
    lists: int = Field(default=0, description="Lists (calls) the offered units were shown in, ``BATCH`` units each.")
    failed_lists: int = Field(default=0, description="Lists whose call failed or whose reply was unusable (they added no choice).")
    why_lists_failed: str = Field(default="", description="Why the first of those lists gave no usable choice.")
    failed: str = Field(default="", description="Why the model's choice could not be used at all ('' when it could).")


class SelectDraft(Draft):
    """A draft whose every unit is a verbatim quote; the model chose and ordered them."""

    notes: list[str] = Field(default_factory=list, description="What the model did, per part, in words (the answer's warnings).")
    selections: list[Selection] = Field(default_factory=list, description="Per obligation, what the model chose.")
    verbatim: bool = Field(default=True, description="Every unit is the documents' own text (the model wrote none).")


def _label(unit: Unit, shelves: dict[str, OpenShelf]) -> str:
    shelf = shelves.get(unit.shelf)
    if shelf is None or not unit.citations or unit.citations[0] not in shelf.sections:
        return ""
    section = shelf.sections[unit.citations[0]]
    return f"({shelf.doc_name(section.doc_id)} > {section.heading_path[-1] if section.heading_path else ''}) "


def _block(unit: Unit) -> str:
    """Units shown together: a table's rows; a section's sentences with the list items and steps of the section (a
    sentence introducing a list, "... adding the following parameters ...:", stays before its items, so the answer's
    size limit keeps or drops them whole, as it does model-free: oauth-05 lost a gold sentence to a lead-in the model
    chose whose items followed other choices)."""
    if unit.kind in ("list_item", "step") and unit.citations:
        return unit.citations[0]
    return unit.group or (unit.citations[0] if unit.citations else unit.id)


def _position(unit: Unit, shelves: dict[str, OpenShelf]) -> int:
    """Where the unit stands in its section (its index among the section's units; after them when not found)."""
    shelf = shelves.get(unit.shelf)
    if shelf is None or not unit.citations or unit.citations[0] not in shelf.sections:
        return 1 << 30
    texts = [u.text for u in section_units(shelf, unit.citations[0])]
    return texts.index(unit.text) if unit.text in texts else 1 << 30


class SelectingWriter:
    """Writes the model-free draft, then lets the model choose and order its units per obligation; see the module text."""

    def __init__(self, chat: ChatModel, extractive: ExtractiveWriter, *, further: int | None = None, batch: int = BATCH,
                 lists: int = LISTS):
        self.chooser = chat  # not ``chat``: the pipeline lends a writer's ``chat`` to prose (a comparison's explanation); this one writes none
        self.name = chat.model
        self.extractive = extractive
        self.further = extractive.max_units if further is None else further
        self.batch, self.lists = batch, lists

    def write(self, plan: Plan, reading: Reading, shelves: dict[str, OpenShelf]) -> SelectDraft:
        base = self.extractive.write(plan, reading, shelves)
        further = self._further(plan, reading, shelves, base)
        units: list[Unit] = []
        chosen_ids: set[str] = set()
        selections: list[Selection] = []
        notes: list[str] = []
        for index, obligation in enumerate(plan.obligations):
            own = [u for u in base.units if u.obligation == index]
            offered = [*sorted((u for u in own if u.kind in OFFERED), key=lambda u: -u.score), *further.get(index, [])]
            offered = offered[:self.lists * self.batch]
            selection = Selection(obligation=index, offered=len(offered))
            part = own
            mine = {u.id for u in own}
            if offered:
                order = self._choose_lists(plan, obligation.ask, offered, shelves, selection)
                if not order and not selection.failed:
                    selection.failed = "it chose none of them"
                if order:
                    part, picked = self._arrange(own, offered, order, shelves)
                    chosen_ids |= picked
                    selection.chosen = len(picked)
                    selection.beyond = sum(1 for u in further.get(index, []) if u.id in picked)
                    selection.kept = sum(1 for u in own if u.kind in OFFERED and u.id not in picked)
                    selection.not_offered = sum(1 for u in own if u.kind in OFFERED) - sum(1 for u in offered if u.id in mine)
            selections.append(selection)
            notes.append(self._note(plan, selection))
            units += part
        units = [u.model_copy(update={"id": f"{'m' if u.id in chosen_ids else 'u'}{n}"}) for n, u in enumerate(units, start=1)]
        writer = self.name if chosen_ids else "extractive"  # the model chose nothing: the draft is the model-free one
        return SelectDraft(writer=writer, units=units, covered=base.covered, notes=notes, selections=selections)

    def _choose_lists(self, plan: Plan, ask: str, offered: list[Unit], shelves: dict[str, OpenShelf],
                      selection: Selection) -> list[int]:
        """The model's choices over ``offered`` (indexes, list by list, each list's in the model's order), one call per
        list of ``batch`` (``BATCH``); a list whose call failed or whose reply is unusable adds none, and ``selection`` says why."""
        order: list[int] = []
        failures: list[str] = []
        for start in range(0, len(offered), self.batch):
            selection.lists += 1
            try:
                order += [start + i for i in self._choose(plan, ask, offered[start:start + self.batch], shelves)]
            except ModelError as exc:
                failures.append(str(exc) if isinstance(exc, _Unusable) else f"the call failed ({exc})")
        if failures:
            selection.failed_lists = len(failures)
            selection.failed = failures[0] if len(failures) == selection.lists else ""
            selection.why_lists_failed = failures[0]
        return order

    def _note(self, plan: Plan, selection: Selection) -> str:
        ask = plan.obligations[selection.obligation].ask.strip().rstrip("?.")
        if selection.failed:
            return (f"the writer model {self.name} could not choose the quotes for part {selection.obligation + 1} ({ask!r}): "
                    f"{selection.failed}; the model-free answer's quotes are shown for it")
        unseen = f" ({selection.not_offered} of them not offered to it)" if selection.not_offered else ""
        kept = (f"; the model-free answer's {selection.kept} unit(s) it did not choose{unseen} follow its choices" if selection.kept else "")
        lost = (f"; {selection.failed_lists} of the {selection.lists} lists it was offered gave no usable choice "
                f"({selection.why_lists_failed})" if selection.failed_lists else "")
        return (f"the writer model {self.name} chose and ordered {selection.chosen} of the {selection.offered} quoted units "
                f"offered for part {selection.obligation + 1} ({ask!r}), {selection.beyond} of them beyond the model-free answer{kept}{lost}")

    def _further(self, plan: Plan, reading: Reading, shelves: dict[str, OpenShelf], base: Draft) -> dict[int, list[Unit]]:
        """Per obligation, the next best units of the reading the model-free draft does not hold (up to ``further``),
        each scored below every model-free unit of its obligation (the size limit drops them first)."""
        if not self.further:
            return {}
        pool = build_pool(reading, shelves, section_units, self.extractive.tuning)
        held = {(u.shelf, u.text) for u in base.units}
        out: dict[int, list[Unit]] = {}
        for o_index, (obligation, (_, scored)) in enumerate(zip(plan.obligations, score_units(plan, pool, self.extractive.model))):
            scored = semantic_rerank(obligation.ask, pool, scored, shelves)
            floor = min((u.score for u in base.units if u.obligation == o_index), default=1.0)
            extra: list[Unit] = []
            for score, own, shown, p_index in scored:
                entry = pool.units[p_index]
                if len(extra) >= self.further:
                    break
                if own <= 0 or not shown or entry.kind not in ("sentence", "list_item", "step") or (entry.shelf, entry.text) in held:
                    continue
                held.add((entry.shelf, entry.text))
                extra.append(Unit(id=f"f{o_index}.{len(extra)}", kind=entry.kind, text=entry.text, shelf=entry.shelf,
                                  citations=[entry.section_id], obligation=o_index, score=round(min(score, floor) * 0.5, 4),
                                  group=entry.group))
            out[o_index] = extra
        return out

    def _choose(self, plan: Plan, ask: str, offered: list[Unit], shelves: dict[str, OpenShelf]) -> list[int]:
        """The model's choice among one list: indexes into ``offered``, most useful first (repeats left out). The schema
        admits only the list's numbers; a server that ignores it may send others, which make the reply unusable."""
        listing = "\n".join(f"[{n}] {_label(u, shelves)}{u.text[:SHOWN_CHARS]}" for n, u in enumerate(offered, start=1))
        user = SELECT_USER.format(question=plan.resolved_question, part=ask, units=listing)
        example, example_reply = SELECT_EXAMPLE
        messages = [{"role": "system", "content": SELECT_SYSTEM}, {"role": "user", "content": example},
                    {"role": "assistant", "content": example_reply}, {"role": "user", "content": user}]
        reply = self.chooser.complete(messages, schema=choice_schema(len(offered)), max_tokens=REPLY_TOKENS)
        try:
            choice = _Choice.model_validate(json.loads(reply))
        except (json.JSONDecodeError, ValidationError) as exc:
            raise _Unusable(f"its reply is not {{\"ids\": [numbers]}}: {str(exc).splitlines()[0]}") from exc
        unknown = [n for n in choice.ids if not 1 <= n <= len(offered)]
        if unknown:
            raise _Unusable(f"its reply names passages that were not offered: {unknown} (offered 1 to {len(offered)})")
        return list(dict.fromkeys(n - 1 for n in choice.ids))

    @staticmethod
    def _arrange(own: list[Unit], offered: list[Unit], order: list[int], shelves: dict[str, OpenShelf]
                 ) -> tuple[list[Unit], set[str]]:
        """(the part's units: the chosen blocks in the model's order — a section's sentences, a table with its header, a
        list or a procedure come together in document order where the first of them was chosen, with the model-free
        units of that block, so a passage reads as its document has it — then the model-free units of blocks it did not
        choose, in their order), and the chosen units' ids."""
        picked = {offered[i].id for i in order}
        mine = {u.id for u in own}
        candidates = [*own, *(u for u in offered if u.id not in mine and u.id in picked)]
        out: list[Unit] = []
        seen: set[str] = set()
        for block in dict.fromkeys(_block(offered[i]) for i in order):
            members = [u for u in candidates if _block(u) == block and u.id not in seen]
            for unit in sorted(members, key=lambda u: (u.kind != "table_header", _position(u, shelves))):
                out.append(unit)
                seen.add(unit.id)
        out += [u for u in own if u.id not in seen]
        return out, picked

