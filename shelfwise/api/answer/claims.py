"""Claims: a written answer split into its displayed units, and the checkable claims of a draft.

``parse_answer`` turns a model writer's Markdown into ``Unit`` records: sentences,
list items, steps, headings, lead-ins and connective text, table header and
rows, and a judgment's verdict with its premises. Each unit carries the section
ids it cites, parsed from the citation markers ``[s0123456789a]`` (the format the
extractive writer renders and the model writer is told to write). ``split_sentences``
does not break on "vs.", "e.g.", "i.e.", "Fig.", "Sec.", decimals or section
numbers. ``claims_of`` gives one ``Claim`` per checkable unit, and one per table
cell, since a cell is displayed (and blanked) alone.

With ``attribute=True`` (the model writer), a sentence that cites nothing but
stands between cited sentences of its paragraph, and says something (two content
words or more, not a lead-in), takes its neighbours' citations (group
"attributed"): it becomes a claim, shown only if the checker confirms it, instead
of connective text that the gate would remove.
"""

from __future__ import annotations

import re
from shelfwise.api.terms import normalise, stems, unit_cells
from shelfwise.compiler.store.records import row_text
from shelfwise.api.answer.records import Claim, Draft, Unit
from shelfwise.compiler.prose import sentences as prose_sentences
from shelfwise.compiler.refs import SECTION_ID

__all__ = ["split_sentences", "citations_in", "strip_citations", "parse_answer", "claims_of",
           "CITATION", "CHANGE_HEADERS"]

