"""Fit the false-premise check's one threshold (``answer.tuning.premise_share``) on every premise set, leave one set out.

A read sentence may correct a question's premise only when it holds ``premise_share`` of the premise's content words.
``python -m shelfwise.eval.fit_premise --build-dir DIR`` (``make fit-premise``) answers every false-premise question and
every true-premise control of the premise sets (``SETS``) at each value of ``VALUES`` and counts, per set and value:

- **gold**: a false premise whose answer's first statement states its correction (``shelfwise.eval.judge.
  correction_first``, the figure ``shelfwise eval answers`` reports as corrected first);
- **other**: a correction shown under the correction label that is not that: of a false premise, or of a control
  (whose premise is true).

The objective of a value on a set is gold less other: a wrong correction undoes a right one. Left out one set at a
time, the other sets choose the value with the best summed objective (ties go to the default, then to the value
nearest it); the held-out set is scored with it beside the default. The counts, the folds and the fit on all sets go
to ``eval/results/fit-premise.json``. A fitted value replaces the default (``shelfwise.compiler.tuning.AnswerTuning``)
only when the held-out objective rises, as a reviewed change that cites that file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from shelfwise.compiler.tuning import DEFAULT_TUNING

__all__ = ["SETS", "VALUES", "premise_questions", "choose", "folds", "measure", "result_of", "main"]

ROOT = Path(__file__).resolve().parents[2]
SETS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "eval" / "questions").glob("unseen-premises*.yaml")) + [
    "shelves/northwind/questions.yaml"]
"""The labelled sets with false premises and true-premise controls (paths under the repository)."""
VALUES = (0.4, 0.45, 0.5, 0.55, 0.6)
"""The values tried: the default and two steps either way."""


def premise_questions(questions) -> list:
    """The questions of a set whose premise is checked: those expected to be corrected and the true-premise controls."""
    return [q for q in questions if q.expect == "false_premise" or q.kind == "control"]


def choose(objectives: dict[str, dict[float, int]], sets: list[str], default: float) -> float:
    """The value with the best objective summed over ``sets``; ties go to ``default``, then to the value nearest it."""
    values = sorted({v for name in sets for v in objectives[name]})
    totals = {v: sum(objectives[name][v] for name in sets) for v in values}
    best = max(totals.values())
    return min((v for v in values if totals[v] == best), key=lambda v: (v != default, abs(v - default), v))


def folds(objectives: dict[str, dict[float, int]], default: float) -> dict[str, dict]:
    """Per held-out set: the value the other sets choose, and the held-out objective with it and with ``default``."""
    out = {}
    for held in objectives:
        chosen = choose(objectives, [name for name in objectives if name != held], default)
        out[held] = {"chosen": chosen, "held_out": objectives[held][chosen], "default": objectives[held][default]}
    return out


def measure(paths: list[Path], build_dir: Path, values: list[float], embedder, progress=lambda line: None
            ) -> dict[str, dict[float, dict[str, int]]]:
    """Per set (its file's stem; "northwind" for shelves/northwind/questions.yaml) and value: gold and other corrections
    and the premise questions answered, each answered with ``embedder`` on the shelves compiled under ``build_dir``."""
    from shelfwise.api.answer import answer_question, build_pipeline
    from shelfwise.api.answer.check.premise import CORRECTION_LABEL
    from shelfwise.api.schemas import AskRequest
    from shelfwise.api.shelves import close_shelves, open_shelves
    from shelfwise.compiler.settings import Settings
    from shelfwise.eval.judge import correction_first
    from shelfwise.eval.questions import load_questions

    def settings(tuning: dict) -> Settings:
        return Settings.model_validate({"build_dir": str(build_dir), "api": {"answer_timeout_s": 3600}, "answer": {"tuning": tuning}})

    base = settings({})
    pipelines = {v: build_pipeline(settings({"premise_share": v}), None) for v in values}
    opened: dict = {}
    counts: dict[str, dict[float, dict[str, int]]] = {}
    try:
        for path in paths:
            name = "northwind" if path.parent.name == "northwind" else path.stem
            counts[name] = {v: {"gold": 0, "other": 0, "questions": 0} for v in values}
            for question in premise_questions(load_questions(path)):
                if question.shelf not in opened:
                    opened[question.shelf] = open_shelves({question.shelf: build_dir / question.shelf}, embedder, settings=base)
                for v in values:
                    answer = answer_question(pipelines[v], AskRequest(question=question.question, shelves=[question.shelf]),
                                             opened[question.shelf], token="fit-premise", traces=None)
                    gold = question.expect == "false_premise" and correction_first(question, answer.answer_markdown)[0]
                    counts[name][v]["gold"] += int(gold)
                    counts[name][v]["other"] += int(CORRECTION_LABEL in answer.answer_markdown and not gold)
                    counts[name][v]["questions"] += 1
            progress(f"fit-premise: {name}: " + ", ".join(f"{v}: {c['gold']} gold, {c['other']} other" for v, c in counts[name].items()))
    finally:
        for shelves in opened.values():
            close_shelves(shelves)
    return counts


def result_of(counts: dict[str, dict[float, dict[str, int]]], default: float) -> dict:
    """The result file's content: the counts, every fold, the value chosen on all sets and the held-out means."""
    objectives = {name: {v: c["gold"] - c["other"] for v, c in by_value.items()} for name, by_value in counts.items()}
    fold = folds(objectives, default)
    return {"kind": "fit-premise", "field": "premise_share", "default": default,
            "counts": {name: {str(v): c for v, c in by_value.items()} for name, by_value in counts.items()},
            "folds": fold, "fitted_on_all": choose(objectives, list(objectives), default),
            "held_out_mean": {"fitted": round(sum(f["held_out"] for f in fold.values()) / len(fold), 3),
                              "default": round(sum(f["default"] for f in fold.values()) / len(fold), 3)}}


def main(argv: list[str] | None = None) -> int:
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.settings import Settings

    parser = argparse.ArgumentParser(prog="python -m shelfwise.eval.fit_premise", description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path, required=True, help="where every set's shelves are compiled")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated question files (default: every premise set)")
    parser.add_argument("--values", default=",".join(str(v) for v in VALUES), help="comma-separated values of premise_share")
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results" / "fit-premise.json", help="result file")
    args = parser.parse_args(argv)
    values = [float(v) for v in args.values.split(",")]
    default = DEFAULT_TUNING.premise_share
    if default not in values:
        parser.error(f"--values must hold the default ({default})")
    paths = [Path(p) if Path(p).is_absolute() else ROOT / p for p in args.sets.split(",")]
    if len(paths) < 2:
        parser.error("leave-one-set-out needs two sets or more (--sets)")
    started = time.perf_counter()
    embedder = embedder_from_settings(Settings.model_validate({"build_dir": str(args.build_dir)}))
    counts = measure(paths, args.build_dir, values, embedder, lambda line: print(line, file=sys.stderr, flush=True))
    result = {**result_of(counts, default), "values": values, "seconds": round(time.perf_counter() - started, 1)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"fit-premise: fitted on all sets {result['fitted_on_all']} (default {default}); held-out objective mean "
          f"{result['held_out_mean']['fitted']} against {result['held_out_mean']['default']} -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
