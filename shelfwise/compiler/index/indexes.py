"""Search indexes of a compiled store, updated after its documents are stored.

``index_shelf`` is what ``shelfwise/compiler/build.py`` calls: it (re)indexes the changed
documents in the lexical (whoosh) and dense (sqlite-vec) indexes and drops the
removed ones. It also heals: a document the store holds but an index lacks is
indexed, and one an index holds but the store lost is dropped. What each
document was indexed from is recorded in the store (meta ``index_state``: its
content and reader-settings hashes, and the embedder), written only after both
indexes are updated; a document whose record differs is re-indexed, so a build
interrupted between storing a document and indexing it is repaired by the next.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import BaseModel, Field

from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.index.lexical import indexed_doc_ids, update_lexical
from shelfwise.compiler.index.vectors import VectorStats, passage_doc_ids, update_vectors

__all__ = ["IndexStats", "index_shelf", "STATE_KEY", "index_stage"]


class IndexStats(BaseModel):
    """What one index update did and how long it took."""

    lexical_documents: int = Field(description="Documents (re)indexed in whoosh.")
    lexical_sections: int = Field(description="Sections added to whoosh.")
    lexical_seconds: float = Field(description="Wall time of the whoosh update.")
    vectors: VectorStats = Field(description="Passages and embeddings written.")
    dense_seconds: float = Field(description="Wall time of passage building, embedding and vec0 writes.")
    removed_documents: int = Field(description="Documents dropped from the indexes.")


def _captions(store, doc_id: str) -> dict[str, list[str]]:
    captions: dict[str, list[str]] = {}
    for figure in store.figures(doc_id):
        text = " ".join(part for part in (figure.caption, figure.description or "") if part)
        if text.strip():
            captions.setdefault(figure.section_id, []).append(text)
    return captions


STATE_KEY = "index_state"


def _key(row) -> str:
    return f"{row['content_hash']}:{row['settings_hash']}"


def _indexed_state(store, documents: dict, trusted: set[str], model_id: str) -> dict[str, str]:
    """doc id -> the key it was indexed from; a store indexed before the record existed trusts what both indexes hold."""
    raw = store.get_meta(STATE_KEY)
    if raw is None:
        return {d: _key(documents[d]) for d in trusted}
    state = json.loads(raw)
    return state.get("docs", {}) if state.get("embedder") == model_id else {}


def index_shelf(
    store,
    index_dir: Path,
    embedder: Embedder,
    changed_doc_ids: Iterable[str],
    removed_doc_ids: Iterable[str],
    progress: Callable[[str], None] | None = None,
) -> IndexStats:
    """Bring the lexical index at ``index_dir`` and the store's dense index up to date with the store."""
    documents = {row["doc_id"]: row for row in store.documents()}
    changed = set(changed_doc_ids) & set(documents)
    removed = set(removed_doc_ids) - set(documents)

    in_lexical = indexed_doc_ids(Path(index_dir))
    have = passage_doc_ids(store, embedder.model_id)
    state = _indexed_state(store, documents, set(documents) & in_lexical & have, embedder.model_id)
    stale = {d for d, row in documents.items() if state.get(d) != _key(row)}
    previous = json.loads(store.get_meta(STATE_KEY) or "{}").get("embedder")
    if previous and previous != embedder.model_id and progress:
        progress(f"indexes: the store was embedded with {previous}; re-embedding every passage with {embedder.model_id}")

    started = time.perf_counter()
    lexical_todo = sorted(changed | stale | (set(documents) - in_lexical))
    lexical = update_lexical(
        Path(index_dir),
        ((d, documents[d]["title"], store.sections(d), _captions(store, d)) for d in lexical_todo),
        removed,
        keep_doc_ids=set(documents),
        progress=progress,
    )
    lexical_seconds = time.perf_counter() - started

    started = time.perf_counter()
    dense_todo = sorted(changed | stale | (set(documents) - have))
    vectors = update_vectors(
        store,
        embedder,
        [(d, documents[d]["title"], store.sections(d)) for d in dense_todo],
        removed | (have - set(documents)),
        progress,
    )
    dense_seconds = time.perf_counter() - started
    store.set_meta(STATE_KEY, json.dumps({"embedder": embedder.model_id, "docs": {d: _key(row) for d, row in sorted(documents.items())}}))
    if progress:
        progress(
            f"indexes: {len(lexical_todo)} documents in whoosh, {vectors.passages} passages "
            f"({vectors.embedded} embedded, {vectors.cached} cached)"
        )
    return IndexStats(
        lexical_documents=len(lexical_todo),
        lexical_sections=lexical["sections_added"],
        lexical_seconds=round(lexical_seconds, 3),
        vectors=vectors,
        dense_seconds=round(dense_seconds, 3),
        removed_documents=len(removed | (have - set(documents))),
    )


def index_stage(embedder: Embedder) -> Callable:
    """A build stage (``stage(store, out_dir, changed, removed, progress) -> (name, summary)``) running index_shelf.

    The lexical index goes to ``out_dir/lexical``.
    """

    def stage(store, out_dir: Path, changed, removed, progress=None) -> tuple[str, dict]:
        stats = index_shelf(store, Path(out_dir) / "lexical", embedder, changed, removed, progress)
        return "indexes", stats.model_dump()

    return stage
