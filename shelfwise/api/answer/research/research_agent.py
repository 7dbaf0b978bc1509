"""The research agent's loop (issue 18, paper §2 and §6.3): a tool-calling model decides what to search and open next.

``run_agent`` sends the question and the plan's parts to the model with the
tools of ``shelfwise.api.answer.research.research_tools``, runs each tool call it gets back over the store
and returns the result to the model, until the model calls ``finish`` or code
stops it: the step budget (``research.max_steps``), the character budget
(``research.max_chars``: an ``open_section`` that would pass it is not run), the
time budget (``research.max_seconds``) or a call identical to an earlier one (a
loop). A reply that is not a valid tool call (no tool call before anything was
opened, an unknown tool, arguments that are not a JSON object of the tool's
parameters) or a failed model call ends the run with ``error`` set; the caller
then falls back to the fixed loop. Every step is recorded: the tool, its
arguments, the result's size, the characters read so far, seconds and tokens.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.prompts import RESEARCH_SYSTEM, RESEARCH_USER
from shelfwise.api.answer.research.research_tools import TOOLS, StoreTools, ToolError
from shelfwise.compiler.models import ChatModel, ModelError, counting
from shelfwise.compiler.settings import ResearchSettings

__all__ = ["AgentRun", "run_agent"]

DOCUMENTS_SHOWN = 200
"""Documents listed (id: title) in the agent's first message."""
_NAMES = {tool["function"]["name"] for tool in TOOLS}


@dataclass
class AgentRun:
    """What one agent run opened, step by step, and why it stopped."""

    opened: list[tuple[str, str, int]] = field(default_factory=list)  # (shelf, section id, step that opened it)
    steps: list[dict] = field(default_factory=list)
    chars_read: int = 0
    stopped: str = ""
    error: str = ""
    notes: str = ""


def _first_message(plan: Plan, tools: StoreTools) -> str:
    documents = [f"{doc}: {tools.shelves[name].doc_name(doc)}" for name in sorted(tools.scope)
                 for doc in tools.shelves[name].doc_order() if doc in tools.scope[name]]
    more = f"\n… and {len(documents) - DOCUMENTS_SHOWN} more" if len(documents) > DOCUMENTS_SHOWN else ""
    parts = "\n".join(f"{n}. {o.ask}" for n, o in enumerate(plan.obligations, start=1))
    return RESEARCH_USER.format(question=plan.resolved_question or plan.question, parts=parts, shelves=", ".join(sorted(tools.scope)),
                                documents="\n".join(documents[:DOCUMENTS_SHOWN]) + more)


def _arguments(call: dict) -> dict:
    """The call's arguments as a dict; raises ValueError naming what is wrong."""
    if call["name"] not in _NAMES:
        raise ValueError(f"unknown tool {call['name']!r} (the tools are {', '.join(sorted(_NAMES))})")
    try:
        args = json.loads(call["arguments"] or "{}")
    except json.JSONDecodeError as exc:
        raise ValueError(f"the arguments of {call['name']} are not JSON ({exc.msg}): {call['arguments'][:120]!r}") from exc
    if not isinstance(args, dict):
        raise ValueError(f"the arguments of {call['name']} are not a JSON object: {call['arguments'][:120]!r}")
    return args


