"""Retrieval evaluation: metric definitions, budgets, chunk mapping, gold mapping, the end-to-end run, the scoreboard."""

from __future__ import annotations

import json
import math

import pytest

from shelfwise.compiler.errors import SettingsError
from shelfwise.compiler.index.indexes import index_shelf
from shelfwise.compiler.store.store import Store
from shelfwise.eval.baseline import make_chunks
from shelfwise.eval.questions import Evidence, GoldQuestion, MustItem, Question, _key, load_questions, map_gold
from shelfwise.eval.retrieval import Unit, ablation_table, question_metrics, run_retrieval_eval
from shelfwise.eval.scoreboard import render_scoreboard, retrieval_table

from search_fixtures import HashEmbedder, h, oauth_like_shelf, p, put_doc

QUESTIONS_YAML = """
- id: oauth-x1
  shelf: oauth
  question: What is a bearer token and how long may an authorization code live?
  kind: definition
  must:
  - item: A bearer token can be used by any party in possession of it.
    evidence:
    - doc: rfc6750.txt
      heading: 1.2.  Terminology
      quote: any party in possession of the token
  - item: Authorization codes live at most 10 minutes.
    evidence:
    - doc: rfc6749.txt
      heading: 4.1.2.  Authorization Response
      quote: A maximum authorization code lifetime of 10 minutes is RECOMMENDED.
    - doc: rfc6749.txt
      heading: No Such Heading
      quote: The authorization code MUST expire shortly after it is issued.
- id: oauth-x2
  shelf: oauth
  question: Which claims does a JWT carry?
  must:
  - item: An absence.
    evidence: []
"""


def _gold(items):
    return GoldQuestion(question=Question(id="q", shelf="s", question="?", must=[]), items=items)


def test_metrics_by_hand():
    gold = _gold([["a"], ["b", "c"], ["z"]])  # relevant {a, b, c, z}
    units = [Unit(chars=100, sections=[s]) for s in ["x", "a", "y", "b", "c"]]
    m = question_metrics(gold, units)
    assert m["recall@5"] == 0.75 and m["precision@5"] == 0.6 and m["precision@10"] == 0.3
    assert m["mrr"] == 0.5
    ideal = sum(1 / math.log2(r + 1) for r in range(1, 5))
    assert m["ndcg@10"] == pytest.approx((1 / math.log2(3) + 1 / math.log2(5) + 1 / math.log2(6)) / ideal)
    assert m["ctx_recall@5"] == pytest.approx(2 / 3)
    assert m["ctx_precision"] == pytest.approx((1 / 2 + 2 / 4 + 3 / 5) / 3)


def test_a_folded_repeat_is_retrieved_at_its_holders_rank_and_read_only_for_the_quotes_that_stand_in_the_holder():
    gold = GoldQuestion(
        question=Question(id="q", shelf="s", question="?", must=[
            MustItem(item="one", evidence=[Evidence(doc="d.pdf", heading="H", quote="the first fact")]),
            MustItem(item="two", evidence=[Evidence(doc="d.pdf", heading="H", quote="a fact only the copy has")]),
        ]),
        items=[["copy"], ["copy"]],
    )  # fmt: skip
    held = Unit(chars=100, sections=["holder"], repeats=["copy"], read_text_key=_key("It states the first fact plainly."))
    m = question_metrics(gold, [Unit(chars=100, sections=["x"]), held, Unit(chars=100, sections=["y"])])
    assert m["mrr"] == 0.5 and m["recall@5"] == 1.0 and m["precision@5"] == 0.2  # one rank: the holder's, with its repeat
    assert m["budget_4k"] == 0.5  # the repeat's second quote is not in what was read of the holder
    flat = question_metrics(gold, [Unit(chars=100, sections=["x"]), Unit(chars=100, sections=["holder", "copy"])])
    assert flat["mrr"] == pytest.approx(1 / 3)  # a unit's own sections each take a rank (a chunk)


def test_budget_walks_units_in_rank_order_and_skips_what_does_not_fit():
    gold = _gold([["a"], ["b"], ["c"]])
    units = [Unit(chars=3000, sections=["a"]), Unit(chars=2000, sections=["x"]), Unit(chars=900, sections=["b"]), Unit(chars=15000, sections=["c"])]
    m = question_metrics(gold, units)
    assert m["budget_4k"] == pytest.approx(2 / 3)  # a (3000) + b (900); x does not fit, is skipped
    assert m["budget_16k"] == pytest.approx(2 / 3)  # c (15000) never fits after a
    assert m["budget_64k"] == 1.0


def test_a_reader_whose_units_depend_on_the_budget_is_walked_in_its_own_units_at_each():
    from shelfwise.compiler.search.reading import read_limit

    gold = _gold([["a"], ["b"]])
    whole = [Unit(chars=6000, sections=["a"]), Unit(chars=900, sections=["b"])]
    part = [Unit(chars=1500, sections=["a"], read_key="other text"), Unit(chars=900, sections=["b"])]
    m = question_metrics(gold, part, {4000: part, 16000: whole, 64000: whole})
    assert m["budget_4k"] == 0.5 and m["budget_16k"] == 1.0  # at 16k the 6,000-character section fits and is read whole
    assert question_metrics(gold, part)["budget_16k"] == 0.5  # without: the same cut units at every budget
    assert (read_limit(4000, 1500), read_limit(16000, 1500), read_limit(64000, 1500)) == (1500, 4000, 16000)


