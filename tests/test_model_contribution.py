"""shelfwise.eval.model_contribution: gold points shown with a model against the model-free answer, and the shown units the
model chose or wrote."""

from shelfwise.eval.model_contribution import contribution_row, contribution_totals, gold_points_shown, model_shown

MUST = [
    {"item": "Refresh tokens expire after 30 days.", "evidence": [{"doc": "a.md", "heading": "Refresh", "quote": "Refresh tokens expire after 30 days."}]},
    {"item": "Access tokens expire after 15 minutes.", "evidence": [{"doc": "a.md", "heading": "Access", "quote": "Access tokens expire after 15 minutes."}]},
    {"item": "Nothing is said about ID tokens.", "evidence": []},  # an absence: not a point
]
WITH = "Access tokens expire after 15 minutes. [s2] Refresh tokens expire after 30 days. [s1]"
WITHOUT = "Refresh tokens expire after 30 days. [s1]"


def test_gold_points_are_the_must_items_with_evidence_the_answer_states():
    assert gold_points_shown(MUST, WITH) == 2 and gold_points_shown(MUST, WITHOUT) == 1 and gold_points_shown(MUST, "") == 0


def test_units_by_the_model_are_told_by_their_written_id_per_role():
    sentences = [{"text": "Access tokens expire after 15 minutes.", "citations": ["s2"], "kind": "sentence"},
                 {"text": "Refresh tokens expire after 30 days.", "citations": ["s1"], "kind": "sentence"},
                 {"text": "Tokens", "citations": [], "kind": "heading"}]
    written = [{"id": "m1", "text": "Access tokens expire after 15 minutes.", "citations": ["s2"]},
               {"id": "u2", "text": "Refresh tokens expire after 30 days.", "citations": ["s1"]}]
    assert model_shown(sentences, written, "select") == (1, 2)  # "m": chosen by the model; "u": the model-free draft's
    assert model_shown(sentences, written, "write") == (1, 2)  # "u": the model's own words ("x" would be the fill's)
    written[1]["id"] = "x2"
    assert model_shown(sentences, written, "write") == (0, 2)


def test_the_comparison_row_and_totals():
    row = contribution_row(MUST, True, {"markdown": WITH, "label": "complete"}, {"markdown": "This is not in these documents.", "label": "not_in_documents"})
    assert row == {"gold_points": 2, "gold_shown_model": 2, "gold_shown_model_free": 0, "gold_shown_delta": 2,
                   "model_free_label": "not_in_documents", "model_free_not_in_documents_answerable": True}
    worse = contribution_row(MUST, True, {"markdown": WITHOUT, "label": "partial"}, {"markdown": WITH, "label": "complete"})
    totals = contribution_totals([{**row, "model_shown": 2, "answering_shown": 2}, {**worse, "model_shown": 0, "answering_shown": 4},
                                  {"id": "failed", "error": "ReadTimeout"}])
    assert totals == {"gold_points": 4, "gold_shown_model": 3, "gold_shown_model_free": 2,
                      "answers_with_fewer_gold_points_than_model_free": 1, "answers_with_more_gold_points_than_model_free": 1,
                      "model_free_answerable_answered_not_in_documents": 1, "shown_units_by_the_model": 2,
                      "shown_answering_units": 6, "share_of_shown_units_by_the_model": 0.3333}
