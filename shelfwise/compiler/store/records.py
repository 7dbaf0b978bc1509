"""Typed records passed between compile stages and kept in the store (the store's bottom module: it imports no stage).

A reader turns a file into a flat stream of :class:`Element` (headings with
levels, paragraphs, list items, tables, figures, code) in reading order, each
with the page it starts on. ``sections.build_sections`` walks that stream once
into the section tree. Keeping every reader to this one shape is what lets a
PDF read in ten-page windows equal a single pass: the windows' streams are
concatenated, then walked once.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

CELL_JOIN = " | "
"""Between the cells of a table row rendered as text (shelfwise/api/terms.py ``table_cells`` splits a row back)."""


def row_text(cells: list[str]) -> str:
    """One table row as text: its cells joined by ``CELL_JOIN`` (the one place rows become text)."""
    return CELL_JOIN.join(cells)


def table_line(cells: list[str]) -> str:
    """One table row as a Markdown table line, "| a | b |" (its cells already escaped where the caller must)."""
    return f"| {row_text(cells)} |"


def table_text(rows: list[list[str]]) -> str:
    """A table grid as text, one row a line: what search, the ledger and the checker read of a table."""
    return "\n".join(row_text(row) for row in rows)


def definition_text(term: str, description: str) -> str:
    """A definition list's item as text, term and description together: "active: REQUIRED.  Boolean indicator ..."."""
    term = " ".join(term.split())
    return f"{term} {description}" if term.endswith((":", "—", "-")) else f"{term}: {description}"


ElementKind = Literal["heading", "paragraph", "list_item", "table", "figure", "code"]


class Element(BaseModel):
    """One item of a document in reading order, as a reader found it."""

    kind: ElementKind = Field(description="What the item is.")
    text: str = Field(default="", description="Heading text, paragraph text, figure caption or table text.")
    level: int | None = Field(default=None, description="Heading level (1 = top); None when the reader does not know.")
    page: int | None = Field(default=None, description="1-based page (slide, sheet) the item starts on.")
    rows: list[list[str]] | None = Field(default=None, description="Table grid, row by row.")
    header_rows: int = Field(default=0, description="How many leading rows of `rows` are header rows.")
    name: str | None = Field(default=None, description="Table name (an Excel sheet's name), figure label, or a definition item's term.")
    image: bytes | None = Field(default=None, description="Figure crop (PNG) when the format holds one.")


class Converted(BaseModel):
    """A reader's output for one file."""

    title: str = Field(description="Document title (from metadata, first heading or file name).")
    elements: list[Element] = Field(description="The document's items in reading order.")
    pages: int = Field(default=0, description="Page (slide, sheet) count; 0 when the format has none.")
    reader: str = Field(description="Reader name, e.g. 'docling' or 'pdf-text'.")
    reader_version: str = Field(description="Reader version string, recorded as provenance.")
    warnings: list[str] = Field(default_factory=list, description="Things the reader noticed but could handle.")


class Block(BaseModel):
    """A body item of a section: paragraph, list item, table, figure or code."""

    kind: ElementKind
    text: str
    page: int | None = None
    rows: list[list[str]] | None = None
    header_rows: int = 0
    name: str | None = None
    figure_id: str | None = Field(default=None, description="Id of the figure record for kind='figure'.")


class Section(BaseModel):
    """A node of a document's section tree."""

    id: str = Field(description="Stable id: hash of (document id, heading path, ordinal among same-path siblings).")
    doc_id: str
    parent_id: str | None
    seq: int = Field(description="Position of the section in document order (0 = the document's root).")
    level: int = Field(description="Depth in the tree: 0 for the root, 1 for top headings.")
    heading: str
    heading_path: list[str] = Field(description="Headings from the top level down to this one (root excluded).")
    blocks: list[Block] = Field(default_factory=list)
    page_start: int | None = None
    page_end: int | None = None

    @property
    def text(self) -> str:
        """The section's own body text (not its children's), blocks separated by blank lines."""
        return "\n\n".join(block.text for block in self.blocks if block.text)


class Figure(BaseModel):
    """A figure with its caption, crop and (when a vision model ran) description."""

    id: str
    doc_id: str
    section_id: str
    caption: str
    page: int | None = None
    image: bytes | None = None
    image_hash: str | None = None
    description: str | None = None
    described_by: str | None = Field(default=None, description="Vision model id, or None when undescribed.")
