"""The model as chooser (models.writer_role = "select"): recorded replies of a small model through the real openai client
(httpx.MockTransport) on a compiled tenant shelf; the answer against the model-free one on the same shelf."""

from __future__ import annotations

import pytest

from answer_shelves import HashEmbedder, tenant_builds
from shelfwise.api.answer import Pipeline, answer_question, build_pipeline
from shelfwise.api.answer.write.select_model import SelectingWriter, choice_schema
from shelfwise.api.answer.write.write import ExtractiveWriter
from shelfwise.api.prompts import SELECT_EXAMPLE
from shelfwise.api.schemas import AskRequest
from shelfwise.api.shelves import close_shelves, open_shelves
from shelfwise.api.terms import normalise
from shelfwise.api.trace import TraceStore
from shelfwise.eval.model_contribution import model_shown
from shelfwise.compiler.settings import Settings
from tests.claimshelf import Replay

LIFETIMES = "How long do refresh tokens and access tokens last?"
CHOSEN_LINE = "_Quotes chosen and ordered by a model: every sentence above is quoted from the section it cites._"
FREE_LINE = "_Model-free answer: every sentence above is quoted from the section it cites._"


@pytest.fixture(scope="module")
def shelves(tmp_path_factory):
    root = tmp_path_factory.mktemp("tenants")
    opened = open_shelves({"alpha": tenant_builds(root / "build", root / "shelves")["alpha"]}, HashEmbedder())
    yield opened
    close_shelves(opened)


def _settings(role: str = "select") -> Settings:
    return Settings.model_validate({"models": {"base_url": "http://127.0.0.1:9/v1", "writer": "writer-rec", "writer_role": role}})


def _ask(pipeline: Pipeline, shelves, tmp_path, question: str):
    traces = TraceStore(tmp_path / "traces.sqlite")
    try:
        answer = answer_question(pipeline, AskRequest(question=question, shelf="alpha"), shelves, token="test", traces=traces)
        return answer, traces.get(answer.trace_id)
    finally:
        traces.close()


def _model_free(shelves, question: str):
    return answer_question(build_pipeline(Settings(), None), AskRequest(question=question, shelf="alpha"), shelves, token="test", traces=None)


def _verbatim(answer, shelves) -> bool:
    shelf = shelves["alpha"]
    return all(s.status == "verbatim" and any(normalise(s.text) in normalise(shelf.sections[c].text) for c in s.citations)
               for s in answer.sentences)


def test_the_model_chooses_and_orders_quotes_and_the_model_free_ones_it_left_out_follow(shelves, tmp_path):
    replay = Replay("select_lifetimes")
    answer, trace = _ask(build_pipeline(_settings(), {"writer": replay.chat("writer-rec")}), shelves, tmp_path, LIFETIMES)
    free = _model_free(shelves, LIFETIMES)
    # the model's choices lead, in its order; the model-free sentence it did not choose follows: nothing is lost
    assert [s.text for s in answer.sentences] == ["Access tokens expire after 15 minutes.", "Refresh tokens expire after 30 days.",
                                                  "A refresh token is revoked when the user logs out."]
    assert sorted(s.text for s in answer.sentences) == sorted(s.text for s in free.sentences)
    assert _verbatim(answer, shelves) and answer.label == free.label
    assert [u["id"][0] for u in trace.written] == ["m", "m", "u"]  # the trace tells the model's choices from the fallback's
    assert answer.answer_markdown.endswith(CHOSEN_LINE) and answer.mode == "model"
    assert answer.models["writer_role"] == "select" and trace.models["writer_role"] == "select"
    assert answer.warnings == ["the writer model writer-rec chose and ordered 2 of the 3 quoted units offered for part 1 "
                               f"({LIFETIMES.rstrip('?')!r}), 0 of them beyond the model-free answer; the model-free answer's "
                               "1 unit(s) it did not choose follow its choices"]
    # numbered quotes, best first, with their document and section heading, after the worked example; the model never
    # sees section ids, and the schema admits only the offered numbers
    messages = replay.requests[0]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert (messages[1]["content"], messages[2]["content"]) == SELECT_EXAMPLE
    assert messages[3]["content"].endswith("[1] (Access Policy > Refresh tokens) Refresh tokens expire after 30 days.\n"
                                           "[2] (Access Policy > Access tokens) Access tokens expire after 15 minutes.\n"
                                           "[3] (Access Policy > Refresh tokens) A refresh token is revoked when the user logs out.")
    assert replay.requests[0]["response_format"] == {"type": "json_object", "schema": choice_schema(3)}
    assert choice_schema(3)["properties"]["ids"] == {"type": "array", "maxItems": 3, "items": {"type": "integer", "enum": [1, 2, 3]}}


