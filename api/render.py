"""The answer's Markdown: shown units in obligation and document order, each followed by its section ids.

Sentences of one section run as one paragraph, list items as a list, a
procedure's steps as a numbered list, table rows as a table (with a Source
column), figure captions in italics. A model writer's headings render as
'### ', its lead-ins ("The steps are:") on their own line, a judgment's verdict
as its own paragraph first in its part. The gaps follow, one plain line each,
then how many statements were not shown, then a line saying which mode produced the answer.
"""

from __future__ import annotations

import re

from api.complete import NOT_IN_DOCUMENTS, Completion
from api.gate import DERIVED_LABEL
from api.plan import Plan
from api.schemas import Source
from api.shelves import OpenShelf
from api.write import Unit

__all__ = ["render_markdown", "sources_of"]

_OWN_NUMBER = re.compile(r"^(\d{1,3})[.)]\s+")  # a step that carries its document's number: "7. Review ..."


def _item(kind: str, n: int, unit: Unit) -> str:
    """One list line: a step keeps the number its document gives it ("7."), else counts from 1; other items are bullets."""
    if kind != "step":
        return f"- {unit.text} {_cite(unit)}"
    own = _OWN_NUMBER.match(unit.text)
    if own:
        return f"{own.group(1)}. {unit.text[own.end():]} {_cite(unit)}"
    return f"{n}. {unit.text} {_cite(unit)}"

MODE_LINES = {
    "model-free": "_Model-free answer: every sentence above is quoted from the section it cites._",
    "model": "_Written by a model; every statement shown was checked against the section it cites._",
}


def _cite(unit: Unit) -> str:
    return " ".join(f"[{sid}]" for sid in unit.citations)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").strip()


def _blocks(units: list[Unit], *, split_by_source: bool = True) -> list[str]:
    """Markdown blocks of one part; ``split_by_source`` starts a new paragraph when the cited sections change
    (the extractive writer's quotes), else sentences run as the model wrote them."""
    blocks: list[str] = []
    index = 0
    while index < len(units):
        unit = units[index]
        if unit.kind in ("table_header", "table_row"):
            rows = [u for u in units[index:] if u.group == unit.group and u.kind in ("table_header", "table_row")]
            header = next((u for u in rows if u.kind == "table_header"), None)
            body = [u for u in rows if u.kind == "table_row"]
            width = max(len(u.text.split(" | ")) for u in rows)
            head_cells = header.text.split(" | ") if header else [""] * width
            lines = ["| " + " | ".join(_cell(c) for c in [*head_cells, *[""] * (width - len(head_cells))]) + " | Source |"]
            lines.append("|" + " --- |" * (width + 1))
            for row in body:
                cells = row.text.split(" | ")
                lines.append("| " + " | ".join(_cell(c) for c in [*cells, *[""] * (width - len(cells))]) + f" | {_cite(row)} |")
            blocks.append("\n".join(lines))
            index += len(rows)
        elif unit.kind in ("step", "list_item"):
            run = []
            while index < len(units) and units[index].kind == unit.kind:
                run.append(units[index])
                index += 1
            blocks.append("\n".join(_item(unit.kind, n, u) for n, u in enumerate(run, start=1)))
        elif unit.kind == "figure":
            blocks.append(f"*{unit.text}* {_cite(unit)}")
            index += 1
        elif unit.kind == "heading":
            blocks.append(f"### {unit.text}")
            index += 1
        elif _alone(unit):
            blocks.append(_sentence(unit))
            index += 1
        else:
            run: list[Unit] = []
            cited: list[str] | None = None
            while index < len(units) and units[index].kind in ("sentence", "connective") and not _alone(units[index]):
                if units[index].citations:
                    if split_by_source and cited is not None and units[index].citations != cited:
                        break
                    cited = units[index].citations
                run.append(units[index])
                index += 1
            blocks.append(" ".join(_sentence(u) for u in run))
    return blocks


def _alone(unit: Unit) -> bool:
    """A lead-in or a verdict stands on its own line."""
    return unit.group in ("lead-in", "verdict")


def _sentence(unit: Unit) -> str:
    if unit.group == "verdict" and unit.text.startswith(DERIVED_LABEL):
        return f"**{DERIVED_LABEL}** {unit.text[len(DERIVED_LABEL):].strip()} {_cite(unit)}".rstrip()
    return f"{unit.text} {_cite(unit)}".rstrip()


def render_markdown(plan: Plan, shown: list[Unit], completion: Completion, shelves: dict[str, OpenShelf], mode: str,
                    *, not_shown: str = "") -> str:
    """The whole answer as Markdown; ``not_shown`` is the gate's line on units not shown (``api.gate.not_shown_line``)."""
    parts: list[str] = []
    if completion.label == "not_in_documents":
        asked = "; ".join(line.removeprefix("The documents do not say ").rstrip(".") for line in completion.gaps)
        parts.append(f"{NOT_IN_DOCUMENTS}: the documents do not say {asked}.")
        parts.append("No section answers it, so no references are given.")
        return "\n\n".join(parts)
    for index in range(len(plan.obligations)):
        parts.extend(_blocks([u for u in shown if u.obligation == index], split_by_source=mode == "model-free"))
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
                title=document["title"],
                path=document["path"],
                heading_path=section.heading_path,
                page_start=section.page_start,
                page_end=section.page_end,
            )
    return list(seen.values())
