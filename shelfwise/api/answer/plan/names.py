"""Documents a question names by name, not by identifier: "RAPTOR", "Dense X Retrieval", "the MIT licence".

Identifiers (PEP 484, RFC 6750, QM-001) are matched by ``shelfwise.api.terms.document_keys``. Many documents have
none: papers, licences, slide decks. A question names those by a short name (``document_names``): the title before
a colon ("RAPTOR: Recursive Abstractive Processing ..." -> "RAPTOR"), the whole title when it is short ("OWASP Top
10 - 2017"), or the title without a trailing word that only says what kind of document it is ("MIT License" ->
"MIT"). A name counts when it has four characters or more and a capital letter, or is an acronym of two or three
capitals, and does not open with a number (a section file's "6 Assertions"). It is matched as the title writes it,
capitals included, as whole words: "Type Hints" (PEP 484's title) is named by "Type Hints", not by a question about
type hints. Several documents may share a name (two editions of one title): the question names them all.

A document's file may carry the name people call it by when its title does not: "GDPR.pdf" holds "REGULATION (EU)
2016/679 OF THE EUROPEAN PARLIAMENT ...", a question says "under the GDPR". A file stem that is one word of two
capitals or more ("GDPR", "HIPAA", "HyDE", "ReAct") is such a name (``file_name``); a plain word ("make.pdf",
"notes.docx") or a stem of several words (a title written out) is not.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from pathlib import PurePath

from shelfwise.compiler.search.document_names import words as _words

__all__ = ["document_names", "file_name", "NameIndex", "named_by_name", "names_written", "GENERIC"]

GENERIC = frozenset("""license licence agreement manual handbook guide guidelines policy standard specification procedure
paper document edition""".split())
"""Trailing title words that say what kind of document it is, not which one ("MIT License" is named "MIT")."""
_MAX_TITLE_WORDS = 8
"""A whole title this short is a name a question may write out; a longer one is not."""
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9&]{1,2}$")
_FILE_NAME = re.compile(r"^(?=(?:[^A-Z]*[A-Z]){2})[A-Za-z][A-Za-z0-9]{1,23}$")
"""A file stem that is a proper name: one word (letters and digits, a letter first) holding two capitals or more."""


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


def file_name(path: str) -> str:
    """The name a document's file calls it by ("GDPR.pdf" -> "GDPR", "HyDE.pdf" -> "HyDE"), or "" (``_FILE_NAME``)."""
    stem = PurePath(str(path or "")).stem
    return stem if _FILE_NAME.match(stem) else ""


def _names(title: str, path: str = "") -> frozenset[str]:
    """``document_names`` of the title, with the file's name (``file_name``) when it has one."""
    own = file_name(path)
    return document_names(title) | {own} if own else document_names(title)


_EDITION = re.compile(r"\b(?:19|20)\d\d\b|\bRev(?:ision)? [A-Z0-9]{1,3}\b")
"""What tells the editions of one series apart in their names: a year ("OWASP Top 10 2013"), a revision ("Rev D")."""


def _series(name: str) -> str:
    """A name without its year or revision: what the editions of a series share."""
    return " ".join(_EDITION.sub(" ", name).split())


class NameIndex:
    """The names of a set of documents (id -> title), indexed by their first word, built once for every text a plan
    looks at: matching each text against every title cost 75 ms an obligation at 5,000 documents."""

    def __init__(self, documents: dict[str, str], files: dict[str, str] | None = None):
        self.titles = documents
        self.files = files or {}
        self.by_first: dict[str, list[tuple[tuple[str, ...], str]]] = defaultdict(list)
        self.editions: dict[str, list[tuple[frozenset[str], str]]] = defaultdict(list)  # series -> (its editions, doc)
        for doc_id, title in documents.items():
            for name in _names(title, self.files.get(doc_id, "")):
                words = tuple(name.split())
                self.by_first[words[0]].append((words, doc_id))
                if _EDITION.search(name):
                    self.editions[_series(name)].append((frozenset(_EDITION.findall(name)), doc_id))

    def find(self, text: str) -> set[str]:
        """Ids of the documents whose name (``document_names``) ``text`` writes, as whole words; and the other editions
        of a named series the text gives the year or revision of ("the OWASP Top 10 2013 categories ... in the 2017
        edition" names the 2017 edition too)."""
        written = _words(text)
        tokens = written.split()
        found = {doc_id for at, token in enumerate(tokens) for words, doc_id in self.by_first.get(token, ())
                 if tuple(tokens[at:at + len(words)]) == words}
        given = set(_EDITION.findall(written))
        named_series = {_series(name) for doc_id in found for name in document_names(self.titles[doc_id]) if _EDITION.search(name)}
        for series in named_series if given else ():
            found |= {doc_id for editions, doc_id in self.editions[series] if editions <= given}
        return found


def named_by_name(text: str, documents: dict[str, str], files: dict[str, str] | None = None) -> set[str]:
    """``NameIndex(documents, files).find(text)``, for one text."""
    return NameIndex(documents, files).find(text)


def names_written(text: str, title: str, path: str = "") -> list[str]:
    """The names of the document titled ``title`` (its file at ``path``) that ``text`` writes (``document_names``,
    ``file_name``), longest first."""
    written = f" {_words(text)} "
    return sorted((name for name in _names(title, path) if f" {name} " in written), key=len, reverse=True)
