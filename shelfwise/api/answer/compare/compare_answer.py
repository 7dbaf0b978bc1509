"""Compare questions answered from the computed change set (issue 17): "What changed between Rev C and Rev D?".

``answer_comparisons`` takes the plan's compare obligations that name two
versions of one series (``shelfwise.api.answer.compare.compare_resolve``), computes each pair's change
set (``shelfwise.compiler.compare.compare_documents``) and writes the answer's part for
them: one named table per pair, each row a change (old → new, the signed
difference computed by code) citing its section on both sides as ``[sid]``.
A question about one aspect ("How did the definition of a Reportable Event
change ...") shows the changes that hold its words, and says how many others
there are. With a model writer, the model explains the changes above the table
and code keeps only the sentences that agree with the change set
(``shelfwise.api.answer.compare.compare_check``); what it refuses is counted and traced like any removal.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from shelfwise.api.answer.complete import ObligationStatus
from shelfwise.api.answer.compare.compare_check import explain_changes
from shelfwise.api.answer.compare.compare_resolve import ComparePair, resolve_pairs, revisions_in, years_in
from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.answer.read.read import ReadSection
from shelfwise.api.answer.render import correction_block, sources_of
from shelfwise.api.schemas import AnswerSentence, AskResponse
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import stems
from shelfwise.api.answer.records import Removal, Unit
from shelfwise.compiler.compare import Change, ChangeSet, DocView, compare_documents
from shelfwise.compiler.compare.render import change_cells, render_pair
from shelfwise.compiler.ledger.rules import sentences
from shelfwise.compiler.models import ChatModel
from shelfwise.compiler.store.records import row_text
from shelfwise.compiler.tuning import DEFAULT_TUNING

__all__ = ["Comparisons", "within", "answer_comparisons", "comparison_response", "merge_comparisons", "COMPUTED_LINE", "MODE_LINES",
           "focus_stems", "about_focus"]

COMPUTED_LINE = ("**Computed by comparison:** every change and difference in the table is computed by code from the two "
                 "documents (no model), each row citing the section in both.")
_FRAME = frozenset(stems("change changed changes different difference differences differ compare compared comparison versus "
                         "between previous earlier later latest current new old revision revisions version versions rev from to "
                         "since year years document documents"))


@dataclass
class Comparisons:
    """The compare part of an answer: the obligations it answers, its shown units, its Markdown, what was refused."""

    obligations: list[int]
    units: list[Unit]
    markdown: str
    pairs: list[dict] = field(default_factory=list)
    removed: list[Removal] = field(default_factory=list)
    read: list[dict] = field(default_factory=list)
    written: list[Unit] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    model_used: bool = False
    cut: dict[int, list[str]] = field(default_factory=dict)
    """Obligations whose tables show fewer of the changes asked about than there are (cut to the size limit, or more
    pairs than an answer shows), each with its "Shown: ..." lines: they are not covered, and the answer is partial."""


def focus_stems(ask: str, pairs: list[ComparePair]) -> set[str]:
    """The words of a compare question that say what about the documents it asks: its frame, the documents' titles,
    revisions and years aside."""
    titles = set(stems(" ".join(f"{p.older.title} {p.newer.title} {p.identity.label}" for p in pairs)))
    labels = {w.lower() for w in [*revisions_in(ask), *years_in(ask)]}
    return {s for s in stems(ask) if s not in _FRAME and s not in titles and s not in labels and not s.isdigit()}


def _alike(one: str, two: str) -> bool:
    """One word by its stems: equal, or sharing a prefix of four letters or more that is most of the shorter
    ('closur' of closure and 'close' of closed)."""
    if one == two:
        return True
    common = len(os.path.commonprefix([one, two]))
    return common >= 4 and common >= 0.8 * min(len(one), len(two))


def about_focus(changes: ChangeSet, focus: set[str]) -> ChangeSet:
    """The changes holding at least half the focus words (all of them when none does, or no focus is given)."""
    if not focus:
        return changes
    need = max(1, math.ceil(len(focus) / 2))
    kept = []
    for change in changes.changes:
        words = set(stems(" ".join(filter(None, [change.what, change.old, change.new, change.heading_a, change.heading_b]))))
        if sum(1 for f in focus if any(_alike(f, w) for w in words)) >= need:
            kept.append(change)
    return changes.model_copy(update={"changes": kept}) if kept else changes


def _cite(section_id: str) -> str:
    return f"[{section_id}]"


def _no_cite(section_id: str) -> str:
    return ""  # a row's section ids are its citations, shown beside it


ROW_HEADER = ("Change", "What", "Old (A)", "New (B)", "Difference", "Section in A", "Section in B")
"""The header of a change row as the answer's sentences give it (the Markdown table numbers its rows as well)."""


