"""Section alignment of two documents: by heading path, then by heading, then by content.

Each section of either side ends in at most one pair. A pair found by its
heading alone whose parent headings differ is a moved section; one found by
content alone is a renamed (or re-headed) section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from shelfwise.compiler.store.records import Section
from shelfwise.compiler.prose import normalise

__all__ = ["SectionPair", "align_sections", "heading_key"]

_NUMBERING = re.compile(r"^(?:(?:section|chapter|appendix|annex|part)\s+)?(?:[0-9]+(?:\.[0-9]+)*|[A-Z](?:\.[0-9]+)*|[ivxlc]+)[.)]?\s+", re.I)
CONTENT_MATCH = 0.6
"""Share of matching words (difflib ratio) above which two unpaired sections are one section re-headed."""
MAX_WORDS = 3000
"""Words of a section compared for content pairing (a longer section is paired on its first words)."""


@dataclass(frozen=True)
class SectionPair:
    """Two aligned sections (either may be None: added or removed) and how they were paired."""

    a: Section | None
    b: Section | None
    how: str  # root, path, heading, content, only_a, only_b
    parents_a: tuple[str, ...] = ()
    parents_b: tuple[str, ...] = ()
    path_a: str = ""
    path_b: str = ""

    @property
    def moved(self) -> bool:
        """Paired by heading or content, under other parent headings (a title heading aside)."""
        return self.a is not None and self.b is not None and self.how not in ("root", "path") and self.parents_a != self.parents_b

    @property
    def renamed(self) -> bool:
        return self.a is not None and self.b is not None and self.how != "root" and heading_key(self.a.heading) != heading_key(self.b.heading)


def heading_key(heading: str) -> str:
    """A heading as headings are matched: ``shelfwise.compiler.prose.normalise``, lower-cased, leading numbering
    ('8.2.2', 'Appendix A') aside."""
    text = normalise(heading.lower())
    stripped = _NUMBERING.sub("", text)
    return stripped or text


def _path_key(section: Section) -> tuple[str, ...]:
    return tuple(normalise(h.lower()) for h in section.heading_path)


def _shown(section: Section | None, title: str) -> str:
    """'Parent › Heading' as a change names the section, without a leading heading that repeats the title."""
    if section is None:
        return ""
    path = list(section.heading_path)
    if len(path) > 1 and _is_title(section.model_copy(update={"level": 1, "heading": path[0]}), title):
        path = path[1:]
    return " › ".join(path)


def _parents(section: Section | None, title: str) -> tuple[str, ...]:
    """Parent headings of a section as moves are judged: numbering and a heading that repeats the title aside."""
    if section is None:
        return ()
    titled = normalise(title.lower())
    keys = [heading_key(h) for h in section.heading_path[:-1]]
    return tuple(k for n, k in enumerate(keys) if not (n == 0 and len(k) > 3 and titled.startswith(k)))


def _pair_by(key, left: list[Section], right: list[Section], how: str, pairs: list[SectionPair]) -> None:
    waiting: dict = {}
    for section in right:
        waiting.setdefault(key(section), []).append(section)
    for section in list(left):
        queue = waiting.get(key(section))
        if queue:
            other = queue.pop(0)
            pairs.append(SectionPair(section, other, how))
            left.remove(section)
            right.remove(other)


def _similar(left: list[Section], right: list[Section]):
    """(ratio, i, j) for unpaired sections whose words match above CONTENT_MATCH (difflib on words, cheap bounds first)."""
    words_b = [y.text.split()[:MAX_WORDS] for y in right]
    for i, x in enumerate(left):
        words_a = x.text.split()[:MAX_WORDS]
        if not words_a:
            continue
        matcher = SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(words_a)
        for j, words in enumerate(words_b):
            if not words or 2 * min(len(words), len(words_a)) / (len(words) + len(words_a)) < CONTENT_MATCH:
                continue
            matcher.set_seq1(words)
            if matcher.real_quick_ratio() >= CONTENT_MATCH and matcher.quick_ratio() >= CONTENT_MATCH:
                ratio = matcher.ratio()
                if ratio >= CONTENT_MATCH:
                    yield ratio, i, j


def _is_title(section: Section, title: str) -> bool:
    """A top heading that repeats the document's title (a reader made the title a section): part of the root."""
    key = heading_key(section.heading)
    return section.level == 1 and len(key) > 3 and normalise(title.lower()).startswith(key)


def _root(sections: list[Section], title: str) -> Section | None:
    roots = [s for s in sections if s.level == 0]
    if not roots:
        return None
    extra = [block for s in sections if _is_title(s, title) for block in s.blocks]
    return roots[0].model_copy(update={"blocks": [*roots[0].blocks, *extra]}) if extra else roots[0]


def align_sections(a: list[Section], b: list[Section], title_a: str = "", title_b: str = "") -> list[SectionPair]:
    """Pairs of aligned sections in B's order (A's unpaired sections at the place their predecessor went).

    A top section whose heading repeats its document's title is read as part of the root.
    """
    left = [s for s in a if s.level > 0 and not _is_title(s, title_a)]
    right = [s for s in b if s.level > 0 and not _is_title(s, title_b)]
    pairs: list[SectionPair] = []
    root_a, root_b = _root(a, title_a), _root(b, title_b)
    if root_a and root_b:
        pairs.append(SectionPair(root_a, root_b, "root"))
    _pair_by(_path_key, left, right, "path", pairs)
    _pair_by(lambda s: heading_key(s.heading), left, right, "heading", pairs)
    candidates = sorted(_similar(left, right), key=lambda t: (-t[0], t[1], t[2]))
    used_a, used_b = set(), set()
    for ratio, i, j in candidates:
        if ratio < CONTENT_MATCH:
            break
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        pairs.append(SectionPair(left[i], right[j], "content"))
    pairs.extend(SectionPair(s, None, "only_a") for i, s in enumerate(left) if i not in used_a)
    pairs.extend(SectionPair(None, s, "only_b") for j, s in enumerate(right) if j not in used_b)
    pairs = [SectionPair(p.a, p.b, p.how, _parents(p.a, title_a), _parents(p.b, title_b), _shown(p.a, title_a), _shown(p.b, title_b))
             for p in pairs]
    return sorted(pairs, key=lambda p: (p.b.seq if p.b else _after(p.a, pairs), 0 if p.b else 1))


def _after(section: Section, pairs: list[SectionPair]) -> float:
    """Where a section only in A goes in B's order: just after the B section its nearest paired predecessor went to."""
    before = [p for p in pairs if p.a is not None and p.b is not None and p.a.seq < section.seq]
    return max(before, key=lambda p: p.a.seq).b.seq + 0.5 if before else -1.0
