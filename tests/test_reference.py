"""Reference answers (shelfwise eval reference) and the fitted ranking model (shelfwise.eval.fit, rank_model):
figures and names read from reference answers, scored on real runs over a small compiled shelf; the hand-set
weights reproduce the old factors; a weights file steers the ranking; the fit learns from labelled rows."""

from __future__ import annotations

import json
import math
import random

import pytest
import yaml

from answer_shelves import HashEmbedder, compile_shelf
from shelfwise.api.answer.write.rank_model import HAND_SET, RankModel, load_rank_model
from shelfwise.compiler.errors import SettingsError
from shelfwise.compiler.settings import Settings
from shelfwise.eval.fit import STRENGTHS, collect, fit_weights, label_unit, sampled
from shelfwise.eval.questions import Question, load_questions
from shelfwise.eval.reference import number_keys, reference_facts, reference_table, run_reference_eval
from shelfwise.eval.run import run_answers

DOCS = {
    "2023 Q2 ACME.md": "# ACME Corp quarterly report\n\nFor the quarterly period ended April 1, 2023.\n\n## Net sales\n\n"
    "| Category | Three Months Ended April 1, 2023 | Three Months Ended March 26, 2022 |\n|---|---|---|\n"
    "| Products | 73,929 | 77,457 |\n| Services | 20,907 | 19,821 |\n| Total net sales | 94,836 | 97,278 |\n\n"
    "## Legal proceedings\n\nThe Company is defending a lawsuit filed by Widget Works in the Northern District of Ohio.\n",
    "2023 Q3 ACME.md": "# ACME Corp quarterly report\n\nFor the quarterly period ended July 1, 2023.\n\n## Net sales\n\n"
    "Total net sales were $81,797 million, a decrease of 1% from the year-ago quarter.\n",
}
QUESTIONS = [
    {"id": "ref-01", "shelf": "acme", "question": "What were ACME's total net sales in the quarter ended April 1, 2023?",
     "kind": "Single-Doc Single-Chunk RAG", "evidence_kind": "Table", "source_documents": "*2023 Q2 ACME*",
     "reference_answer": "Total net sales were $94,836 million (Services $20,907 million).\n\nSOURCE(S): 2023 Q2 ACME.pdf"},
    {"id": "ref-02", "shelf": "acme", "question": "Who filed a lawsuit against ACME?", "kind": "Single-Doc Single-Chunk RAG",
     "evidence_kind": "Text", "source_documents": "*2023 Q2 ACME*",
     "reference_answer": "A lawsuit was filed by Widget Works in the Northern District of Ohio."},
]


def test_reference_figures_are_amounts_and_percentages_never_dates_or_source_lines():
    facts = reference_facts("For the quarter ended June 25, 2022, net sales were $82,959 million, up 5.3% (SOURCE: 2022 Q3 AAPL.pdf); "
                            "cash of $1.5 billion; nine of ten counts.\n\nSOURCE(S): 2022 Q3 AAPL.pdf,\n2023 Q1 AAPL.pdf")
    assert [text for text, _ in facts.figures] == ["$82,959 million", "5.3%", "$1.5 billion"]
    keys = dict(facts.figures)
    assert keys["$1.5 billion"] == {"1.5", "1500"}  # a statement table in millions writes 1,500
    assert not any("AAPL" in name for name in facts.names)
    assert number_keys("Total net sales | $ 81,797 | (1,234) | 5.30 %") == {"81797", "1234", "5.3"}


def test_reference_names_leave_out_what_the_question_gives():
    facts = reference_facts("Epic Games sued Apple in the U.S. District Court. Apple's appeal went to the Ninth Circuit.",
                            "What lawsuit did Apple face?")
    assert "Epic Games" in facts.names and "Ninth Circuit" in facts.names
    assert "Apple" not in facts.names


def test_a_questions_file_with_reference_answers_loads_and_labels_units(tmp_path):
    path = tmp_path / "ref.yaml"
    path.write_text(yaml.safe_dump(QUESTIONS, sort_keys=False), encoding="utf-8")
    first, second = load_questions(path)
    assert first.must == [] and first.source_documents == "*2023 Q2 ACME*" and second.evidence_kind == "Text"
    figures = reference_facts(first.reference_answer, first.question).figures
    assert label_unit(first, "Total net sales | 94,836 | 97,278", "2023 Q2 ACME.md", figures) == 1
    assert label_unit(first, "Total net sales were $81,797 million", "2023 Q2 ACME.md", figures) == 0
    assert label_unit(first, "Total net sales | 94,836", "2023 Q3 ACME.md", figures) == 0  # not a source document


