"""Where answers lose facts (paper §6.2): every must item followed through its answer's trace.

Stages, each counted on its own: its gold evidence was **retrieved** (a gold
section among recall's candidates), **read** (a gold section given to the
writer), **written** (a unit the writer produced states it), **removed** (every
unit stating it was removed, by the checker or by the gate), **shown** (the
displayed answer states it). "States" is the quote-recall rule
(``shelfwise.eval.judge.states_item``): the item's gold quote, or one sentence holding 80%
of its content words. Each item also gets the first stage it was lost at.

``trace_summary`` cuts a stored ``shelfwise.api.trace.Trace`` to what this needs (gold
sections only, the written units, the removals), so a run's JSON lines stay small.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from shelfwise.api.trace import Trace
from shelfwise.eval.judge import states_item
from shelfwise.eval.questions import Question

__all__ = ["trace_summary", "ItemPath", "item_paths", "waterfall_counts", "STAGES", "LOSSES"]

STAGES = ["items", "retrieved", "read", "written", "removed by checker", "removed by gate", "shown"]
LOSSES = ["not retrieved", "not read", "not written", "removed by checker", "removed by gate", "lost after writing", "shown"]


def trace_summary(trace: Trace, gold: list[list[str]]) -> dict:
    """The part of a trace the waterfall reads: gold sections among candidates and reads, units written and removed."""
    wanted = {sid for item in gold for sid in item}
    candidates = {c["section_id"] for r in trace.recall for c in r.get("top", [])} | {n["section_id"] for n in trace.not_opened}
    read = {r["section_id"] for r in trace.read}
    return {
        "trace_id": trace.trace_id,
        "gold": gold,
        "candidates_n": len(candidates),
        "candidates_gold": sorted(candidates & wanted),
        "read_n": len(read),
        "read_gold": sorted(read & wanted),
        "not_opened_gold": sorted({(n["section_id"], n["reason"]) for n in trace.not_opened if n["section_id"] in wanted}),
        "chars_read": trace.reading.get("chars_read"),
        "whole_scope": trace.reading.get("whole_scope"),
        "written": [{"id": u["id"], "kind": u["kind"], "text": u["text"], "citations": u["citations"], "status": u["status"]}
                    for u in trace.written],
        "removed": [{"unit": r["unit"]["id"], "stage": r["stage"], "reason": r["reason"][:160], "cell": r.get("cell")}
                    for r in trace.removed],
        "checked": len(trace.checked),
    }


class ItemPath(BaseModel):
    """One must item's way through one answer."""

    question: str
    item: int
    retrieved: bool
    read: bool
    written: bool
    removed_by: str | None = Field(description="'check' or 'gate' when every unit stating it was removed, else None.")
    shown: bool
    lost_at: str = Field(description="The first stage it was lost at (one of LOSSES), or 'shown'.")


def _lost_at(path: dict) -> str:
    if path["shown"]:
        return "shown"
    if not path["retrieved"] and not path["read"]:
        return "not retrieved"
    if not path["read"]:
        return "not read"
    if not path["written"]:
        return "not written"
    if path["removed_by"] == "check":
        return "removed by checker"
    if path["removed_by"] == "gate":
        return "removed by gate"
    return "lost after writing"


def item_paths(question: Question, record: dict) -> list[ItemPath]:
    """Every must item of ``question`` through the answer ``record`` (one line of a run)."""
    summary = record.get("trace") or {}
    gold = summary.get("gold") or [[] for _ in question.must]
    candidates, read = set(summary.get("candidates_gold", [])), set(summary.get("read_gold", []))
    units = summary.get("written", [])
    removed: dict[str, set[str]] = {}
    partly = set()
    for r in summary.get("removed", []):
        if r.get("cell") is None:
            removed.setdefault(r["unit"], set()).add(r["stage"])
        else:
            partly.add(r["unit"])
    shown_text = (record.get("answer") or {}).get("markdown", "")
    paths = []
    for index, item in enumerate(question.must):
        sections = set(gold[index]) if index < len(gold) else set()
        stating = [u for u in units if states_item(item, u["text"])[0]]
        written = bool(stating) or (len(units) > 1 and states_item(item, "\n".join(u["text"] for u in units))[0])
        removed_by = None
        if stating and all(u["id"] in removed for u in stating):
            stages = set().union(*(removed[u["id"]] for u in stating))
            removed_by = "check" if stages == {"check"} else "gate" if "gate" in stages else sorted(stages)[0]
        path = {"retrieved": bool(sections & candidates), "read": bool(sections & read), "written": written,
                "removed_by": removed_by, "shown": states_item(item, shown_text)[0]}
        paths.append(ItemPath(question=question.id, item=index, lost_at=_lost_at(path), **path))
    return paths


def waterfall_counts(paths: list[ItemPath]) -> dict[str, int]:
    """Counts per stage (STAGES) and per first loss (LOSSES, prefixed 'lost: ')."""
    counts = {
        "items": len(paths),
        "retrieved": sum(p.retrieved for p in paths),
        "read": sum(p.read for p in paths),
        "written": sum(p.written for p in paths),
        "removed by checker": sum(p.removed_by == "check" for p in paths),
        "removed by gate": sum(p.removed_by == "gate" for p in paths),
        "shown": sum(p.shown for p in paths),
    }
    for loss in LOSSES:
        counts[f"lost: {loss}"] = sum(p.lost_at == loss for p in paths)
    return counts
