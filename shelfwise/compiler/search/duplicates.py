"""Sections that repeat another document's section: the same text on a shelf twice (an edition as PDF and as
Texinfo, slides and the report they were made from, two revisions of a manual, the boilerplate every RFC carries).

A section is *held* by a section of another document when at least ``HELD_SHARE`` of its word 4-grams
(shingles: lower-cased runs of letters and digits) stand in that section's text and every word it has stands
there too (a revision that turns "once a year" into "twice a year" repeats nothing). Holding is one-way: the newer
edition that adds a paragraph holds the older one's section, not the other way round, so a search that ranks the
newer first lets the older ride along with it, while one that ranks the older first keeps the newer (it says
more). Sections with fewer than ``MIN_SHINGLES`` shingles hold and are held by nothing (a one-line "See section
9" in two documents names no shared content).

Folding, measured on the final search (hybrid nDCG@10 / whole-section context recall at 16k, with / without):
dev-formats 0.594 / 0.588 and 0.700 / 0.617 (office: slides and report), northwind 0.753 / 0.731 and 0.935 / 0.943
(two revisions of a manual; MRR 0.904 / 0.864), dev 0.607 either way.

Found with an inverted index over shingles, skipping shingles that more than ``COMMON_SHINGLE`` sections share
(they name a shelf's boilerplate, not one passage); measured 0.19 s for the 441 sections (0.9 M characters) of
the make shelf, 0.15 s for the 699 of office, when a shelf is opened for search.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping

__all__ = ["HELD_SHARE", "MIN_SHINGLES", "COMMON_SHINGLE", "shingles", "held_by", "newer_documents", "fold_repeats"]

HELD_SHARE = 0.9
"""Share of a section's shingles another document's section must hold for the first to repeat it."""
MIN_SHINGLES = 20
"""Sections with fewer shingles (about 25 words) are never counted as repeats."""
COMMON_SHINGLE = 50
"""A shingle more sections than this share is boilerplate and left out of the count."""
_WORD = re.compile(r"[a-z0-9]+")


def shingles(text: str, n: int = 4) -> set[str]:
    """``text``'s word n-grams (lower-cased letters and digits; punctuation and markup ignored)."""
    words = _WORD.findall(text.lower())
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


def held_by(sections: Mapping[str, tuple[str, str]]) -> dict[str, set[str]]:
    """Section id -> the sections of other documents that hold it (see the module docstring).

    ``sections`` maps a section id to (document id, text)."""
    sets = {sid: shingles(text) for sid, (_, text) in sections.items()}
    sets = {sid: s for sid, s in sets.items() if len(s) >= MIN_SHINGLES}
    holders: dict[str, list[str]] = defaultdict(list)
    for sid in sorted(sets):
        for shingle in sets[sid]:
            holders[shingle].append(sid)
    shared: dict[tuple[str, str], int] = defaultdict(int)
    for ids in holders.values():
        if len(ids) < 2 or len(ids) > COMMON_SHINGLE:
            continue
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if sections[a][0] != sections[b][0]:
                    shared[(a, b)] += 1
    words: dict[str, set[str]] = {}

    def vocabulary(sid: str) -> set[str]:
        if sid not in words:
            words[sid] = set(_WORD.findall(sections[sid][1].lower()))
        return words[sid]

    held: dict[str, set[str]] = {}
    for (a, b), count in sorted(shared.items()):
        for inner, outer in ((a, b), (b, a)):
            if count >= HELD_SHARE * len(sets[inner]) and vocabulary(inner) <= vocabulary(outer):
                held.setdefault(inner, set()).add(outer)
    return held


def newer_documents(links: list[Mapping]) -> set[tuple[str, str]]:
    """(newer doc id, older doc id) for each link saying one document supersedes another, or is a newer member of its
    series (the ledger's links, as shelfwise/api/currency.py reads them)."""
    return {
        (link["src_doc"], link["dst_doc"]) for link in links
        if link["kind"] == "supersedes" or (link["kind"] == "same_series" and "newer" in str(link.get("reason", "")))
    }


def fold_repeats(
    fused: list[tuple[str, float]], held: Mapping[str, set[str]], k: int, keep: set[str] = frozenset(),
    newer: Callable[[str, str], bool] | None = None,
) -> tuple[list[tuple[str, float]], dict[str, list[str]]]:
    """The first ``k`` of ``fused`` (section id, score; best first), each section that a section ranked above it
    holds (``held``, from ``held_by``) folded into that section: it takes no rank and is listed, in fused order,
    under the holder (the best-ranked one when several hold it). Sections in ``keep`` are never folded.

    ``newer(a, b)``: whether section a's document is a newer revision of b's. The current text is never folded
    under a superseded one: when the two copies hold each other the current one takes the older one's rank (the
    older is listed under it), else it keeps a rank of its own."""
    kept: list[tuple[str, float]] = []
    taken: dict[str, int] = {}
    repeats: dict[str, list[str]] = {}
    for sid, score in fused:
        holders = [h for h in held.get(sid, ()) if h in taken] if sid not in keep else []
        holder = min(holders, key=taken.__getitem__) if holders else None
        if holder is not None and newer is not None and newer(sid, holder):
            if holder in keep or sid not in held.get(holder, ()):
                holder = None  # the current revision says something the old one does not: it ranks on its own
            else:  # the same text: the current copy stands in the older one's place
                position = taken.pop(holder)
                kept[position] = (sid, kept[position][1])
                taken[sid] = position
                repeats[sid] = [holder, *repeats.pop(holder, [])]
                continue
        if holder is not None:
            repeats.setdefault(holder, []).append(sid)
        elif len(kept) < k:
            taken[sid] = len(kept)
            kept.append((sid, score))
    return kept, repeats
