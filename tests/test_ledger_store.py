"""shelfwise/compiler/store/ledger_store.py: the ledger's tables behind named methods; an old store is migrated, a newer one refused."""

from __future__ import annotations

import json
import logging

import pytest

from shelfwise.compiler.errors import StoreError
from shelfwise.compiler.store.records import Hook, Assertion
from shelfwise.compiler.store.migrations import MIGRATIONS
from shelfwise.compiler.store.store import Store, sqlite3


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_a_store_from_before_the_ledger_is_migrated_on_open(tmp_path):
    path = tmp_path / "store.sqlite"
    db = sqlite3.connect(str(path))
    MIGRATIONS[0](db)
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    # on the logger itself, enabled: import-linter's in-process run (tests/test_layers.py) disables existing loggers
    logger, records = logging.getLogger("shelfwise.store"), _Records()
    disabled, logger.disabled = logger.disabled, False
    logger.addHandler(records)
    try:
        store = Store(path, create=False)
    finally:
        logger.removeHandler(records)
        logger.disabled = disabled
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert store.migrated == ["ledger", "search", "section_aliases", "identities"]
    assert any(f"store schema 1 migrated to {len(MIGRATIONS)} (added: ledger, search, section_aliases, identities)" in line for line in records.lines)
    fresh = Store(tmp_path / "new.sqlite")
    assert fresh.migrated == [] and Store(path, create=False).migrated == []  # a new store, or one already current, says nothing
    fresh.close()
    assert store.ledger.assertions() == [] and store.ledger.links() == [] and store.ledger.aligned_aliases() == []
    store.close()


def test_a_newer_store_is_refused_with_the_fix(tmp_path):
    path = tmp_path / "store.sqlite"
    db = sqlite3.connect(str(path))
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    db.close()
    with pytest.raises(StoreError, match="written by a newer shelfwise .*; upgrade shelfwise"):
        Store(path, create=False)


def test_assertions_and_hooks_round_trip(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    store.db.execute("INSERT INTO documents (doc_id, path, title, format, content_hash, size, reader, reader_version, settings_hash, "
                     "pages, n_sections, n_tables, n_figures, seconds) VALUES ('d', 'd.md', 'D', 'md', 'h', 1, 'r', '1', 'x', 1, 1, 0, 0, 0)")
    rule = Assertion(kind="rule", subject="tokens", statement="Tokens expire after 30 days.", quote="Tokens expire after 30 days.", modality="must")
    hook = Hook(id="h1", doc_id="d", section_id="s000000000001", seq=0, kind="document", relation="cites", text="RFC 6749",
                target={"doc": "RFC 6749"}, quote="See RFC 6749.")
    with store.transaction():
        store.ledger.add_assertion("a1", "d", "s000000000001", 0, rule, "rules-2", "hash")
        store.ledger.add_hook(hook)
        store.ledger.set_extracted("d", "key")
    [(doc_id, section_id, back)] = store.ledger.assertions()
    assert (doc_id, section_id, back) == ("d", "s000000000001", rule)
    assert store.ledger.hooks() == [hook] and store.ledger.extracted_keys() == {"d": "key"}
    assert store.ledger.open_hooks()[0]["text"] == "RFC 6749"
    with store.transaction():
        store.ledger.retract_document("d")
    assert store.ledger.assertions() == [] and store.ledger.hooks() == [] and store.ledger.extracted_keys() == {}
    store.close()


def test_an_assertion_is_one_record_for_the_stages_the_pages_and_the_answering_side(tmp_path):
    """The store's StoredAssertion is what linking, the pages (``page_item``: the detail as stored) and an open shelf's
    facts hold; the store's Link is what an open shelf's links hold."""
    from shelfwise.api.shelves import ShelfLink
    from shelfwise.compiler.store.records import Link
    from shelfwise.compiler.store.ledger_store import StoredAssertion

    store = Store(tmp_path / "store.sqlite")
    store.db.execute("INSERT INTO documents (doc_id, path, title, format, content_hash, size, reader, reader_version, settings_hash, "
                     "pages, n_sections, n_tables, n_figures, seconds) VALUES ('d', 'd.md', 'D', 'md', 'h', 1, 'r', '1', 'x', 1, 1, 0, 0, 0)")
    rule = Assertion(kind="rule", subject="tokens", statement="Tokens expire after 30 days.", quote="Tokens expire after 30 days.",
                     modality="must", conditions=["when issued"], thresholds=[{"value": "30", "unit": "days", "comparator": "after"}])
    with store.transaction():
        store.ledger.add_assertion("a1", "d", "s000000000001", 3, rule, "rules-2", "hash")
    [stored] = store.ledger.assertions()
    assert stored == StoredAssertion("d", "s000000000001", rule, 3) and store.ledger.assertion_rows() == [stored]
    assert (stored.kind, stored.subject, stored.statement, stored.quote) == ("rule", "tokens", rule.statement, rule.quote)
    (detail,) = store.db.execute("SELECT detail FROM assertions").fetchone()
    assert stored.page_item() == {"doc_id": "d", "section_id": "s000000000001", "seq": 3, "kind": "rule", "subject": "tokens",
                                  "statement": rule.statement, "quote": rule.quote, "detail": json.loads(detail)}
    store.close()
    link = ShelfLink("supersedes", "b", None, "a", None, "Rev B says it supersedes Rev A")
    assert isinstance(link, Link) and (link.kind, link.src_doc, link.dst_doc, link.reason) == ("supersedes", "b", "a", "Rev B says it supersedes Rev A")
