"""Dense index: headed passages embedded into a sqlite-vec vec0 table inside the store.

Vectors are float32 blobs. Each embedding model gets its own vec0 table
(named from a hash of its model id, sized to its dimension), and every
embedding is cached by (model id, sha256 of the passage text) in
``embedding_cache``, so a re-compile embeds only passages whose text changed.
A section scores as its best passage (cosine similarity).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

import numpy as np
from pydantic import BaseModel, Field

from compiler.embedders import Embedder
from compiler.passages import Passage, PassageSizing, build_passages
from compiler.records import Section

__all__ = [
    "VectorStats",
    "load_sqlite_vec",
    "vec_table",
    "encode_vector",
    "EmbeddingCache",
    "update_vectors",
    "dense_sections",
    "passage_doc_ids",
    "passage_matrix",
    "DenseIndex",
]


class VectorStats(BaseModel):
    """What one dense-index update did."""

    documents: int = Field(default=0, description="Documents whose passages were (re)built.")
    passages: int = Field(default=0, description="Passages written.")
    embedded: int = Field(default=0, description="Passages sent to the embedder (cache misses).")
    cached: int = Field(default=0, description="Passages whose vector came from the cache.")
    removed_documents: int = Field(default=0, description="Documents whose passages were dropped.")


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


def encode_vector(vector: Iterable[float]) -> bytes:
    return np.asarray(list(vector), dtype=np.float32).tobytes()


def _ensure_table(db, embedder: Embedder) -> str:
    load_sqlite_vec(db)
    table = vec_table(embedder.model_id)
    db.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {table} USING vec0(embedding float[{int(embedder.dimensions)}] distance_metric=cosine)"
    )
    return table


class EmbeddingCache:
    """Vectors by (model id, text hash) in an ``embedding_cache`` table of any SQLite connection."""

    def __init__(self, db, model_id: str):
        self.db = db
        self.model_id = model_id
        db.execute(
            "CREATE TABLE IF NOT EXISTS embedding_cache (model TEXT NOT NULL, text_hash TEXT NOT NULL, "
            "vector BLOB NOT NULL, PRIMARY KEY (model, text_hash))"
        )

    def get(self, hashes: Iterable[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        wanted = sorted(set(hashes))
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" for _ in chunk)
            rows = self.db.execute(
                f"SELECT text_hash, vector FROM embedding_cache WHERE model = ? AND text_hash IN ({marks})",
                [self.model_id, *chunk],
            )
            found.update({row[0]: row[1] for row in rows})
        return found

    def fill(
        self,
        texts: dict[str, str],
        embedder: Embedder,
        progress: Callable[[str], None] | None = None,
    ) -> tuple[dict[str, bytes], int]:
        """Vectors for every text (hash -> text); embeds only the misses, committing batch by batch.

        Returns (vectors by hash, how many were embedded).
        """
        vectors = self.get(texts)
        missing = sorted(h for h in texts if h not in vectors)
        for start in range(0, len(missing), embedder.batch_size):
            batch = missing[start : start + embedder.batch_size]
            embedded = embedder.embed_batch([texts[h] for h in batch])
            rows = [(self.model_id, h, encode_vector(v)) for h, v in zip(batch, embedded)]
            with self.db:
                self.db.executemany("INSERT OR REPLACE INTO embedding_cache VALUES (?,?,?)", rows)
            vectors.update({h: blob for _, h, blob in rows})
            if progress:
                progress(f"dense: embedded {min(start + len(batch), len(missing))}/{len(missing)} passages")
        return vectors, len(missing)


def _drop_passages(db, table: str, model_id: str, doc_ids: Iterable[str]) -> None:
    for doc_id in doc_ids:
        ids = [row[0] for row in db.execute("SELECT id FROM passages WHERE model = ? AND doc_id = ?", (model_id, doc_id))]
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            db.execute(f"DELETE FROM {table} WHERE rowid IN ({','.join('?' for _ in chunk)})", chunk)
        db.execute("DELETE FROM passages WHERE model = ? AND doc_id = ?", (model_id, doc_id))


def update_vectors(
    store,
    embedder: Embedder,
    documents: Iterable[tuple[str, str, list[Section]]],
    removed_doc_ids: Iterable[str],
    progress: Callable[[str], None] | None = None,
) -> VectorStats:
    """Rebuild the passages and vectors of ``documents`` (doc_id, title, sections); drop ``removed_doc_ids``.

    Gathers every passage and vector first (embedding only cache misses), then
    replaces the documents' rows in one transaction.
    """
    db = store.db
    table = _ensure_table(db, embedder)
    sizing = PassageSizing(
        window_tokens=embedder.window_tokens, count_tokens=embedder.count_tokens, max_chars=embedder.passage_chars
    )
    built: dict[str, list[Passage]] = {}
    for doc_id, title, sections in documents:
        built[doc_id] = build_passages(title, sections, sizing)
    texts = {p.text_hash: p.text for passages in built.values() for p in passages}
    cache = EmbeddingCache(db, embedder.model_id)
    vectors, embedded = cache.fill(texts, embedder, progress)
    removed = sorted(set(removed_doc_ids) - set(built))
    with db:
        _drop_passages(db, table, embedder.model_id, [*removed, *built])
        written = 0
        for doc_id in sorted(built):
            for p in built[doc_id]:
                cursor = db.execute(
                    "INSERT INTO passages (model, doc_id, section_id, ordinal, text, text_hash, tokens) VALUES (?,?,?,?,?,?,?)",
                    (embedder.model_id, p.doc_id, p.section_id, p.ordinal, p.text, p.text_hash, p.tokens),
                )
                db.execute(f"INSERT INTO {table}(rowid, embedding) VALUES (?, ?)", (cursor.lastrowid, vectors[p.text_hash]))
                written += 1
    return VectorStats(
        documents=len(built),
        passages=written,
        embedded=embedded,
        cached=len(texts) - embedded,
        removed_documents=len(removed),
    )


def passage_doc_ids(store, model_id: str) -> set[str]:
    """Documents that have passages for ``model_id``."""
    rows = store.db.execute("SELECT DISTINCT doc_id FROM passages WHERE model = ?", (model_id,))
    return {row[0] for row in rows}


def dense_sections(store, embedder: Embedder, query_vector: list[float], *, passages: int = 400) -> list[tuple[str, float]]:
    """(section id, best passage cosine similarity), best first, from the ``passages`` nearest passages."""
    if not any(query_vector):
        return []  # a query with no embeddable content has no direction: nothing is near it
    db = store.db
    table = _ensure_table(db, embedder)
    k = max(1, min(int(passages), 4096))
    rows = db.execute(
        f"SELECT p.section_id, v.distance FROM (SELECT rowid, distance FROM {table} WHERE embedding MATCH ? AND k = ?) v "
        "JOIN passages p ON p.id = v.rowid ORDER BY v.distance, p.section_id",
        (encode_vector(query_vector), k),
    ).fetchall()
    best: dict[str, float] = {}
    for section_id, distance in rows:
        if distance is not None:
            best.setdefault(section_id, 1.0 - float(distance))
    return sorted(best.items(), key=lambda item: (-item[1], item[0]))


def passage_matrix(store, model_id: str) -> tuple[list[str], np.ndarray]:
    """Every passage's section id and its vector (rows, float32) for one model, for brute-force comparison."""
    rows = store.db.execute(
        "SELECT p.section_id, c.vector FROM passages p JOIN embedding_cache c ON c.model = p.model AND c.text_hash = p.text_hash "
        "WHERE p.model = ? ORDER BY p.id",
        (model_id,),
    ).fetchall()
    if not rows:
        return [], np.zeros((0, 0), dtype=np.float32)
    return [row[0] for row in rows], np.vstack([np.frombuffer(row[1], dtype=np.float32) for row in rows])