@pytest.fixture(scope="module")
def acme(tmp_path_factory):
    root = tmp_path_factory.mktemp("acme")
    folder = root / "shelves" / "acme"
    folder.mkdir(parents=True)
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    compile_shelf(folder, root / "build")
    (root / "ref.yaml").write_text(yaml.safe_dump(QUESTIONS, sort_keys=False), encoding="utf-8")
    settings = Settings.model_validate({"build_dir": str(root / "build"), "api": {"trace_db": str(root / "traces.sqlite")}})
    return root, settings


def test_eval_reference_scores_a_real_run_figures_sources_and_the_reading_ceiling(acme):
    root, settings = acme
    run_dir = run_answers(root / "ref.yaml", label="ref", settings=settings, runs_dir=root / "runs", embedder=HashEmbedder())
    result = run_reference_eval(root / "ref.yaml", run_dir, settings=settings, embedder=HashEmbedder(), results_path=root / "ref.json",
                                chunks=True)
    rows = {row["id"]: row for row in result["rows"]}
    assert rows["ref-01"]["figures"] == 2 and rows["ref-01"]["figures_ceiling"] == 1.0
    assert rows["ref-01"]["source_cited"] == 1.0 and rows["ref-01"]["figures_answer"] > 0
    assert rows["ref-01"]["cited_sources"] == 1.0  # the July quarter's report, not asked about, is not cited
    assert rows["ref-01"]["figures_chunks"] == 1.0  # the whole small shelf fits the budget
    assert rows["ref-02"]["figures"] == 0 and rows["ref-02"]["figures_answer"] is None
    assert rows["ref-02"]["names_ceiling"] == 1.0
    assert json.loads((root / "ref.json").read_text())["kind"] == "reference"
    table = reference_table(result)
    assert "| all | 2 |" in table and "evidence: Table" in table and "cited docs that are sources" in table


def test_hand_set_weights_reproduce_the_factors_the_ranking_multiplied_by():
    model = RankModel(weights=dict(HAND_SET))
    base = {"relevance": math.log(2.0), "shape": 0.0, "prior": math.log(0.8)}
    assert model.score(base) == pytest.approx(1.6)
    assert model.score({**base, "superseded": 1.0}) == pytest.approx(1.6 * 0.55)
    assert model.score({**base, "elsewhere_named": 1.0, "unvalued": 2.0}) == pytest.approx(1.6 * 0.6 * 0.75 ** 2)
    assert model.score({**base, "relevance": -math.inf}) == 0.0
    assert model.score({**base, "row": 1.0, "own": 0.7}) == pytest.approx(1.6)  # features outside the hand-set rules weigh 0


def test_a_weights_file_is_checked_and_steers_the_ranking(acme, tmp_path):
    root, settings = acme
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"weights": {"relevance": 1.0, "colour": 2.0}}), encoding="utf-8")
    with pytest.raises(SettingsError, match="unknown ranking feature"):
        load_rank_model(bad)
    with pytest.raises(SettingsError, match="file not found"):
        load_rank_model(tmp_path / "missing.json")
    rows_first = tmp_path / "rows.json"
    rows_first.write_text(RankModel(weights={**HAND_SET, "row": 8.0}).model_dump_json(), encoding="utf-8")
    texts_first = tmp_path / "texts.json"
    texts_first.write_text(RankModel(weights={**HAND_SET, "row": -8.0}).model_dump_json(), encoding="utf-8")
    question = root / "one.yaml"
    question.write_text(yaml.safe_dump([{**QUESTIONS[0], "question": "What were total net sales?", "source_documents": "*"}]), encoding="utf-8")
    firsts = []
    for weights in (rows_first, texts_first):
        tuned = settings.model_copy(update={"answer": settings.answer.model_copy(update={"rank_weights": weights})})
        run = run_answers(question, label=f"w-{weights.stem}", settings=tuned, runs_dir=tmp_path / "runs", embedder=HashEmbedder())
        record = json.loads((run / "run-1.jsonl").read_text().splitlines()[0])
        firsts.append(next(s["kind"] for s in record["answer"]["sentences"] if s["kind"] != "table_header"))
    assert firsts[0] == "table_row" and firsts[1] != "table_row"


