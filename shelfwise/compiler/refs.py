"""A section's identity, in the one place it is written: its id format, its anchor, its page and its site URL.

``SectionRef(shelf, section_id)`` names a section wherever more than one shelf can meet (an answer over
two shelves that each hold a README.md has two sections with the same id: only the pair is unique). The
id itself is ``section_id(doc_id, heading_path, ordinal)`` — 's' and 11 hex digits of a hash — and it is
also the section's anchor on its document's page, so a citation links to its place in the site:
``documents/<doc>.html#<section id>`` under the site's root (``use_directory_urls`` is off).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

__all__ = ["SECTION_ID", "SECTION_ID_RE", "SectionRef", "section_id", "is_section_id", "page_path", "page_url"]

SECTION_ID = r"s[0-9a-f]{11}"
"""The pattern of a section id, for building larger patterns (citation markers, URL parameters)."""
SECTION_ID_RE = re.compile(rf"(?<![0-9a-z]){SECTION_ID}(?![0-9a-z])")
"""A section id standing alone in text (not inside a longer word)."""
_WHOLE = re.compile(rf"^{SECTION_ID}$")


def section_id(doc_id: str, heading_path: list[str], ordinal: int) -> str:
    """Stable section id: 's' + 11 hex digits of a hash of (doc id, heading path, ordinal among same-path siblings)."""
    key = "\x1f".join([doc_id, *heading_path, str(ordinal)])
    return "s" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:11]


def is_section_id(text: str) -> bool:
    return bool(_WHOLE.match(text))


def page_path(doc_id: str, section_id: str | None = None, *, source: bool = False) -> str:
    """Site-relative path of a document's page with the section's anchor: the built page
    (``documents/<doc>.html``) or, with ``source``, the Markdown mkdocs builds it from (``.md``)."""
    return f"documents/{doc_id}.{'md' if source else 'html'}" + (f"#{section_id}" if section_id else "")


def page_url(doc_id: str, section_id: str | None = None) -> str:
    """Site-relative URL of a document page, with the section anchor."""
    return page_path(doc_id, section_id)


@dataclass(frozen=True, order=True)
class SectionRef:
    """One section of one shelf: the key of a citation wherever shelves meet."""

    shelf: str
    section_id: str

    @property
    def anchor(self) -> str:
        """The section's anchor on its document's page (the id itself)."""
        return self.section_id

    def url(self, site_root: str | None, doc_id: str) -> str | None:
        """Where the section is read: its anchor on its document's page under ``site_root`` (None: no site)."""
        return site_root + page_url(doc_id, self.section_id) if site_root else None

    def __str__(self) -> str:
        return f"{self.shelf}/{self.section_id}"
