"""The local all-MiniLM-L6-v2 backends by name, and which embedder can search a given store.

    torch       LocalMiniLM (sentence-transformers on torch)      model id local:all-MiniLM-L6-v2
    onnx        OnnxMiniLM, float32 (ONNX Runtime)                model id local:all-MiniLM-L6-v2:onnx
    onnx-int8   OnnxMiniLM, blockwise int8 weights (ONNX Runtime) model id local:all-MiniLM-L6-v2:onnx-int8b

A store records the model id it was indexed with (meta ``index_state``). Query vectors must come from that
model: ``embedder_for_store`` hands back the configured embedder when it matches, the store's own local backend
(with a warning naming the fix) when both are local backends, and otherwise the configured one with a warning that
the store's dense search finds nothing until it is re-embedded. A store embedded by a local recipe no longer
produced (RETIRED_MODEL_IDS) gets that message with the recipe named and the build that re-embeds it.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

from shelfwise.compiler.errors import EmbeddingError
from shelfwise.compiler.index.embedders import Embedder, LocalMiniLM

__all__ = ["LOCAL_MODEL_IDS", "RETIRED_MODEL_IDS", "local_embedder", "stored_model_id", "embedder_for_store"]

log = logging.getLogger("shelfwise.search")

LOCAL_MODEL_IDS = {
    "torch": "local:all-MiniLM-L6-v2",
    "onnx": "local:all-MiniLM-L6-v2:onnx",
    "onnx-int8": "local:all-MiniLM-L6-v2:onnx-int8b",
}
"""embeddings.backend -> the model id its vectors are stored and cached under."""

RETIRED_MODEL_IDS = {
    "local:all-MiniLM-L6-v2:onnx-int8": "the earlier 'onnx-int8' recipe (int8 per whole activation tensor, replaced by blockwise int8)",
}
"""Model ids of local recipes no longer produced -> what they were: a store embedded with one is re-embedded by a build."""

_SHARED: dict[tuple[str, str], LocalMiniLM] = {}
_SHARED_LOCK = threading.Lock()


def local_embedder(backend: str, *, cache_dir: Path, threads: int | None = 1) -> LocalMiniLM:
    """A new embedder for ``backend`` (a key of LOCAL_MODEL_IDS); ``threads`` applies to torch (ONNX batches use every core)."""
    if backend == "torch":
        embedder = LocalMiniLM(threads=threads)
    elif backend in ("onnx", "onnx-int8"):
        from shelfwise.compiler.index.onnx_minilm import OnnxMiniLM

        embedder = OnnxMiniLM(cache_dir, quantized=backend == "onnx-int8")
        embedder.threads = threads  # torch's, for a store this embedder falls back to the torch backend on
    else:
        raise EmbeddingError(f"unknown embeddings.backend {backend!r}; use one of {', '.join(LOCAL_MODEL_IDS)}")
    embedder.cache_dir = Path(cache_dir)
    return embedder


def stored_model_id(store) -> str | None:
    """The model id the store's dense index was last built with (None: a store indexed before that was recorded)."""
    from shelfwise.compiler.index.indexes import STATE_KEY

    raw = store.get_meta(STATE_KEY)
    return json.loads(raw).get("embedder") if raw else None


def embedder_for_store(store, embedder: Embedder | None, *, name: str = "the shelf") -> Embedder | None:
    """The embedder whose query vectors match the store's passages (see the module docstring)."""
    stored = stored_model_id(store)
    if embedder is None or stored is None or stored == embedder.model_id:
        return embedder
    backend = next((b for b, model_id in LOCAL_MODEL_IDS.items() if model_id == stored), None)
    if backend is not None and isinstance(embedder, LocalMiniLM):
        configured = next((b for b, model_id in LOCAL_MODEL_IDS.items() if model_id == embedder.model_id), embedder.model_id)
        log.warning("%s was embedded with the %r backend (%s), not the configured %r: searching it with %r; "
                    "run 'shelfwise build' on it to re-embed it with %r", name, backend, stored, configured, backend, configured)
        cache_dir = getattr(embedder, "cache_dir", None) or Path("build") / ".embedders"
        with _SHARED_LOCK:
            key = (backend, str(cache_dir))
            if key not in _SHARED:
                _SHARED[key] = local_embedder(backend, cache_dir=cache_dir, threads=embedder.threads)
            return _SHARED[key]
    if stored in RETIRED_MODEL_IDS:
        log.warning("%s was embedded with %s, %s, which is no longer produced: its dense search finds nothing until "
                    "'shelfwise build' re-embeds it with %s", name, stored, RETIRED_MODEL_IDS[stored], embedder.model_id)
        return embedder
    log.warning("%s was embedded with %s, but the configured embedder is %s: its dense search finds nothing until the "
                "embeddings it was built with are configured, or 'shelfwise build' re-embeds it", name, stored, embedder.model_id)
    return embedder
