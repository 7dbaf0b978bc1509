"""Which documents to compare in a batch: pairs by identity (a person, a supplier, a document code), oldest first.

A document's identity is read from its fields and title: a person's name and
id number (SSN, SIN, TFN…), a supplier's name and business number, or a
document code with a revision ("QM-001 Rev C"). Identities match on id numbers
first; names match only exactly (case and spacing aside), so "Jordan Ellis"
and "Jordan Ellys" stay two people. The ledger's supersedes and same_series
links pair documents before any identity is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from shelfwise.compiler.compare.changes import DocView
from shelfwise.compiler.compare.fields import document_fields, label_key
from shelfwise.compiler.compare.values import parse_value

__all__ = ["Identity", "identity_of", "pair_documents", "Pairing", "one_series"]

_PERSON_NAME = re.compile(r"^(?:(?:taxpayer|taxpayer's|full|your|legal|individual's|individual) )?(?:full )?name(?: of (?:taxpayer|individual))?$|^taxpayer$")
_PERSON_ID = re.compile(r"\b(?:ssn|sin|tfn|itin|social security(?: number)?|social insurance(?: number)?|tax file number|"
                        r"taxpayer identification number|personal (?:id|identification) number)\b")
_SUPPLIER_NAME = re.compile(r"^(?:supplier|vendor|seller|issued by|bill from|from)(?: name)?$")
_SUPPLIER_ID = re.compile(r"\b(?:abn|vat(?: number| no)?|gst(?: number| no)?|hst(?: number| no)?|ein|business number|"
                          r"supplier (?:id|no|number|code)|vendor (?:id|no|number|code))\b")
_CODE = re.compile(r"\b([A-Z]{2,}-\d{2,}[A-Z]?)\b")
_REVISION = re.compile(r"\bRev(?:ision)?\.?\s+([A-Z]{1,2}|\d{1,3})\b")
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_ORDER_LABEL = re.compile(r"^(?:tax year|year|income year|fiscal year|period|invoice date|date|date of issue|issue date|effective date)$")


@dataclass(frozen=True)
class Identity:
    """Who or what a document is about, and where it stands in its series."""

    kind: str  # person, supplier, code, or "" when none was read
    name: str = ""
    number: str = ""
    family: str = ""
    order: tuple = ()

    @property
    def key(self) -> tuple:
        if self.kind in ("person", "supplier"):
            who = re.sub(r"\D", "", self.number) or " ".join(self.name.lower().split())
            return (self.kind, self.family, who)
        return (self.kind, self.family) if self.kind else ()

    @property
    def label(self) -> str:
        """'Jordan Ellis (SSN 000-41-4417)', 'Harbor Supplies Ltd (ABN …)', 'QM-001'."""
        if not self.kind:
            return ""
        if self.kind == "code":
            return self.family
        return f"{self.name} ({self.number})" if self.number and self.name else self.name or self.number


def _family(title: str, drop: list[str]) -> str:
    text = title
    for word in drop:
        if word:
            text = re.sub(re.escape(word), " ", text, flags=re.I)
    text = _REVISION.sub(" ", text)
    text = re.sub(r"\(superseded\)|\bsuperseded\b|\d+", " ", text, flags=re.I)
    return " ".join(re.sub(r"[^\w]+", " ", text.lower()).split())


def identity_of(doc: DocView) -> Identity:
    """The identity read from a document's fields (person first, then supplier) or its title's document code."""
    found: dict[str, tuple[str, str]] = {}
    order: list = []
    for f in document_fields(doc.sections):
        key, value = label_key(f.label), " ".join(f.value.split())
        if f.item or not value:
            continue
        for role, pattern in (("person_name", _PERSON_NAME), ("person_id", _PERSON_ID), ("supplier_name", _SUPPLIER_NAME), ("supplier_id", _SUPPLIER_ID)):
            if role not in found and pattern.search(key) and ("id" not in role or re.search(r"\d", value)):
                found[role] = (f.label, value)
        if _ORDER_LABEL.match(key) and not order:
            parsed = parse_value(value)
            order = [parsed.day.isoformat() if parsed.day else value]
    revision = _REVISION.search(doc.title)
    years = _YEAR.findall(doc.title)
    series = (revision.group(1).rjust(3) if revision else "", order[0] if order else (years[0] if years else ""), doc.path)
    for kind in ("person", "supplier"):
        name = found.get(f"{kind}_name", ("", ""))[1]
        label, number = found.get(f"{kind}_id", ("", ""))
        if name or number:
            short = re.search(r"\(([A-Z]{2,6})\)", label)
            shown = f"{short.group(1) if short else label.strip(' :')} {number}" if number else ""
            return Identity(kind, name, shown, _family(doc.title, [name, number]), series)
    code = _CODE.search(doc.title)
    if code:
        return Identity("code", family=code.group(1), order=series)
    return Identity("", family=_family(doc.title, []), order=series)


SAME_SERIES = 0.6
"""Similarity (difflib ratio) of two titles' families above which a supersedes link joins two versions of one document."""


def one_series(newer: Identity, older: Identity) -> bool:
    """Two identities of one series: the same key, or titles whose families are alike (``SAME_SERIES``)."""
    if newer.key and newer.key == older.key:
        return True
    return SequenceMatcher(None, newer.family, older.family).ratio() >= SAME_SERIES


@dataclass
class Pairing:
    """The pairs to compare (older, newer) with the identity that paired them, and the documents left alone."""

    pairs: list[tuple[DocView, DocView, Identity, str]] = field(default_factory=list)
    alone: list[tuple[DocView, Identity]] = field(default_factory=list)


def pair_documents(docs: list[DocView], links: list[tuple[str, str, str]]) -> Pairing:
    """Pairs for a batch. ``links`` holds (kind, src_doc, dst_doc) rows; supersedes and same_series name (newer, older)."""
    by_id = {d.doc_id: d for d in docs}
    identities = {d.doc_id: identity_of(d) for d in docs}
    result = Pairing()
    taken: set[str] = set()
    for kind, newer, older in sorted(links):
        if kind not in ("supersedes", "same_series") or newer not in by_id or older not in by_id or newer == older:
            continue
        if kind == "supersedes" and not one_series(identities[newer], identities[older]):
            continue  # "supersedes" read from a sentence about another document; pair only versions of one series
        if (older, newer) not in {(p[0].doc_id, p[1].doc_id) for p in result.pairs}:
            result.pairs.append((by_id[older], by_id[newer], identities[newer], f"{kind} link"))
        taken.update((newer, older))
    groups: dict[tuple, list[DocView]] = {}
    for doc in docs:
        if doc.doc_id not in taken and identities[doc.doc_id].key:
            groups.setdefault(identities[doc.doc_id].key, []).append(doc)
    for key in sorted(groups, key=str):
        members = sorted(groups[key], key=lambda d: identities[d.doc_id].order)
        if len(members) == 1:
            result.alone.append((members[0], identities[members[0].doc_id]))
            continue
        for older, newer in zip(members, members[1:]):
            result.pairs.append((older, newer, identities[newer.doc_id], f"same {identities[newer.doc_id].kind}"))
    for doc in docs:
        if doc.doc_id not in taken and not identities[doc.doc_id].key:
            result.alone.append((doc, identities[doc.doc_id]))
    return result
