"""The writer's thresholds fitted like its weights (shelfwise.eval.fit_tuning): each free field moved either way within
its bounds, the captured questions written again under it and scored as the answer is, moves kept only where the
training sets' mean rises, leave one set out."""

from __future__ import annotations

import pickle

from shelfwise.compiler.tuning import DEFAULT_TUNING, AnswerTuning
from shelfwise.eval.fit_show import shown_text
from shelfwise.eval.fit_tuning import FACTOR, FREE, MIN_GAIN, _Scorer, ascend_tuning, moves
from test_fit_show import keys  # noqa: F401  (the fixture: a compiled shelf and its captured questions)


def test_every_move_stays_within_its_field_and_moves_it():
    tried = moves()
    assert {name for name, _ in tried} == set(FREE)
    for name, value in tried:
        default = getattr(DEFAULT_TUNING, name)
        assert value != default
        AnswerTuning(**{name: value})  # within the field's bounds, or this raises
        if isinstance(default, int):
            assert isinstance(value, int) and abs(value - default) >= 1
        else:
            assert min(abs(value - default / FACTOR), abs(value - default * FACTOR), abs(value - 1.0)) < 1e-3
    # a share at its upper bound moves down only
    assert [v for n, v in moves(AnswerTuning(write_floor=1.0), ("write_floor",))] == [round(1.0 / FACTOR, 4)]


def test_a_move_is_kept_only_where_the_training_sets_gain():
    def figure(set_name: str, overrides: dict) -> float:
        value = 0.5
        if overrides.get("write_floor") == 0.3:  # helps a, costs b a little: net gain over a and b
            value += {"a": 0.1, "b": -0.02, "c": -0.5}[set_name]
        if overrides.get("best_sections") == 6:  # a gain below MIN_GAIN: noise
            value += MIN_GAIN / 2
        if overrides.get("best_sections") == 3:  # helps alone, adds nothing beside write_floor's move
            value += 0.02 if "write_floor" not in overrides else 0.0
        return value

    tried = [("write_floor", 0.3), ("write_floor", 0.675), ("best_sections", 3), ("best_sections", 6)]
    kept, mean = ascend_tuning(figure, ["a", "b"], tried)
    assert kept == {"write_floor": 0.3} and abs(mean - 0.54) < 1e-9
    assert ascend_tuning(figure, ["b", "c"], tried) == ({"best_sections": 3}, 0.52)  # held-out a: its gain is not seen
    assert ascend_tuning(figure, ["c"], [("best_sections", 6)]) == ({}, 0.5)


def test_a_tuning_reaches_the_answer_written_again(keys):  # noqa: F811
    from shelfwise.api.answer import build_pipeline

    rows, cases, shelves, settings = keys
    again = [pickle.loads(pickle.dumps(c)).attach(shelves) for c in cases]
    scorer = _Scorer({"keys": again}, settings)
    assert scorer.figure("keys", {}) == 1.0
    case = next(c for c in again if c.question.id == "kr-01")
    # the writer fills 3% of the answer's size: its best unit, little after it
    narrow = settings.model_copy(update={"answer": settings.answer.model_copy(update={"tuning": AnswerTuning(written_share=0.03)})})
    wide = shown_text(case, scorer_weights(settings), build_pipeline(settings, {}))
    short = shown_text(case, scorer_weights(settings), build_pipeline(narrow, {}))
    assert "every 90 days" in short and len(short) < len(wide)
    assert scorer.per_question("keys", {"written_share": 0.03})["kr-01"] == 1.0
    assert ("keys", (("written_share", 0.03),)) in scorer.memo


def scorer_weights(settings) -> dict[str, float]:
    from shelfwise.api.answer.write.rank_model import load_rank_model

    return load_rank_model(settings.answer.rank_weights).weights
