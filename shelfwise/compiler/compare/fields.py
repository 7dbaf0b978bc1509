"""Fields of a document: label → value pairs of forms, and line items of tables, read from a compiled section tree.

A field comes from a two-column table row ("Wages | $52,300.00"), a
"Label: value" line, a table with one data row under a header (header cell →
cell), or a line item of a wider table (first cell names the item, each other
column is one of its fields). Each field keeps the section it stands in. The
text that became fields is returned apart, so sentence comparison does not
count it twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelfwise.compiler.compare.runon import split_run_on
from shelfwise.compiler.compare.values import parse_value
from shelfwise.compiler.store.records import Block, Section
from shelfwise.compiler.prose import normalise

__all__ = ["FormField", "document_fields", "known_labels", "prose_of", "label_key", "section_fields"]

_LABEL_LINE = re.compile(r"^\s*(?P<label>[^:\n]{1,60}?)\s*:\s+(?P<value>\S.*?)\s*$")
_SENTENCE_END = re.compile(r"[.!?]\s*$")


@dataclass(frozen=True)
class FormField:
    """One label → value pair; ``item`` names the line item for a table row of a wider table."""

    label: str
    value: str
    section_id: str
    item: str = ""
    column: str = ""
    key: str = ""

    @property
    def name(self) -> str:
        """How the field is shown: 'Label', or 'Item › Column' for a line item."""
        return f"{self.item} › {self.column}" if self.item else self.label


def label_key(text: str) -> str:
    """A label as fields are matched: ``shelfwise.compiler.prose.normalise``, lower-cased with a typographic
    apostrophe plain, trailing colons and leading line numbers ('Line 7', '7a') aside."""
    text = normalise(text.lower().replace("’", "'")).strip(" :.")
    return re.sub(r"^(?:line\s+)?\d+[a-z]?[.)]?\s+(?=\D)", "", text)


def _is_label(text: str) -> bool:
    words = text.split()
    return 0 < len(words) <= 10 and not _SENTENCE_END.search(text) and parse_value(text).kind == "text"


def _header_like(row: list[str]) -> bool:
    return all(cell.strip() and parse_value(cell).kind == "text" for cell in row)


def _table_fields(block: Block, section_id: str) -> list[FormField]:
    """The fields of a table: each run of rows between blank rows read on its own (a sheet keeps an invoice's "Label |
    value" rows, its line items under their header and its totals in one table, a blank row between them), its
    columns blank in every row of the run left out."""
    fields: list[FormField] = []
    run: list[list[str]] = []
    header_rows = block.header_rows
    for row in [*(block.rows or []), []]:
        cells = [normalise(cell) for cell in row]
        if any(cells):
            run.append(cells)
            continue
        if run:
            width = max(i + 1 for r in run for i, cell in enumerate(r) if cell)
            fields += _run_fields([r[:width] for r in run], header_rows, section_id)
            header_rows = 0  # the table's header rows head its first run only
        run = []
    return fields


def _run_fields(rows: list[list[str]], header_rows: int, section_id: str) -> list[FormField]:
    width = max(len(row) for row in rows)
    rows = [row + [""] * (width - len(row)) for row in rows]
    fields: list[FormField] = []
    if width == 2:
        for label, value in rows:  # a first row marked as header is often data ("Name | …"); a real header never changes
            if _is_label(label):
                fields.append(FormField(label, value, section_id))
        return fields
    header_count = header_rows or (1 if len(rows) > 1 and _header_like(rows[0]) else 0)
    header = rows[header_count - 1] if header_count else [f"column {n + 1}" for n in range(width)]
    body = rows[header_count:]
    if len(body) == 1 and header_count:
        return [FormField(h, cell, section_id) for h, cell in zip(header, body[0]) if h]
    seen: dict[str, int] = {}
    for row in body:
        item = row[0]
        if not item:
            continue
        seen[item.lower()] = seen.get(item.lower(), 0) + 1
        shown = item if seen[item.lower()] == 1 else f"{item} ({seen[item.lower()]})"
        for column, cell in zip(header[1:], row[1:]):
            fields.append(FormField(f"{shown} › {column}", cell, section_id, item=shown, column=column))
    return fields


def _line_fields(block: Block, section_id: str, known: list[str]) -> tuple[list[FormField], list[str]]:
    fields, rest = [], []
    for line in block.text.splitlines() or [block.text]:
        run_on = split_run_on(normalise(line), known)
        if run_on is not None and all(_is_label(label) for label, _ in run_on[0]):
            fields.extend(FormField(label, value, section_id) for label, value in run_on[0])
            rest.append(run_on[1])
            continue
        match = _LABEL_LINE.match(line)
        if match and _is_label(match.group("label")) and not match.group("label").lower().startswith(("note", "http")):
            fields.append(FormField(match.group("label"), match.group("value").strip(), section_id))
        else:
            rest.append(line)
    return fields, rest


def _cell_echo(block: Block, cells: set[str]) -> bool:
    """Readers that repeat a table's cells as paragraphs after the table (docling on DOCX): not prose."""
    return block.kind == "paragraph" and normalise(block.text) in cells


def section_fields(section: Section, known: tuple[str, ...] = ()) -> tuple[list[FormField], str]:
    """The fields of one section and its remaining prose (paragraphs and list items not read as fields).

    ``known`` holds labels (lower case, longest first) that mark where a run-together paragraph of label lines splits.
    """
    fields: list[FormField] = []
    prose: list[str] = []
    cells = {normalise(c) for b in section.blocks if b.kind == "table" for row in b.rows or [] for c in row}
    for block in section.blocks:
        if block.kind == "table":
            fields.extend(_table_fields(block, section.id))
        elif block.kind in ("paragraph", "list_item") and not _cell_echo(block, cells):
            found, rest = _line_fields(block, section.id, list(known))
            fields.extend(found)
            if any(line.strip() for line in rest):
                prose.append(" ".join(line.strip() for line in rest if line.strip()))
    return fields, "\n\n".join(prose)


def known_labels(*documents: list[Section]) -> tuple[str, ...]:
    """Every field label of the documents, lower case, longest first (how run-together label lines are split)."""
    labels = {normalise(f.label.lower()) for sections in documents for s in sections for f in section_fields(s)[0] if not f.item}
    return tuple(sorted(labels, key=lambda label: (-len(label), label)))


def document_fields(sections: list[Section], known: tuple[str, ...] = ()) -> list[FormField]:
    """Every field of a document with a matching key: the label, qualified by section and ordinal when it repeats."""
    raw = [field for section in sections for field in section_fields(section, known)[0]]
    headings = {section.id: section.heading for section in sections}
    counts: dict[str, int] = {}
    for field in raw:
        counts[label_key(field.label)] = counts.get(label_key(field.label), 0) + 1
    keyed, seen = [], {}
    for field in raw:
        key = label_key(field.label)
        if counts[key] > 1:
            key = f"{label_key(headings.get(field.section_id, ''))} / {key}"
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                key = f"{key} #{seen[key]}"
        keyed.append(FormField(field.label, field.value, field.section_id, field.item, field.column, key))
    return keyed


def prose_of(section: Section, known: tuple[str, ...] = ()) -> str:
    """A section's prose: its text less what was read as fields."""
    return section_fields(section, known)[1]
