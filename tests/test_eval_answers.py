"""The answer evaluation harness: runs over a small real shelf, the quote-checked model judge on recorded replies,
quote recall, the loss waterfall on real traces, run-to-run noise, the chunk-RAG baseline and the answer tables."""

from __future__ import annotations

import json

import httpx
import pytest
import yaml

from answer_shelves import HashEmbedder, compile_shelf
from claimshelf import Replay
from shelfwise.api.trace import TraceStore
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.models import ChatModel, make_client
from shelfwise.compiler.settings import ModelSettings, Settings
from shelfwise.eval.judge import displayed_statements
from shelfwise.eval.answer_metrics import label_agrees, verified_share
from shelfwise.eval.answer_scoreboard import answer_tables
from shelfwise.eval.baseline_answer import run_baseline_answers
from shelfwise.eval.cli.answer_runs import judge_model
from shelfwise.eval.judge import ModelJudge, blind_text, item_numbers, quote_recall, quote_stands
from shelfwise.eval.noise import compare, run_spread
from shelfwise.eval.questions import MustItem, Question, load_questions
from shelfwise.eval.run import cost_usd, grade_runs, read_meta, read_run, run_answers, run_files
from shelfwise.eval.waterfall import LOSSES, item_paths, waterfall_counts

DOCS = {
    "policy.md": "# Token Policy\n\n## Lifetimes\n\nAccess tokens expire after 15 minutes. Refresh tokens expire after 30 days.\n\n"
    "## Revocation\n\nA refresh token is revoked when the user logs out.\n",
    "guide.md": "# Client Guide\n\n## Renewal\n\nClients renew an access token with the refresh token before it expires.\n",
}
QUESTIONS = [
    {"id": "tk-01", "shelf": "tokens", "question": "How long do access tokens and refresh tokens last?", "kind": "numeric",
     "must": [{"item": "Access tokens expire after 15 minutes.",
               "evidence": [{"doc": "policy.md", "heading": "Lifetimes", "quote": "Access tokens expire after 15 minutes."}]},
              {"item": "Refresh tokens expire after 30 days.",
               "evidence": [{"doc": "policy.md", "heading": "Lifetimes", "quote": "Refresh tokens expire after 30 days."}]}]},
    {"id": "tk-02", "shelf": "tokens", "question": "When is a refresh token revoked?", "kind": "conditions",
     "must": [{"item": "A refresh token is revoked when the user logs out.",
               "evidence": [{"doc": "policy.md", "heading": "Revocation", "quote": "A refresh token is revoked when the user logs out."}]},
              {"item": "Signing keys are rotated every 7 days by the key service.", "evidence": []}]},
]


