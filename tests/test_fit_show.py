"""The ranking fit's proxy (shelfwise.eval.fit_show): the writer run again on a question's captured plan and reading
under other weights, scored as the answer is; the fit moves a weight only where the answers written again show more."""

from __future__ import annotations

import pickle

import pytest
import yaml

from answer_shelves import HashEmbedder, compile_shelf
from shelfwise.api.draft.rank_model import FEATURES, HAND_SET
from shelfwise.api.draft.write import ExtractiveWriter
from shelfwise.compiler.settings import Settings
from shelfwise.eval.fit import collect
from shelfwise.eval.fit_show import Replay, ascend, shown_figure, shown_text, unit_hits

DOCS = {
    "rotation.md": "# Key Rotation\n\n## Schedule\n\nSigning keys are rotated every 90 days by the security team.\n\n"
    "Rotation events are logged in the audit trail and reviewed by the owner of the service.\n\n"
    "## Emergency rotation\n\nA key suspected of compromise is rotated within 24 hours.\n",
    "tokens.md": "# Tokens\n\n## Lifetimes\n\n| Token | Lifetime |\n|---|---|\n| Access token | 1 hour |\n| Refresh token | 30 days |\n",
}
QUESTIONS = [
    {"id": "kr-01", "shelf": "keys", "question": "How often are signing keys rotated?",
     "must": [{"item": "Signing keys are rotated every 90 days.", "evidence": [{"doc": "rotation.md", "heading": "Schedule",
                                                                         "quote": "Signing keys are rotated every 90 days"}]}]},
    {"id": "kr-02", "shelf": "keys", "question": "What is the lifetime of a refresh token?",
     "must": [{"item": "A refresh token lives 30 days.", "evidence": [{"doc": "tokens.md", "heading": "Lifetimes",
                                                                  "quote": "Refresh token | 30 days"}]}]},
]


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    from shelfwise.api.shelves import close_shelves, open_shelves

    root = tmp_path_factory.mktemp("keys")
    folder = root / "shelves" / "keys"
    folder.mkdir(parents=True)
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    compile_shelf(folder, root / "build")
    (root / "keys.yaml").write_text(yaml.safe_dump(QUESTIONS, sort_keys=False), encoding="utf-8")
    settings = Settings.model_validate({"build_dir": str(root / "build"), "api": {"trace_db": str(root / "traces.sqlite")}})
    shelves = open_shelves({"keys": root / "build" / "keys"}, HashEmbedder())
    cases: list = []
    rows = collect("keys", root / "keys.yaml", settings, shelves, lambda line: None, cases)
    yield rows, cases, shelves, settings
    close_shelves(shelves)


def test_a_case_is_written_again_under_other_weights_and_scored_as_the_answer_is(keys):
    from shelfwise.api.answer import build_pipeline

    _, cases, shelves, settings = keys
    assert {c.question.id for c in cases} == {"kr-01", "kr-02"}
    writer = build_pipeline(settings, {}).writer
    assert Replay(cases, writer).figure("keys", HAND_SET) == 1.0
    again = [pickle.loads(pickle.dumps(c)).attach(shelves) for c in cases]  # kept on disk without the open shelves
    case = next(c for c in again if c.question.id == "kr-01")
    text = shown_text(case, HAND_SET, writer)
    assert "rotated every 90 days" in text and unit_hits(case.question, text, None) == [0]
    # within one sentence's budget, a weighting that ranks the weaker matches first shows one of them instead
    narrow = ExtractiveWriter(1, 70, 70)
    assert shown_text(case, HAND_SET, narrow) == "Signing keys are rotated every 90 days by the security team."
    buried = shown_text(case, {**HAND_SET, "relevance": -4.0}, narrow)
    assert buried != text and unit_hits(case.question, buried, None) == []
    assert shown_figure(case, buried) == 0.0 and shown_figure(case, text) == 1.0


def test_the_fit_moves_a_weight_only_where_the_answers_written_again_show_more(keys):
    _, cases, _, _ = keys
    replay = Replay(cases, ExtractiveWriter(1, 70, 70))
    inverted = {**HAND_SET, "relevance": -0.75}  # the weaker matches first: the answers miss what is asked
    assert replay.figure("keys", inverted) < 1.0
    fitted = ascend(replay, ["keys"], 0.0, prior=inverted, free=("relevance", "superseded"))
    assert fitted["relevance"] == -0.25 and replay.figure("keys", fitted) == 1.0
    assert fitted["superseded"] == HAND_SET["superseded"]  # no superseded revision here: moving it shows nothing more
    # from weights that already show every item nothing moves, and a pull too strong for a gain keeps the start
    assert ascend(replay, ["keys"], 0.0) == {n: HAND_SET.get(n, 0.0) for n in FEATURES}
    assert ascend(replay, ["keys"], 10.0, prior=inverted, free=("relevance",)) == {n: inverted.get(n, 0.0) for n in FEATURES}
