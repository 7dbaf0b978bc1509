"""Run-to-run noise (paper §4.3): runs of one configuration side by side, and comparisons judged against that spread.

A configuration's spread is the range of its runs' mean scores (max − min over
runs, each run's mean over the questions both have); the largest single-question
swing is reported beside it. A comparison between two configurations takes the
difference of their means over runs and calls it real only when it exceeds the
larger of the two spreads; with a single run on either side the spread is not
measured and the verdict is ``None`` (printed n.m.).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["Spread", "Comparison", "run_spread", "compare"]


class Spread(BaseModel):
    """Several runs of one configuration."""

    runs: int
    questions: int = Field(description="Questions scored in every run.")
    means: list[float] = Field(description="Each run's mean score over those questions, in run order.")
    mean: float | None = Field(description="Mean of the run means.")
    spread: float | None = Field(description="max − min of the run means; None with fewer than two runs.")
    max_swing: float | None = Field(description="Largest max − min of one question's scores over the runs.")
    swing_question: str | None = Field(default=None, description="The question with that swing.")


class Comparison(BaseModel):
    """Configuration B against configuration A."""

    mean_a: float | None
    mean_b: float | None
    difference: float | None = Field(description="mean_b − mean_a.")
    spread: float | None = Field(description="The larger of the two configurations' spreads.")
    real: bool | None = Field(description="Whether |difference| exceeds the spread; None when a spread is not measured.")


def _common(runs: list[dict[str, float | None]]) -> list[str]:
    """Question ids scored (not None) in every run, sorted."""
    if not runs:
        return []
    ids = set.intersection(*({q for q, v in run.items() if v is not None} for run in runs))
    return sorted(ids)


def run_spread(runs: list[dict[str, float | None]]) -> Spread:
    """``runs``: per run, question id -> score (None when not graded)."""
    ids = _common(runs)
    means = [round(sum(run[q] for q in ids) / len(ids), 6) for run in runs] if ids else []
    swing, swing_q = None, None
    if len(runs) > 1 and ids:
        swings = sorted(((max(r[q] for r in runs) - min(r[q] for r in runs), q) for q in ids), key=lambda t: (-t[0], t[1]))
        swing, swing_q = round(swings[0][0], 6), swings[0][1]
    return Spread(
        runs=len(runs), questions=len(ids), means=means,
        mean=round(sum(means) / len(means), 6) if means else None,
        spread=round(max(means) - min(means), 6) if len(means) > 1 else None,
        max_swing=swing, swing_question=swing_q,
    )


def compare(a: list[dict[str, float | None]], b: list[dict[str, float | None]]) -> Comparison:
    """B against A over the questions both scored in all their runs; real only beyond the larger spread."""
    ids = set(_common(a)) & set(_common(b))
    a_only = [{q: run[q] for q in ids} for run in a]
    b_only = [{q: run[q] for q in ids} for run in b]
    sa, sb = run_spread(a_only), run_spread(b_only)
    if sa.mean is None or sb.mean is None:
        return Comparison(mean_a=sa.mean, mean_b=sb.mean, difference=None, spread=None, real=None)
    difference = round(sb.mean - sa.mean, 6)
    if sa.spread is None or sb.spread is None:
        return Comparison(mean_a=sa.mean, mean_b=sb.mean, difference=difference, spread=None, real=None)
    spread = max(sa.spread, sb.spread)
    return Comparison(mean_a=sa.mean, mean_b=sb.mean, difference=difference, spread=spread, real=abs(difference) > spread)
