"""Catalogues: documents of a shelf that list its other documents (a SOURCES.md or README table of the files,
an index page), found so that search can count them less.

A catalogue names nearly every document of the shelf, so for any question about one of them its words (the
document's title, what it covers) match a line of the catalogue: without care it ranks among the first
sections of every such question, above the text that answers it. It tells where things are, not what they say.

A document is a catalogue when its text names, by file name with extension ("rfc6750.txt", "make.pdf"; by its
shelf path when several documents share the name: "sp800-63b/cover.md"), at
least ``CATALOGUE_SHARE`` of the shelf's other documents and no fewer than ``CATALOGUE_MIN``: a design note that
cites three files of a shelf of a hundred is not one. Its sections' fused scores count ``CATALOGUE_WEIGHT``
(they stay in the ranking: a question about where a file came from still finds them).

Validated on the three question sets (hybrid nDCG@10 with / without): when added, dev 0.573 / 0.562 (typing-07),
dev-formats 0.594 / 0.585 (licenses-01, -05), northwind 0.753 / 0.753 (it has no catalogue); the weights 0.7, 0.5
and 0 scored alike on all three. With the dense route's query stripped of document numbers (search.py) dev scores
0.607 either way; dev-formats still 0.594 / 0.585.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import PurePosixPath

__all__ = ["CATALOGUE_SHARE", "CATALOGUE_MIN", "CATALOGUE_WEIGHT", "catalogue_documents", "catalogue_sections", "demote_catalogues"]

CATALOGUE_SHARE = 0.5
"""Share of the shelf's other documents a catalogue names by file name."""
CATALOGUE_MIN = 3
"""A document naming fewer other documents than this is never a catalogue (on a shelf of two or three, every note does)."""
CATALOGUE_WEIGHT = 0.5
"""Factor on a catalogue section's fused score."""


def catalogue_documents(documents: Mapping[str, Mapping], sections: Mapping[str, tuple]) -> set[str]:
    """Doc ids of the catalogues among ``documents`` (doc id -> row with ``path``), whose ``sections`` map a
    section id to (doc id, heading, heading path, text)."""
    names = {doc_id: PurePosixPath(str(row["path"])).name.lower() for doc_id, row in documents.items()}
    shared = Counter(names.values())
    names = {  # "cover.md" in four folders is named by its path ("sp800-63b/cover.md")
        doc_id: name if shared[name] == 1 else str(documents[doc_id]["path"]).lower() for doc_id, name in names.items()
    }
    texts: dict[str, list[str]] = {}
    for doc_id, _heading, _path, body in sections.values():
        texts.setdefault(doc_id, []).append(body.lower())
    needed = max(CATALOGUE_MIN, CATALOGUE_SHARE * (len(documents) - 1))
    found = set()
    for doc_id, parts in texts.items():
        text = "\n".join(parts)
        if sum(1 for other, name in names.items() if other != doc_id and name in text) >= needed:
            found.add(doc_id)
    return found


def catalogue_sections(documents: Mapping[str, Mapping], sections: Mapping[str, tuple]) -> set[str]:
    """The section ids of the catalogues' sections (arguments as for ``catalogue_documents``)."""
    found = catalogue_documents(documents, sections)
    return {sid for sid, row in sections.items() if row[0] in found}


def demote_catalogues(fused: list[tuple[str, float]], catalogue: set[str], keep: set[str] = frozenset()) -> list[tuple[str, float]]:
    """``fused`` (section id, score; best first) with the scores of the ``catalogue`` sections times CATALOGUE_WEIGHT,
    re-sorted (ties keep their order); sections in ``keep`` (exact identifier holders) keep their score."""
    scored = [(sid, score * CATALOGUE_WEIGHT if sid in catalogue and sid not in keep else score) for sid, score in fused]
    position = {sid: n for n, (sid, _) in enumerate(fused)}
    return sorted(scored, key=lambda item: (-item[1], position[item[0]]))
