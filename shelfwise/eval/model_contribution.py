"""What a model adds to an answer, against the model-free answer to the same question on the same stores (issue 37).

``make eval-local-llm`` answers each question twice — with the model, and model-free — and records per answer:

- the gold points shown by each (a must item is shown when the displayed answer states it by the quote-recall rule,
  ``shelfwise.eval.judge.states_item``, as the waterfall counts "shown");
- whether an answerable question was answered "not in these documents" by each;
- the shown answering units the model chose or wrote: in the "select" role the units whose written id starts with
  "m" (``shelfwise.api.answer.write.select_model``), in the "write" role the model's own units ("u"; "x" are the extractive
  fill's quotes), against all shown answering units.

Only what code computes; no judge model.
"""

from __future__ import annotations

from shelfwise.api.answer.check.fallback import ANSWERING
from shelfwise.eval.judge import states_item
from shelfwise.eval.questions import MustItem

__all__ = ["gold_points_shown", "model_shown", "contribution_row", "contribution_totals"]


def gold_points_shown(must: list[dict], markdown: str) -> int:
    """How many of the question's must items (with evidence: items that state an absence are not points) the answer states."""
    items = [MustItem.model_validate(m) for m in must if m.get("evidence")]
    return sum(1 for item in items if states_item(item, markdown)[0])


def model_shown(sentences: list, written: list[dict], role: str) -> tuple[int, int]:
    """(shown answering units the model chose or wrote, shown answering units) of one answer.

    ``sentences``: the answer's shown sentences; ``written``: the trace's written units (their ids tell who made them)."""
    mark = "m" if role == "select" else "u"
    made = {(u["text"], tuple(u["citations"])) for u in written if u["id"].startswith(mark)}

    def field(s, name):
        return s.get(name) if isinstance(s, dict) else getattr(s, name)

    answering = [s for s in sentences if field(s, "kind") in ANSWERING]
    return sum(1 for s in answering if (field(s, "text"), tuple(field(s, "citations"))) in made), len(answering)


def contribution_row(must: list[dict], answerable: bool, model: dict, free: dict) -> dict:
    """The per-answer comparison: ``model`` and ``free`` hold each answer's markdown and label."""
    with_model = gold_points_shown(must, model["markdown"])
    without = gold_points_shown(must, free["markdown"])
    return {"gold_points": sum(1 for m in must if m.get("evidence")), "gold_shown_model": with_model,
            "gold_shown_model_free": without, "gold_shown_delta": with_model - without,
            "model_free_label": free["label"],
            "model_free_not_in_documents_answerable": answerable and free["label"] == "not_in_documents"}


def contribution_totals(answers: list[dict]) -> dict:
    """Sums over the answers that carry a comparison row."""
    rows = [a for a in answers if "gold_shown_model" in a]
    chosen = sum(a.get("model_shown", 0) for a in rows)
    shown = sum(a.get("answering_shown", 0) for a in rows)
    return {
        "gold_points": sum(a["gold_points"] for a in rows),
        "gold_shown_model": sum(a["gold_shown_model"] for a in rows),
        "gold_shown_model_free": sum(a["gold_shown_model_free"] for a in rows),
        "answers_with_fewer_gold_points_than_model_free": sum(1 for a in rows if a["gold_shown_delta"] < 0),
        "answers_with_more_gold_points_than_model_free": sum(1 for a in rows if a["gold_shown_delta"] > 0),
        "model_free_answerable_answered_not_in_documents": sum(1 for a in rows if a["model_free_not_in_documents_answerable"]),
        "shown_units_by_the_model": chosen,
        "shown_answering_units": shown,
        "share_of_shown_units_by_the_model": round(chosen / shown, 4) if shown else None,
    }
