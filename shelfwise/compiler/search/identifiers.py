"""Exact identifiers in a query, and the sections of a shelf that hold them.

Shapes, not names (nothing here knows any shelf's documents):

    code      letters and digits joined by '-', '_' or '.', with at least one letter and one digit:
              CMP-2026-0016, CAL-07, CVE-2021-44228, T1078.003, SHA-256
    label     a capitalised word, a space, then a number: Article 32, Section 4.1, PEP 604, RFC 6749
              ("RFC 6749 §4.1" gives the label RFC 6749 and the section number 4.1). A term written
              solid (IAL2, FAL1, HS256) is a level or an algorithm named all over a shelf, not an
              identifier, and is left to BM25; so is "Annex II" (not a number)
    section   'Section', 'Sec.', '§', 'Clause', 'Chapter' or 'Paragraph' before a number: the number is
              also looked for at the start of a heading ("4.1 Authorization Code Grant")
    float     'Table', 'Figure', 'Appendix', 'Equation' … before a number: a name within one document ("its
              Table 1"), looked for in the documents the query names, else only when one document holds it

A section *holds* an identifier when its heading carries it (strongest; for a
float, also a caption in its text: "Table 1:" opening a line), or its own text carries it verbatim (case-insensitive, not inside a longer token). An
identifier held by more than ``max_sections`` sections is too common to single
out (a series name, a version like "Python 3") and is left to the other routes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, Field

__all__ = ["Identifier", "query_identifiers", "IdentifierIndex"]

_CODE = re.compile(r"(?<![\w\-./])(?=[\w\-.]*\d)(?=[\w\-.]*[A-Za-z])[A-Za-z0-9]+(?:[\-_.][A-Za-z0-9]+)+(?![\w\-]|\.\w)")
_LABEL = re.compile(r"(?<![\w§])(?:(§)\s?|([A-Z][A-Za-z]{1,15}\.?)\s)(\d+(?:\.\d+)*[a-z]?)(?![\w\-]|\.\d)")
_SECTION_WORDS = {"§", "section", "sec", "sec.", "clause", "chapter", "paragraph"}
_FLOAT_WORDS = {"table", "figure", "fig", "appendix", "annex", "equation", "eq", "algorithm", "listing", "example", "exhibit"}
"""Words whose number counts within one document: every paper has its own Table 1."""
_SENTENCE_WORDS = {"the", "a", "an", "in", "on", "at", "of", "to", "for", "and", "or", "is", "are", "what", "which", "how",
                   "when", "where", "who", "why", "does", "do", "did", "under", "after", "before", "since", "with", "from",
                   "about", "than", "by", "if", "it", "its", "all", "any", "each", "every", "some", "only", "over", "up"}  # fmt: skip


class Identifier(BaseModel):
    """One identifier found in a query."""

    text: str = Field(description="As written in the query, whitespace collapsed ('Article 32', 'CAL-07').")
    kind: str = Field(description="'code', 'label', 'section' or 'float' (Table 1, Figure 3: numbered within a document).")
    number: str | None = Field(default=None, description="For 'section': the bare number looked for at a heading's start.")


def query_identifiers(query: str) -> list[Identifier]:
    """Identifiers in ``query``, in the order they appear, without repeats."""
    found: dict[str, Identifier] = {}
    for match in _CODE.finditer(query):
        text = match.group(0).strip(".")
        if re.fullmatch(r"[\d.\-]+[a-z]?", text) or re.fullmatch(r"v?\d+(\.\d+)+", text, re.I):
            continue  # a bare number or a version is for the numeric route
        found.setdefault(text.lower(), Identifier(text=text, kind="code"))
    for match in _LABEL.finditer(query):
        word, number = match.group(1) or match.group(2), match.group(3)
        key = word.lower()
        if key in _SENTENCE_WORDS:
            continue  # "In 2019", "After 30 days": a capitalised sentence word, not a label
        if key.rstrip(".") in _FLOAT_WORDS:
            text = f"{word.rstrip('.')} {number}"
            found.setdefault(text.lower(), Identifier(text=text, kind="float"))
        elif key in _SECTION_WORDS:
            text = f"§{number}" if word == "§" else f"{word} {number}"
            found.setdefault(f"§{number}", Identifier(text=text, kind="section", number=number))
        else:
            text = f"{word.rstrip('.')} {number}"
            found.setdefault(text.lower(), Identifier(text=text, kind="label"))
    return list(found.values())


def _pattern(text: str) -> re.Pattern:
    parts = [re.escape(p) for p in re.split(r"\s+", text.strip()) if p]
    return re.compile(r"(?<![\w\-])" + r"[\s:\-]*".join(parts) + r"(?![\w]|[\-.]\w)", re.IGNORECASE)


def _caption_pattern(text: str) -> re.Pattern:
    """A float's caption: the identifier opening a line, then ':', '.' or a dash ("Table 1: Averaged results ...")."""
    parts = [re.escape(p) for p in re.split(r"\s+", text.strip()) if p]
    return re.compile(r"(?:^|\n)[ \t]*" + r"\s*".join(parts) + r"[ \t]*[:.\-\u2013\u2014](?!\d)", re.IGNORECASE)


class IdentifierIndex:
    """Which sections hold an identifier: by heading first, else verbatim in their text."""

    def __init__(self, sections: dict[str, tuple[str, str, list[str], str]], *, max_sections: int = 8):
        self.sections = sections
        self.max_sections = max_sections
        self._lower: dict[str, tuple[str, str]] | None = None

    def _lowered(self) -> dict[str, tuple[str, str]]:
        """Headings and texts in lower case, for a substring test before any regex (a regex over every section
        of a large shelf took up to 190 ms a query; ``in`` on a lowered text takes microseconds)."""
        if self._lower is None:
            self._lower = {sid: (heading.lower(), body.lower()) for sid, (_, heading, _, body) in self.sections.items()}
        return self._lower

    def holders(self, identifier: Identifier, doc_ids: Iterable[str] | None = None) -> list[str]:
        """Sections holding ``identifier`` (within ``doc_ids`` when given), in section-id order; [] when too common."""
        allowed = set(doc_ids) if doc_ids else None
        pattern = _pattern(identifier.text)
        start = re.compile(rf"^\s*(?:§\s*)?{re.escape(identifier.number)}(?![\d]|\.\d)") if identifier.number else None
        needle = max(re.findall(r"[a-z0-9]+", identifier.text.lower()), key=len, default="")
        number = identifier.number or ""
        caption = _caption_pattern(identifier.text) if identifier.kind == "float" else None
        lowered = self._lowered()
        by_heading, by_text = [], []
        for sid, (doc_id, heading, _path, body) in self.sections.items():
            if allowed is not None and doc_id not in allowed:
                continue
            low_heading, low_body = lowered[sid]
            if (needle in low_heading and pattern.search(heading)) or (start is not None and number in low_heading and start.search(heading)):
                by_heading.append(sid)
            elif caption is not None and needle in low_body and caption.search(body):
                by_heading.append(sid)  # the table or figure stands here (its caption), not merely mentioned
            elif body and needle in low_body and pattern.search(body):
                by_text.append(sid)
        for found in (by_heading, by_text):
            if found and len(found) <= self.max_sections:
                return sorted(found)
            if found:
                return []  # the strongest kind of holding is too common: not an identifier worth promoting
        return []
