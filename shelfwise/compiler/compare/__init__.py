"""Compare versions: align two documents section by section and field by field, and compute what changed.

    values   amounts, percentages, durations, dates; the signed difference
    fields   label → value pairs and line items of a section tree
    align    sections paired by heading path, heading, then content
    changes  the change set of two documents (compare_documents)
    pairs    identities (person, supplier, document code) and batch pairing
    render   one named Markdown table per pair
    service  compare_pair and compare_batch over a compiled shelf
"""

from shelfwise.compiler.compare.changes import Change, ChangeSet, DocView, compare_documents
from shelfwise.compiler.compare.pairs import Identity, identity_of, pair_documents
from shelfwise.compiler.compare.render import render_batch, render_pair
from shelfwise.compiler.compare.service import (
    CompareError,
    Comparison,
    UnknownDocument,
    compare_batch,
    compare_pair,
    links_from_store,
    views_from_store,
)

__all__ = [
    "Change", "ChangeSet", "DocView", "compare_documents", "Identity", "identity_of", "pair_documents",
    "render_batch", "render_pair", "CompareError", "Comparison", "UnknownDocument", "compare_batch", "compare_pair",
    "links_from_store", "views_from_store",
]
