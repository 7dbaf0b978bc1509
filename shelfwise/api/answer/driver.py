"""The answer driver: the only module that knows the order of the answering stages.

plan → recall → read → write → check, then what is shown (``SHOWN_STEPS``: gate, fallback, evidence, premise,
verdict, repeats, order, fit, each recording what it removed and why; ``shelfwise.api.answer.show.show``), then the
answer JSON and its stored trace (paper §3.3-§3.4). After the plan, compare obligations that
name two versions of one series are answered from the computed change set
(``shelfwise.api.answer.compare.compare_answer``); when every obligation is one, recall, read and write do
not run, otherwise the other obligations take the stages and the comparison is
put in its place. ``Pipeline`` holds the pluggable parts:
the planner model (or rules), the writer (the extractive writer, or the model
writer of models.writer), the claim checker (models.checker, required with a
model writer; without one, code verifies the extractive writer's quotes) and the gate.

A model server failure never fails the answer: a failed planner gives way to the
rules, a failed writer to the extractive writer (quoted sentences only), a failed
checker leaves its claims unchecked and so not shown; each says so in ``warnings``.
A model plan is validated against the question and the shelf (``shelfwise.api.answer.plan.plan``), and a
model part that comes to nothing shown is filled with the extractive writer's
checked quotes (``shelfwise.api.answer.check.fallback``): a weak model never makes the answer worse than
the model-free one. Model calls and tokens are counted per request
(``shelfwise.compiler.models.counting``), so concurrent answers never record each other's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import SimpleNamespace

from shelfwise.api.answer.compare.compare_answer import answer_comparisons, comparison_response, merge_comparisons
from shelfwise.api.answer.show import show
from shelfwise.api.answer.complete import NOT_IN_DOCUMENTS
from shelfwise.api.errors import AnswerTimeout, BadRequest
from shelfwise.api.answer.check.check import ClaimChecker, ModelJudge, require_checker
from shelfwise.api.answer.check.gate import Gated, gate, verify_verbatim
from shelfwise.api.answer.plan.plan import Plan, Vocabulary, plan_by_rules, plan_with_model
from shelfwise.api.answer.check.premise import correction_unit
from shelfwise.api.answer.read.read import ReadSection, read_sections
from shelfwise.api.answer.recall import recall_candidates
from shelfwise.api.answer.research.research import research_model, research_reading, with_bridges
from shelfwise.api.answer.render import sources_of
from shelfwise.api.schemas import AnswerSentence, AskRequest, AskResponse
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.trace import StepCost, Trace, TraceStore, new_trace_id, now_iso
from shelfwise.api.answer.write.write import ExtractiveWriter
from shelfwise.api.answer.records import Draft, Writer
from shelfwise.api.answer.write.write_model import ModelWriter
from shelfwise.api.answer.write.select_model import SelectingWriter
from shelfwise.api.answer.write.rank_model import load_rank_model
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.models import ChatModel, ModelError, Usage, counting, make_client
from shelfwise.compiler.settings import Settings

__all__ = ["Pipeline", "build_pipeline", "chat_models", "answer_question", "document_scope"]

COMPARE_LINES = 400
"""Characters kept for what the answer adds beside the comparison's own markdown (its mode line, ~190 characters, and
the paragraph breaks), with a margin."""

Checker = Callable[[Draft, dict[str, OpenShelf]], Draft]
"""A claim checker: sets each unit's status (supports, contradicts, not_found, unconfirmed) — issue 7."""


@dataclass
class Pipeline:
    """The answering parts, chosen from settings once."""

    settings: Settings
    planner: ChatModel | None
    writer: Writer
    checker: Checker | None = None
    gate: Callable[[Draft], Gated] = gate

    @property
    def models(self) -> dict[str, str]:
        return {
            "planner": self.planner.model if self.planner else "rules",
            "writer": self.writer.name,
            "checker": getattr(self.checker, "name", "checker") if self.checker else "verbatim quotes (code)",
            **({"writer_role": "select"} if isinstance(self.writer, SelectingWriter) else {}),
        }

    @property
    def mode(self) -> str:
        return "model" if self.planner or self.checker or self.writer.name != "extractive" else "model-free"


def chat_models(settings: Settings, *, http_client=None) -> dict[str, ChatModel]:
    """One ChatModel per answering role that settings.models names (planner, writer, checker)."""
    roles = {role: getattr(settings.models, role) for role in ("planner", "writer", "checker")}
    wanted = {role: model for role, model in roles.items() if model}
    if not wanted:
        return {}
    client = make_client(settings.models, http_client=http_client)
    return {role: ChatModel(client, model) for role, model in sorted(wanted.items())}


