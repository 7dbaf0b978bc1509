"""The claim checker with recorded model replies played through the real openai client (tests/recordings/*.json)."""

from __future__ import annotations

from shelfwise.api.answer.check.check import ClaimChecker, ModelJudge, salvage
from shelfwise.api.answer.check.gate import gate, not_shown_line, verify_verbatim
from shelfwise.api.answer.records import Draft, Unit
from tests.claimshelf import S_CASE, S_RULES, S_TABLE, Replay, make_shelf


def draft(*texts: str, cite: str = S_RULES) -> Draft:
    units = [Unit(id=f"u{i}", kind="sentence", text=t, shelf="qa", citations=[cite], obligation=0) for i, t in enumerate(texts, 1)]
    return Draft(writer="writer-test", units=units)


def run(recording: str, d: Draft, **kwargs):
    replay = Replay(recording)
    shelves = {"qa": make_shelf()}
    checker = ClaimChecker(ModelJudge(replay.chat(**kwargs)))
    checked = checker(verify_verbatim(d, shelves), shelves)
    return replay, checker, checked, gate(checked)


def test_support_with_a_real_span_is_shown():
    replay, _, checked, gated = run("support", draft("Complaints must be acknowledged within 5 working days."))
    assert checked.claims[0].verdict == "supports"
    assert [u.text for u in gated.shown] == ["Complaints must be acknowledged within 5 working days."]
    prompt = replay.messages(0)
    assert prompt.index("You check claims") < prompt.index("Cited sections") < prompt.index(S_RULES)
    assert replay.requests[0]["response_format"] == {"type": "json_object"}


def test_contradiction_is_removed_and_recorded():
    _, _, checked, gated = run("contradiction", draft("A complaint must be acknowledged within 10 working days."))
    assert checked.claims[0].verdict == "contradicts"
    assert gated.shown == []
    assert gated.removed[0].stage == "check" and "says otherwise" in gated.removed[0].reason
    assert not_shown_line(gated) == "1 statement could not be verified and is not shown."


def test_lying_verdict_with_an_invented_span_is_not_found_then_restated_or_unconfirmed():
    _, _, checked, gated = run("lying_span", draft("Regulatory Affairs is notified within 30 days.", "Sample shipping is paid by the customer."))
    first, second = checked.claims
    assert first.verdict == "restated" and first.restated.startswith("If the complaint is a Reportable Event")
    assert "not in the cited section" in first.reason
    assert second.verdict == "unconfirmed"
    shown = [u.text for u in gated.shown]
    assert shown == ["If the complaint is a Reportable Event, notify Regulatory Affairs the same working day."]
    assert "Sample shipping is paid by the customer." in [r.unit.text for r in gated.removed]


def test_real_span_that_does_not_support_is_overruled_by_the_guards():
    claims = ("Complaints are closed before the investigation ends.", "The Complaint Handling Unit may extend the deadline by 20 days.")
    _, _, checked, gated = run("span_not_supporting", draft(*claims))
    assert all("overruled by code" in c.reason for c in checked.claims)
    assert "negation differs" in checked.claims[0].reason and "number 20" in checked.claims[1].reason
    assert not set(claims) & {u.text for u in gated.shown}


def test_truncated_reply_rechecks_the_claim_it_did_not_reach():
    replay, _, checked, gated = run("truncated", draft("Complaints must be acknowledged within 5 working days.",
                                                       "If a complaint is a Reportable Event, notify Regulatory Affairs the same working day."))
    assert [c.verdict for c in checked.claims] == ["supports", "supports"]
    assert checked.calls == 2 and "c2" in replay.messages(1) and 'id="c1"' not in replay.messages(1)
    assert replay.requests[0]["max_tokens"] == 200 + 160 * 2 and replay.requests[1]["max_tokens"] == 200 + 160
    assert any("not whole JSON" in w for w in checked.warnings)


def test_reply_failing_validation_is_retried_then_accepted():
    _, _, checked, _ = run("invalid_json", draft("Complaints must be acknowledged within 5 working days."))
    assert checked.claims[0].verdict == "supports" and checked.calls == 3
    assert any("failed validation" in w for w in checked.warnings)


def test_claim_never_reached_is_unchecked_not_unsupported():
    _, _, checked, gated = run("never_valid", draft("Complaints must be acknowledged within 5 working days."))
    assert checked.claims[0].verdict == "unchecked" and "did not reach it in 3 tries" in checked.claims[0].reason
    assert gated.removed[0].stage == "check" and gated.removed[0].reason.startswith("unchecked")


def test_429_and_500_are_retried_with_backoff():
    replay, _, checked, gated = run("server_errors_then_ok", draft("Complaints must be acknowledged within 5 working days."))
    assert len(replay.requests) == 3 and checked.claims[0].verdict == "supports" and len(gated.shown) == 1


