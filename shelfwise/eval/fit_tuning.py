"""Fit the extractive writer's thresholds and budgets (``answer.tuning``) on every labelled set, leave one set out.

The ranking's weights are fitted (``shelfwise.eval.fit``); the writer's thresholds and budgets were set by hand: how
far below its part's best a unit may still be written (``write_floor``), how many characters a part gets
(``chars_per_unit``), how many of its best sections are read on and how far (``best_sections``,
``best_section_window_chars``), how many units the semantic rerank sees and how much meaning weighs in it, when a
part counts as not fully answered, how much of the answer's size the writer fills. ``python -m
shelfwise.eval.fit_tuning --build-dir DIR`` (``make fit-tuning``) fits them the way the weights are fitted, by the
measured figure itself:

1. **Capture.** Every question of each set is answered once and its plan and reading kept
   (``shelfwise.eval.fit.captured_sets``; the cache in ``--work`` is the weight fit's, shared).
2. **Move.** Every captured question is written again and shown (``shelfwise.eval.fit_show.shown_text``) with each
   field of ``FREE`` moved by ``FACTOR`` either way (clipped to the field's bounds; an integer moves by 1 at least),
   and each set's answers are scored as they are scored (quote recall; for a set with reference answers, the
   reference figures shown).
3. **Leave one set out.** Per held-out set, the moves that raise the mean over the other sets (each weighing the
   same) by more than ``MIN_GAIN`` (the weight fit's, ``shelfwise.eval.fit_show``) are taken best first, each kept only if the mean with it and the moves kept before
   it still rises by more than ``MIN_GAIN``; the held-out set is then scored with the fold's tuning, beside the defaults.
4. **Report.** The fit on all sets, every fold and the questions each fold moved go to
   ``eval/results/fit-tuning.json``. The defaults are code (``shelfwise.compiler.tuning.AnswerTuning``): a fitted value
   replaces one only when the mean over the held-out folds rises, as a reviewed change that cites this file.

Fields that shape what is planned, searched or read are not free here: the captured plan and reading would not be
what the answer gets with them moved.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from shelfwise.compiler.tuning import DEFAULT_TUNING, AnswerTuning
from shelfwise.eval.fit_show import MIN_GAIN  # the weight fit's bar: about one must item of one question of one set

__all__ = ["FREE", "FACTOR", "moves", "ascend_tuning", "main"]

ROOT = Path(__file__).resolve().parents[2]
FREE = ("written_share", "chars_per_unit", "write_floor", "strong_share", "covered_share", "best_sections",
        "best_section_window_chars", "continued_sentences", "overrun", "min_shown", "relative_shown", "semantic_top",
        "semantic_weight", "feedback_units", "same_statement_share")
"""The writer's and the shown answer's fields the fit may move: each decides what of the read sections is written or
kept, none what is planned, searched or read."""
FACTOR = 1.5
"""A move multiplies a field by this or divides it by this (the weight fit's step of 0.5 in log-weight is 1.65)."""


def moves(base: AnswerTuning = DEFAULT_TUNING, free: tuple[str, ...] = FREE) -> list[tuple[str, float | int]]:
    """Each field of ``free`` moved by ``FACTOR`` down and up, within the field's bounds; a move that changes nothing is left out."""
    out: list[tuple[str, float | int]] = []
    for name in free:
        info = AnswerTuning.model_fields[name]
        value = getattr(base, name)
        low, high = _bounds(info)
        if isinstance(value, int):
            candidates = (min(value - 1, round(value / FACTOR)), max(value + 1, round(value * FACTOR)))
        else:
            candidates = (round(value / FACTOR, 4), round(value * FACTOR, 4))
        for tried in candidates:
            tried = min(max(tried, low), high)
            if tried != value and (name, tried) not in out:
                out.append((name, tried))
    return out


def _bounds(info) -> tuple[float, float]:
    """(lowest, highest) value a field's constraints allow; a strict lower bound ``gt`` as ``gt + 0.001``."""
    low, high = -float("inf"), float("inf")
    for rule in info.metadata:
        if getattr(rule, "ge", None) is not None:
            low = max(low, rule.ge)
        if getattr(rule, "gt", None) is not None:
            low = max(low, rule.gt + 1e-3)
        if getattr(rule, "le", None) is not None:
            high = min(high, rule.le)
    return low, high


def ascend_tuning(figure, train: list[str], tried: list[tuple[str, float | int]], progress=lambda line: None
                  ) -> tuple[dict[str, float | int], float]:
    """The moves of ``tried`` kept for the ``train`` sets: ``figure(set, overrides)`` scores a set with the defaults
    changed by ``overrides``. Moves raising the mean by more than ``MIN_GAIN`` alone are taken best first (one per
    field), each kept if the mean with it and those kept before rises by more than ``MIN_GAIN``. Returns (overrides, mean)."""
    def mean(overrides: dict) -> float:
        return statistics.fmean(figure(name, overrides) for name in train)

    start = mean({})
    gains = sorted(((mean({name: value}) - start, name, value) for name, value in tried), key=lambda g: (-g[0], g[1]))
    kept: dict[str, float | int] = {}
    current = start
    for gain, name, value in gains:
        if gain <= MIN_GAIN:
            break
        if name in kept:
            continue
        trial = {**kept, name: value}
        value_with = mean(trial)
        if value_with > current + MIN_GAIN:
            kept, current = trial, value_with
            progress(f"fit-tuning: {'+'.join(train)}: {name}={value} kept ({start:.4f} -> {current:.4f})")
    return kept, round(current, 4)


class _Scorer:
    """Every captured question of a set written again and shown under a tuning (``fit_show.Replay``, one per tuning):
    per question, its figure (memoised)."""

    def __init__(self, cases_by_set: dict, settings):
        self.cases_by_set, self.settings = cases_by_set, settings
        self.memo: dict[tuple, dict[str, float]] = {}
        self.replays: dict[tuple, object] = {}

    def per_question(self, set_name: str, overrides: dict) -> dict[str, float]:
        from shelfwise.api.answer import build_pipeline
        from shelfwise.api.answer.write.rank_model import load_rank_model
        from shelfwise.eval.fit_show import Replay

        key = tuple(sorted(overrides.items()))
        if (set_name, key) not in self.memo:
            if key not in self.replays:
                tuning = DEFAULT_TUNING.model_copy(update=dict(overrides))
                settings = self.settings.model_copy(update={"answer": self.settings.answer.model_copy(update={"tuning": tuning})})
                self.replays[key] = Replay([c for cases in self.cases_by_set.values() for c in cases], build_pipeline(settings, {}))
            weights = load_rank_model(self.settings.answer.rank_weights).weights
            per = self.replays[key].per_question(set_name, weights)
            self.memo[(set_name, key)] = {qid: round(v, 4) for qid, v in per.items()}
        return self.memo[(set_name, key)]

    def figure(self, set_name: str, overrides: dict) -> float:
        per = self.per_question(set_name, overrides)
        return round(statistics.fmean(per.values()), 4) if per else 0.0


def main(argv: list[str] | None = None) -> int:
    from shelfwise.api.shelves import close_shelves
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.settings import Settings
    from shelfwise.eval.fit import SAMPLE, SETS, captured_sets, sampled

    parser = argparse.ArgumentParser(prog="python -m shelfwise.eval.fit_tuning", description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path, required=True, help="where every set's shelves are compiled")
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated sets (default: {','.join(SETS)})")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "fit", help="where captured questions are cached (shared with make fit)")
    parser.add_argument("--free", default=",".join(FREE), help=f"comma-separated fields to move (default: {','.join(FREE)})")
    parser.add_argument("--sample", type=int, default=SAMPLE, help=f"questions per set at most, evenly spaced (default {SAMPLE}; 0: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results" / "fit-tuning.json", help="result file")
    args = parser.parse_args(argv)

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    free = tuple(args.free.split(","))
    unknown = [name for name in free if name not in AnswerTuning.model_fields]
    if unknown:
        parser.error(f"unknown tuning field(s): {', '.join(unknown)}")
    if len(args.sets.split(",")) < 2:
        parser.error("leave-one-set-out needs two sets or more (--sets)")
    args.work.mkdir(parents=True, exist_ok=True)
    sets = {name: sampled(SETS[name], args.sample, args.work) for name in args.sets.split(",")}
    settings = Settings.model_validate({"build_dir": str(args.build_dir), "api": {"answer_timeout_s": 3600}})
    embedder = embedder_from_settings(settings)
    started = time.perf_counter()
    shelves_by_set: dict = {}
    try:
        _, cases_by_set = captured_sets(sets, args.build_dir, args.work, settings, embedder, progress, shelves_by_set)
        scorer = _Scorer(cases_by_set, settings)
        tried = moves(DEFAULT_TUNING, free)
        for count, (name, value) in enumerate([("defaults", None)] + tried):
            overrides = {} if value is None else {name: value}
            figures = {s: scorer.figure(s, overrides) for s in sets}
            progress(f"fit-tuning: [{count}/{len(tried)}] {name}{'' if value is None else '=' + str(value)}: {figures}")
        folds = {}
        for held in sets:
            train = [s for s in sets if s != held]
            kept, train_mean = ascend_tuning(scorer.figure, train, tried, progress)
            before, after = scorer.per_question(held, {}), scorer.per_question(held, kept)
            folds[held] = {"tuning": kept, "train_mean": train_mean, "defaults": scorer.figure(held, {}),
                           "fitted_without": scorer.figure(held, kept), "questions": len(after),
                           "moved": {q: [before.get(q), after.get(q)] for q in sorted(set(before) | set(after)) if before.get(q) != after.get(q)}}
            progress(f"fit-tuning: held out {held}: defaults {folds[held]['defaults']} -> fitted on the others "
                     f"{folds[held]['fitted_without']} ({kept or 'no move kept'})")
        every, every_mean = ascend_tuning(scorer.figure, list(sets), tried, progress)
        mean_defaults = statistics.fmean(f["defaults"] for f in folds.values())
        mean_fitted = statistics.fmean(f["fitted_without"] for f in folds.values())
        result = {
            "kind": "fit-tuning", "sets": {name: os.path.relpath(SETS[name], ROOT) + (f" ({args.sample} questions, evenly spaced)" if path != SETS[name] else "")
                                           for name, path in sets.items()},
            "free": list(free), "factor": FACTOR, "min_gain": MIN_GAIN,
            "defaults": {name: getattr(DEFAULT_TUNING, name) for name in free},
            "moves": {f"{name}={value}": {s: scorer.figure(s, {name: value}) for s in sets} for name, value in tried},
            "at_defaults": {s: scorer.figure(s, {}) for s in sets},
            "folds": folds, "mean_defaults": round(mean_defaults, 4), "mean_fitted": round(mean_fitted, 4),
            "fit_on_all": {"tuning": every, "mean": every_mean, "per_set": {s: scorer.figure(s, every) for s in sets}},
            "rises": mean_fitted > mean_defaults,
            "seconds": round(time.perf_counter() - started, 1),
        }
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        for held, fold in folds.items():
            print(f"held out {held}: defaults {fold['defaults']:.3f} -> tuned on the others {fold['fitted_without']:.3f} "
                  f"({len(fold['moved'])} questions moved; {fold['tuning'] or 'no move kept'})")
        print(f"mean over held-out folds: defaults {mean_defaults:.4f} -> fitted {mean_fitted:.4f}; fit on all sets: {every or 'no move kept'}")
    finally:
        for shelves in shelves_by_set.values():
            close_shelves(shelves)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
