"""Reading units inside long sections: which character spans of a section to read for a query.

A section no longer than the limit is read whole (paper §3.3: whole sections
are the reading unit). A longer one is read as its opening paragraph and its
most relevant passages with their neighbours, in document order, within the
limit. The passages are the dense index's headed passages (shelfwise/compiler/index/passages.py),
located in the section's text; where a passage is longer than the room the
opening leaves, the section is read in finer pieces instead (``split_pieces``:
paragraphs, lines, sentences, whatever fits). Passages are taken in turn by what they add:
the reciprocal-rank fusion of a passage's dense similarity and of the weight
(idf) of the query's words and exact tokens (identifiers, code) it holds that
the opening and the passages already taken do not. A section read for several
queries takes each passage's best similarity and the union of their words.
"""

from __future__ import annotations

import math
import re

from pydantic import BaseModel, Field

from shelfwise.compiler.search.code_tokens import query_code_tokens
from shelfwise.compiler.search.identifiers import query_identifiers

__all__ = ["SpanReading", "passage_spans", "split_pieces", "choose_spans", "SectionReader", "PASSAGE_RRF_K", "WHOLE_SHARE", "read_limit"]

OPENING_SHARE = 0.2
"""Share of the limit the opening paragraph may take (cut at a word when longer)."""
PASSAGE_RRF_K = 10
"""Rank constant when fusing a section's passages by dense and by lexical rank (few candidates: a small k)."""
WHOLE_SHARE = 4
"""A section taking at most 1/WHOLE_SHARE of the reading budget fits it and is read whole (paper §3.3); only a longer
one is read by its passages (validated below, ``read_limit``)."""
_PARAGRAPH = re.compile(r"\n\s*\n")
_BOUNDARIES = (_PARAGRAPH, re.compile(r"\n"), re.compile(r"(?<=[.!?;:])\s+"))
"""Where a section is cut into pieces, strongest first: a blank line, a line end, a sentence's end (then spaces)."""
_SPACE = re.compile(r"\s+")


