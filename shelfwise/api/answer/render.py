"""The answer's Markdown: shown units in obligation order, each followed by its section ids.

A correction of the question's premise comes first ("Contrary to what the question assumes, the documents
say: ..."), then per obligation a derived verdict, then the quotes. Each block opens with its document's
short name ("**QM-001 Rev D:**"); a superseded document's says what superseded it ("**QM-001 Rev C
(superseded by Rev D) said:**"). Sentences of one section run as one paragraph, list items as a list, a
procedure's steps as a numbered list keeping the numbers the source gives them, table rows as a table
under their header (with a Source column), figure captions in italics. A model writer's headings render as
'### ', its lead-ins ("The steps are:") on their own line, a judgment's verdict as its own paragraph first in
its part. The gaps follow, one plain line each, then how many statements were not shown, then a line saying
which mode produced the answer.
"""

from __future__ import annotations

import re

from shelfwise.api.answer.complete import NOT_IN_DOCUMENTS, Completion
from shelfwise.api.currency import superseded_prefix
from shelfwise.api.answer.check.gate import DERIVED_LABEL
from shelfwise.api.answer.check.premise import CORRECTION_LABEL
from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.schemas import Source
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import unit_cells
from shelfwise.compiler.store.records import table_line
from shelfwise.api.answer.records import Unit
from shelfwise.api.answer.write.columns import column_labels, column_order
from shelfwise.compiler.refs import SectionRef

__all__ = ["render_markdown", "sources_of", "markdown_chars", "correction_block", "NO_REFERENCES", "MODE_LINES"]

NO_REFERENCES = "No section answers it, so no references are given."
MODE_LINES = {
    "model-free": "_Model-free answer: every sentence above is quoted from the section it cites._",
    "model": "_Written by a model; every statement shown was checked against the section it cites._",
    "model-chosen": "_Quotes chosen and ordered by a model: every sentence above is quoted from the section it cites._",
}


def _cite(unit: Unit) -> str:
    return " ".join(f"[{sid}]" for sid in unit.citations)


def correction_block(unit: Unit) -> str:
    """The first line of an answer whose question's premise a checked sentence contradicts."""
    return f"**{CORRECTION_LABEL}** {unit.text} {_cite(unit)}".rstrip()


def _cell(text: str) -> str:
    return text.replace("|", "\\|").strip()


_STEP_NUMBER = re.compile(r"^\(?(\d{1,3})[.)]\s+(?=\S)")


def _label(unit: Unit, quoted: bool = True) -> str:
    """'**QM-001 Rev D:**', or '**QM-001 Rev C (superseded by Rev D) said:**' (empty without a source). A model's
    text (``quoted`` false) keeps its own layout: only a superseded document is named in it (every unit's source is
    in the answer JSON)."""
    if not unit.source or (not quoted and not unit.superseded_by):
        return ""
    return f"**{superseded_prefix(unit.source, unit.superseded_by)}**" if unit.superseded_by else f"**{unit.source}:**"


_OWN_MARK = re.compile(r"^(?:\((?:[a-z]|[ivx]{1,5})\)|(?:[a-z]|[ivx]{1,5})\))\s+(?=\S)", re.I)
"""A step's own lettered or roman mark ("(a) the data subject has given consent ...", "(iv)", "b)"): a point of a
numbered paragraph, which a number of the answer's own would misstate ("4. (a) ...")."""


def _step_lines(run: list[Unit]) -> list[str]:
    """Numbered as the source numbers them ('7. Review ...' stays 7); a step with a lettered or roman mark of its own
    ("(a) ...") keeps it, as a bullet; other unnumbered steps counted from 1."""
    lines = []
    for n, unit in enumerate(run, start=1):
        if _OWN_MARK.match(unit.text):  # letters or roman numerals: never a number _STEP_NUMBER reads
            lines.append(f"- {unit.text} {_cite(unit)}")
            continue
        match = _STEP_NUMBER.match(unit.text)
        number, text = (match.group(1), unit.text[match.end():]) if match else (str(n), unit.text)
        lines.append(f"{number}. {text} {_cite(unit)}")
    return lines


