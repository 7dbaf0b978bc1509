"""Catalogues: a document listing the shelf's files counts less in search; a note citing two files does not."""

from __future__ import annotations

from shelfwise.compiler.search.catalogues import CATALOGUE_WEIGHT, catalogue_documents, demote_catalogues
from shelfwise.compiler.index.indexes import index_shelf
from shelfwise.compiler.search.search import ShelfSearcher
from shelfwise.compiler.store.store import Store

from search_fixtures import HashEmbedder, h, p, put_doc

LICENCES = {
    "mit.txt": "Permission is hereby granted, free of charge. The software is provided as is, without warranty of any kind.",
    "apache-2.0.txt": "Each contributor grants you a perpetual patent license. This license comes without warranty.",
    "gpl-3.0.txt": "You may charge any price for each copy you convey, and you may offer support or warranty protection for a fee.",
    "cc-by-4.0.html": "The licensor offers the licensed material as is and makes no warranties of any kind.",
}


def _shelf(store: Store) -> None:
    for path, text in LICENCES.items():
        put_doc(store, path, path.split(".")[0].upper(), [h("Terms"), p(text)])
    put_doc(store, "SOURCES.md", "Sources", [h("Files"), p(
        "mit.txt: the MIT licence with no warranty. apache-2.0.txt: the Apache licence, warranty disclaimed. "
        "gpl-3.0.txt: the GPL, warranty for a fee. cc-by-4.0.html: CC BY, no warranties."
    )])  # fmt: skip
    put_doc(store, "NOTES.md", "Notes", [h("Notes"), p("mit.txt and gpl-3.0.txt differ on warranty for a fee.")])


def test_a_document_naming_most_of_the_shelfs_files_is_a_catalogue(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    _shelf(store)
    sections = {s.id: (s.doc_id, s.heading, s.heading_path, s.text) for s in store.sections()}
    assert catalogue_documents({d["doc_id"]: d for d in store.documents()}, sections) == {"sources-md"}
    store.close()


def test_catalogue_sections_count_less_in_the_fusion_but_stay_ranked(tmp_path):
    fused = [("cat", 0.04), ("a", 0.03), ("b", 0.01)]
    assert demote_catalogues(fused, {"cat"}) == [("a", 0.03), ("cat", 0.04 * CATALOGUE_WEIGHT), ("b", 0.01)]
    assert demote_catalogues(fused, {"cat"}, keep={"cat"}) == fused  # an exact identifier holder keeps its place
    store = Store(tmp_path / "store.sqlite")
    _shelf(store)
    embedder = HashEmbedder()
    index_shelf(store, tmp_path / "lexical", embedder, [d["doc_id"] for d in store.documents()], [])
    searcher = ShelfSearcher(store, tmp_path / "lexical", embedder)
    try:
        result = searcher.search("Which licences come without warranty, and may I sell a warranty?", k=10)
        paths = [hit.path for hit in result.hits]
        assert "SOURCES.md" in paths and paths.index("SOURCES.md") >= 3
    finally:
        searcher.close()
        store.close()


def test_a_file_name_several_documents_share_counts_only_by_its_path():
    documents = {f"d{i}": {"path": f"part{i}/README.md"} for i in range(4)} | {"index": {"path": "INDEX.md"}}
    sections = {f"s{i}": (f"d{i}", "Read me", [], "See README.md in every folder.") for i in range(4)}
    sections["index"] = ("index", "Files", [], "part0/README.md, part1/README.md and part2/README.md hold the parts.")
    assert catalogue_documents(documents, sections) == {"index"}