_BLAS = None


def _one_blas_thread():
    """A context holding BLAS to one thread: OpenBLAS threads a 1,500 x 384 product and, on busy cores, spins
    (measured 32 ms a query with two threads against 0.06 ms with one)."""
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController

        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


class DenseIndex:
    """Every passage vector of one model held in memory: exact cosine search by one matrix product.

    Measured by eval/bench/search.py: the vec0 KNN at k = 400 with its join took 5-28 ms a query against
    0.1-0.6 ms here over the same vectors, with the same top 10 on every shelf. Loaded once, on first use.
    """

    def __init__(self, store, model_id: str):
        rows = store.db.execute(
            "SELECT p.id, p.section_id, p.ordinal, c.vector FROM passages p JOIN embedding_cache c "
            "ON c.model = p.model AND c.text_hash = p.text_hash WHERE p.model = ? ORDER BY p.id",
            (model_id,),
        ).fetchall()
        self.passage_ids = [row[0] for row in rows]
        self.section_ids = [row[1] for row in rows]
        self.ordinals = [row[2] for row in rows]
        self.matrix = (
            np.vstack([np.frombuffer(row[3], dtype=np.float32) for row in rows]) if rows else np.zeros((0, 1), dtype=np.float32)
        )
        norms = np.linalg.norm(self.matrix, axis=1, keepdims=True)
        self.matrix = self.matrix / np.where(norms > 0, norms, 1.0)  # cosine, whatever the embedder returns
        self.by_section: dict[str, list[int]] = {}
        for row_number, section_id in enumerate(self.section_ids):
            self.by_section.setdefault(section_id, []).append(row_number)

    def __len__(self) -> int:
        return len(self.passage_ids)

    def scores(self, query_vector) -> np.ndarray:
        """Cosine similarity of every passage to the (normalised) query vector."""
        vector = np.asarray(query_vector, dtype=np.float32)
        if not len(self) or not vector.any():
            return np.zeros(len(self), dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        with _one_blas_thread():
            return self.matrix @ (vector / norm)

    def sections(self, query_vector, *, passages: int = 400) -> list[tuple[str, float]]:
        """(section id, best passage similarity), best first, from the ``passages`` nearest passages (as dense_sections)."""
        if not len(self) or not any(query_vector):
            return []
        return self.ranked_sections(self.scores(query_vector), passages=passages)

    def ranked_sections(self, scores: np.ndarray, *, passages: int = 400) -> list[tuple[str, float]]:
        """As ``sections``, from already computed passage similarities."""
        if not len(self) or not scores.any():
            return []
        k = max(1, min(int(passages), len(scores)))
        top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        best: dict[str, float] = {}
        for index in sorted(top, key=lambda i: (-float(scores[i]), self.section_ids[i])):
            best.setdefault(self.section_ids[index], float(scores[index]))
        return sorted(best.items(), key=lambda item: (-item[1], item[0]))

    def section_passages(self, section_id: str, scores: np.ndarray) -> list[tuple[int, int, float]]:
        """(passage id, ordinal, similarity) of one section's passages, in passage order."""
        return [(self.passage_ids[i], self.ordinals[i], float(scores[i])) for i in self.by_section.get(section_id, [])]
