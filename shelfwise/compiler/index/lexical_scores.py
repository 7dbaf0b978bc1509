"""Whoosh's BM25F scores computed over whole posting blocks with numpy, for the lexical index's top-k searches.

whoosh (pure Python) scores a query one posting at a time through a tree of union matchers: at 5,000
documents (60,000 sections) a query holding a word of every document ("records", the company's name)
took 0.5-2 s, and its block-quality skipping (``optimize=True``, on by default) cannot skip a block of an
OR of words most sections hold. Its own options measured on that shelf: the preloaded OR matcher halves the
time, a common-terms split (rare words required, common ones scored where the rare ones match) changes the
top 20 (overlap 0.48-0.98) before it is fast. Here the same index is read block by block (each block's
document numbers and term frequencies as arrays) and scored with the formula whoosh's ``BM25F`` uses,
``idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average length))`` times the field's boost, with
whoosh's own idf, average field length and byte-coded field lengths, so the ranking is whoosh's
(tests/test_lexical.py compares the two on a real index).

The block readers are whoosh's ``whoosh3`` codec internals (``_read_ids``, ``_read_weights``,
``_next_block``); whoosh-reloaded 2.7.5 is pinned in constraints.txt. Reading a block is whoosh's unpickling and
unzipping (80% of a query); the decoded postings of the words last asked are kept, up to POSTINGS_KEPT
postings (8 bytes each), so the words most queries share ("records", a company name) are read once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np
from whoosh.matching.wrappers import FilterMatcher
from whoosh.scoring import BM25F

__all__ = ["BlockScorer", "POSTINGS_KEPT"]

POSTINGS_KEPT = 4_000_000
"""Decoded postings kept between queries (document numbers as int32, term frequencies as float32: ~32 MB)."""


def _blocks(matcher) -> tuple[np.ndarray, np.ndarray]:
    """(segment document numbers, term frequencies) of one term's postings, read a block at a time."""
    leaf = matcher.child if isinstance(matcher, FilterMatcher) else matcher
    ids, weights = [], []
    while leaf.is_active():
        leaf._read_ids()
        leaf._read_weights()
        ids.append(np.asarray(leaf._ids, dtype=np.int32))
        weights.append(np.asarray(leaf._weights, dtype=np.float32))
        leaf._next_block()
    if not ids:
        return np.empty(0, np.int32), np.empty(0, np.float32)
    return np.concatenate(ids), np.concatenate(weights)


class BlockScorer:
    """Top-k BM25F over one open whoosh searcher (its segments, deletions and statistics)."""

    def __init__(self, searcher, weighting: BM25F):
        self.searcher = searcher
        self.weighting = weighting
        self._leaves = list(searcher.leaf_searchers())
        self._size = searcher.doc_count_all()
        self._lengths: dict[str, np.ndarray] = {}
        self._postings: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
        self._kept = 0
        self._lock = threading.Lock()  # requests of several threads share the kept postings
        for field in sorted(name for name in searcher.schema.names() if searcher.schema[name].scorable):
            self._field_lengths(field)  # once per opened searcher (~0.1 s per field at 60,000 sections), not in a query
        self._deleted = np.zeros(self._size, dtype=bool)
        for sub, offset in self._leaves:
            reader = sub.reader()
            for docnum in reader.deleted_docs_set if reader.has_deletions() else ():
                self._deleted[offset + docnum] = True

    def _field_lengths(self, field: str) -> np.ndarray:
        """Every document's length in ``field`` as whoosh scores it (its byte-coded length; 1 when absent)."""
        if field not in self._lengths:
            lengths = np.ones(self._size, dtype=np.float64)
            for sub, offset in self._leaves:
                reader = sub.reader()
                for docnum in range(reader.doc_count_all()):
                    lengths[offset + docnum] = reader.doc_field_length(docnum, field, 1)
            self._lengths[field] = lengths
        return self._lengths[field]

    def forget(self) -> None:
        """Drop the kept postings (a benchmark timing cold reads)."""
        with self._lock:
            self._postings.clear()
            self._kept = 0

    def _term(self, field: str, word: str) -> tuple[np.ndarray, np.ndarray]:
        """(document numbers over all segments, term frequencies) of one term, kept while within POSTINGS_KEPT."""
        key = (field, word)
        with self._lock:
            found = self._postings.pop(key, None)
            if found is not None:
                self._postings[key] = found  # most recently used last
                return found
        ids, tfs = [], []
        for sub, offset in self._leaves:
            reader = sub.reader()
            if (field, word) in reader:
                segment_ids, tf = _blocks(reader.postings(field, word))
                ids.append(segment_ids + np.int32(offset))
                tfs.append(tf)
        found = (np.concatenate(ids), np.concatenate(tfs)) if ids else (np.empty(0, np.int32), np.empty(0, np.float32))
        with self._lock:
            if key not in self._postings:
                self._postings[key] = found
                self._kept += len(found[0])
            while self._kept > POSTINGS_KEPT and len(self._postings) > 1:
                self._kept -= len(self._postings.pop(next(iter(self._postings)))[0])
        return found

    def scores(self, terms: Iterable[tuple[str, str, float]]) -> np.ndarray:
        """Each document's summed score for (field, word, boost) terms; 0 where none matches."""
        total = np.zeros(self._size, dtype=np.float64)
        k1 = self.weighting.K1
        for field, word, boost in terms:
            if not self.searcher.schema[field].scorable or (field, word) not in self.searcher.reader():
                continue
            idf = self.searcher.idf(field, word)
            average = self.searcher.avg_field_length(field) or 1
            b = self.weighting._field_B.get(field, self.weighting.B)
            ids, tf = self._term(field, word)
            tf = tf.astype(np.float64)
            fl = self._field_lengths(field)[ids]
            total[ids] += boost * (idf * ((tf * (k1 + 1)) / (tf + k1 * ((1 - b) + b * fl / average))))
        total[self._deleted] = 0.0
        return total

    def top(self, terms: Iterable[tuple[str, str, float]], limit: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
        """(document number, score) of the ``limit`` best matching documents, best first (ties: lower number first)."""
        total = self.scores(terms)
        if allowed is not None:
            total[~allowed] = 0.0
        matched = np.flatnonzero(total > 0)
        if len(matched) > limit:
            cut = np.argpartition(-total[matched], limit - 1)[:limit]
            threshold = total[matched[cut]].min()
            matched = matched[total[matched] >= threshold]
        order = sorted(matched.tolist(), key=lambda d: (-total[d], d))[:limit]
        return [(d, float(total[d])) for d in order]
