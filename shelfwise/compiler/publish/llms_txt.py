"""llms.txt at the site's root (https://llmstxt.org): the shelf's title, its description, and one line per
document with its page's URL, the file assistants read to find their way around a site.

URLs are relative to the site unless ``site.url`` says where it is published (``{shelf}`` filled in). Written
into the new site before it is swapped in (shelfwise/compiler/publish/site.py); the same store gives the same bytes.
"""

from __future__ import annotations

from urllib.parse import quote

from shelfwise.compiler.digests.identity import document_name
from shelfwise.compiler.refs import page_url

__all__ = ["LLMS_TXT", "llms_txt", "site_base"]

LLMS_TXT = "llms.txt"


def site_base(template: str | None, shelf: str) -> str:
    """The site's published root from ``site.url`` ('' when unset: links stay relative), ending in '/'."""
    if not template:
        return ""
    root = template.replace("{shelf}", quote(shelf))
    return root if root.endswith("/") else root + "/"


def _line(text: str) -> str:
    return " ".join(str(text).split())


def _link_text(text: str) -> str:
    return _line(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def llms_txt(store, shelf: str, base: str = "") -> str:
    """The llms.txt of ``store``'s site; ``base`` is the site's published root ('' for relative links)."""
    title = _line(store.get_meta("shelf_title") or shelf)
    description = _line(store.get_meta("shelf_description") or "")
    documents = store.documents()
    lines = [f"# {title}", ""]
    if description:
        lines += [f"> {description}", ""]
    lines += [f"The shelf '{shelf}' compiled by shelfwise: {len(documents)} document{'s' if len(documents) != 1 else ''}, one page each, "
              "every section anchored by its section id (documents/<doc>.html#<section id>).", "", "## Documents", ""]
    for row in documents:
        lines.append(f"- [{_link_text(document_name(row))}]({base}{page_url(row['doc_id'])}): {_line(row['path'])}")
    lines += ["", "## Optional", "", f"- [The shelf]({base}shelf.html): how the documents link, and the dossiers"]
    return "\n".join(lines) + "\n"
