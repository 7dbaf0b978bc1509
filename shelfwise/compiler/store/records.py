"""Typed records passed between compile stages and kept in the store (the store's bottom module: it imports no stage).

A reader turns a file into a flat stream of :class:`Element` (headings with
levels, paragraphs, list items, tables, figures, code) in reading order, each
with the page it starts on. ``sections.build_sections`` walks that stream once
into the section tree. Keeping every reader to this one shape is what lets a
PDF read in ten-page windows equal a single pass: the windows' streams are
concatenated, then walked once.
"""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class SectionAlias:
    """An old section id of a document and the section id it now answers at."""

    old_id: str
    doc_id: str
    new_id: str
    old_heading: str  # the old heading path, joined by ' › '
    score: float  # how well the old section matched the new one (1.0: the same text under a new heading)


IDENTITY_RULES = 3
"""Bump when the rules change: a build recomputes every stored identity made by other rules. 3: an edition the front
matter states ("This is Edition 0.77, ...") is the revision, and a name whose title does not say its revision or edition
carries it ("GNU Make Edition 0.77"); a field naming another thing's version ("Python-Version: 3.5") is none. 2: a label
cut to one word of its title ("REGULATION") is the file's acronym instead ("GDPR"; ``shelfwise.compiler.digests.names.short_name``)."""


class DocumentIdentity(BaseModel):
    """Who and when one document is, with where each part was read (``sources``: part -> "cover page", "file name",
    "title")."""

    doc_id: str = Field(description="The document's id.")
    name: str = Field(description="The one name the site, answers, search and the planner call the document by.")
    label: str = Field(default="", description="Its short label where space is short (answers' labels, the site's link map and "
                                                "widget): its name when named by issuer, form and period, else ``names.short_name``.")
    title: str = Field(description="Its title: the reader's, or from the cover when that is an identifier or an artefact.")
    issuer: str = Field(default="", description="Company or organization that issued it ('Apple Inc.').")
    form: str = Field(default="", description="Form it is filed on ('10-Q'), as the cover names it.")
    period: str = Field(default="", description="The period or date it covers, in words ('quarter ended July 1, 2023').")
    period_kind: str = Field(default="", description="'quarter', 'fiscal year', 'six months', 'effective', 'as of', 'period'.")
    period_end: str = Field(default="", description="That period's last day or that date, ISO ('2023-07-01').")
    fiscal_quarter: str = Field(default="", description="Fiscal quarter the file name or title gives ('Q3 2023').")
    revision: str = Field(default="", description="Revision or version a short cover line gives ('Rev D'), or the edition the "
                                                   "front matter states ('Edition 0.77').")
    aliases: list[str] = Field(default_factory=list, description="Other names a question may call the issuer by ('Apple', 'AAPL').")
    sources: dict[str, str] = Field(default_factory=dict, description="Part -> where it was read: 'cover page', 'file name', 'title'.")
    rules: int = Field(default=IDENTITY_RULES, description="Version of the rules that made it (IDENTITY_RULES).")


AssertionKind = Literal["definition", "rule", "finding", "step", "dependency", "supersession"]


class Threshold(BaseModel):
    """A number with its unit, as a rule states it."""

    value: str = Field(description="The number as written, e.g. '8' or 'ten'.")
    unit: str = Field(description="The unit as written, e.g. 'characters'.")
    comparator: str = Field(default="", description="'at least', 'no more than', 'never less than', ... as written (a negation "
                                                  "included), or '' when none is stated.")
    bound: str = Field(default="", description="'minimum' or 'maximum': what the comparator makes of the figure, its "
                                               "negation counted ('never less than' is a minimum); '' when none is stated.")
    text: str = Field(default="", description="The words of the threshold as they stand in the sentence.")


class Assertion(BaseModel):
    """One ledger entry, with the sentence it came from."""

    kind: AssertionKind = Field(description="What the assertion is.")
    subject: str = Field(description="What it is about: the defined term, the actor of a rule, the procedure's name.")
    statement: str = Field(description="What it says, as short as the sentence allows.")
    quote: str = Field(description="The verbatim sentence of the section it came from (whitespace-normalised).")
    conditions: list[str] = Field(default_factory=list, description="if / when clauses a rule holds under.")
    exceptions: list[str] = Field(default_factory=list, description="unless / except clauses.")
    thresholds: list[Threshold] = Field(default_factory=list, description="Numbers with units the assertion states.")
    modality: str = Field(default="", description="The modal word of a rule (MUST, SHALL NOT, may, ...).")
    step: int | None = Field(default=None, description="Position of a procedure step (1-based).")
    target: str = Field(default="", description="What a dependency or supersession points at, as written.")


class Extraction(BaseModel):
    """What one extractor produced for one section: kept assertions and the count it rejected."""

    assertions: list[Assertion] = Field(default_factory=list)
    rejected: int = Field(default=0, description="Assertions dropped because their quote is not in the section.")
    rejected_quotes: list[str] = Field(default_factory=list, description="The rejected quotes, for the record.")


class Hook(BaseModel):
    """One open reference of a section."""

    id: str = Field(description="Hash of (section id, kind, text, ordinal).")
    doc_id: str
    section_id: str
    seq: int = Field(description="Order of the hook in its document.")
    kind: str = Field(description="'section' (number/label), 'document' (identifier) or 'named' (a name or title).")
    relation: str = Field(description="What resolving it means: resolves, cites, depends_on, updates, supersedes.")
    text: str = Field(description="The reference as written.")
    target: dict = Field(description="Parsed target: doc (identifier), section (number), label, name.")
    quote: str = Field(description="The verbatim sentence holding the reference.")
    status: str = Field(default="open", description="'open' or 'resolved'.")
    reason: str = Field(default="", description="Why it is still open, or how it resolved.")


LINK_KINDS = ("resolves", "cites", "updates", "supersedes", "depends_on", "same_series", "shares_names",
              "contradicts_candidate")


class Link(BaseModel):
    """A typed link between two documents (and sections), with the text that shows it."""

    id: str = Field(description="Hash of (kind, source, destination, hook).")
    kind: str = Field(description="One of " + ", ".join(LINK_KINDS) + ".")
    src_doc: str
    src_section: str | None = None
    dst_doc: str
    dst_section: str | None = None
    evidence: str = Field(description="Verbatim text that shows the link (a sentence, a header field, a shared name).")
    reason: str = Field(description="Which rule made it, in words.")
    hook_id: str | None = Field(default=None, description="The hook it resolves, when it came from one.")


class Alias(BaseModel):
    """A decision on two names: aligned or rejected, with the reason and where they were found together."""

    short: str
    long: str
    decision: str = Field(description="'aligned' or 'rejected'.")
    reason: str
    doc_id: str
    section_id: str
    decided_by: str = Field(description="'code' or the model id that judged it.")
    quote: str = Field(default="", description="The sentence where the two names stand together.")