def _focus_words(ask: str, focus: set[str]) -> str:
    """The question's own words behind the focus stems, in order ("definition, Reportable, Event")."""
    words = [w for w in re.findall(r"[A-Za-z][\w-]*", ask) if any(_alike(s, f) for s in stems(w) for f in focus)]
    return ", ".join(dict.fromkeys(words)) or ", ".join(sorted(focus))


def _sentences_of(view: DocView, section_id: str | None) -> list[str]:
    section = next((x for x in view.sections if x.id == section_id), None)
    if section is None:
        return []
    return [t for b in section.blocks if b.kind in ("paragraph", "list_item") for t in sentences(b.text)]


def _holding(candidates: list[str], value: str | None, what: str) -> str:
    """The one sentence holding ``value`` and the words naming it ('' when none or several do)."""
    if not value:
        return ""
    key, label = " ".join(value.lower().split()), " ".join(what.split(" › ")[-1].lower().split())
    found = [t for t in candidates if key in " ".join(t.lower().split()) and label in " ".join(t.lower().split())]
    return found[0] if len(found) == 1 else ""


def _in_their_words(pair: ComparePair, change: Change) -> str:
    """'Old: “…” → new: “…”', the two sentences a changed value stands in, when both are found."""
    if change.kind != "changed" or change.scope not in ("value", "field"):
        return ""
    old = _holding(_sentences_of(pair.older, change.section_a), change.old, change.what)
    new = _holding(_sentences_of(pair.newer, change.section_b), change.new, change.what)
    return f"Old: “{old}” → new: “{new}”" if old and new else ""


_PRIORITY = {"changed": 0, "added": 1, "removed": 1, "reworded": 1, "renamed": 2, "moved": 3}
"""Which changes a table cut to its size keeps first: a changed value, then what was added, removed or reworded (one
holding a number before one without), then renamed and moved sections."""


def within(changes: ChangeSet, max_chars: int | None, render: Callable[[ChangeSet], str]) -> ChangeSet:
    """``changes`` cut, when its table renders longer than ``max_chars``, to the changes of highest priority
    (``_PRIORITY``, then document order) that fit, shown in document order; at least one change stays."""
    if not max_chars or len(render(changes)) <= max_chars or len(changes.changes) <= 1:
        return changes
    def figures(change: Change) -> bool:
        return any(ch.isdigit() for ch in f"{change.old or ''} {change.new or ''}")

    ranked = sorted(range(len(changes.changes)), key=lambda i: (_PRIORITY.get(changes.changes[i].kind, 4), not figures(changes.changes[i]), i))
    keep: list[int] = []
    for index in ranked:
        trial = changes.model_copy(update={"changes": [changes.changes[i] for i in sorted([*keep, index])]})
        if keep and len(render(trial)) > max_chars:
            continue
        keep.append(index)
    return changes.model_copy(update={"changes": [changes.changes[i] for i in sorted(keep)]})


