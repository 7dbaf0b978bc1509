"""Current versus superseded: which documents the ledger says are superseded, and each document's short label.

A document is superseded when the ledger links a newer one to it: a 'supersedes'
link (the newer document says so) or a 'same_series' link whose reason says the
source is the newer revision/edition of the same series. Every shown unit is
labelled with its document's short name ("QM-001 Rev D", "SOP-014", else a
shortened title); a unit of a superseded document also names what superseded it.

``current_first`` orders one answer: per obligation, units of current documents
first; a superseded unit is shown after them, marked "QM-001 Rev C (superseded by
Rev D) said: ...", unless a current unit shown restates it (same rule, same figures:
it adds nothing). A rule the current document states with other figures (a rule
that changed) is always kept, and so is everything when the obligation asks about
versions or changes.
"""

from __future__ import annotations

import re

from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import word_stems
from shelfwise.compiler.digests.names import short_name
from shelfwise.compiler.language.numbers import NUMBER_WORDS, alternation
from shelfwise.compiler.language.versions import asks_about_versions
from shelfwise.compiler.tuning import DEFAULT_TUNING, AnswerTuning

__all__ = ["doc_label", "superseded_documents", "label_units", "current_first", "changed_rule", "same_rule", "superseded_prefix"]

_DIGITS = re.compile(rf"\d+(?:[.,]\d+)?|\b(?:{alternation(NUMBER_WORDS)})\b", re.I)


def doc_label(shelf: OpenShelf, doc_id: str) -> str:
    """A document's short label, compiled with its identity (``DocumentIdentity.label``): its name when it is named by
    issuer, form and period ("Apple Inc. 10-Q, quarter ended July 1, 2023"), else its code with its revision ("QM-001
    Rev D"), its code, or its title shortened (``shelfwise.compiler.digests.names.short_name``)."""
    return shelf.memo(("doc_label", doc_id), lambda: _doc_label(shelf, doc_id))


def _doc_label(shelf: OpenShelf, doc_id: str) -> str:
    identity = shelf.identities.get(doc_id)
    if identity is not None:
        return identity.label or identity.name
    row = shelf.documents.get(doc_id, {})  # a shelf compiled before identities, or held in memory by a test
    return short_name(row.get("title", doc_id) or doc_id, row.get("path", ""))


def superseded_documents(shelf: OpenShelf) -> dict[str, str]:
    """Superseded document id -> the newest document superseding it (along the ledger's links)."""
    return shelf.memo(("superseded_documents",), lambda: _superseded_documents(shelf))


def _superseded_documents(shelf: OpenShelf) -> dict[str, str]:
    newer: dict[str, str] = {}
    for link in shelf.links:
        if link.src_doc == link.dst_doc:
            continue
        if link.kind == "supersedes" or (link.kind == "same_series" and "newer" in link.reason):
            newer.setdefault(link.dst_doc, link.src_doc)
    out = {}
    for doc in newer:
        seen, current = {doc}, newer[doc]
        while current in newer and newer[current] not in seen:
            seen.add(current)
            current = newer[current]
        out[doc] = current
    return out


def superseded_prefix(label: str, newer: str) -> str:
    """'QM-001 Rev C (superseded by Rev D) said:', 'GNU Make Edition 0.75 (superseded by Edition 0.77) said:' — the
    newer label shortened when it shares the code or title before the revision."""
    code = re.split(r" (?=(?:Rev|Edition|Version) \S+$)", label, maxsplit=1)[0]
    short = newer[len(code):].strip() if code != label and newer.startswith(code + " ") else newer
    return f"{label} (superseded by {short}) said:"


def label_units(units: list, shelves: dict[str, OpenShelf]) -> list:
    """Each unit with ``source`` (its first cited section's document label) and ``superseded_by`` set. A sentence that a
    superseded revision and the current one both state is the current one's: its current citations come first, so it
    is never shown as what the old revision said."""
    out = []
    for unit in units:
        shelf = shelves.get(unit.shelf)
        known = [s for s in unit.citations if shelf and s in shelf.sections]
        if shelf is None or not known:
            out.append(unit)
            continue
        superseded = superseded_documents(shelf)
        known.sort(key=lambda s: shelf.sections[s].doc_id in superseded)  # stable: current sections first
        citations = known + [s for s in unit.citations if s not in known]
        doc = shelf.sections[known[0]].doc_id
        newer = superseded.get(doc)
        out.append(unit.model_copy(update={"citations": citations, "source": doc_label(shelf, doc),
                                           "superseded_by": doc_label(shelf, newer) if newer else ""}))
    return out


def _rule_words(text: str) -> set[str]:
    return {w for w in word_stems(_DIGITS.sub(" ", text)) if not w.isdigit()}


def _figures(text: str) -> set[str]:
    return {f.lower() for f in _DIGITS.findall(text)}


def same_rule(one: str, other: str, share: float = DEFAULT_TUNING.same_rule_share) -> bool:
    """Whether two sentences state the same rule, their figures aside: ``share`` of their words in common
    (``answer.tuning.same_rule_share``)."""
    words, others = _rule_words(one), _rule_words(other)
    return bool(words and others) and len(words & others) / len(words | others) >= share


def changed_rule(old: str, current: list[str], share: float = DEFAULT_TUNING.same_rule_share) -> bool:
    """Whether a current sentence states the same rule as ``old`` (``same_rule``) with other numbers."""
    return any(same_rule(old, text, share) and _figures(old) != _figures(text) for text in current)


def _restated(old: str, current: list[str], share: float) -> bool:
    """Whether a current sentence states the same rule as ``old`` with the same numbers (the old one adds nothing)."""
    return any(same_rule(old, text, share) and _figures(old) == _figures(text) for text in current)


def current_first(units: list, asks: list[str], tuning: AnswerTuning = DEFAULT_TUNING) -> list:
    """Per obligation (in order of first appearance), current units first, then the superseded ones that matter.

    ``asks`` holds each obligation's ask (the versions test); units must carry ``superseded_by`` (``label_units``).
    Verdicts and premise corrections keep their place first in their part. Two sentences state the same rule by
    ``tuning.same_rule_share``."""
    out = []
    for obligation in dict.fromkeys(u.obligation for u in units):
        part = [u for u in units if u.obligation == obligation]
        current = [u for u in part if not u.superseded_by]
        old = [u for u in part if u.superseded_by]
        versions = 0 <= obligation < len(asks) and asks_about_versions(asks[obligation])
        texts = [u.text for u in current if u.kind not in ("table_header", "heading", "connective")]
        share = tuning.same_rule_share
        kept = [u for u in old if versions or changed_rule(u.text, texts, share) or not _restated(u.text, texts, share)]
        out += current + [u for u in kept if u.kind != "table_header" or any(k.group == u.group and k.kind == "table_row" for k in kept)]
    return out
