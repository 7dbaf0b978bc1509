"""Write: the draft answer as units (sentence, list item, step, table row, figure caption), each citing sections.

``Writer`` is the seam: ``write(plan, reading, shelves) -> Draft``. This module
holds the model-free ``ExtractiveWriter``: for each obligation the sentences,
list items and table rows of the read sections that best establish it, in
document order, each cited with its section id, with the header of a table it
quotes and the caption of a figure beside it; a procedure's steps are kept
whole and in order. A model writer (issue 7) returns the same ``Draft``; the
checker and the gate then work on its units.
"""

from __future__ import annotations

import math
import re
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from api.plan import Plan
from api.read import Reading
from api.shelves import OpenShelf
from api.terms import identifiers, normalise, stems
from compiler.ledger import sentences

__all__ = ["Unit", "Draft", "Writer", "ExtractiveWriter", "section_units", "coverage"]

UnitKind = Literal["sentence", "list_item", "step", "table_header", "table_row", "figure", "heading", "connective"]
MIN_SHOWN = 0.3
"""A unit establishes an obligation only when it holds at least this share of the obligation's words (idf-weighted)."""
COVERED = 0.5
"""An obligation is covered when its best unit, read with its headings, holds this share."""


class Unit(BaseModel):
    """One displayable unit of the draft."""

    id: str = Field(description="u1, u2, ... in draft order.")
    kind: UnitKind
    text: str = Field(description="The unit's text as displayed (without citation marks).")
    shelf: str = Field(default="", description="Shelf of the cited sections.")
    citations: list[str] = Field(default_factory=list, description="Section ids it rests on.")
    obligation: int = Field(description="Index of the obligation it serves.")
    score: float = Field(default=0.0, description="How well it establishes the obligation (extractive writer).")
    status: str = Field(default="written", description="written, verbatim, supports, unconfirmed, ... as the checker sets it.")
    group: str = Field(default="", description="Units that display together (one table, one procedure).")
    also: list[int] = Field(default_factory=list, description="Other obligations this unit establishes (it is shown once).")


class Draft(BaseModel):
    """What a writer produced."""

    writer: str = Field(description="'extractive' or the writer model id.")
    units: list[Unit]
    covered: dict[int, float] = Field(default_factory=dict, description="Per obligation, the share of its words its best unit holds.")
    raw: str | None = Field(default=None, description="A model writer's raw text, kept for the trace.")


class Writer(Protocol):
    """Turns what was read into a draft."""

    name: str

    def write(self, plan: Plan, reading: Reading, shelves: dict[str, OpenShelf]) -> Draft: ...


_FRAMING = {
    kind: {stem for word in words.split() for stem in stems(word)}
    for kind, words in {
        "compare": "change changed changes compare comparison differ difference differences",
        "trace": "step steps procedure process",
        "list": "list",
    }.items()
}
"""Words that say what shape of answer is wanted; the documents seldom write them."""

_NUMBERED = re.compile(r"^\s*(?:\(?\d{1,2}[.)]|step\s+\d+)", re.I)
_PROCEDURE = re.compile(r"\b(procedure|steps?|process|workflow|how to)\b", re.I)


def section_units(shelf: OpenShelf, section_id: str) -> list[tuple[str, str, str, tuple[int, int]]]:
    """(kind, text, group, position) of a section's displayable units, cached on the shelf."""
    key = ("units", section_id)
    cached = shelf.cache.get(key)
    if cached is not None:
        return cached
    section = shelf.sections[section_id]
    procedure = bool(_PROCEDURE.search(" ".join(section.heading_path)))
    items = [b for b in section.blocks if b.kind == "list_item"]
    steps = procedure or sum(1 for b in items if _NUMBERED.match(b.text)) >= 2
    units: list[tuple[str, str, str, tuple[int, int]]] = []
    for b_index, block in enumerate(section.blocks):
        if block.kind == "paragraph":
            for s_index, sentence in enumerate(sentences(block.text)):
                units.append(("sentence", sentence, "", (b_index, s_index)))
        elif block.kind == "list_item" and normalise(block.text):
            units.append(("step" if steps else "list_item", normalise(block.text), f"{section_id}:list", (b_index, 0)))
        elif block.kind == "table":
            lines = [normalise(line) for line in block.text.split("\n") if normalise(line)]
            header = max(block.header_rows, 1) if len(lines) > 1 else 0
            for r_index, line in enumerate(lines):
                kind = "table_header" if r_index < header else "table_row"
                units.append((kind, line, f"{section_id}:t{b_index}", (b_index, r_index)))
        elif block.kind == "figure" and normalise(block.text):
            units.append(("figure", normalise(block.text), "", (b_index, 0)))
    shelf.cache[key] = units
    return units


def coverage(query: dict[str, float], words: set[str]) -> float:
    total = sum(query.values())
    return sum(w for term, w in query.items() if term in words) / total if total else 0.0


