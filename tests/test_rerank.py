"""Listwise reranking (search.rerank_model) with recorded replies through the real openai client."""

from __future__ import annotations

import httpx
import pytest

from shelfwise.compiler.index.indexes import index_shelf
from shelfwise.compiler.models import ChatModel, make_client
from shelfwise.compiler.search.rerank import Reranker, reranker_from_settings
from shelfwise.compiler.search.search import ShelfSearcher
from shelfwise.compiler.settings import ModelSettings, Settings
from shelfwise.compiler.store.store import Store

from claimshelf import Replay
from search_fixtures import HashEmbedder, oauth_like_shelf

QUERY = "How long may an authorization code live?"


@pytest.fixture
def shelf(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    oauth_like_shelf(store)
    index_shelf(store, tmp_path / "lexical", HashEmbedder(), [d["doc_id"] for d in store.documents()], [])
    yield store, tmp_path / "lexical"
    store.close()


def _searcher(shelf, replay: Replay | None, depth: int = 50) -> ShelfSearcher:
    store, lexical = shelf
    reranker = None
    if replay is not None:
        client = make_client(ModelSettings(base_url="http://127.0.0.1:9/v1", max_retries=0, timeout_s=5),
                             http_client=httpx.Client(transport=httpx.MockTransport(replay)))
        reranker = Reranker(ChatModel(client, "rerank-test"), depth=depth)
    return ShelfSearcher(store, lexical, HashEmbedder(), reranker=reranker)


def test_a_listwise_reply_reorders_the_fused_top_and_keeps_the_rest(shelf):
    plain = _searcher(shelf, None)
    fused = plain.search(QUERY, k=5)
    plain.close()
    replay = Replay("rerank_listwise")
    searcher = _searcher(shelf, replay)
    try:
        result = searcher.search(QUERY, k=5)
    finally:
        searcher.close()
    ids = [h.section_id for h in fused.hits]
    assert [h.section_id for h in result.hits] == [ids[2], ids[0], ids[1], *ids[3:]]
    assert [h.ranks.get("rerank") for h in result.hits[:3]] == [1, 2, 3]
    assert [h.score for h in result.hits] == [h.score for h in fused.hits]  # the fused scores, handed out in the new order
    assert result.warnings == []
    shown = replay.messages(0)
    assert f"Query: {QUERY}" in shown
    assert "[2] The OAuth 2.0 Authorization Framework > 4.1. Authorization Code Grant > 4.1.2. Authorization Response\n" in shown
    assert "A maximum authorization code lifetime of 10 minutes is RECOMMENDED." in shown  # the section's best passage


def test_a_garbage_or_failing_reranker_keeps_the_fused_order_with_a_warning(shelf):
    plain = _searcher(shelf, None)
    fused = [h.section_id for h in plain.search(QUERY, k=5).hits]
    plain.close()
    searcher = _searcher(shelf, Replay("rerank_garbage"))
    try:
        prose = searcher.search(QUERY, k=5)
        numbers = searcher.search(QUERY, k=5)
    finally:
        searcher.close()
    assert [h.section_id for h in prose.hits] == fused and [h.section_id for h in numbers.hits] == fused
    assert prose.warnings == ["reranker rerank-test gave no usable ranking ('The best section is probably the first one.'); the fused order is kept"]
    assert numbers.warnings[0].startswith("reranker rerank-test gave no usable ranking")
    down = _searcher(shelf, Replay("rerank_down"))
    try:
        failed = down.search(QUERY, k=5)
    finally:
        down.close()
    assert [h.section_id for h in failed.hits] == fused
    assert failed.warnings[0].startswith("reranker rerank-test failed (model rerank-test failed: InternalServerError")
    assert failed.warnings[0].endswith("; the fused order is kept")


def test_the_reranker_is_off_unless_a_model_is_set():
    assert reranker_from_settings(Settings()) is None
    settings = Settings(models={"base_url": "http://127.0.0.1:9/v1"}, search={"rerank_model": "small-ranker", "rerank_depth": 20})
    reranker = reranker_from_settings(settings)
    assert reranker.chat.model == "small-ranker" and reranker.depth == 20
