"""What the site's pages show, read from the store once per build (shelfwise/compiler/publish/pages.py renders it).

Ledger, hooks, links, briefs and dossiers are read straight from their tables:
when the ledger stage has not run they are empty and their panels and pages
are simply left out. Everything is ordered (document path, then sequence).
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict

from pydantic import BaseModel, Field

from shelfwise.compiler.store.ledger_store import PAGE_HOOK_FIELDS
from shelfwise.compiler.digests.identity import document_name
from shelfwise.compiler.digests.names import short_name, subject_phrase

__all__ = ["ShelfData", "load_shelf_data", "dossier_slug", "section_panel", "document_relations", "links_by_document"]

# Link kinds that mean "the source section refers to the destination".
REFERS = ("resolves", "cites", "depends_on")
SUPERSEDES = ("supersedes", "updates")


class ShelfData(BaseModel):
    """The store's content that pages are made of, gathered before anything is written."""

    shelf: str = Field(description="Shelf name (build/<shelf>/).")
    title: str = Field(description="Shelf title from shelf.toml.")
    description: str = Field(default="", description="Shelf description from shelf.toml.")
    documents: list[dict] = Field(description="Document rows in path order.")
    titles: dict[str, str] = Field(description="Document id -> title.")
    short_names: dict[str, str] = Field(default_factory=dict, description="Document id -> short name (code and revision).")
    labels: dict[str, tuple[str, str]] = Field(description="Section id -> (document id, heading).")
    assertions: dict[str, list[dict]] = Field(default_factory=dict, description="Document id -> its ledger rows in order.")
    hooks: dict[str, list[dict]] = Field(default_factory=dict, description="Document id -> its hooks in order.")
    links: list[dict] = Field(default_factory=list, description="Every link, ordered by kind, source, destination.")
    briefs: dict[str, dict] = Field(default_factory=dict, description="Document id -> brief (briefs.build_briefs).")
    dossiers: list[dict] = Field(default_factory=list, description="Dossiers (dossiers.build_dossiers) with a 'slug'.")
    ledger_ran: bool = Field(default=False, description="Whether the ledger stage has run on this store.")
    failures: list[dict] = Field(default_factory=list, description="Files that failed to parse, with the reason.")


def dossier_slug(key: str) -> str:
    """A file name for a dossier topic: its words, then a short hash so two topics never share one."""
    words = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")[:60] or "topic"
    return f"{words}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:6]}"


def load_shelf_data(store, shelf: str) -> ShelfData:
    # every page names a document by its one name (its identity's: "Apple Inc. 10-Q, quarter ended July 1, 2023"),
    # the reader's title kept as ``source_title``
    documents = [{**dict(row), "title": document_name(row), "source_title": row["title"]} for row in store.documents()]
    order = {row["doc_id"]: n for n, row in enumerate(documents)}
    labels = store.section_labels()
    ledger = store.ledger
    assertions: dict[str, list[dict]] = defaultdict(list)
    titles = {row["doc_id"]: row["title"] for row in documents}
    for row in ledger.assertion_rows():
        item = row.page_item()
        heading = labels.get(item["section_id"], ("", ""))[1]
        item["subject"] = subject_phrase(item["subject"], item["quote"], heading, titles.get(item["doc_id"], ""))
        assertions[item["doc_id"]].append(item)
    hooks: dict[str, list[dict]] = defaultdict(list)
    for hook in ledger.hooks():
        hooks[hook.doc_id].append(hook.model_dump(include=PAGE_HOOK_FIELDS))
    links = [link.model_dump(exclude={"hook_id"}) for link in ledger.page_links() if link.src_doc in order and link.dst_doc in order]
    briefs = {doc_id: body for doc_id, body in ledger.briefs().items() if doc_id in order}
    dossiers = []
    for topic, dossier in ledger.dossiers():
        dossier["slug"] = dossier_slug(dossier.get("key") or topic)
        dossiers.append(dossier)
    dossiers.sort(key=lambda d: (d["topic"].lower(), d["slug"]))
    ledger_ran = ledger.ran()
    return ShelfData(
        shelf=shelf,
        title=store.get_meta("shelf_title") or shelf,
        description=store.get_meta("shelf_description") or "",
        documents=documents,
        titles=titles,
        short_names=_short_names(documents, store.identities()),
        labels=labels,
        assertions=dict(assertions),
        hooks=dict(hooks),
        links=links,
        briefs=briefs,
        dossiers=dossiers,
        ledger_ran=ledger_ran,
        failures=[dict(row) for row in store.failures()],
    )


