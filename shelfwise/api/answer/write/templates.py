"""A form's template text: sentences that documents of different issuers share word for word.

Filings of one form carry text the form prescribes: the certifications every officer signs ("Based on my knowledge,
this report does not contain any untrue statement of a material fact ..."), signature blocks, cover-page instructions.
Read as an answer to what one document says about its own business they are noise, and they share the question's words
("most recent evaluation", "internal control over financial reporting") well enough to be picked. A sentence that
documents of two or more issuers (their compiled identities) hold verbatim, but for the filer's own names the form has
it fill in ("I have reviewed this quarterly report on Form 10-Q of Intel Corporation;", "... of Apple Inc.;"), is such a
template, and so is every sentence of a section most of whose sentences are (a certification's "I, Luca Maestri, certify
..."): the writer takes them only when nothing else of the reading answers the part. Text shared by one issuer's
documents (a quarter's filing and the next, a manual's editions) is continuity, not a template, and a shelf without two
known issuers has none.
"""

from __future__ import annotations

import re
from typing import Callable

from shelfwise.api.answer.write.paragraphs import LIST_MARK
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import normalise

__all__ = ["template_texts", "template_key", "template_units", "filer_names"]

_TEXT_KINDS = ("sentence", "list_item", "step")


def template_key(text: str, names: tuple[str, ...] = ()) -> str:
    """What two copies of one template sentence share: the text, whitespace, case and a list mark aside (one filer
    letters the certification's items "(a)", another "a)"), and the filer's ``names`` (its issuer's name and aliases,
    ``filer_names``) written as one placeholder."""
    key = LIST_MARK.sub("", normalise(text).lower())
    for name in names:
        key = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", _FILER, key)
    return key


_FILER = "\u2063filer\u2063"
"""What stands for a filer's name in a template key (between invisible separators: no text writes it)."""


def filer_names(shelf: OpenShelf, doc_id: str) -> tuple[str, ...]:
    """The names a document's issuer goes by (its compiled identity's issuer and aliases), lower-cased, longest first
    ("apple inc." before "apple"); none for a document with no issuer. Made once per open shelf and document."""
    def make() -> tuple[str, ...]:
        identity = (shelf.identities or {}).get(doc_id)
        if identity is None or not identity.issuer:
            return ()
        names = {normalise(n).lower() for n in [identity.issuer, *identity.aliases] if len(n.strip()) >= 2}
        return tuple(sorted(names, key=lambda n: (-len(n), n)))
    return shelf.memo(("filer-names", doc_id), make)  # once per open shelf: every answer's template check asks it


def template_texts(shelf: OpenShelf, units_of: Callable) -> frozenset[str]:
    """The ``template_key`` of every sentence, list item or step that documents of two or more issuers hold; computed
    once per open shelf. A form prescribes its text to every document of it, so one document per issuer shows it (and
    keeps the work and memory bounded on a shelf of many filings). ``units_of(shelf, section_id)`` gives a section's
    units (the writer's ``section_units``)."""
    return shelf.memo(("template-texts",), lambda: _templates(shelf, units_of))


def template_units(pool, shelves: dict[str, OpenShelf], units_of: Callable) -> set[int]:
    """Indices of the writer's pool units (``shelfwise.api.answer.write.pool.Pool``) that are a form's template text:
    their text is, or most of their section's sentences are (a certification's name lines go with it)."""
    texts = {name: template_texts(shelves[name], units_of) for name in {u.shelf for u in pool.units} if name in shelves}
    by_section: dict[tuple[str, str], list[int]] = {}
    for index, unit in enumerate(pool.units):
        if texts.get(unit.shelf) and unit.kind in _TEXT_KINDS:
            by_section.setdefault((unit.shelf, unit.section_id), []).append(index)
    found: set[int] = set()
    for (name, section_id), indices in by_section.items():
        if _mostly_template(shelves[name], section_id, units_of, texts[name]):
            found.update(indices)
        else:
            found.update(i for i in indices
                         if template_key(pool.units[i].text, filer_names(shelves[name], pool.units[i].doc_id)) in texts[name])
    return found


def _mostly_template(shelf: OpenShelf, section_id: str, units_of: Callable, texts: frozenset[str]) -> bool:
    """Whether most of a section's sentences are template text; decided once per open shelf and section (``texts`` is
    the shelf's own ``template_texts``), not again on every answer that reads the section."""
    def decide() -> bool:
        names = filer_names(shelf, shelf.sections[section_id].doc_id) if section_id in shelf.sections else ()
        own = [template_key(u.text, names) for u in units_of(shelf, section_id) if u.kind in _TEXT_KINDS]
        return 2 * sum(key in texts for key in own) > len(own)
    return shelf.memo(("template-section", section_id), decide)


def _templates(shelf: OpenShelf, units_of: Callable) -> frozenset[str]:
    issuers = {doc: identity.issuer for doc, identity in (shelf.identities or {}).items() if identity.issuer}
    if len(set(issuers.values())) < 2:
        return frozenset()
    sampled: dict[str, str] = {}
    for doc in sorted(issuers):
        sampled.setdefault(issuers[doc], doc)
    holder: dict[str, str] = {}  # key -> the one issuer holding it, "" once a second does
    for issuer, doc in sampled.items():
        names = filer_names(shelf, doc)
        for section_id in shelf.doc_sections.get(doc, ()):
            for unit in units_of(shelf, section_id):
                if unit.kind in _TEXT_KINDS:
                    key = template_key(unit.text, names)
                    holder[key] = issuer if holder.get(key, issuer) == issuer else ""
    return frozenset(key for key, held in holder.items() if not held)
