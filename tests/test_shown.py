"""What is shown: every unit written and not shown names the step that removed it and why, on real asks (issue 33)."""

from __future__ import annotations

import pytest
import yaml

from answer_shelves import DEMO, HashEmbedder, demo_build
from shelfwise.api.answer.driver import SHOWN_STEPS, answer_question, build_pipeline
from shelfwise.api.cli.actions import trace_command
from shelfwise.api.answer.show.show import STEPS
from shelfwise.api.schemas import AskRequest
from shelfwise.api.shelves import close_shelves, open_shelves
from shelfwise.api.trace import TraceStore, unit_fates
from shelfwise.compiler.settings import Settings

QUESTIONS = yaml.safe_load((DEMO / "questions.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("shown")
    build = demo_build(root / "build")
    shelves = open_shelves({"northwind": build}, HashEmbedder())
    yield shelves, build.parent
    close_shelves(shelves)


def _ask(shelves, traces, question, settings=None):
    pipeline = build_pipeline(settings or Settings(), None)
    answer = answer_question(pipeline, AskRequest(question=question, shelves=sorted(shelves)), shelves, token="test", traces=traces)
    return answer, traces.get(answer.trace_id)


def test_the_driver_runs_the_steps_in_the_designed_order():
    assert tuple(step.__name__ for step in SHOWN_STEPS) == STEPS == (
        "gate", "fallback", "evidence", "premise", "verdict", "repeats", "order", "fit")


def test_every_unit_written_and_not_shown_has_a_step_and_a_reason(demo, tmp_path):
    """The floor, on every truth question of the demo shelf, at the default size and at a tight one (the fit step
    removes units then): each written unit is shown, or one step recorded its removal with a reason; what the trace
    calls shown is what the answer shows."""
    shelves, _ = demo
    traces = TraceStore(tmp_path / "traces.sqlite")
    seen_steps: set[str] = set()
    for settings in (Settings(), Settings.model_validate({"answer": {"max_answer_chars": 900}})):
        for item in QUESTIONS:
            answer, trace = _ask(shelves, traces, item["question"], settings)
            # every step in order; an answer whose every part is a computed comparison runs the premise check beside it
            assert [s["step"] for s in trace.shown_steps if s["step"] != "compare"] in (list(STEPS), ["premise"])
            fates = unit_fates(trace)
            assert fates, item["id"]
            for unit, shown, removals in fates:
                assert shown or removals, f"{item['id']}: {unit['id']} {unit['text'][:80]!r} was dropped silently"
                assert all(r["reason"] and r["stage"] for r in removals)
            assert len(trace.shown) == len(answer.sentences) and set(trace.shown) <= {u["id"] for u, _, _ in fates}, item["id"]
            seen_steps |= {s["step"] for s in trace.shown_steps if s["removed"]}
    traces.close()
    # the steps that recorded nothing before issue 33 record their removals now
    assert {"gate", "evidence", "repeats", "fit"} <= seen_steps, seen_steps


def test_not_in_the_documents_records_why_each_unit_is_not_shown(demo, tmp_path):
    shelves, _ = demo
    traces = TraceStore(tmp_path / "traces.sqlite")
    answer, trace = _ask(shelves, traces, "What is the boiling point of mercury at sea level?")
    assert answer.label == "not_in_documents" and answer.sentences == []
    assert trace.shown == []
    fates = unit_fates(trace)
    assert fates and all(not shown and removals for _, shown, removals in fates)
    evidence = next(s for s in trace.shown_steps if s["step"] == "evidence")
    assert {r["reason"] for r in evidence["removed"]} == {"no section read mentions \u201cboiling\u201d, which part 1 asks about"}
    traces.close()


def test_the_trace_command_says_for_each_written_unit_whether_it_was_shown_and_why_not(demo, tmp_path, capsys):
    shelves, build_dir = demo
    settings = Settings.model_validate({"build_dir": str(build_dir), "api": {"trace_db": str(tmp_path / "t.sqlite")},
                                        "answer": {"max_answer_chars": 900}})
    traces = TraceStore(tmp_path / "t.sqlite")
    answer, trace = _ask(shelves, traces, "What are the steps of handling a complaint, from receipt to closure?", settings)
    traces.close()
    assert trace_command(answer.trace_id, settings) == 0
    out = capsys.readouterr().out
    fit = next(s for s in trace.shown_steps if s["step"] == "fit")
    assert fit["removed"], "a 900-character answer leaves units out"
    assert f"shown {len(trace.shown)} of {len(trace.written)} written units" in out
    for unit, shown, removals in unit_fates(trace):
        line = next(line for line in out.splitlines() if line.startswith(f"  {unit['id']} "))
        if shown:
            assert " shown" in line
        else:
            first = next(r for r in removals if r["cell"] is None)
            where = first["step"] if first["stage"] == first["step"] else f"{first['step']} ({first['stage']})"
            assert f"not shown: {where}: {first['reason']}" in line
    removed = fit["removed"][0]
    assert "gave way to the size limit" in removed["reason"]