def run_agent(chat: ChatModel, tools: StoreTools, plan: Plan, budget: ResearchSettings) -> AgentRun:
    """Research ``plan``'s question with ``chat`` over ``tools`` within ``budget``."""
    run = AgentRun()
    messages: list[dict] = [{"role": "system", "content": RESEARCH_SYSTEM}, {"role": "user", "content": _first_message(plan, tools)}]
    seen: dict[str, int] = {}
    opened: set[tuple[str, str]] = set()
    started = time.monotonic()
    replies = 0
    while not run.stopped and not run.error:
        if len(run.steps) >= budget.max_steps:
            run.stopped = f"step budget: {budget.max_steps} tool calls made (research.max_steps)"
            break
        if time.monotonic() - started > budget.max_seconds:
            run.stopped = f"time budget: {budget.max_seconds:g} s spent (research.max_seconds)"
            break
        replies += 1
        t = time.perf_counter()
        with counting() as usage:
            try:
                reply = chat.call_tools(messages, TOOLS)
            except ModelError as exc:
                run.error = f"reply {replies}: {exc}"
                break
        cost = {"seconds": round(time.perf_counter() - t, 4), "prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens}
        if not reply["tool_calls"]:
            text = " ".join(str(reply["content"] or "").split())[:120]
            if run.opened:
                run.stopped = f"the model stopped calling tools at reply {replies} without finish ({text!r})"
            else:
                run.error = f"reply {replies} of model {chat.model} was not a tool call ({text!r})"
            break
        messages.append({"role": "assistant", "content": reply["content"],
                         "tool_calls": [{"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
                                        for c in reply["tool_calls"]]})
        for call in reply["tool_calls"]:
            if len(run.steps) >= budget.max_steps:
                run.stopped = f"step budget: {budget.max_steps} tool calls made (research.max_steps)"
                break
            step = _step(run, call, tools, opened, seen, budget, cost)
            cost = {"seconds": 0.0, "prompt_tokens": 0, "completion_tokens": 0}  # a reply's cost counts once, on its first call
            content = step.pop("_content", None)
            if run.stopped or run.error:
                break
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
    return run


def _step(run: AgentRun, call: dict, tools: StoreTools, opened: set[tuple[str, str]], seen: dict[str, int],
          budget: ResearchSettings, cost: dict) -> dict:
    """Run one tool call and record it as the next step; sets run.stopped or run.error when the run must end."""
    number = len(run.steps) + 1
    step = {"step": number, "tool": call["name"], "arguments": call["arguments"], "result_chars": 0, **cost}
    run.steps.append(step)
    try:
        args = _arguments(call)
    except ValueError as exc:
        run.error = step["error"] = f"step {number}: not a valid tool call: {exc}"
        return step
    step["arguments"] = args
    key = f"{call['name']}:{json.dumps(args, sort_keys=True)}"
    if key in seen:
        run.stopped = step["error"] = (f"stopped by code: step {number} repeats step {seen[key]} "
                                       f"({call['name']} {json.dumps(args, sort_keys=True)[:120]})")
        return step
    seen[key] = number
    if call["name"] == "finish":
        run.stopped, run.notes = "finish", str(args.get("notes", ""))[:500]
        step.update(chars_read=run.chars_read, _content=json.dumps({"finished": True}))
        return step
    if call["name"] == "open_section" and isinstance(args.get("id"), str):
        where = _section_of(tools, args["id"])
        if where is not None and where not in opened:
            cost_chars = tools.shelves[where[0]].chars(where[1])
            if run.chars_read + cost_chars > budget.max_chars:
                run.stopped = step["error"] = (f"character budget: opening {where[1]} ({cost_chars:,} characters) would pass "
                                               f"research.max_chars ({budget.max_chars:,}; {run.chars_read:,} read)")
                return step
    try:
        result = getattr(tools, call["name"])(**args)
    except TypeError as exc:
        run.error = step["error"] = f"step {number}: not a valid tool call: {call['name']} arguments {sorted(args)}: {exc}"
        return step
    except ToolError as exc:
        result = {"error": str(exc)}
        step["error"] = str(exc)
    if call["name"] == "open_section" and "error" not in result:
        where = (result["shelf"], result["id"])
        if where not in opened:
            opened.add(where)
            run.opened.append((*where, number))
            run.chars_read += tools.shelves[where[0]].chars(where[1])
    content = json.dumps(result, ensure_ascii=False)
    step.update(result_chars=len(content), chars_read=run.chars_read, _content=content)
    return step


def _section_of(tools: StoreTools, ident: str) -> tuple[str, str] | None:
    try:
        name, sid, _ = tools.locate(ident)
    except ToolError:
        return None
    return (name, sid) if sid else None
