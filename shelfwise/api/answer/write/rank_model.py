"""The extractive writer's ranking model: a unit's score for an obligation from general features, with fitted weights.

A unit's score is ``exp(sum(weight * feature))``: a log-linear model, the odds of a logistic regression without its
intercept (which orders nothing). The features (``FEATURES``) describe a unit against an obligation in general
terms: its BM25-style relevance (text, with its title and heading path as a weaker field), the section's rank in
recall, its shape (length, kind, a run of bare figures), whether it stands in a document the question names or in a
superseded revision, whether it defines the asked term or holds the value asked for, its position in its document.

The weights ship as one small data file, ``rank_weights.json`` beside this module, written by
``shelfwise.eval.fit`` (``make fit``) from every labelled question set with the hashes of its inputs and its
leave-one-set-out figures. ``HAND_SET`` are the factors the ranking used before any fit (each the log of the
factor the rule multiplied by): the fit starts from them and a test checks they reproduce the old ranking.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, Field

from shelfwise.compiler.errors import SettingsError

__all__ = ["FEATURES", "HAND_SET", "RankModel", "load_rank_model", "WEIGHTS_FILE"]

WEIGHTS_FILE = Path(__file__).with_name("rank_weights.json")

FEATURES: dict[str, str] = {
    "relevance": "log of the BM25-style relevance of the unit's text (its title and heading path a weaker field) to the obligation's words",
    "shape": "log of the shape factor: 1 for sentence-length units, rows and steps; less for long paragraphs and fragments",
    "prior": "log of the lift from the section's rank in recall for the obligation (search over whole sections)",
    "figures_only": "1 for a sentence that is a run of bare figures when the obligation asks for no number",
    "value_match": "1 for a table row one of whose cells is a phrase of a list/lookup ask, or whose label is a phrase of any other ask (\"total net sales\") in a document it asks about",
    "defines": "1 for a unit that defines the asked term (a glossary entry headed by it, a defining sentence)",
    "elsewhere_named": "1 for a unit outside the documents the obligation names",
    "elsewhere_question": "1 for a unit outside the documents the question names (the obligation names none)",
    "lead": "log(1 + share of the opening sections) for an obligation that names a document and asks little else",
    "superseded": "1 for a unit of a superseded revision (not for an obligation asking what changed)",
    "unvalued": "how many of the value facets the ask names the unit neither gives nor names",
    "own": "share of the obligation's words (idf-weighted) the unit's own text holds",
    "held": "share of the obligation's words the unit holds with its title and headings",
    "named": "1 for a unit in a document the obligation names",
    "row": "1 for a table row",
    "item": "1 for a list item or a procedure's step",
    "chars": "log(1 + characters) / 6",
    "position": "the section's order among the read sections of its document, capped at 20, / 20",
    "recalled": "1 when recall ranked the unit's section for the obligation",
    "numeric": "share of the unit's tokens that are bare numbers",
    "facets": "share of the ask's facets (a number, a condition, a definition, ...) the unit holds",
}
"""Every feature the model reads, with what it measures."""

HAND_SET: dict[str, float] = {
    "relevance": 1.0, "shape": 1.0, "prior": 1.0, "figures_only": math.log(0.4), "value_match": math.log(2.5),
    "defines": math.log(2.0), "elsewhere_named": math.log(0.6), "elsewhere_question": math.log(0.8), "lead": 1.0,
    "superseded": math.log(0.55), "unvalued": math.log(0.75),
}  # fmt: skip
"""The factors of the ranking before it was fitted (ELSEWHERE 0.6, SUPERSEDED 0.55, UNVALUED 0.75, FIGURES_ONLY 0.4,
VALUE_MATCH 2.5, DEFINES 2.0), as log-weights; every other feature 0."""


class RankModel(BaseModel):
    """Feature weights of the log-linear ranking model, and where they came from."""

    weights: dict[str, float] = Field(description="Feature name -> weight; a feature not named weighs 0.")
    source: str = Field(default="hand-set", description="How the weights were made: 'hand-set', or the fit's command and inputs.")
    inputs: dict[str, str] = Field(default_factory=dict, description="Labelled inputs of the fit -> sha256 (first 16 hex digits).")
    cross_validation: dict = Field(default_factory=dict, description="Leave-one-set-out figures of the fit, per held-out set.")

    def score(self, features: dict[str, float]) -> float:
        """``exp(sum(weight * feature))``; 0 for a unit with no relevance at all."""
        if features.get("relevance", 0.0) == -math.inf:
            return 0.0
        total = sum(self.weights.get(name, 0.0) * value for name, value in features.items() if value)
        return math.exp(max(min(total, 700.0), -700.0))


@lru_cache(maxsize=8)
def _read(path: str, mtime: float) -> RankModel:
    try:
        model = RankModel.model_validate(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise SettingsError(path, [f"not a ranking weights file ({exc}); write one with 'make fit' or leave answer.rank_weights unset"]) from exc
    unknown = sorted(set(model.weights) - set(FEATURES))
    if unknown:
        raise SettingsError(path, [f"unknown ranking feature(s) {', '.join(unknown)}; known: {', '.join(FEATURES)}"])
    return model


def load_rank_model(path: Path | None = None) -> RankModel:
    """The weights in ``path`` (default: the shipped ``rank_weights.json``; the hand-set factors when none ships)."""
    target = Path(path) if path else WEIGHTS_FILE
    if not target.exists():
        if path:
            raise SettingsError(str(path), ["file not found; give a weights file written by 'make fit'"])
        return RankModel(weights=dict(HAND_SET))
    return _read(str(target), target.stat().st_mtime)
