"""A served shelf survives its own rebuild: a real uvicorn server on 127.0.0.1 under continuous requests while
the shelf is rebuilt; every request succeeds, the new content is served after the flip, a removed document is gone."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn

from answer_shelves import HashEmbedder, compile_shelf
from shelfwise.api.server.app import create_app
from shelfwise.compiler.build import current_build
from shelfwise.compiler.store.generations import GENERATIONS
from shelfwise.compiler.settings import Settings
from tests.test_browser import _free_port, _wait

PUMPS = "# Pump Rules\n\n## Inspection\n\nPumps must be inspected every {days} days by a certified technician.\n"
VALVES = "# Valve Rules\n\n## Seals\n\nValve seals are replaced with graphite gaskets every spring.\n"
TOKEN = {"Authorization": "Bearer plant-secret"}


@pytest.fixture
def served(tmp_path: Path):
    shelf = tmp_path / "plant"
    shelf.mkdir()
    (shelf / "pumps.md").write_text(PUMPS.format(days=30), encoding="utf-8")
    (shelf / "valves.md").write_text(VALVES, encoding="utf-8")
    build = compile_shelf(shelf, tmp_path / "build")
    settings = Settings.model_validate({
        "build_dir": str(tmp_path / "build"),
        "api": {"tokens": [{"name": "plant", "token": "plant-secret", "shelves": ["plant"]}],
                "trace_db": str(tmp_path / "traces.sqlite"), "rate_limit_per_minute": 100_000},
    })
    app = create_app(settings, chat=None, embedder=HashEmbedder(), stores={"plant": build})
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    _wait(base + "/api/health", seconds=30)
    yield shelf, tmp_path / "build", base
    server.should_exit = True
    thread.join(timeout=20)


def _load(base: str, stop: threading.Event, outcomes: list, section_id: str) -> None:
    with httpx.Client(base_url=base, headers=TOKEN, timeout=60) as client:
        while not stop.is_set():
            for response in (
                client.post("/api/ask", json={"question": "How often must pumps be inspected?", "shelf": "plant"}),
                client.get("/api/search", params={"shelf": "plant", "q": "valve seals graphite"}),
                client.get(f"/api/sections/{section_id}"),
            ):
                outcomes.append((response.status_code, response.request.url.path))


def test_rebuild_under_load_gives_no_errors_and_swaps_to_the_new_build(served):
    shelf, build_dir, base = served
    with httpx.Client(base_url=base, headers=TOKEN) as client:
        pump = client.get("/api/search", params={"shelf": "plant", "q": "pumps inspected"}).json()["hits"][0]["section_id"]
        valve = client.get("/api/search", params={"shelf": "plant", "q": "valve seals"}).json()["hits"][0]
        assert valve["doc_id"] == "valves-md"
    outcomes: list = []
    stop = threading.Event()
    clients = [threading.Thread(target=_load, args=(base, stop, outcomes, pump)) for _ in range(3)]
    for thread in clients:
        thread.start()
    try:
        time.sleep(0.5)
        (shelf / "pumps.md").write_text(PUMPS.format(days=45), encoding="utf-8")
        (shelf / "valves.md").unlink()
        compile_shelf(shelf, build_dir)
        time.sleep(0.5)
    finally:
        stop.set()
        for thread in clients:
            thread.join(timeout=60)
    errors = [o for o in outcomes if o[0] != 200]
    assert len(outcomes) > 6 and errors == [], errors[:5]

    with httpx.Client(base_url=base, headers=TOKEN) as client:
        assert "every 45 days" in client.get(f"/api/sections/{pump}").json()["text"]
        answer = client.post("/api/ask", json={"question": "How often must pumps be inspected?", "shelf": "plant"}).json()
        assert "45 days" in answer["answer_markdown"] and "30 days" not in answer["answer_markdown"]
        gone = client.get(f"/api/sections/{valve['section_id']}")
        assert gone.status_code == 404
        hits = client.get("/api/search", params={"shelf": "plant", "q": "valve seals graphite"}).json()["hits"]
        assert all(h["doc_id"] != "valves-md" for h in hits)
        valves = client.post("/api/ask", json={"question": "What are valve seals replaced with?", "shelf": "plant"}).json()
        assert "graphite" not in valves["answer_markdown"]


def test_generations_are_flipped_last_and_only_the_last_two_are_kept(tmp_path: Path):
    shelf = tmp_path / "plant"
    shelf.mkdir()
    for days in (10, 20, 30):
        (shelf / "pumps.md").write_text(PUMPS.format(days=days), encoding="utf-8")
        root = compile_shelf(shelf, tmp_path / "build")
    assert sorted(p.name for p in (root / GENERATIONS).iterdir()) == ["2", "3"]
    assert current_build(root) == (root / GENERATIONS / "3").resolve()
    assert (root / "store.sqlite").resolve() == (root / GENERATIONS / "3" / "store.sqlite").resolve()


def test_a_build_folder_from_before_generations_is_moved_into_the_first_one(tmp_path: Path):
    import shutil

    from shelfwise.compiler.build import build_shelf
    from shelfwise.compiler.settings import Settings

    shelf = tmp_path / "plant"
    shelf.mkdir()
    (shelf / "pumps.md").write_text(PUMPS.format(days=10), encoding="utf-8")
    root = compile_shelf(shelf, tmp_path / "build")
    legacy = tmp_path / "legacy" / "plant"
    shutil.copytree(current_build(root), legacy)  # store.sqlite, lexical/ ... directly in the shelf's folder
    assert current_build(legacy) == legacy
    report = build_shelf(shelf, Settings(build_dir=tmp_path / "legacy"), progress=lambda line: None)
    assert [d.status for d in report.documents] == ["unchanged"]
    assert sorted(p.name for p in (legacy / GENERATIONS).iterdir()) == ["1", "2"]
    assert current_build(legacy) == (legacy / GENERATIONS / "2").resolve() and (legacy / "store.sqlite").is_symlink()


def test_a_stray_store_file_made_during_the_first_build_does_not_fail_it(tmp_path: Path):
    """A reader that opened build/<shelf>/store.sqlite before the first build finished leaves a plain file where the
    build links its store: the build replaces it with the link instead of failing at the very end."""
    from shelfwise.compiler.build import build_shelf
    from shelfwise.compiler.settings import Settings
    from shelfwise.compiler.store.store import Store

    shelf = tmp_path / "plant"
    shelf.mkdir()
    (shelf / "pumps.md").write_text(PUMPS.format(days=10), encoding="utf-8")

    def early_reader(store, out, changed, removed, progress):  # inside the build, before the flip, as another process might
        Store(tmp_path / "build" / "plant" / "store.sqlite").close()
        return "early reader", {}

    build_shelf(shelf, Settings(build_dir=tmp_path / "build"), progress=lambda line: None, stages=[early_reader])
    root = tmp_path / "build" / "plant"
    assert (root / "store.sqlite").is_symlink()
    assert (root / "store.sqlite").resolve() == (root / GENERATIONS / "1" / "store.sqlite").resolve()


def test_a_stray_store_file_beside_generations_is_set_aside_and_the_next_build_runs(tmp_path: Path):
    """A plain store.sqlite beside generations/ (left by a reader after a failed flip) is not a build from before
    generations: the next build sets it aside (renamed, not deleted) and flips as usual."""
    shelf = tmp_path / "plant"
    shelf.mkdir()
    (shelf / "pumps.md").write_text(PUMPS.format(days=10), encoding="utf-8")
    root = compile_shelf(shelf, tmp_path / "build")
    (root / "store.sqlite").unlink()
    (root / "store.sqlite").write_bytes(b"")  # the stray: a plain file where the link belongs
    (shelf / "pumps.md").write_text(PUMPS.format(days=20), encoding="utf-8")
    root = compile_shelf(shelf, tmp_path / "build")
    assert (root / "store.sqlite").is_symlink() and current_build(root) == (root / GENERATIONS / "2").resolve()
    assert [p.name.split("-")[0] for p in root.glob("store.sqlite.stray-*")] == ["store.sqlite.stray"]