@pytest.fixture(scope="module")
def shelf(tmp_path_factory):
    root = tmp_path_factory.mktemp("evalshelf")
    folder = root / "shelves" / "tokens"
    folder.mkdir(parents=True)
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    compile_shelf(folder, root / "build")
    questions = root / "dev.yaml"
    questions.write_text(yaml.safe_dump(QUESTIONS, sort_keys=False), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def runs(shelf):
    settings = Settings.model_validate({"build_dir": str(shelf / "build"), "api": {"trace_db": str(shelf / "traces.sqlite")}})
    run_dir = run_answers(shelf / "dev.yaml", runs=2, label="mf", settings=settings, runs_dir=shelf / "runs", embedder=HashEmbedder())
    grade_runs(run_dir, shelf / "dev.yaml")
    return run_dir


def test_runs_store_answer_trace_cost_and_seconds_per_question(runs):
    assert [p.name for p in run_files(runs)] == ["run-1.jsonl", "run-2.jsonl"]
    meta = read_meta(runs)
    assert meta["mode"] == "model-free" and meta["split"] == "dev" and meta["models"]["writer"] == "extractive"
    records = read_run(runs / "run-1.jsonl")
    assert [r["id"] for r in records] == ["tk-01", "tk-02"]
    first = records[0]
    assert "Access tokens expire after 15 minutes." in first["answer"]["markdown"]
    assert first["cost"] == {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "usd": 0.0}
    assert first["seconds"] > 0 and not first["error"]
    assert first["trace"]["gold"] and first["trace"]["written"] and "text" not in json.dumps(first["trace"].get("read_gold"))


def test_a_label_holds_one_configuration(shelf, runs):
    settings = Settings.model_validate({"build_dir": str(shelf / "build"), "api": {"trace_db": str(shelf / "traces.sqlite")},
                                        "answer": {"max_units_per_obligation": 2}})
    with pytest.raises(ShelfwiseError, match=r"another configuration \(answer_settings differ\); give another --label"):
        run_answers(shelf / "dev.yaml", runs=1, label="mf", settings=settings, runs_dir=shelf / "runs", embedder=HashEmbedder())


def test_an_uncompiled_shelf_names_the_build_command(tmp_path):
    path = tmp_path / "q.yaml"
    path.write_text(yaml.safe_dump([{**QUESTIONS[0], "shelf": "typing"}]), encoding="utf-8")
    settings = Settings.model_validate({"build_dir": str(tmp_path / "build"), "api": {"trace_db": str(tmp_path / "t.sqlite")}})
    with pytest.raises(ShelfwiseError) as caught:
        run_answers(path, settings=settings, runs_dir=tmp_path / "runs", embedder=HashEmbedder())
    assert str(caught.value) == (f"shelf(s) typing not compiled under {tmp_path / 'build'}; compile each first: "
                                 "shelfwise build ../shared/corpora/typing --build-dir build --exclude SOURCES.md")


def test_quote_recall_grades_the_stored_answers(runs):
    grades = read_run(runs / "grades-quote-recall-run-1.jsonl")
    records = read_run(runs / "run-1.jsonl")
    assert [g["judge"] for g in grades] == ["quote recall", "quote recall"] and all(g["wrong_n"] is None for g in grades)
    first = grades[0]
    assert first["items"][0] == {"item": 0, "score": 1.0, "judge_score": 1.0, "quote": "", "verified": True, "reason": "gold quote of policy.md"}
    written_30_days = "Refresh tokens expire after 30 days." in records[0]["answer"]["markdown"]
    assert first["items"][1]["score"] == (1.0 if written_30_days else 0.0)
    assert [i["score"] for i in grades[1]["items"]] == [1.0, 0.0]


def test_quote_recall_rules():
    question = Question(id="q", shelf="s", question="?", must=[
        MustItem(item="Refresh tokens expire after 30 days.", evidence=[{"doc": "a.md", "heading": "H", "quote": "Refresh tokens  expire\nafter 30 days."}]),
        MustItem(item="The client renews the access token with its refresh token.", evidence=[]),
        MustItem(item="Signing keys rotate every 7 days.", evidence=[])])
    answer = "Refresh tokens expire after 30 days. [s0123456789a]\n\nClients renew an access token with the refresh token before it expires."
    grade = quote_recall(question, answer)
    assert [i.score for i in grade.items] == [1.0, 1.0, 0.0]
    assert grade.items[1].reason == "a sentence holds 100% of the item's content words"
    assert grade.score == pytest.approx(2 / 3)


def test_a_gold_quote_stands_whatever_marks_quote_its_code_or_line_break_split_its_compound():
    """makeinfo writes 'x', a PDF ‘x’, the Texinfo reader `x`: the quote is the same words. A quote copied where a PDF's
    line broke a compound keeps "PaLM- 540B" where the reader joins it, "PaLM-540B": the same words too; a hyphen that
    ends a word before "and" ("three- and nine-month") is folded alike on both sides."""
    question = Question(id="q", shelf="s", question="?", must=[
        MustItem(item="-M", evidence=[{"doc": "make.pdf", "heading": "H", "quote": "Usually this is done with the ‘-M’ option to the compiler."}]),
        MustItem(item=":::=", evidence=[{"doc": "make.texi", "heading": "H", "quote": "The ':::=' assignment operator allows for immediate expansion"}]),
        MustItem(item="ReAct's main results prompt PaLM-540B with few-shot trajectories.", evidence=[{"doc": "ReAct.pdf", "heading": "H", "quote": "Table 1 shows HotpotQA and Fever results using PaLM- 540B as the base model"}]),
        MustItem(item="Revenue for the quarter and the nine months.", evidence=[{"doc": "10-Q.pdf", "heading": "H", "quote": "for the three- and nine-month periods"}])])
    answer = ("Usually this is done with the `-M` option to the compiler. [s0123456789a]\n\n"
              "The “:::=” assignment operator allows for immediate expansion. [s0123456789a]\n\n"
              "Table 1 shows HotpotQA and Fever results using PaLM-540B as the base model with different prompting methods. "
              "[s0123456789a]\n\nRevenue fell for the three- and nine-month periods. [s0123456789a]")
    assert [i.score for i in quote_recall(question, answer).items] == [1.0, 1.0, 1.0, 1.0]
    assert quote_recall(question, "Usually this is done with the `-MM` option to the compiler.").items[0].score == 0.0
    assert quote_recall(question, "Table 1 shows HotpotQA and Fever results using PaLM-62B as the base model.").items[2].score == 0.0


def _judge(recording: str) -> tuple[ModelJudge, Replay]:
    replay = Replay(recording)
    client = make_client(ModelSettings(api_key_env="SHELFWISE_TEST_NO_KEY"), http_client=httpx.Client(transport=httpx.MockTransport(replay)))
    return ModelJudge(ChatModel(client, "gpt-4o")), replay


JUDGED = Question(id="tk-x", shelf="tokens", question="How long do tokens last, and when is a refresh token revoked?", must=[
    MustItem(item="Access tokens expire after 15 minutes."),
    MustItem(item="Refresh tokens expire after 30 days."),
    MustItem(item="A refresh token is revoked when the user logs out.")])
ANSWER = ("Access tokens expire after 15 minutes. [s0123456789a]\n\nRefresh tokens are long-lived. [s0123456789a]\n\n"
          "Refresh tokens are revoked at logout after 45 days. [s0123456789b]\n\n"
          "1 statement could not be verified and is not shown.\n\n"
          "_Model-free answer: every sentence above is quoted from the section it cites._")


def test_model_judge_counts_only_quote_checked_credits_and_wrong_apart():
    judge, replay = _judge("judge_quote_checked")
    grade = judge.grade(JUDGED, ANSWER)
    assert grade.judge == "judge:gpt-4o"
    assert [(i.judge_score, i.score, i.verified) for i in grade.items] == [(1, 1.0, True), (1, 0.0, False), (0.5, 0.0, False)]
    assert grade.items[1].reason == "the item's number(s) 30 not in the answer"
    assert grade.items[2].reason == "quote not in the answer: 'Refresh tokens are revoked when the user logs out'"
    assert grade.score == pytest.approx(1 / 3)
    assert [(w.quote, w.verified) for w in grade.wrong] == [("tokens are revoked at logout after 45 days", True),
                                                            ("Access tokens last one hour", False)]
    assert grade.wrong_n == 1


def test_model_judge_is_blind_to_system_and_mode():
    judge, replay = _judge("judge_quote_checked")
    judge.grade(JUDGED, ANSWER)
    sent = json.dumps(replay.requests[0]["messages"])
    for leak in ("Model-free", "model-free", "extractive", "shelfwise", "s0123456789a", "not shown"):
        assert leak not in sent
    assert "1. Access tokens expire after 15 minutes." in sent and "Refresh tokens are long-lived." in sent


def test_model_judge_reply_without_json_is_an_error_not_a_score():
    judge, _ = _judge("judge_malformed")
    grade = judge.grade(JUDGED, ANSWER)
    assert grade.score is None and grade.error == "judge gpt-4o replied without the JSON asked for (JSONDecodeError); rerun the judge"


def test_quote_and_number_checks():
    assert quote_stands("Access tokens expire ... 15 minutes", "Access tokens **expire** after 15 minutes.")
    assert not quote_stands("15 minutes ... Access tokens", "Access tokens expire after 15 minutes.")
    assert quote_stands("Reportable Event 1 working day", "| Reportable Event | 1 working day | [s0123456789a] |")
    assert item_numbers("PEP 585 (Python 3.9) removes them no sooner than October 2025, per SOP-014 step 4.") == ["3.9", "2025", "4"]
    assert blind_text(ANSWER).endswith("Refresh tokens are revoked at logout after 45 days.")


def test_waterfall_follows_each_item_through_a_real_trace(shelf, runs):
    questions = {q.id: q for q in load_questions(shelf / "dev.yaml")}
    record = read_run(runs / "run-1.jsonl")[1]
    traces = TraceStore(shelf / "traces.sqlite")
    trace = traces.get(record["trace"]["trace_id"])
    traces.close()
    assert trace is not None and trace.question == "When is a refresh token revoked?"
    paths = item_paths(questions["tk-02"], record)
    assert [(p.retrieved, p.read, p.written, p.shown, p.lost_at) for p in paths] == [
        (True, True, True, True, "shown"), (False, False, False, False, "not retrieved")]
    all_paths = [p for r in read_run(runs / "run-1.jsonl") for p in item_paths(questions[r["id"]], r)]
    counts = waterfall_counts(all_paths)
    assert (counts["items"], counts["retrieved"], counts["read"]) == (4, 3, 3)
    assert counts["shown"] <= counts["written"] <= counts["read"] and counts["lost: not retrieved"] == 1
    assert sum(counts[f"lost: {loss}"] for loss in LOSSES) == 4


def test_waterfall_separates_checker_and_gate_removals():
    question = Question(id="q", shelf="s", question="?", must=[
        MustItem(item="Refresh tokens expire after 30 days.", evidence=[{"doc": "a", "heading": "h", "quote": "Refresh tokens expire after 30 days."}]),
        MustItem(item="Access tokens expire after 15 minutes.", evidence=[{"doc": "a", "heading": "h", "quote": "Access tokens expire after 15 minutes."}])])
    record = {"answer": {"markdown": "Nothing shown."}, "trace": {
        "gold": [["s1"], ["s1"]], "candidates_gold": ["s1"], "read_gold": ["s1"],
        "written": [{"id": "u1", "text": "Refresh tokens expire after 30 days."}, {"id": "u2", "text": "Access tokens expire after 15 minutes."}],
        "removed": [{"unit": "u1", "stage": "check", "reason": "contradicts"}, {"unit": "u2", "stage": "gate", "reason": "unchecked"}]}}
    assert [p.lost_at for p in item_paths(question, record)] == ["removed by checker", "removed by gate"]


def test_noise_spread_and_comparison_decide_only_beyond_the_spread():
    a = [{"q1": 1.0, "q2": 0.5}, {"q1": 0.5, "q2": 0.5}]
    spread = run_spread(a)
    assert (spread.means, spread.mean, spread.spread, spread.max_swing, spread.swing_question) == ([0.75, 0.5], 0.625, 0.25, 0.5, "q1")
    within = compare(a, [{"q1": 1.0, "q2": 0.75}, {"q1": 0.75, "q2": 0.75}])
    assert (within.difference, within.spread, within.real) == (0.1875, 0.25, False)
    beyond = compare(a, [{"q1": 1.0, "q2": 1.0}, {"q1": 1.0, "q2": 1.0}])
    assert (beyond.difference, beyond.real) == (0.375, True)
    assert compare(a, [{"q1": 1.0, "q2": 1.0}]).real is None
    assert run_spread([{"q1": None, "q2": 1.0}, {"q1": 0.0, "q2": 1.0}]).questions == 1


def test_verified_share_counts_displayed_sentences_and_label_agreement():
    record = {"answer": {"markdown": "Access tokens expire after 15 minutes. [s0123456789a] Refresh tokens last long. [s0123456789a]\n\n"
                         "| Role | Duty |\n| --- | --- |\n| Lead | Owns the SOP | [s0123456789b] |\n\nThe documents do not say how keys rotate.\n\n"
                         "_Model-free answer: every sentence above is quoted from the section it cites._",
                         "not_covered": ["The documents do not say how keys rotate."],
                         "sentences": [{"text": "Access tokens expire after 15 minutes.", "status": "verbatim"},
                                       {"text": "Refresh tokens last long.", "status": "unconfirmed"},
                                       {"text": "Lead | Owns the SOP", "status": "verbatim"}]}}
    assert len(displayed_statements(record["answer"]["markdown"], record["answer"]["not_covered"])) == 3
    assert verified_share(record) == (2, 3)
    assert label_agrees("complete", [1.0, 1.0]) is True and label_agrees("complete", [1.0, 0.5]) is False
    assert label_agrees("partial", [1.0, 0.0]) is True and label_agrees("n/a", [1.0]) is None


def test_cost_in_dollars_only_for_known_prices():
    assert cost_usd([{"model": "gpt-4o", "calls": 1, "prompt_tokens": 1_000_000, "completion_tokens": 100_000}])["usd"] == 3.5
    assert cost_usd([{"model": "qwen-local", "calls": 1, "prompt_tokens": 10, "completion_tokens": 1}])["usd"] is None
    assert judge_model(Settings()) is None
    assert judge_model(Settings.model_validate({"models": {"base_url": "https://api.openai.com/v1"}})) == "gpt-4o"


def test_baseline_answerer_one_call_cites_chunks_and_no_model_is_not_measured(shelf, tmp_path):
    settings = Settings.model_validate({"build_dir": str(shelf / "build"), "models": {"writer": "gpt-4.1", "api_key_env": "SHELFWISE_TEST_NO_KEY"}})
    lines = []
    assert run_baseline_answers(shelf / "dev.yaml", settings=Settings(), runs_dir=tmp_path, progress=lines.append) is None
    assert lines == ["chunk RAG baseline: n.m. (no model configured; set models.base_url and models.writer to run it)"]
    only_first = tmp_path / "one.yaml"
    only_first.write_text(yaml.safe_dump(QUESTIONS[:1], sort_keys=False), encoding="utf-8")
    replay = Replay("baseline_answer")
    run_dir = run_baseline_answers(only_first, settings=settings, runs_dir=tmp_path, embedder=HashEmbedder(),
                                   http_client=httpx.Client(transport=httpx.MockTransport(replay)))
    record = read_run(run_dir / "run-1.jsonl")[0]
    assert len(replay.requests) == 1 and replay.requests[0]["model"] == "gpt-4.1"
    assert "<chunk id=\"policy-md:0\">" in replay.requests[0]["messages"][1]["content"]
    assert [s["citations"] for s in record["answer"]["sentences"]] == [["policy-md:0"], ["policy-md:0"], []]
    assert record["cost"] == {"calls": 1, "prompt_tokens": 900, "completion_tokens": 120, "usd": 0.00276}
    grade_runs(run_dir, only_first)
    assert read_run(run_dir / "grades-quote-recall-run-1.jsonl")[0]["score"] == 1.0


def test_answer_tables_print_every_metric_or_nm(runs):
    tables = answer_tables(runs_dir=runs.parent)
    means = [sum(g["score"] for g in read_run(runs / f"grades-quote-recall-run-{n}.jsonl")) / 2 for n in (1, 2)]
    assert "### Answers per run — dev (dev.yaml)" in tables
    assert f"| mf | run-1 | model-free | 2 | n.m. | n.m. | {means[0]:.3f} |" in tables
    assert "| chunk RAG (2000/250, bm25+dense, top 16) on dev.yaml | n.m. |" in tables
    assert "### Where answers lose facts — dev" in tables and "| mf | run-2 | 4 | 3 | 3 |" in tables
    assert f"| mf | quote recall | 2 | 2 | {means[0]:.3f}, {means[1]:.3f} |" in tables
    assert "### Run-to-run noise — dev" in tables


def test_development_and_held_out_files_are_shown_apart(runs, tmp_path):
    import shutil

    for label, split in (("dev-run", "dev"), ("held-run", "held-out")):
        shutil.copytree(runs, tmp_path / label)
        meta = read_meta(tmp_path / label)
        (tmp_path / label / "meta.json").write_text(json.dumps(meta | {"split": split, "label": label}), encoding="utf-8")
    tables = answer_tables(runs_dir=tmp_path)
    dev, held = tables.index("### Answers per run — dev"), tables.index("### Answers per run — held-out")
    assert dev < held and "| dev-run | run-1 |" in tables[dev:held] and "| held-run | run-1 |" in tables[held:]
    assert "| held-run | run-1 |" not in tables[dev:held]


def test_a_checked_row_shown_with_the_asked_period_first_counts_as_verified():
    """The answer shows a checked statement row with the asked period's column first ('Operating income | $ 6,976 |
    $ 5,403'); its cells are the checked row's, so it is verified. A row with a cell the checked row lacks is not."""
    record = {"answer": {"markdown": "| | Three Months Ended September 30, 2023 | Three Months Ended September 30, 2022 | Source |\n"
                         "| --- | --- | --- | --- |\n| Operating income | $ 6,976 | $ 5,403 | ACME 10-Q [s0123456789b] |\n"
                         "| Net sales | $ 23,059 | $ 9,999 | [s0123456789b] |",
                         "sentences": [{"text": "Operating income | $ 5,403 | $ 6,976", "status": "verbatim", "kind": "table_row"},
                                       {"text": "Net sales | $ 20,538 | $ 23,059", "status": "verbatim", "kind": "table_row"}]}}
    assert verified_share(record) == (1, 2)
