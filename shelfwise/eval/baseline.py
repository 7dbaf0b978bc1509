"""The conventional chunk-RAG baseline: 2,000-character chunks with 250 overlap, structure ignored, BM25 + dense fused.

Each document's text (its sections' headings and bodies in document order,
as one string) is cut into fixed character windows. Chunks are indexed with
whoosh BM25 (stemmed) and embedded with the same embedder as the sections
(a chunk longer than the model's window is cut by the model, as a
conventional pipeline does); the two rankings are fused by reciprocal rank
(k = 60). To be scored beside section retrievers, a chunk retrieves the
sections it carries at least 200 characters of, or all of a shorter one
(paper §4.2); sections without body text are not retrievable units.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field
from whoosh import index as whoosh_index
from whoosh import query as whoosh_query
from whoosh.analysis import StemmingAnalyzer
from whoosh.fields import ID, TEXT, Schema
from whoosh.scoring import BM25F

from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.search.search import RRF_K, rrf_fuse
from shelfwise.compiler.store.store import sqlite3
from shelfwise.compiler.index.vectors import EmbeddingCache

__all__ = ["Chunk", "ChunkIndex", "make_chunks", "CHUNK_CHARS", "CHUNK_OVERLAP", "MIN_CARRIED"]

CHUNK_CHARS = 2000
CHUNK_OVERLAP = 250
MIN_CARRIED = 200


class Chunk(BaseModel):
    """A fixed window of a document's text and the sections it carries."""

    id: str = Field(description="'<doc_id>:<ordinal>'.")
    doc_id: str
    text: str
    sections: list[str] = Field(description="Sections carried (>= 200 chars, or all of a shorter one), document order.")


def make_chunks(doc_id: str, sections, *, size: int = CHUNK_CHARS, overlap: int = CHUNK_OVERLAP) -> list[Chunk]:
    """Chunks of one document (``sections`` in document order)."""
    parts, spans = [], []
    position = 0
    for section in sections:
        piece = "\n\n".join(p for p in (section.heading if section.heading_path else "", section.text) if p) + "\n\n"
        if section.text.strip():
            spans.append((section.id, position, position + len(piece)))
        parts.append(piece)
        position += len(piece)
    text = "".join(parts)
    chunks = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        carried = []
        for sid, s_start, s_end in spans:
            shared = min(end, s_end) - max(start, s_start)
            length = s_end - s_start
            if shared >= MIN_CARRIED or (length < MIN_CARRIED and shared >= length):
                carried.append(sid)
        chunks.append(Chunk(id=f"{doc_id}:{len(chunks)}", doc_id=doc_id, text=text[start:end], sections=carried))
        if end == len(text):
            break
        start = end - overlap
    return chunks


class ChunkIndex:
    """BM25 (whoosh) and dense (numpy, exact) indexes over one store's chunks, built in ``work_dir``."""

    def __init__(self, store, embedder: Embedder, work_dir: Path, progress=None):
        self.embedder = embedder
        self.chunks: list[Chunk] = []
        for row in store.documents():
            self.chunks.extend(make_chunks(row["doc_id"], store.sections(row["doc_id"])))
        self.by_id = {chunk.id: chunk for chunk in self.chunks}
        work_dir = Path(work_dir)
        work_dir.mkdir(parents=True, exist_ok=True)
        self._build_lexical(work_dir / "lexical")
        self._db = sqlite3.connect(str(work_dir / "embeddings.sqlite"))
        cache = EmbeddingCache(self._db, embedder.model_id)
        texts = {hashlib.sha256(c.text.encode("utf-8")).hexdigest(): c.text for c in self.chunks}
        vectors, _ = cache.fill(texts, embedder, progress)
        self.matrix = np.vstack(
            [np.frombuffer(vectors[hashlib.sha256(c.text.encode("utf-8")).hexdigest()], dtype=np.float32) for c in self.chunks]
        ) if self.chunks else np.zeros((0, embedder.dimensions), dtype=np.float32)
        norms = np.linalg.norm(self.matrix, axis=1, keepdims=True)
        self.matrix = self.matrix / np.where(norms == 0, 1, norms)

    def _build_lexical(self, path: Path) -> None:
        if path.exists():
            shutil.rmtree(path)
        path.mkdir(parents=True)
        ix = whoosh_index.create_in(str(path), Schema(chunk_id=ID(stored=True, unique=True), text=TEXT(analyzer=StemmingAnalyzer())))
        writer = ix.writer(limitmb=128)
        for chunk in self.chunks:
            writer.add_document(chunk_id=chunk.id, text=chunk.text)
        writer.commit()
        self._searcher = ix.searcher(weighting=BM25F())
        self._analyzer = StemmingAnalyzer()

    def bm25(self, query: str, limit: int = 100) -> list[str]:
        words = list(dict.fromkeys(token.text for token in self._analyzer(query)))[:96]
        if not words:
            return []
        hits = self._searcher.search(whoosh_query.Or([whoosh_query.Term("text", w) for w in words]), limit=limit)
        ranked = sorted(((hit["chunk_id"], float(hit.score)) for hit in hits), key=lambda item: (-item[1], item[0]))
        return [cid for cid, _ in ranked]

    def dense(self, query: str, limit: int = 100) -> list[str]:
        if not len(self.chunks):
            return []
        vector = np.asarray(self.embedder.embed_batch([query])[0], dtype=np.float32)
        scores = self.matrix @ (vector / (np.linalg.norm(vector) or 1.0))
        order = sorted(range(len(self.chunks)), key=lambda i: (-float(scores[i]), self.chunks[i].id))[:limit]
        return [self.chunks[i].id for i in order]

    def search(self, query: str, limit: int = 100) -> list[Chunk]:
        """Chunks for ``query``, BM25 and dense fused by reciprocal rank (k = 60), best first."""
        fused = rrf_fuse({"bm25": self.bm25(query, limit), "dense": self.dense(query, limit)}, k=RRF_K)
        return [self.by_id[cid] for cid, _ in fused[:limit]]

    def close(self) -> None:
        self._searcher.close()
        self._db.close()