def test_the_fit_learns_from_labelled_units_of_real_answers(acme):
    root, settings = acme
    from shelfwise.api.shelves import close_shelves, open_shelves

    shelves = open_shelves({"acme": root / "build" / "acme"}, HashEmbedder())
    try:
        rows = collect("ref", root / "ref.yaml", settings, shelves, lambda line: None)
    finally:
        close_shelves(shelves)
    assert rows and {r["question"] for r in rows} == {"ref-01"}  # ref-02 has no figure to label by
    assert any(r["label"] == 1 for r in rows) and any(r["label"] == 0 for r in rows)
    rng = random.Random(0)
    synthetic = [{"set": s, "question": f"{s}-{i % 5}", "obligation": 0, "label": int(i % 3 == 0),
                  "features": {"relevance": rng.random() + (1.5 if i % 3 == 0 else 0), "row": float(i % 2)}}
                 for s in ("a", "b") for i in range(120)]
    weights = fit_weights(synthetic, STRENGTHS[1])
    assert weights["relevance"] > 0.5 and abs(weights["row"]) < weights["relevance"]
    assert set(weights) >= set(HAND_SET)


SYSTEMS = {
    "SOURCES.md": "# Sources\n\n| file | covers |\n|---|---|\n| retention.md | record retention of Atlas ERP and Borealis HR |\n"
    "| access.md | access reviews |\n| backup.md | backups |\n\nThe Orion CRM retention schedule is still being drafted.\n",
    "access.md": "# Access Reviews\n\n## Frequency\n\nAccess rights are reviewed every quarter by the system owner.\n",
    "backup.md": "# Backups\n\n## Schedule\n\nBackups run nightly and are kept for 35 days.\n",
    "retention.md": "# Retention Policy\n\n## Atlas ERP\n\nThe retention period of Atlas ERP records is seven years after the fiscal year "
    "closes.\n\n## Borealis HR\n\nThe retention period of Borealis HR records is three years after employment ends.\n",
}


@pytest.fixture(scope="module")
def systems(tmp_path_factory):
    from shelfwise.api.shelves import close_shelves, open_shelves

    root = tmp_path_factory.mktemp("systems")
    folder = root / "shelves" / "systems"
    folder.mkdir(parents=True)
    for name, text in SYSTEMS.items():
        (folder / name).write_text(text, encoding="utf-8")
    shelves = open_shelves({"systems": compile_shelf(folder, root / "build")}, HashEmbedder())
    yield shelves
    close_shelves(shelves)


def _ask(shelves, question):
    from shelfwise.api.answer import answer_question, build_pipeline
    from shelfwise.api.schemas import AskRequest

    return answer_question(build_pipeline(Settings(), None), AskRequest(question=question, shelves=["systems"]), shelves,
                           token="test", traces=None)


def test_a_subject_named_only_in_the_catalogue_is_not_in_the_documents(systems):
    """What would be shown is about Atlas and Borealis, whose sentences share "retention period" with the question:
    none is about Orion, which only the catalogue names."""
    answer = _ask(systems, "What is the retention period of the Orion CRM system?")
    assert answer.label == "not_in_documents" and answer.sentences == []
    held = _ask(systems, "What is the retention period of the Atlas ERP system?")
    assert held.label != "not_in_documents"
    assert any("seven years" in s.text for s in held.sentences)


def test_asked_names_are_identifiers_and_capitalised_names_never_periods():
    from shelfwise.api.answer.read.evidence import asked_names

    assert asked_names("What is the warranty period of the NW-500 infusion pump?") == ["NW-500"]
    assert asked_names("What were Apple's total net sales in Q3 2023?") == ["Apple"]
    assert asked_names("Which suppliers are approved for sterile packaging?") == []
    assert asked_names("How do Dense X Retrieval and RAPTOR index documents?") == ["Dense X Retrieval", "RAPTOR"]


