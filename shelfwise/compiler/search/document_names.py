"""How a query names a document of the shelf: by identifier (RFC 6750, PEP 585, SP 800-63B, ISO 13485), or by a
short name (its file name without the extension, its title before a colon); and the query with those names taken out.

Identifiers are ``shelfwise.compiler.document_ids``'s series, read in any case (queries are often lower-cased) and
compared by its key. An organization's code (SOP-014) is not one here: a question naming a code asks about a
document the code stands in as often as the coded one, and the named route's narrowing to it cost northwind's
retrieval (hybrid MRR 0.904 -> 0.884: nw-09 "which section of the Quality Manual does SOP-014 implement"); a code
in a title or file name is the identifier route's concern (``ShelfSearcher.identifier_holders``).
"""

from __future__ import annotations

import re
from pathlib import Path

from shelfwise.compiler.digests.identity import document_name
from shelfwise.compiler.document_ids import series_ids
from shelfwise.compiler.prose import normalise

__all__ = ["document_identifiers", "without_identifiers", "short_names", "words", "normal", "strip_document_names", "names_series",
           "heading_names_document"]


def document_identifiers(text: str) -> set[str]:
    """The keys of the document identifiers in ``text``: 'rfc-6750', 'pep-585', 'sp-800-63-b'."""
    return {found.key for found in series_ids(text, ignore_case=True)}


def names_series(key: str, asked: str) -> bool:
    """Whether the identifier keyed ``asked`` names the one keyed ``key``: the same, or the series it heads
    ('sp-800-63' names SP 800-63-3, a revision; not SP 800-63B, another volume)."""
    return key == asked or (key.startswith(asked + "-") and key[len(asked) + 1 : len(asked) + 2].isdigit())


def without_identifiers(text: str) -> str:
    """``text`` with each document identifier in it replaced by a space."""
    return _blanked(text, series_ids(text, ignore_case=True))


def _blanked(text: str, found: list) -> str:
    """``text`` with the spans of ``found`` (identifiers, perhaps sharing a span: 'PEPs 484 and 526') as spaces."""
    out, at = [], 0
    for start, end in sorted({(f.start, f.end) for f in found}):
        if start >= at:
            out += [text[at:start], " "]
            at = end
    return "".join([*out, text[at:]])


def short_names(documents: dict[str, dict]) -> dict[str, set[str]]:
    """Doc id -> the short names a question may call it by: its file name without the extension and its title
    before a colon ("RAPTOR", "Dense X Retrieval", "Adaptive-RAG"), normalised.

    A short name counts only when it is written with a capital letter (a file called ``make.pdf`` is not named by
    the verb), has four characters or more, and belongs to one document alone (two editions of "GNU Make" are
    named by neither)."""
    owners: dict[str, set[str]] = {}
    for doc_id, row in documents.items():
        stem = Path(row["path"]).name.rsplit(".", 1)[0]
        title = document_name(row)  # its one name (``shelfwise.compiler.digests.identity``)
        for name in (stem, title.split(":", 1)[0] if ":" in title else ""):
            key = normal(name)
            if len(key.replace(" ", "")) >= 4 and any(c.isupper() for c in name):
                owners.setdefault(key, set()).add(doc_id)
    names: dict[str, set[str]] = {}
    for name, docs in owners.items():
        if len(docs) == 1:
            names.setdefault(next(iter(docs)), set()).add(name)
    return names


def words(text: str) -> str:
    """Runs of anything but ASCII letters and digits as one space (``shelfwise.compiler.prose.normalise`` after), case
    kept: how a name is compared where its capitals count ("Type Hints" is a title, "type hints" are words)."""
    return normalise(re.sub(r"[^A-Za-z0-9]+", " ", text))


def normal(text: str) -> str:
    """How names are compared: ``words`` of the lower-cased text (a search-key folding)."""
    return words(text.lower())


def strip_document_names(query: str, keys: set[str]) -> str:
    """``query`` without the identifiers that name a document with one of ``keys`` (exactly, or as the prefix of a
    series: "SP 800-63" names SP 800-63-3), for the dense route: the named route finds those documents, and in an
    embedding the numbers only pull the query towards every section that cites a PEP or an RFC (abstracts,
    introductions) and away from what it asks. Hybrid dev nDCG@10 0.573 -> 0.594 and MRR 0.750 -> 0.771 (the one
    cost: identity-03, 1 -> 0.5); dev-formats and northwind name no document by number (same)."""

    naming = [found for found in series_ids(query, ignore_case=True) if any(names_series(key, found.key) for key in keys)]
    return normalise(_blanked(query, naming)) or query


def heading_names_document(heading: str, title: str, path: str) -> bool:
    """Whether a section's ``heading`` names its document rather than a section of it: it is the document's title or
    file name ("OWASP Top 10 2017" heading the OWASP Top 10 2017 file), or, without its number, a phrase of two words or
    more of the title ("2.1. HIPAA Security Rule" in "... Implementing the Health Insurance Portability and
    Accountability Act (HIPAA) Security Rule": "Under the HIPAA Security Rule, ..." names the guide's subject)."""
    heading_words, title_words = normal(heading), normal(title)
    if not heading_words:
        return False
    bare = re.sub(r"^(?:\d+ )+", "", heading_words)
    return heading_words in {title_words, normal(Path(path).name.rsplit(".", 1)[0])} or (
        len(bare.split()) >= 2 and f" {bare} " in f" {title_words} ")
