"""The ranking fit's proxy (shelfwise.eval.fit_show): the writer run again on a question's captured plan and reading
under other weights, scored as the answer is; the fit moves a weight only where the answers written again show more."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
import yaml

from answer_shelves import HashEmbedder, compile_shelf
from shelfwise.api.answer.write.rank_model import FEATURES, HAND_SET
from shelfwise.compiler.settings import Settings
from shelfwise.eval.fit import collect
from shelfwise.eval.fit_show import STEP, Replay, ascend, shown_figure, shown_text, unit_hits, unused

DOCS = {
    "rotation.md": "# Key Rotation\n\n## Schedule\n\nSigning keys are rotated every 90 days by the security team.\n\n"
    "Rotation events are logged in the audit trail and reviewed by the owner of the service.\n\n"
    "## History\n\nKey rotation was introduced in 2019 after an audit of the signing service found keys older than five years. "
    "Rotation used to be a manual task that took the security team several days for each signing service it owned. "
    "The rotation tooling now runs in the deployment pipeline of every signing service and every key store.\n\n"
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


def test_a_case_is_written_again_under_other_weights_and_shown_as_the_answer_is(keys):
    from shelfwise.api.answer import build_pipeline
    from shelfwise.eval.run import run_answers

    rows, cases, shelves, settings = keys
    assert rows and {c.question.id for c in cases} == {"kr-01", "kr-02"}
    pipeline = build_pipeline(settings, {})
    again = [pickle.loads(pickle.dumps(c)).attach(shelves) for c in cases]  # kept on disk without the open shelves
    case = next(c for c in again if c.question.id == "kr-01")
    shown = shown_text(case, HAND_SET, pipeline)
    run = run_answers(case_path(settings), label="hand", settings=settings, runs_dir=settings.build_dir.parent / "runs", embedder=HashEmbedder())
    answered = json.loads((run / "run-1.jsonl").read_text().splitlines()[0])["answer"]["markdown"]
    assert shown == answered  # the answer the pipeline shows, not the writer's draft
    assert unit_hits(case.question, shown, None) == [0] and shown_figure(case, shown) == 1.0
    assert shown_figure(case, "Rotation events are logged in the audit trail.") == 0.0
    assert Replay(again, pipeline).figure("keys", HAND_SET) == 1.0


class _Figures:
    """A replay whose figures are set per weighting (the interface ``ascend`` reads): "row" up helps set a, "defines" up
    helps a little, "relevance" down helps set b and costs set c more."""

    def figure(self, set_name: str, weights: dict[str, float]) -> float:
        row, defines = weights.get("row", 0.0) > 0, weights.get("defines", 0.0) > HAND_SET["defines"]
        relevance = weights.get("relevance", 0.0) < 1.0
        return {"a": 0.5 + 0.3 * row + 0.004 * defines, "b": 0.5 + 0.2 * relevance, "c": 0.6 - 0.3 * relevance}[set_name]

    def means(self, sets, weights):
        return {name: self.figure(name, weights) for name in sorted(sets)}


def test_the_fit_keeps_a_move_only_when_the_training_sets_mean_rises_by_more_than_the_pull():
    replay = _Figures()
    fitted = ascend(replay, ["a", "b", "c"], 0.02, free=("relevance", "row", "defines"))
    assert fitted == {**{n: HAND_SET.get(n, 0.0) for n in FEATURES}, "row": STEP}  # relevance: b gains less than c loses
    assert ascend(replay, ["a", "b"], 0.02, free=("relevance", "row", "defines"))["relevance"] == 1.0 - STEP
    assert ascend(replay, ["a", "b", "c"], 1.0, free=("row",)) == {n: HAND_SET.get(n, 0.0) for n in FEATURES}  # the pull wins


def test_a_rule_is_unused_when_removing_it_changes_no_sets_figure():
    replay = _Figures()
    # relevance 0 moves sets b and c; defines at 0 is no rise of it; the others are not read at all
    assert unused(replay, ["a", "b", "c"], dict(HAND_SET)) == [n for n in HAND_SET if n != "relevance"]
    assert unused(replay, ["a", "b", "c"], {**HAND_SET, "row": 0.5}, free=("row", "relevance")) == []


def case_path(settings) -> Path:
    return Path(settings.build_dir).parent / "keys.yaml"


def test_the_fits_cached_answers_are_the_codes_own(tmp_path):
    """``make fit`` caches the captured cases and the held-out runs in its work folder; read after a change of the
    pipeline, the held-out figures were the previous code's answers (the fit reported dev-formats 0.475 for code that
    answers 0.492). The work folder is keyed by a digest of the answering code: a change of any module (not of the eval
    package, nor of the weights the fit writes itself) gives another key."""
    from shelfwise.eval.fit import code_key

    package = tmp_path / "shelfwise"
    (package / "api" / "answer" / "write").mkdir(parents=True)
    (package / "eval").mkdir()
    module = package / "api" / "answer" / "write" / "write.py"
    module.write_text("RULE = 1\n")
    (package / "api" / "answer" / "write" / "rank_weights.json").write_text("{}")
    (package / "eval" / "fit.py").write_text("A = 1\n")
    key = code_key(package)
    assert len(key) == 16 and code_key(package) == key
    (package / "eval" / "fit.py").write_text("A = 2\n")
    (package / "api" / "answer" / "write" / "rank_weights.json").write_text('{"weights": {}}')
    assert code_key(package) == key, "the eval package and the shipped weights are not the answering code"
    module.write_text("RULE = 2\n")
    assert code_key(package) != key
    module.write_text("RULE = 1\n")
    (package / "compiler").mkdir()
    (package / "compiler" / "pdf_cues.json").write_text("[1]")
    assert code_key(package) != key, "a data file the pipeline reads is part of it"
