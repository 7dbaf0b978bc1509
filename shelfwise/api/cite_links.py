"""Where a cited section is read, and the answer's Markdown with its citations numbered and linked there.

A section's URL is its anchor on its document's page of the shelf's site (``documents/<doc>.html#<section
id>``, shelfwise/compiler/publish/pages.py ``page_url``) under the site's root: ``site.url`` with ``{shelf}`` filled in when it
is set; else, on the HTTP server, ``/sites/<shelf>/`` when the server serves that site; else the built
site's ``file://`` URL when one was built, through the build folder's ``site`` link (``build/<shelf>/site``, which
follows ``current``), never a build generation's folder, which a later rebuild deletes; else (a shelf compiled without its site) the API's own
``/api/sections/<id>?shelf=<shelf>`` on the server, and no URL over stdio.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from pydantic import BaseModel, Field

from shelfwise.api.schemas import AskResponse
from shelfwise.compiler.publish.llms_txt import site_base
from shelfwise.compiler.refs import SECTION_ID, SectionRef, page_url

__all__ = ["SiteLinks", "Citation", "site_root", "linked_answer", "with_urls", "server_links"]

_CITE = re.compile(rf"\[({SECTION_ID})\]")


def site_root(shelf: str, build_dir: Path | None, *, template: str | None, server_base: str | None = None,
              served: bool = False) -> str | None:
    """The root URL (ending in '/') of ``shelf``'s site, or None when it has none (see the module docstring).

    ``build_dir`` is the shelf's build folder (its root, whose ``site`` link follows each rebuild)."""
    if template:
        return site_base(template, shelf)
    if server_base is not None and served:
        return f"{server_base.rstrip('/')}/sites/{quote(shelf)}/"
    if build_dir is not None and (Path(build_dir) / "site" / "index.html").is_file():
        # absolute, not resolved: resolving would follow the site link into today's generation
        return Path(os.path.abspath(Path(build_dir) / "site")).as_uri() + "/"
    return None


@dataclass
class SiteLinks:
    """Section and document URLs per shelf: ``roots`` maps a shelf to its site root (None: no site)."""

    roots: dict[str, str | None] = field(default_factory=dict)
    api_base: str | None = None  # the HTTP server's base URL: sections of a shelf without a site link to /api/sections

    def section(self, shelf: str, doc_id: str, section_id: str) -> str | None:
        url = SectionRef(shelf, section_id).url(self.roots.get(shelf), doc_id)
        if url:
            return url
        if self.api_base:
            return f"{self.api_base.rstrip('/')}/api/sections/{section_id}?shelf={quote(shelf)}"
        return None

    def document(self, shelf: str, doc_id: str) -> str | None:
        root = self.roots.get(shelf)
        return root + page_url(doc_id) if root else None


def server_links(state, base_url: str) -> SiteLinks:
    """The links an HTTP answer carries: each served shelf's site under the server (or ``site.url``), else the API."""
    base = str(base_url).rstrip("/")
    return SiteLinks({n: site_root(n, None, template=state.settings.site.url, server_base=base, served=n in state.sites)
                      for n in state.shelves}, api_base=base)


def with_urls(response: AskResponse, links: SiteLinks) -> AskResponse:
    """The response with each source's site URL filled in (the API and the CLI return it beside the anchor)."""
    sources = [s.model_copy(update={"anchor": s.anchor or s.section_id, "url": links.section(s.shelf, s.doc_id, s.section_id)})
               for s in response.sources]
    return response.model_copy(update={"sources": sources})


class Citation(BaseModel):
    """One numbered citation of an answer."""

    n: int = Field(description="Its number in the answer's Markdown, [n].")
    section_id: str
    shelf: str
    doc_id: str
    title: str = Field(description="The document's title.")
    heading_path: list[str]
    page_start: int | None = None
    page_end: int | None = None
    url: str | None = Field(default=None, description="Where the section is read (its anchor in the site); None without one.")


def _pages(citation: Citation) -> str:
    if citation.page_start is None:
        return ""
    if citation.page_end is None or citation.page_end == citation.page_start:
        return f", p. {citation.page_start}"
    return f", pp. {citation.page_start}–{citation.page_end}"


def linked_answer(response: AskResponse, links: SiteLinks) -> tuple[str, list[Citation]]:
    """The answer's Markdown with each ``[section id]`` replaced by ``[n](url)`` in first-cited order, a numbered
    source list after it and the trace id last; and the citations."""
    sources = {s.section_id: s for s in response.sources}
    numbers: dict[str, Citation] = {}

    def number(match: re.Match) -> str:
        sid = match.group(1)
        source = sources.get(sid)
        if source is None:
            return match.group(0)
        if sid not in numbers:
            numbers[sid] = Citation(n=len(numbers) + 1, section_id=sid, shelf=source.shelf, doc_id=source.doc_id, title=source.title,
                                    heading_path=source.heading_path, page_start=source.page_start, page_end=source.page_end,
                                    url=links.section(source.shelf, source.doc_id, sid))
        citation = numbers[sid]
        return f"[[{citation.n}]]({citation.url})" if citation.url else f"[{citation.n}]"

    body = _CITE.sub(number, response.answer_markdown)
    citations = list(numbers.values())
    lines = [body]
    if citations:
        lines.append("**Sources**")
        entries = []
        for c in citations:
            label = " › ".join([c.title, *[h for h in c.heading_path if h != c.title]]).replace("[", "\\[").replace("]", "\\]")
            where = f"[{label}]({c.url})" if c.url else f"{label} ({c.section_id})"
            entries.append(f"{c.n}. {where}{_pages(c)}")
        lines.append("\n".join(entries))
    lines.append(f"_Trace: {response.trace_id}_")
    return "\n\n".join(lines), citations
