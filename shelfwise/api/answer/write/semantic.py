"""Semantic rerank: the extractive writer's best units for an obligation reordered by meaning as well as by words.

Word overlap misses what a document says in its own vocabulary. The shelf's embedder (all-MiniLM-L6-v2 by default,
offline) embeds the obligation's ask and its ``semantic_top`` best units (cached per shelf by text); each unit's score
becomes its word score plus ``semantic_weight`` times its cosine similarity to the ask, scaled to the obligation's best
word score (both from ``answer.tuning``, on the pool).
Without an embedder the order is the words' alone.
"""

from __future__ import annotations

import numpy as np

from shelfwise.api.shelves import OpenShelf

__all__ = ["semantic_rerank", "CACHED"]


CACHED = 20_000
"""Unit vectors kept per open shelf (about 1.5 KB each for 384 dimensions); the oldest go first."""


def _vectors(shelf: OpenShelf, texts: list[str]) -> dict[str, np.ndarray]:
    """The units' vectors, embedded once per open shelf; the cache is read and written under the shelf's lock."""
    key = ("unit-vectors", shelf.searcher.embedder.model_id)
    with shelf.lock:
        cache = shelf.cache.setdefault(key, {})
        todo = [t for t in dict.fromkeys(texts) if t not in cache]
    fresh = dict(zip(todo, shelf.searcher.embedder.embed_batch(todo))) if todo else {}
    with shelf.lock:
        for text, vector in fresh.items():
            cache[text] = np.asarray(vector, dtype=np.float32)
        wanted = {t: cache[t] for t in texts}
        for old in list(cache)[: max(len(cache) - CACHED, 0)]:
            del cache[old]
        return wanted


def semantic_rerank(ask: str, pool, scored: list[tuple[float, float, bool, int]], shelves: dict[str, OpenShelf]
                    ) -> list[tuple[float, float, bool, int]]:
    """``scored`` (score, own, shown, unit index; best first) with its ``semantic_top`` best rescored by meaning too.

    The window counts only units the writer may show (``own`` > 0 and ``shown``), and a text once however many times
    it stands in the reading (a certification a filer signs twice): a window spent on units that can never be shown,
    or on copies of one sentence, left the evidence a place below it out of the rerank by a near-tie."""
    top, weight = pool.tuning.semantic_top, pool.tuning.semantic_weight
    head, tail = _window(pool, scored, top)
    if len(head) < 2:
        return scored
    shelf_names = {pool.units[i].shelf for _, _, _, i in head}
    if any(getattr(shelves[n].searcher, "embedder", None) is None for n in shelf_names):
        return scored
    name = sorted(shelf_names)[0]
    query = np.asarray(shelves[name].searcher.query_vector(ask), dtype=np.float32)
    sims: dict[int, float] = {}
    for n in shelf_names:
        mine = [i for _, _, _, i in head if pool.units[i].shelf == n]
        vectors = _vectors(shelves[n], [pool.units[i].text[:1000] for i in mine])
        for i in mine:
            sims[i] = float(vectors[pool.units[i].text[:1000]] @ query)
    best = head[0][0] or 1.0
    rescored = [(s + weight * best * max(sims[i], 0.0), own, shown, i) for s, own, shown, i in head]
    rescored.sort(key=lambda e: (-e[0], pool.units[e[3]].order))
    floor = rescored[-1][0]
    return rescored + [(min(s, floor), own, shown, i) for s, own, shown, i in tail]


def _window(pool, scored: list[tuple[float, float, bool, int]], top: int
            ) -> tuple[list[tuple[float, float, bool, int]], list[tuple[float, float, bool, int]]]:
    """(head, tail) of ``scored``: the head holds the best units that may be shown until ``top`` distinct texts stand
    in it; every other unit, in its order, is the tail."""
    head, tail, texts = [], [], set()
    for entry in scored:
        _, own, shown, index = entry
        text = pool.units[index].text
        if own > 0 and shown and (len(texts) < top or text in texts):
            head.append(entry)
            texts.add(text)
        else:
            tail.append(entry)
    return head, tail

