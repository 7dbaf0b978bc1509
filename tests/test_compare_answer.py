"""Compare questions asked through /api/ask and `shelfwise ask`: routed to the change set, answered from it, and a
model writer's explanation kept only where it matches the computed changes (recorded replies, real openai client)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from litestar.testing import TestClient

from answer_shelves import HashEmbedder, compile_shelf
from shelfwise.api.answer import answer_question, build_pipeline
from shelfwise.api.server.app import create_app
from shelfwise.api.cli.actions import ask_command, trace_command
from shelfwise.api.answer.compare.compare_answer import COMPUTED_LINE, MODE_LINES
from shelfwise.api.answer.compare.compare_check import check_statement
from shelfwise.api.answer.compare.compare_resolve import revisions_in, years_in
from shelfwise.api.schemas import AskRequest
from shelfwise.api.shelves import close_shelves, open_shelves
from shelfwise.api.trace import TraceStore
from shelfwise.compiler.compare import Change
from shelfwise.compiler.settings import Settings
from tests.claimshelf import Replay

WI = ("# WI-022 Complaint Investigation, Revision {rev}\n\nEffective date: {effective}\n\n## 1 Purpose\n\nThis instruction says how "
      "returned devices are investigated.\n\n## 4 Procedure\n\nReturned devices are tested within {days} working days of receipt. Test reports "
      "are kept for 3 years.\n\n## 5 Equipment\n\nTest equipment is calibrated every {months} months.\n{extra}")
ESCALATION = "\n## 6 Escalation\n\nA failed test is escalated to the CAPA owner.\n"


def _return(name: str, ssn: str, year: int, tax: str, refund: str) -> str:
    return (f"# Tax Return {year} - {name}\n\n## Return lines\n\n| Line | Value |\n|---|---|\n| Name | {name} |\n| SSN | {ssn} |\n"
            f"| Tax year | {year} |\n| Standard deduction | $13,850.00 |\n| Total tax | {tax} |\n| Refund | {refund} |\n")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("compare-ask")
    shelf = root / "versions"
    shelf.mkdir()
    (shelf / "wi-022-rev-1.md").write_text(WI.format(rev=1, effective="2025-03-01", days=10, months=12, extra=""), encoding="utf-8")
    (shelf / "wi-022-rev-2.md").write_text(WI.format(rev=2, effective="2026-02-01", days=5, months=6, extra=ESCALATION), encoding="utf-8")
    (shelf / "ellis-2024.md").write_text(_return("Jordan Ellis", "000-41-4417", 2024, "$5,655.00", "$120.00"), encoding="utf-8")
    (shelf / "ellis-2025.md").write_text(_return("Jordan Ellis", "000-41-4417", 2025, "$3,871.00", "$120.00"), encoding="utf-8")
    (shelf / "ellys-2024.md").write_text(_return("Jordan Ellys", "000-41-4471", 2024, "$4,996.00", "$80.00"), encoding="utf-8")
    (shelf / "ellys-2025.md").write_text(_return("Jordan Ellys", "000-41-4471", 2025, "$4,996.00", "$95.00"), encoding="utf-8")
    (shelf / "sop-100.md").write_text("# SOP-100 Returns Handling\n\n## 1 Records\n\nReturn records are kept for 3 years. "
                                      "The return records changed owner in 2024.\n", encoding="utf-8")
    return compile_shelf(shelf, root / "build")


@pytest.fixture(scope="module")
def shelves(built):
    opened = open_shelves({"versions": built}, HashEmbedder())
    yield opened
    close_shelves(opened)


def _ask(shelves, question: str, chat=None, traces=None):
    pipeline = build_pipeline(Settings(), chat)
    return answer_question(pipeline, AskRequest(question=question, shelf="versions"), shelves, token="test", traces=traces)


def _doc_of(shelves, section_id: str) -> str:
    return shelves["versions"].sections[section_id].doc_id


def test_question_words_name_revisions_and_years():
    assert revisions_in("What changed between Rev C and Rev D of QM-001?") == ["C", "D"]
    assert revisions_in("Compare WI-022 revision 1 and 2") == ["1", "2"]
    assert revisions_in("What changed from Rev. B to C?") == ["B", "C"]
    assert revisions_in("Which revision of SOP-014 is current, and what changed from the revision before it?") == []
    assert years_in("What is different in the 2025 return compared with 2024?") == ["2025", "2024"]


def test_two_revisions_are_answered_from_the_change_set_cited_on_both_sides(shelves, tmp_path):
    traces = TraceStore(tmp_path / "traces.sqlite")
    answer = _ask(shelves, "Compare WI-022 revision 1 and 2", traces=traces)
    assert answer.label == "complete" and answer.models["comparison"] == "code" and answer.mode == "model-free"
    assert answer.answer_markdown.startswith(COMPUTED_LINE) and answer.answer_markdown.endswith(MODE_LINES["model-free"])
    assert "### WI-022: WI-022 Complaint Investigation, Revision 1 → WI-022 Complaint Investigation, Revision 2" in answer.answer_markdown
    rows = {s.text.split(" | ")[1]: s for s in answer.sentences if s.kind == "table_row"}
    tested = rows["Returned devices are tested within"]
    assert tested.text.split(" | ")[:5] == ["changed", "Returned devices are tested within", "10 working days", "5 working days", "−5 working days"]
    assert tested.status == "computed" and [_doc_of(shelves, sid) for sid in tested.citations] == ["wi-022-rev-1-md", "wi-022-rev-2-md"]
    assert all(f"[{sid}]" in answer.answer_markdown for sid in tested.citations)
    assert rows["Test equipment is calibrated every"].text.split(" | ")[2:5] == ["12 months", "6 months", "−6 months"]
    assert rows["6 Escalation"].text.split(" | ")[0] == "added"
    assert rows["Effective date"].text.split(" | ")[2:5] == ["2025-03-01", "2026-02-01", "+337 days"]
    quoted = next(s for s in answer.sentences if s.kind == "list_item" and "tested" in s.text)
    assert quoted.text == ("Old: “Returned devices are tested within 10 working days of receipt.” → "
                           "new: “Returned devices are tested within 5 working days of receipt.”")
    assert quoted.citations == tested.citations and quoted.status == "computed"
    assert not any("3 years" in s.text for s in answer.sentences)  # unchanged: never a change
    trace = traces.get(answer.trace_id)
    assert trace.reading["compared"][0]["older"] == "wi-022-rev-1-md" and [s.step for s in trace.steps] == ["plan", "compare"]
    traces.close()


def test_a_question_about_one_aspect_shows_the_changes_about_it_and_says_how_many_there_are(shelves):
    answer = _ask(shelves, "How did the calibration interval change between WI-022 revision 1 and 2?")
    rows = [s.text.split(" | ")[1] for s in answer.sentences if s.kind == "table_row"]
    assert rows == ["Test equipment is calibrated every"]
    assert ("Shown: the 1 of 4 changes about calibration, interval; `shelfwise compare versions wi-022-rev-1-md wi-022-rev-2-md` "
            "lists them all.") in answer.answer_markdown
    assert answer.label == "complete" and not answer.not_covered  # every change about what was asked is shown


def test_two_years_compare_each_person_apart_and_name_them(shelves):
    answer = _ask(shelves, "What is different in the 2025 return compared with 2024?")
    markdown = answer.answer_markdown
    assert "### Jordan Ellis (SSN 000-41-4417): Tax Return 2024 - Jordan Ellis → Tax Return 2025 - Jordan Ellis" in markdown
    assert "### Jordan Ellys (SSN 000-41-4471): Tax Return 2024 - Jordan Ellys → Tax Return 2025 - Jordan Ellys" in markdown
    cells = [s.text.split(" | ")[1:5] for s in answer.sentences if s.kind == "table_row"]
    assert ["Total tax", "$5,655.00", "$3,871.00", "−$1,784.00"] in cells and ["Refund", "$80.00", "$95.00", "+$15.00"] in cells
    assert not any(c[0] == "Total tax" and c[1] == "$4,996.00" for c in cells) and not any(c[0] == "Standard deduction" for c in cells)


def test_a_named_person_gets_only_their_pair(shelves):
    answer = _ask(shelves, "What changed in the return of Jordan Ellis between 2024 and 2025?")
    assert "Jordan Ellis (SSN 000-41-4417)" in answer.answer_markdown and "Ellys" not in answer.answer_markdown


def test_unresolved_and_other_questions_take_the_normal_path(shelves):
    for question in ("What changed in SOP-100?", "How long are return records kept?", "What changed between Rev X and Rev Y?",
                     "How did the number of escalations change between 2025 and 2026?"):
        answer = _ask(shelves, question)
        assert COMPUTED_LINE not in answer.answer_markdown and "comparison" not in answer.models, question
    assert "3 years" in _ask(shelves, "How long are return records kept?").answer_markdown


def test_a_mixed_question_answers_its_other_part_normally_and_its_compare_part_from_the_change_set(shelves):
    answer = _ask(shelves, "How long are test reports kept, and what changed in WI-022 from the previous revision?")
    assert [o["index"] for o in answer.obligations] == [0, 1] and answer.obligations[1]["covered"]
    assert answer.answer_markdown.index("kept for 3 years") < answer.answer_markdown.index(COMPUTED_LINE)
    assert {s.obligation for s in answer.sentences if s.status == "computed"} == {1}
    assert any(s.obligation == 0 and "3 years" in s.text for s in answer.sentences)


def test_statements_are_kept_only_when_values_direction_and_sign_match():
    change = Change(kind="changed", scope="value", what="Complaints shall be closed within", old="45 calendar days",
                    new="30 calendar days", difference="−15 calendar days", section_a="s00000000000a", section_b="s00000000000b")
    cites = ["s00000000000a", "s00000000000b"]
    assert check_statement("Rev D shortens closure from 45 to 30 calendar days.", cites, [change]) == (True, "matches the computed change set")
    assert check_statement("Closure now takes 15 calendar days less.", cites, [change])[0]
    assert check_statement("Rev D extends closure from 45 to 30 calendar days.", cites, [change]) == (
        False, "wrong direction: it says up, code computes −15 calendar days")
    assert check_statement("Closure moved from 30 to 45 calendar days.", cites, [change]) == (
        False, "wrong direction: it moves 30 to 45 calendar days, the documents change 45 calendar days to 30")
    assert check_statement("Closure was shortened by 10 calendar days.", cites, [change]) == (
        False, "wrong difference: it states 10 calendar days, code computes −15 calendar days")
    assert check_statement("Complaints closed within 30 calendar days | 45 calendar days | 30 calendar days | +15 calendar days", cites,
                           [change], row=True)[0] is False
    assert check_statement("Closure changed to 60 calendar days.", cites, [change])[1].startswith("60 calendar days is not a changed value")
    assert check_statement("Closure shortened to 30 calendar days.", ["s00000000000c"], [change]) == (
        False, "cites no section of the computed change set")


def test_a_model_explains_the_changes_and_code_refuses_every_statement_the_change_set_contradicts(shelves, tmp_path):
    writer, checker = Replay("compare_explain"), Replay("compare_explain")
    chat = {"writer": writer.chat("writer-rec"), "checker": checker.chat("checker-rec")}
    traces = TraceStore(tmp_path / "traces.sqlite")
    answer = _ask(shelves, "What changed between WI-022 revision 1 and revision 2?", chat=chat, traces=traces)
    assert answer.mode == "model" and answer.label == "complete" and answer.answer_markdown.endswith(MODE_LINES["model"])
    explained = [s.text for s in answer.sentences if (s.status == "computed" and s.kind != "table_row" or s.kind == "table_row"
                 and "Testing time" in s.text) and not s.text.startswith("Old: “")]
    assert explained == [
        "Revision 2 shortens the testing time for returned devices from 10 working days to 5 working days.",
        "Test equipment is now calibrated every 6 months instead of every 12 months.",
        "A new section has a failed test escalated to the CAPA owner.",
        "Testing time | 10 working days | 5 working days | −5 working days",
    ]
    assert "| What | Revision 1 | Revision 2 | Change | Source |" in answer.answer_markdown
    assert answer.answer_markdown.index("shortens the testing time") < answer.answer_markdown.index(COMPUTED_LINE)
    trace = traces.get(answer.trace_id)
    refused = {r["unit"]["text"]: r["reason"].split(" — ", 1)[1] for r in trace.removed}
    assert refused == {
        "Revision 2 extends the calibration interval from 12 months to 6 months.": "wrong direction: it says up, code computes −6 months",
        "Testing moved from 5 working days to 10 working days.":
            "wrong direction: it moves 5 working days to 10 working days, the documents change 10 working days to 5 working days",
        "The testing time was cut by 4 working days.": "wrong difference: it states 4 working days, code computes −5 working days",
        "Revision 2 changed how long test reports are kept to 3 years.":
            "3 years is not a changed value of the changes it cites (unchanged, or in neither document)",
        "Calibration | 12 months | 6 months | +6 months": "wrong difference: it states +6 months, code computes −6 months",
    }
    assert answer.not_shown == 5 and "5 statements of the model's explanation did not match" in answer.answer_markdown
    assert "[s5ea3ec2bb88]" in writer.messages(0) and "difference −5 working days" in writer.messages(0) and not checker.requests
    traces.close()


def test_a_model_server_down_leaves_the_computed_table_and_says_so(shelves):
    chat = {"writer": Replay("e2e_write_down").chat("writer-rec"), "checker": Replay("e2e_check_down").chat("checker-rec")}
    answer = _ask(shelves, "Compare WI-022 revision 1 and 2", chat=chat)
    assert answer.label == "complete" and answer.answer_markdown.endswith(MODE_LINES["model-free"])
    assert "| changed | Returned devices are tested within | 10 working days | 5 working days | −5 working days |" in answer.answer_markdown
    assert any(w.endswith("the changes are shown as computed, without the model's explanation") for w in answer.warnings)


def test_ask_over_http_and_the_cli(built, tmp_path, capsys):
    settings = Settings.model_validate({"api": {"tokens": [{"name": "r", "token": "r-secret", "shelves": ["versions"]}],
                                                "trace_db": str(tmp_path / "traces.sqlite")}})
    with TestClient(create_app(settings, chat=None, embedder=HashEmbedder(), stores={"versions": built})) as client:
        body = client.post("/api/ask", json={"shelf": "versions", "question": "What changed between revision 1 and revision 2 of WI-022?"},
                           headers={"Authorization": "Bearer r-secret"}).json()
    assert body["label"] == "complete" and COMPUTED_LINE in body["answer_markdown"]
    assert {src["doc_id"] for src in body["sources"]} == {"wi-022-rev-1-md", "wi-022-rev-2-md"}
    cli = Settings.model_validate({"build_dir": str(built.parent), "api": {"trace_db": str(tmp_path / "cli.sqlite")}})
    assert ask_command("versions", "Compare WI-022 revision 1 and 2", True, cli, embedder=HashEmbedder()) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["models"]["comparison"] == "code" and "−5 working days" in printed["answer_markdown"]
    assert trace_command(printed["trace_id"], cli) == 0
    out = capsys.readouterr().out
    assert "compared wi-022-rev-1-md → wi-022-rev-2-md (same_series link): 4 changes, 4 shown" in out and "step compare" in out


def test_a_comparison_too_long_for_the_answer_keeps_its_changed_values_and_says_how_many_it_shows(shelves):
    settings = Settings(answer={"max_answer_chars": 1200})
    pipeline = build_pipeline(settings, None)
    question = "What changed in WI-022 between revision 1 and 2?"
    answer = answer_question(pipeline, AskRequest(question=question, shelf="versions"), shelves, token="test", traces=None)
    full = _ask(shelves, question)
    rows = [s for s in answer.sentences if s.kind == "table_row"]
    assert 1 <= len(rows) < len([s for s in full.sentences if s.kind == "table_row"])
    assert all(s.text.split(" | ")[0] == "changed" for s in rows[:1])  # a changed value goes before what was added or reworded
    assert "changes that fit this answer; `shelfwise compare versions wi-022-rev-1-md wi-022-rev-2-md` lists them all." in answer.answer_markdown
    # issue 34: a table cut to fit shows k of n changes: the answer is partial, never complete, and says what it left out
    assert answer.label == "partial" and full.label == "complete"
    assert [o["covered"] for o in answer.obligations] == [False] and [o["covered"] for o in full.obligations] == [True]
    assert len(answer.not_covered) == 1 and answer.not_covered[0].startswith(f"Shown: the {len(rows)} of ")


def test_a_mixed_answer_with_a_comparison_stays_within_the_size_limit(shelves):
    """The other part of a mixed question cannot always shrink to the room the table leaves it (one unit per obligation
    and its gap line stay): the computed table then gives way, so the whole answer fits answer.max_answer_chars."""
    question = "How long are test reports kept, and what changed in WI-022 from the previous revision?"
    full = _ask(shelves, question)
    limit = len(full.answer_markdown) - 150
    settings = Settings(answer={"max_answer_chars": limit})
    answer = answer_question(build_pipeline(settings, None), AskRequest(question=question, shelf="versions"), shelves,
                             token="test", traces=None)
    assert len(answer.answer_markdown) <= limit < len(full.answer_markdown)
    assert "kept for 3 years" in answer.answer_markdown and COMPUTED_LINE in answer.answer_markdown


FALSE_PREMISE = "Why did revision 2 of WI-022 extend the testing time for returned devices from 5 to 10 working days?"


def test_a_false_premise_answered_by_comparison_alone_is_corrected_first_and_never_complete(shelves):
    # the model planner makes the question one compare obligation, so recall, read and write never run: the premise is
    # still checked against the compared documents, and the direction of the change is computed from the two revisions
    planner = Replay("e2e_plan_compare_premise")
    answer = _ask(shelves, FALSE_PREMISE, chat={"planner": planner.chat("planner-rec")})
    assert [o["kind"] for o in answer.obligations] == ["compare"] and answer.models["comparison"] == "code"
    assert answer.answer_markdown.startswith("**Contrary to what the question assumes, the documents say:** Returned devices "
                                             "are tested within 5 working days of receipt.")
    assert answer.label == "partial" and answer.sentences[0].text == "Returned devices are tested within 5 working days of receipt."
    assert _doc_of(shelves, answer.sentences[0].citations[0]).endswith("rev-2-md")


def test_a_true_premise_about_the_same_change_gets_no_correction(shelves):
    answer = _ask(shelves, FALSE_PREMISE.replace("extend", "shorten").replace("from 5 to 10", "from 10 to 5"))
    assert "Contrary to what the question assumes" not in answer.answer_markdown
    model_free = _ask(shelves, FALSE_PREMISE)
    assert model_free.answer_markdown.startswith("**Contrary to what the question assumes, the documents say:**")
    assert model_free.label == "partial"


def test_a_chooser_model_is_not_lent_to_explain_the_changes(shelves):
    # models.writer_role = "select": the writer model only chooses quotes; it writes no prose, a comparison's explanation included
    settings = Settings.model_validate({"models": {"writer_role": "select"}})
    pipeline = build_pipeline(settings, {"writer": Replay("compare_explain").chat("writer-rec")})
    answer = answer_question(pipeline, AskRequest(question="What changed between WI-022 revision 1 and revision 2?", shelf="versions"),
                             shelves, token="test", traces=None)
    assert answer.answer_markdown.endswith(MODE_LINES["model-free"]) and "shortens the testing time" not in answer.answer_markdown
    assert "| changed | Returned devices are tested within | 10 working days | 5 working days | −5 working days |" in answer.answer_markdown
