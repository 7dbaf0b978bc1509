"""sqlite-vec dense index: passages, the embedding cache, best-passage scoring, and the real MiniLM."""

from __future__ import annotations

import numpy as np

from shelfwise.compiler.index.embedders import LocalMiniLM
from shelfwise.compiler.index.indexes import index_shelf
from shelfwise.compiler.store.store import Store
from shelfwise.compiler.index.vectors import dense_sections, passage_matrix, vec_table

from search_fixtures import HashEmbedder, h, oauth_like_shelf, p, put_doc


def test_recompile_embeds_only_changed_passages(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    ids = oauth_like_shelf(store)
    embedder = HashEmbedder()
    first = index_shelf(store, tmp_path / "lexical", embedder, list(ids.values()), [])
    assert first.vectors.passages == first.vectors.embedded == 8
    put_doc(store, "rfc7519.txt", "JSON Web Token (JWT)", [
        h("4.1.4. \"exp\" (Expiration Time) Claim"), p("The exp claim identifies the expiration time on or after which "
                                                        "the JWT MUST NOT be accepted for processing."),
        h("4.1.3. \"aud\" (Audience) Claim"), p("Changed: the aud claim names the intended recipients."),
    ])  # fmt: skip
    embedder.texts_embedded.clear()
    second = index_shelf(store, tmp_path / "lexical", embedder, [ids["rfc7519.txt"]], [])
    assert (second.vectors.passages, second.vectors.embedded, second.vectors.cached) == (2, 1, 1)
    assert embedder.texts_embedded == ['JSON Web Token (JWT)\n4.1.3. "aud" (Audience) Claim\n\nChanged: the aud claim names the intended recipients.']
    rows = store.db.execute(f"SELECT count(*) FROM {vec_table(embedder.model_id)}").fetchone()[0]
    assert rows == store.db.execute("SELECT count(*) FROM passages").fetchone()[0] == 8


def test_removed_documents_lose_their_vectors_and_models_do_not_mix(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    ids = oauth_like_shelf(store)
    small, other = HashEmbedder(), HashEmbedder(dimensions=32, model_id="test:hash32")
    index_shelf(store, tmp_path / "lexical", small, list(ids.values()), [])
    index_shelf(store, tmp_path / "lexical", other, [], [])  # healing: every document lacks passages for this model
    store.remove_document(ids["rfc6749.txt"])
    index_shelf(store, tmp_path / "lexical", small, [], [ids["rfc6749.txt"]])
    assert store.db.execute(f"SELECT count(*) FROM {vec_table(small.model_id)}").fetchone()[0] == 4
    assert store.db.execute(f"SELECT count(*) FROM {vec_table(other.model_id)}").fetchone()[0] == 8


def _long_and_oauth_shelf(tmp_path):
    """A long section that mentions its subject only at the end, beside the OAuth-like sections, indexed with hash vectors."""
    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "long.md", "Long", [h("Mixed"), p(" ".join(["filler words about nothing"] * 30) + " zebra zebra giraffe")])
    oauth_like_shelf(store)
    embedder = HashEmbedder(window_tokens=40)
    index_shelf(store, tmp_path / "lexical", embedder, [d["doc_id"] for d in store.documents()], [])
    return store, embedder


def test_section_scores_as_its_best_passage_and_vec0_matches_numpy(tmp_path):
    store, embedder = _long_and_oauth_shelf(tmp_path)
    query = embedder.embed_batch(["zebra giraffe"])[0]
    ranked = dense_sections(store, embedder, query)
    assert store.section(ranked[0][0]).heading == "Mixed"
    assert len({sid for sid, _ in ranked}) == len(ranked)
    sections, matrix = passage_matrix(store, embedder.model_id)
    scores = matrix @ np.asarray(query, dtype=np.float32)
    best: dict[str, float] = {}
    for sid, score in zip(sections, scores):
        best[sid] = max(best.get(sid, -1.0), float(score))
    assert [sid for sid, _ in ranked] == sorted(best, key=lambda s: (-best[s], s))
    assert np.allclose([s for _, s in ranked], sorted(best.values(), reverse=True), atol=1e-5)


def test_real_minilm_on_a_handful_of_passages(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    ids = oauth_like_shelf(store)
    embedder = LocalMiniLM()
    stats = index_shelf(store, tmp_path / "lexical", embedder, list(ids.values()), [])
    assert stats.vectors.embedded == 8
    vector = embedder.embed_batch(["how long may an authorization code live?"])[0]
    assert len(vector) == 384 and abs(np.linalg.norm(vector) - 1) < 1e-3
    top = dense_sections(store, embedder, vector)[0][0]
    assert store.section(top).heading == "4.1.2. Authorization Response"


def test_dense_index_in_memory_ranks_as_vec0(tmp_path):
    from shelfwise.compiler.index.vectors import DenseIndex

    store, embedder = _long_and_oauth_shelf(tmp_path)
    index = DenseIndex(store, embedder.model_id)
    for text in ("zebra giraffe", "authorization code lifetime", "bearer token in the query string"):
        query = embedder.embed_batch([text])[0]
        by_vec0 = dense_sections(store, embedder, query)
        by_numpy = index.sections(query)
        assert [sid for sid, _ in by_numpy] == [sid for sid, _ in by_vec0]
        assert np.allclose([s for _, s in by_numpy], [s for _, s in by_vec0], atol=1e-5)
    mixed = store.db.execute("SELECT id FROM sections WHERE heading = 'Mixed'").fetchone()[0]
    passages = index.section_passages(mixed, index.scores(embedder.embed_batch(["zebra giraffe"])[0]))
    assert [ordinal for _, ordinal, _ in passages] == list(range(len(passages))) and len(passages) > 1
    assert max(passages, key=lambda item: item[2])[1] == len(passages) - 1  # the zebra is in the last passage
    assert index.sections([0.0] * embedder.dimensions) == []
