"""The ledger stage: each changed (or stale) document's assertions and hooks, extracted and kept in the store.

Only the sections whose content hash (plus extractor and prompt version) is not in the extraction cache are extracted
again; ``ledger_rows`` is what ``shelfwise ledger`` prints.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable

from shelfwise.compiler.ledger.hooks import HOOKS_VERSION, find_hooks, reference_tags
from shelfwise.compiler.ledger.model import extract_with_model, extractor_key
from shelfwise.compiler.ledger.rules import RULES_VERSION, extract_rules
from shelfwise.compiler.store.ledger_store import StoredAssertion
from shelfwise.compiler.store.records import Extraction

__all__ = ["extract_ledger", "stored_assertions", "ledger_rows"]


def extract_ledger(store, index, changed_doc_ids, chat, counts: Counter, problems: list[str],
                   progress: Callable[[str], None] | None = None) -> list[str]:
    """Extract the ledger of every changed document and of every document whose stored ledger another extractor or
    hooks version made; returns those documents' ids, in order. ``index`` is the links stage's view of the shelf
    (``links.linking.load_index``): its ``docs`` and ``sections``."""
    extractor = extractor_key(chat.model) if chat else RULES_VERSION
    ledger = store.ledger
    hashes = ledger.section_hashes()
    state = ledger.extracted_keys()
    stale = {doc_id for doc_id in index.docs if state.get(doc_id) != _doc_key(store, doc_id, extractor)}
    todo = sorted((set(changed_doc_ids) & set(index.docs)) | stale)
    for n, doc_id in enumerate(todo, 1):
        with store.transaction():
            _extract_document(store, index, doc_id, hashes, chat, counts, problems)
        if progress:
            progress(f"ledger {n}/{len(todo)} {index.docs[doc_id].path}")
    return todo


def _assertion_id(section_id: str, n: int, quote: str) -> str:
    return "a" + hashlib.sha256(f"{section_id}\x1f{n}\x1f{quote}".encode()).hexdigest()[:11]


def _extract_document(store, index, doc_id: str, hashes: dict[str, str], chat, counts: Counter,
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


def ledger_rows(store, doc_id: str | None = None) -> list[dict]:
    """The stored ledger as plain rows (document order): what `shelfwise ledger SHELF [--doc ID]` prints."""
    headings = store.ledger.section_headings()
    return [
        {"doc_id": d, "section_id": s, "heading": headings.get(s, ""), **a.model_dump()}
        for d, s, a in stored_assertions(store, doc_id)
    ]
