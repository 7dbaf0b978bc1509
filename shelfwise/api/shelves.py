"""Open compiled shelves, read-only, for answering: the store, its searcher, and the sections and ledger in memory.

One ``OpenShelf`` per shelf and build generation (shelfwise/compiler/store/generations.py), opened
in the app's lifespan or by ``shelfwise ask``. Its ``lock`` serialises use of the
SQLite connection and the whoosh searcher, which are not safe to share between
threads. The server holds its shelves in a ``ShelfRegistry``: at the start of each
request it reads the shelf's ``current`` pointer (one readlink) and, when a build
flipped it, opens the new generation and swaps the whole OpenShelf, so a request
sees one generation; the old one is closed when its last request ends.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.store.records import DocumentIdentity, Section, SectionAlias, Link
from shelfwise.compiler.digests.identity import document_name
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.store.generations import ReaderHold, current_generation, pointer_target
from shelfwise.compiler.links.links import link_id
from shelfwise.compiler.search.search import ShelfSearcher
from shelfwise.compiler.store.ledger_store import StoredAssertion
from shelfwise.compiler.store.store import Store

__all__ = ["OpenShelf", "ShelfLink", "ShelfRegistry", "open_shelf", "open_shelves", "close_shelves"]

log = logging.getLogger("shelfwise.api")


def ShelfLink(kind: str, src_doc: str, src_section: str | None, dst_doc: str, dst_section: str | None, reason: str) -> Link:
    """A link made by hand (a test's shelf, held in memory), as the store's ``Link`` record: what ``OpenShelf.links``
    holds. Its id is the store's (``link_id``); it has no evidence sentence."""
    return Link(id=link_id(kind, src_section or src_doc, dst_section or dst_doc, "by hand"), kind=kind, src_doc=src_doc,
                src_section=src_section, dst_doc=dst_doc, dst_section=dst_section, evidence="", reason=reason)


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
    facts: list[StoredAssertion] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    aliases: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    cache: dict = field(default_factory=dict)
    section_chars: dict[str, int] = field(default_factory=dict)
    hold: ReaderHold | None = None
    generation: Path | None = None  # the build generation it was opened from (store.sqlite, lexical/, site/); build_dir is the shelf's build folder
    moved: dict[str, SectionAlias] = field(default_factory=dict)  # the old id of a renamed section -> where it went
    identities: dict[str, DocumentIdentity] = field(default_factory=dict)  # doc id -> who and when it is (compiled)

    def doc_name(self, doc_id: str) -> str:
        """The document's one name (its compiled identity's, ``shelfwise.compiler.digests.identity``), else its title."""
        identity = self.identities.get(doc_id)
        return identity.name if identity else document_name(self.documents.get(doc_id, {"doc_id": doc_id}))

    def resolve(self, section_id: str) -> tuple[Section, SectionAlias | None] | None:
        """The section at ``section_id``, or the one a renamed section's old id now answers at (with its alias)."""
        if section_id in self.sections:
            return self.sections[section_id], None
        alias = self.moved.get(section_id)
        if alias is not None and alias.new_id in self.sections:
            return self.sections[alias.new_id], alias
        return None

    def doc_order(self) -> list[str]:
        """Document ids in shelf order (by path)."""
        return sorted(self.documents, key=lambda d: self.documents[d]["path"])

    def chars(self, section_id: str) -> int:
        """What reading a section costs: its heading path and its own text (counted once per section: a request whose
        scope is the whole shelf sums every section's)."""
        known = self.section_chars.get(section_id)
        if known is None:
            section = self.sections[section_id]
            known = self.section_chars[section_id] = len(section.text) + sum(len(h) for h in section.heading_path)
        return known

    def text_sections(self, doc_id: str) -> list[str]:
        """The document's sections that have body text, in document order (made once per document)."""
        return self.memo(("text_sections", doc_id), lambda: [sid for sid in self.doc_sections.get(doc_id, []) if self.sections[sid].text.strip()])

    def document_chars(self, doc_id: str) -> int:
        """What reading the whole document costs: the sum of ``chars`` over its text sections (made once per document)."""
        return self.memo(("document_chars", doc_id), lambda: sum(self.chars(sid) for sid in self.text_sections(doc_id)))

    def memo(self, key, make):
        """``cache[key]``, made by ``make()`` the first time; the cache is read and written under ``lock``.

        ``make`` runs outside the lock (it may itself take it to search); when two requests make the same
        key at once, the first stored value wins and both return it.
        """
        with self.lock:
            if key in self.cache:
                return self.cache[key]
        value = make()
        with self.lock:
            return self.cache.setdefault(key, value)

    def close(self) -> None:
        self.searcher.close()
        self.store.close()
        if self.hold is not None:
            self.hold.release()


def open_shelf(name: str, build_dir: Path, embedder: Embedder | None, *, settings=None) -> OpenShelf:
    """Open the current generation of ``build_dir`` (a shelf's build folder, or one generation holding store.sqlite
    and lexical/) as shelf ``name``; raises ShelfwiseError when it is not compiled.

    ``settings`` (optional) gives the searcher its ``search`` settings: the identifier limit and the reranker."""
    root = Path(build_dir)
    build_dir = current_generation(root) or root
    if not (build_dir / "store.sqlite").exists():
        raise ShelfwiseError(f"shelf {name!r}: no compiled store at {build_dir / 'store.sqlite'}; run 'shelfwise build' on it first")
    if not (build_dir / "lexical").exists():
        raise ShelfwiseError(f"shelf {name!r}: no search index at {build_dir / 'lexical'}; rebuild it with 'shelfwise build'")
    hold = ReaderHold(build_dir)
    try:
        return _load(name, root, build_dir, embedder, hold, settings)
    except BaseException:
        hold.release()
        raise


def _load(name: str, root: Path, build_dir: Path, embedder: Embedder | None, hold: ReaderHold, settings=None) -> OpenShelf:
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
    ledger = store.ledger  # every table exists: Store applies the numbered migrations on open
    facts = ledger.assertions()
    links = [link for link in ledger.links(listing=False) if link.kind != "contradicts_candidate"]
    aliases = ledger.aligned_aliases()
    return OpenShelf(name, root, store, searcher, documents, sections, doc_sections, facts, links, sorted(set(aliases)),
                     hold=hold, generation=build_dir, moved={a.old_id: a for a in store.section_aliases()},
                     identities=store.identities())


class _Slot:
    """One served shelf: its build folder, the open generation, and how many requests use each open generation."""

    def __init__(self, name: str, root: Path | None, shelf: OpenShelf, owned: bool):
        self.name, self.root, self.shelf, self.owned = name, root, shelf, owned
        self.pointer = pointer_target(root) if root is not None else None
        self.users: dict[int, int] = {}
        self.retired: list[OpenShelf] = []


class ShelfRegistry:
    """The served shelves by name; ``use`` hands a request the current generation of each and swaps in new builds.

    Shelves given already open are served as they are (never reloaded, never closed here).
    """

    def __init__(self, embedder: Embedder | None, *, settings=None):
        self.embedder = embedder
        self.settings = settings
        self._slots: dict[str, _Slot] = {}
        self._lock = threading.Lock()

    def add(self, name: str, where: Path | OpenShelf) -> None:
        if isinstance(where, OpenShelf):
            self._slots[name] = _Slot(name, None, where, owned=False)
        else:
            self._slots[name] = _Slot(name, Path(where), open_shelf(name, Path(where), self.embedder, settings=self.settings), owned=True)

    def __contains__(self, name: object) -> bool:
        return name in self._slots

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._slots))

    def __len__(self) -> int:
        return len(self._slots)

    def current(self, name: str) -> OpenShelf:
        """The shelf's open generation now (checking for a newer build first), without holding it."""
        slot = self._slots[name]
        self._refresh(slot)
        return slot.shelf

    @contextmanager
    def use(self, names: list[str]) -> Iterator[dict[str, OpenShelf]]:
        """The current generation of each named shelf, held (not closed by a swap) until the block ends."""
        taken: list[tuple[_Slot, OpenShelf]] = []
        try:
            for name in names:
                slot = self._slots[name]
                self._refresh(slot)
                with self._lock:
                    shelf = slot.shelf
                    slot.users[id(shelf)] = slot.users.get(id(shelf), 0) + 1
                taken.append((slot, shelf))
            yield {slot.name: shelf for slot, shelf in taken}
        finally:
            for slot, shelf in taken:
                self._release(slot, shelf)

    def _refresh(self, slot: _Slot) -> None:
        if slot.root is None:
            return
        pointer = pointer_target(slot.root)
        if pointer == slot.pointer or pointer is None:
            return
        with self._lock:
            if pointer == slot.pointer:
                return
            try:
                fresh = open_shelf(slot.name, slot.root, self.embedder, settings=self.settings)
            except Exception:  # noqa: BLE001 - a broken new build: keep serving the one that works
                log.exception("shelf %s: could not open the new build %s; still serving %s", slot.name, pointer, slot.pointer)
                slot.pointer = pointer
                return
            old, slot.shelf, slot.pointer = slot.shelf, fresh, pointer
            log.info("shelf %s: now serving build %s", slot.name, pointer)
            if slot.users.get(id(old), 0) == 0:
                old.close()
            else:
                slot.retired.append(old)

    def _release(self, slot: _Slot, shelf: OpenShelf) -> None:
        with self._lock:
            left = slot.users.get(id(shelf), 1) - 1
            if left > 0:
                slot.users[id(shelf)] = left
                return
            slot.users.pop(id(shelf), None)
            if any(old is shelf for old in slot.retired):
                slot.retired = [old for old in slot.retired if old is not shelf]
                shelf.close()

    def close(self) -> None:
        with self._lock:
            for slot in self._slots.values():
                if slot.owned:
                    for shelf in [slot.shelf, *slot.retired]:
                        shelf.close()
            self._slots.clear()


def _search_options(settings) -> dict:
    """ShelfSearcher keywords from ``settings.search`` (none without settings: the defaults, no reranker)."""
    if settings is None:
        return {}
    from shelfwise.compiler.search.rerank import reranker_from_settings

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
