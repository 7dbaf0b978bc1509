"""The compiled store: one SQLite file per shelf (build/<shelf>/store.sqlite).

Schema changes are numbered functions (``migrations.MIGRATIONS``); ``Store`` applies
the missing ones on open. SQLite comes from ``pysqlite3`` when installed (its
build can load extensions such as sqlite-vec; the pyenv Python's cannot).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple
from pathlib import Path

from shelfwise.compiler.errors import StoreError
from shelfwise.compiler.store.records import DocumentIdentity, Block, Figure, Section, SectionAlias
from shelfwise.compiler.store.vector_store import VectorStore
from shelfwise.compiler.store.migrations import MIGRATIONS

try:  # pragma: no cover - which one is installed depends on the platform
    import pysqlite3.dbapi2 as sqlite3  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover
    import sqlite3  # type: ignore[no-redef]

log = logging.getLogger("shelfwise.store")

__all__ = ["Store", "sqlite3", "DocumentRow", "FailureRow", "SectionBody", "FigureMeta", "connect_shared", "immediate"]

SHARED_WAIT_S = 30.0
"""How long a process waits for another that holds an SQLite file it shares (two `shelfwise serve` replicas starting at
once over one traces file, a server opening a store a build is migrating) before it gives up. An operational bound, not
an answer parameter: a schema migration or a WAL switch takes milliseconds, so any wait far above that and far below a
process manager's start-up timeout serves; no figure of any question set depends on it."""


def _busy(exc: Exception) -> bool:
    """Whether SQLite refused because another connection holds the file (SQLITE_BUSY or SQLITE_LOCKED, extended codes
    included: the low byte is the primary code)."""
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def connect_shared(path: Path, *, wait_s: float = SHARED_WAIT_S):
    """An SQLite connection in WAL mode to a file other processes may open at the same moment.

    SQLite answers ``PRAGMA journal_mode = WAL`` "database is locked" at once, without waiting, while another connection
    is switching the same new file (its busy handler is not called for that lock), so the switch is retried here until
    ``wait_s``; every other statement waits up to ``wait_s`` through the connection's own busy timeout."""
    db = sqlite3.connect(str(path), check_same_thread=False, timeout=wait_s)
    deadline = time.monotonic() + wait_s
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return db
        except sqlite3.OperationalError as exc:
            if not _busy(exc) or time.monotonic() > deadline:
                db.close()
                raise
            time.sleep(0.05)


@contextmanager
def immediate(db):
    """A write transaction taken before anything is read (``BEGIN IMMEDIATE``): a schema check and the migration it
    decides on see the same file, even when another process migrates it at the same moment."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.rollback()
        raise
    db.commit()


class DocumentRow(dict):
    """A documents row as a dict (keys are the column names)."""


class FailureRow(dict):
    """A failures row: path, content_hash, reason."""


@dataclass(frozen=True)
class SectionBody:
    """What search reads of a section: its ids, heading, heading path and own text."""

    id: str
    doc_id: str
    heading: str
    heading_path: list[str]
    text: str


class FigureMeta(NamedTuple):
    """A figure as its page's input hash sees it (a tuple: it is hashed as a JSON list)."""

    id: str
    caption: str
    description: str | None
    described_by: str | None
    image_hash: str | None