def _pair_part(pair: ComparePair, obligation: int, number: int, focus: set[str], ask: str,
               max_chars: int | None = None) -> tuple[ChangeSet, ChangeSet, list[Unit], str, str]:
    """(all the changes, those shown, their units, the Markdown, the "Shown: ..." line when changes the question asks
    about were cut to fit, else '')."""
    full = compare_documents(pair.older, pair.newer)
    focused = about_focus(full, focus)
    shown = within(focused, max_chars, lambda c: render_pair(c, pair.identity.label, _cite))
    name = pair.identity.label
    group = f"compare-{number}"
    units = [Unit(id=f"c{number}-0", kind="heading", text=f"{name}: {shown.title_a} → {shown.title_b}" if name else
                  f"{shown.title_a} → {shown.title_b}", shelf=pair.shelf, obligation=obligation, status="label", group=group, origin="comparison")]
    if shown.changes:
        units.append(Unit(id=f"c{number}-h", kind="table_header", text=row_text(ROW_HEADER), cells=list(ROW_HEADER), shelf=pair.shelf,
                          obligation=obligation, status="label", group=group, origin="comparison"))
    for n, change in enumerate(shown.changes, start=1):
        cites = [sid for sid in (change.section_a, change.section_b) if sid]
        cells = change_cells(change, _no_cite)
        units.append(Unit(id=f"c{number}-{n}", kind="table_row", text=row_text(cells), cells=cells, shelf=pair.shelf,
                          citations=list(dict.fromkeys(cites)), obligation=obligation, status="computed", group=group, origin="comparison"))
    markdown, cut = render_pair(shown, name, _cite), ""
    if len(shown.changes) < len(full.changes):
        why = [f"about {_focus_words(ask, focus)}"] if len(focused.changes) < len(full.changes) else []
        why += ["that fit this answer"] if len(shown.changes) < len(focused.changes) else []
        line = (f"Shown: the {len(shown.changes)} of {len(full.changes)} changes {', '.join(why)}; "
                f"`shelfwise compare {pair.shelf} {full.doc_a} {full.doc_b}` lists them all.")
        markdown += f"\n\n{line}"
        cut = line if len(shown.changes) < len(focused.changes) else ""  # changes asked about left out: not the whole answer
    quoted = []
    for n, change in enumerate(shown.changes, start=1):
        text = _in_their_words(pair, change)
        if text:
            units.append(Unit(id=f"c{number}-q{n}", kind="list_item", text=text, shelf=pair.shelf, obligation=obligation,
                              citations=[change.section_a, change.section_b], status="computed", group=group, origin="comparison"))
            quoted.append(f"- {text} [{change.section_a}] [{change.section_b}]")
    if quoted:
        markdown += "\n\nQuoted:\n\n" + "\n".join(quoted)
    return full, shown, units, markdown, cut


def answer_comparisons(plan: Plan, shelves: dict[str, OpenShelf], scope: dict[str, set[str]],
                       chat: ChatModel | None = None, max_chars: int | None = None,
                       max_pairs: int = DEFAULT_TUNING.compare_max_pairs) -> Comparisons | None:
    """The compare part of the answer for the plan's obligations that resolve to version pairs; None when none does.
    With ``max_chars``, each pair's table is cut to its share of it (``within``) and says how many changes it shows.
    At most ``max_pairs`` pairs are shown (answer.tuning.compare_max_pairs); a question matching more (every person's
    two years) says how to compare them all."""
    parts: list[str] = []
    out = Comparisons(obligations=[], units=[], markdown="")
    number = 0
    for index, obligation in enumerate(plan.obligations):
        pairs = resolve_pairs(obligation, shelves, scope)
        if not pairs:
            continue
        out.obligations.append(index)
        focus = focus_stems(obligation.ask, pairs)
        tables, computed, part_units = [], [], []
        share = max_chars // min(len(pairs), max_pairs) if max_chars else None
        for pair in pairs[:max_pairs]:
            number += 1
            full, shown, units, markdown, cut = _pair_part(pair, index, number, focus, obligation.ask, share)
            if cut:
                out.cut.setdefault(index, []).append(cut)
            tables.append(markdown)
            computed.append((pair, shown))
            part_units.extend(units)
            out.read.extend(ReadSection(shelf=pair.shelf, section_id=section.id, doc_id=view.doc_id, chars=len(section.text),
                                        why=f"compared: {pair.older.doc_id} → {pair.newer.doc_id}").model_dump()
                            for view in (pair.older, pair.newer) for section in view.sections)
            out.pairs.append({"shelf": pair.shelf, "older": pair.older.doc_id, "newer": pair.newer.doc_id, "name": pair.identity.label,
                              "reason": pair.reason, "changes": len(full.changes), "shown": len(shown.changes)})
        if chat is not None:
            explained = explain_changes(chat, plan.resolved_question, obligation.ask, index, computed)
            out.model_used = out.model_used or bool(explained.shown)
            out.written.extend(explained.written)
            out.removed.extend(explained.removed)
            out.warnings.extend(explained.warnings)
            if explained.shown:
                part_units = [*explained.shown, *part_units]
                parts.append(explained.markdown)
        out.units.extend(part_units)
        parts.append(COMPUTED_LINE)
        parts.extend(tables)
        if len(pairs) > max_pairs:
            shelf = pairs[max_pairs].shelf
            line = (f"Shown: the first {max_pairs} of {len(pairs)} pairs; `shelfwise compare {shelf} --batch` (or POST "
                    "/api/compare with batch: true) compares every pair of versions of the shelf.")
            parts.append(line)
            out.cut.setdefault(index, []).append(line)
    if not out.obligations:
        return None
    out.written = [*out.written, *(u for u in out.units if u.origin == "comparison")]
    out.markdown = "\n\n".join(parts)
    return out


