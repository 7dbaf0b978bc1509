"""shelfwise.eval.local_llm: --resume goes on with a stopped run; wrong statements are counted over what is shown as current."""

import json
import re
import shutil

import pytest

from shelfwise.eval import local_llm
from shelfwise.eval.judge import displayed_statements


def test_resume_keeps_answers_of_the_asked_questions_and_drops_errors(tmp_path, monkeypatch):
    result = tmp_path / "local_llm.json"
    result.write_text(json.dumps({"total_seconds": 120.5, "answers": [
        {"id": "a", "seconds": 60}, {"id": "b", "error": "ReadTimeout: ...", "seconds": 60}, {"id": "z", "seconds": 1}]}))
    monkeypatch.setattr(local_llm, "RESULT", result)
    kept, seconds = local_llm.resumed([{"id": "a"}, {"id": "b"}, {"id": "c"}])
    assert [r["id"] for r in kept] == ["a"]  # b failed: asked again; z is not in this run
    assert seconds == 120.5


def test_redo_answers_the_named_questions_again_and_keeps_the_rest(tmp_path, monkeypatch):
    result = tmp_path / "local_llm.json"
    result.write_text(json.dumps({"total_seconds": 100.0, "answers": [{"id": "a", "seconds": 60}, {"id": "b", "seconds": 40}]}))
    monkeypatch.setattr(local_llm, "RESULT", result)
    kept, seconds = local_llm.resumed([{"id": "a"}, {"id": "b"}], redo={"b"})
    assert [r["id"] for r in kept] == ["a"] and seconds == 60.0


def test_resume_without_a_previous_run_starts_from_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(local_llm, "RESULT", tmp_path / "missing.json")
    assert local_llm.resumed([{"id": "a"}]) == ([], 0.0)


@pytest.mark.skipif(shutil.which("git") is None or not (local_llm.ROOT / ".git").exists(), reason="not a git checkout")
def test_the_report_names_the_commit_that_answered():
    assert re.fullmatch(r"[0-9a-f]{7,}(\+dirty)?", local_llm.code_version())


MUST = [{"item": "Complaints are closed within 30 calendar days.",
         "evidence": [{"quote": "Complaints shall be closed within 30 calendar days of receipt."}]}]


def test_a_shown_sentence_with_another_quantity_of_the_same_measure_is_wrong():
    shown = local_llm.statements([{"text": "Complaints shall be closed within 45 calendar days of receipt.", "kind": "sentence",
                                   "status": "supports", "superseded_by": ""}])
    assert shown == [("Complaints shall be closed within 45 calendar days of receipt.", "supports")]
    assert local_llm.wrong_statements(shown, MUST) == 1


def test_marked_superseded_text_computed_rows_records_and_numbers_that_measure_nothing_are_not_wrong():
    sentences = [
        {"text": "Complaints shall be closed within 45 calendar days of receipt.", "kind": "sentence", "status": "verbatim",
         "superseded_by": "QM-001 Rev D"},  # shown as what Rev C said
        {"text": "changed | Complaints shall be closed within | 45 calendar days | 30 calendar days | -15 calendar days",
         "kind": "table_row", "status": "computed", "superseded_by": ""},
        {"text": "Steps 5 and 6 of complaint handling: failure code and closure within the days allowed.", "kind": "step",
         "status": "verbatim", "superseded_by": ""},
        {"text": "Complaints shall be closed within 30 calendar days of receipt.", "kind": "sentence", "status": "verbatim",
         "superseded_by": ""},
    ]
    shown = local_llm.statements(sentences)
    assert len(shown) == 2 and local_llm.wrong_statements(shown, MUST) == 0


def test_a_verbatim_quote_is_wrong_only_when_it_states_the_gold_rule_with_other_figures():
    old_rule_unmarked = ("Complaints shall be closed within 45 calendar days of receipt.", "verbatim")
    another_rule = ("Exception: a complaint under MDR investigation stays open until the final report is filed, and is "
                    "reviewed every 15 calendar days.", "verbatim")
    written = ("Complaints under MDR investigation are closed within 15 calendar days.", "supports")
    assert local_llm.wrong_statements([old_rule_unmarked], MUST) == 1
    assert local_llm.wrong_statements([another_rule], MUST) == 0  # a true rule of its own, quoted from its section
    assert local_llm.wrong_statements([written], MUST) == 1  # the model's sentence: any other figure near the gold counts


def test_a_quoted_code_block_is_not_a_statement_as_the_display_metric_leaves_it_out():
    code = "retention:\n  complaints: 45 days\n  records: 10 years"
    sentences = [
        {"text": "Complaints shall be closed within 30 calendar days of receipt.", "kind": "sentence", "status": "verbatim",
         "superseded_by": ""},
        {"text": code, "kind": "code", "status": "verbatim", "superseded_by": ""},  # the unit the writer quotes a block as
        {"text": f"```yaml\n{code}\n```", "kind": "sentence", "status": "supports", "superseded_by": ""},  # a fenced block in a model's unit
    ]
    shown = local_llm.statements(sentences)
    assert shown == [("Complaints shall be closed within 30 calendar days of receipt.", "verbatim")]
    assert local_llm.wrong_statements(shown, MUST) == 0
    markdown = f"Complaints shall be closed within 30 calendar days of receipt. [s1]\n\n```yaml\n{code}\n```\n"
    assert displayed_statements(markdown) == ["Complaints shall be closed within 30 calendar days of receipt. [s1]"]
