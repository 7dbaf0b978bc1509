"""Write: the draft answer as units (sentence, list item, step, table row, figure caption), each citing sections.

The seam is ``records.Writer``: ``write(plan, reading, shelves) -> Draft``; a model writer returns the same ``Draft``.
The model-free ``ExtractiveWriter`` writes per obligation the sentences, list items and table rows of the read sections
that best establish it, in document order, each citing its section, with a quoted table's header and a figure's caption
(never a chart's axis labels: ``without_axis_labels``); a procedure's steps are kept whole and in order.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from shelfwise.api.answer.question import BREAKDOWN, read_phrase
from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.answer.read.read import Reading
from shelfwise.api.answer.records import Draft, Unit
from shelfwise.api.answer.write.columns import mark_period_columns
from shelfwise.api.answer.write.beside import (best_sections, each_named_document, introduced_code, whole_lists,
                                                whole_procedure, with_conditions, with_continuations)
from shelfwise.api.answer.write.paragraphs import paragraph_texts
from shelfwise.api.answer.write.semantic import semantic_rerank
from shelfwise.api.answer.write.issuers import without_other_issuers
from shelfwise.api.answer.write.tables import caption_rest, label_only, named_captions, with_annotated_rows, with_introduced_tables, with_table_rows
from shelfwise.api.answer.write.templates import template_units
from shelfwise.api.answer.write.unit_shape import without_axis_labels
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.answer.write.rank_model import RankModel, load_rank_model
from shelfwise.api.answer.write.pool import Pool, build_pool
from shelfwise.api.answer.write.rank import changed_rules, coverage, score_units
from shelfwise.api.terms import normalise, word_stems
from shelfwise.compiler.ledger.rules import sentences
from shelfwise.compiler.tuning import DEFAULT_TUNING, AnswerTuning
from shelfwise.compiler.store.records import table_text

__all__ = ["ExtractiveWriter", "section_units", "SectionUnit", "coverage", "is_question", "numbered_run"]

ANSWER_BUDGETS = 2.5
"""The whole answer gets this many obligation budgets, shared among its obligations (a procedure's steps are kept whole)."""
CODE_CHARS = 600
"""A code block this long or shorter may follow the sentence that introduces it ("you would write:"); never alone."""
PROSE_CELL = 200
"""A one-column table with a cell longer than this is prose in a box: its cells are split into sentences, not shown as rows."""


def is_question(text: str) -> bool:
    """A question sentence (a quiz item, a heading asking something): it asks, it does not state, so it is never an answer."""
    return text.rstrip(" *_)\"'\u201d").endswith("?")


_NUMBERED = re.compile(r"^\s*(?:step\s+(\d{1,2})[.):]?|\(?(\d{1,2})[.)])(?=\s)", re.I)
"""A step's mark ("3. ", "(3) ", "3) ", "Step 3: "), then a space: "42.5% GAAP gross margin", "3.1 Amended and Restated
Bylaws" open with figures, not marks."""


def numbered_run(texts: list[str]) -> bool:
    """Whether ``texts`` are numbered steps: two marks at least (``_NUMBERED``), each next number 1, one already given, or
    one more than a number already given (a list goes on, at its own level or an outer one: "1, 2, 1, 2, 3" of a
    flattened nested list). A chart's bridge of amounts ("(77) Higher period charges", "(60) Other") is no list: its
    marks are figures, and as steps the answer numbered them ("77. Higher period charges ..."), the sign lost."""
    numbers = [int(m.group(1) or m.group(2)) for m in (_NUMBERED.match(t) for t in texts) if m]
    return len(numbers) >= 2 and all(n == 1 or n in numbers[:i] or n - 1 in numbers[:i] for i, n in enumerate(numbers) if i)
_PROCEDURE = re.compile(r"\b(procedure|steps?|process|workflow|how to)\b", re.I)


class SectionUnit(NamedTuple):
    """One displayable unit of a section, as the writer's pool takes it."""

    kind: str
    text: str
    group: str
    position: tuple[int, int]
    """(block index, index within the block)."""
    cells: tuple[str, ...] = ()
    """A table row's or header's cells (``text`` is them joined by ``row_text``, whitespace collapsed); else empty."""


def section_units(shelf: OpenShelf, section_id: str) -> list[SectionUnit]:
    """A section's displayable units in document order, cached on the shelf."""
    return shelf.memo(("units", section_id), lambda: _section_units(shelf, section_id))


def _table_lines(block) -> list[tuple[str, tuple[str, ...]]]:
    """(text, cells) of a table's non-empty rows. The cells are the stored rows' when the block's text is those rows
    rendered (every reader but an RST field list, whose text reads "Key: value"); else a row is known as text only."""
    rows = block.rows or []
    if rows and block.text == table_text(rows) and not any("\n" in cell for row in rows for cell in row):
        return [(normalise(line), tuple(normalise(cell) for cell in row))
                for line, row in zip(block.text.split("\n"), rows) if normalise(line)]
    return [(normalise(line), ()) for line in block.text.split("\n") if normalise(line)]


def _section_units(shelf: OpenShelf, section_id: str) -> list[SectionUnit]:
    section = shelf.sections[section_id]
    procedure = bool(_PROCEDURE.search(" ".join(section.heading_path)))
    items = [b for b in section.blocks if b.kind == "list_item"]
    steps = procedure or numbered_run([b.text for b in items])
    numbered = [b for b in section.blocks if b.kind == "paragraph" and _NUMBERED.match(b.text)]
    numbered = numbered if numbered_run([b.text for b in numbered]) else []  # "1. Receive ...", "2. Acknowledge ..." as paragraphs
    units: list[SectionUnit] = []
    paragraphs = paragraph_texts(section.blocks)
    for b_index, block in enumerate(section.blocks):
        if any(block is b for b in numbered) and normalise(block.text):
            units.append(SectionUnit("step", normalise(block.text), f"{section_id}:numbered", (b_index, 0)))
        elif block.kind == "paragraph":
            for s_index, sentence in enumerate(sentences(paragraphs.get(b_index, ""))):
                if not is_question(sentence):
                    units.append(SectionUnit("sentence", sentence, "", (b_index, s_index)))
        elif block.kind == "list_item" and _item_text(block.text) and not is_question(block.text):
            units.append(SectionUnit("step" if steps else "list_item", _item_text(block.text), f"{section_id}:list", (b_index, 0)))
        elif block.kind == "table" and _one_column(block):
            # a one-column "table" is a text box (a slide's panel, a DOCX frame): its cells are prose, shown as sentences
            header = max(block.header_rows, 1) if len(block.rows) > 1 else 0
            for r_index, row in enumerate(block.rows[header:], start=header):
                for s_index, sentence in enumerate(sentences(normalise(row[0]) if row else "")):
                    if not is_question(sentence):
                        units.append(SectionUnit("sentence", sentence, "", (b_index, r_index * 1000 + s_index)))
        elif block.kind == "table":
            lines = _table_lines(block)
            header = max(block.header_rows, 1) if len(lines) > 1 else 0
            for r_index, (line, cells) in enumerate(lines):
                kind = "table_header" if r_index < header else "table_row"
                units.append(SectionUnit(kind, line, f"{section_id}:t{b_index}", (b_index, r_index), cells))
        elif block.kind == "figure" and normalise(block.text):
            units.extend(_caption_units(normalise(block.text), b_index))
        elif block.kind == "code" and block.text.strip() and len(block.text) <= CODE_CHARS:
            units.append(SectionUnit("code", block.text.strip("\n"), "", (b_index, 0)))
    return units


def _caption_units(caption: str, b_index: int) -> list[SectionUnit]:
    """A figure's caption as units: its title ("Figure 6: Test-Time Documents Varying: ...", the first sentence) is the
    figure's, and each sentence after it is a sentence of its own ("In NQ, we find that training with 4 documents leads
    to the best performance ..."): a paper's caption states findings, and a converter that took the text under a figure
    for its caption ("Figure 8. After filtering, 42,857 pairs were used to fine-tune ...") put the paper's own prose
    there. As one long unit it ranked as boilerplate does (its length) and came only beside its section's sentences."""
    parts = sentences(caption) or [caption]
    if len(parts) > 1 and label_only(parts[0]):  # "Figure 2." then "NIST Risk Management Framework": one title
        parts = [f"{parts[0]} {parts[1]}", *parts[2:]]
    units = [SectionUnit("figure", parts[0], "", (b_index, 0))]
    units += [SectionUnit("sentence", sentence, "", (b_index, s_index)) for s_index, sentence in enumerate(parts[1:], start=1)
              if not is_question(sentence)]
    return units


_BULLET = re.compile(r"^(?:[\u2022\u25e6\u25aa\u25ab\u2023\u2219\u00b7\u25cf\u25cb\u25a0\u25a1\u27a2\u27a4\uf0b7*\-\u2013]\s+)+")
"""A bullet glyph a converter left at the start of a list item's text: the answer renders the item as a list item
already ("- \u2022 We propose ..." would show two bullets)."""


def _one_column(block) -> bool:
    """A table whose every row holds one cell, one of them long enough to be prose (a text box read as a table)."""
    rows = block.rows or []
    return bool(rows) and all(len(row) <= 1 for row in rows) and any(len(row[0]) > PROSE_CELL for row in rows if row)


def _item_text(text: str) -> str:
    return _BULLET.sub("", normalise(text))


class ExtractiveWriter:
    """Model-free writer: verbatim units from the read sections, chosen per obligation and shown in document order.

    Per obligation the units are ranked (``shelfwise.api.answer.write.rank``), then picked best first within a character budget
    (``max_units`` times ``chars_per_unit``, twice that for a compare or list), each pick favouring units that
    add words of the obligation not yet written; a procedure keeps all its steps in order, a rule keeps the
    if/unless/except sentences beside it, and a sentence introducing a list ("unless all of the following conditions
    are met:") keeps the list. Its thresholds and budgets are ``tuning`` (``answer.tuning``).
    """

    name = "extractive"

    def __init__(self, max_units: int = 6, budget_chars: int | None = None, answer_chars: int | None = None,
                 model: RankModel | None = None, tuning: AnswerTuning = DEFAULT_TUNING):
        self.max_units = max_units
        self.model = model or load_rank_model()
        self.tuning = tuning
        self.budget_chars = budget_chars or max_units * self.tuning.chars_per_unit
        self.answer_chars = answer_chars or int(self.budget_chars * ANSWER_BUDGETS)

    def write(self, plan: Plan, reading: Reading, shelves: dict[str, OpenShelf]) -> Draft:
        pool = build_pool(without_other_issuers(f"{plan.question} {plan.resolved_question}", reading, shelves), shelves, section_units, self.tuning)
        templates = template_units(pool, shelves, section_units)
        chosen: dict[int, tuple[int, float]] = {}  # pool index -> (obligation, score)
        serves: dict[int, list[int]] = {}  # pool index -> further obligations it establishes
        covered: dict[int, float] = {}
        named_objects: dict[int, tuple[int, float]] = {}  # pool index of a named table's or figure's caption (1.0), row or
        # caption sentence (0.9) -> (its part, its share of the answer's strongest score)
        for o_index, (obligation, (query, scored)) in enumerate(zip(plan.obligations, score_units(plan, pool, self.model))):
            scored = semantic_rerank(obligation.ask, pool, scored, shelves)
            eligible = [(s, i) for s, own, shown, i in scored if own > 0 and shown]
            form = {i for _, i in eligible if i in templates} if any(i not in templates for _, i in eligible) else set()
            eligible = [e for e in eligible if e[1] not in form]  # a form's template text only when nothing else answers
            if not eligible:
                covered[o_index] = 0.0
                continue
            share = self.answer_chars * (2 if obligation.kind in ("compare", "list") else 1) // len(plan.obligations)
            budget = min(max(self.budget_chars * (2 if obligation.kind in ("compare", "list") else 1), share), self.answer_chars)
            picked = self._select(pool, query, eligible, budget)
            picked = each_named_document(pool, query, obligation, picked, eligible, budget, self.tuning)
            if obligation.kind == "trace":
                picked = whole_procedure(pool, picked, eligible, self.tuning, self.answer_chars)
            picked = with_conditions(pool, query, picked, budget, self.tuning)
            picked = whole_lists(pool, picked, budget, self.tuning)
            # a table or figure the part names by number ("what does its Table 1 show") is what it asks about, whatever
            # words its caption shares with the ask: its caption, at the part's best score, with a table's rows and the
            # caption's sentences after its title (what a figure shows: "In NQ, we find that training with 4 documents ...")
            have = {p for _, p in picked}
            for caption in named_captions(obligation.ask, pool, eligible):
                rest = caption_rest(pool, caption)
                named_objects.update({i: (o_index, 0.9) for i in [*pool.tables.get(caption, []), *rest]})
                named_objects[caption] = (o_index, 1.0)
                picked += [(eligible[0][0], caption)] if caption not in have else []
                picked += [(round(eligible[0][0] * 0.9, 4), i) for i in rest if i not in have]
            picked = with_introduced_tables(pool, picked, eligible, room := budget * self.tuning.overrun)  # the part's room
            picked = with_continuations(pool, picked, budget, self.tuning)
            picked = best_sections(pool, query, picked, eligible, budget, self.tuning)
            picked = with_table_rows(pool, with_annotated_rows(pool, with_introduced_tables(pool, picked, eligible, room)), room,
                                     whole=bool(BREAKDOWN.search(obligation.ask)))
            picked = picked + introduced_code(pool, picked, budget, self.tuning)
            picked = [p for p in picked + changed_rules(pool, picked) if p[1] not in form]  # nor brought beside a pick
            covered[o_index] = self._covered(obligation.ask, query, pool, [p for _, p in picked],
                                             together=obligation.kind in ("lookup", "judge"))
            strong = [(sc, p) for sc, p in eligible if sc >= self.tuning.strong_share * eligible[0][0]]
            shown = {p for _, p in picked}
            left = sum(sc for sc, p in strong if p not in shown and not any(
                _near_duplicate(pool.units[p].words, pool.units[q].words) for q in shown))
            if left:  # strong evidence did not fit the budget: what is shown is not the whole answer
                covered[o_index] = round(min(covered[o_index], sum(sc for sc, p in strong if p in shown) / sum(sc for sc, _ in strong)), 3)
            for score, p_index in picked:
                if p_index in chosen and chosen[p_index][0] != o_index:
                    serves.setdefault(p_index, []).append(o_index)
                chosen.setdefault(p_index, (o_index, round(score, 4)))
        if named_objects and chosen:  # the table or figure a part names is the answer's strongest evidence: it gives way last
            top = max(score for _, score in chosen.values())
            for p_index, (o_index, share) in named_objects.items():
                if chosen.get(p_index, (None,))[0] == o_index:
                    chosen[p_index] = (o_index, round(top * share, 4))
        self._add_headers_and_figures(pool, chosen)  # then a chart's labels go: picked, they kept their section's place
        chosen = without_axis_labels(pool.units, chosen)
        units = mark_period_columns(self._units(pool, chosen, serves), f"{plan.question} {plan.resolved_question}", shelves)
        return Draft(writer=self.name, units=units, covered=covered)

    def _select(self, pool: Pool, query: dict[str, float], eligible: list[tuple[float, int]], budget: int) -> list[tuple[float, int]]:
        """Best first within ``budget`` characters, each pick favouring units that add words not yet written."""
        top = eligible[0][0]
        candidates = [(s, i) for s, i in eligible if s >= self.tuning.write_floor * top][:300]
        written: set[str] = set()
        picked: list[tuple[float, int]] = []
        used = 0
        while candidates:
            def gain(entry: tuple[float, int]) -> float:
                matched = pool.units[entry[1]].words & query.keys()
                total = sum(query[t] for t in matched) or 1.0
                return entry[0] * (0.4 + 0.6 * sum(query[t] for t in matched - written) / total)

            best = max(candidates, key=lambda e: (gain(e), -pool.units[e[1]].order[0], -e[1]))
            candidates.remove(best)
            unit = pool.units[best[1]]
            if picked and used + len(unit.text) > budget:
                continue
            if any(_near_duplicate(unit.words, pool.units[p].words) for _, p in picked):
                continue
            picked.append(best)
            written |= unit.words & query.keys()
            used += len(unit.text)
        return picked

    @staticmethod
    def _covered(ask: str, query: dict[str, float], pool: Pool, indexes: list[int], together: bool = False) -> float:
        """How well the written units establish the obligation: the share of its words (idf-weighted; a word only in
        the headings counts half) that its best single unit (for a lookup or a judgment ``together``: the written units
        together, as a rule and a record answer it together) holds, times the share of the facets the ask asks for
        (a number, a condition, a definition, a version) that unit holds, and at most the share of its key targets
        (identifiers, capitalised phrases) the written units hold together."""
        words_only = {t: w for t, w in query.items() if not t.startswith("@")}
        if not words_only or not indexes:
            return 0.0
        total = sum(words_only.values())
        facets = [t for t in query if t.startswith("@")]
        best = 0.0
        pieces: dict[str, list[int]] = {}  # a list or table counts as one piece (a procedure's steps together)
        for i in indexes:
            pieces.setdefault(pool.units[i].group or f"#{i}", []).append(i)
        if together:  # a value or a verdict may rest on a rule and a record together (the interval, the register row)
            pieces["together"] = [i for i in indexes if pool.units[i].kind != "table_header"]
        for members in pieces.values():
            held = set().union(*(pool.units[i].words for i in members))
            context = set().union(*(pool.units[i].context for i in members))
            heading = 1.0 if pool.units[members[0]].kind in ("step", "list_item") else 0.5  # an item means what its heading says
            share = sum(w * (1.0 if t in held else heading if t in context else 0.0) for t, w in words_only.items()) / total
            if facets:
                share *= (1 + sum(1 for f in facets if f in held)) / (1 + len(facets))
            best = max(best, share)
        words = set().union(*(pool.units[i].words | pool.units[i].context for i in indexes))
        asking = read_phrase(ask)
        keys = [set(word_stems(k)) & query.keys() for k in [*asking.identifiers, *asking.names]]
        keys = [k for k in keys if k]
        held = sum(1 for k in keys if k <= words) / len(keys) if keys else 1.0
        return round(min(best, held), 3)

    @staticmethod
    def _add_headers_and_figures(pool: Pool, chosen: dict[int, tuple[int, float]]) -> None:
        """The header row of every table quoted, the label row each quoted row stands under ("AWS" over "Net sales |
        20,538 | 23,059", with the row's score: the size limit keeps or drops them together), and the figure captions
        of the sections quoted (not a caption that is its label alone: a filing's "Exhibit 31.1")."""
        for p_index in [p for p in chosen if p in pool.labels]:
            label = pool.labels[p_index]
            if label not in chosen or chosen[label][1] < chosen[p_index][1]:
                chosen[label] = chosen[p_index]
        groups = {pool.units[p].group: chosen[p][0] for p in chosen if pool.units[p].kind == "table_row"}
        sections = {pool.units[p].section_id: chosen[p][0] for p in chosen if pool.units[p].kind != "figure"}
        for p_index, unit in enumerate(pool.units):
            if unit.kind == "table_header" and unit.group in groups:
                chosen.setdefault(p_index, (groups[unit.group], 0.0))
            elif unit.kind == "figure" and unit.section_id in sections and not label_only(unit.text):  # "Exhibit 31.1"
                chosen.setdefault(p_index, (sections[unit.section_id], 0.0))  # alone says nothing

    @staticmethod
    def _units(pool: Pool, chosen: dict[int, tuple[int, float]], serves: dict[int, list[int]]) -> list[Unit]:
        """Draft units in obligation and document order; a sentence two sections repeat is shown once, citing both (a
        sentence a superseded revision shares with the current one cites the current one only). A label row is its own
        table's ("North America" over its segment's rows, in each quarter's table): shown in each table it labels."""
        units: list[Unit] = []
        same: dict[tuple[str, str, str], Unit] = {}
        old = [p for p in chosen if pool.units[p].superseded_by and pool.units[p].kind != "table_header"]
        current: dict[tuple[str, str, str], int] = {}
        for index, entry in enumerate(pool.units if old else []):
            if not entry.superseded_by:
                current.setdefault((entry.shelf, entry.kind, entry.text), index)
        for p_index in old:
            twin = current.get((pool.units[p_index].shelf, pool.units[p_index].kind, pool.units[p_index].text))
            if twin is not None:  # the current revision says it too: it is the current revision's, never the old one's
                chosen.setdefault(twin, chosen.pop(p_index))
                if p_index in serves:
                    serves.setdefault(twin, []).extend(serves.pop(p_index))
        for p_index in sorted(chosen, key=lambda p: (chosen[p][0], pool.units[p].order)):
            entry = pool.units[p_index]
            o_index, score = chosen[p_index]
            key = (entry.shelf, entry.kind, entry.text if p_index not in pool.label_rows else f"{entry.group}\n{entry.text}")
            if key in same and entry.kind not in ("table_header", "step"):
                if entry.section_id not in same[key].citations:
                    same[key].citations.append(entry.section_id)
                continue
            unit = Unit(id=f"u{len(units) + 1}", kind=entry.kind, text=entry.text, shelf=entry.shelf, citations=[entry.section_id],
                        obligation=o_index, score=score, group=entry.group, cells=list(entry.cells), also=serves.get(p_index, []))
            same.setdefault(key, unit)
            units.append(unit)
        return units


def _near_duplicate(a: set[str], b: set[str]) -> bool:
    return bool(a and b) and len(a & b) / len(a | b) >= 0.8
