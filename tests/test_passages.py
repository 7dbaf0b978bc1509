"""Headed passages: sized by the embedder's own tokenizer, nothing cut, ~12% overlap."""

from __future__ import annotations

import re

from shelfwise.compiler.index.embedders import LocalMiniLM
from shelfwise.compiler.index.passages import PassageSizing, build_passages, passage_prefix
from shelfwise.compiler.store.records import Block, Section

from search_fixtures import HashEmbedder


def _section(text: str, path: list[str] | None = None) -> Section:
    path = ["2 Authenticators", "2.1 Memorized Secrets"] if path is None else path
    return Section(
        id="s1", doc_id="d", parent_id=None, seq=1, level=len(path), heading=path[-1] if path else "Doc",
        heading_path=path, blocks=[Block(kind="paragraph", text=part) for part in text.split("\n\n")],
    )  # fmt: skip


def _words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def _long_text() -> str:
    sentences = [f"Sentence {i} says the verifier SHALL check secret number {i} against the blocklist." for i in range(60)]
    return "\n\n".join(" ".join(sentences[i : i + 6]) for i in range(0, 60, 6))


def test_prefix_carries_title_and_heading_path_once():
    assert passage_prefix("SP 800-63B", ["5 Authenticators", "5.1 Secrets"]) == "SP 800-63B\n5 Authenticators > 5.1 Secrets"
    assert passage_prefix("Type Hints", ["Type Hints", "Rationale"]) == "Type Hints\nRationale"
    assert passage_prefix("Type Hints", []) == "Type Hints"


def test_minilm_passages_fit_its_256_token_window_and_cut_nothing():
    embedder = LocalMiniLM()  # the tokenizer only: no model is loaded
    sizing = PassageSizing(window_tokens=embedder.window_tokens, count_tokens=embedder.count_tokens)
    text = _long_text()
    passages = build_passages("NIST SP 800-63B", [_section(text)], sizing)
    assert len(passages) > 3
    assert all(p.tokens == embedder.count_tokens(p.text) <= 256 for p in passages)
    assert max(p.tokens for p in passages) > 200  # filled, not timid
    bodies = [p.text.split("\n\n", 1)[1] for p in passages]
    assert all(p.text.startswith("NIST SP 800-63B\n2 Authenticators > 2.1 Memorized Secrets\n\n") for p in passages)
    # every word of the section is in some passage, in order (overlap aside)
    joined = " ".join(bodies)
    for sentence in re.split(r"(?<=\.) ", text.replace("\n\n", " ")):
        assert sentence in joined
    # consecutive passages overlap by about 12% of the window
    for before, after in zip(bodies, bodies[1:]):
        shared = 0
        for n in range(1, len(_words(after))):
            if _words(before)[-n:] == _words(after)[:n]:
                shared = n
        assert 0 < shared
        assert 0.05 < embedder.count_tokens(" ".join(_words(after)[:shared])) / 256 < 0.16