def test_route_weights_are_fitted_from_reciprocal_ranks_and_a_useless_route_is_dropped(acme):
    from shelfwise.api.shelves import close_shelves, open_shelves
    from shelfwise.eval.fit_search import below_plain, choose_routes, collect_search, fit_bonus, fit_routes, golds, ndcg, should_ship

    root, _ = acme
    shelves = open_shelves({"acme": root / "build" / "acme"}, HashEmbedder())
    try:
        gold = golds(root / "ref.yaml", shelves)
        assert [g.question.id for g in gold] == ["ref-01"] and gold[0].items  # the sections holding the reference figures
        rows = collect_search("ref", gold, shelves)
        assert rows and any(r["label"] for r in rows) and all("bm25" in r["features"] or "dense" in r["features"] for r in rows)
        score, per = ndcg(gold, shelves, None)
        assert 0 < score <= 1 and set(per) == {"ref-01"}
    finally:
        close_shelves(shelves)
    rng = random.Random(1)
    synthetic = []
    for i in range(400):
        label = int(i % 4 == 0)
        synthetic.append({"set": "a" if i % 2 else "b", "question": f"q{i % 10}", "label": label,
                          "features": {"bm25": 0.5 + 0.5 * label * rng.random(), "dense": rng.random(), "code": 1.0 - 0.6 * label}})
    weights = fit_routes(synthetic)
    assert weights["bm25"] == weights["dense"] == 1.0 and weights["code"] == 0.0  # bm25 and dense tied; a route against the labels dropped
    for row in synthetic:
        row["features"]["heading"] = 0.9 * row["label"]
    assert fit_routes(synthetic)["heading"] > 0 and fit_routes(synthetic, routes=("code",))["heading"] == 0.0  # only the routes given
    plain = {"a": 0.5, "b": 0.6}
    folds = {"heading": {"a": 0.7, "b": 0.55}, "code": {"a": 0.52, "b": 0.6}, "heading+code": {"a": 0.8, "b": 0.59}}
    assert below_plain(folds["heading"], plain) == ["b"] and below_plain(folds["code"], plain) == []
    assert choose_routes(folds, plain) == "code"  # below bm25+dense on no fold beats a better mean with a fold below it
    assert choose_routes({**folds, "named": {"a": 0.6, "b": 0.61}}, plain) == "named"  # then the held-out mean
    figures = {0.0: {"a": 0.5, "b": 0.7}, 0.008: {"a": 0.6, "b": 0.7}, 1.0: {"a": 0.6, "b": 0.6}}
    assert fit_bonus(figures, "b") == 0.008  # a's best, the smaller of the two that tie there
    assert fit_bonus(figures, "a") == 0.0 and fit_bonus(figures, "") == 0.008  # b's best; every set's
    shipped = {"a": 0.9, "b": 0.55}  # chosen on a: its 0.9 there is no held-out figure
    assert should_ship(folds["code"], shipped, plain, seen={"a"})  # fewer folds below plain, and better on b, the set it never saw
    assert not should_ship(folds["code"], shipped, plain, seen=set())  # every fold fair: the mean 0.56 < 0.725 keeps it
    assert not should_ship(folds["heading"], {"a": 0.6, "b": 0.6}, plain, seen={"a"})  # a fold newly below plain
    assert should_ship(folds["code"], folds["code"], plain, seen={"a", "b"})  # a fit that saw every set: the floor alone


def test_a_capitalised_first_word_is_no_name_even_before_one():
    from shelfwise.api.answer.read.evidence import asked_names

    assert asked_names("Since RAFT always trains with the oracle document, how many distractors does it add?") == ["RAFT"]
    assert asked_names("RAPTOR: how does it cluster?") == ["RAPTOR"]


def test_a_sample_with_an_offset_is_a_disjoint_validation_sample(tmp_path):
    """The filings set's two samples: 30 evenly spaced questions, and the 30 two places after each (none shared)."""
    source = tmp_path / "set.yaml"
    source.write_text(yaml.safe_dump([{"id": f"q{i:03d}", "shelf": "s", "question": f"question {i}?"} for i in range(119)]))
    first = [q["id"] for q in yaml.safe_load(sampled(source, 30, tmp_path).read_text())]
    second = [q["id"] for q in yaml.safe_load(sampled(source, 30, tmp_path, offset=2).read_text())]
    assert len(first) == len(second) == 30 and not set(first) & set(second)
    assert sampled(source, 200, tmp_path) == source
