"""Documents a question names by name, not by identifier: "RAPTOR", "Dense X Retrieval", "the MIT licence".

Identifiers (PEP 484, RFC 6750, QM-001) are matched by ``shelfwise.api.terms.document_keys``. Many documents have
none: papers, licences, slide decks. A question names those by a short name (``document_names``): the title before
a colon ("RAPTOR: Recursive Abstractive Processing ..." -> "RAPTOR"), the whole title when it is short ("OWASP Top
10 - 2017"), or the title without a trailing word that only says what kind of document it is ("MIT License" ->
"MIT"). A name counts when it has four characters or more and a capital letter, or is an acronym of two or three
capitals, and does not open with a number (a section file's "6 Assertions"). It is matched as the title writes it,
capitals included, as whole words: "Type Hints" (PEP 484's title) is named by "Type Hints", not by a question about
type hints. Several documents may share a name (two editions of one title): the question names them all.
"""

from __future__ import annotations

import re
from functools import lru_cache

from shelfwise.compiler.prose import normalise

__all__ = ["document_names", "named_by_name", "names_written", "GENERIC"]

GENERIC = frozenset("""license licence agreement manual handbook guide guidelines policy standard specification procedure
paper document edition""".split())
"""Trailing title words that say what kind of document it is, not which one ("MIT License" is named "MIT")."""
_MAX_TITLE_WORDS = 8
"""A whole title this short is a name a question may write out; a longer one is not."""
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9&]{1,2}$")


def _words(text: str) -> str:
    """How names are compared: ``normalise``, then runs of anything but letters and digits as one space, case kept."""
    return normalise(re.sub(r"[^A-Za-z0-9]+", " ", text))


@lru_cache(maxsize=65_536)
def document_names(title: str) -> frozenset[str]:
    """The names a question may call a document with ``title`` by (``_words`` form)."""
    title = " ".join(str(title).split())
    candidates = [title.split(":", 1)[0]] if ":" in title else []
    words = title.split()
    if 2 <= len(words) <= _MAX_TITLE_WORDS:
        candidates.append(title)
    while len(words) > 1 and words[-1].lower().strip(".,") in GENERIC:
        words = words[:-1]
        candidates.append(" ".join(words))
    names = set()
    for name in candidates:
        name = _words(name)
        if not name or name[0].isdigit():
            continue
        if _ACRONYM.match(name) or (len(name.replace(" ", "")) >= 4 and any(c.isupper() for c in name)):
            names.add(name)
    return frozenset(names)


_EDITION = re.compile(r"\b(?:19|20)\d\d\b|\bRev(?:ision)? [A-Z0-9]{1,3}\b")
"""What tells the editions of one series apart in their names: a year ("OWASP Top 10 2013"), a revision ("Rev D")."""


def _series(name: str) -> str:
    """A name without its year or revision: what the editions of a series share."""
    return " ".join(_EDITION.sub(" ", name).split())


def named_by_name(text: str, documents: dict[str, str]) -> set[str]:
    """Ids of the documents (id -> title) whose name (``document_names``) ``text`` writes, as whole words; and the
    other editions of a named series the text gives the year or revision of ("the OWASP Top 10 2013 categories ... in
    the 2017 edition" names the 2017 edition too)."""
    written = f" {_words(text)} "
    found = {doc_id for doc_id, title in documents.items() if any(f" {name} " in written for name in document_names(title))}
    editions = set(_EDITION.findall(_words(text)))
    series = {_series(name) for doc_id in found for name in document_names(documents[doc_id]) if _EDITION.search(name)}
    if editions and series:
        for doc_id, title in documents.items():
            if any(_series(name) in series and set(_EDITION.findall(name)) <= editions
                   for name in document_names(title) if _EDITION.search(name)):
                found.add(doc_id)
    return found


def names_written(text: str, title: str) -> list[str]:
    """The names of the document titled ``title`` that ``text`` writes (``document_names``), longest first."""
    written = f" {_words(text)} "
    return sorted((name for name in document_names(title) if f" {name} " in written), key=len, reverse=True)