def _short_names(documents: list[dict], identities: dict) -> dict[str, str]:
    """Document id -> short label, the one answers show (its compiled identity's ``label``); where two documents would
    share one, both keep their full names."""
    names = {row["doc_id"]: identities[row["doc_id"]].label if row["doc_id"] in identities else short_name(row["title"], row["path"])
             for row in documents}
    taken = defaultdict(int)
    for name in names.values():
        taken[name] += 1
    return {d: (n if taken[n] == 1 else " ".join(row["title"].split())) for row in documents for d, n in [(row["doc_id"], names[row["doc_id"]])]}


def _target(data: ShelfData, doc_id: str, section_id: str | None) -> dict:
    """Where a link points: document, section (when known) and a label."""
    title = data.titles.get(doc_id, doc_id)
    if section_id and section_id in data.labels and data.labels[section_id][0] == doc_id:
        heading = data.labels[section_id][1]
        label = title if heading == title or not heading else f"{title} › {heading}"
        return {"doc_id": doc_id, "section_id": section_id, "label": label}
    return {"doc_id": doc_id, "section_id": None, "label": title}


def section_panel(data: ShelfData, doc_id: str, links_by_doc: dict[str, list[dict]]) -> dict[str, dict]:
    """Per section of ``doc_id``: assertions, what it refers to (resolved and open), what refers to it,
    supersessions and possible conflicts. Sections with nothing to show are absent."""
    panels: dict[str, dict] = defaultdict(lambda: {"assertions": [], "refers": [], "open": [], "referred_by": [],
                                                   "supersedes": [], "superseded_by": [], "conflicts": []})
    for item in data.assertions.get(doc_id, []):
        panels[item["section_id"]]["assertions"].append(item)
    for hook in data.hooks.get(doc_id, []):
        if hook["status"] == "open":
            panels[hook["section_id"]]["open"].append(hook)
    for link in links_by_doc.get(doc_id, []):
        outgoing = link["src_doc"] == doc_id and link["src_section"] is not None
        incoming = link["dst_doc"] == doc_id and link["dst_section"] is not None
        if link["kind"] in REFERS:
            if outgoing:
                panels[link["src_section"]]["refers"].append({**link, "to": _target(data, link["dst_doc"], link["dst_section"])})
            if incoming and link["src_section"]:
                panels[link["dst_section"]]["referred_by"].append({**link, "to": _target(data, link["src_doc"], link["src_section"])})
        elif link["kind"] in SUPERSEDES:
            if outgoing:
                panels[link["src_section"]]["supersedes"].append({**link, "to": _target(data, link["dst_doc"], link["dst_section"])})
            if incoming:
                panels[link["dst_section"]]["superseded_by"].append({**link, "to": _target(data, link["src_doc"], link["src_section"])})
        elif link["kind"] == "contradicts_candidate":
            if outgoing:
                panels[link["src_section"]]["conflicts"].append({**link, "to": _target(data, link["dst_doc"], link["dst_section"])})
            if incoming:
                panels[link["dst_section"]]["conflicts"].append({**link, "to": _target(data, link["src_doc"], link["src_section"])})
    return {sid: panel for sid, panel in panels.items() if any(panel.values())}


def document_relations(data: ShelfData, doc_id: str, links_by_doc: dict[str, list[dict]]) -> list[dict]:
    """Document-level links (no section on this side): series, shared names, supersessions, citations of the whole."""
    out = []
    for link in links_by_doc.get(doc_id, []):
        if link["src_doc"] == doc_id and link["src_section"] is None:
            out.append({**link, "direction": "out", "to": _target(data, link["dst_doc"], link["dst_section"])})
        elif link["dst_doc"] == doc_id and link["dst_section"] is None and link["src_doc"] != doc_id:
            out.append({**link, "direction": "in", "to": _target(data, link["src_doc"], link["src_section"])})
    return out


def links_by_document(links: list[dict]) -> dict[str, list[dict]]:
    """Each link under its source and (when different) its destination document."""
    out: dict[str, list[dict]] = defaultdict(list)
    for link in links:
        out[link["src_doc"]].append(link)
        if link["dst_doc"] != link["src_doc"]:
            out[link["dst_doc"]].append(link)
    return dict(out)
