"""Fused search: each route, reciprocal-rank fusion, bad input, the build-dir entry point."""

from __future__ import annotations

import pytest

from compiler.errors import SearchError
from compiler.indexes import index_shelf, index_stage
from compiler.search import ShelfSearcher, document_identifiers, format_result, rrf_fuse, run_search
from compiler.store import Store

from search_fixtures import HashEmbedder, oauth_like_shelf


@pytest.fixture
def searcher(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    oauth_like_shelf(store)
    embedder = HashEmbedder()
    index_shelf(store, tmp_path / "lexical", embedder, [d["doc_id"] for d in store.documents()], [])
    searcher = ShelfSearcher(store, tmp_path / "lexical", embedder)
    yield searcher
    searcher.close()
    store.close()


def _headings(result):
    return [hit.heading for hit in result.hits]


def test_rrf_is_reciprocal_rank_with_k_60():
    fused = rrf_fuse({"a": ["x", "y"], "b": ["y", "z"]})
    assert [item for item, _ in fused] == ["y", "x", "z"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)
    assert rrf_fuse({"a": ["x"], "b": ["y"]}, weights={"a": 0.5})[0][0] == "y"


def test_identifiers_named_in_text():
    assert document_identifiers("Where does RFC 6750 cite PEP 585 and NIST SP 800-63B?") == {("rfc", "6750"), ("pep", "585"), ("sp", "800-63b")}
    assert document_identifiers("pep-0484.rst sp800-63-3/cover.md rfc7519.txt") == {("pep", "484"), ("sp", "800-63-3"), ("rfc", "7519")}
    assert document_identifiers("Python 3.9 and 10 minutes") == set()


def test_fused_hits_carry_each_routes_rank(searcher):
    result = searcher.search("What must expire shortly after it is issued?", k=5)
    top = result.hits[0]
    assert top.heading == "4.1.2. Authorization Response"
    assert set(top.ranks) >= {"bm25", "dense"}
    assert top.path == "rfc6749.txt" and top.chars > 0
    assert result.routes["named"] == 0 and result.routes["numeric"] == 0


def test_named_document_route(searcher):
    result = searcher.search("What does RFC 6750 say about tokens?", k=10)
    assert result.named_documents == ["rfc6750-txt"]
    named = [hit for hit in result.hits if "named" in hit.ranks]
    assert {hit.path for hit in named} == {"rfc6750.txt"}
    by_title = searcher.search("the JSON Web Token (JWT) spec", k=3)
    assert by_title.named_documents == ["rfc7519-txt"]


def test_heading_figure_and_numeric_routes(searcher):
    heading = searcher.route_heading("What is an access token?")
    assert [searcher.sections[sid][1] for sid in heading] == ["1.4. Access Token"]
    figures = searcher.route_figures("the authorization code flow diagram")
    assert [searcher.sections[sid][1] for sid in figures] == ["4.1. Authorization Code Grant"]
    assert searcher.route_figures("flow") == []  # one shared word is not enough
    numeric = searcher.route_numeric("is 10 minutes the limit?")
    assert [searcher.sections[sid][1] for sid in numeric] == ["4.1.2. Authorization Response"]
    assert searcher.route_numeric("what does RFC 6750 say") == []  # an identifier is not a number


def test_bad_input_gives_a_clear_error_or_results(searcher):
    for empty in ("", "   \n\t"):
        with pytest.raises(SearchError, match="empty query: give words to search for"):
            searcher.search(empty)
    with pytest.raises(SearchError, match="unknown search route"):
        searcher.search("token", routes=("bm25", "magic"))
    huge = searcher.search("bearer token " * 1000, k=3)
    assert huge.truncated and len(huge.query) <= 2000 and huge.warnings == [f"query cut to its first {len(huge.query)} characters (limit 2000)"]
    assert huge.hits[0].heading in {"1.2. Terminology", "2.3. URI Query Parameter"}
    stop = searcher.search("the of and to", k=3)
    assert stop.routes["bm25"] == 0  # nothing lexical; dense may still answer
    for text in ("认证令牌的有效期是多久？", "Как долго действует токен?", "🔑🔑", "\x00 NUL"):
        assert isinstance(searcher.search(text, k=3).hits, list)


def test_run_search_on_a_build_dir_and_the_stage(tmp_path):
    build = tmp_path / "build" / "oauth"
    store = Store(build / "store.sqlite")
    oauth_like_shelf(store)
    name, summary = index_stage(HashEmbedder())(store, build, [d["doc_id"] for d in store.documents()], [], None)
    store.close()
    assert name == "indexes" and summary["vectors"]["passages"] == 8
    result = run_search(build, "bearer token in the URI query", k=3, embedder=HashEmbedder())
    assert result.hits[0].heading == "2.3. URI Query Parameter"
    text = format_result(result)
    assert text.splitlines()[0].startswith("  1. s") and "rfc6750.txt  2.3. URI Query Parameter  [" in text
    with pytest.raises(SearchError, match="run 'shelfwise build"):
        run_search(tmp_path / "nothing-here", "token", embedder=HashEmbedder())
