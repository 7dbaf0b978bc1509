"""The links stage: the stored shelf's hooks resolved into links, the links between documents that do not name each
other found (series, shared names, contradiction candidates), and the aliases aligned.

``relink`` re-links the whole shelf in place (code only, fast) from the ledger the ledger stage stored;
``link_rows`` is what ``shelfwise links`` prints.
"""

from __future__ import annotations

import re
from collections import Counter

from shelfwise.compiler.store.records import Alias, Hook, Assertion, Link
from shelfwise.compiler.links.aliases import find_aliases, judge_aliases
from shelfwise.compiler.links.links import (
    DocInfo,
    ShelfIndex,
    code_citations,
    document_identifiers,
    path_identifiers,
    resolve_hooks,
    title_citations,
)
from shelfwise.compiler.links.relations import contradiction_links, name_links, series_links

__all__ = ["relink", "link_rows", "reason_class", "load_index"]


def reason_class(reason: str) -> str:
    """An open hook's reason without its particulars: 'no document matches RFC 2119' -> 'no document matches'."""
    if reason.startswith("ambiguous"):
        return "ambiguous"
    if re.match(r"no (section|appendix|figure|table|chapter|step|clause|annex) ", reason):
        return "no such section"
    if reason.startswith("no document matches"):
        return "no document matches"
    return reason


def load_index(store) -> ShelfIndex:
    """The resolver's view of the stored shelf: documents with identifiers, and their sections."""
    sections_by_doc: dict = {}
    for section in store.sections():
        sections_by_doc.setdefault(section.doc_id, []).append(section)
    docs = []
    identities = store.identities()
    for row in store.documents():
        sections = sections_by_doc.get(row["doc_id"], [])
        head = "\n".join(s.text for s in sections[:3])
        idents = document_identifiers(row["path"], row["title"], head)
        volume = path_identifiers(row["path"])
        identity = identities.get(row["doc_id"])
        docs.append(DocInfo(doc_id=row["doc_id"], path=row["path"], title=row["title"], identifiers=idents,
                            group=volume[0] if volume else row["doc_id"], revision=identity.revision if identity else ""))
    return ShelfIndex(docs, sections_by_doc)


def relink(store, index: ShelfIndex, chat, problems: list[str]) -> tuple[list[Hook], list[Link], list[Alias]]:
    """The shelf's hooks (resolved or open with their reason), its links (sorted by kind, source, destination) and
    its aliases (judged by ``chat`` when given; a judgement it could not use is counted in ``problems``)."""
    hooks, links = resolve_hooks(index, store.ledger.hooks())
    seen = {(l.src_section, l.dst_doc) for l in links if l.kind == "cites"}
    for link in title_citations(index) + code_citations(index):
        if (link.src_section, link.dst_doc) not in seen:
            links.append(link)
            seen.add((link.src_section, link.dst_doc))
    assertions = store.ledger.assertions()
    links += series_links(index) + name_links(index)
    links += contradiction_links(assertions, {(l.src_doc, l.dst_doc) for l in links if l.src_doc != l.dst_doc})
    by_section: dict[str, list[Assertion]] = {}
    for _, section_id, assertion in assertions:
        by_section.setdefault(section_id, []).append(assertion)
    aliases: list[Alias] = []
    for doc_id in sorted(index.sections):
        for section in index.sections[doc_id]:
            aliases.extend(find_aliases(section, by_section.get(section.id, [])))
    if chat:
        aliases, failed = judge_aliases(aliases, chat, store.ledger.cached_extraction, store.ledger.cache_extraction)
        if failed:
            problems.append(f"model {chat.model}: {failed} alias judgement(s) unusable; the code's decision was kept")
    unique: dict[str, Link] = {}
    for link in links:
        unique.setdefault(link.id, link)
    return hooks, sorted(unique.values(), key=lambda l: (l.kind, l.src_doc, l.src_section or "", l.dst_doc, l.id)), aliases


def link_rows(store, open_only: bool = False) -> list[dict]:
    """Links (kind, source, destination, reason, evidence), or with ``open_only`` the open hooks and their reasons."""
    if open_only:
        return store.ledger.open_hooks()
    fields = ("kind", "src_doc", "src_section", "dst_doc", "dst_section", "reason", "evidence")
    return [{field: getattr(link, field) for field in fields} for link in store.ledger.links()]


