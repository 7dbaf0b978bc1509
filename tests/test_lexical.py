"""whoosh BM25F over sections: stemming, fields, per-document updates."""

from __future__ import annotations

import pytest
from whoosh import query as whoosh_query

from shelfwise.compiler.index.indexes import index_shelf
from shelfwise.compiler.index.lexical import FIELD_BOOSTS, LexicalIndex, indexed_doc_ids
from shelfwise.compiler.store.store import Store

from search_fixtures import HashEmbedder, h, oauth_like_shelf, p, put_doc


def _section_heading(store, sid):
    return store.section(sid).heading


def test_stemmed_bm25_finds_sections_and_ignores_query_syntax(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    oauth_like_shelf(store)
    index_shelf(store, tmp_path / "lexical", HashEmbedder(), [d["doc_id"] for d in store.documents()], [])
    lexical = LexicalIndex(tmp_path / "lexical")
    top = lexical.search("expiring authorization codes")
    assert _section_heading(store, top[0][0]) == "4.1.2. Authorization Response"
    assert lexical.search('"bearer" AND token: (cache-control) OR NOT [x]')  # words, never whoosh syntax
    assert lexical.search("the of and to") == []
    assert lexical.search("日本語 über") == []
    # restricted to one document
    only = lexical.search("token", doc_ids=["rfc7519-txt"])
    assert only and all(store.section(sid).doc_id == "rfc7519-txt" for sid, _ in only)
    # the heading path field alone
    assert _section_heading(store, lexical.search("terminology", fields={"heading_path": 1.0})[0][0]) == "1.2. Terminology"
    lexical.close()


def _indexed_shelf(tmp_path):
    """The OAuth-like shelf in a store under tmp_path, its lexical and dense indexes built with the hash embedder."""
    store = Store(tmp_path / "store.sqlite")
    ids = oauth_like_shelf(store)
    embedder = HashEmbedder()
    index_shelf(store, tmp_path / "lexical", embedder, list(ids.values()), [])
    return store, ids, embedder


def test_update_replaces_a_changed_document_and_drops_a_removed_one(tmp_path):
    store, ids, embedder = _indexed_shelf(tmp_path)
    put_doc(store, "rfc7519.txt", "JSON Web Token (JWT)", [h("4.1.5. nbf Claim"), p("The nbf claim identifies the time before which the JWT MUST NOT be accepted.")])
    store.remove_document(ids["rfc6750.txt"])
    stats = index_shelf(store, tmp_path / "lexical", embedder, [ids["rfc7519.txt"]], [ids["rfc6750.txt"]])
    assert stats.lexical_documents == 1
    lexical = LexicalIndex(tmp_path / "lexical")
    assert lexical.search("audience recipients") == []
    assert _section_heading(store, lexical.search("nbf claim")[0][0]) == "4.1.5. nbf Claim"
    assert lexical.search("bearer possession") == []
    assert indexed_doc_ids(tmp_path / "lexical") == {ids["rfc6749.txt"], ids["rfc7519.txt"]}
    lexical.close()


def test_a_document_missing_from_the_index_is_healed(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    ids = oauth_like_shelf(store)
    embedder = HashEmbedder()
    index_shelf(store, tmp_path / "lexical", embedder, [ids["rfc6749.txt"]], [])
    assert indexed_doc_ids(tmp_path / "lexical") == set(ids.values())  # the others were missing: indexed too
    stats = index_shelf(store, tmp_path / "lexical", embedder, [], [])
    assert stats.lexical_documents == 0 and stats.vectors.passages == 0


def _whoosh_ranking(lexical: LexicalIndex, text: str, fields=FIELD_BOOSTS, doc_ids=None) -> list[tuple[str, float]]:
    """whoosh's own top-100 for the query LexicalIndex.search builds (one OR of field terms, BM25F)."""
    words = lexical.terms(text)
    query = whoosh_query.Or([whoosh_query.Term(f, w, boost=b) for f, b in fields.items() for w in words])
    restrict = whoosh_query.Or([whoosh_query.Term("doc_id", d) for d in doc_ids]) if doc_ids else None
    hits = lexical._searcher.search(query, limit=100, filter=restrict)
    return sorted(((hit["section_id"], float(hit.score)) for hit in hits), key=lambda item: (-item[1], item[0]))


def test_block_scores_equal_whooshs_own_bm25f_over_segments_and_deletions(tmp_path):
    """shelfwise/compiler/index/lexical_scores.py scores whole posting blocks with numpy: the ranking and scores whoosh gives."""
    store, ids, embedder = _indexed_shelf(tmp_path)
    put_doc(store, "rfc7519.txt", "JSON Web Token (JWT)", [h("4.1.5. nbf Claim"), p("The nbf claim identifies the time before which the token MUST NOT be accepted.")])
    from whoosh import index as whoosh_index
    from shelfwise.compiler.index.lexical import _section_document

    writer = whoosh_index.open_dir(str(tmp_path / "lexical")).writer()  # a second segment, the old sections deleted: an
    writer.delete_by_term("doc_id", ids["rfc7519.txt"])  # index updated by code that did not merge on commit
    for section in store.sections(ids["rfc7519.txt"]):
        writer.add_document(**_section_document("JSON Web Token (JWT)", section, []))
    writer.commit()
    lexical = LexicalIndex(tmp_path / "lexical")
    assert len(lexical._searcher.leaf_searchers()) == 2 and lexical._searcher.reader().has_deletions()
    queries = ["token", "bearer token lifetime", "authorization code expiring access token request", "nbf claim time"]
    for text in queries:
        ours = lexical.search(text)
        assert ours and [sid for sid, _ in ours] == [sid for sid, _ in _whoosh_ranking(lexical, text)], text
        assert all(abs(a - b) < 1e-9 for (_, a), (_, b) in zip(ours, _whoosh_ranking(lexical, text))), text
    heading = lexical.search("token", fields={"heading_path": 1.0})
    assert [s for s, _ in heading] == [s for s, _ in _whoosh_ranking(lexical, "token", {"heading_path": 1.0})]
    assert [score for _, score in heading] == pytest.approx([score for _, score in _whoosh_ranking(lexical, "token", {"heading_path": 1.0})])
    only = [ids["rfc7519.txt"]]
    assert [s for s, _ in lexical.search("token claim", doc_ids=only)] == [s for s, _ in _whoosh_ranking(lexical, "token claim", doc_ids=only)]
    assert lexical.search("token", limit=2) == lexical.search("token")[:2]
    kept = lexical.search("bearer token lifetime")
    lexical.forget_postings()  # read from the index again: the same ranking
    assert lexical.search("bearer token lifetime") == kept
    lexical.close()


def test_an_index_rebuilt_in_place_ranks_as_a_fresh_one(tmp_path):
    """Re-indexing every document in place leaves no replaced sections behind: whoosh counts them in its BM25
    statistics until a merge purges them, so without the merge two indexes of the same sections scored them apart
    (a shelf rebuilt eight times held 9,284 sections for 1,163 live ones). Nor is it merged: whoosh's merge recounts
    each field's total length from its byte-coded per-section lengths (about 2% off), which moved near-tied sections.
    Written afresh once the replaced sections reach a tenth, the rebuilt index scores every section as a fresh one."""
    from whoosh import index as whoosh_index

    store = Store(tmp_path / "store.sqlite")
    oauth_like_shelf(store)
    docs = [d["doc_id"] for d in store.documents()]
    index_shelf(store, tmp_path / "fresh", HashEmbedder(), docs, [])
    for _ in range(3):
        index_shelf(store, tmp_path / "rebuilt", HashEmbedder(), docs, [])
    with whoosh_index.open_dir(str(tmp_path / "rebuilt")).searcher() as searcher:
        assert searcher.doc_count_all() == searcher.doc_count()
    for query in ("expiring authorization codes", "bearer token", "client secret"):
        rebuilt, fresh = LexicalIndex(tmp_path / "rebuilt").search(query), LexicalIndex(tmp_path / "fresh").search(query)
        assert [sid for sid, _ in rebuilt] == [sid for sid, _ in fresh], query
        assert [score for _, score in rebuilt] == [score for _, score in fresh], query
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("rebuilt.")]  # no staged or replaced index left
