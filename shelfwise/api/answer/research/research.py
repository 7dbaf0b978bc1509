"""Research mode (issue 18; paper §2, §6.3, §6.14): the reading of an answer asked with ``mode: "research"``.

``research_reading`` takes the fixed loop's reading and returns the one the
writer gets, with warnings that say which research ran and a trace entry:

- with a planner or writer model (the model must support tool calls): the
  research agent (``shelfwise.api.answer.research.research_agent``) searches, opens and follows links;
  the sections it opened, in document order, are the reading. A reply that is
  not a valid tool call, a failed model call, or a run that opened nothing
  falls back to the fixed loop's reading, and the warning says so;
- without a model: the fixed loop's reading plus one or two hops along links
  and shared rare names (``shelfwise.api.answer.research.research_expand``).

Writing, checking, the gate and completion are the answer driver's, unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.answer.read.read import ReadSection, Reading
from shelfwise.api.answer.read.read import _ranks as recall_ranks
from shelfwise.api.answer.recall import Recall
from shelfwise.api.answer.research.research_agent import AgentRun, run_agent
from shelfwise.api.answer.research.research_expand import expand_reading
from shelfwise.api.answer.research.research_tools import StoreTools
from shelfwise.api.shelves import OpenShelf
from shelfwise.compiler.models import ChatModel
from shelfwise.compiler.digests.names import count
from shelfwise.compiler.settings import ResearchSettings

__all__ = ["with_bridges", "Research", "research_reading", "research_model", "BRIDGE_NAMES"]

BRIDGE_NAMES = 4
"""Bridging names (rare names that led the expansion into a document the fixed loop did not read) named in the warning and trace."""


@dataclass
class Research:
    """The reading research mode produced, what to tell the reader, and the trace entry."""

    reading: Reading
    warnings: list[str] = field(default_factory=list)
    trace: dict = field(default_factory=dict)
    bridges: list[str] = field(default_factory=list)
    """Rare names that joined a document the fixed loop did not read: the writer looks for them too (``with_bridges``)."""


def with_bridges(plan: Plan, bridges: list[str]) -> Plan:
    """The plan whose obligations also target the bridging names, so the model-free writer quotes the sentence of the
    bridging document that carries them ("Berth 4 ... renamed Harbor Gate"): the chain is shown, not only read."""
    if not bridges:
        return plan
    names = ", ".join(bridges)
    return plan.model_copy(update={"obligations": [o.model_copy(update={"ask": f"{o.ask} ({names})", "targets": list(dict.fromkeys([*o.targets, *bridges]))})
                                                   for o in plan.obligations]})


def research_model(pipeline) -> ChatModel | None:
    """The model the agent runs on: the planner, else the model writer's; None: model-free expansion."""
    return pipeline.planner or getattr(pipeline.writer, "chat", None)


def _in_order(sections: list[ReadSection], shelves: dict[str, OpenShelf]) -> list[ReadSection]:
    def key(read: ReadSection):
        shelf = shelves[read.shelf]
        order = shelf.memo(("doc-order",), lambda: {d: n for n, d in enumerate(shelf.doc_order())})
        return read.shelf, order[read.doc_id], shelf.sections[read.section_id].seq
    return sorted(sections, key=key)


def _fixed_summary(fixed: Reading) -> dict:
    return {"sections": [r.section_id for r in fixed.sections], "documents": sorted({r.doc_id for r in fixed.sections}),
            "chars_read": fixed.chars_read, "whole_scope": fixed.whole_scope}