def test_a_unit_the_model_free_answer_left_out_is_shown_when_the_model_chooses_it(shelves, tmp_path):
    replay = Replay("select_beyond")
    narrow = ExtractiveWriter(1, budget_chars=10)  # the model-free writer shows one sentence; the next best is offered too
    question = "Which tokens expire?"
    free = answer_question(Pipeline(settings=Settings(), planner=None, writer=narrow), AskRequest(question=question, shelf="alpha"),
                           shelves, token="test", traces=None)
    pipeline = Pipeline(settings=Settings(), planner=None, writer=SelectingWriter(replay.chat("writer-rec"), narrow, further=2))
    answer, trace = _ask(pipeline, shelves, tmp_path, question)
    offered = [line.split(") ", 1)[1] for line in replay.requests[0]["messages"][-1]["content"].splitlines() if line.startswith("[")]
    assert len(offered) == 3 and [s.text for s in free.sentences] == offered[:1]  # the model-free sentence, then two further ones
    assert [s.text for s in answer.sentences] == [offered[1], offered[0]] and _verbatim(answer, shelves)
    assert [u["id"][0] for u in trace.written] == ["m", "m"]
    assert "chose and ordered 2 of the 3 quoted units" in answer.warnings[0] and "1 of them beyond the model-free answer" in answer.warnings[0]


@pytest.mark.parametrize("recording, why", [
    ("select_garbage", "its reply is not {\"ids\": [numbers]}: Expecting value: line 1 column 1 (char 0)"),
    ("select_none", "it chose none of them"),
    ("select_unknown", "its reply names passages that were not offered: [4] (offered 1 to 3)"),
    ("select_empty", "the call failed (model writer-rec returned an empty reply)"),
])
def test_a_failed_choice_gives_the_model_free_answer_and_says_so(shelves, tmp_path, recording, why):
    replay = Replay(recording)
    answer, trace = _ask(build_pipeline(_settings(), {"writer": replay.chat("writer-rec")}), shelves, tmp_path, LIFETIMES)
    free = _model_free(shelves, LIFETIMES)
    assert [(s.text, s.citations, s.status) for s in answer.sentences] == [(s.text, s.citations, s.status) for s in free.sentences]
    assert answer.answer_markdown == free.answer_markdown and answer.answer_markdown.endswith(FREE_LINE)
    assert answer.warnings == [f"the writer model writer-rec could not choose the quotes for part 1 ({LIFETIMES.rstrip('?')!r}): "
                               f"{why}; the model-free answer's quotes are shown for it"]
    assert {u["id"][0] for u in trace.written} == {"u"}


def test_the_select_role_needs_no_checker_and_the_write_role_still_does():
    assert isinstance(build_pipeline(_settings("select"), {"writer": Replay("select_none").chat("writer-rec")}).writer, SelectingWriter)
    with pytest.raises(Exception, match="checker"):
        build_pipeline(_settings("write"), {"writer": Replay("select_none").chat("writer-rec")})


def _two_lists(shelves, tmp_path, recording: str):
    """LIFETIMES answered with the offered units in lists of two: (answer, trace, the replay)."""
    replay = Replay(recording)
    writer = SelectingWriter(replay.chat("writer-rec"), ExtractiveWriter(), batch=2)
    answer, trace = _ask(Pipeline(settings=_settings(), planner=None, writer=writer), shelves, tmp_path, LIFETIMES)
    return answer, trace, replay


def test_each_short_list_is_one_call_and_a_unit_counts_as_the_models_only_when_its_reply_chose_it(shelves, tmp_path):
    answer, trace, replay = _two_lists(shelves, tmp_path, "select_two_lists")
    listed = [[line for line in r["messages"][-1]["content"].splitlines() if line.startswith("[")] for r in replay.requests]
    assert [len(lines) for lines in listed] == [2, 1] and listed[1][0].endswith("A refresh token is revoked when the user logs out.")
    assert [r["response_format"]["schema"] for r in replay.requests] == [choice_schema(2), choice_schema(1)]
    # the first list's second unit is the one chosen; nothing else counts as the model's
    assert [s.text for s in answer.sentences] == ["Access tokens expire after 15 minutes.", "Refresh tokens expire after 30 days.",
                                                  "A refresh token is revoked when the user logs out."]
    assert [u["id"][0] for u in trace.written] == ["m", "u", "u"]
    assert model_shown(answer.sentences, trace.written, "select") == (1, 3)
    assert answer.warnings == ["the writer model writer-rec chose and ordered 1 of the 3 quoted units offered for part 1 "
                               f"({LIFETIMES.rstrip('?')!r}), 0 of them beyond the model-free answer; the model-free answer's "
                               "2 unit(s) it did not choose follow its choices"]