def build_pipeline(settings: Settings, chat: Mapping[str, ChatModel] | None) -> Pipeline:
    """The pipeline for ``settings`` with the role models in ``chat`` (role -> ChatModel)."""
    chat = dict(chat or {})
    quoting = settings.models.writer_role == "select"  # the writer model chooses quotes: no statement of its own to check
    if (settings.models.writer or "writer" in chat) and not quoting and not (settings.models.checker or "checker" in chat):
        require_checker(None)
    for role in ("planner", "writer", "checker"):
        if getattr(settings.models, role) and role not in chat:
            raise ShelfwiseError(f"models.{role} is set ({getattr(settings.models, role)}) but no {role} model was built from it; "
                                 f"set models.base_url to the model server, or remove models.{role} to answer without it")
    checker = ClaimChecker(ModelJudge(chat["checker"])) if "checker" in chat else None
    writer = _extractive(settings) if "writer" not in chat else (
        SelectingWriter(chat["writer"], _extractive(settings), batch=settings.models.select_batch,
                        lists=settings.models.select_lists) if quoting
        else ModelWriter(chat["writer"], budget_chars=settings.answer.tuning.model_writer_chars))
    return Pipeline(settings=settings, planner=chat.get("planner"), writer=writer, checker=checker)


def document_scope(request: AskRequest, shelves: dict[str, OpenShelf]) -> dict[str, set[str]]:
    """Shelf -> document ids the answer may read; raises BadRequest naming unknown document ids."""
    scope = {name: set(shelves[name].documents) for name in request.shelf_names()}
    if request.mode == "whole" or not request.documents:
        return scope
    wanted = set(request.documents)
    known = set().union(*scope.values())
    unknown = sorted(wanted - known)
    if unknown:
        raise BadRequest(
            f"unknown document id(s) {', '.join(unknown[:10])} in shelf(s) {', '.join(sorted(scope))}; "
            "GET /api/search or 'shelfwise documents SHELF' lists the ids"
        )
    return {name: docs & wanted for name, docs in scope.items()}


def _cited_documents(request: AskRequest, shelves: dict[str, OpenShelf]) -> list[str]:
    docs = []
    for turn in request.history:
        for sid in turn.citations:
            for shelf in shelves.values():
                if sid in shelf.sections:
                    docs.append(shelf.sections[sid].doc_id)
    return sorted(set(docs))


def _plan(pipeline: Pipeline, request: AskRequest, shelves: dict[str, OpenShelf], scope) -> Plan:
    documents = {d: shelves[n].doc_name(d) for n in scope for d in scope[n]}
    aliases = sorted({pair for n in scope for pair in shelves[n].aliases})
    defined = sorted({f.subject for n in scope for f in shelves[n].facts if f.kind == "definition" and 2 < len(f.subject) < 60})
    cited = [d for d in _cited_documents(request, shelves) if d in documents]
    identities = {d: shelves[n].identities[d] for n in scope for d in scope[n] if d in shelves[n].identities}
    files = {d: shelves[n].documents.get(d, {}).get("path", "") for n in scope for d in scope[n]}
    rules = plan_by_rules(request.question, request.history, documents, aliases, defined, cited, identities, files)
    if pipeline.planner is not None:
        vocabulary = Vocabulary()
        for name in sorted(scope):
            vocabulary = vocabulary.merged(_vocabulary(shelves[name]))
        try:
            return plan_with_model(pipeline.planner, request.question, request.history, documents, aliases,
                                   rules=rules, vocabulary=vocabulary)
        except ModelError as exc:
            rules.warnings.append(f"{exc}; this answer was planned by rules instead")
    return rules


def _vocabulary(shelf: OpenShelf) -> Vocabulary:
    """The words the shelf holds (titles, headings, text, ledger subjects, aliases), computed once per open shelf."""
    def make() -> Vocabulary:
        labels = {doc: [shelf.doc_name(doc),
                        *(" ".join(shelf.sections[sid].heading_path) for sid in shelf.doc_sections.get(doc, []))] for doc in shelf.documents}
        texts = [*(s.text for s in shelf.sections.values()), *(f.subject for f in shelf.facts), *(f"{a} {b}" for a, b in shelf.aliases)]
        return Vocabulary.of(texts, labels)
    return shelf.memo(("plan-vocabulary",), make)