def research_reading(chat: ChatModel | None, plan: Plan, recall: Recall, fixed: Reading, shelves: dict[str, OpenShelf],
                     scope: dict[str, set[str]], budget: ResearchSettings) -> Research:
    """The research reading for ``plan`` (see the module docstring); ``fixed`` is the fixed loop's reading."""
    limits = {"max_steps": budget.max_steps, "max_chars": budget.max_chars, "max_seconds": budget.max_seconds, "hops": budget.hops}
    if chat is None:
        return _expansion(recall, fixed, shelves, scope, budget, limits)
    run = run_agent(chat, StoreTools(shelves, scope), plan, budget)
    trace = {"ran": "agent", "model": chat.model, "budget": limits, "steps": run.steps, "stopped": run.stopped, "error": run.error,
             "notes": run.notes, "chars_read": run.chars_read, "opened": [sid for _, sid, _ in run.opened], "fixed_loop": _fixed_summary(fixed)}
    if run.error or not run.opened:
        why = run.error or f"the agent opened no section ({run.stopped})"
        trace["ran"] = "fixed loop (the research agent failed)"
        return Research(fixed, [f"research mode: the research agent (model {chat.model}) failed: {why}; "
                                f"this answer read what the fixed loop read instead"], trace)
    return Research(_agent_reading(run, recall, fixed, shelves, budget), [_agent_line(chat, run)], trace)


def _agent_line(chat: ChatModel, run: AgentRun) -> str:
    stopped = "it called finish" if run.stopped == "finish" else run.stopped
    return (f"research mode: the research agent (model {chat.model}) opened {count(len(run.opened), 'section')} "
            f"({run.chars_read:,} characters) in {count(len(run.steps), 'step')}; {stopped}")


def _agent_reading(run: AgentRun, recall: Recall, fixed: Reading, shelves: dict[str, OpenShelf], budget: ResearchSettings) -> Reading:
    ranks = recall_ranks(recall)
    sections = [ReadSection(shelf=name, section_id=sid, doc_id=shelves[name].sections[sid].doc_id, chars=shelves[name].chars(sid),
                            why=f"opened by the research agent at step {step}", ranks=ranks.get((name, sid), {}))
                for name, sid, step in run.opened]
    opened = {(name, sid) for name, sid, _ in run.opened}
    return Reading(budget=budget.max_chars, scope_chars=fixed.scope_chars, whole_scope=False, chars_read=run.chars_read,
                   sections=_in_order(sections, shelves),
                   not_opened=[n for n in fixed.not_opened if (n.shelf, n.section_id) not in opened])


def _expansion(recall: Recall, fixed: Reading, shelves: dict[str, OpenShelf], scope: dict[str, set[str]],
               budget: ResearchSettings, limits: dict) -> Research:
    trace = {"ran": "expansion", "model": "model-free", "budget": limits, "fixed_loop": _fixed_summary(fixed)}
    if fixed.whole_scope:
        trace.update(added=[], hops=[])
        return Research(fixed, ["research mode: no model configured, so the model-free expansion ran; the whole scope fit the "
                                "reading budget and was read, so there was nothing to add"], trace)
    added, hops, bridges = expand_reading(fixed.sections, recall, shelves, scope, max_chars=budget.max_chars, hops=budget.hops)
    chars = sum(r.chars for r in added)
    new = {(r.shelf, r.section_id) for r in added}
    reading = fixed.model_copy(update={
        "sections": _in_order([*fixed.sections, *added], shelves), "chars_read": fixed.chars_read + chars,
        "budget": fixed.budget + budget.max_chars, "not_opened": [n for n in fixed.not_opened if (n.shelf, n.section_id) not in new]})
    documents = sorted({r.doc_id for r in added} - {r.doc_id for r in fixed.sections})
    bridges = bridges[:BRIDGE_NAMES]
    trace.update(added=[r.section_id for r in added], added_documents=documents, chars_added=chars, hops=hops, bridging_names=bridges)
    line = (f"research mode: no model configured, so the model-free expansion ran: the fixed loop's reading plus "
            f"{count(budget.hops, 'hop')} along links and shared rare names added {count(len(added), 'section')} "
            f"({chars:,} characters)" + (f" from {count(len(documents), 'document')} the fixed loop did not read ({', '.join(documents[:5])})"
                                          if documents else "")
            + (f", joined by the rare name(s) {', '.join(bridges)}" if bridges else ""))
    return Research(reading, [line], trace, bridges)