def test_timeout_and_500s_give_a_clear_partial_answer():
    quoted = "A complaint must be acknowledged within 5 working days."
    replay, _, checked, gated = run("server_down", draft(quoted, "Complaints are acknowledged in a week."))
    assert len(replay.requests) == 3
    assert [u.text for u in gated.shown] == [quoted]  # the verbatim quote needs no model
    assert checked.claims[1].verdict == "unchecked" and "checker model failed" in checked.claims[1].reason
    assert checked.warnings and "could not be checked and are not shown" in checked.warnings[-1]


def test_confirmed_claims_are_carried_across_rechecks():
    replay = Replay("support")
    shelves = {"qa": make_shelf()}
    checker = ClaimChecker(ModelJudge(replay.chat()))
    d = draft("Complaints must be acknowledged within 5 working days.")
    checker(d, shelves)
    again = checker(d, shelves)  # the recording has no second reply: a model call would fail the test
    assert again.claims[0].verdict == "carried" and again.calls == 0 and len(gate(again).shown) == 1


def test_a_verdict_is_carried_only_on_the_shelf_that_confirmed_it():
    """Two shelves may hold the same section id and text; a confirmation on one is no confirmation on the other."""
    replay = Replay("support")
    replay.replies *= 2  # the same recorded verdict, for the second shelf's check
    checker = ClaimChecker(ModelJudge(replay.chat()))
    shelves = {"qa": make_shelf("qa"), "qb": make_shelf("qb")}
    checker(draft("Complaints must be acknowledged within 5 working days."), shelves)
    other = draft("Complaints must be acknowledged within 5 working days.")
    other.units[0].shelf = "qb"
    again = checker(other, shelves)
    assert again.claims[0].verdict == "supports" and again.calls == 1 and len(replay.requests) == 2
    assert sorted(key[0] for key in checker.cache) == ["qa", "qb"]


def test_table_cells_checked_alone_and_change_cell_computed_by_code():
    units = [
        Unit(id="u1", kind="table_header", text="Event | Deadline | Change", shelf="qa", obligation=0, group="t1"),
        Unit(id="u2", kind="table_row", text="Reportable Event | 1 working day | +0", shelf="qa", citations=[S_TABLE], obligation=0, group="t1"),
        Unit(id="u3", kind="table_row", text="Complaint | 5 working days | 2", shelf="qa", citations=[S_TABLE], obligation=0, group="t1"),
    ]
    shelves = {"qa": make_shelf()}
    checked = ClaimChecker(ModelJudge(Replay("support").chat()))(Draft(writer="w", units=units), shelves)
    verdicts = {(c.unit_id, c.cell): c.verdict for c in checked.claims}
    assert verdicts[("u3", 2)] == "contradicts" and verdicts[("u2", 2)] == "computed" and verdicts[("u3", 1)] == "verbatim"
    gated = gate(checked)
    rows = [u.text for u in gated.shown if u.kind == "table_row"]
    assert rows == ["Reportable Event | 1 working day | +0", "Complaint | 5 working days | "]
    assert [r.cell for r in gated.removed] == [2]


def test_day_counts_are_computed_by_code_from_checked_premises():
    units = [
        Unit(id="u1", kind="sentence", text="The MDR report was on time.", shelf="qa", citations=[], obligation=0, group="verdict", status="derived"),
        Unit(id="u2", kind="list_item", text="Complaint C-2025-0481 was received on 2025-03-03.", shelf="qa", citations=[S_CASE], obligation=0, group="premise"),
        Unit(id="u3", kind="list_item", text="The MDR report was submitted on 2025-04-02.", shelf="qa", citations=[S_CASE], obligation=0, group="premise"),
        Unit(id="u4", kind="list_item", text="An MDR report is due within 30 days of receipt.", shelf="qa", citations=[S_CASE], obligation=0, group="premise"),
    ]
    shelves = {"qa": make_shelf()}
    checked = ClaimChecker(ModelJudge(Replay("support").chat()))(verify_verbatim(Draft(writer="w", units=units), shelves), shelves)
    gated = gate(checked)
    texts = [u.text for u in gated.shown]
    assert texts[0] == "Derived from the documents: The MDR report was on time."
    assert "30 days from 2025-03-03 to 2025-04-02 (counted by code)." in texts


def test_salvage_reads_complete_entries_of_a_cut_reply():
    got, problems = salvage('{"verdicts": [{"id": "c1", "verdict": "supports", "span": "x"}, {"id": "c2", "verdict": "not_fo')
    assert [v.id for v in got] == ["c1"] and problems
