"""Where a build's per-document conversion and batch embedding run: here (serial) or on a Ray cluster.

``shelfwise build SHELF --executor ray [--address ADDR]`` sends each changed document's conversion and each
batch of passages to embed to Ray (an existing engine: its scheduler, object store and task retries, no
home-made one), and writes every result through the same store path as the serial build, in the same order,
so the two stores hold the same section trees, passages and links.

- Conversion: the document's *bytes* travel with the task (a worker on another machine needs no shared disk),
  are written under their own file name in a temporary folder there, and read by ``convert_file``. A reader's
  ConversionError comes back as a value and is reported like a serial failure. A worker that dies (killed,
  out of memory, machine lost) is retried by Ray (``max_retries``) on another worker: the build resumes.
- Embedding: ``RayEmbedder`` wraps the configured embedder; each batch it is given is split into the base
  embedder's batch size and embedded in parallel, by workers that build the embedder from the settings once
  and keep it loaded. PDF window checkpoints stay a serial-build feature: on Ray the unit of retry is a document.

Ray is an optional extra (``pip install shelfwise[ray]``); asking for it without it installed says so.
"""

from __future__ import annotations

import os
import tempfile
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shelfwise.compiler.ingest.convert import ReadOptions, convert_file
from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.errors import ConversionError, ShelfwiseError

__all__ = ["RayExecutor", "RayEmbedder", "make_executor", "EXECUTORS", "MAX_RETRIES"]

EXECUTORS = ("serial", "ray")
MAX_RETRIES = 3
"""Times Ray reruns a task whose worker died before it finished."""


def _import_ray():
    try:
        import ray
    except ImportError as exc:
        raise ShelfwiseError("--executor ray needs Ray: install it with pip install 'shelfwise[ray]'") from exc
    return ray


def _convert_bytes(name: str, data: bytes, options: dict, convert: Callable) -> Any:
    """Runs on a Ray worker: the document written under its own name, converted; a ConversionError is returned."""
    with tempfile.TemporaryDirectory(prefix="shelfwise-ray-") as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            return convert(path, ReadOptions(**options))
        except ConversionError as exc:
            return exc


_EMBEDDERS: dict[str, Embedder] = {}


def _embed(settings_json: str, texts: list[str]) -> list[list[float]]:
    """Runs on a Ray worker: the embedder the settings name (built once per worker process) embeds ``texts``."""
    if settings_json not in _EMBEDDERS:
        from shelfwise.compiler.index.embedders import embedder_from_settings
        from shelfwise.compiler.settings import Settings

        _EMBEDDERS[settings_json] = embedder_from_settings(Settings.model_validate_json(settings_json))
    return _EMBEDDERS[settings_json].embed_batch(texts)


class RayExecutor:
    """Conversion and embedding tasks on a Ray cluster (``address``), or on a local one started here."""

    def __init__(self, address: str | None = None, *, num_cpus: int | None = None, convert: Callable = convert_file,
                 max_retries: int = MAX_RETRIES):
        self.ray = _import_ray()
        self._started_here = not self.ray.is_initialized()
        if self._started_here:
            init: dict[str, Any] = {"address": address, "include_dashboard": False, "log_to_driver": False}
            if address is None:
                init["num_cpus"] = num_cpus
                # Ray starts workers at nice 15, behind every other process: on a shared machine a model took 90 s to
                # load instead of 8. The build's work is the workers' work, so a cluster started here runs them at 0.
                os.environ.setdefault("RAY_worker_niceness", "0")
            try:
                self.ray.init(**init)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise ShelfwiseError(f"could not reach the Ray cluster at {address or 'a new local cluster'}: {exc}; "
                                     "start one with 'ray start --head' or drop --address") from exc
        self._convert_task = self.ray.remote(max_retries=max_retries)(_convert_bytes)
        self._embed_task = self.ray.remote(max_retries=max_retries)(_embed)
        self.convert = convert
        self.max_retries = max_retries

    @property
    def cpus(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def prefetch(self, jobs: list[tuple[Path, ReadOptions]]) -> Callable[[Path, ReadOptions], Any]:
        """Start converting ``jobs`` (in the order the build stores them); returns ``convert(path, options)`` that
        waits for that document's result. At most 4 tasks per CPU are in flight (bytes are read as they go out),
        so a large shelf's files are never all in memory at once."""
        queue = deque(jobs)
        window = max(8, 4 * self.cpus)
        pending: dict[str, Any] = {}

        def submit_until(count: int) -> None:
            while queue and len(pending) < count:
                path, options = queue.popleft()
                plain = options.model_dump(exclude={"progress", "checkpoint_dir"})
                pending[str(path)] = self._convert_task.remote(path.name, path.read_bytes(), plain, self.convert)

        submit_until(window)

        def result(path: Path, options: ReadOptions):
            ref = pending.pop(str(path), None)
            if ref is None:  # not among the jobs (cannot happen through build_shelf): convert here
                return convert_file(path, options)
            submit_until(window)
            try:
                value = self.ray.get(ref)
            except self.ray.exceptions.RayError as exc:
                raise ConversionError(f"the Ray task converting it failed after {self.max_retries} retries: {exc}") from exc
            if isinstance(value, ConversionError):
                raise value
            return value

        return result

    def embed(self, settings_json: str, batches: list[list[str]]) -> list[list[list[float]]]:
        """Each batch embedded by a task, all in parallel; results in batch order."""
        return self.ray.get([self._embed_task.remote(settings_json, batch) for batch in batches])

    def shutdown(self) -> None:
        """Stop the local cluster this executor started (a cluster reached by address is left running)."""
        if self._started_here and self.ray.is_initialized():
            self.ray.shutdown()


class RayEmbedder(Embedder):
    """The configured embedder, with indexing batches spread over Ray workers (queries still embed locally)."""

    def __init__(self, base: Embedder, executor: RayExecutor, settings_json: str):
        self.base = base
        self.executor = executor
        self.settings_json = settings_json
        self.model_id, self.dimensions = base.model_id, base.dimensions
        self.window_tokens, self.passage_chars = base.window_tokens, base.passage_chars
        self.batch_size = base.batch_size * executor.cpus * 4  # enough work per call to keep every worker busy

    def count_tokens(self, text: str) -> int:
        return self.base.count_tokens(text)

    def embed_batch(self, texts: list[str]) -> list[list[float]]:
        size = self.base.batch_size
        vectors: list[list[float]] = []
        for batch in self.executor.embed(self.settings_json, [texts[i : i + size] for i in range(0, len(texts), size)]):
            vectors.extend(batch)
        return vectors


def make_executor(name: str, address: str | None = None) -> RayExecutor | None:
    """None for 'serial'; a RayExecutor for 'ray' (on ``address``, or a local cluster of this machine's CPUs)."""
    if name == "serial":
        if address:
            raise ShelfwiseError("--address only applies to --executor ray")
        return None
    if name == "ray":
        return RayExecutor(address)
    raise ShelfwiseError(f"unknown executor {name!r}; choose one of {', '.join(EXECUTORS)}")
