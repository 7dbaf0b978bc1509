"""The dense index's tables in the compiled store: passages, one vec0 table per embedding model, the embedding cache.

Every SQL statement over those tables lives here. ``passages`` and ``embedding_cache`` are created by
``shelfwise.compiler.store.store``'s numbered migrations (``EMBEDDING_CACHE`` is the cache's one definition, also used for a
database that is not a compiled store, such as the chunk baseline's); a model's vec0 table is created on first
use, sized to the model's dimension. The stage (shelfwise/compiler/index/vectors.py) and the searchers (shelfwise/compiler/search/search.py,
shelfwise/compiler/search/reading.py) call these named methods and get records back: ``PassageVector``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["VectorStore", "PassageVector", "EMBEDDING_CACHE", "load_sqlite_vec", "vec_table"]

EMBEDDING_CACHE = (
    "CREATE TABLE IF NOT EXISTS embedding_cache (model TEXT NOT NULL, text_hash TEXT NOT NULL, "
    "vector BLOB NOT NULL, PRIMARY KEY (model, text_hash))"
)
"""The embedding cache's schema: vectors by (model id, sha256 of the text), float32 blobs."""
_CHUNK = 500  # ids per IN (...) list, well under SQLite's limit on bound parameters


@dataclass(frozen=True)
class PassageVector:
    """One stored passage of a model with its vector (float32 bytes)."""

    passage_id: int
    section_id: str
    ordinal: int
    vector: bytes


def load_sqlite_vec(db) -> None:
    """Load sqlite-vec into ``db`` (once per connection)."""
    try:
        db.execute("SELECT vec_version()")
        return
    except Exception:  # noqa: BLE001 - the function is missing until the extension is loaded
        pass
    import sqlite_vec

    db.enable_load_extension(True)
    sqlite_vec.load(db)
    db.enable_load_extension(False)


def vec_table(model_id: str) -> str:
    """The vec0 table of one model: 'vec_' + 12 hex digits of the model id's hash."""
    return "vec_" + hashlib.sha256(model_id.encode("utf-8")).hexdigest()[:12]


class VectorStore:
    """The dense index's tables of one SQLite connection (``Store.vectors``)."""

    def __init__(self, db):
        self.db = db

    # --- the embedding cache -----------------------------------------------------------------------------------
    def ensure_cache(self) -> None:
        """The cache table, for a database that is not a compiled store (a store has it from its migrations)."""
        self.db.execute(EMBEDDING_CACHE)

    def cached_vectors(self, model_id: str, hashes: Iterable[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        wanted = sorted(set(hashes))
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            marks = ",".join("?" for _ in chunk)
            rows = self.db.execute(
                f"SELECT text_hash, vector FROM embedding_cache WHERE model = ? AND text_hash IN ({marks})",
                [model_id, *chunk],
            )
            found.update({row[0]: row[1] for row in rows})
        return found

    def cache_vectors(self, model_id: str, vectors: list[tuple[str, bytes]]) -> None:
        """Store (text hash, vector) pairs, committed at once (a long embedding run keeps what it finished)."""
        with self.db:
            self.db.executemany("INSERT OR REPLACE INTO embedding_cache (model, text_hash, vector) VALUES (?, ?, ?)",
                                [(model_id, text_hash, blob) for text_hash, blob in vectors])

    # --- passages and their vec0 table -------------------------------------------------------------------------
    def ensure_vec_table(self, model_id: str, dimensions: int) -> str:
        """The model's vec0 table (created when missing); returns its name."""
        load_sqlite_vec(self.db)
        table = vec_table(model_id)
        self.db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {table} USING vec0(embedding float[{int(dimensions)}] distance_metric=cosine)")
        return table

    def _drop_passages(self, table: str, model_id: str, doc_ids: Iterable[str]) -> None:
        for doc_id in doc_ids:
            ids = [row[0] for row in self.db.execute("SELECT id FROM passages WHERE model = ? AND doc_id = ?", (model_id, doc_id))]
            for start in range(0, len(ids), _CHUNK):
                chunk = ids[start : start + _CHUNK]
                self.db.execute(f"DELETE FROM {table} WHERE rowid IN ({','.join('?' for _ in chunk)})", chunk)
            self.db.execute("DELETE FROM passages WHERE model = ? AND doc_id = ?", (model_id, doc_id))

    def replace_passages(self, table: str, model_id: str, drop: Iterable[str], passages: list, vectors: dict[str, bytes]) -> int:
        """In one transaction: the passages (and vectors) of the documents ``drop`` deleted, then ``passages``
        (shelfwise.compiler.index.passages.Passage, in order) written with their vectors by text hash; returns how many."""
        with self.db:
            self._drop_passages(table, model_id, drop)
            for p in passages:
                cursor = self.db.execute(
                    "INSERT INTO passages (model, doc_id, section_id, ordinal, text, text_hash, tokens) VALUES (?,?,?,?,?,?,?)",
                    (model_id, p.doc_id, p.section_id, p.ordinal, p.text, p.text_hash, p.tokens),
                )
                self.db.execute(f"INSERT INTO {table}(rowid, embedding) VALUES (?, ?)", (cursor.lastrowid, vectors[p.text_hash]))
        return len(passages)

    def passage_doc_ids(self, model_id: str) -> set[str]:
        """Documents that have passages for ``model_id``."""
        return {row[0] for row in self.db.execute("SELECT DISTINCT doc_id FROM passages WHERE model = ?", (model_id,))}

    def passage_count(self, model_id: str) -> int:
        return self.db.execute("SELECT count(*) FROM passages WHERE model = ?", (model_id,)).fetchone()[0]

    def nearest(self, table: str, vector: bytes, k: int) -> list[tuple[str, float | None]]:
        """(section id, cosine distance) of the ``k`` passages nearest ``vector`` by the vec0 KNN, nearest first."""
        return [tuple(row) for row in self.db.execute(
            f"SELECT p.section_id, v.distance FROM (SELECT rowid, distance FROM {table} WHERE embedding MATCH ? AND k = ?) v "
            "JOIN passages p ON p.id = v.rowid ORDER BY v.distance, p.section_id",
            (vector, k),
        ).fetchall()]

    def passage_vectors(self, model_id: str) -> list[PassageVector]:
        """Every passage of a model with its cached vector, in passage (id) order."""
        rows = self.db.execute(
            "SELECT p.id, p.section_id, p.ordinal, c.vector FROM passages p JOIN embedding_cache c "
            "ON c.model = p.model AND c.text_hash = p.text_hash WHERE p.model = ? ORDER BY p.id",
            (model_id,),
        ).fetchall()
        return [PassageVector(*row) for row in rows]

    def passage_sections(self) -> list[str]:
        """The section id of every passage (all models), sorted: a fingerprint of what the dense index holds."""
        return [row[0] for row in self.db.execute("SELECT section_id FROM passages ORDER BY 1")]

    def passage_text(self, passage_id: int) -> str | None:
        row = self.db.execute("SELECT text FROM passages WHERE id = ?", (passage_id,)).fetchone()
        return row[0] if row else None

    def section_passage_texts(self, model_id: str | None, section_id: str) -> list[str]:
        """The texts of one section's passages for a model, in order (none for no model)."""
        rows = self.db.execute("SELECT text FROM passages WHERE model = ? AND section_id = ? ORDER BY ordinal", (model_id, section_id))
        return [row[0] for row in rows.fetchall()]
