"""The research agent's tools over the compiled store (issue 18): every result is what the store holds.

``search``, ``open_section``, ``open_document_outline``, ``follow_links``,
``ledger`` and ``finish``; ``TOOLS`` is their OpenAI function-tool schema. A
tool's result is a dict of store content (ids, headings, text, links with their
evidence), never model text; a bad argument (an unknown id, a document outside
the scope) raises ``ToolError`` with a message that names the fix, which the
agent is shown as the tool's result. Only documents inside the request's scope
are searched, opened or linked to.
"""

from __future__ import annotations

from shelfwise.api.shelves import OpenShelf
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.search.search import ROUTES
from shelfwise.compiler.search.snippets import snippet

__all__ = ["TOOLS", "ToolError", "StoreTools"]

SEARCH_HITS = 8
"""Sections one search shows the agent."""
LEDGER_FACTS = 12
"""Ledger facts one ledger call shows."""
LINKS_SHOWN = 20
"""Links one follow_links call shows."""


def _tool(name: str, description: str, properties: dict, required: list[str]) -> dict:
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": {"type": "object", "properties": properties, "required": required}}}


TOOLS = [
    _tool("search", "Search a shelf's sections (hybrid: words, meaning, headings, named documents, numbers). Returns section ids, "
          "documents, headings and a snippet.", {
              "query": {"type": "string", "description": "Words to search for."},
              "shelf": {"type": "string", "description": "The shelf to search."},
              "routes": {"type": "array", "items": {"type": "string", "enum": list(ROUTES)}, "description": "Search routes to use (default: all)."},
          }, ["query", "shelf"]),
    _tool("open_section", "Read one section whole: its text, headings and the links that leave it. What you open is what the answer is "
          "written from.", {"id": {"type": "string", "description": "A section id from search, an outline or a link."}}, ["id"]),
    _tool("open_document_outline", "A document's sections: ids, headings and sizes, without their text.",
          {"doc": {"type": "string", "description": "A document id."}}, ["doc"]),
    _tool("follow_links", "Links from and to a section or document (resolves, cites, updates, supersedes, depends_on, same_series, "
          "shares_names), each with its evidence.", {
              "section_or_doc": {"type": "string", "description": "A section id or a document id."},
              "kinds": {"type": "array", "items": {"type": "string"}, "description": "Link kinds to keep (default: all)."},
          }, ["section_or_doc"]),
    _tool("ledger", "Stored statements (definitions, rules, values, dates) whose subject or sentence holds the words, or of one kind.",
          {"subject": {"type": "string", "description": "Words of the subject."},
           "kind": {"type": "string", "description": "A statement kind, e.g. definition, rule, value."}}, []),
    _tool("finish", "Stop researching: the sections opened so far are enough to answer.",
          {"notes": {"type": "string", "description": "What was found, in a few words (kept in the trace only)."}}, []),
]


class ToolError(ShelfwiseError):
    """Raised by a StoreTools method given an argument the store cannot serve; the agent is shown the message."""


