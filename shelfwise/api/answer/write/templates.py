"""A form's template text: sentences that documents of different issuers share word for word.

Filings of one form carry text the form prescribes: the certifications every officer signs ("Based on my knowledge,
this report does not contain any untrue statement of a material fact ..."), signature blocks, cover-page instructions.
Read as an answer to what one document says about its own business they are noise, and they share the question's words
("most recent evaluation", "internal control over financial reporting") well enough to be picked. A sentence that
documents of two or more issuers (their compiled identities) hold verbatim is such a template, and so is every sentence
of a section most of whose sentences are (a certification's "I, Luca Maestri, certify ..."): the writer takes them only
when nothing else of the reading answers the part. Text shared by one issuer's documents (a quarter's filing and the
next, a manual's editions) is continuity, not a template, and a shelf without two known issuers has none.
"""

from __future__ import annotations

from typing import Callable

from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import normalise

__all__ = ["template_texts", "template_key", "template_units"]

_TEXT_KINDS = ("sentence", "list_item", "step")


def template_key(text: str) -> str:
    """What two copies of one template sentence share: the text, whitespace and case aside."""
    return normalise(text).lower()


def template_texts(shelf: OpenShelf, units_of: Callable) -> frozenset[str]:
    """The ``template_key`` of every sentence, list item or step that documents of two or more issuers hold; computed
    once per open shelf. ``units_of(shelf, section_id)`` gives a section's units (the writer's ``section_units``)."""
    return shelf.memo(("template-texts",), lambda: _templates(shelf, units_of))


def template_units(pool, shelves: dict[str, OpenShelf], units_of: Callable) -> set[int]:
    """Indices of the writer's pool units (``shelfwise.api.answer.write.rank.Pool``) that are a form's template text."""
    texts = {name: template_texts(shelves[name], units_of) for name in {u.shelf for u in pool.units} if name in shelves}
    return {i for i, u in enumerate(pool.units) if texts.get(u.shelf) and template_key(u.text) in texts[u.shelf]}


def _templates(shelf: OpenShelf, units_of: Callable) -> frozenset[str]:
    issuers = {doc: identity.issuer for doc, identity in (shelf.identities or {}).items() if identity.issuer}
    if len(set(issuers.values())) < 2:
        return frozenset()
    holders: dict[str, set[str]] = {}
    keys: dict[str, list[str]] = {}  # section id -> its units' keys
    for section_id, section in shelf.sections.items():
        issuer = issuers.get(section.doc_id)
        if issuer:
            keys[section_id] = [template_key(u.text) for u in units_of(shelf, section_id) if u.kind in _TEXT_KINDS]
            for key in keys[section_id]:
                holders.setdefault(key, set()).add(issuer)
    shared = {key for key, held in holders.items() if len(held) >= 2}
    # a section most of whose sentences are the form's (a certification) is the form's, its name lines included
    whole = {key for own in keys.values() if 2 * sum(k in shared for k in own) > len(own) for key in own}
    return frozenset(shared | whole)