class Store:
    """One shelf's compiled store."""

    def __init__(self, path: Path, *, create: bool = True):
        self.path = Path(path)
        if not create and not self.path.exists():
            raise StoreError(f"no compiled store at {self.path}; run 'shelfwise build' on the shelf first")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = connect_shared(self.path)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA foreign_keys = ON")
        self._migrate()

    def _migrate(self) -> None:
        """Apply the missing numbered migrations. A store written by an older shelfwise is said so (``migrated`` and a
        warning naming what was added); a newer one is refused, never misread."""
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise StoreError(f"{self.path} was written by a newer shelfwise (schema {version}); upgrade shelfwise")
        if version < len(MIGRATIONS):
            with immediate(self.db):  # another process may be migrating the same file: read its number again, locked
                version = self.db.execute("PRAGMA user_version").fetchone()[0]
                for number in range(version, len(MIGRATIONS)):
                    MIGRATIONS[number](self.db)
                    self.db.execute(f"PRAGMA user_version = {number + 1}")
        self.migrated = [MIGRATIONS[n].__name__.removeprefix("_m_") for n in range(version, len(MIGRATIONS))] if version else []
        if self.migrated:
            log.warning("%s: store schema %d migrated to %d (added: %s); what it held is kept, and the new tables fill on "
                        "the next 'shelfwise build'", self.path, version, len(MIGRATIONS), ", ".join(self.migrated))

    def close(self) -> None:
        self.db.close()

    @property
    def ledger(self):
        """The ledger's tables (``shelfwise.compiler.store.ledger_store.LedgerStore``): assertions, hooks, links, aliases, briefs."""
        from shelfwise.compiler.store.ledger_store import LedgerStore

        return LedgerStore(self.db)

    @property
    def vectors(self) -> VectorStore:
        """The dense index's tables (``shelfwise.compiler.store.vector_store.VectorStore``): passages, vec0 tables, the embedding cache."""
        return VectorStore(self.db)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self.db:
            yield

    # --- documents -------------------------------------------------------------
    def documents(self) -> list[DocumentRow]:
        """Every document row, by path, with ``name``: its identity's name (None until the identity stage named it)."""
        rows = self.db.execute("SELECT d.*, i.name AS name FROM documents d LEFT JOIN identities i USING (doc_id) ORDER BY d.path").fetchall()
        return [DocumentRow(dict(row)) for row in rows]

    def document(self, doc_id: str) -> DocumentRow | None:
        row = self.db.execute("SELECT d.*, i.name AS name FROM documents d LEFT JOIN identities i USING (doc_id) WHERE d.doc_id = ?",
                              (doc_id,)).fetchone()
        return DocumentRow(dict(row)) if row else None

    # --- identities ----------------------------------------------------------------
    def identities(self) -> dict[str, DocumentIdentity]:
        """Document id -> its identity, for the documents the identity stage has named."""
        return {row[0]: DocumentIdentity.model_validate_json(row[1]) for row in self.db.execute("SELECT doc_id, record FROM identities ORDER BY doc_id")}

    def put_identities(self, identities: list[DocumentIdentity]) -> None:
        with self.db:
            self.db.executemany("INSERT OR REPLACE INTO identities (doc_id, name, rules, record) VALUES (?, ?, ?, ?)",
                                [(i.doc_id, i.name, i.rules, i.model_dump_json()) for i in identities])

    def cover_sections(self, doc_id: str, limit: int = 40, pages: int = 1) -> list[Section]:
        """A document's first sections on its first ``pages`` pages (every section when it has no pages), in order:
        what its identity is read from."""
        rows = self.db.execute("SELECT * FROM sections WHERE doc_id = ? AND (page_start IS NULL OR page_start <= ?) "
                               "ORDER BY seq LIMIT ?", (doc_id, pages, limit)).fetchall()
        return [_section_from_row(row) for row in rows]

    def put_document(self, row: dict, sections: list[Section], figures: list[Figure], aliases: list[SectionAlias] = ()) -> None:
        """Replace one document and everything it holds (with the old ids of its renamed sections), in one transaction."""
        with self.db:
            self.db.execute("DELETE FROM documents WHERE doc_id = ? OR path = ?", (row["doc_id"], row["path"]))
            columns = ", ".join(row)
            marks = ", ".join("?" for _ in row)
            self.db.execute(f"INSERT INTO documents ({columns}) VALUES ({marks})", list(row.values()))
            self.db.executemany(
                "INSERT INTO sections (id, doc_id, parent_id, seq, level, heading, heading_path, text, blocks, page_start, page_end, "
                "content_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                [_section_row(section) for section in sections],
            )
            self.db.executemany(
                "INSERT INTO figures (id, doc_id, section_id, caption, page, image, image_hash, description, described_by) "
                "VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (f.id, f.doc_id, f.section_id, f.caption, f.page, f.image, f.image_hash, f.description, f.described_by)
                    for f in figures
                ],
            )
            self.db.executemany(
                "INSERT INTO section_aliases (old_id, doc_id, new_id, old_heading, score) VALUES (?, ?, ?, ?, ?)",
                [(a.old_id, a.doc_id, a.new_id, a.old_heading, a.score) for a in aliases],
            )
            self.db.execute("DELETE FROM failures WHERE path = ?", (row["path"],))

    def remove_document(self, doc_id: str) -> None:
        with self.db:
            self.db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))

    # --- sections ----------------------------------------------------------------
    def sections(self, doc_id: str | None = None) -> list[Section]:
        if doc_id is None:
            rows = self.db.execute(
                "SELECT s.* FROM sections s JOIN documents d USING (doc_id) ORDER BY d.path, s.seq"
            ).fetchall()
        else:
            rows = self.db.execute("SELECT * FROM sections WHERE doc_id = ? ORDER BY seq", (doc_id,)).fetchall()
        return [_section_from_row(row) for row in rows]

    def section(self, section_id: str) -> Section | None:
        row = self.db.execute("SELECT * FROM sections WHERE id = ?", (section_id,)).fetchone()
        return _section_from_row(row) if row else None

    def section_labels(self) -> dict[str, tuple[str, str]]:
        """Section id -> (document id, heading), by document id then position."""
        return {row[0]: (row[1], row[2]) for row in self.db.execute("SELECT id, doc_id, heading FROM sections ORDER BY doc_id, seq")}

    def figure_meta(self, doc_id: str) -> list[FigureMeta]:
        """What a document page shows of its figures (no image bytes), by figure id."""
        rows = self.db.execute("SELECT id, caption, description, described_by, image_hash FROM figures WHERE doc_id = ? ORDER BY id", (doc_id,))
        return [FigureMeta(*row) for row in rows]

    def figure_images(self, doc_id: str) -> list[tuple[str, str | None]]:
        """(figure id, image hash) of a document's figures that have an image, by figure id."""
        rows = self.db.execute("SELECT id, image_hash FROM figures WHERE doc_id = ? AND image IS NOT NULL ORDER BY id", (doc_id,))
        return [(row[0], row[1]) for row in rows]

    def section_count(self, *, with_text: bool = False) -> int:
        """How many sections the store holds (``with_text``: only those with text of their own)."""
        return self.db.execute("SELECT count(*) FROM sections" + (" WHERE text != ''" if with_text else "")).fetchone()[0]

    def long_section_headings(self, min_chars: int, limit: int) -> list[str]:
        """Headings of sections below a title with more than ``min_chars`` characters of text, the first ``limit`` by id."""
        rows = self.db.execute("SELECT heading FROM sections WHERE level >= 1 AND length(text) > ? ORDER BY id LIMIT ?", (min_chars, limit))
        return [row[0] for row in rows]

    def section_bodies(self) -> list[SectionBody]:
        """Every section's heading and text, in the order they were stored (blocks left out: search reads text)."""
        rows = self.db.execute("SELECT id, doc_id, heading, heading_path, text FROM sections").fetchall()
        return [SectionBody(row[0], row[1], row[2], json.loads(row[3]), row[4]) for row in rows]

    def text_section_ids(self, doc_ids: list[str]) -> list[str]:
        """The ids of the sections with text of some documents, by document id then position."""
        rows = self.db.execute(
            f"SELECT id FROM sections WHERE doc_id IN ({','.join('?' for _ in doc_ids)}) AND text != '' ORDER BY doc_id, seq", doc_ids)
        return [row[0] for row in rows]

    def section_aliases(self, doc_id: str | None = None) -> list[SectionAlias]:
        """The old ids of renamed sections (of one document, or all), by old id."""
        query = "SELECT old_id, doc_id, new_id, old_heading, score FROM section_aliases"
        rows = self.db.execute(query + (" WHERE doc_id = ?" if doc_id else "") + " ORDER BY old_id", (doc_id,) if doc_id else ()).fetchall()
        return [SectionAlias(*row) for row in rows]

    def section_alias(self, old_id: str) -> SectionAlias | None:
        """Where a renamed section's old id now answers, or None."""
        row = self.db.execute("SELECT old_id, doc_id, new_id, old_heading, score FROM section_aliases WHERE old_id = ?", (old_id,)).fetchone()
        return SectionAlias(*row) if row else None

    def figures(self, doc_id: str | None = None) -> list[Figure]:
        query = "SELECT * FROM figures" + (" WHERE doc_id = ?" if doc_id else "") + " ORDER BY id"
        rows = self.db.execute(query, (doc_id,) if doc_id else ()).fetchall()
        return [Figure(**dict(row)) for row in rows]

    # --- failures ------------------------------------------------------------------
    def failures(self) -> list[FailureRow]:
        return [FailureRow(dict(row)) for row in self.db.execute("SELECT * FROM failures ORDER BY path")]

    def put_failure(self, path: str, content_hash: str, reason: str) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO failures (path, content_hash, reason) VALUES (?,?,?)", (path, content_hash, reason))

    def clear_failure(self, path: str) -> None:
        with self.db:
            self.db.execute("DELETE FROM failures WHERE path = ?", (path,))

    # --- caches and meta -----------------------------------------------------------
    def take_caches(self, other: Path) -> dict[str, int]:
        """Copy the cache rows (embedded passages, figure descriptions, extractions: each keyed by what it was made
        from) of the store at ``other`` that this one lacks; rows taken per table. A table ``other`` lacks, or
        holds in another shape, is left alone."""
        taken: dict[str, int] = {}
        self.db.execute("ATTACH DATABASE ? AS other", (str(other),))
        try:
            names = {row[0] for row in self.db.execute("SELECT name FROM other.sqlite_master WHERE type = 'table'")}
            for table in ("embedding_cache", "vision_cache", "extraction_cache"):
                if table not in names:
                    continue
                try:
                    with self.db:
                        before = self.db.total_changes
                        self.db.execute(f"INSERT OR IGNORE INTO main.{table} SELECT * FROM other.{table}")
                        taken[table] = self.db.total_changes - before
                except sqlite3.Error:
                    continue
        finally:
            self.db.execute("DETACH DATABASE other")
        return taken

    def vision_description(self, image_hash: str, model: str) -> str | None:
        row = self.db.execute(
            "SELECT description FROM vision_cache WHERE image_hash = ? AND model = ?", (image_hash, model)
        ).fetchone()
        return row[0] if row else None

    def put_vision_description(self, image_hash: str, model: str, description: str) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO vision_cache (image_hash, model, description) VALUES (?,?,?)", (image_hash, model, description))

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))


def _section_row(section: Section) -> tuple:
    import hashlib

    blocks = json.dumps([block.model_dump(exclude_defaults=True) for block in section.blocks], ensure_ascii=False)
    content = "\x1f".join([*section.heading_path, section.text])
    return (
        section.id,
        section.doc_id,
        section.parent_id,
        section.seq,
        section.level,
        section.heading,
        json.dumps(section.heading_path, ensure_ascii=False),
        section.text,
        blocks,
        section.page_start,
        section.page_end,
        hashlib.sha256(content.encode("utf-8")).hexdigest(),
    )


def _section_from_row(row) -> Section:
    return Section(
        id=row["id"],
        doc_id=row["doc_id"],
        parent_id=row["parent_id"],
        seq=row["seq"],
        level=row["level"],
        heading=row["heading"],
        heading_path=json.loads(row["heading_path"]),
        blocks=[Block(**block) for block in json.loads(row["blocks"])],
        page_start=row["page_start"],
        page_end=row["page_end"],
    )