def _table(rows: list[Unit], labelled: bool = False) -> str:
    """The rows under their header, with a Source column: each row's citations, after its document's short name unless
    ``labelled`` (the line above the table names the document, and every row of one table is of one section)."""
    header = next((u for u in rows if u.kind == "table_header"), None)
    body = [u for u in rows if u.kind == "table_row"]
    width = max(len(unit_cells(u)) for u in rows)
    head_cells = column_labels(unit_cells(header)) if header else [""] * width
    asked = header.period_columns if header and all(r.period_columns == header.period_columns for r in body) else []
    order = column_order(unit_cells(header), asked) + list(range(len(unit_cells(header)), width)) if asked else list(range(width))
    lines = [table_line([*(_cell(c) for c in _ordered([*head_cells, *[""] * (width - len(head_cells))], order)), "Source"])]
    lines.append("|" + " --- |" * (width + 1))
    for row in body:
        cells = unit_cells(row)
        source = f"{row.source} " if row.source and not labelled else ""
        lines.append(table_line([*(_cell(c) for c in _ordered([*cells, *[""] * (width - len(cells))], order)), f"{source}{_cite(row)}"]))
    return "\n".join(lines)


def _ordered(cells: list[str], order: list[int]) -> list[str]:
    """A row's cells in ``order`` (``columns.column_order``: the asked period first among the columns of its length)."""
    return [cells[i] for i in order]


def _with_headers(part: list[Unit], units: list[Unit]) -> list[Unit]:
    """One part's units, each table they quote rows of under its header: a header the writer placed with another part
    (that part's ask named the table's columns, "FLAN-T5-XL") is also set before this part's first row of its table,
    or the rows would show under an empty header, no column saying which measure or period a figure is."""
    headers = {u.group: u for u in units if u.kind == "table_header" and u.group}
    have = {u.group for u in part if u.kind == "table_header"}
    out: list[Unit] = []
    for unit in part:
        if unit.kind == "table_row" and unit.group in headers and unit.group not in have:
            out.append(headers[unit.group])
            have.add(unit.group)
        out.append(unit)
    return out


def _blocks(units: list[Unit], *, split_by_source: bool = True) -> list[str]:
    """Markdown blocks of one part; ``split_by_source`` starts a new paragraph when the cited sections change
    (the extractive writer's quotes), else sentences run as the model wrote them. A block of one document opens
    with its short name, unless the block before it opened with the same name (one document's quotes in a row are
    named once); a superseded document's says what superseded it."""
    blocks: list[str] = []
    index = 0
    named = ""  # the name the last labelled block opened with

    def once(label: str) -> str:
        nonlocal named
        shown, named = ("" if label and label == named else label), label
        return shown
    while index < len(units):
        unit = units[index]
        if unit.group == "correction":
            blocks.append(correction_block(unit))
            named = ""
            index += 1
        elif unit.kind in ("table_header", "table_row"):
            rows = []
            while index < len(units) and units[index].group == unit.group and units[index].kind in ("table_header", "table_row"):
                rows.append(units[index])
                index += 1
            if any(r.kind == "table_row" for r in rows):
                label = _label(next(r for r in rows if r.kind == "table_row"), split_by_source)
                shown = once(label)
                blocks.append((shown + "\n\n" if shown else "") + _table(rows, labelled=bool(label)))
        elif unit.kind in ("step", "list_item"):
            run = []
            while index < len(units) and units[index].kind == unit.kind and units[index].source == unit.source:
                run.append(units[index])
                index += 1
            lines = _step_lines(run) if unit.kind == "step" else [f"- {u.text} {_cite(u)}" for u in run]
            label = once(_label(unit, split_by_source))
            blocks.append((label + "\n" if label else "") + "\n".join(lines))
        elif unit.kind == "code":
            fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", unit.text)), default=0))
            blocks.append(f"{fence}\n{unit.text}\n{fence}")
            index += 1
        elif unit.kind == "figure":
            blocks.append(f"*{unit.text}* {_cite(unit)}")
            index += 1
        elif unit.kind == "heading":
            blocks.append(f"### {unit.text}")
            named = ""
            index += 1
        elif _alone(unit):
            blocks.append(_sentence(unit))
            named = ""
            index += 1
        else:
            run: list[Unit] = []
            cited: list[str] | None = None
            while index < len(units) and units[index].kind in ("sentence", "connective") and not _alone(units[index]):
                if units[index].citations:
                    if split_by_source and cited is not None and units[index].citations != cited:
                        break
                    if run and (units[index].source, units[index].superseded_by) != (run[0].source, run[0].superseded_by):
                        break
                    cited = units[index].citations
                run.append(units[index])
                index += 1
            label = once(_label(run[0], split_by_source) if split_by_source or len({(u.source, u.superseded_by) for u in run if u.citations}) == 1 else "")
            blocks.append(" ".join([*([label] if label else []), *(_sentence(u) for u in run)]))
    return blocks


