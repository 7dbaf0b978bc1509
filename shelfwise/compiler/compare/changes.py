"""The change set of two documents: fields, line items, values in sentences, reworded sentences and sections.

``compare_documents`` is the model-free answer to "what changed between A and
B": every difference is computed here by code (``values.difference``), and a
value that reads the same on both sides ("1,000" and "1000.00") is never a
change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from pydantic import BaseModel, Field

from shelfwise.compiler.compare.align import SectionPair, align_sections
from shelfwise.compiler.compare.fields import FormField, document_fields, known_labels, label_key, prose_of
from shelfwise.compiler.compare.values import difference, parse_value, same_value, values_in
from shelfwise.compiler.ledger.rules import normalise, sentences
from shelfwise.compiler.prose import unmarked
from shelfwise.compiler.store.records import Section

__all__ = ["Change", "ChangeSet", "DocView", "compare_documents", "compare_fields", "compare_prose", "prose_units", "text_key", "word_diff"]

REWORDED = 0.5
"""Word-level similarity (difflib ratio) above which a replaced sentence is the old one reworded, not a new one."""

CONTEXT_WORDS = 10
"""Words before a changed value that name it ("Complaints shall be closed within")."""

ChangeKind = Literal["added", "removed", "changed", "reworded", "moved", "renamed"]
Scope = Literal["field", "item", "value", "sentence", "section"]


class Change(BaseModel):
    """One difference between A and B, with where it stands on each side."""

    kind: ChangeKind = Field(description="added, removed, changed (a value), reworded (a sentence), moved or renamed (a section).")
    scope: Scope = Field(description="What changed: a form field, a table's line item, a value inside a sentence, a sentence or a section.")
    what: str = Field(description="The field label, line item, the words before a value, or the section heading.")
    old: str | None = Field(default=None, description="A's value or text; None when added.")
    new: str | None = Field(default=None, description="B's value or text; None when removed.")
    difference: str | None = Field(default=None, description="new − old computed by code (amounts, numbers, percentages, durations; dates in days).")
    words: str | None = Field(default=None, description="Word diff of a reworded sentence: [-removed-] {+added+}.")
    section_a: str | None = Field(default=None, description="Section id in A.")
    section_b: str | None = Field(default=None, description="Section id in B.")
    heading_a: str = Field(default="", description="A's section heading.")
    heading_b: str = Field(default="", description="B's section heading.")


class ChangeSet(BaseModel):
    """Everything that differs between two documents, and how much was compared."""

    doc_a: str
    doc_b: str
    title_a: str
    title_b: str
    changes: list[Change] = Field(default_factory=list)
    fields_compared: int = Field(default=0, description="Fields present on both sides.")
    sections_aligned: int = Field(default=0, description="Sections paired across the two documents.")


@dataclass(frozen=True)
class DocView:
    """One compiled document as the comparison reads it."""

    doc_id: str
    title: str
    path: str
    sections: list[Section]


def _where(sections: dict[str, Section], section_id: str | None) -> str:
    section = sections.get(section_id or "")
    return section.heading if section else ""


def _field_change(fa: FormField | None, fb: FormField | None, sa: dict, sb: dict) -> Change | None:
    old = fa.value.strip() if fa else ""
    new = fb.value.strip() if fb else ""
    base = dict(what=(fb or fa).name, scope="item" if (fb or fa).item else "field",
                section_a=fa.section_id if fa else None, section_b=fb.section_id if fb else None,
                heading_a=_where(sa, fa.section_id if fa else None), heading_b=_where(sb, fb.section_id if fb else None))
    if not old and not new:
        return None
    if not old:
        return Change(kind="added", new=new, **base)
    if not new:
        return Change(kind="removed", old=old, **base)
    va, vb = parse_value(old), parse_value(new)
    if same_value(va, vb):
        return None
    words = word_diff(old, new) if va.kind == vb.kind == "text" and _shares_words(old, new) else None
    return Change(kind="changed", old=old, new=new, difference=difference(va, vb), words=words, **base)


def _shares_words(old: str, new: str) -> bool:
    """A word diff helps only when the two texts keep some words in common."""
    blocks = SequenceMatcher(None, old.split(), new.split(), autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks) > 0


def _item_summary(fields: list[FormField]) -> str:
    return "; ".join(f"{f.column}: {f.value}" for f in fields if f.value.strip())


def compare_fields(a: DocView, b: DocView, known: tuple[str, ...] = ()) -> tuple[list[Change], int]:
    """Changed, added and removed fields, and line items added or removed whole."""
    sa = {s.id: s for s in a.sections}
    sb = {s.id: s for s in b.sections}
    fa, fb = document_fields(a.sections, known), document_fields(b.sections, known)
    by_a = {f.key: f for f in fa}
    by_b = {f.key: f for f in fb}
    # A field whose key was qualified on one side only (its label repeats there) is matched by its plain label.
    for side, other in ((by_a, by_b), (by_b, by_a)):
        for key in [k for k in side if k not in other]:
            plain = [k for k in other if k not in side and label_key(other[k].label) == label_key(side[key].label)]
            if len(plain) == 1:
                other[key] = other.pop(plain[0])
    items_a = {f.item.lower() for f in fa if f.item}
    items_b = {f.item.lower() for f in fb if f.item}
    changes: list[Change] = []
    whole: set[str] = set()
    for item in sorted(items_b - items_a, key=lambda i: next(f.key for f in fb if f.item.lower() == i)):
        rows = [f for f in fb if f.item.lower() == item]
        whole.add(item)
        changes.append(Change(kind="added", scope="item", what=rows[0].item, new=_item_summary(rows),
                              section_b=rows[0].section_id, heading_b=_where(sb, rows[0].section_id)))
    for item in sorted(items_a - items_b, key=lambda i: next(f.key for f in fa if f.item.lower() == i)):
        rows = [f for f in fa if f.item.lower() == item]
        whole.add(item)
        changes.append(Change(kind="removed", scope="item", what=rows[0].item, old=_item_summary(rows),
                              section_a=rows[0].section_id, heading_a=_where(sa, rows[0].section_id)))
    compared = 0
    for key in list(dict.fromkeys([*by_b, *by_a])):
        one, two = by_a.get(key), by_b.get(key)
        if (one or two).item.lower() in whole:
            continue
        compared += bool(one and two)
        change = _field_change(one, two, sa, sb)
        if change is not None:
            changes.append(change)
    return changes, compared


def _context(sentence: str, start: int, previous_end: int) -> str:
    words = sentence[previous_end:start].split()[-CONTEXT_WORDS:]
    return " ".join(words).strip(" ,;:(") or sentence[:start].strip()[-40:]


def _value_changes(old: str, new: str, pair: SectionPair) -> list[Change]:
    """Values a reworded sentence changed, paired in order ("within 45 calendar days" → "within 30 calendar days")."""
    vo, vn = values_in(old), values_in(new)
    matcher = SequenceMatcher(None, [v.text.lower() for _, _, v in vo], [v.text.lower() for _, _, v in vn], autojunk=False)
    changes = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or i2 - i1 != j2 - j1:
            continue
        for k in range(i2 - i1):
            (start, _, va), (nstart, _, vb) = vo[i1 + k], vn[j1 + k]
            if same_value(va, vb) or va.kind != vb.kind:
                continue
            previous = vn[j1 + k - 1][1] if j1 + k > 0 else 0
            changes.append(Change(
                kind="changed", scope="value", what=_context(new, nstart, previous), old=va.text, new=vb.text,
                difference=difference(va, vb), section_a=pair.a.id, section_b=pair.b.id,
                heading_a=pair.a.heading, heading_b=pair.b.heading,
            ))
    return changes


def word_diff(old: str, new: str) -> str:
    """'[-old words-] {+new words+}' marks over the shared words (difflib on words)."""
    wa, wb = old.split(), new.split()
    out = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(" ".join(wa[i1:i2]))
            continue
        if i2 > i1:
            out.append("[-" + " ".join(wa[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + " ".join(wb[j1:j2]) + "+}")
    return " ".join(out)


def _only_values_differ(old: str, new: str) -> bool:
    def masked(text: str) -> str:
        spans = values_in(text)
        for start, end, _ in reversed(spans):
            text = text[:start] + "\x00" + text[end:]
        return text.lower()
    return masked(old) == masked(new)


_BULLET = re.compile(r"(?:^|\s)[-•▪●–]\s+(?=[A-Z0-9(])")


_QUOTE_MARKS = re.compile(r"[‘’“”\"']")


def text_key(text: str) -> str:
    """A sentence or heading as two sides are matched: lower-cased, whitespace collapsed, without code, emphasis and
    quote marks (``prose.unmarked``): "the variable `MAKE`, not ... ‘make’" in a manual's Texinfo source and its PDF is
    one sentence, not a rewording."""
    return normalise(_QUOTE_MARKS.sub("", unmarked(text))).lower()


def prose_units(prose: str) -> list[str]:
    """Sentences of a section's prose; list items are units of their own, whether a reader kept them apart or joined them."""
    units = []
    for paragraph in prose.split("\n\n"):
        for piece in _BULLET.split(paragraph):
            units.extend(sentences(piece))
    return units