def test_a_list_whose_reply_is_lost_adds_no_choice_and_the_answer_says_so(shelves, tmp_path):
    answer, trace, _ = _two_lists(shelves, tmp_path, "select_one_list_lost")
    assert [s.text for s in answer.sentences] == ["Access tokens expire after 15 minutes.", "Refresh tokens expire after 30 days.",
                                                  "A refresh token is revoked when the user logs out."]
    assert [u["id"][0] for u in trace.written] == ["m", "m", "u"]
    assert model_shown(answer.sentences, trace.written, "select") == (2, 3)
    assert answer.warnings[0].endswith("the model-free answer's 1 unit(s) it did not choose follow its choices; 1 of the 2 lists "
                                       "it was offered gave no usable choice (the call failed (model writer-rec returned an empty reply))")


def test_only_the_best_lists_of_a_part_are_offered_and_the_rest_is_shown_as_the_model_free_answer_has_it(shelves, tmp_path):
    replay = Replay("select_capped")
    writer = SelectingWriter(replay.chat("writer-rec"), ExtractiveWriter(), batch=1, lists=2)
    answer, trace = _ask(Pipeline(settings=_settings(), planner=None, writer=writer), shelves, tmp_path, LIFETIMES)
    assert [r["messages"][-1]["content"].splitlines()[-1] for r in replay.requests] == [
        "[1] (Access Policy > Refresh tokens) Refresh tokens expire after 30 days.",
        "[1] (Access Policy > Access tokens) Access tokens expire after 15 minutes."]
    assert [(s.text, u["id"][0]) for s, u in zip(answer.sentences, trace.written)] == [
        ("Refresh tokens expire after 30 days.", "m"), ("A refresh token is revoked when the user logs out.", "u"),
        ("Access tokens expire after 15 minutes.", "m")]
    assert answer.warnings[0].endswith("chose and ordered 2 of the 2 quoted units offered for part 1 "
                                       f"({LIFETIMES.rstrip('?')!r}), 0 of them beyond the model-free answer; the model-free "
                                       "answer's 1 unit(s) it did not choose (1 of them not offered to it) follow its choices")


def test_the_list_size_and_count_are_settings_the_pipeline_passes_to_the_chooser():
    from shelfwise.api.answer.write.select_model import BATCH, LISTS
    chat = {"writer": Replay("select_none").chat("writer-rec")}
    assert (Settings().models.select_batch, Settings().models.select_lists) == (BATCH, LISTS)
    settings = Settings.model_validate({"models": {"base_url": "http://127.0.0.1:9/v1", "writer": "writer-rec",
                                                   "writer_role": "select", "select_batch": 3, "select_lists": 4}})
    writer = build_pipeline(settings, chat).writer
    assert (writer.batch, writer.lists) == (3, 4)
    with pytest.raises(Exception, match="select_batch"):
        Settings.model_validate({"models": {"select_batch": 0}})


def test_a_sentence_introducing_a_list_keeps_its_items_after_it_whatever_the_model_chose_between():
    """The model chose a lead-in ("... adding the following parameters ...:") and then another section's sentence, not the
    list's items (oauth-05): the items stay right after their lead-in, so the size limit keeps or drops the list whole as
    it does model-free, instead of keeping a lead-in alone and dropping a gold sentence for it."""
    from shelfwise.api.answer.records import Unit

    def unit(uid: str, kind: str, section: str, group: str = "") -> Unit:
        return Unit(id=uid, kind=kind, text=f"Text {uid}.", citations=[section], obligation=0, group=group, status="verbatim")

    lead, item, other = unit("u1", "sentence", "s1"), unit("u2", "list_item", "s1", group="s1-list-1"), unit("u3", "sentence", "s2")
    arranged, picked = SelectingWriter._arrange([lead, item, other], [lead, item, other], [0, 2], {})
    assert [u.id for u in arranged] == ["u1", "u2", "u3"] and picked == {"u1", "u3"}
