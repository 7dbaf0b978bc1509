"""eval.local_llm --resume: a stopped run keeps its answers and goes on with the questions it lacks."""

import json
import re
import shutil

import pytest

from eval import local_llm


def test_resume_keeps_answers_of_the_asked_questions_and_drops_errors(tmp_path, monkeypatch):
    result = tmp_path / "local_llm.json"
    result.write_text(json.dumps({"total_seconds": 120.5, "answers": [
        {"id": "a", "seconds": 60}, {"id": "b", "error": "ReadTimeout: ...", "seconds": 60}, {"id": "z", "seconds": 1}]}))
    monkeypatch.setattr(local_llm, "RESULT", result)
    kept, seconds = local_llm.resumed([{"id": "a"}, {"id": "b"}, {"id": "c"}])
    assert [r["id"] for r in kept] == ["a"]  # b failed: asked again; z is not in this run
    assert seconds == 120.5


def test_resume_without_a_previous_run_starts_from_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(local_llm, "RESULT", tmp_path / "missing.json")
    assert local_llm.resumed([{"id": "a"}]) == ([], 0.0)


@pytest.mark.skipif(shutil.which("git") is None or not (local_llm.ROOT / ".git").exists(), reason="not a git checkout")
def test_the_report_names_the_commit_that_answered():
    assert re.fullmatch(r"[0-9a-f]{7,}(\+dirty)?", local_llm.code_version())