def read_limit(budget: int, floor: int) -> int:
    """Characters a section may have and still be read whole at a reading budget of ``budget``: a quarter of the
    budget, never less than ``floor`` (``answer.section_read_chars``).

    A fixed limit cut sections that the budget had room for: at 16,000 characters a 4,000-character section was read
    as 1,500 and its evidence left unopened. Context recall at 16k of the section reading units with the limit at a
    third, quarter, fifth, sixth of the budget: dev 0.637/0.679/0.708/0.729, dev-formats 0.600/0.679/0.633/0.596,
    northwind 0.943/0.943/0.930/0.922 (at 4k the floor decides); a quarter is the best on two sets, the worst on none."""
    return max(int(floor), int(budget) // WHOLE_SHARE)


class SpanReading(BaseModel):
    """What of one long section is read."""

    spans: list[tuple[int, int]] = Field(description="Character spans of the section text read, in order, not overlapping.")
    chars: int = Field(description="Characters the spans cover.")
    passages_read: int = Field(description="Passages the spans hold whole, the opening one included: the dense index's passages, or the "
                               "section's finer pieces where a passage does not fit beside the opening (``split_pieces``).")
    passages: int = Field(description="Passages (or pieces) the section has.")


def passage_spans(text: str, bodies: list[str]) -> list[tuple[int, int] | None]:
    """Where each passage body (prefix removed) stands in ``text``: matched word by word, whitespace-insensitively.

    Passages follow each other with some overlap, so each is looked for from the previous one's start.
    A body that cannot be located gets None.
    """
    spans: list[tuple[int, int] | None] = []
    cursor = 0
    for body in bodies:
        words = body.split()
        if not words:
            spans.append(None)
            continue
        head = re.compile(r"\s+".join(re.escape(w) for w in words[:8]))
        tail = re.compile(r"\s+".join(re.escape(w) for w in words[-8:]))
        start = head.search(text, cursor)
        if start is None:
            spans.append(None)
            continue
        ends = [m for m in tail.finditer(text, start.start())]
        end = next((m.end() for m in ends if m.end() >= start.end()), None)
        if end is None:
            spans.append(None)
            continue
        spans.append((start.start(), end))
        cursor = start.start() + 1
    return spans


def split_pieces(text: str, size: int) -> list[tuple[int, int]]:
    """``text`` cut into spans of at most ``size`` characters, in order, each as large a unit as fits: a paragraph
    that fits is one piece, a longer one is cut at its line ends, a longer line at its sentences' ends, a longer
    sentence into as many words as fit (a word longer than ``size`` at ``size``). Whitespace between pieces belongs
    to none."""
    pieces: list[tuple[int, int]] = []

    def add(start: int, end: int, level: int) -> None:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start == end:
            return
        if end - start <= size:
            pieces.append((start, end))
        elif level < len(_BOUNDARIES):
            at = start
            for cut in _BOUNDARIES[level].finditer(text, start, end):
                add(at, cut.start(), level + 1)
                at = cut.end()
            add(at, end, level + 1)
        else:  # a sentence longer than size: as many words as fit in each piece
            at = start
            while end - at > size:
                gaps = [m for m in _SPACE.finditer(text, at, at + size + 1)]
                cut = (gaps[-1].start(), gaps[-1].end()) if gaps else (at + size, at + size)
                pieces.append((at, cut[0]))
                at = cut[1]
            pieces.append((at, end))

    add(0, len(text), 0)
    return pieces


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _covered(spans: list[tuple[int, int]]) -> int:
    return sum(end - start for start, end in _merge(spans))


def _take(index: int, spans, chosen: list, used: set, limit: int) -> None:
    if index in used or not 0 <= index < len(spans) or spans[index] is None:
        return
    if _covered([*chosen, spans[index]]) <= limit:
        chosen.append(spans[index])
        used.add(index)


def choose_spans(text: str, spans: list[tuple[int, int] | None], order: list[int], limit: int) -> SpanReading:
    """The opening paragraph, then the passages in ``order`` (best first), then the next and previous neighbour of
    each passage taken, as long as the union stays within ``limit`` characters.

    Taking each passage's neighbours right after it scored lower at equal budget (context recall at 4k/16k on dev,
    dev-formats, northwind: 0.329/0.617, 0.362/0.600, 0.720/0.836 against 0.350/0.637, 0.379/0.633, 0.720/0.836)."""
    paragraph = _PARAGRAPH.search(text)
    opening_end = paragraph.start() if paragraph else len(text)
    chosen: list[tuple[int, int]] = []
    used: set[int] = set()
    room = int(limit * OPENING_SHARE)
    if opening_end <= room:
        chosen.append((0, opening_end))
    else:
        cut = text.rfind(" ", 0, room)
        chosen.append((0, cut if cut > 0 else room))
    for index in order:  # the relevant passages first (best passages then neighbours scored better on all three sets)
        _take(index, spans, chosen, used, limit)
    for index in [i for i in order if i in used]:
        for step in (1, -1):
            _take(index + step, spans, chosen, used, limit)
    merged = _merge(chosen)
    read = sum(1 for s in spans if s is not None and any(a <= s[0] and s[1] <= b for a, b in merged))
    return SpanReading(spans=merged, chars=_covered(merged), passages_read=read, passages=len(spans))


class SectionReader:
    """Reading units for the sections of one searcher's shelf (passage locations cached per section)."""

    def __init__(self, searcher):
        self.searcher = searcher
        self._spans: dict[str, list[tuple[int, int] | None]] = {}

    def spans(self, section_id: str) -> list[tuple[int, int] | None]:
        if section_id not in self._spans:
            text = self.searcher.sections[section_id][3]
            model = self.searcher.embedder.model_id if self.searcher.embedder is not None else None
            texts = self.searcher.store.vectors.section_passage_texts(model, section_id)
            self._spans[section_id] = passage_spans(text, [passage.split("\n\n", 1)[-1] for passage in texts])
        return self._spans[section_id]

    def _terms(self, query: str, text: str, spans: list[tuple[int, int] | None]) -> tuple[dict[str, float], list[set[str]]]:
        """The query's words and exact tokens with their weight (idf; an exact identifier or code token weighs as a
        word no other section has), and the ones each passage holds."""
        lexical = self.searcher.lexical
        total = max(lexical.doc_count(), 1)
        weights = {term: math.log(1 + total / max(lexical.doc_frequency(term), 1)) for term in lexical.terms(query)}
        exact = [i.text.lower() for i in query_identifiers(query)] + [t.lower() for t in query_code_tokens(query)]
        weights.update({f"exact:{token}": math.log(1 + total) for token in exact})
        held = []
        for span in spans:
            if span is None:
                held.append(set())
                continue
            passage = text[span[0] : span[1]]
            low = passage.lower()
            held.append((set(weights) & set(lexical.terms(passage))) | {f"exact:{t}" for t in exact if t in low})
        return weights, held

    def read(self, section_id: str, queries: list[str], limit: int) -> SpanReading | None:
        """The spans of ``section_id`` to read for ``queries``; None when the section fits ``limit`` or has no
        located passages (read whole).

        Passages are taken in turn by what they add: each next one is the best by reciprocal rank of its dense
        similarity and of the weight of the query's words it holds that the opening and the passages already
        taken do not (a question asks several things; the second passage on the same words adds little)."""
        text = self.searcher.sections[section_id][3]
        if len(text) <= limit:
            return None
        spans = self.spans(section_id)
        if not any(span is not None for span in spans):
            return None  # no passages to choose from (no dense index for this embedder): read it whole
        dense = [0.0] * len(spans)
        for query in queries:
            vector = self.searcher.query_vector(query) if self.searcher.embedder is not None else None
            if vector is not None and len(self.searcher.dense):
                by_ordinal = {o: v for _, o, v in self.searcher.dense.section_passages(section_id, self.searcher.dense_scores(query))}
                dense = [max(dense[i], by_ordinal.get(i, 0.0)) if spans[i] is not None else 0.0 for i in range(len(spans))]
        paragraph = _PARAGRAPH.search(text)
        opening = text[: paragraph.start() if paragraph else len(text)]
        room = limit - min(len(opening), int(limit * OPENING_SHARE))
        if any(span is not None and span[1] - span[0] > room for span in spans):
            # a passage does not fit beside the opening (a small budget; passages are about 2,400 characters): the
            # section is read in finer pieces, each as similar to the query as the best passage it overlaps
            pieces = split_pieces(text, room)
            dense = [max((d for d, p in zip(dense, spans) if p is not None and p[0] < b and a < p[1]), default=0.0) for a, b in pieces]
            spans = pieces
        weights: dict[str, float] = {}
        held: list[set[str]] = [set() for _ in spans]
        for query in queries:
            query_weights, query_held = self._terms(query, text, spans)
            weights.update({t: max(w, weights.get(t, 0.0)) for t, w in query_weights.items()})
            held = [a | b for a, b in zip(held, query_held)]
        return choose_spans(text, spans, self._order(opening, spans, dense, held, weights), limit)

    def _order(self, opening: str, spans, dense: list[float], held: list[set[str]], weights: dict[str, float]) -> list[int]:
        """The spans in the order they are taken (see ``read``), the ones holding none of the query's words and no
        dense similarity left out."""
        by_dense = {i: rank for rank, i in enumerate(sorted((i for i in range(len(spans)) if dense[i] > 0), key=lambda i: (-dense[i], i)), 1)}
        covered = set(self.searcher.lexical.terms(opening)) & set(weights)
        left = [i for i in range(len(spans)) if spans[i] is not None and (held[i] or i in by_dense)]
        order = []
        while left:
            gains = {i: sum(weights[t] for t in held[i] - covered) for i in left}
            by_gain = {i: rank for rank, i in enumerate(sorted((i for i in left if gains[i] > 0), key=lambda i: (-gains[i], i)), 1)}

            def fused(i: int) -> float:
                return sum(1.0 / (PASSAGE_RRF_K + ranks[i]) for ranks in (by_gain, by_dense) if i in ranks)

            best = max(left, key=lambda i: (fused(i), -i))
            order.append(best)
            covered |= held[best]
            left.remove(best)
        return order
