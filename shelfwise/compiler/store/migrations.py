"""The store's schema as numbered functions: ``MIGRATIONS[n]`` takes a store at schema ``n`` to ``n + 1``
(``Store`` applies the missing ones on open and sets SQLite's ``user_version``). A schema change is a new function
appended here; the ones before it never change, so a store on disk stays readable.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from shelfwise.compiler.store.vector_store import EMBEDDING_CACHE

__all__ = ["MIGRATIONS"]


def _script(db, text: str) -> None:
    """Run a migration's statements one by one in the caller's transaction (``executescript`` would commit it first,
    letting another process that opens the same file migrate it twice). Where a statement ends is SQLite's own
    tokenizer's answer (``complete_statement``, the same in every SQLite build)."""
    statement = ""
    for line in text.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""
    if statement.strip():
        raise ValueError(f"an unfinished statement in a migration: {statement.strip()[:80]}")


def _m1(db) -> None:
    _script(
        db,
        """
        CREATE TABLE documents (
            doc_id TEXT PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            format TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            size INTEGER NOT NULL,
            reader TEXT NOT NULL,
            reader_version TEXT NOT NULL,
            settings_hash TEXT NOT NULL,
            pages INTEGER NOT NULL,
            n_sections INTEGER NOT NULL,
            n_tables INTEGER NOT NULL,
            n_figures INTEGER NOT NULL,
            seconds REAL NOT NULL,
            warnings TEXT NOT NULL DEFAULT '[]'
        );
        CREATE TABLE sections (
            id TEXT PRIMARY KEY,
            doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
            parent_id TEXT,
            seq INTEGER NOT NULL,
            level INTEGER NOT NULL,
            heading TEXT NOT NULL,
            heading_path TEXT NOT NULL,
            text TEXT NOT NULL,
            blocks TEXT NOT NULL,
            page_start INTEGER,
            page_end INTEGER,
            content_hash TEXT NOT NULL
        );
        CREATE INDEX sections_doc ON sections(doc_id, seq);
        CREATE TABLE figures (
            id TEXT PRIMARY KEY,
            doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
            section_id TEXT NOT NULL,
            caption TEXT NOT NULL,
            page INTEGER,
            image BLOB,
            image_hash TEXT,
            description TEXT,
            described_by TEXT
        );
        CREATE INDEX figures_doc ON figures(doc_id);
        CREATE TABLE failures (
            path TEXT PRIMARY KEY,
            content_hash TEXT NOT NULL,
            reason TEXT NOT NULL
        );
        CREATE TABLE vision_cache (
            image_hash TEXT NOT NULL,
            model TEXT NOT NULL,
            description TEXT NOT NULL,
            PRIMARY KEY (image_hash, model)
        );
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """
    )



def _m_ledger(db) -> None:
    """Assertion ledger, hooks, links, aliases, briefs, dossiers and the extraction cache (shelfwise/compiler/ledger/, links/)."""
    _script(
        db,
        """
        CREATE TABLE extraction_cache (
            section_hash TEXT NOT NULL,
            extractor TEXT NOT NULL,
            payload TEXT NOT NULL,
            PRIMARY KEY (section_hash, extractor)
        );
        CREATE TABLE assertions (
            id TEXT PRIMARY KEY,
            doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
            section_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            subject TEXT NOT NULL,
            statement TEXT NOT NULL,
            quote TEXT NOT NULL,
            detail TEXT NOT NULL,
            extractor TEXT NOT NULL,
            section_hash TEXT NOT NULL
        );
        CREATE INDEX assertions_doc ON assertions(doc_id, seq);
        CREATE INDEX assertions_section ON assertions(section_id);
        CREATE TABLE hooks (
            id TEXT PRIMARY KEY,
            doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
            section_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            relation TEXT NOT NULL,
            text TEXT NOT NULL,
            target TEXT NOT NULL,
            quote TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'open',
            reason TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX hooks_doc ON hooks(doc_id, seq);
        CREATE TABLE links (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            src_doc TEXT NOT NULL,
            src_section TEXT,
            dst_doc TEXT NOT NULL,
            dst_section TEXT,
            evidence TEXT NOT NULL,
            reason TEXT NOT NULL,
            hook_id TEXT
        );
        CREATE INDEX links_src ON links(src_doc);
        CREATE INDEX links_dst ON links(dst_doc);
        CREATE TABLE aliases (
            short TEXT NOT NULL,
            long TEXT NOT NULL,
            decision TEXT NOT NULL,
            reason TEXT NOT NULL,
            doc_id TEXT NOT NULL,
            section_id TEXT NOT NULL,
            decided_by TEXT NOT NULL,
            PRIMARY KEY (short, long, doc_id)
        );
        CREATE TABLE ledger_state (
            doc_id TEXT PRIMARY KEY REFERENCES documents(doc_id) ON DELETE CASCADE,
            extracted TEXT NOT NULL
        );
        CREATE TABLE briefs (doc_id TEXT PRIMARY KEY, mode TEXT NOT NULL, body TEXT NOT NULL);
        CREATE TABLE dossiers (topic TEXT PRIMARY KEY, doc_ids TEXT NOT NULL, body TEXT NOT NULL);
        """
    )



def _m_search(db) -> None:
    """Headed passages and the embedding cache (shelfwise/compiler/index/passages.py, vectors.py).

    Passages carry no foreign key: the indexer deletes a changed document's
    passages and their vectors itself. The vec0 tables sit beside them, one per
    embedding model (the dimension is the model's), created by shelfwise/compiler/index/vectors.py.
    """
    _script(
        db,
        """
        CREATE TABLE passages (
            id INTEGER PRIMARY KEY,
            model TEXT NOT NULL,
            doc_id TEXT NOT NULL,
            section_id TEXT NOT NULL,
            ordinal INTEGER NOT NULL,
            text TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            UNIQUE (model, section_id, ordinal)
        );
        CREATE INDEX passages_doc ON passages(model, doc_id);
        """
    )
    db.execute(EMBEDDING_CACHE)



def _m_section_aliases(db) -> None:
    """Old ids of renamed sections and the section each now answers at (shelfwise/compiler/ingest/renames.py); a document's
    aliases go with it."""
    _script(
        db,
        """
        CREATE TABLE section_aliases (
            old_id TEXT PRIMARY KEY,
            doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
            new_id TEXT NOT NULL,
            old_heading TEXT NOT NULL,
            score REAL NOT NULL
        );
        CREATE INDEX section_aliases_doc ON section_aliases(doc_id, new_id);
        """
    )



def _m_identities(db) -> None:
    """Each document's identity (shelfwise/compiler/digests/identity.py): its one name, issuer, form and period, with
    where each was read; a document's identity goes with it."""
    _script(
        db,
        """
        CREATE TABLE identities (
            doc_id TEXT PRIMARY KEY REFERENCES documents(doc_id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            rules INTEGER NOT NULL,
            record TEXT NOT NULL
        );
        """
    )


MIGRATIONS: list[Callable] = [_m1, _m_ledger, _m_search, _m_section_aliases, _m_identities]