def _extractive(settings: Settings) -> ExtractiveWriter:
    """The model-free writer as the model-free pipeline builds it (the fallback writes exactly what it would)."""
    tuning = settings.answer.tuning
    return ExtractiveWriter(settings.answer.max_units_per_obligation, answer_chars=int(settings.answer.max_answer_chars * tuning.written_share),
                            model=load_rank_model(settings.answer.rank_weights), tuning=tuning)


SHOWN_STEPS = (show.gate, show.fallback, show.evidence, show.premise, show.verdict, show.repeats, show.order, show.fit)
"""What is shown, in order (``shelfwise.api.answer.show.show``): each step takes what the one before it kept and returns
what it kept and removed, with the reason; the trace records every step."""


def answer_question(
    pipeline: Pipeline,
    request: AskRequest,
    shelves: dict[str, OpenShelf],
    *,
    token: str,
    traces: TraceStore | None,
    progress: Callable[[str, dict], None] | None = None,
) -> AskResponse:
    """Answer ``request`` from ``shelves`` (already authorised for ``token``) and store the trace. ``progress(stage,
    detail)`` is called as each stage completes (planned, compared, read, written, checked; a streamed answer shows
    them); an exception it raises stops the answer there, and no trace is stored."""
    report = progress or (lambda stage, detail: None)
    settings = pipeline.settings
    started = time.perf_counter()
    deadline = time.monotonic() + settings.api.answer_timeout_s
    steps: list[StepCost] = []

    def check_deadline(stage: str) -> None:
        if time.monotonic() > deadline:
            raise AnswerTimeout(f"the answer took longer than {settings.api.answer_timeout_s:g} s (api.answer_timeout_s) during {stage}; ask a narrower question or raise the limit")

    def step(name: str, since: float, usage: Usage | None = None) -> None:
        cost = StepCost(step=name, seconds=round(time.perf_counter() - since, 4))
        if usage is not None and usage.calls:
            cost = cost.model_copy(update={"model": ", ".join(sorted(usage.by_model)), "calls": usage.calls,
                                           "prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens})
        steps.append(cost)
        check_deadline(name)

    scope = document_scope(request, shelves)
    t = time.perf_counter()
    with counting() as usage:
        plan = _plan(pipeline, request, shelves, scope)
    step("plan", t, usage)
    report("planned", {"obligations": [{"kind": o.kind, "ask": o.ask} for o in plan.obligations]})

    t = time.perf_counter()
    with counting() as usage:
        comparisons = answer_comparisons(plan, shelves, scope, chat=getattr(pipeline.writer, "chat", None),
                                         max_chars=int(settings.answer.max_answer_chars * settings.answer.tuning.compare_share),
                                         max_pairs=settings.answer.tuning.compare_max_pairs)
    full_plan, rest = plan, list(range(len(plan.obligations)))
    if comparisons is not None:
        step("compare", t, usage)
        report("compared", {"obligations": len(comparisons.obligations), "pairs": len(comparisons.pairs)})
        rest = [i for i in rest if i not in comparisons.obligations]
        if not rest:
            return _store_compared(pipeline, request, shelves, scope, plan, comparisons, traces, token, steps, started)
        plan = plan.model_copy(update={"obligations": [plan.obligations[i] for i in rest]})

    t = time.perf_counter()
    recall = recall_candidates(plan, shelves, scope, depth=settings.answer.recall_depth, check_deadline=check_deadline)
    step("recall", t)

    t = time.perf_counter()
    reading = read_sections(recall, shelves, scope, budget=settings.answer.reading_budget_chars, hop_share=settings.answer.hop_share,
                            section_read_chars=settings.answer.section_read_chars)
    step("read", t)
    research = None
    if request.mode == "research":
        t = time.perf_counter()
        with counting() as usage:
            research = research_reading(research_model(pipeline), plan, recall, reading, shelves, scope, settings.research)
        reading = research.reading
        plan = with_bridges(plan, research.bridges)
        step("research", t, usage)
    report("read", {"sections": len(reading.sections), "documents": len({r.doc_id for r in reading.sections})})

    t = time.perf_counter()
    with counting() as usage:
        draft, write_warnings = _write(pipeline, plan, reading, shelves)
    step("write", t, usage)
    report("written", {"units": len(draft.units), "writer": draft.writer})

    t = time.perf_counter()
    with counting() as usage:
        draft = verify_verbatim(draft, shelves)
        if pipeline.checker is not None:
            draft = pipeline.checker(draft, shelves)
    step("check", t, usage)
    statuses = [u.status for u in draft.units]
    report("checked", {"units": len(statuses), "statuses": {s: statuses.count(s) for s in sorted(set(statuses))}})

    t = time.perf_counter()
    showing = _show(pipeline, plan, reading, shelves, draft, comparisons)
    step("complete", t)

    warnings = [*plan.warnings, *recall.warnings, *(research.warnings if research else []), *write_warnings, *showing.warnings,
                *draft.warnings]
    response = _response(pipeline, plan, showing, scope, shelves, warnings, started)
    if comparisons is not None:
        response, comparisons = _merge_compared(settings, response, full_plan, rest, comparisons, shelves, scope)
        showing.written += comparisons.written
        showing.gated = showing.gated.model_copy(update={"removed": [*showing.gated.removed, *comparisons.removed]})
        showing.steps.append(show.Shown(step="compare", kept=comparisons.units, removed=comparisons.removed))
    if traces is not None:
        traces.put(_trace(pipeline, request, token, full_plan, recall, reading, research, draft, showing, comparisons, steps, response))
    return response


def _trace(pipeline: Pipeline, request: AskRequest, token: str, plan: Plan, recall, reading, research, draft: Draft,
           showing: show.Showing, comparisons, steps: list[StepCost], response: AskResponse) -> Trace:
    """The stored account of one answer: what was planned, recalled, read, written, checked and shown, and why."""
    return Trace(
        trace_id=response.trace_id, created=now_iso(), token=token, shelves=response.shelves, question=request.question,
        history=[turn.question for turn in request.history], mode=pipeline.mode, models=pipeline.models,
        plan=plan.model_dump(), recall=[r.model_dump() for r in recall.obligations],
        read=[r.model_dump() for r in reading.sections] + (comparisons.read if comparisons else []),
        not_opened=[n.model_dump() for n in reading.not_opened],
        reading={**reading.model_dump(exclude={"sections", "not_opened"}), **({"compared": comparisons.pairs} if comparisons else {})},
        written=[u.model_dump() for u in showing.written], removed=[r.model_dump() for r in showing.gated.removed],
        shown_steps=[s.record() for s in showing.steps], shown=_shown_ids(showing.steps),
        checked=[c.model_dump() for c in draft.claims], warnings=response.warnings,
        invented_citations=[record.model_dump() for record in draft.invented], completion=showing.completion.model_dump(),
        steps=steps, seconds=response.seconds, answer=response.model_dump(), research=research.trace if research else {},
    )


def _write(pipeline: Pipeline, plan: Plan, reading, shelves: dict[str, OpenShelf]) -> tuple[Draft, list[str]]:
    """The writer's draft and its warnings; a failed model writer gives way to the extractive writer, saying so."""
    warnings: list[str] = []
    try:
        draft = pipeline.writer.write(plan, reading, shelves)
    except ModelError as exc:
        draft = _extractive(pipeline.settings).write(plan, reading, shelves)
        warnings.append(f"{exc}; this answer quotes the documents (extractive writer) instead")
    return draft, [*warnings, *draft.notes]


def _show(pipeline: Pipeline, plan: Plan, reading, shelves: dict[str, OpenShelf], draft: Draft, comparisons) -> show.Showing:
    """Run ``SHOWN_STEPS`` on the checked draft. A computed comparison shown beside these obligations takes its part
    of the size limit first."""
    settings = pipeline.settings
    room = settings.answer.max_answer_chars - (len(comparisons.markdown) + COMPARE_LINES if comparisons is not None else 0)
    showing = show.Showing(plan=plan, reading=reading, shelves=shelves, draft=draft, gate=pipeline.gate,
                           fill_writer=lambda: _extractive(settings), room=max(room, settings.answer.max_answer_chars // 4),
                           tuning=settings.answer.tuning)
    for shown_step in SHOWN_STEPS:
        showing.steps.append(shown_step(showing.shown, showing))
    return showing


def _shown_ids(records: list[show.Shown]) -> list[str]:
    """Ids of the units the answer shows: what the last step kept, and a computed comparison's units."""
    last = [s for s in records if s.step != "compare"][-1:]
    return [u.id for s in [*last, *(s for s in records if s.step == "compare")] for u in s.kept]


def _response(pipeline: Pipeline, plan: Plan, showing: show.Showing, scope, shelves: dict[str, OpenShelf], warnings: list[str],
              started: float) -> AskResponse:
    """The answer JSON of what is shown."""
    shown, completion, markdown = showing.shown, showing.completion, showing.markdown
    if completion.label == "not_in_documents" and not markdown.startswith(NOT_IN_DOCUMENTS):
        markdown = f"{NOT_IN_DOCUMENTS}. {markdown}"
    return AskResponse(
        answer_markdown=markdown,
        sentences=[AnswerSentence(text=u.text, citations=u.citations, shelf=u.shelf, kind=u.kind, obligation=u.obligation, status=u.status,
                                  source=u.source, superseded_by=u.superseded_by, cells=u.cells) for u in shown],
        not_covered=completion.gaps, label=completion.label, trace_id=new_trace_id(), mode=pipeline.mode, models=pipeline.models,
        shelves=sorted(scope), resolved_question=plan.resolved_question, obligations=[o.model_dump() for o in completion.obligations],
        sources=sources_of(shown, shelves), not_shown=len(showing.gated.removed), warnings=warnings,
        seconds=round(time.perf_counter() - started, 4),
    )


def _merge_compared(settings: Settings, response: AskResponse, full_plan: Plan, rest: list[int], comparisons,
                    shelves: dict[str, OpenShelf], scope) -> tuple[AskResponse, object]:
    """The answer with the computed comparison put in its place; when the rest could not shrink to its room, the
    computed table gives way (cut to a smaller share of answer.max_answer_chars)."""
    merged = merge_comparisons(response, full_plan, rest, comparisons, shelves)
    table_chars = int(settings.answer.max_answer_chars * settings.answer.tuning.compare_share)
    for _ in range(show.REFITS):
        excess = len(merged.answer_markdown) - settings.answer.max_answer_chars
        table_chars -= excess + show.REFIT_MARGIN
        if excess <= 0 or comparisons.model_used or table_chars < settings.answer.max_answer_chars // 4:
            break
        smaller = answer_comparisons(full_plan, shelves, scope, chat=None, max_chars=table_chars,
                                     max_pairs=settings.answer.tuning.compare_max_pairs)
        if smaller is None or smaller.obligations != comparisons.obligations:
            break
        comparisons, merged = smaller, merge_comparisons(response, full_plan, rest, smaller, shelves)
    return merged, comparisons


def _store_compared(pipeline: Pipeline, request: AskRequest, shelves: dict[str, OpenShelf], scope, plan: Plan, comparisons,
                    traces: TraceStore | None, token: str, steps: list[StepCost], started: float) -> AskResponse:
    """The answer (and its trace) when every obligation is a comparison: recall, read and write do not run. The
    question's premise is checked against the compared documents as on the other path."""
    compared = SimpleNamespace(sections=[ReadSection.model_validate(r) for r in comparisons.read])
    correction = correction_unit(plan.question, compared, shelves, pipeline.settings.answer.tuning)
    response = comparison_response(plan, comparisons, shelves, correction, trace_id=new_trace_id(), mode=pipeline.mode,
                                   models={**pipeline.models, "comparison": "code"}, shelves=sorted(scope),
                                   warnings=[*plan.warnings, *comparisons.warnings], seconds=round(time.perf_counter() - started, 4))
    if traces is not None:
        traces.put(Trace(
            trace_id=response.trace_id, created=now_iso(), token=token, shelves=response.shelves, question=request.question,
            history=[turn.question for turn in request.history], mode=pipeline.mode, models=response.models,
            plan=plan.model_dump(), recall=[], read=comparisons.read, not_opened=[],
            reading={"budget": pipeline.settings.answer.reading_budget_chars, "chars_read": sum(r["chars"] for r in comparisons.read),
                     "scope_chars": sum(r["chars"] for r in comparisons.read), "whole_scope": False, "compared": comparisons.pairs},
            written=[u.model_dump() for u in [*([correction] if correction else []), *comparisons.written]],
            removed=[r.model_dump() for r in comparisons.removed],
            shown_steps=[show.Shown(step="premise", kept=[correction] if correction else []).record(),
                         show.Shown(step="compare", kept=comparisons.units, removed=comparisons.removed).record()],
            shown=[u.id for u in [*([correction] if correction else []), *comparisons.units]],
            warnings=response.warnings, completion={"label": response.label, "obligations": response.obligations, "gaps": []},
            steps=steps, seconds=response.seconds, answer=response.model_dump(),
        ))
    return response