SID = SECTION_ID
CITATION = re.compile(rf"\[\s*({SID}(?:\s*[,;]?\s*{SID})*)\s*\]")
_SID = re.compile(SID)
_MARKERS_AFTER_STOP = re.compile(rf"([.!?])((?:\s*\[\s*{SID}[^\]]*\])+)")
CHANGE_HEADERS = frozenset({"change", "changes", "difference", "diff", "delta", "changed by", "δ"})
_PART = re.compile(r"^\s*<!--\s*part\s+(\d+)\s*-->\s*$", re.I)
_HEADING = re.compile(r"^\s*(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^(\s*)(?:([-*+])|(\d{1,3})[.)])\s+(.*)$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_VERDICT = re.compile(r"^\s*\**\s*verdict\s*:?\s*\**\s*:?\s*(.*)$", re.I)
_BECAUSE = re.compile(r"^\s*\**\s*(because|premises|it rests on|based on)\s*:?\s*\**\s*:?\s*$", re.I)
_EMPHASIS = re.compile(r"(\*\*|__|`)")


def strip_citations(text: str) -> str:
    """Text with its citation markers removed and the spacing they leave repaired."""
    text = CITATION.sub(" ", text)
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    return normalise(text)


def citations_in(text: str) -> list[str]:
    """Section ids cited in ``text``, in order, distinct."""
    return list(dict.fromkeys(sid for match in CITATION.finditer(text) for sid in _SID.findall(match.group(1))))


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (citation markers kept with their sentence); abbreviations, decimals and numbers do not split."""
    return prose_sentences(_MARKERS_AFTER_STOP.sub(lambda m: f"{m.group(2)}{m.group(1)}", text))


def _md_cells(line: str) -> list[str]:
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line)]


class _Builder:
    def __init__(self, shelf: str, default_obligation: int, attribute: bool = False):
        self.attribute = attribute
        self.units: list[Unit] = []
        self.shelf = shelf
        self.obligation = default_obligation
        self.unanswered: set[int] = set()
        self.tables = 0
        self.premises = False

    def add(self, kind: str, raw: str, group: str = "", cites: list[str] | None = None) -> None:
        cites = cites or citations_in(raw)
        text = _EMPHASIS.sub("", strip_citations(raw)).strip()
        if not text:
            return
        if kind == "sentence" and not cites:
            kind = "connective"
            group = group or ("lead-in" if text.endswith(":") else "")
        self.units.append(Unit(id=f"u{len(self.units) + 1}", kind=kind, text=text, shelf=self.shelf, citations=cites,
                               obligation=self.obligation, group=group))

    def paragraph(self, lines: list[str]) -> None:
        sentences = split_sentences(" ".join(lines))
        cites = [citations_in(s) for s in sentences]
        for index, sentence in enumerate(sentences):
            near = [*(cites[index - 1] if index else []), *(cites[index + 1] if index + 1 < len(cites) else [])]
            text = strip_citations(sentence)
            if self.attribute and not cites[index] and near and not text.endswith(":") and len(stems(text)) >= 2:
                self.add("sentence", sentence, group="attributed", cites=list(dict.fromkeys(near)))
            else:
                self.add("sentence", sentence)

    def table(self, lines: list[str]) -> None:
        rows = [_md_cells(line) for line in lines if not _TABLE_RULE.match(line)]
        if not rows:
            return
        self.tables += 1
        group = f"table{self.tables}"
        header = rows[0]
        source_col = len(header) - 1 if header and header[-1].strip("* ").lower() in ("source", "sources", "section", "sections") else None
        for r_index, cells in enumerate(rows):
            cites = citations_in(" ".join(cells))
            shown = [strip_citations(c) for i, c in enumerate(cells) if i != source_col]
            kind = "table_header" if r_index == 0 else "table_row"
            shown = [_EMPHASIS.sub("", c).replace(" | ", " / ") for c in shown]
            self.units.append(Unit(id=f"u{len(self.units) + 1}", kind=kind, text=row_text(shown), cells=shown, shelf=self.shelf,
                                   citations=cites, obligation=self.obligation, group=group))


def parse_answer(markdown: str, *, shelf: str = "", obligation: int = 0, sentinel: str = "NOT IN THESE DOCUMENTS",
                 attribute: bool = False) -> tuple[list[Unit], set[int]]:
    """The units of a written answer, and the parts (obligation indexes) the writer said the documents do not answer.

    A '<!-- part N -->' line assigns what follows to obligation N-1; text before any
    marker goes to ``obligation``. ``attribute``: see the module text.
    """
    b = _Builder(shelf, obligation, attribute)
    para: list[str] = []
    table: list[str] = []

    def flush() -> None:
        if para:
            b.paragraph(para)
            para.clear()
        if table:
            b.table(table)
            table.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if _PART.match(line):
            flush()
            b.obligation = int(_PART.match(line).group(1)) - 1
            b.premises = False
            continue
        if not stripped or stripped.startswith("```"):
            flush()
            continue
        if sentinel.lower() in stripped.lower() and len(strip_citations(stripped)) <= len(sentinel) + 8:
            flush()
            b.unanswered.add(b.obligation)
            continue
        if stripped.startswith("|"):
            if para:
                b.paragraph(para)
                para.clear()
            table.append(stripped)
            continue
        if table:
            b.table(table)
            table.clear()
        if heading := _HEADING.match(line):
            flush()
            b.premises = False
            b.add("heading", heading.group(2), group="heading")
            continue
        if verdict := _VERDICT.match(line):
            flush()
            cites = citations_in(verdict.group(1))
            text = strip_citations(verdict.group(1))
            if text:
                b.units.append(Unit(id=f"u{len(b.units) + 1}", kind="sentence", text=text, shelf=b.shelf, citations=cites,
                                    obligation=b.obligation, group="verdict", status="derived"))
            continue
        if _BECAUSE.match(line):
            flush()
            b.premises = True
            continue
        if item := _ITEM.match(line):
            flush()
            kind = "step" if item.group(3) else "list_item"
            b.add(kind, item.group(4), group="premise" if b.premises else f"list{b.obligation}")
            continue
        if line.startswith(("  ", "\t")) and b.units and b.units[-1].kind in ("list_item", "step") and not para:
            last = b.units[-1]
            b.units[-1] = last.model_copy(update={"text": normalise(f"{last.text} {strip_citations(stripped)}"),
                                                  "citations": list(dict.fromkeys([*last.citations, *citations_in(stripped)]))})
            continue
        para.append(stripped)
    flush()
    return b.units, b.unanswered


def _header_of(draft: Draft) -> dict[str, list[str]]:
    return {u.group: unit_cells(u) for u in draft.units if u.kind == "table_header"}


def claims_of(draft: Draft) -> list[Claim]:
    """One claim per cited sentence, list item, step or figure, and one per non-empty cell of a cited table row.

    Headings, lead-ins, connective text and a verdict are not claims: the gate
    judges them from what is checked. A cell under a "Change" header is a
    change_cell, which code computes from its row.
    """
    headers = _header_of(draft)
    claims: list[Claim] = []
    for unit in draft.units:
        if not unit.citations:
            continue
        if unit.kind in ("sentence", "list_item", "step", "figure") and unit.group != "verdict" and unit.status != "computed":
            claims.append(Claim(id=f"c{len(claims) + 1}", unit_id=unit.id, kind=unit.kind, text=unit.text, shelf=unit.shelf,
                                citations=unit.citations))
        elif unit.kind == "table_row":
            header = headers.get(unit.group, [])
            cells = unit_cells(unit)
            for index, cell in enumerate(cells):
                if not cell or cell in ("-", "—", "–"):
                    continue
                column = header[index] if index < len(header) else ""
                kind = "change_cell" if column.strip().lower() in CHANGE_HEADERS else "table_cell"
                context = f"table row: {row_text(cells)}" + (f"; header: {row_text(header)}" if header else "")
                claims.append(Claim(id=f"c{len(claims) + 1}", unit_id=unit.id, cell=index, kind=kind, text=cell,
                                    context=context, shelf=unit.shelf, citations=unit.citations))
    return claims
