"""The answer's Markdown: shown units in obligation and document order, each followed by its section ids.

Sentences of one section run as one paragraph, list items as a list, a
procedure's steps as a numbered list, table rows as a table (with a Source
column), figure captions in italics. The gaps follow, one plain line each,
then a line saying which mode produced the answer.
"""

from __future__ import annotations

from api.complete import NOT_IN_DOCUMENTS, Completion
from api.plan import Plan
from api.schemas import Source
from api.shelves import OpenShelf
from api.write import Unit

__all__ = ["render_markdown", "sources_of"]

MODE_LINES = {
    "model-free": "_Model-free answer: every sentence above is quoted from the section it cites._",
    "model": "_Written by a model; every statement shown was checked against the section it cites._",
}


def _cite(unit: Unit) -> str:
    return " ".join(f"[{sid}]" for sid in unit.citations)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").strip()


def _blocks(units: list[Unit]) -> list[str]:
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
            mark = (lambda n: f"{n}.") if unit.kind == "step" else (lambda n: "-")
            blocks.append("\n".join(f"{mark(n)} {u.text} {_cite(u)}" for n, u in enumerate(run, start=1)))
        elif unit.kind == "figure":
            blocks.append(f"*{unit.text}* {_cite(unit)}")
            index += 1
        else:
            run = []
            while index < len(units) and units[index].kind not in ("table_header", "table_row", "step", "list_item", "figure") and (
                not run or units[index].citations == run[-1].citations
            ):
                run.append(units[index])
                index += 1
            blocks.append(" ".join(f"{u.text} {_cite(u)}" for u in run))
    return blocks


def render_markdown(plan: Plan, shown: list[Unit], completion: Completion, shelves: dict[str, OpenShelf], mode: str) -> str:
    """The whole answer as Markdown."""
    parts: list[str] = []
    if completion.label == "not_in_documents":
        asked = "; ".join(line.removeprefix("The documents do not say ").rstrip(".") for line in completion.gaps)
        parts.append(f"{NOT_IN_DOCUMENTS}: the documents do not say {asked}.")
        parts.append("No section answers it, so no references are given.")
        return "\n\n".join(parts)
    for index in range(len(plan.obligations)):
        parts.extend(_blocks([u for u in shown if u.obligation == index]))
    parts.extend(completion.gaps)
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
