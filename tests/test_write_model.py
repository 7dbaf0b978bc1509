"""The model writer with recorded replies, then the checker and the gate: write -> check -> gate."""

from __future__ import annotations

from shelfwise.api.answer.check.check import ClaimChecker, ModelJudge
from shelfwise.api.answer.complete import complete_answer
from shelfwise.api.answer.check.gate import gate, verify_verbatim
from shelfwise.api.answer.plan.plan import Obligation, Plan
from shelfwise.api.answer.read.read import Reading, ReadSection
from shelfwise.api.shelves import ShelfLink
from shelfwise.api.answer.write.write_model import ModelWriter
from tests.claimshelf import S_CASE, S_RULES, S_TABLE, Replay, make_shelf


def plan() -> Plan:
    obligations = [Obligation(kind="describe", ask="What are the complaint deadlines?", targets=["deadline"]),
                   Obligation(kind="judge", ask="Was the MDR report on time?", targets=["MDR report"]),
                   Obligation(kind="lookup", ask="Who pays for shipping?", targets=["shipping"])]
    q = "What are the deadlines, was the MDR report on time, and who pays for shipping?"
    return Plan(question=q, resolved_question=q, obligations=obligations, planner="rules")


def reading() -> Reading:
    shelf = make_shelf()
    sections = [ReadSection(shelf="qa", section_id=sid, doc_id="sop-014", chars=shelf.chars(sid), why="whole scope")
                for sid in (S_RULES, S_TABLE, S_CASE)]
    return Reading(budget=400_000, scope_chars=1000, whole_scope=True, chars_read=1000, sections=sections, not_opened=[])


def test_writer_prompt_documents_and_checked_display():
    shelves = {"qa": make_shelf()}
    writes, checks = Replay("writer_single"), Replay("checker_for_writer")
    draft = ModelWriter(writes.chat("writer-test")).write(plan(), reading(), shelves)
    system, user = (m["content"] for m in writes.requests[0]["messages"])
    assert "ends with the ids of the sections" in system and "[s0123456789a]" in system
    assert user.index("Parts of the answer") < user.index("Question:") < user.index("Documents:")
    assert f'<section id="{S_RULES}" document="SOP-014 Complaint Handling" page="1" heading="6 Procedure">' in user
    assert "[judge]" in user and "Verdict:" in user
    assert draft.covered == {0: 1.0, 1: 1.0, 2: 0.0} and draft.writer == "writer-test"

    checked = ClaimChecker(ModelJudge(checks.chat()))(verify_verbatim(draft, shelves), shelves)
    gated = gate(checked)
    shown = [(u.obligation, u.text) for u in gated.shown]
    assert (0, "The Complaint Handling Unit may extend the deadline by 10 days, e.g. when a sample is still in transit.") in shown
    assert (0, "Complaint | ") in shown and (0, "Reportable Event | 1 working day") in shown
    assert (0, "Deadlines") in shown
    part2 = [t for o, t in shown if o == 1]
    assert part2[0] == "Derived from the documents: Yes, the MDR report was on time."
    assert "30 days from 2025-03-03 to 2025-04-02 (counted by code)." in part2
    removed = {r.unit.text: r.reason for r in gated.removed}
    assert "number 3 is not in the span" in removed["3 working days"]
    completion = complete_answer(plan(), gated.shown, draft.covered, 0.5)
    assert completion.label == "partial" and completion.gaps == ["The documents do not say who pays for shipping."]


def test_sources_beyond_one_budget_go_to_further_writers_and_a_composer():
    shelves = {"qa": make_shelf()}
    replay = Replay("writer_batches")
    writer = ModelWriter(replay.chat("writer-test"), budget_chars=300)
    draft = writer.write(plan(), reading(), shelves)
    assert writer.calls == 4
    assert "Already written" not in replay.messages(0) and S_TABLE not in replay.messages(0)
    assert "Already written" in replay.messages(1) and "acknowledged within 5 working days" in replay.messages(1)
    composer = replay.messages(3)
    assert all(f"<part n=\"{n}\">" in composer for n in (1, 2, 3)) and "30 days of receipt" in composer
    texts = [u.text for u in draft.units]
    assert texts == ["A complaint must be acknowledged within 5 working days.", "A Reportable Event has a deadline of 1 working day.",
                     "An MDR report is due within 30 days of receipt."]  # the part the composer dropped, appended in its own words
    assert draft.notes == [] and draft.invented == []


