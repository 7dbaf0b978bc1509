"""What the assistant tools return (``shelfwise mcp``): search hits, a section, links, ledger facts, a document and
the checked answer, each read from the store as it holds them (never a model's text but the checked answer's).

Every function takes the shelves already authorised for the caller (``readable``: name -> OpenShelf) and the
SiteLinks that give each section its URL; a shelf not among them is never read.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from shelfwise.api.cite_links import Citation, SiteLinks, linked_answer
from shelfwise.api.errors import NotFound
from shelfwise.api.schemas import AskResponse
from shelfwise.api.shelves import OpenShelf
from shelfwise.compiler.store.records import SectionAlias
from shelfwise.compiler.ingest.renames import moved_note
from shelfwise.compiler.search.snippets import snippet

__all__ = ["ToolHit", "SearchResults", "SectionText", "ToolLink", "LinkResults", "ToolFact", "LedgerResults", "CheckedAnswer",
           "search_results", "section_text", "link_results", "ledger_results", "checked_answer", "document_markdown", "find_section"]

MAX_FACTS = 50


class ToolHit(BaseModel):
    section_id: str = Field(description="Section id: read it with read_section, cite it, or follow url.")
    doc_id: str
    title: str = Field(description="The document's title.")
    heading_path: list[str]
    snippet: str = Field(description="The stretch of the section's text holding most of the query's words.")
    score: float
    url: str | None = Field(default=None, description="The section in the shelf's site.")


class SearchResults(BaseModel):
    shelf: str
    query: str
    hits: list[ToolHit]
    warnings: list[str] = Field(default_factory=list)


class SectionText(BaseModel):
    shelf: str
    section_id: str
    doc_id: str
    title: str = Field(description="The document's title.")
    path: str = Field(description="The document's path in the shelf.")
    heading_path: list[str]
    page_start: int | None = None
    page_end: int | None = None
    text: str = Field(description="The section's own text, as compiled.")
    url: str | None = Field(default=None, description="The section in the shelf's site.")
    moved_from: str | None = Field(default=None, description="The old id asked for, when the section was renamed since.")
    note: str | None = Field(default=None, description="Where a renamed section went, when moved_from is set.")


class ToolLink(BaseModel):
    kind: str = Field(description="references, supersedes, implements, ... as the ledger stage found it.")
    from_doc: str
    from_section: str | None
    to_doc: str
    to_section: str | None
    from_title: str
    to_title: str
    reason: str = Field(description="Why the link was made (the words that made it).")
    to_url: str | None = Field(default=None, description="Where the target is read in the site.")


class LinkResults(BaseModel):
    shelf: str
    of: str = Field(description="The section or document id asked about.")
    links: list[ToolLink] = Field(description="Links from it and to it.")


class ToolFact(BaseModel):
    kind: str = Field(description="definition, requirement, number, date, ... as the ledger holds it.")
    subject: str
    statement: str
    quote: str = Field(description="The verbatim sentence it rests on.")
    doc_id: str
    section_id: str
    title: str = Field(description="The document's title.")
    url: str | None = None


class LedgerResults(BaseModel):
    shelf: str
    subject: str
    facts: list[ToolFact]
    more: int = Field(default=0, description=f"Matching facts not listed (past {MAX_FACTS}).")


class CheckedAnswer(BaseModel):
    answer_markdown: str = Field(description="The checked answer with numbered citations linking to the site, and its trace id.")
    label: str = Field(description="complete, partial, conditional or not_in_documents.")
    not_covered: list[str] = Field(description="The gaps: one line per part of the question the documents do not answer.")
    citations: list[Citation]
    trace_id: str
    mode: str
    warnings: list[str] = Field(default_factory=list)


def search_results(shelf: OpenShelf, query: str, k: int, links: SiteLinks) -> SearchResults:
    with shelf.lock:
        result = shelf.searcher.search(query, k=k)
    hits = [ToolHit(section_id=h.section_id, doc_id=h.doc_id, title=h.title, heading_path=h.heading_path, score=round(h.score, 6),
                    snippet=snippet(shelf.sections[h.section_id].text, query) if h.section_id in shelf.sections else "",
                    url=links.section(shelf.name, h.doc_id, h.section_id))
            for h in result.hits]
    return SearchResults(shelf=shelf.name, query=result.query, hits=hits, warnings=result.warnings)


def find_section(readable: dict[str, OpenShelf], section_id: str) -> tuple[OpenShelf, object, SectionAlias | None]:
    """The shelf and section at ``section_id`` (or where a renamed section's old id now answers, with its alias)."""
    for name in sorted(readable):
        resolved = readable[name].resolve(section_id)
        if resolved is not None:
            return readable[name], *resolved
    raise NotFound(f"no section '{section_id}' in the shelves you may read; section ids come from search hits and answers' citations")


def section_text(readable: dict[str, OpenShelf], section_id: str, links: SiteLinks) -> SectionText:
    shelf, found, alias = find_section(readable, section_id)
    document = shelf.documents[found.doc_id]
    return SectionText(shelf=shelf.name, section_id=found.id, doc_id=found.doc_id, title=shelf.doc_name(found.doc_id), path=document["path"],
                       heading_path=found.heading_path, page_start=found.page_start, page_end=found.page_end, text=found.text,
                       url=links.section(shelf.name, found.doc_id, found.id),
                       moved_from=section_id if alias else None, note=moved_note(alias, found) if alias else None)


def link_results(readable: dict[str, OpenShelf], of: str, links: SiteLinks) -> LinkResults:
    """Links from and to a section (``of`` a section id) or a document (a document id)."""
    for name in sorted(readable):
        shelf = readable[name]
        if of in shelf.sections or of in shelf.documents:
            is_doc = of in shelf.documents
            titles = {d: shelf.doc_name(d) for d in shelf.documents}
            found = [link for link in shelf.links
                     if (is_doc and of in (link.src_doc, link.dst_doc)) or (not is_doc and of in (link.src_section, link.dst_section))]
            return LinkResults(shelf=name, of=of, links=[
                ToolLink(kind=link.kind, from_doc=link.src_doc, from_section=link.src_section, to_doc=link.dst_doc, to_section=link.dst_section,
                         from_title=titles.get(link.src_doc, link.src_doc), to_title=titles.get(link.dst_doc, link.dst_doc), reason=link.reason,
                         to_url=links.section(name, link.dst_doc, link.dst_section) if link.dst_section else links.document(name, link.dst_doc))
                for link in found])
    raise NotFound(f"no section or document '{of}' in the shelves you may read; ids come from search hits and read_section")


def ledger_results(shelf: OpenShelf, subject: str, links: SiteLinks) -> LedgerResults:
    """The stored assertions whose subject holds ``subject`` (case and spacing aside), in shelf order."""
    wanted = " ".join(subject.lower().split())
    matching = [f for f in shelf.facts if wanted in " ".join(f.subject.lower().split())]
    facts = [ToolFact(kind=f.kind, subject=f.subject, statement=f.statement, quote=f.quote, doc_id=f.doc_id, section_id=f.section_id,
                      title=shelf.doc_name(f.doc_id) if f.doc_id in shelf.documents else f.doc_id,
                      url=links.section(shelf.name, f.doc_id, f.section_id))
             for f in matching[:MAX_FACTS]]
    return LedgerResults(shelf=shelf.name, subject=subject, facts=facts, more=max(0, len(matching) - MAX_FACTS))


def checked_answer(response: AskResponse, links: SiteLinks) -> CheckedAnswer:
    text, citations = linked_answer(response, links)
    return CheckedAnswer(answer_markdown=text, label=response.label, not_covered=response.not_covered, citations=citations,
                         trace_id=response.trace_id, mode=response.mode, warnings=response.warnings)


def document_markdown(shelf: OpenShelf, doc_id: str, links: SiteLinks) -> str:
    """A document as Markdown: its title, then each section's heading (at its level) and text, with its id and pages."""
    if doc_id not in shelf.documents:
        raise NotFound(f"no document '{doc_id}' in shelf '{shelf.name}'")
    document = shelf.documents[doc_id]
    lines = [f"# {shelf.doc_name(doc_id)}", f"Shelf {shelf.name}, {document['path']}" + (f", {links.document(shelf.name, doc_id)}" if links.document(shelf.name, doc_id) else "")]
    for sid in shelf.doc_sections.get(doc_id, []):
        section = shelf.sections[sid]
        pages = f", p. {section.page_start}" + (f"–{section.page_end}" if section.page_end not in (None, section.page_start) else "") if section.page_start else ""
        if section.level > 0:
            lines.append(f"{'#' * min(6, section.level + 1)} {section.heading}")
        lines.append(f"<!-- section {sid}{pages} -->")
        if section.text.strip():
            lines.append(section.text)
    return "\n\n".join(lines) + "\n"
