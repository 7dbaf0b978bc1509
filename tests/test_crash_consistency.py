"""A build killed at a stage boundary, then rebuilt, equals a build that was never interrupted: the same store,
indexes and search results. The build runs in a subprocess and is killed (SIGKILL) when its progress output
reaches the stage's line; nothing in the build knows it is being tested."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from answer_shelves import HashEmbedder, compile_shelf
from shelfwise.api.shelves import open_shelf
from shelfwise.compiler.store.generations import current_generation

ROOT = Path(__file__).resolve().parents[1]
V1 = {
    "pumps.md": "# Pumps\n\n## Inspection\n\nPumps must be inspected every 30 days.\n",
    "valves.md": "# Valves\n\n## Seals\n\nValve seals are replaced every spring. See Pumps.\n",
    "hoses.md": "# Hoses\n\n## Storage\n\nHoses are stored coiled in the dry room.\n",
}
V2 = {
    "pumps.md": "# Pumps\n\n## Inspection\n\nPumps must be inspected every 45 days by a technician.\n",
    "valves.md": "# Valves\n\n## Seals\n\nValve seals are replaced with graphite gaskets every autumn.\n",
    "filters.md": "# Filters\n\n## Change\n\nFilters are changed when the gauge reads red.\n",
}
RUNNER = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from answer_shelves import HashEmbedder
from shelfwise.compiler.build import build_shelf, links_stage
from shelfwise.compiler.index.indexes import index_stage
from shelfwise.compiler.settings import Settings
build_shelf(Path(sys.argv[1]), Settings(build_dir=Path(sys.argv[2])), progress=lambda line: print(line, flush=True),
            stages=[index_stage(HashEmbedder()), links_stage()])
print("BUILD DONE", flush=True)
"""
QUERIES = ["pumps inspected days", "valve seals graphite", "filters gauge red", "hoses dry room"]


def _write(shelf: Path, files: dict[str, str]) -> None:
    shelf.mkdir(parents=True, exist_ok=True)
    for old in shelf.glob("*.md"):
        if old.name not in files:
            old.unlink()
    for name, text in files.items():
        (shelf / name).write_text(text, encoding="utf-8")


def _snapshot(build: Path) -> dict:
    shelf = open_shelf("plant", build, HashEmbedder())
    try:
        docs = sorted((d, r["content_hash"]) for d, r in shelf.documents.items())
        sections = sorted((s.id, s.text) for s in shelf.sections.values())
        facts = sorted((f.section_id, f.kind, f.quote) for f in shelf.facts)
        passages = shelf.store.db.execute("SELECT doc_id, section_id, text FROM passages ORDER BY doc_id, section_id, text").fetchall()
        results = {q: [(h.section_id, h.ranks) for h in shelf.searcher.search(q, k=5).hits] for q in QUERIES}
    finally:
        shelf.close()
    return {"docs": docs, "sections": sections, "facts": facts, "passages": passages, "results": results}


def _killed_build(shelf: Path, build_dir: Path, line: str) -> None:
    process = subprocess.Popen([sys.executable, "-c", RUNNER, str(shelf), str(build_dir), str(ROOT / "tests")],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    seen = []
    for output in process.stdout:
        seen.append(output.strip())
        if output.startswith(line):
            os.kill(process.pid, signal.SIGKILL)
            break
    process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL, f"the build ended before '{line}': {seen}"


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reference")
    _write(folder / "plant", V1)
    compile_shelf(folder / "plant", folder / "build")
    _write(folder / "plant", V2)
    return _snapshot(compile_shelf(folder / "plant", folder / "build"))


@pytest.mark.parametrize("line", ["[2/3]", "lexical: indexed", "indexes:", "ledger 2/"])
def test_a_kill_at_a_stage_boundary_then_a_rebuild_equals_one_uninterrupted_build(tmp_path, reference, line):
    shelf, build_dir = tmp_path / "plant", tmp_path / "build"
    _write(shelf, V1)
    first = compile_shelf(shelf, build_dir)
    before = current_generation(first)
    _write(shelf, V2)
    _killed_build(shelf, build_dir, line)
    assert current_generation(first) == before  # the killed build was never made current
    assert _snapshot(compile_shelf(shelf, build_dir)) == reference


def test_a_document_stored_but_not_indexed_is_reindexed_from_its_content_hash(tmp_path):
    import json

    from shelfwise.compiler.index.indexes import STATE_KEY, index_shelf
    from shelfwise.compiler.store.store import Store

    _write(tmp_path / "plant", V1)
    build = current_generation(compile_shelf(tmp_path / "plant", tmp_path / "build"))
    store = Store(build / "store.sqlite")
    state = json.loads(store.get_meta(STATE_KEY))
    state["docs"]["pumps-md"] = "an-older-content-hash:settings"
    store.set_meta(STATE_KEY, json.dumps(state))
    stats = index_shelf(store, build / "lexical", HashEmbedder(), [], [])
    again = index_shelf(store, build / "lexical", HashEmbedder(), [], [])
    store.close()
    assert (stats.lexical_documents, stats.vectors.documents) == (1, 1)
    assert (again.lexical_documents, again.vectors.documents) == (0, 0)
