"""Open compiled shelves, read-only, for answering: the store, its searcher, and the sections and ledger in memory.

One ``OpenShelf`` per shelf, opened once (in the app's lifespan or by
``shelfwise ask``). Its ``lock`` serialises use of the SQLite connection and the
whoosh searcher, which are not safe to share between threads.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from compiler.embedders import Embedder
from compiler.errors import ShelfwiseError
from compiler.records import Section
from compiler.search import ShelfSearcher
from compiler.store import Store

__all__ = ["OpenShelf", "LedgerFact", "ShelfLink", "open_shelf", "open_shelves", "close_shelves"]


@dataclass(frozen=True)
class LedgerFact:
    """One stored assertion: kind, subject and its verbatim sentence, with where it stands."""

    doc_id: str
    section_id: str
    kind: str
    subject: str
    statement: str
    quote: str


@dataclass(frozen=True)
class ShelfLink:
    """One stored link between documents (and sections) of the shelf."""

    kind: str
    src_doc: str
    src_section: str | None
    dst_doc: str
    dst_section: str | None
    reason: str


@dataclass
class OpenShelf:
    """A compiled shelf held open for answering."""

    name: str
    build_dir: Path
    store: Store
    searcher: ShelfSearcher
    documents: dict[str, dict]
    sections: dict[str, Section]
    doc_sections: dict[str, list[str]]
    facts: list[LedgerFact] = field(default_factory=list)
    links: list[ShelfLink] = field(default_factory=list)
    aliases: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    cache: dict = field(default_factory=dict)

    def doc_order(self) -> list[str]:
        """Document ids in shelf order (by path)."""
        return sorted(self.documents, key=lambda d: self.documents[d]["path"])

    def chars(self, section_id: str) -> int:
        """What reading a section costs: its heading path and its own text."""
        section = self.sections[section_id]
        return len(section.text) + sum(len(h) for h in section.heading_path)

    def close(self) -> None:
        self.searcher.close()
        self.store.close()


def _table_rows(store: Store, sql: str) -> list:
    try:
        return store.db.execute(sql).fetchall()
    except Exception:  # noqa: BLE001 - a store compiled before the ledger stage has empty tables; a missing one reads as none
        return []


def open_shelf(name: str, build_dir: Path, embedder: Embedder | None, *, settings=None) -> OpenShelf:
    """Open ``build_dir`` (holding store.sqlite and lexical/) as shelf ``name``; raises ShelfwiseError when it is not compiled.

    ``settings`` (optional) gives the searcher its ``search`` settings: the identifier limit and the reranker."""
    build_dir = Path(build_dir)
    if not (build_dir / "store.sqlite").exists():
        raise ShelfwiseError(f"shelf {name!r}: no compiled store at {build_dir / 'store.sqlite'}; run 'shelfwise build' on it first")
    if not (build_dir / "lexical").exists():
        raise ShelfwiseError(f"shelf {name!r}: no search index at {build_dir / 'lexical'}; rebuild it with 'shelfwise build'")
    store = Store(build_dir / "store.sqlite", create=False)
    searcher = ShelfSearcher(store, build_dir / "lexical", embedder, **_search_options(settings))
    documents = {row["doc_id"]: dict(row) for row in store.documents()}
    sections: dict[str, Section] = {}
    doc_sections: dict[str, list[str]] = {}
    for doc_id in sorted(documents, key=lambda d: documents[d]["path"]):
        doc_sections[doc_id] = []
        for section in store.sections(doc_id):
            sections[section.id] = section
            doc_sections[doc_id].append(section.id)
    facts = [
        LedgerFact(r[0], r[1], r[2], r[3], r[4], r[5])
        for r in _table_rows(store, "SELECT a.doc_id, a.section_id, a.kind, a.subject, a.statement, a.quote FROM assertions a "
                                    "JOIN documents d USING (doc_id) ORDER BY d.path, a.seq")
    ]
    links = [
        ShelfLink(*r)
        for r in _table_rows(store, "SELECT kind, src_doc, src_section, dst_doc, dst_section, reason FROM links ORDER BY kind, src_doc, id")
        if r[0] != "contradicts_candidate"
    ]
    aliases = [
        (r[0], r[1]) for r in _table_rows(store, "SELECT short, long FROM aliases WHERE decision = 'aligned' ORDER BY short, long")
    ]
    return OpenShelf(name, build_dir, store, searcher, documents, sections, doc_sections, facts, links, sorted(set(aliases)))


def _search_options(settings) -> dict:
    """ShelfSearcher keywords from ``settings.search`` (none without settings: the defaults, no reranker)."""
    if settings is None:
        return {}
    from compiler.rerank import reranker_from_settings

    return {"identifier_max_sections": settings.search.identifier_max_sections, "reranker": reranker_from_settings(settings)}


def open_shelves(build_dirs: dict[str, Path], embedder: Embedder | None, *, settings=None) -> dict[str, OpenShelf]:
    """Every shelf of ``build_dirs`` (name -> build folder) opened, in name order; closes what opened if one fails."""
    opened: dict[str, OpenShelf] = {}
    try:
        for name in sorted(build_dirs):
            opened[name] = open_shelf(name, build_dirs[name], embedder, settings=settings)
    except Exception:
        close_shelves(opened)
        raise
    return opened


def close_shelves(shelves: dict[str, OpenShelf]) -> None:
    for shelf in shelves.values():
        shelf.close()


def section_label(shelf: OpenShelf, section_id: str) -> str:
    """'Document title › heading path' for a section."""
    section = shelf.sections[section_id]
    title = shelf.documents[section.doc_id]["title"]
    return " › ".join([title, *section.heading_path])