def _reworded_candidates(old: list[str], new: list[str], left: list[int], right: list[int]):
    """(ratio, i, j) for replaced sentences whose words match at least REWORDED (cheap bounds first)."""
    for i in left:
        matcher = SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(old[i].split())
        for j in right:
            matcher.set_seq1(new[j].split())
            if matcher.real_quick_ratio() >= REWORDED and matcher.quick_ratio() >= REWORDED:
                ratio = matcher.ratio()
                if ratio >= REWORDED:
                    yield ratio, i, j


def compare_prose(pair: SectionPair, headings_a: frozenset[str] = frozenset(), headings_b: frozenset[str] = frozenset(),
                  known: tuple[str, ...] = ()) -> list[Change]:
    """Sentences reworded, added and removed between two aligned sections; values changed inside reworded ones.

    A line that is a heading on the other side (one reader kept it as a heading, the other as a paragraph) is no change.
    """
    old = [u for u in prose_units(prose_of(pair.a, known)) if text_key(u) not in headings_b]
    new = [u for u in prose_units(prose_of(pair.b, known)) if text_key(u) not in headings_a]
    keys_a = [text_key(s) for s in old]
    keys_b = [text_key(s) for s in new]
    where = dict(section_a=pair.a.id, section_b=pair.b.id, heading_a=pair.a.heading, heading_b=pair.b.heading)
    changes: list[Change] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, keys_a, keys_b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        left, right = list(range(i1, i2)), list(range(j1, j2))
        scored = sorted(_reworded_candidates(old, new, left, right), key=lambda t: (-t[0], t[1], t[2]))
        paired: dict[int, int] = {}
        for ratio, i, j in scored:
            if ratio >= REWORDED and i not in paired and j not in paired.values():
                paired[i] = j
        for j in right:
            i = next((k for k, v in paired.items() if v == j), None)
            if i is None:
                changes.append(Change(kind="added", scope="sentence", what=pair.b.heading, new=new[j], **where))
                continue
            found = _value_changes(old[i], new[j], pair)
            changes.extend(found)
            if not (found and _only_values_differ(old[i], new[j])):
                changes.append(Change(kind="reworded", scope="sentence", what=pair.b.heading, old=old[i], new=new[j],
                                      words=word_diff(old[i], new[j]), **where))
        for i in left:
            if i not in paired:
                changes.append(Change(kind="removed", scope="sentence", what=pair.a.heading, old=old[i], **where))
    return changes


