"""Search-hit snippets: the stretch of a section's text that holds most of the query's words (issue 16 part 4).

Words are compared as stems (whoosh's StemmingAnalyzer, as the lexical index uses), so "reviews" in a query finds
"reviewed" in the text. The snippet is cut at word boundaries and marked with
an ellipsis where it does not start or end the section.
"""

from __future__ import annotations

import re

from whoosh.analysis import StemmingAnalyzer

__all__ = ["snippet", "SNIPPET_CHARS"]

SNIPPET_CHARS = 240
"""The longest snippet, in characters."""

LEAD_CHARS = 40
"""Context kept before the first matched word."""

_ANALYZER = StemmingAnalyzer()
_WORD = re.compile(r"\w+")


def _stem(word: str) -> str | None:
    tokens = [token.text for token in _ANALYZER(word)]
    return tokens[0] if tokens else None


def snippet(text: str, query: str, limit: int = SNIPPET_CHARS) -> str:
    """The window of at most ``limit`` characters of ``text`` holding the most distinct query stems (the opening
    when none match), whitespace collapsed."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    wanted = {stem for stem in (_stem(w) for w in _WORD.findall(query)) if stem}
    words = [(m.start(), m.end(), _stem(m.group())) for m in _WORD.finditer(flat)]
    best_start, best_count, right, held = 0, 0, 0, {}
    for left, (start, _, _) in enumerate(words):  # two pointers: words[left:right] fit in the limit
        while right < len(words) and words[right][1] - start <= limit:
            stem = words[right][2]
            if stem in wanted:
                held[stem] = held.get(stem, 0) + 1
            right += 1
        if len(held) > best_count:
            best_start, best_count = start, len(held)
        stem = words[left][2]
        if stem in held:
            held[stem] -= 1
            if not held[stem]:
                del held[stem]
    if best_count:  # start a little before the first matched word, so the match is not at the window's far end
        first = next(s for s, e, stem in words if s >= best_start and stem in wanted)
        best_start = next((s for s, e, _ in words if s >= first - LEAD_CHARS), first)
    piece = flat[best_start:best_start + limit]
    if best_start + limit < len(flat):
        piece = piece[: piece.rfind(" ")] if " " in piece else piece
        piece += " …"
    return ("… " if best_start else "") + piece.strip()
