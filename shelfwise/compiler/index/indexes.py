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

__all__ = ["IndexStats", "index_shelf", "STATE_KEY", "LEXICAL_FORMAT", "index_stage", "search_title"]


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
LEXICAL_FORMAT_KEY = "lexical_format"
LEXICAL_FORMAT = "2"
"""Bump when what a section's lexical fields hold changes, so every document is re-indexed in whoosh (not embedded
again). 2: the title field holds the document's identity (see ``search_title``); the store's meta keeps the title each
document was indexed under, so a document whose identity changes is re-indexed too."""


def search_title(title: str, identity) -> str:
    """The title field every section of a document is searched by: its reader's title and everything its identity
    says it is — the one name, issuer and aliases, form, period and fiscal quarter ("Apple Inc. 10-Q, quarter ended June
    25, 2022 Q3 2022 Apple AAPL"), so a question naming the issuer and quarter finds the document's sections without
    a running page line in their text (a 10-Q's metadata title is an accession number)."""
    if identity is None:
        return title
    parts = [title, identity.name, identity.title, identity.fiscal_quarter, identity.revision, *identity.aliases]
    return " ".join(dict.fromkeys(p for p in parts if p))


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
    identities = store.identities()
    titles = {d: search_title(row["title"], identities.get(d)) for d, row in documents.items()}
    indexed = json.loads(store.get_meta(LEXICAL_FORMAT_KEY) or "{}")
    indexed_titles = indexed.get("titles", {}) if isinstance(indexed, dict) and indexed.get("format") == LEXICAL_FORMAT else {}
    retitled = {d for d in documents if indexed_titles.get(d) != titles[d]}  # a new identity, or a store indexed before
    lexical_todo = sorted(changed | stale | retitled | (set(documents) - in_lexical))
    lexical = update_lexical(
        Path(index_dir),
        ((d, titles[d], store.sections(d), _captions(store, d)) for d in lexical_todo),
        removed,
        keep_doc_ids=set(documents),
        progress=progress,
        everything=lambda: ((d, titles[d], store.sections(d), _captions(store, d)) for d in sorted(documents)),
    )
    store.set_meta(LEXICAL_FORMAT_KEY, json.dumps({"format": LEXICAL_FORMAT, "titles": titles}))
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