def _section_changes(pair: SectionPair) -> list[Change]:
    if pair.a is None:
        return [Change(kind="added", scope="section", what=pair.path_b, section_b=pair.b.id, heading_b=pair.b.heading)]
    if pair.b is None:
        return [Change(kind="removed", scope="section", what=pair.path_a, section_a=pair.a.id, heading_a=pair.a.heading)]
    where = dict(section_a=pair.a.id, section_b=pair.b.id, heading_a=pair.a.heading, heading_b=pair.b.heading)
    out = []
    if pair.moved:
        out.append(Change(kind="moved", scope="section", what=pair.b.heading, old=pair.path_a, new=pair.path_b, **where))
    elif pair.renamed:
        out.append(Change(kind="renamed", scope="section", what=pair.b.heading, old=pair.a.heading, new=pair.b.heading, **where))
    return out


def _headings(doc: DocView) -> frozenset[str]:
    return frozenset(text_key(s.heading) for s in doc.sections if s.heading)


def _lines(doc: DocView, known: tuple[str, ...]) -> frozenset[str]:
    return frozenset(text_key(u) for s in doc.sections for u in prose_units(prose_of(s, known)))


def compare_documents(a: DocView, b: DocView) -> ChangeSet:
    """The change set from A (older) to B (newer): fields and line items first, then sections in B's order."""
    if a.doc_id == b.doc_id:
        raise ValueError(f"document {a.doc_id!r} given twice; compare two different documents")
    known = known_labels(a.sections, b.sections)
    changes, compared = compare_fields(a, b, known)
    pairs = align_sections(a.sections, b.sections, a.title, b.title)
    headings_a, headings_b = _headings(a), _headings(b)
    lines_a, lines_b = _lines(a, known), _lines(b, known)
    for pair in pairs:
        if (pair.a is None and text_key(pair.b.heading) in lines_a) or (pair.b is None and text_key(pair.a.heading) in lines_b):
            continue  # a heading the other reader kept as a paragraph: the same text, not a new section
        changes.extend(_section_changes(pair))
        if pair.a is not None and pair.b is not None:
            changes.extend(compare_prose(pair, headings_a, headings_b, known))
    return ChangeSet(doc_a=a.doc_id, doc_b=b.doc_id, title_a=normalise(a.title), title_b=normalise(b.title), changes=changes,
                     fields_compared=compared, sections_aligned=sum(1 for p in pairs if p.a is not None and p.b is not None))
