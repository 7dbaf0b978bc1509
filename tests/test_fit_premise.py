"""The premise threshold's fit (shelfwise.eval.fit_premise): corrections stated first and corrections that are not, one
set left out at a time, on a real compiled shelf (make.texi of ../shared/corpora)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from answer_shelves import HashEmbedder, compile_shelf
from shelfwise.eval.fit_premise import choose, folds, measure, result_of

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def test_each_fold_chooses_on_the_other_sets_and_ties_go_to_the_default():
    objectives = {"a": {0.4: 3, 0.5: 3, 0.6: 1}, "b": {0.4: 1, 0.5: 2, 0.6: 2}, "c": {0.4: 5, 0.5: 1, 0.6: 0}}
    assert choose(objectives, ["a", "b"], 0.5) == 0.5  # 4, 5, 3
    assert choose(objectives, ["a", "c"], 0.5) == 0.4  # 8, 4, 1
    assert choose({"a": {0.4: 2, 0.5: 1, 0.6: 2}}, ["a"], 0.5) == 0.4  # a tie away from the default: the nearer, then the lower
    fold = folds(objectives, 0.5)
    assert fold["c"] == {"chosen": 0.5, "held_out": 1, "default": 1}
    assert fold["b"] == {"chosen": 0.4, "held_out": 1, "default": 2}


@pytest.mark.skipif(not CORPORA.is_dir(), reason="../shared/corpora is not present")
def test_the_fit_answers_every_premise_question_and_control_and_counts_gold_and_other_corrections(tmp_path):
    shelf = tmp_path / "shelves" / "make"
    shelf.mkdir(parents=True)
    shutil.copyfile(CORPORA / "make" / "make.texi", shelf / "make.texi")
    compile_shelf(shelf, tmp_path / "build")
    first = tmp_path / "set-a.yaml"
    first.write_text("""- id: a-1
  shelf: make
  question: Since make -q rebuilds the out-of-date targets and prints their recipes, how do I keep it quiet?
  expect: false_premise
  must:
  - item: 'Correction: -q runs no recipes and prints nothing.'
    evidence:
    - doc: make.texi
      heading: Summary of Options
      quote: Do not run any recipes, or print anything; just return an exit status that is zero if the specified targets are already up to date, one if any remaking is required, or two if an error is encountered.
- id: a-2
  shelf: make
  question: What does the -k option of make do after an error?
  must: []
""")
    second = tmp_path / "set-b.yaml"
    second.write_text("""- id: b-1
  shelf: make
  question: Since make -q returns an exit status, how do I read it in a shell script?
  kind: control
  must: []
""")
    counts = measure([first, second], tmp_path / "build", [0.5, 1.0], HashEmbedder())
    assert counts["set-a"][0.5] == {"gold": 1, "other": 0, "questions": 1}  # a-2 states no premise: not answered
    assert counts["set-b"][0.5] == {"gold": 0, "other": 0, "questions": 1}  # the control is left alone
    result = result_of(counts, 0.5)
    assert set(result["folds"]) == {"set-a", "set-b"} and result["counts"]["set-a"]["0.5"]["gold"] == 1
    assert result["fitted_on_all"] in (0.5, 1.0)
