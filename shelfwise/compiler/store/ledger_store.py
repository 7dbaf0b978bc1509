"""The ledger's tables in the compiled store: assertions, hooks, links, aliases, briefs, dossiers, their caches.

Every SQL statement over those tables lives here (the schema is ``shelfwise.compiler.store.store``'s numbered migrations);
stage modules (shelfwise/compiler/links/linking.py) and readers (shelfwise/api/shelves.py, the CLI) call these named methods and get
records back: ``Assertion`` with where it stands (``StoredAssertion``), ``Hook``, ``Link``: the one shape of each
that stage code passes around. Inserts name
their columns, so a migration that adds one cannot shift the values of another.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from shelfwise.compiler.store.records import Alias, Hook, Assertion, Link

__all__ = ["LedgerStore", "StoredAssertion", "DETAIL_FIELDS", "PAGE_HOOK_FIELDS"]

DETAIL_FIELDS = {"conditions", "exceptions", "thresholds", "modality", "step", "target"}
"""The parts of an assertion stored as its JSON ``detail``."""


@dataclass(frozen=True)
class StoredAssertion:
    """An assertion of the stored ledger with the document and section it stands in, and its position there: the one
    record of an assertion the stages and the answering side pass around (``ledger.Assertion`` is what an extractor
    produces; a wire format, the MCP tools' ``ToolFact``, converts from this at its edge)."""

    doc_id: str
    section_id: str
    assertion: Assertion
    seq: int = 0

    def __iter__(self):  # (doc id, section id, assertion), as the stages unpack it
        return iter((self.doc_id, self.section_id, self.assertion))

    @property
    def kind(self) -> str:
        return self.assertion.kind

    @property
    def subject(self) -> str:
        return self.assertion.subject

    @property
    def statement(self) -> str:
        return self.assertion.statement

    @property
    def quote(self) -> str:
        return self.assertion.quote

    def page_item(self) -> dict:
        """The assertion as the pages read it: where it stands, its position, and its detail as stored."""
        return {"doc_id": self.doc_id, "section_id": self.section_id, "seq": self.seq, "kind": self.kind, "subject": self.subject,
                "statement": self.statement, "quote": self.quote, "detail": json.loads(self.assertion.model_dump_json(include=DETAIL_FIELDS))}


PAGE_HOOK_FIELDS = {"doc_id", "section_id", "seq", "kind", "relation", "text", "quote", "status", "reason"}
"""What the pages read of a hook."""


class LedgerStore:
    """The ledger tables of one open store (``Store.ledger``); writes join the caller's ``store.transaction()``."""

    def __init__(self, db):
        self.db = db

    # --- the extraction cache (keyed by section content hash and extractor) ----------------------------------
    def cached_extraction(self, key: str, extractor: str) -> str | None:
        row = self.db.execute("SELECT payload FROM extraction_cache WHERE section_hash = ? AND extractor = ?", (key, extractor)).fetchone()
        return row[0] if row else None

    def cache_extraction(self, key: str, extractor: str, payload: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO extraction_cache (section_hash, extractor, payload) VALUES (?, ?, ?)", (key, extractor, payload))

    # --- per document ----------------------------------------------------------------------------------------
    def section_hashes(self) -> dict[str, str]:
        return {row[0]: row[1] for row in self.db.execute("SELECT id, content_hash FROM sections")}

    def section_headings(self) -> dict[str, str]:
        return {row[0]: row[1] for row in self.db.execute("SELECT id, heading FROM sections")}

    def document_hashes(self, doc_id: str) -> tuple[str, str]:
        """(content hash, reader settings hash) of a stored document."""
        row = self.db.execute("SELECT content_hash, settings_hash FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
        return row[0], row[1]

    def cached_section_ids(self, doc_id: str, extractor: str) -> set[str]:
        """The sections of a stored document whose extraction by ``extractor`` is cached (by content hash)."""
        return {row[0] for row in self.db.execute(
            "SELECT s.id FROM sections s JOIN extraction_cache c ON c.section_hash = s.content_hash AND c.extractor = ? "
            "WHERE s.doc_id = ?", (extractor, doc_id))}

    def extracted_keys(self) -> dict[str, str]:
        """Document id -> the key its ledger was extracted under."""
        return {row[0]: row[1] for row in self.db.execute("SELECT doc_id, extracted FROM ledger_state")}

    def clear_document(self, doc_id: str) -> None:
        """Delete a document's assertions and hooks (before they are written again)."""
        self.db.execute("DELETE FROM assertions WHERE doc_id = ?", (doc_id,))
        self.db.execute("DELETE FROM hooks WHERE doc_id = ?", (doc_id,))

    def retract_document(self, doc_id: str) -> None:
        """Everything the ledger holds of a removed document."""
        self.clear_document(doc_id)
        self.db.execute("DELETE FROM briefs WHERE doc_id = ?", (doc_id,))
        self.db.execute("DELETE FROM ledger_state WHERE doc_id = ?", (doc_id,))

    def add_assertion(self, assertion_id: str, doc_id: str, section_id: str, seq: int, assertion: Assertion,
                      extractor: str, section_hash: str) -> None:
        self.db.execute(
            "INSERT INTO assertions (id, doc_id, section_id, seq, kind, subject, statement, quote, detail, extractor, section_hash) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (assertion_id, doc_id, section_id, seq, assertion.kind, assertion.subject, assertion.statement, assertion.quote,
             assertion.model_dump_json(include=DETAIL_FIELDS), extractor, section_hash),
        )

    def add_hook(self, hook: Hook) -> None:
        self.db.execute(
            "INSERT INTO hooks (id, doc_id, section_id, seq, kind, relation, text, target, quote, status, reason) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (hook.id, hook.doc_id, hook.section_id, hook.seq, hook.kind, hook.relation, hook.text,
             json.dumps(hook.target, sort_keys=True), hook.quote, hook.status, hook.reason),
        )

    def set_extracted(self, doc_id: str, key: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO ledger_state (doc_id, extracted) VALUES (?, ?)", (doc_id, key))

    # --- reading the ledger ----------------------------------------------------------------------------------
    def assertions(self, doc_id: str | None = None) -> list[StoredAssertion]:
        """The stored ledger in document order (by path, then position)."""
        query = "SELECT a.* FROM assertions a JOIN documents d USING (doc_id)" + (" WHERE a.doc_id = ?" if doc_id else "")
        rows = self.db.execute(query + " ORDER BY d.path, a.seq", (doc_id,) if doc_id else ()).fetchall()
        return [_stored(row) for row in rows]

    def assertion_kinds(self) -> Counter:
        return Counter(row[0] for row in self.db.execute("SELECT kind FROM assertions"))

    def hooks(self) -> list[Hook]:
        rows = self.db.execute("SELECT h.* FROM hooks h JOIN documents d USING (doc_id) ORDER BY d.path, h.seq").fetchall()
        return [Hook(**{**dict(row), "target": json.loads(row["target"])}) for row in rows]

    def open_hooks(self) -> list[dict]:
        """Open hooks with their reasons, in document order (what ``shelfwise links --open`` prints)."""
        rows = self.db.execute(
            "SELECT h.doc_id, h.section_id, h.kind, h.relation, h.text, h.reason, h.quote FROM hooks h "
            "JOIN documents d USING (doc_id) WHERE h.status = 'open' ORDER BY d.path, h.seq"
        ).fetchall()
        return [dict(row) for row in rows]

    def links(self, *, listing: bool = True) -> list[Link]:
        """Every link by kind and source; ``listing`` orders a source's links by destination (the CLI's order),
        otherwise by id (the order answering has always read them in)."""
        order = "kind, src_doc, src_section, dst_doc, id" if listing else "kind, src_doc, id"
        rows = self.db.execute(f"SELECT * FROM links ORDER BY {order}").fetchall()
        return [Link(**dict(row)) for row in rows]

    def revision_links(self) -> list[tuple[str, str, str]]:
        """(kind, newer, older) of the supersedes and same_series links, by kind and documents."""
        rows = self.db.execute("SELECT kind, src_doc, dst_doc FROM links WHERE kind IN ('supersedes', 'same_series') ORDER BY kind, src_doc, dst_doc")
        return [(r[0], r[1], r[2]) for r in rows.fetchall()]

    def aligned_aliases(self) -> list[tuple[str, str]]:
        return [(row[0], row[1]) for row in self.db.execute("SELECT short, long FROM aliases WHERE decision = 'aligned' ORDER BY short, long")]

    # --- what the pages read ------------------------------------------------------------------------------------
    def assertion_rows(self) -> list[StoredAssertion]:
        """Every assertion by document id, then position (the pages' order)."""
        return [_stored(row) for row in self.db.execute("SELECT * FROM assertions ORDER BY doc_id, seq").fetchall()]

    def page_links(self) -> list[Link]:
        """Every link by kind, source section and destination section (the order of the pages' panels)."""
        rows = self.db.execute("SELECT * FROM links ORDER BY kind, src_doc, src_section, dst_doc, dst_section, id").fetchall()
        return [Link(**dict(row)) for row in rows]

    def briefs(self) -> dict[str, dict]:
        return {row[0]: json.loads(row[1]) for row in self.db.execute("SELECT doc_id, body FROM briefs ORDER BY doc_id")}

    def dossiers(self) -> list[tuple[str, dict]]:
        """(topic, dossier) by topic."""
        return [(row[0], json.loads(row[1])) for row in self.db.execute("SELECT topic, body FROM dossiers ORDER BY topic")]

    def ran(self) -> bool:
        """Whether the ledger stage has run on this store."""
        return self.db.execute("SELECT COUNT(*) FROM ledger_state").fetchone()[0] > 0

    # --- writing the shelf-wide results ------------------------------------------------------------------------
    def replace_shelf_links(self, hooks: list[Hook], links: list[Link], aliases: list[Alias], briefs: dict[str, dict],
                            dossiers: dict[str, dict]) -> None:
        """Hook outcomes, then links, aliases, briefs and dossiers replaced whole (call inside a transaction)."""
        self.db.executemany("UPDATE hooks SET status = ?, reason = ? WHERE id = ?", [(h.status, h.reason, h.id) for h in hooks])
        self.db.execute("DELETE FROM links")
        self.db.executemany(
            "INSERT INTO links (id, kind, src_doc, src_section, dst_doc, dst_section, evidence, reason, hook_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(l.id, l.kind, l.src_doc, l.src_section, l.dst_doc, l.dst_section, l.evidence, l.reason, l.hook_id) for l in links])
        self.db.execute("DELETE FROM aliases")
        self.db.executemany(
            "INSERT OR REPLACE INTO aliases (short, long, decision, reason, doc_id, section_id, decided_by) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(a.short, a.long, a.decision, a.reason, a.doc_id, a.section_id, a.decided_by) for a in aliases])
        self.db.execute("DELETE FROM briefs")
        self.db.executemany("INSERT INTO briefs (doc_id, mode, body) VALUES (?, ?, ?)",
                            [(d, b["mode"], json.dumps(b, ensure_ascii=False)) for d, b in sorted(briefs.items())])
        self.db.execute("DELETE FROM dossiers")
        self.db.executemany("INSERT INTO dossiers (topic, doc_ids, body) VALUES (?, ?, ?)",
                            [(t, json.dumps(d["doc_ids"]), json.dumps(d, ensure_ascii=False)) for t, d in sorted(dossiers.items())])


def _stored(row) -> StoredAssertion:
    """A row of the assertions table as its record."""
    assertion = Assertion(kind=row["kind"], subject=row["subject"], statement=row["statement"], quote=row["quote"],
                          **json.loads(row["detail"] or "{}"))
    return StoredAssertion(row["doc_id"], row["section_id"], assertion, row["seq"])
