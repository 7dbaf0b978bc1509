"""The ONNX Runtime backends of all-MiniLM-L6-v2: the export agrees with torch, is cached offline, and a store keeps
the backend it was embedded with (searched with it, or re-embedded by a build, with a message saying which)."""

from __future__ import annotations

import logging
import os

import numpy as np
import pytest

from shelfwise.compiler.errors import EmbeddingError
from shelfwise.compiler.index.backends import LOCAL_MODEL_IDS, embedder_for_store, local_embedder, stored_model_id
from shelfwise.compiler.index.embedders import LocalMiniLM, embedder_from_settings
from shelfwise.compiler.index.indexes import index_shelf
from shelfwise.compiler.index.onnx_minilm import OnnxMiniLM, export_onnx, physical_cores
from shelfwise.compiler.search.search import ShelfSearcher
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.store.store import Store

from search_fixtures import HashEmbedder, oauth_like_shelf

SENTENCES = [
    "How long is an authorization code valid once it is issued?",
    "The authorization server MUST NOT issue a refresh token when the client uses the implicit grant.",
    "A maximum authorization code lifetime of 10 minutes is RECOMMENDED.",
    "The Internet Assigned Numbers Authority maintains the registry of OAuth parameters.",
    "GNU make\nRules > Pattern Rules\n\nA pattern rule contains the character '%' (exactly one of them) in the target; "
    "otherwise, it looks exactly like an ordinary rule.",
    "Revenue for the quarter was $82.96 billion, down 1% year over year, with services up 8%.",
    "ok",
    # longer than the model's 256-token window: both backends read its first 256 tokens
    " ".join(["The client authenticates with the authorization server when making requests to the token endpoint."] * 24),
]


@pytest.fixture(scope="module")
def onnx_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("embedders")


@pytest.fixture(scope="module")
def torch_vectors():
    return np.asarray(LocalMiniLM().embed_batch(SENTENCES))


def test_the_float32_export_agrees_with_torch_on_real_sentences(onnx_cache, torch_vectors):
    onnx = OnnxMiniLM(onnx_cache, quantized=False)
    assert onnx.model_id == "local:all-MiniLM-L6-v2:onnx"
    batch = np.asarray(onnx.embed_batch(SENTENCES))  # sorted by length, padded per batch
    one_by_one = np.asarray([onnx.embed_batch([s])[0] for s in SENTENCES])  # the one-thread query session
    for vectors in (batch, one_by_one):
        assert vectors.shape == (len(SENTENCES), 384)
        cosines = (vectors * torch_vectors).sum(axis=1) / np.linalg.norm(vectors, axis=1) / np.linalg.norm(torch_vectors, axis=1)
        assert cosines.min() > 0.999, cosines


def test_texts_run_shortest_first_in_runs_of_at_most_one_window_of_token_slots(tmp_path):
    onnx = OnnxMiniLM(tmp_path, quantized=False)
    assert onnx.run_tokens == onnx.window_tokens == 256
    lengths = [256, 10, 12, 90, 11, 256, 64, 9, 70, 130]
    runs = onnx._runs(lengths)
    assert runs == [[7, 1, 4, 2], [6, 8], [3], [9], [0], [5]]  # 4 x 12 = 48 slots; then 2 x 70; 2 x 130 would be 260
    assert all(len(run) * max(lengths[i] for i in run) <= 256 for run in runs)
    assert onnx._runs([400]) == [[0]]  # one text longer than the budget still runs (the tokenizer cuts it at the window)


def test_batches_use_one_thread_per_physical_core(tmp_path):
    sysfs = tmp_path / "cpu"
    for cpu, (package, core) in enumerate([(0, 0), (0, 0), (0, 1), (0, 1), (1, 0)]):  # two hyperthreads on each of 2 cores, + 1
        topology = sysfs / f"cpu{cpu}" / "topology"
        topology.mkdir(parents=True)
        (topology / "physical_package_id").write_text(f"{package}\n")
        (topology / "core_id").write_text(f"{core}\n")
    assert physical_cores({0, 1, 2, 3, 4}, sysfs) == 3
    assert physical_cores({0, 1}, sysfs) == 1  # the process may run on one core's two hyperthreads
    assert physical_cores({0, 7}, sysfs) == 2  # cpu7's topology cannot be read: every CPU counts
    assert OnnxMiniLM(tmp_path, quantized=False).batch_threads == physical_cores()
    assert OnnxMiniLM(tmp_path, quantized=False, threads=3).batch_threads == 3


def test_the_int8_backend_stays_close_to_torch_and_ranks_alike(onnx_cache, torch_vectors):
    onnx = OnnxMiniLM(onnx_cache, quantized=True)
    assert onnx.model_id == "local:all-MiniLM-L6-v2:onnx-int8b"
    vectors = np.asarray(onnx.embed_batch(SENTENCES))
    cosines = (vectors * torch_vectors).sum(axis=1)
    # blockwise int8 (the per-tensor recipe it replaced: min 0.96, mean 0.99)
    assert cosines.min() > 0.99 and cosines.mean() > 0.998, cosines  # the two-letter text moves most (0.994)
    # the question's nearest sentence is the same under both
    assert int(np.argmax(vectors[1:] @ vectors[0])) == int(np.argmax(torch_vectors[1:] @ torch_vectors[0])) == 1
    one_by_one = np.asarray([onnx.embed_batch([s])[0] for s in SENTENCES])  # a query: per-token blocks, so batching changes little
    assert (one_by_one * vectors).sum(axis=1).min() > 0.999


