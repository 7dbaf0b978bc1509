"""Comparisons asked of a compiled shelf: one pair by document ids, or a batch of every pair matched by identity.

Both the CLI (``shelfwise compare``) and the API (``POST /api/compare``) call
these two functions on the shelf's documents; the answer is the model-free
change set and its Markdown.
"""

from __future__ import annotations

import time

from pydantic import BaseModel, Field

from shelfwise.compiler.compare.changes import ChangeSet, DocView, compare_documents
from shelfwise.compiler.compare.pairs import identity_of, pair_documents
from shelfwise.compiler.compare.render import MODEL_FREE_NOTE, render_batch, render_pair
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.store.store import Store

__all__ = ["CompareError", "UnknownDocument", "ComparedPair", "Comparison", "compare_pair", "compare_batch",
           "views_from_store", "links_from_store"]


class CompareError(ShelfwiseError):
    """Raised by compare_pair when the request names one document twice (the API answers 400)."""


class UnknownDocument(CompareError):
    """Raised by compare_pair for a document id the shelf does not hold (the API answers 404)."""


class ComparedPair(BaseModel):
    """One compared pair: whom or what it is about, why these two were paired, and the change set."""

    name: str = Field(description="The person, supplier or document code the pair is about ('' when none was read).")
    reason: str = Field(description="Why the two were paired: 'asked', 'supersedes link', 'same person', ...")
    seconds: float = Field(description="Seconds the comparison took.")
    changes: ChangeSet


class Comparison(BaseModel):
    """The answer: every pair's change set, the documents with no other version, and the Markdown of it all."""

    mode: str = Field(default="model-free", description="How the changes were found; model-free: by code alone.")
    pairs: list[ComparedPair] = Field(default_factory=list)
    alone: list[dict] = Field(default_factory=list, description="Documents with nothing to compare: doc_id, title, name.")
    markdown: str = Field(default="", description="One named table per pair.")


def views_from_store(store: Store) -> dict[str, DocView]:
    """Every document of a compiled store as the comparison reads it, by doc id."""
    return {row["doc_id"]: DocView(row["doc_id"], row["title"], row["path"], store.sections(row["doc_id"])) for row in store.documents()}


def links_from_store(store: Store) -> list[tuple[str, str, str]]:
    """(kind, newer, older) of the store's supersedes and same_series links."""
    return store.ledger.revision_links()


def _check_ids(docs: dict[str, DocView], doc_a: str, doc_b: str) -> None:
    for doc_id in (doc_a, doc_b):
        if doc_id not in docs:
            close = sorted(d for d in docs if doc_id.lower() in d.lower())[:3]
            hint = f"; did you mean {', '.join(close)}?" if close else "; 'shelfwise documents SHELF' lists the document ids"
            raise UnknownDocument(f"no document {doc_id!r} in this shelf{hint}")
    if doc_a == doc_b:
        raise CompareError(f"document {doc_a!r} given twice; name two different documents (the older first)")


def compare_pair(docs: dict[str, DocView], doc_a: str, doc_b: str) -> Comparison:
    """The change set from ``doc_a`` (older) to ``doc_b`` (newer)."""
    _check_ids(docs, doc_a, doc_b)
    started = time.perf_counter()
    changes = compare_documents(docs[doc_a], docs[doc_b])
    name = identity_of(docs[doc_b]).label
    pair = ComparedPair(name=name, reason="asked", seconds=round(time.perf_counter() - started, 4), changes=changes)
    return Comparison(pairs=[pair], markdown=MODEL_FREE_NOTE + "\n\n" + render_pair(changes, name) + "\n")


def compare_batch(docs: dict[str, DocView], links: list[tuple[str, str, str]]) -> Comparison:
    """Every pair of the shelf matched by identity or by a supersedes/same_series link, oldest first."""
    pairing = pair_documents([docs[d] for d in sorted(docs, key=lambda d: docs[d].path)], links)
    pairs = []
    for older, newer, identity, reason in pairing.pairs:
        started = time.perf_counter()
        changes = compare_documents(older, newer)
        pairs.append(ComparedPair(name=identity.label, reason=reason, seconds=round(time.perf_counter() - started, 4), changes=changes))
    alone = [{"doc_id": doc.doc_id, "title": doc.title, "name": identity.label} for doc, identity in pairing.alone]
    markdown = render_batch([(p.name, p.changes) for p in pairs], [(a["name"], a["doc_id"], a["title"]) for a in alone])
    return Comparison(pairs=pairs, alone=alone, markdown=markdown)
