"""Conversion and embedding on Ray: a local 2-CPU cluster builds a store equal in content to the serial build,
and a worker that dies mid-conversion is retried by Ray (the build finishes with every document)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from shelfwise.compiler.build import build_shelf, current_build, default_stages
from shelfwise.compiler.ingest.convert import convert_file
from shelfwise.compiler.executors import RayExecutor, make_executor
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.store.store import Store
from shelfwise.eval.synth import generate_shelf

ray = pytest.importorskip("ray")
DOCS = 6


@pytest.fixture(scope="module")
def cluster():
    RayExecutor(num_cpus=2)  # a local 2-CPU cluster, the executors below find it running
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def shelf(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("shelves") / "raysynth"
    specs = generate_shelf(folder, DOCS, seed=3)
    assert {spec.fmt for spec in specs} == {"markdown", "pdf", "docx", "html", "xlsx"}
    return folder


def _content(build_root: Path) -> dict:
    store = Store(current_build(build_root) / "store.sqlite", create=False)
    try:
        sections = [(s.id, s.doc_id, s.parent_id, s.seq, s.level, s.heading, s.heading_path, s.text, s.page_start)
                    for s in store.sections()]
        passages = [tuple(r) for r in store.db.execute(
            "SELECT doc_id, section_id, ordinal, text, text_hash FROM passages ORDER BY doc_id, section_id, ordinal")]
        links = [tuple(r) for r in store.db.execute("SELECT * FROM links ORDER BY id")]
        vectors = [np.frombuffer(r[0], dtype=np.float32) for r in store.db.execute("SELECT vector FROM embedding_cache ORDER BY text_hash")]
        documents = [(r["doc_id"], r["path"], r["title"], r["n_sections"], r["n_tables"]) for r in store.documents()]
    finally:
        store.close()
    return {"documents": documents, "sections": sections, "passages": passages, "links": links, "vectors": vectors}


def _build(shelf: Path, build_dir: Path, executor=None):
    settings = Settings(build_dir=build_dir)
    return build_shelf(shelf, settings, progress=lambda _l: None, stages=default_stages(settings, executor=executor), executor=executor)


@pytest.fixture(scope="module")
def serial(shelf, tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("serial")
    report = _build(shelf, folder)
    assert [d.status for d in report.documents] == ["converted"] * DOCS
    return _content(folder / "raysynth")


def test_ray_build_equals_serial_build(cluster, shelf, serial, tmp_path):
    executor = RayExecutor()
    assert executor.cpus == 2
    report = _build(shelf, tmp_path, executor)
    assert [d.status for d in report.documents] == ["converted"] * DOCS
    distributed = _content(tmp_path / "raysynth")
    assert serial["documents"] == distributed["documents"]
    assert serial["sections"] == distributed["sections"] and len(serial["sections"]) > 50
    assert serial["passages"] == distributed["passages"]
    assert serial["links"] == distributed["links"] and len(serial["links"]) > 10
    assert len(serial["vectors"]) == len(distributed["vectors"])
    assert all(np.allclose(x, y, atol=1e-4) for x, y in zip(serial["vectors"], distributed["vectors"]))


def test_ray_retries_a_conversion_whose_worker_died(cluster, shelf, serial, tmp_path):
    mark = tmp_path / "died"

    def dies_once(path, options):
        """The first attempt at the Word document kills its worker process outright (as the OOM killer would)."""
        if path.suffix == ".docx" and not mark.exists():
            mark.write_text(str(os.getpid()))
            os._exit(1)
        return convert_file(path, options)

    report = _build(shelf, tmp_path, RayExecutor(convert=dies_once))
    assert mark.exists()
    assert [d.status for d in report.documents] == ["converted"] * DOCS
    assert _content(tmp_path / "raysynth")["sections"] == serial["sections"]


def test_a_worker_that_keeps_dying_fails_only_its_document(cluster, shelf, tmp_path):
    def always_dies(path, options):
        if path.suffix == ".xlsx":
            os._exit(1)
        return convert_file(path, options)

    report = _build(shelf, tmp_path, RayExecutor(convert=always_dies, max_retries=1))
    failed = {d.path: d.reason for d in report.documents if d.status == "failed"}
    assert len(failed) == 1 and next(iter(failed)).endswith(".xlsx")
    assert next(iter(failed.values())).startswith("the Ray task converting it failed after 1 retries")
    assert report.count("converted") == DOCS - 1


def test_executor_choice_is_checked():
    assert make_executor("serial") is None
    with pytest.raises(ShelfwiseError, match="--address only applies to --executor ray"):
        make_executor("serial", "auto")
    with pytest.raises(ShelfwiseError, match="unknown executor 'dask'"):
        make_executor("dask")