def _alone(unit: Unit) -> bool:
    """A lead-in or a verdict stands on its own line."""
    return unit.group in ("lead-in", "verdict")


def _sentence(unit: Unit) -> str:
    if unit.group == "verdict" and unit.text.startswith(DERIVED_LABEL):
        return f"**{DERIVED_LABEL}** {unit.text[len(DERIVED_LABEL):].strip()} {_cite(unit)}".rstrip()
    return f"{unit.text} {_cite(unit)}".rstrip()


def markdown_chars(units: list[Unit], quoted: bool = True) -> int:
    """Characters the units take in the answer's Markdown (what the size limit counts)."""
    parts = []
    for obligation in dict.fromkeys(u.obligation for u in units):
        parts.extend(_blocks(_with_headers([u for u in units if u.obligation == obligation], units), split_by_source=quoted))
    return len("\n\n".join(parts))


def render_markdown(plan: Plan, shown: list[Unit], completion: Completion, shelves: dict[str, OpenShelf], mode: str,
                    *, not_shown: str = "") -> str:
    """The whole answer as Markdown; ``not_shown`` is the gate's line on units not shown (``shelfwise.api.answer.check.gate.not_shown_line``)."""
    parts: list[str] = []
    if completion.label == "not_in_documents":
        parts.append(f"{NOT_IN_DOCUMENTS}. " + " ".join(completion.gaps))
        parts.append(NO_REFERENCES)
        return "\n\n".join(parts)
    for index in range(len(plan.obligations)):
        parts.extend(_blocks(_with_headers([u for u in shown if u.obligation == index], shown), split_by_source=mode in ("model-free", "model-chosen")))
    parts.extend(completion.gaps)
    if not_shown:
        parts.append(not_shown)
    parts.append(MODE_LINES.get(mode, MODE_LINES["model"]))
    return "\n\n".join(parts)


def sources_of(shown: list[Unit], shelves: dict[str, OpenShelf]) -> list[Source]:
    """Every section the shown units cite, in first-cited order."""
    seen: dict[tuple[str, str], Source] = {}
    for unit in shown:
        shelf = shelves.get(unit.shelf)
        for sid in unit.citations:
            if shelf is None or sid not in shelf.sections or (unit.shelf, sid) in seen:
                continue
            section = shelf.sections[sid]
            document = shelf.documents[section.doc_id]
            seen[(unit.shelf, sid)] = Source(
                section_id=sid,
                shelf=unit.shelf,
                doc_id=section.doc_id,
                title=shelf.doc_name(section.doc_id),
                path=document["path"],
                heading_path=section.heading_path,
                page_start=section.page_start,
                page_end=section.page_end,
                anchor=SectionRef(unit.shelf, sid).anchor,
            )
    return list(seen.values())
