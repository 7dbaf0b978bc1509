"""Identifiers written in text, of documents and of items: "SOP-014", "RFC 6749", "NW-300", "AAL2", "TLS 1.3".

The one reading of them that the compiler (a document's short label, ``shelfwise.compiler.digests.identity``) and the
answering stages (``shelfwise.api.terms``) share.
"""

from __future__ import annotations

import re

from shelfwise.compiler.document_ids import find_ids, whole

__all__ = ["identifiers", "written"]

_ITEM = re.compile(r"\b[A-Z]{2,}[A-Za-z]*[- ]?\d+(?:[-.]\d+[A-Za-z]?|[A-Za-z](?![A-Za-z]))*\b|\b[A-Z][a-z]+-\d+(?:\.\d+)+\b")
"""An item's identifier that is not a document's: a term written solid (AAL2, HS256), a version (TLS 1.3, Apache-2.0)."""
_ITEM_ANY_CASE = re.compile(_ITEM.pattern, re.IGNORECASE)
"""The same in a lower-cased path ('apache-2.0.txt')."""


def identifiers(text: str) -> list[str]:
    """Document and item identifiers written in ``text`` ("SOP-014", "RFC 6749", "NW-300", "AAL2"), in order, distinct.

    Document identifiers are ``shelfwise.compiler.document_ids``'s written out as words ('RFC 6749', 'pep-0484'); its
    markup forms (a reST role ':pep:`484`', a list 'PEPs 484 and 526') are a page's, not words a question and a
    sentence share, and are left out (counting them moved dev typing-07's ranking, quote recall 0.529 -> 0.508). The
    extra step here adds the identifiers of items, not documents (``_ITEM``: 'AAL2', 'HS256', 'TLS 1.3', 'Apache-2.0',
    and 'RFC6749' inside a citation tag), where they overlap none of those."""
    return list(dict.fromkeys(written(text)))


def written(text: str, ignore_case: bool = False) -> list[str]:
    """Every identifier ``text`` writes, in order, repeats kept; ``ignore_case`` reads a lower-cased path too."""
    documents = [d for d in find_ids(text, ignore_case=ignore_case) if d.text[:1].isalnum() and whole(d.text, ignore_case=ignore_case)]
    spans = [(found.start, found.end) for found in documents]
    found = [(d.start, d.text) for d in documents]
    items = (_ITEM_ANY_CASE if ignore_case else _ITEM).finditer(text)
    found += [(m.start(), m.group(0)) for m in items if not any(a < m.end() and m.start() < b for a, b in spans)]
    return [written for _, written in sorted(found, key=lambda item: item[0])]