MODE_LINES = {
    "model-free": "_Model-free answer, computed by comparison: every change and difference above is computed by code from "
                  "the two documents, and each row cites the section on both sides._",
    "model": "_Computed by comparison: the table is computed by code from the two documents; the explanation above it was "
             "written by a model, and each statement of it shown matches that change set._",
}


def _statuses(plan: Plan, comparisons: Comparisons) -> list[dict]:
    return [ObligationStatus(index=i, kind=plan.obligations[i].kind, ask=plan.obligations[i].ask, covered=i not in comparisons.cut,
                             units=[u.id for u in comparisons.units if u.obligation == i]).model_dump()
            for i in comparisons.obligations]


def _cut_lines(comparisons: Comparisons) -> list[str]:
    return [line for index in sorted(comparisons.cut) for line in comparisons.cut[index]]


def _sentences(units: list[Unit]) -> list[AnswerSentence]:
    return [AnswerSentence(text=u.text, citations=u.citations, shelf=u.shelf, kind=u.kind, obligation=u.obligation, status=u.status,
                           cells=u.cells) for u in units]


def comparison_response(plan: Plan, comparisons: Comparisons, opened: dict[str, OpenShelf], correction: Unit | None = None,
                        **fields) -> AskResponse:
    """The answer when every obligation is a comparison: the change tables (and the checked explanation). A
    ``correction`` (the checked sentence contradicting the question's premise) comes first, and the answer is then
    partial: the question asked for the reasons of a change that did not happen. A table that shows fewer of the changes
    asked about than there are (``Comparisons.cut``) makes it partial too, its "Shown: ..." line a gap."""
    removed = len(comparisons.removed)
    parts = [correction_block(correction)] if correction is not None else []
    parts.append(comparisons.markdown)
    if removed:
        parts.append(f"{removed} statement{'s' if removed != 1 else ''} of the model's explanation did not match the computed "
                     f"change set and {'are' if removed != 1 else 'is'} not shown.")
    parts.append(MODE_LINES["model" if comparisons.model_used else "model-free"])
    units = [*([correction] if correction is not None else []), *comparisons.units]
    return AskResponse(answer_markdown="\n\n".join(parts), sentences=_sentences(units), not_covered=_cut_lines(comparisons),
                       label="partial" if correction is not None or comparisons.cut else "complete", resolved_question=plan.resolved_question,
                       obligations=_statuses(plan, comparisons), sources=sources_of(units, opened), not_shown=removed, **fields)


def merge_comparisons(response: AskResponse, plan: Plan, rest: list[int], comparisons: Comparisons,
                      shelves: dict[str, OpenShelf]) -> AskResponse:
    """The answer of the other obligations (``rest``: their indexes in ``plan``) with the compare part put in its place."""
    sentences = [s.model_copy(update={"obligation": rest[s.obligation]}) if s.obligation < len(rest) else s for s in response.sentences]
    statuses = [{**o, "index": rest[o["index"]]} if o.get("index", len(rest)) < len(rest) else o for o in response.obligations]
    statuses = sorted([*statuses, *_statuses(plan, comparisons)], key=lambda o: o["index"])
    compared = "\n\n".join([comparisons.markdown, MODE_LINES["model" if comparisons.model_used else "model-free"]])
    label = response.label
    if label == "not_in_documents":
        label, others = "partial", " ".join(response.not_covered)
    else:
        others = response.answer_markdown
    label = "partial" if comparisons.cut else label
    markdown = [compared, others] if min(comparisons.obligations) < min(rest) else [others, compared]
    seen = {(s.shelf, s.section_id) for s in response.sources}
    sources = [*response.sources, *(s for s in sources_of(comparisons.units, shelves) if (s.shelf, s.section_id) not in seen)]
    return response.model_copy(update={
        "answer_markdown": "\n\n".join(p for p in markdown if p), "label": label, "obligations": statuses, "sources": sources,
        "not_covered": [*response.not_covered, *_cut_lines(comparisons)],
        "sentences": sorted([*sentences, *_sentences(comparisons.units)], key=lambda s: s.obligation),
        "resolved_question": plan.resolved_question, "models": {**response.models, "comparison": "code"}, "not_shown": response.not_shown + len(comparisons.removed),
        "warnings": [*response.warnings, *comparisons.warnings]})