def test_the_export_is_cached_and_reused_offline(onnx_cache):
    assert os.environ.get("HF_HUB_OFFLINE") == "1"  # shelfwise.compiler.offline.prepare: no model hub
    path = export_onnx(onnx_cache, quantized=False)
    before = {p.name: p.stat().st_mtime_ns for p in onnx_cache.iterdir()}
    assert path.name in before and not any(name.endswith(".partial") for name in before)
    again = OnnxMiniLM(onnx_cache, quantized=False)
    assert len(again.embed_batch(["a cached export loads without exporting"])[0]) == 384
    assert {p.name: p.stat().st_mtime_ns for p in onnx_cache.iterdir()} == before  # nothing exported again
    other = onnx_cache.parent / "another-build" / ".embedders"
    linked = export_onnx(other, quantized=False)  # another build folder in this process: the same file, linked
    assert linked.name == path.name and linked.stat().st_size == path.stat().st_size


def test_a_corrupt_cached_export_is_named(tmp_path, onnx_cache):
    path = export_onnx(onnx_cache, quantized=False)
    broken = tmp_path / path.name
    broken.write_bytes(b"not a model")
    with pytest.raises(EmbeddingError, match=f"cannot load the ONNX model {broken}.*delete it and it is exported again"):
        OnnxMiniLM(tmp_path, quantized=False).embed_batch(["x"])


def test_settings_choose_the_backend_and_its_cache_beside_the_build(tmp_path):
    assert embedder_from_settings(Settings(build_dir=tmp_path / "b")).model_id == "local:all-MiniLM-L6-v2:onnx-int8b"  # the default
    for backend, model_id in LOCAL_MODEL_IDS.items():
        embedder = embedder_from_settings(Settings(build_dir=tmp_path / "b", embeddings={"backend": backend}))
        assert embedder.model_id == model_id
        assert embedder.cache_dir == tmp_path / "b" / ".embedders"
    chosen = embedder_from_settings(Settings(embeddings={"backend": "onnx", "cache_dir": str(tmp_path / "c")}))
    assert chosen.cache_dir == tmp_path / "c"


def test_a_store_embedded_with_torch_is_searched_with_torch_then_re_embedded_by_a_build(tmp_path, onnx_cache, caplog):
    store = Store(tmp_path / "store.sqlite")
    ids = oauth_like_shelf(store)
    index_shelf(store, tmp_path / "lexical", LocalMiniLM(), list(ids.values()), [])
    assert stored_model_id(store) == "local:all-MiniLM-L6-v2"

    onnx = local_embedder("onnx-int8", cache_dir=onnx_cache)
    with caplog.at_level(logging.WARNING, logger="shelfwise.search"):
        searcher = ShelfSearcher(store, tmp_path / "lexical", onnx)
    assert searcher.embedder.model_id == "local:all-MiniLM-L6-v2"
    assert (f"the store {tmp_path} was embedded with the 'torch' backend (local:all-MiniLM-L6-v2), not the configured "
            f"'onnx-int8': searching it with 'torch'; run 'shelfwise build' on it to re-embed it with 'onnx-int8'") in caplog.text
    assert searcher.dense.sections(searcher.query_vector("how long does an access token last"))  # vectors match: found
    searcher.close()

    lines: list[str] = []
    stats = index_shelf(store, tmp_path / "lexical", onnx, [], [], progress=lines.append)
    assert ("indexes: the store was embedded with local:all-MiniLM-L6-v2; re-embedding every passage with "
            "local:all-MiniLM-L6-v2:onnx-int8b") in lines
    assert stats.vectors.embedded == stats.vectors.passages == 8
    assert stored_model_id(store) == "local:all-MiniLM-L6-v2:onnx-int8b"
    assert embedder_for_store(store, onnx) is onnx


def test_a_store_embedded_with_another_model_is_named_with_the_fix(tmp_path, caplog):
    store = Store(tmp_path / "store.sqlite")
    ids = oauth_like_shelf(store)
    index_shelf(store, tmp_path / "lexical", HashEmbedder(), list(ids.values()), [])
    configured = LocalMiniLM()
    with caplog.at_level(logging.WARNING, logger="shelfwise.search"):
        assert embedder_for_store(store, configured, name="shelf 'oauth'") is configured
    assert ("shelf 'oauth' was embedded with test:hash, but the configured embedder is local:all-MiniLM-L6-v2: its dense search finds "
            "nothing until the embeddings it was built with are configured, or 'shelfwise build' re-embeds it") in caplog.text


def test_a_store_embedded_with_the_retired_int8_recipe_is_named_and_re_embedded_by_a_build(tmp_path, onnx_cache, caplog):
    store = Store(tmp_path / "store.sqlite")
    ids = oauth_like_shelf(store)
    retired = HashEmbedder(model_id="local:all-MiniLM-L6-v2:onnx-int8")  # vectors under the earlier recipe's model id
    index_shelf(store, tmp_path / "lexical", retired, list(ids.values()), [])
    onnx = local_embedder("onnx-int8", cache_dir=onnx_cache)
    with caplog.at_level(logging.WARNING, logger="shelfwise.search"):
        assert embedder_for_store(store, onnx, name="shelf 'oauth'") is onnx
    assert ("shelf 'oauth' was embedded with local:all-MiniLM-L6-v2:onnx-int8, the earlier 'onnx-int8' recipe (int8 per whole "
            "activation tensor, replaced by blockwise int8), which is no longer produced: its dense search finds nothing until "
            "'shelfwise build' re-embeds it with local:all-MiniLM-L6-v2:onnx-int8b") in caplog.text
    stats = index_shelf(store, tmp_path / "lexical", onnx, [], [], progress=lambda line: None)
    assert stats.vectors.embedded == stats.vectors.passages == 8
    assert stored_model_id(store) == "local:all-MiniLM-L6-v2:onnx-int8b"
