"""The display gate: displayed = checked."""

from __future__ import annotations

from shelfwise.api.answer.check.gate import gate, not_shown_line, verify_verbatim
from shelfwise.api.answer.records import Draft, Unit
from tests.claimshelf import S_RULES, make_shelf


def unit(n: int, kind: str, text: str, status: str = "written", cites=(S_RULES,), group: str = "", obligation: int = 0) -> Unit:
    return Unit(id=f"u{n}", kind=kind, text=text, shelf="qa", citations=list(cites), obligation=obligation, status=status, group=group)


CHECKED_SENTENCE = "A complaint must be acknowledged within 5 working days."


def test_headings_stay_only_as_labels_or_with_every_word_checked_under_them():
    units = [
        unit(1, "heading", "Deadlines", cites=()),
        unit(2, "sentence", CHECKED_SENTENCE, status="supports"),
        unit(3, "heading", "Acknowledged complaint", cites=()),
        unit(4, "sentence", CHECKED_SENTENCE, status="supports"),
        unit(5, "heading", "Complaints are closed early", cites=()),
        unit(6, "sentence", CHECKED_SENTENCE, status="supports"),
        unit(7, "heading", "Within 5 days", cites=()),
        unit(8, "sentence", CHECKED_SENTENCE, status="supports"),
        unit(9, "heading", "Summary", cites=()),
    ]
    gated = gate(Draft(writer="w", units=units))
    assert [u.text for u in gated.shown if u.kind == "heading"] == ["Deadlines", "Acknowledged complaint"]
    reasons = {r.unit.text: r.reason for r in gated.removed}
    assert "not in the checked text under it" in reasons["Complaints are closed early"]
    assert "digit" in reasons["Within 5 days"] and reasons["Summary"] == "heading over nothing shown"


def test_connective_text_passes_only_without_number_name_modal_or_new_words():
    units = [
        unit(1, "sentence", CHECKED_SENTENCE, status="verbatim"),
        unit(2, "connective", "In short, a complaint is acknowledged.", cites=()),
        unit(3, "connective", "This takes 3 days.", cites=()),
        unit(4, "connective", "Regulatory Affairs is told.", cites=()),
        unit(5, "connective", "The complaint should be acknowledged.", cites=()),
        unit(6, "connective", "Warfarin replaced by apixaban.", cites=()),
    ]
    gated = gate(Draft(writer="w", units=units))
    assert [u.text for u in gated.shown] == [CHECKED_SENTENCE, "In short, a complaint is acknowledged."]
    reasons = [r.reason for r in gated.removed]
    assert "number" in reasons[0] and "name" in reasons[1] and "modal" in reasons[2] and "not in the checked text" in reasons[3]
    assert not_shown_line(gated) == "4 statements could not be verified and are not shown."


def test_verdict_shown_first_only_while_every_premise_is_checked():
    def units(second_status: str):
        return [
            unit(1, "list_item", CHECKED_SENTENCE, status="verbatim", group="premise"),
            unit(2, "list_item", "Complaints are closed early.", status=second_status, group="premise"),
            unit(3, "sentence", "It was handled on time.", status="derived", cites=(), group="verdict"),
        ]
    shown = gate(Draft(writer="w", units=units("supports"))).shown
    assert shown[0].text == "Derived from the documents: It was handled on time." and shown[0].citations == [S_RULES]
    failed = gate(Draft(writer="w", units=units("unconfirmed")))
    assert [u.group for u in failed.shown] == ["premise"]
    assert any("verdict not shown: its premise 'Complaints are closed early.'" in r.reason for r in failed.removed)


def test_table_header_cells_with_digits_are_blanked_and_rows_kept():
    units = [
        unit(1, "table_header", "Item | 2024 rate | Rate", cites=(), group="t"),
        unit(2, "table_row", "Fee | 10 | 12", status="supports", group="t"),
    ]
    gated = gate(Draft(writer="w", units=units))
    assert [u.text for u in gated.shown] == ["Item |  | Rate", "Fee | 10 | 12"]


def test_extractive_units_pass_as_verbatim_and_uncited_text_is_removed():
    shelves = {"qa": make_shelf()}
    units = [unit(1, "sentence", CHECKED_SENTENCE), unit(2, "sentence", "Made up.", cites=()), unit(3, "sentence", "Also made up.")]
    gated = gate(verify_verbatim(Draft(writer="extractive", units=units), shelves))
    assert [u.status for u in gated.shown] == ["verbatim"]
    assert [r.reason for r in gated.removed][0] == "cites no section"
    assert gated.removed[1].reason.startswith("not checked (written)")