def test_an_appended_part_unit_citing_an_id_it_was_not_given_is_named_in_the_notes():
    """The composer left the third part out; its sentence is appended, and the invented id it cited is named, not silently dropped."""
    replay = Replay("writer_batches_invented")
    draft = ModelWriter(replay.chat("writer-test"), budget_chars=300).write(plan(), reading(), {"qa": make_shelf()})
    appended = draft.units[-1]
    assert (appended.id, appended.text, appended.citations) == ("u3", "An MDR report is due within 30 days of receipt.", [S_CASE])
    assert draft.notes == ["the model writer cited section id(s) s0badbadbad1 that it was not given, in u3 "
                           "'An MDR report is due within 30 days of receipt.'; those citations were dropped"]
    assert [i.model_dump() for i in draft.invented] == [
        {"unit": "u3", "text": "An MDR report is due within 30 days of receipt.", "ids": ["s0badbadbad1"], "kept": [S_CASE]}]


def test_the_writer_reads_superseded_documents_marked_and_the_answer_rules():
    shelf = make_shelf()
    shelf.documents["sop-014-b"] = {"doc_id": "sop-014-b", "title": "SOP-014 Complaint Handling Rev B", "path": "sop-014-b.docx"}
    shelf.links.append(ShelfLink("supersedes", "sop-014-b", None, "sop-014", None, "Rev B says it supersedes Rev A"))
    writes = Replay("writer_single")
    ModelWriter(writes.chat("writer-test")).write(plan(), reading(), {"qa": shelf})
    system, user = (m["content"] for m in writes.requests[0]["messages"])
    assert (f'<section id="{S_RULES}" document="SOP-014 Complaint Handling" page="1" heading="6 Procedure" '
            'status="superseded by SOP-014 Complaint Handling Rev B">') in user
    assert 'status="superseded by' in system and "(superseded by X) said" in system
    assert "If the question states something the documents contradict" in system and "Never invent." in system
    assert "[lookup] Who pays for shipping? — format: the value first" in user
    # without the link, no status: a document is marked only when the ledger links another one as superseding it
    plain = Replay("writer_single")
    ModelWriter(plain.chat("writer-test")).write(plan(), reading(), {"qa": make_shelf()})
    assert "status=" not in plain.requests[0]["messages"][1]["content"]


def test_an_uncited_sentence_between_cited_ones_is_attributed_and_shown_only_when_checked():
    shelves = {"qa": make_shelf()}
    writes, checks = Replay("writer_attributed"), Replay("checker_attributed")
    draft = ModelWriter(writes.chat("writer-test")).write(plan(), reading(), shelves)
    assert [(u.text, u.kind, u.group, u.citations) for u in draft.units] == [
        ("A complaint must be acknowledged within 5 working days.", "sentence", "", [S_RULES]),
        ("A complaint is not closed before the investigation ends.", "sentence", "attributed", [S_RULES]),
        ("If the complaint is a Reportable Event, notify Regulatory Affairs the same working day.", "sentence", "", [S_RULES]),
        ("Shipping is free of charge for customers.", "connective", "", [])]
    assert draft.unanswered == [1] and draft.notes == []
    checked = ClaimChecker(ModelJudge(checks.chat()))(verify_verbatim(draft, shelves), shelves)
    assert len(checks.requests) == 1 and "A complaint is not closed before the investigation ends." in checks.messages(0)
    gated = gate(checked)
    assert [(u.text, u.status) for u in gated.shown] == [
        ("A complaint must be acknowledged within 5 working days.", "verbatim"),
        ("A complaint is not closed before the investigation ends.", "supports"),
        ("If the complaint is a Reportable Event, notify Regulatory Affairs the same working day.", "verbatim")]
    assert [r.unit.text for r in gated.removed] == ["Shipping is free of charge for customers."]


def test_a_unit_is_read_on_the_shelf_holding_all_it_cites():
    """Two shelves that each hold a README.md share section ids: the id alone does not name the shelf."""
    from shelfwise.api.answer.write.write_model import _shelf_of_unit

    shelf_of = {"s000000000001": ["alpha", "beta"], "s000000000002": ["alpha"], "s000000000003": ["beta"]}
    assert _shelf_of_unit(["s000000000001", "s000000000002"], shelf_of) == "alpha"
    assert _shelf_of_unit(["s000000000001", "s000000000003"], shelf_of) == "beta"
    assert _shelf_of_unit(["s000000000001"], shelf_of) == "alpha"  # first in reading order
    assert _shelf_of_unit(["s0000000000ff"], shelf_of) == "alpha"  # invented: the first shelf read
