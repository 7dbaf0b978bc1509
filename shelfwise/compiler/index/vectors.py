"""Dense index: headed passages embedded into a sqlite-vec vec0 table inside the store.

Vectors are float32 blobs. Each embedding model gets its own vec0 table
(named from a hash of its model id, sized to its dimension), and every
embedding is cached by (model id, sha256 of the passage text) in
``embedding_cache``, so a re-compile embeds only passages whose text changed.
A section scores as its best passage (cosine similarity).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from pydantic import BaseModel, Field

from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.index.passages import Passage, PassageSizing, build_passages
from shelfwise.compiler.store.records import Section
from shelfwise.compiler.store.vector_store import VectorStore, load_sqlite_vec, vec_table

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


def encode_vector(vector: Iterable[float]) -> bytes:
    return np.asarray(list(vector), dtype=np.float32).tobytes()


class EmbeddingCache:
    """Vectors by (model id, text hash) in an ``embedding_cache`` table of any SQLite connection."""

    def __init__(self, db, model_id: str):
        self.tables = VectorStore(db)
        self.model_id = model_id
        self.tables.ensure_cache()

    def get(self, hashes: Iterable[str]) -> dict[str, bytes]:
        return self.tables.cached_vectors(self.model_id, hashes)

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
            rows = [(h, encode_vector(v)) for h, v in zip(batch, embedded)]
            self.tables.cache_vectors(self.model_id, rows)
            vectors.update(rows)
            if progress:
                progress(f"dense: embedded {min(start + len(batch), len(missing))}/{len(missing)} passages")
        return vectors, len(missing)


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
    tables = VectorStore(store.db)
    table = tables.ensure_vec_table(embedder.model_id, embedder.dimensions)
    sizing = PassageSizing(
        window_tokens=embedder.window_tokens, count_tokens=embedder.count_tokens, max_chars=embedder.passage_chars
    )
    built: dict[str, list[Passage]] = {}
    for doc_id, title, sections in documents:
        built[doc_id] = build_passages(title, sections, sizing)
    texts = {p.text_hash: p.text for passages in built.values() for p in passages}
    cache = EmbeddingCache(store.db, embedder.model_id)
    vectors, embedded = cache.fill(texts, embedder, progress)
    removed = sorted(set(removed_doc_ids) - set(built))
    written = tables.replace_passages(table, embedder.model_id, [*removed, *built], [p for doc_id in sorted(built) for p in built[doc_id]], vectors)
    return VectorStats(
        documents=len(built),
        passages=written,
        embedded=embedded,
        cached=len(texts) - embedded,
        removed_documents=len(removed),
    )


def passage_doc_ids(store, model_id: str) -> set[str]:
    """Documents that have passages for ``model_id``."""
    return VectorStore(store.db).passage_doc_ids(model_id)


def dense_sections(store, embedder: Embedder, query_vector: list[float], *, passages: int = 400) -> list[tuple[str, float]]:
    """(section id, best passage cosine similarity), best first, from the ``passages`` nearest passages."""
    if not any(query_vector):
        return []  # a query with no embeddable content has no direction: nothing is near it
    tables = VectorStore(store.db)
    table = tables.ensure_vec_table(embedder.model_id, embedder.dimensions)
    k = max(1, min(int(passages), 4096))
    rows = tables.nearest(table, encode_vector(query_vector), k)
    best: dict[str, float] = {}
    for section_id, distance in rows:
        if distance is not None:
            best.setdefault(section_id, 1.0 - float(distance))
    return sorted(best.items(), key=lambda item: (-item[1], item[0]))


def passage_matrix(store, model_id: str) -> tuple[list[str], np.ndarray]:
    """Every passage's section id and its vector (rows, float32) for one model, for brute-force comparison."""
    rows = VectorStore(store.db).passage_vectors(model_id)
    if not rows:
        return [], np.zeros((0, 0), dtype=np.float32)
    return [row.section_id for row in rows], np.vstack([np.frombuffer(row.vector, dtype=np.float32) for row in rows])


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

    Measured by shelfwise/eval/bench/search.py: the vec0 KNN at k = 400 with its join took 5-28 ms a query against
    0.1-0.6 ms here over the same vectors, with the same top 10 on every shelf. Loaded once, on first use.
    """

    def __init__(self, store, model_id: str):
        rows = VectorStore(store.db).passage_vectors(model_id)
        self.passage_ids = [row.passage_id for row in rows]
        self.section_ids = [row.section_id for row in rows]
        self.ordinals = [row.ordinal for row in rows]
        self.matrix = (
            np.vstack([np.frombuffer(row.vector, dtype=np.float32) for row in rows]) if rows else np.zeros((0, 1), dtype=np.float32)
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
