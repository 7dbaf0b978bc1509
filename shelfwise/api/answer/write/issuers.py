"""The issuers a question names: a question about one company's filings is written from that company's documents.

"What was Intel's R&D expenditure in Q1 2023, and which initiatives were prioritized?" reads Intel's 10-Qs and, for
its words, Amazon's; Amazon's "sustainability initiatives" say nothing of Intel. A document's issuer and the issuer's
other names ("Intel Corporation", "Intel", "INTC") are its compiled identity (``shelfwise.compiler.digests.identity``),
matched by the shelf's ``IdentityMatch``. When the question names an issuer, the read sections of documents whose
identity names another issuer are left out of what the extractive writer picks from; documents with no issuer (a
guideline, a shelf's SOURCES.md) stay, and a question naming no issuer keeps everything.
"""

from __future__ import annotations

from shelfwise.api.answer.read.periods import identity_matcher

__all__ = ["other_issuers", "without_other_issuers"]


def other_issuers(question: str, docs: set[tuple[str, str]], shelves: dict) -> set[tuple[str, str]]:
    """The (shelf, document id) of ``docs`` whose identity names an issuer the question does not name, when it names
    one (``IdentityMatch.issuer_documents``: by the issuer's name or another name of it); else none."""
    with_issuer = set()
    for shelf, doc in docs:
        identity = shelves[shelf].identities.get(doc)
        if identity is not None and identity.issuer:
            with_issuer.add((shelf, doc))
    named = {shelf: identity_matcher(shelves[shelf]).issuer_documents(question) for shelf in {s for s, _ in with_issuer}}
    asked = {(shelf, doc) for shelf, doc in with_issuer if doc in named[shelf]}
    return with_issuer - asked if asked else set()


def without_other_issuers(question: str, reading, shelves: dict):
    """``reading`` without the sections of documents of an issuer the question does not name (``other_issuers``)."""
    other = other_issuers(question, {(r.shelf, r.doc_id) for r in reading.sections}, shelves)
    if not other:
        return reading
    return reading.model_copy(update={"sections": [r for r in reading.sections if (r.shelf, r.doc_id) not in other]})