def test_sentence_then_word_splitting_and_a_giant_word():
    embedder = HashEmbedder(window_tokens=30)
    sizing = PassageSizing(window_tokens=30, count_tokens=embedder.count_tokens)
    one_sentence = " ".join(f"w{i}" for i in range(100))
    passages = build_passages("T", [_section(one_sentence, ["H"])], sizing)
    assert all(p.tokens <= 30 for p in passages)
    seen = [w for p in passages for w in _words(p.text.split("\n\n", 1)[1])]
    assert [w for w in dict.fromkeys(seen)] == [f"w{i}" for i in range(100)]
    giant = build_passages("T", [_section("x" * 5000, ["H"])], PassageSizing(window_tokens=30, count_tokens=lambda t: len(t) // 4 + 2))
    assert "".join(p.text.split("\n\n", 1)[1] for p in giant) == "x" * 5000
    assert all(p.tokens <= 30 for p in giant)


def test_char_cap_and_empty_sections_and_determinism():
    embedder = HashEmbedder(window_tokens=8000)
    sizing = PassageSizing(window_tokens=8000, count_tokens=embedder.count_tokens, max_chars=600)
    text = _long_text()
    first = build_passages("T", [_section(text), _section("", ["Empty"])], sizing)
    assert all(len(p.text) <= 600 for p in first)
    assert {p.section_id for p in first} == {"s1"}
    assert [p.ordinal for p in first] == list(range(len(first)))
    assert first == build_passages("T", [_section(text), _section("", ["Empty"])], sizing)


def _reading_shelf(tmp_path):
    """A built shelf (store, lexical and dense indexes over a hashing embedder) with one long section."""
    from shelfwise.compiler.index.indexes import index_shelf
    from shelfwise.compiler.store.store import Store

    from search_fixtures import h, p, put_doc

    filler = [p(f"Paragraph {i} describes the general background of the records programme in plain words.") for i in range(40)]
    store = Store(tmp_path / "build" / "store.sqlite")
    put_doc(store, "manual.md", "Records Manual", [
        h("Retention"), p("This chapter sets out how long records are kept."), *filler[:20],
        p("Invoices are retained for seven years after the financial year closes."), *filler[20:],
        h("Contacts"), p("The records officer answers questions about retention."),
    ])  # fmt: skip
    index_shelf(store, tmp_path / "build" / "lexical", HashEmbedder(window_tokens=48), [d["doc_id"] for d in store.documents()], [])
    store.close()
    return tmp_path / "build"


def test_a_long_section_is_read_as_its_opening_and_its_relevant_passages_or_pieces(tmp_path):
    from shelfwise.compiler.index.passages import PassageSizing
    from shelfwise.compiler.search.reading import SectionReader, passage_spans
    from shelfwise.compiler.search.search import ShelfSearcher
    from shelfwise.compiler.store.store import Store

    text = _long_text()
    sizing = PassageSizing(window_tokens=64, count_tokens=HashEmbedder().count_tokens)
    passages = build_passages("SP 800-63B", [_section(text)], sizing)
    spans = passage_spans(text, [ps.text.split("\n\n", 1)[1] for ps in passages])
    assert all(span is not None for span in spans) and spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(" ".join(text[a:b].split()) == " ".join(ps.text.split("\n\n", 1)[1].split()) for (a, b), ps in zip(spans, passages))
    assert passage_spans("other text entirely", ["not here at all"]) == [None]

    build = _reading_shelf(tmp_path)
    store = Store(build / "store.sqlite", create=False)
    searcher = ShelfSearcher(store, build / "lexical", HashEmbedder(window_tokens=48))
    try:
        reader = SectionReader(searcher)
        long_id = next(sid for sid, row in searcher.sections.items() if row[1] == "Retention")
        short_id = next(sid for sid, row in searcher.sections.items() if row[1] == "Contacts")
        assert reader.read(short_id, ["retention questions"], 600) is None  # fits: read whole
        part = reader.read(long_id, ["how long are invoices retained?"], 600)
        body = searcher.sections[long_id][3]
        read = " ".join(body[a:b] for a, b in part.spans)
        assert part.spans[0][0] == 0 and read.startswith("This chapter sets out how long records are kept.")
        assert "Invoices are retained for seven years" in read
        assert part.chars <= 600 and part.chars == sum(b - a for a, b in part.spans) and part.passages_read < part.passages
        assert [a for a, _ in part.spans] == sorted(a for a, _ in part.spans)
        # a passage longer than the room the opening leaves is read in finer pieces, not skipped (the opening alone)
        (holder,) = [(a, b) for a, b in reader.spans(long_id) if "Invoices are retained" in body[a:b]]
        assert holder[1] - holder[0] > 200
        small = reader.read(long_id, ["how long are invoices retained?"], 200)
        pieces = [body[a:b] for a, b in small.spans]
        assert pieces[0] == "This chapter sets out how long records are kept."
        assert "Invoices are retained for seven years after the financial year closes." in pieces
        assert small.chars <= 200 and small.chars == sum(b - a for a, b in small.spans)
        other = ShelfSearcher(store, build / "lexical", HashEmbedder(window_tokens=48, model_id="test:other"))
        try:  # no passages for this embedder: nothing to choose from, the section is read whole
            assert SectionReader(other).read(long_id, ["how long are invoices retained?"], 600) is None
        finally:
            other.close()
    finally:
        searcher.close()
        store.close()


def test_pieces_are_the_largest_units_that_fit_paragraph_line_sentence_words():
    from shelfwise.compiler.search.reading import split_pieces

    text = "Short paragraph.\n\nA long line. It has two sentences; and a clause " + "word " * 12 + "end\nrow a | 1\nrow b | 2"
    assert [text[a:b] for a, b in split_pieces(text, 1000)] == [text]
    pieces = [text[a:b] for a, b in split_pieces(text, 30)]
    assert pieces[:4] == ["Short paragraph.", "A long line.", "It has two sentences;", "and a clause word word word"]
    assert pieces[-2:] == ["row a | 1", "row b | 2"] and all(len(piece) <= 30 for piece in pieces)
    assert " ".join(pieces).split() == text.split()  # nothing lost, nothing doubled
    word = "x" * 25
    assert [word[a:b] for a, b in split_pieces(word, 10)] == ["x" * 10, "x" * 10, "x" * 5]


def test_the_reader_and_the_writers_get_only_what_was_read_of_a_long_section(tmp_path):
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.read.read import read_blocks, read_sections, read_text
    from shelfwise.api.answer.recall import Candidate, ObligationRecall, Recall
    from shelfwise.api.shelves import open_shelf
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.api.answer.write.write_model import section_xml

    shelf = open_shelf("records", _reading_shelf(tmp_path), HashEmbedder(window_tokens=48))
    try:
        long_id = next(sid for sid, s in shelf.sections.items() if s.heading == "Retention")
        doc_id = shelf.sections[long_id].doc_id
        query = "how long are invoices retained?"
        recall = Recall(
            candidates=[Candidate(shelf="records", section_id=long_id, doc_id=doc_id, score=0.5, scores={0: 0.5}, routes={"bm25": 1})],
            obligations=[ObligationRecall(obligation=0, query=query, routes={"bm25": 1}, top=[])],
        )
        whole = read_sections(recall, {"records": shelf}, {"records": {doc_id}}, budget=100_000, hop_share=0.1, section_read_chars=600)
        assert whole.whole_scope and all(r.spans is None for r in whole.sections)  # the scope fits: every section whole
        reading = read_sections(recall, {"records": shelf}, {"records": {doc_id}}, budget=2000, hop_share=0.1, section_read_chars=600)
        (read,) = [r for r in reading.sections if r.section_id == long_id]
        assert read.spans and read.chars < shelf.chars(long_id)
        assert re.fullmatch(r"section longer than 600 characters; [\d,]+ of its [\d,]+ characters read, the rest not opened", read.not_read)
        text = read_text(shelf, read)
        assert "Invoices are retained for seven years" in text and "Paragraph 39 " not in text and "\n\n…\n\n" in text
        blocks = read_blocks(shelf, read)
        section = shelf.sections[long_id]
        assert 0 in blocks and 21 in blocks and len(blocks) < len(section.blocks)  # block 21 holds the invoices
        pool = build_pool(reading, {"records": shelf}, section_units)
        shown = {u.text for u in pool.units if u.section_id == long_id}
        assert any("seven years" in t for t in shown) and not any(t.startswith("Paragraph 39 ") for t in shown)
        assert "Invoices are retained" in section_xml(shelf, long_id, text) and "Paragraph 39 " not in section_xml(shelf, long_id, text)
        untouched = read_sections(recall, {"records": shelf}, {"records": {doc_id}}, budget=2000, hop_share=0.1)
        assert long_id not in {r.section_id for r in untouched.sections}  # read whole only, as before: it does not fit
    finally:
        shelf.close()


def test_a_question_asking_two_things_reads_the_passage_for_each_before_a_second_on_the_same_words(tmp_path):
    """Two passages say how long invoices are kept, one when receipts are shredded: a question asking both reads
    one invoice passage and the receipt passage, not the two invoice passages (what a passage adds counts)."""
    from shelfwise.compiler.index.indexes import index_shelf
    from shelfwise.compiler.search.reading import SectionReader
    from shelfwise.compiler.search.search import ShelfSearcher
    from shelfwise.compiler.store.store import Store

    from search_fixtures import h, p, put_doc

    filler = [p(f"Paragraph {i} describes the general background of the records programme in plain words.") for i in range(30)]
    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "manual.md", "Records Manual", [
        h("Retention"), p("This chapter sets out how records are kept."), *filler[:10],
        p("Invoices are retained for seven years; retained invoices stay in the archive for seven years."), *filler[10:20],
        p("Invoices retained longer than seven years are retained only with the approval of the auditor."), *filler[20:],
        p("Receipts are shredded after two years."),
    ])  # fmt: skip
    embedder = HashEmbedder(window_tokens=48)
    index_shelf(store, tmp_path / "lexical", embedder, [d["doc_id"] for d in store.documents()], [])
    searcher = ShelfSearcher(store, tmp_path / "lexical", embedder)
    try:
        long_id = next(sid for sid, row in searcher.sections.items() if row[1] == "Retention")
        body = searcher.sections[long_id][3]
        part = SectionReader(searcher).read(long_id, ["How long are invoices retained, and when are receipts shredded?"], 600)
        read = " ".join(body[a:b] for a, b in part.spans)
        assert "Receipts are shredded after two years." in read
        assert ("Invoices are retained for seven years" in read) != ("with the approval of the auditor" in read)
    finally:
        searcher.close()
        store.close()
