"""Whether a question asks about versions: revisions, editions, what changed, what superseded or deprecated what.

One test, read by the ranking (``shelfwise.api.answer.write.rank``: a versions question looks for what documents say of
their versions, its version words are not words to find, and a superseded revision's units weigh as much as the
current ones) and by the current-first ordering (``shelfwise.api.currency``: a versions question keeps every
superseded unit). The words are English. Also which editions a text names and which series they belong to (PEP 604 and
PEP 612, SP 800-63-2 and -3, 2013 and 2017), read by the false-premise check of which edition introduced something.
"""

from __future__ import annotations

import re

from shelfwise.compiler.document_ids import key as identifier_key
from shelfwise.compiler.language.directions import COMPARED_WITH
from shelfwise.compiler.written_ids import identifiers

__all__ = ["ASKS_VERSIONS", "VERSION_WORDS", "RELATIVE_EDITION", "EARLIER_EDITION_WORDS", "FIRST_EDITION_WORDS", "asks_about_versions",
           "years_named", "claimed_years", "editions", "series", "edition_number"]

ASKS_VERSIONS = re.compile(r"\b(revisions?|versions?|editions?|changed?|changes|previous|earlier|prior|older|newer|replace[sd]?|"
                           r"supersed\w*|obsolete[sd]?|deprecat\w*|updated?|status|current|history|in force|used to|"
                           r"was (?:it|that) always|always so)\b", re.I)
"""A question (or one obligation's ask) asks about versions when it says one of these: the words the ranking and the
current-first ordering each counted before they shared this test (issue 33), which took in the ranking's narrower
test for the superseded weight (revision, version, changed, previous, earlier) too."""

VERSION_WORDS = ("supersedes superseded replaces replaced obsoletes obsoleted updates updated deprecated deprecation "
                 "revision revised changes changed earlier previous prior older retire retired")
"""What a document says of its versions: a unit holding one of these words (stemmed) holds the versions facet."""


EARLIER_EDITION_WORDS = frozenset("previous prior earlier older former superseded".split())
"""An edition named by these ("the previous revision") is one before the current document."""
FIRST_EDITION_WORDS = frozenset("original first initial earliest".split())
"""An edition named by these ("the first version", "the original RFC") is the first of its series."""
RELATIVE_EDITION = re.compile(
    r"\b(?i:the|its|their)\s+(?P<which>(?i:" + "|".join(sorted(EARLIER_EDITION_WORDS | FIRST_EDITION_WORDS)) + r"))\s+"
    r"(?=(?:[\w.-]+\s+){0,3}?(?i:versions?|revisions?|editions?|releases?|drafts?|specifications?|publications?)\b|[A-Z])")
"""An edition named by its place in its series, not by its identifier ("the previous revision of SP 800-63", "the first
version of the Digital Identity Guidelines", "the original OAuth 2.0 RFC"): a series noun, or a name, follows."""


def asks_about_versions(text: str) -> bool:
    """Whether a question or obligation asks about revisions, versions, what changed or what is deprecated."""
    return bool(ASKS_VERSIONS.search(text))


_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")


def years_named(text: str) -> set[str]:
    """The years a text names ("2013", "2023")."""
    return set(_YEAR.findall(text))


def claimed_years(sentence: str) -> set[str]:
    """The years a sentence's figures are about: those before "compared to ..." (its base period comes after)."""
    base = COMPARED_WITH.search(sentence)
    return years_named(sentence[:base.start()] if base else sentence)


def editions(text: str) -> dict[str, str]:
    """Identifier key or "year NNNN" -> as written: the documents, revisions and editions a text names ("PEP 612",
    "SP 800-63-3", "2017"), read by the false-premise check (``shelfwise.api.answer.check.premise``: which edition introduced it)."""
    out = {identifier_key(i): i for i in identifiers(text)}
    out.update({f"year {y}": y for y in years_named(text)})
    return out


def series(key: str) -> str:
    """What editions of one series share: 'pep' for PEP 604 and PEP 612, 'sp-800-63' for SP 800-63-2 and -3, 'year'."""
    return "year" if key.startswith("year ") else re.sub(r"[-.]?\d+[a-z]?$", "", key)


def edition_number(key: str) -> float | None:
    """The number that orders an edition in its series (604 of PEP 604, 3 of SP 800-63-3, 2017 of a year), or None."""
    match = re.search(r"(\d+(?:\.\d+)?)[a-z]?$", key)
    return float(match.group(1)) if match else None