class ExtractiveWriter:
    """Model-free writer: verbatim units from the read sections, chosen per obligation and shown in document order."""

    name = "extractive"

    def __init__(self, max_units: int = 6):
        self.max_units = max_units

    def write(self, plan: Plan, reading: Reading, shelves: dict[str, OpenShelf]) -> Draft:
        pool = []  # (order key, shelf, section id, kind, text, group, unit stems, context stems)
        df: dict[str, int] = {}
        for n_read, read in enumerate(reading.sections):
            shelf = shelves[read.shelf]
            section = shelf.sections[read.section_id]
            context = set(stems(" ".join([shelf.documents[section.doc_id]["title"], *section.heading_path])))
            for kind, text, group, position in section_units(shelf, read.section_id):
                words = set(stems(text)) | {i.lower() for i in identifiers(text)}
                pool.append(((n_read, *position), read.shelf, read.section_id, kind, text, group, words, context))
                for word in words:
                    df[word] = df.get(word, 0) + 1
        size = max(len(pool), 1)
        idf = {word: math.log(1 + size / count) for word, count in df.items()}
        unseen = math.log(1 + size / 10)
        chosen: dict[int, tuple[int, float]] = {}  # pool index -> (obligation, score)
        serves: dict[int, list[int]] = {}  # pool index -> further obligations it establishes
        covered: dict[int, float] = {}
        for o_index, obligation in enumerate(plan.obligations):
            query: dict[str, float] = {}
            framing = _FRAMING.get(obligation.kind, set())
            asked = obligation.ask.lower()
            weighted = [(obligation.ask, 1.0), *((t, 1.5 if t.lower() in asked else 0.5) for t in obligation.targets)]
            for text, weight in weighted:
                for word in [*stems(text), *(i.lower() for i in identifiers(text))]:
                    if word in framing:
                        continue
                    query[word] = max(query.get(word, 0.0), weight * idf.get(word, unseen))
            if not query:
                covered[o_index] = 0.0
                continue
            scored = []
            best_cover = 0.0
            for p_index, (_, _, _, kind, _, _, words, context) in enumerate(pool):
                with_context = coverage(query, words | context)
                own = coverage(query, words)
                if kind in ("step", "list_item"):  # an item means what its heading says it is part of
                    own = max(own, 0.8 * with_context)
                if own <= 0 or kind == "table_header":
                    continue
                score = own + 0.25 * with_context
                best_cover = max(best_cover, with_context if own >= MIN_SHOWN else 0.0)
                if own >= MIN_SHOWN:
                    scored.append((score, p_index))
            if not scored:
                covered[o_index] = round(best_cover, 3)
                continue
            scored.sort(key=lambda item: (-item[0], pool[item[1]][0]))
            top = scored[0][0]
            limit = self.max_units * (2 if obligation.kind in ("compare", "list") else 1)
            picked = [(s, p) for s, p in scored if s >= 0.6 * top][:limit]
            together = set().union(*(pool[p][6] | pool[p][7] for _, p in picked))
            covered[o_index] = round(max(best_cover, coverage(query, together)), 3)  # an answer is several units
            if covered[o_index] < COVERED:
                continue
            if obligation.kind == "trace":
                picked = self._whole_procedure(pool, picked, scored)
            for score, p_index in picked:
                if p_index in chosen and chosen[p_index][0] != o_index:
                    serves.setdefault(p_index, []).append(o_index)
                chosen.setdefault(p_index, (o_index, round(score, 4)))
        self._add_headers_and_figures(pool, chosen)
        units: list[Unit] = []
        same: dict[tuple[str, str, str], Unit] = {}  # a sentence two sections repeat is shown once, citing both
        for p_index in sorted(chosen, key=lambda p: (chosen[p][0], pool[p][0])):
            _, shelf, sid, kind, text, group, _, _ = pool[p_index]
            o_index, score = chosen[p_index]
            key = (shelf, kind, text)
            if key in same and kind not in ("table_header", "step"):
                if sid not in same[key].citations:
                    same[key].citations.append(sid)
                continue
            unit = Unit(id=f"u{len(units) + 1}", kind=kind, text=text, shelf=shelf, citations=[sid], obligation=o_index,
                        score=score, group=group, also=serves.get(p_index, []))
            same.setdefault(key, unit)
            units.append(unit)
        return Draft(writer=self.name, units=units, covered=covered)

    @staticmethod
    def _whole_procedure(pool, picked, scored):
        """When the best units are steps, every step of their list, in order."""
        steps = [p for _, p in picked if pool[p][3] == "step"]
        if not steps:
            return picked
        group = pool[steps[0]][5]
        scores = {p: s for s, p in scored}
        whole = [(scores.get(p, 0.0), p) for p, entry in enumerate(pool) if entry[5] == group]
        rest = [(s, p) for s, p in picked if pool[p][5] != group]
        return whole + rest

    @staticmethod
    def _add_headers_and_figures(pool, chosen: dict[int, tuple[int, float]]) -> None:
        """The header row of every table quoted, and the figure captions of the sections quoted."""
        groups = {pool[p][5]: chosen[p][0] for p in chosen if pool[p][3] == "table_row"}
        sections = {pool[p][2]: chosen[p][0] for p in chosen if pool[p][3] != "figure"}
        for p_index, entry in enumerate(pool):
            kind, sid, group = entry[3], entry[2], entry[5]
            if kind == "table_header" and group in groups:
                chosen.setdefault(p_index, (groups[group], 0.0))
            elif kind == "figure" and sid in sections:
                chosen.setdefault(p_index, (sections[sid], 0.0))
