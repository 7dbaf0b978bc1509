"""Repeated sections: which sections another document holds, and how search folds them into the holder's rank."""

from __future__ import annotations

from shelfwise.compiler.search.duplicates import MIN_SHINGLES, fold_repeats, held_by, newer_documents, shingles
from shelfwise.compiler.index.indexes import index_shelf
from shelfwise.compiler.search.search import ShelfSearcher
from shelfwise.compiler.store.store import Store

from search_fixtures import HashEmbedder, h, p, put_doc

RULES = (
    "A pattern rule contains the character percent in the target; otherwise, it looks exactly like an ordinary rule. "
    "The target is a pattern for matching file names; the percent matches any nonempty substring, while other "
    "characters match only themselves. The prerequisites likewise use percent to show how their names relate to the target name."
)


def test_shingles_ignore_case_punctuation_and_markup():
    assert shingles("Use `make -k`, then: MAKE again now") == shingles("use make k then make again now")
    assert len(shingles("one two three four five")) == 2


def test_a_section_is_held_one_way_by_the_copy_that_says_all_it_says():
    newer = RULES + " Since version 4.4, a pattern rule may also name a grouped target."
    sections = {
        "pdf#rules": ("pdf", RULES),
        "texi#rules": ("texi", newer),
        "pdf#other": ("pdf", "Variables hold text that is expanded when the variable is used in a recipe or a rule line " * 3),
        "texi#same-doc": ("texi", RULES),
    }
    held = held_by(sections)
    assert held["pdf#rules"] == {"texi#rules", "texi#same-doc"}  # the newer edition holds all of the older one's words
    assert "pdf#rules" not in held.get("texi#rules", set())  # the older one lacks the added sentence: it does not hold the newer
    assert held["texi#same-doc"] == {"pdf#rules"}  # within one document nothing is held: texi#rules does not count
    assert "pdf#other" not in held


def test_a_revision_that_changes_a_word_is_not_held():
    old = RULES + " Top management reviews the system at least once a year."
    new = RULES + " Top management reviews the system at least twice a year."
    assert held_by({"c": ("rev-c", old), "d": ("rev-d", new)}) == {}


def test_short_sections_are_never_held():
    line = "See the section on pattern rules for the details of matching"
    assert len(shingles(line)) < MIN_SHINGLES
    assert held_by({"a": ("one", line), "b": ("two", line)}) == {}


def test_search_folds_a_copy_ranked_below_its_holder_and_lists_it(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "make.pdf", "GNU Make", [h("10.5 Pattern Rules"), p(RULES), h("6 Variables"), p("Variables name text strings.")])
    put_doc(store, "make.texi", "GNU Make", [h("Pattern Rules"), p(RULES + " Pattern rules may be chained.")])
    put_doc(store, "notes.md", "Notes", [h("Pattern notes"), p("A pattern rule uses percent in its target name.")])
    embedder = HashEmbedder()
    index_shelf(store, tmp_path / "lexical", embedder, [d["doc_id"] for d in store.documents()], [])
    searcher = ShelfSearcher(store, tmp_path / "lexical", embedder)
    unfolded = ShelfSearcher(store, tmp_path / "lexical", embedder, fold=False)
    try:
        query = "How does the percent in a pattern rule target match file names?"
        result = searcher.search(query, k=3)
        paths = [hit.path for hit in result.hits]
        assert paths.count("make.pdf") + paths.count("make.texi") == 2  # the copy took no rank: a third section has one
        assert "notes.md" in paths
        texi = next(hit for hit in result.hits if hit.path == "make.texi")
        pdf_rules = next(sid for sid, row in searcher.sections.items() if row[1] == "10.5 Pattern Rules")
        assert texi.repeats == [pdf_rules]
        assert pdf_rules in {hit.section_id for hit in unfolded.search(query, k=3).hits}
    finally:
        searcher.close()
        unfolded.close()
        store.close()


def test_the_current_revision_is_never_folded_under_the_superseded_one():
    links = [{"kind": "supersedes", "src_doc": "rev-d", "dst_doc": "rev-c", "reason": "Rev D supersedes Rev C"},
             {"kind": "cites", "src_doc": "sop", "dst_doc": "rev-d", "reason": ""}]  # fmt: skip
    newer_docs = newer_documents(links)
    assert newer_docs == {("rev-d", "rev-c")}
    doc = {"c1": "rev-c", "d1": "rev-d", "c2": "rev-c", "d2": "rev-d", "x": "sop"}

    def newer(a, b):
        return (doc[a], doc[b]) in newer_docs

    fused = [("c1", 0.05), ("x", 0.04), ("d1", 0.03), ("c2", 0.02), ("d2", 0.01)]
    held = {"c1": {"d1"}, "d1": {"c1"}, "c2": {"d2"}}  # c1 and d1 the same text; d2 adds to c2 (c2 held by d2 only)
    kept, repeats = fold_repeats(fused, held, k=10, newer=newer)
    assert kept == [("d1", 0.05), ("x", 0.04), ("c2", 0.02), ("d2", 0.01)]  # d1 takes c1's place; d2 keeps a rank
    assert repeats == {"d1": ["c1"]}
    assert fold_repeats(fused, held, k=10)[1] == {"c1": ["d1"]}  # without revision links: ranked order decides