def test_a_chunk_carries_sections_with_200_chars_or_all_of_a_short_one(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    doc = put_doc(store, "d.md", "D", [h("Long"), p("x" * 1990), h("Short"), p("tiny"), h("Next"), p("y" * 3000), h("Empty")])
    chunks = make_chunks(doc, store.sections(doc))
    headings = [[store.section(sid).heading for sid in c.sections] for c in chunks]
    assert [len(c.text) for c in chunks[:-1]] == [2000] * (len(chunks) - 1)
    assert chunks[1].text[:250] == chunks[0].text[-250:]
    assert headings[0] == ["Long"]  # "Short" spans 1998-2011: chunk 0 does not carry all of it
    assert headings[1] == ["Long", "Short", "Next"]  # chunk 1 (from 1750) carries 248 chars of Long, all of Short
    assert headings[2] == ["Next"]
    assert all("Empty" not in hs for hs in headings)


def test_a_chunk_covers_an_item_at_a_budget_only_when_the_quote_is_in_its_text(tmp_path):
    from shelfwise.eval.retrieval import chunk_units

    store = Store(tmp_path / "s.sqlite")
    body = "The opening says little. " * 10 + "x " * 1000 + "Keys are rotated every ninety days."
    doc = put_doc(store, "d.md", "D", [h("Intro"), p("A short preface."), h("Keys"), p(body)])
    keys = next(s.id for s in store.sections(doc) if s.heading == "Keys")
    gold = GoldQuestion(
        question=Question(id="q", shelf="s", question="?", must=[
            MustItem(item="rotation", evidence=[Evidence(doc="d.md", heading="Keys", quote="rotated every ninety days")])]),
        items=[[keys]],
    )  # fmt: skip
    first, second = make_chunks(doc, store.sections(doc))[:2]
    assert keys in first.sections and "ninety" not in first.text and "ninety" in second.text
    assert question_metrics(gold, chunk_units([first]))["budget_4k"] == 0.0  # carries the section, not its quote
    assert question_metrics(gold, chunk_units([first]))["recall@5"] == 1.0  # at ranks it still retrieves the section
    assert question_metrics(gold, chunk_units([first, second]))["budget_4k"] == 1.0


def test_questions_load_and_map_to_sections(tmp_path):
    path = tmp_path / "q.yaml"
    path.write_text(QUESTIONS_YAML)
    questions = load_questions(path)
    store = Store(tmp_path / "s.sqlite")
    oauth_like_shelf(store)
    gold = map_gold(questions[0], store)
    assert [[store.section(s).heading for s in item] for item in gold.items] == [["1.2. Terminology"], ["4.1.2. Authorization Response"]]
    assert gold.notes == ["oauth-x1: heading 'No Such Heading' not found in rfc6749.txt; mapped by its quote"]
    assert map_gold(questions[1], store).relevant == set()
    bad = tmp_path / "bad.yaml"
    bad.write_text("- id: a\n  shelf: s\n- id: a\n  shelf: s\n  question: q\n  must: []\n")
    with pytest.raises(SettingsError) as info:
        load_questions(bad)
    assert "question a: question: Field required" in str(info.value) and "question id a appears more than once" in str(info.value)
    with pytest.raises(SettingsError, match="file not found"):
        load_questions(tmp_path / "missing.yaml")


def test_end_to_end_run_writes_results_and_the_scoreboard_reads_them(tmp_path):
    questions = tmp_path / "q.yaml"
    questions.write_text(QUESTIONS_YAML)
    build = tmp_path / "build"
    store = Store(build / "oauth" / "store.sqlite")
    oauth_like_shelf(store)
    embedder = HashEmbedder()
    index_shelf(store, build / "oauth" / "lexical", embedder, [d["doc_id"] for d in store.documents()], [])
    store.close()
    out = tmp_path / "results" / "retrieval-q.json"
    result = run_retrieval_eval(questions, build_dir=build, embedder=embedder, results_path=out)
    assert json.loads(out.read_text())["systems"] == result["systems"]
    assert result["n_scored"] == 1 and result["skipped_without_evidence"] == ["oauth-x2"]
    assert set(result["systems"]) == {"bm25 sections", "dense sections", "bm25+dense sections", "hybrid sections", "section reading units",
                                      "chunk RAG (2000/250, bm25+dense)"}
    assert set(result["ablations"]) == {f"hybrid - {r}" for r in ("bm25", "dense", "heading", "named", "figures", "numeric", "code", "identifier")}
    assert result["systems"]["hybrid sections"]["recall@20"] == 1.0  # five sections with text: all found
    del result["systems"]["dense sections"]["mrr"]
    (tmp_path / "results" / "retrieval-q.json").write_text(json.dumps(result))
    board = render_scoreboard(tmp_path / "results")
    assert "| dense sections | " in board and " n.m. |" in board
    assert retrieval_table(result).count("\n| ") == 7
    assert ablation_table(result).count("\n| ") == 9 and "| identifier | " in ablation_table(result)
    with pytest.raises(Exception, match="shelves not compiled"):
        run_retrieval_eval(questions, build_dir=tmp_path / "empty", embedder=embedder)
