"""What a candidate sentence's section is, for the false-premise check (``shelfwise.api.answer.check.premise``): its
document's identity, title and headings (who "this PEP" is, what "the GNU General Public License" names), the editions
its shelf holds, the documents a premise names by their compiled identity, and the sentences of the revisions its
document superseded."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from shelfwise.api.answer.check.measure import content_words
from shelfwise.api.answer.read.evidence import identity_terms, identity_text
from shelfwise.api.answer.write.write import section_units
from shelfwise.api.currency import superseded_documents
from shelfwise.api.answer.read.periods import identity_matcher
from shelfwise.compiler.language.versions import editions

__all__ = ["About", "about_sections", "document_title", "named_documents", "earlier_sentences"]


@dataclass(frozen=True)
class About:
    """What a candidate sentence's section is: its document's identity and its headings (who "this PEP" is)."""

    stems: frozenset[str]
    keys: frozenset[str]
    headings: str
    own: str
    doc: str = ""
    title: frozenset[str] = frozenset()
    """The content words of its document's title and identity, not its cover (what the document is about)."""
    held: frozenset[str] = frozenset()
    """The editions the shelf's documents are (their identifier keys and years): which of a series came first."""


def about_sections(shelves: dict) -> Callable[[str, str], About]:
    """(shelf, section id) -> what the section's document is (its identity terms, cached per document) and its headings."""

    def about(shelf_name: str, section_id: str) -> About:
        shelf = shelves[shelf_name]
        section = shelf.sections[section_id]
        stems, keys = identity_terms(shelf, section.doc_id)
        own = shelf.memo(("premise_identity", section.doc_id), lambda: content_words(identity_text(shelf, section.doc_id)))
        identity = shelf.identities.get(section.doc_id)
        label = " ".join([identity.label, identity.revision, identity.period]) if identity is not None else shelf.doc_name(section.doc_id)
        title = document_title(shelf, section.doc_id)
        held = shelf.memo(("premise_editions",), lambda: frozenset(
            key for doc in shelf.documents for key in editions(identity_text(shelf, doc, cover=False))))
        return About(stems=frozenset(stems | own), keys=frozenset(keys), headings=" ".join(section.heading_path), own=label,
                     doc=section.doc_id, title=title, held=held)

    return about


def document_title(shelf, doc_id: str) -> frozenset[str]:
    """The content words of a document's title and identity (issuer, form, label), not its cover."""
    return shelf.memo(("premise_title", doc_id), lambda: frozenset(content_words(identity_text(shelf, doc_id, cover=False))))


def named_documents(shelves: dict) -> Callable[[str, str], set[str]]:
    """(shelf, text) -> the documents of the shelf ``text`` names by their compiled identity (issuer, form, period)."""

    def named(shelf_name: str, text: str) -> set[str]:
        shelf = shelves[shelf_name]
        if not shelf.identities:
            return set()
        return identity_matcher(shelf).find(text)

    return named


def earlier_sentences(shelves: dict) -> Callable[[str, str], list[str]]:
    """(shelf, section id) -> the sentences of the revisions the section's document superseded (cached per shelf)."""

    def earlier(shelf_name: str, section_id: str) -> list[str]:
        shelf = shelves[shelf_name]
        doc = shelf.sections[section_id].doc_id
        return shelf.memo(("earlier_sentences", doc), lambda: [
            text for old, newest in superseded_documents(shelf).items() if newest == doc
            for sid in shelf.text_sections(old) for kind, text, *_ in section_units(shelf, sid)
            if kind in ("sentence", "list_item", "step")])

    return earlier
