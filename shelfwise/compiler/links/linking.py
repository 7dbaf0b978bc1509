"""The ledger-and-links stage: extraction (incremental), hooks, links, aliases, briefs and dossiers.

``link_shelf`` runs after the documents are stored. It retracts removed
documents' rows, re-extracts only the sections of changed documents whose
content hash (plus extractor and prompt version) is not cached, then re-links
the whole shelf in place (code only, fast) and rewrites briefs and dossiers.
``ledger_rows`` and ``link_rows`` are what ``shelfwise ledger`` / ``links`` print.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import Counter
from collections.abc import Callable

from shelfwise.compiler.store.records import Alias, Hook, Assertion, Extraction, Link
from shelfwise.compiler.links.aliases import find_aliases, judge_aliases
from shelfwise.compiler.digests.briefs import build_briefs
from shelfwise.compiler.digests.dossiers import build_dossiers
from shelfwise.compiler.ledger.hooks import HOOKS_VERSION, find_hooks, reference_tags
from shelfwise.compiler.ledger.rules import RULES_VERSION, extract_rules
from shelfwise.compiler.ledger.model import extract_with_model, extractor_key
from shelfwise.compiler.store.ledger_store import StoredAssertion
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

__all__ = ["link_shelf", "links_stage", "ledger_rows", "link_rows", "reason_class", "load_index", "stored_assertions"]


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
    for row in store.documents():
        sections = sections_by_doc.get(row["doc_id"], [])
        head = "\n".join(s.text for s in sections[:3])
        idents = document_identifiers(row["path"], row["title"], head)
        volume = path_identifiers(row["path"])
        docs.append(DocInfo(doc_id=row["doc_id"], path=row["path"], title=row["title"], identifiers=idents,
                            group=volume[0] if volume else row["doc_id"]))
    return ShelfIndex(docs, sections_by_doc)


def _assertion_id(section_id: str, n: int, quote: str) -> str:
    return "a" + hashlib.sha256(f"{section_id}\x1f{n}\x1f{quote}".encode()).hexdigest()[:11]


def _extract_document(store, index: ShelfIndex, doc_id: str, hashes: dict[str, str], chat, counts: Counter,
                      problems: list[str]) -> None:
    extractor = extractor_key(chat.model) if chat else RULES_VERSION
    ledger = store.ledger
    sections = index.sections.get(doc_id, [])
    results: dict[str, Extraction] = {}
    missing = []
    for section in sections:
        payload = ledger.cached_extraction(hashes[section.id], extractor)
        if payload is not None:
            results[section.id] = Extraction.model_validate_json(payload)
            counts["sections_cached"] += 1
        else:
            missing.append(section)
    if chat:
        fresh, batch_problems = extract_with_model(chat, [(s, index.docs[doc_id].title) for s in missing])
        problems.extend(batch_problems)
    else:
        fresh = {s.id: extract_rules(s) for s in missing}
    for section_id, extraction in fresh.items():
        ledger.cache_extraction(hashes[section_id], extractor, extraction.model_dump_json())
        counts["sections_extracted"] += 1
    results.update(fresh)
    ledger.clear_document(doc_id)
    seq = 0
    hook_seq = 0
    self_ids = set(index.docs[doc_id].identifiers)
    tags = reference_tags(sections)
    for section in sections:
        extraction = results.get(section.id)
        if extraction:
            counts["rejected"] += extraction.rejected
            for n, a in enumerate(extraction.assertions):
                ledger.add_assertion(_assertion_id(section.id, n, a.quote), doc_id, section.id, seq, a, extractor, hashes[section.id])
                seq += 1
        for hook in find_hooks(section, self_ids, hook_seq, tags):
            ledger.add_hook(hook)
            hook_seq += 1
    ledger.set_extracted(doc_id, _doc_key(store, doc_id, extractor))


def _doc_key(store, doc_id: str, extractor: str) -> str:
    content_hash, settings_hash = store.ledger.document_hashes(doc_id)
    return f"{content_hash}:{settings_hash}:{extractor}:{HOOKS_VERSION}"


def stored_assertions(store, doc_id: str | None = None) -> list[StoredAssertion]:
    """(doc id, section id, assertion) for the stored ledger, in document order."""
    return store.ledger.assertions(doc_id)


def _relink(store, index: ShelfIndex, chat, counts: Counter, problems: list[str]) -> tuple[list[Hook], list[Link], list[Alias]]:
    hooks, links = resolve_hooks(index, store.ledger.hooks())
    seen = {(l.src_section, l.dst_doc) for l in links if l.kind == "cites"}
    for link in title_citations(index) + code_citations(index):
        if (link.src_section, link.dst_doc) not in seen:
            links.append(link)
            seen.add((link.src_section, link.dst_doc))
    assertions = stored_assertions(store)
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


def link_shelf(store, changed_doc_ids, removed_doc_ids, chat=None, progress: Callable[[str], None] | None = None) -> dict:
    """Extract changed documents' ledgers, retract removed ones, re-link the shelf; returns summary counts."""
    started = time.perf_counter()
    counts: Counter = Counter()
    problems: list[str] = []
    extractor = extractor_key(chat.model) if chat else RULES_VERSION
    ledger = store.ledger
    with store.transaction():
        for doc_id in sorted(set(removed_doc_ids)):
            ledger.retract_document(doc_id)
    index = load_index(store)
    hashes = ledger.section_hashes()
    state = ledger.extracted_keys()
    stale = {doc_id for doc_id in index.docs if state.get(doc_id) != _doc_key(store, doc_id, extractor)}
    todo = sorted((set(changed_doc_ids) & set(index.docs)) | stale)
    for n, doc_id in enumerate(todo, 1):
        with store.transaction():
            _extract_document(store, index, doc_id, hashes, chat, counts, problems)
        if progress:
            progress(f"ledger {n}/{len(todo)} {index.docs[doc_id].path}")
    hooks, links, aliases = _relink(store, index, chat, counts, problems)
    briefs = build_briefs(index, stored_assertions(store), links)
    dossiers = build_dossiers(index, stored_assertions(store), links, aliases)
    with store.transaction():
        ledger.replace_shelf_links(hooks, links, aliases, briefs, dossiers)
    kinds = ledger.assertion_kinds()
    open_reasons = Counter(reason_class(h.reason) for h in hooks if h.status == "open")
    return {
        "documents_extracted": len(todo),
        "documents_removed": len(set(removed_doc_ids)),
        "sections_extracted": counts["sections_extracted"],
        "sections_cached": counts["sections_cached"],
        "quotes_rejected": counts["rejected"],
        "assertions": sum(kinds.values()),
        "assertions_by_kind": dict(sorted(kinds.items())),
        "hooks": len(hooks),
        "hooks_resolved": sum(1 for h in hooks if h.status == "resolved"),
        "hooks_open": sum(open_reasons.values()),
        "open_by_reason": dict(sorted(open_reasons.items())),
        "links": len(links),
        "links_by_kind": dict(sorted(Counter(l.kind for l in links).items())),
        "aliases_aligned": sum(1 for a in aliases if a.decision == "aligned"),
        "aliases_rejected": sum(1 for a in aliases if a.decision == "rejected"),
        "briefs": len(briefs),
        "dossiers": len(dossiers),
        "extractor": extractor,
        "problems": problems,
        "seconds": round(time.perf_counter() - started, 3),
    }


def ledger_rows(store, doc_id: str | None = None) -> list[dict]:
    """The stored ledger as plain rows (document order): what `shelfwise ledger SHELF [--doc ID]` prints."""
    headings = store.ledger.section_headings()
    return [
        {"doc_id": d, "section_id": s, "heading": headings.get(s, ""), **a.model_dump()}
        for d, s, a in stored_assertions(store, doc_id)
    ]


def link_rows(store, open_only: bool = False) -> list[dict]:
    """Links (kind, source, destination, reason, evidence), or with ``open_only`` the open hooks and their reasons."""
    if open_only:
        return store.ledger.open_hooks()
    fields = ("kind", "src_doc", "src_section", "dst_doc", "dst_section", "reason", "evidence")
    return [{field: getattr(link, field) for field in fields} for link in store.ledger.links()]


def links_stage(chat=None) -> Callable:
    """``build_shelf`` stage: ``stage(store, out_dir, changed, removed, progress) -> ('links', summary)``."""

    def stage(store, out_dir, changed, removed, progress):
        return "links", link_shelf(store, changed, removed, chat=chat, progress=progress)

    return stage
