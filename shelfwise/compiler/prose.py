"""The one text normaliser and the one sentence splitter, used by the compiler (ledger, hooks, briefs) and the
answering side (writer, claims, checker) alike, so a sentence the ledger quotes is the sentence the checker sees.

``sentence_spans`` gives character spans into the text as given (so a caller can point back at the source);
``sentences`` gives them whitespace-normalised. A full stop ends a sentence when whitespace and a capital, a
digit or an opening quote, bracket or emphasis mark follow it, except after an abbreviation: one that never
ends a sentence ("e.g.", "Dr.", "etc."), a single letter or letter run ("U.S.", "J."), or one that stands before
a number ("Jan. 5", "No. 3", "p. 12", "Fig. 2"); nor after a run-in requirement label among a sentence's first
three words or right after its term's colon ("OPTIONAL.  The scope ...", "active: REQUIRED.  Boolean indicator ...",
"the documents say: state: RECOMMENDED.  An opaque value ...": BCP 14's REQUIRED, OPTIONAL, RECOMMENDED, and
DEPRECATED, NOTE). pysbd (rule-based, maintained) was measured against this on
the corpora's sections: it agreed on most splits and was far slower (see the commit message), so it is not used.
"""

from __future__ import annotations

import re

__all__ = ["normalise", "unmarked", "sentence_spans", "sentences", "ABBREVIATIONS", "BEFORE_NUMBER"]

ABBREVIATIONS = frozenset("vs e.g i.e etc cf al dr mr ms mrs st inc ltd approx resp viz ca".split())
"""Abbreviations that never end a sentence (compared lower-cased, without their final stop)."""
BEFORE_NUMBER = frozenset(
    "no nos p pp vol eq eqs ch art para sec secs sect fig figs rev ref refs "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
"""Abbreviations that do not end a sentence when a number follows them ("Jan. 5", "No. 3", "Fig. 2")."""

_BOUNDARY = re.compile(r"[.!?][\"')\]]*\s+(?=[\"'(\[*_]?[A-Z0-9])")
_INITIALS = re.compile(r"[a-z]|(?:[a-z]\.)+[a-z]")
_LABEL = re.compile(r"REQUIRED|OPTIONAL|RECOMMENDED|DEPRECATED|NOTE")
_LABEL_WORDS = 3  # a requirement label among a sentence's first three words runs in ("OPTIONAL.", "scope: OPTIONAL.")


def normalise(text: str) -> str:
    """Collapse every whitespace run to one space and strip the ends."""
    return " ".join(text.split())


_EMPHASIS = re.compile(r"(?<![\w*`])(\*{1,2})(?=[^\s*])(.+?)(?<=[^\s*])\1(?![\w*])")


def unmarked(text: str) -> str:
    """Text without the marks a reader keeps for code and emphasis (```make```, ``*simply expanded*``, ``**never**``);
    a '*' inside a word or a code span ("a*b", "`*.c`") is no mark. A manual's Texinfo or Markdown source says in marks
    what its PDF says in typography ("the variable `MAKE`" and "the variable MAKE"): its words read the same either way."""
    return _EMPHASIS.sub(r"\2", text).replace("`", "") if "`" in text or "*" in text else text


def _abbreviation_before(head: str, following: str) -> bool:
    """Whether the stop ending ``head`` belongs to an abbreviation, given the text that follows it."""
    words = head.split()
    word = words[-1].lstrip("(\"'[*_") if words else ""
    if not word.endswith("."):
        return False
    if _LABEL.fullmatch(word[:-1]) and (len(words) <= _LABEL_WORDS or words[-2].endswith(":")):
        return True  # a run-in label, not a sentence: "active: REQUIRED.  Boolean indicator ...", also after a lead-in
    bare = word[:-1].lower()
    if bare in ABBREVIATIONS or _INITIALS.fullmatch(bare):
        return True
    return bare in BEFORE_NUMBER and following[:1].isdigit()


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, ends exclusive, surrounding whitespace excluded."""
    spans: list[tuple[int, int]] = []
    start = len(text) - len(text.lstrip())
    for match in _BOUNDARY.finditer(text):
        if match.start() < start:
            continue
        if _abbreviation_before(text[start : match.start() + 1], text[match.end():]):
            continue
        end = match.end() - (len(match.group()) - len(match.group().rstrip()))
        if end > start:
            spans.append((start, end))
        start = match.end()
    end = len(text.rstrip())
    if end > start:
        spans.append((start, end))
    return spans


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, each whitespace-normalised."""
    return [normalise(text[a:b]) for a, b in sentence_spans(text)]
