"""SQLite files that several processes open at the same moment: two `shelfwise serve` replicas starting together over
one traces file, or over one store. Each open must succeed and leave one schema; SQLite answers the switch to WAL
"database is locked" at once, without waiting, when another connection is switching the same new file."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from shelfwise.compiler.store.store import sqlite3

ROUNDS = 12
"""Rounds per kind. Before the fix, two processes opening one new traces file at once failed in 58 of 60 rounds, so
twelve rounds miss a regression of that kind with odds far below one in a million; a round takes about 0.1 s."""


def _open(kind: str, path: str, barrier, results) -> None:
    from shelfwise.api.trace import TraceStore
    from shelfwise.compiler.store.store import Store

    barrier.wait()
    try:
        if kind == "traces":
            TraceStore(Path(path), retention_days=30)
        else:
            Store(Path(path))
        results.put("ok")
    except Exception as exc:  # reported to the test, which names it
        results.put(f"{type(exc).__name__}: {exc}")


@pytest.mark.parametrize("kind", ["traces", "store"])
def test_processes_opening_one_new_file_at_once_all_succeed(tmp_path, kind):
    context = multiprocessing.get_context("fork")
    failures = []
    for round_ in range(ROUNDS):
        path = tmp_path / f"{kind}-{round_}.sqlite"
        barrier, results = context.Barrier(3), context.Queue()
        workers = [context.Process(target=_open, args=(kind, str(path), barrier, results)) for _ in range(3)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
        outcomes = [results.get(timeout=5) for _ in workers]
        failures += [outcome for outcome in outcomes if outcome != "ok"]
    assert failures == []
    with sqlite3.connect(str(tmp_path / f"{kind}-0.sqlite")) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] > 0
