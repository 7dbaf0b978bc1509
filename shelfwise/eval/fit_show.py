"""What the answer would show under a weighting: the ranking fit's proxy of the answer metric, and a fit to it.

The mean reciprocal rank of each obligation's best positive unit (``shelfwise.eval.fit.ranking_proxy``) did not track
the answer metric: an answer shows an obligation's best units within a character budget, picked for the words they
add, and read on around the best sections (``shelfwise.api.answer.write.write.ExtractiveWriter``); ranking the one best
positive first is neither needed nor enough. So the proxy here writes the answer again:

- **Capture.** ``shelfwise.eval.fit.collect`` answers each question once and keeps what its writer was given (the plan
  and the reading: neither depends on the ranking weights, only the writer reads them) as a ``Case``.
- **Replay.** ``shown_text`` writes a case again with the extractive writer under other weights and shows it as the
  answer does (the verbatim check, the gate, the fill, the answer's size limit: scoring the draft instead ranked a
  weighting above the hand-set one that lost in the real answers, its extra units cut by the size limit);
  ``shown_figure`` scores it as the answer is scored: the share of the question's must items it states
  (``states_item``, the quote-recall rule), or, for a set with reference answers, the share of the reference figures
  it holds. A computed comparison shown beside the writer's part is left out (no weight shapes it).
- **Fit.** ``ascend`` starts from the hand-set weights, writes every training case again with each one weight moved by
  ``STEP`` either way, and keeps the moves that raise the mean figure over the training sets (each set weighing the
  same) less an L2 pull toward the hand-set weights by more than ``MIN_GAIN``, best first, each only if it still
  raises it beside the moves kept before it: a search judged by the measured figure itself, not by a surrogate loss.
  One sweep: every further one writes each training question again some twenty times.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from shelfwise.api.answer.write.rank_model import FEATURES, HAND_SET, RankModel

__all__ = ["Case", "Replay", "unit_hits", "shown_text", "shown_figure", "ascend", "unused", "STEP", "MIN_GAIN", "FREE"]

STEP = 0.5
"""The move of one weight tried either way (a log-factor: 0.5 multiplies a unit's score by 1.65)."""
MIN_GAIN = 0.005
"""A move is kept only when it raises the training objective by more than this (about one must item of one question
in one of three sets); below it the hand-set value stays."""
FREE = tuple(HAND_SET)
"""Weights the fit may move: the hand-set ranking's (every one of them answers a rule the ranking had)."""


@dataclass
class Case:
    """One question as its writer was given it: enough to write its answer again under other weights."""

    set_name: str
    question: object
    figures: tuple | None
    plan: object
    reading: object
    shelves: dict = field(repr=False)

    def __getstate__(self) -> dict:  # kept on disk without its open shelves; ``attach`` gives them back
        return {k: v for k, v in self.__dict__.items() if k != "shelves"} | {"shelves": {}}

    def attach(self, shelves: dict) -> "Case":
        self.shelves = {name: shelves[name] for name in sorted({r.shelf for r in self.reading.sections})}
        return self


def unit_hits(question, text: str, figures: tuple | None) -> list[int]:
    """Which of the question's must items ``text`` states (the quote-recall rule), or which reference figures it holds."""
    from shelfwise.eval.judge import states_item
    from shelfwise.eval.reference import number_keys

    if figures is not None:
        held = number_keys(text)
        return [i for i, (_, keys) in enumerate(figures) if keys & held]
    return [i for i, item in enumerate(question.must) if states_item(item, text)[0]]


def shown_text(case: Case, weights: dict[str, float], pipeline) -> str:
    """The answer ``pipeline`` (model-free) shows for ``case`` when its extractive writer ranks with ``weights``: the
    draft written again, checked verbatim and put through the shown steps (the gate, the fill, the answer's size
    limit), as ``shelfwise.api.answer.answer_question`` does after its writer."""
    from shelfwise.api.answer.driver import _show
    from shelfwise.api.answer.check.gate import verify_verbatim
    from shelfwise.api.answer.write.write import ExtractiveWriter

    base = pipeline.writer
    writer = ExtractiveWriter(base.max_units, base.budget_chars, base.answer_chars, RankModel(weights=dict(weights)), tuning=base.tuning)
    draft = verify_verbatim(writer.write(case.plan, case.reading, case.shelves), case.shelves)
    return _show(pipeline, case.plan, case.reading, case.shelves, draft, None).markdown


def shown_figure(case: Case, text: str) -> float | None:
    """The answer metric on ``text``: share of must items stated, or of reference figures held; None when nothing counts."""
    count = len(case.figures) if case.figures is not None else len(case.question.must)
    return len(unit_hits(case.question, text, case.figures)) / count if count else None


class Replay:
    """The captured cases of every set, written again under any weights; each set's figure is kept per weighting (a fit
    tries the same weighting for several training sets and folds)."""

    def __init__(self, cases: list[Case], pipeline):
        self.pipeline = pipeline
        self.by_set: dict[str, list[Case]] = {}
        for case in cases:
            self.by_set.setdefault(case.set_name, []).append(case)
        self.memo: dict[tuple, dict[str, float]] = {}

    def per_question(self, set_name: str, weights: dict[str, float]) -> dict[str, float]:
        """Per question of the set, its ``shown_figure`` (a question written in several parts scored on all of them);
        a question nothing counts for is left out."""
        key = (set_name, tuple(sorted((n, round(v, 4)) for n, v in weights.items() if v)))
        if key not in self.memo:
            texts: dict[str, list[str]] = {}
            by_id: dict[str, Case] = {}
            for case in self.by_set[set_name]:
                texts.setdefault(case.question.id, []).append(shown_text(case, weights, self.pipeline))
                by_id[case.question.id] = case
            self.memo[key] = {qid: v for qid, parts in texts.items() if (v := shown_figure(by_id[qid], "\n\n".join(parts))) is not None}
        return self.memo[key]

    def figure(self, set_name: str, weights: dict[str, float]) -> float:
        """Mean over the set's questions of ``shown_figure`` (``per_question``)."""
        values = list(self.per_question(set_name, weights).values())
        return round(statistics.fmean(values), 4) if values else 0.0

    def means(self, sets, weights: dict[str, float]) -> dict[str, float]:
        return {name: self.figure(name, weights) for name in sorted(sets)}


def _objective(replay: Replay, sets, weights: dict[str, float], strength: float, prior: dict[str, float]) -> float:
    pull = sum((weights.get(n, 0.0) - prior.get(n, 0.0)) ** 2 for n in FEATURES)
    return statistics.fmean(replay.means(sets, weights).values()) - strength * pull


def ascend(replay: Replay, sets, strength: float, prior: dict[str, float] | None = None, free: tuple[str, ...] = FREE,
           progress=lambda line: None) -> dict[str, float]:
    """From ``prior`` (the hand-set weights): every move of one weight by ``STEP`` either way is written again over the
    training ``sets``; the moves that raise the objective (the mean figure over the sets, each weighing the same, less an
    L2 pull of ``strength`` toward ``prior``) by more than ``MIN_GAIN`` are then taken best first, each kept only if
    the objective with it and the moves kept before it still rises."""
    prior = {n: (prior if prior is not None else HAND_SET).get(n, 0.0) for n in FEATURES}
    weights = dict(prior)
    best = _objective(replay, sets, weights, strength, prior)
    gains = []
    for name in free:
        for sign in (1.0, -1.0):
            trial = {**weights, name: round(weights[name] + sign * STEP, 4)}
            value = _objective(replay, sets, trial, strength, prior)
            progress(f"fit: try {name} {trial[name]:+.4g}: {replay.means(sets, trial)} objective {value:.4f} (start {best:.4f})")
            if value > best + MIN_GAIN:
                gains.append((value, name, trial[name]))
    for value, name, moved in sorted(gains, reverse=True):
        if weights[name] != prior[name]:
            continue  # the other direction of a weight already moved
        trial = {**weights, name: moved}
        value = _objective(replay, sets, trial, strength, prior)
        if value > best + MIN_GAIN:
            weights, best = trial, value
            progress(f"fit: {name} -> {moved}: objective {best:.4f} over {', '.join(sorted(sets))}")
    return weights


def unused(replay: Replay, sets, weights: dict[str, float], free: tuple[str, ...] = FREE) -> list[str]:
    """The rules among ``free`` the answers do not need: those whose removal (weight 0) changes no set's figure, alone
    and all together (the last of them put back until together they change nothing)."""
    base = replay.means(sets, weights)
    names = [n for n in free if weights.get(n) and replay.means(sets, {**weights, n: 0.0}) == base]
    while names and replay.means(sets, {**weights, **{n: 0.0 for n in names}}) != base:
        names.pop()
    return names
