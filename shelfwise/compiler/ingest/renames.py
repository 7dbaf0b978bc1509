"""Stable anchors across renames: the old id of a renamed section mapped to the section it became.

A section's id hashes its heading path (shelfwise/compiler/refs.py), so renaming a heading moves the id of that section
and of every section under it. When a document is converted again, its sections in the last good store
(a new build generation starts as a copy of it) are compared with the new ones: each old id that no longer
exists is matched to a new section by what it holds (the words of its text, or of the sections under it when
it has none of its own), its heading and its position, one to one, best match first. The match is kept as a
``SectionAlias`` in the store; the document's page carries the old id as an extra anchor, and the API and the
CLI answer the old id with the new section and a "moved" note. Aliases carry over the next renames (an id
renamed twice points at the latest section) and are dropped when the old id is live again or its section
is gone.
"""

from __future__ import annotations

import re

from shelfwise.compiler.store.records import Section, SectionAlias

__all__ = ["carry_aliases", "moved_note", "MIN_SCORE"]

MIN_SCORE = 0.5
"""The least match score (0..1) for an old section to be taken as renamed into a new one."""
_WORD = re.compile(r"\w+")
_MAX_PAIRS = 200_000
_WINDOW = 100  # past _MAX_PAIRS pairs, an old section is compared with the new ones within this many places


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


def _bodies(sections: list[Section]) -> dict[str, frozenset[str]]:
    """Each section's words: its own text's, or (with none) those of the sections under it, headings included."""
    below: dict[str, list[str]] = {s.id: [] for s in sections}
    for section in reversed(sections):  # children come after their parent: collect bottom-up
        if section.parent_id in below:
            below[section.parent_id].extend([section.heading, section.text, *below[section.id]])
    return {s.id: _words(s.text) if s.text.strip() else _words(" ".join(below[s.id])) for s in sections}


def _similarity(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 0.5  # two empty sections: only their headings and positions tell
    return len(a & b) / len(a | b)


def _matches(gone: list[Section], born: list[Section], old_bodies: dict, new_bodies: dict, span: int) -> list[tuple[float, Section, Section]]:
    pairs = []
    window = span if len(gone) * len(born) <= _MAX_PAIRS else _WINDOW
    for old in gone:
        for new in born:
            if abs(old.seq - new.seq) > window:
                continue
            body = _similarity(old_bodies[old.id], new_bodies[new.id])
            if body < MIN_SCORE:
                continue
            heading = _similarity(_words(old.heading), _words(new.heading))
            position = 1.0 - abs(old.seq - new.seq) / span
            score = 0.6 * body + 0.25 * heading + 0.15 * position
            if score >= MIN_SCORE:
                pairs.append((round(score, 4), old, new))
    pairs.sort(key=lambda p: (-p[0], p[1].seq, p[2].seq))
    return pairs


def carry_aliases(previous: list[Section], kept: list[SectionAlias], sections: list[Section]) -> list[SectionAlias]:
    """The aliases of a document converted again: ``previous`` are its sections in the last good store, ``kept``
    its aliases there, ``sections`` the new ones. Sorted by old id."""
    new_ids = {s.id for s in sections}
    old_ids = {s.id for s in previous}
    gone = [s for s in previous if s.id not in new_ids and s.level > 0]
    born = [s for s in sections if s.id not in old_ids and s.level > 0]
    moved: dict[str, tuple[Section, float]] = {}
    if gone and born:
        span = max(len(previous), len(sections), 1)
        taken: set[str] = set()
        for score, old, new in _matches(gone, born, _bodies(previous), _bodies(sections), span):
            if old.id not in moved and new.id not in taken:
                moved[old.id] = (new, score)
                taken.add(new.id)
    by_old = {}
    for alias in kept:
        if alias.old_id in new_ids:
            continue  # the old id is a live section again
        if alias.new_id in new_ids:
            by_old[alias.old_id] = alias
        elif alias.new_id in moved:  # renamed again: follow it
            new, score = moved[alias.new_id]
            by_old[alias.old_id] = SectionAlias(alias.old_id, alias.doc_id, new.id, alias.old_heading, min(alias.score, score))
    for old in previous:
        if old.id in moved:
            new, score = moved[old.id]
            by_old[old.id] = SectionAlias(old.id, old.doc_id, new.id, " › ".join(old.heading_path), score)
    return [by_old[key] for key in sorted(by_old)]


def moved_note(alias: SectionAlias, section: Section) -> str:
    """What a reader of the old id is told: where the section went, and that the new id is the one to keep."""
    now = " › ".join(section.heading_path) or section.heading
    return (f"section {alias.old_id} moved: '{alias.old_heading}' is now '{now}' ({section.id}) after its heading was renamed; "
            f"cite {section.id} from now on")