class StoreTools:
    """The tools over ``shelves`` limited to ``scope`` (shelf -> document ids)."""

    def __init__(self, shelves: dict[str, OpenShelf], scope: dict[str, set[str]]):
        self.shelves = shelves
        self.scope = scope

    def locate(self, ident: str) -> tuple[str, str | None, str]:
        """(shelf, section id or None, document id) of a section or document id inside the scope."""
        for name in sorted(self.scope):
            shelf = self.shelves[name]
            if ident in shelf.sections and shelf.sections[ident].doc_id in self.scope[name]:
                return name, ident, shelf.sections[ident].doc_id
            if ident in self.scope[name]:
                return name, None, ident
        raise ToolError(f"no section or document {ident!r} in this answer's scope; use an id that search, an outline or a link gave")

    def search(self, query: str, shelf: str, routes: list[str] | None = None) -> dict:
        if shelf not in self.scope:
            raise ToolError(f"no shelf {shelf!r} in this answer's scope; search one of {', '.join(sorted(self.scope))}")
        opened = self.shelves[shelf]
        try:
            with opened.lock:
                result = opened.searcher.search(query, k=60, routes=tuple(routes) if routes else ROUTES)
        except ShelfwiseError as exc:
            raise ToolError(str(exc)) from exc
        hits = []
        for hit in result.hits:
            if hit.doc_id in self.scope[shelf] and len(hits) < SEARCH_HITS:
                hits.append({"id": hit.section_id, "doc": hit.doc_id, "title": hit.title, "heading_path": hit.heading_path,
                             "chars": opened.chars(hit.section_id), "snippet": snippet(opened.sections[hit.section_id].text, query)})
        return {"query": result.query, "hits": hits}

    def open_section(self, id: str) -> dict:  # noqa: A002 - the tool's argument name
        name, sid, _ = self.locate(id)
        if sid is None:
            raise ToolError(f"{id!r} is a document, not a section; call open_document_outline({id!r}) for its section ids")
        shelf = self.shelves[name]
        section = shelf.sections[sid]
        return {"id": sid, "shelf": name, "doc": section.doc_id, "title": shelf.doc_name(section.doc_id),
                "heading_path": section.heading_path, "text": section.text, "links": self._links(name, sid, section.doc_id, None)[:LINKS_SHOWN]}

    def open_document_outline(self, doc: str) -> dict:
        name, sid, doc_id = self.locate(doc)
        if sid is not None:
            raise ToolError(f"{doc!r} is a section; its document is {doc_id!r}")
        shelf = self.shelves[name]
        return {"doc": doc_id, "shelf": name, "title": shelf.doc_name(doc_id), "path": shelf.documents[doc_id]["path"],
                "sections": [{"id": s, "heading_path": shelf.sections[s].heading_path, "chars": shelf.chars(s)}
                             for s in shelf.doc_sections.get(doc_id, [])]}

    def follow_links(self, section_or_doc: str, kinds: list[str] | None = None) -> dict:
        name, sid, doc_id = self.locate(section_or_doc)
        links = self._links(name, sid, doc_id, set(kinds) if kinds else None)
        return {"from": section_or_doc, "links": links[:LINKS_SHOWN], "more": max(0, len(links) - LINKS_SHOWN)}

    def _links(self, name: str, sid: str | None, doc_id: str, kinds: set[str] | None) -> list[dict]:
        shelf = self.shelves[name]
        out = []
        for link in shelf.links:
            if kinds and link.kind not in kinds:
                continue
            for direction, here_doc, here_sec, there_doc, there_sec in (
                    ("out", link.src_doc, link.src_section, link.dst_doc, link.dst_section),
                    ("in", link.dst_doc, link.dst_section, link.src_doc, link.src_section)):
                if here_doc != doc_id or there_doc not in self.scope[name] or (sid and here_sec and here_sec != sid):
                    continue
                out.append({"kind": link.kind, "direction": direction, "doc": there_doc, "title": shelf.doc_name(there_doc),
                            "section": there_sec, "evidence": link.reason})
        return out

    def ledger(self, subject: str = "", kind: str = "") -> dict:
        if not subject.strip() and not kind.strip():
            raise ToolError("give ledger a subject (words) or a kind (e.g. definition)")
        words = subject.lower().split()
        facts = []
        for name in sorted(self.scope):
            for fact in self.shelves[name].facts:
                if fact.doc_id not in self.scope[name] or (kind and fact.kind != kind):
                    continue
                if words and not all(w in f"{fact.subject} {fact.quote}".lower() for w in words):
                    continue
                facts.append({"kind": fact.kind, "subject": fact.subject, "quote": fact.quote, "section": fact.section_id, "doc": fact.doc_id})
        return {"facts": facts[:LEDGER_FACTS], "more": max(0, len(facts) - LEDGER_FACTS)}
