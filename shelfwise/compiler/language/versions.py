"""Whether a question asks about versions: revisions, editions, what changed, what superseded or deprecated what.

One test, read by the ranking (``shelfwise.api.answer.write.rank``: a versions question looks for what documents say of
their versions, its version words are not words to find, and a superseded revision's units weigh as much as the
current ones) and by the current-first ordering (``shelfwise.api.currency``: a versions question keeps every
superseded unit). The words are English.
"""

from __future__ import annotations

import re

__all__ = ["ASKS_VERSIONS", "VERSION_WORDS", "asks_about_versions"]

ASKS_VERSIONS = re.compile(r"\b(revisions?|versions?|editions?|changed?|changes|previous|earlier|prior|older|newer|replace[sd]?|"
                           r"supersed\w*|obsolete[sd]?|deprecat\w*|updated?|status|current|history|in force|used to|"
                           r"was (?:it|that) always|always so)\b", re.I)
"""A question (or one obligation's ask) asks about versions when it says one of these: the words the ranking and the
current-first ordering each counted before they shared this test (issue 33), which took in the ranking's narrower
test for the superseded weight (revision, version, changed, previous, earlier) too."""

VERSION_WORDS = ("supersedes superseded replaces replaced obsoletes obsoleted updates updated deprecated deprecation "
                 "revision revised changes changed earlier previous prior older retire retired")
"""What a document says of its versions: a unit holding one of these words (stemmed) holds the versions facet."""


def asks_about_versions(text: str) -> bool:
    """Whether a question or obligation asks about revisions, versions, what changed or what is deprecated."""
    return bool(ASKS_VERSIONS.search(text))
