"""The open shelf's per-shelf cache: concurrent requests share one value per key, made outside the lock."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from tests.claimshelf import make_shelf


def test_memo_made_at_once_by_two_requests_keeps_the_first_value_for_both():
    shelf = make_shelf()
    together = threading.Barrier(2, timeout=10)
    made = iter(["first", "second"])
    lock = threading.Lock()

    def make() -> str:
        together.wait()  # both requests are making the value before either stores it
        with lock:
            return next(made)

    with ThreadPoolExecutor(2) as pool:
        got = list(pool.map(lambda _: shelf.memo(("k",), make), range(2)))
    assert got[0] == got[1] == shelf.cache[("k",)]


def test_memo_may_take_the_shelf_lock_while_making():
    """``make`` runs outside the lock: a make that searches (under ``shelf.lock``) does not deadlock."""
    shelf = make_shelf()

    def make() -> int:
        with shelf.lock:
            return 7

    assert shelf.memo(("searched",), make) == 7 and shelf.memo(("searched",), lambda: 8) == 7
