"""The answer driver: the only module that knows the order of the answering stages.

plan → recall → read → write → check → gate → complete, then the answer JSON
and its stored trace (paper §3.3-§3.4). After the plan, compare obligations that
name two versions of one series are answered from the computed change set
(``shelfwise.api.compare.compare_answer``); when every obligation is one, recall, read and write do
not run, otherwise the other obligations take the stages and the comparison is
put in its place. ``Pipeline`` holds the pluggable parts:
the planner model (or rules), the writer (the extractive writer, or the model
writer of models.writer), the claim checker (models.checker, required with a
model writer; without one, code verifies the extractive writer's quotes) and the gate.

A model server failure never fails the answer: a failed planner gives way to the
rules, a failed writer to the extractive writer (quoted sentences only), a failed
checker leaves its claims unchecked and so not shown; each says so in ``warnings``.
A model plan is validated against the question and the shelf (``shelfwise.api.reading.plan``), and a
model part that comes to nothing shown is filled with the extractive writer's
checked quotes (``shelfwise.api.draft.fallback``): a weak model never makes the answer worse than
the model-free one. Model calls and tokens are counted per request
(``shelfwise.compiler.models.counting``), so concurrent answers never record each other's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import SimpleNamespace

from shelfwise.api.compare.compare_answer import answer_comparisons, comparison_response, merge_comparisons
from shelfwise.api.present.complete import NOT_IN_DOCUMENTS, complete_answer
from shelfwise.api.draft.fallback import fill_failed_parts
from shelfwise.api.errors import AnswerTimeout, BadRequest
from shelfwise.api.draft.check import ClaimChecker, ModelJudge, require_checker
from shelfwise.api.reading.evidence import unheld_subjects, unstated_obligations
from shelfwise.api.draft.gate import Gated, gate, not_shown_line, verify_verbatim
from shelfwise.api.reading.plan import Plan, Vocabulary, plan_by_rules, plan_with_model
from shelfwise.api.draft.premise import correction_unit
from shelfwise.api.reading.read import ReadSection, read_sections
from shelfwise.api.reading.recall import recall_candidates
from shelfwise.api.research.research import research_model, research_reading, with_bridges
from shelfwise.api.present.render import render_markdown, sources_of
from shelfwise.api.schemas import AnswerSentence, AskRequest, AskResponse
from shelfwise.api.present.shape import shape_answer
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.draft.verdict import derive_verdicts
from shelfwise.api.trace import StepCost, Trace, TraceStore, new_trace_id, now_iso
from shelfwise.api.draft.write import COVERED, Draft, ExtractiveWriter, Writer
from shelfwise.api.draft.write_model import ModelWriter
from shelfwise.api.draft.select_model import SelectingWriter
from shelfwise.api.draft.rank_model import load_rank_model
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.models import ChatModel, ModelError, Usage, counting, make_client
from shelfwise.compiler.settings import Settings

__all__ = ["Pipeline", "build_pipeline", "chat_models", "answer_question", "document_scope"]

REFITS = 4
"""Times the answer is shaped again, to a tighter limit, when its Markdown (gap lines and footers included) is over
answer.max_answer_chars."""
REFIT_MARGIN = 60
"""Characters taken off the shaping limit beyond the excess on each refit."""
COMPARE_SHARE = 0.6
"""Share of answer.max_answer_chars a computed comparison's tables may take (the rest is for the other obligations)."""
COMPARE_LINES = 400
"""Characters kept for what the answer adds beside the comparison's own markdown (its mode line, ~190 characters, and
the paragraph breaks), with a margin."""
WRITTEN_SHARE = 0.85
"""Share of answer.max_answer_chars the extractive writer fills with quoted text; the size limit then trims the least relevant units."""

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
        SelectingWriter(chat["writer"], _extractive(settings)) if quoting else ModelWriter(chat["writer"]))
    return Pipeline(settings=settings, planner=chat.get("planner"), writer=writer, checker=checker)


def _distinct(units: list) -> list:
    """Shown units without repeats: a statement written twice, or two claims restated as the same sentence, shows once."""
    seen: set[tuple] = set()
    out = []
    for unit in units:
        key = (unit.obligation, " ".join(unit.text.split()).lower(), tuple(unit.citations))
        if unit.kind in ("heading", "connective", "table_header") or key not in seen:
            out.append(unit)
            seen.add(key)
    return out


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
    rules = plan_by_rules(request.question, request.history, documents, aliases, defined, cited, identities)
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
    return ExtractiveWriter(settings.answer.max_units_per_obligation, answer_chars=int(settings.answer.max_answer_chars * WRITTEN_SHARE),
                            model=load_rank_model(settings.answer.rank_weights))


def answer_question(
    pipeline: Pipeline,
    request: AskRequest,
    shelves: dict[str, OpenShelf],
    *,
    token: str,
    traces: TraceStore | None,
) -> AskResponse:
    """Answer ``request`` from ``shelves`` (already authorised for ``token``) and store the trace."""
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

    t = time.perf_counter()
    with counting() as usage:
        comparisons = answer_comparisons(plan, shelves, scope, chat=getattr(pipeline.writer, "chat", None),
                                         max_chars=int(settings.answer.max_answer_chars * COMPARE_SHARE))
    full_plan, rest = plan, list(range(len(plan.obligations)))
    if comparisons is not None:
        step("compare", t, usage)
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

    t = time.perf_counter()
    write_warnings: list[str] = []
    with counting() as usage:
        try:
            draft = pipeline.writer.write(plan, reading, shelves)
        except ModelError as exc:
            draft = _extractive(settings).write(plan, reading, shelves)
            write_warnings.append(f"{exc}; this answer quotes the documents (extractive writer) instead")
    write_warnings += getattr(draft, "notes", [])
    invented = [record.model_dump() for record in getattr(draft, "invented", [])]
    unanswered = set(getattr(draft, "unanswered", []))
    step("write", t, usage)

    t = time.perf_counter()
    with counting() as usage:
        draft = verify_verbatim(draft, shelves)
        if pipeline.checker is not None:
            draft = pipeline.checker(draft, shelves)
    step("check", t, usage)

    t = time.perf_counter()
    gated = pipeline.gate(draft)
    covered, fill_line, written = draft.covered, "", list(draft.units)
    if draft.writer != "extractive":
        filled = fill_failed_parts(plan, reading, shelves, draft, gated, _extractive(settings), unanswered=unanswered)
        gated, covered, fill_line = filled.gated, filled.covered, filled.line
        write_warnings += filled.warnings
        written += [u for u in (filled.fill_draft.units if filled.fill_draft else []) if u.obligation in filled.filled]
    unstated = unstated_obligations(plan, reading, shelves)
    about = set()
    for index, names in unheld_subjects(plan, gated.shown, shelves).items():  # what would be shown is about something else
        if index not in unstated:
            unstated[index] = names
            about.add(index)
    correction = correction_unit(plan.question, reading, shelves)
    checked = [u for u in _distinct(gated.shown) if u.obligation not in unstated]
    verbatim = draft.writer == "extractive" or getattr(draft, "verbatim", False)  # quotes only (a model may have chosen them)
    verdicts = derive_verdicts(plan.question, [(o.kind, o.ask) for o in plan.obligations], checked) if verbatim else []
    candidates = [*([correction] if correction else []), *verdicts, *checked]
    # the computed comparison shown beside these obligations takes its part of the size limit first
    room = settings.answer.max_answer_chars - (len(comparisons.markdown) + COMPARE_LINES if comparisons is not None else 0)
    room = max(room, settings.answer.max_answer_chars // 4)
    limit = room
    not_shown = "\n\n".join(line for line in (fill_line, not_shown_line(gated)) if line)
    for _ in range(REFITS):  # the gap lines and footers are known only once the answer is shaped: refit when over the limit
        shown, short = shape_answer(candidates, [o.ask for o in plan.obligations], shelves, max_chars=limit,
                                    extractive=draft.writer == "extractive")
        completion = complete_answer(plan, shown, covered, COVERED, unstated=unstated, short=short, about=about,
                                     false_premise=correction is not None)
        shown = shown if completion.label != "not_in_documents" else []
        quoted = draft.writer == "extractive" or (fill_line and all(u.id.startswith("x") for u in shown if u.kind != "heading"))
        mode = "model-free" if quoted else "model-chosen" if verbatim else "model"
        markdown = render_markdown(plan, shown, completion, shelves, mode, not_shown=not_shown)
        over = len(markdown) - room
        if over <= 0 or limit <= room // 2:
            break
        limit = max(limit - over - REFIT_MARGIN, room // 2)
    step("complete", t)

    trace_id = new_trace_id()
    if completion.label == "not_in_documents" and not markdown.startswith(NOT_IN_DOCUMENTS):
        markdown = f"{NOT_IN_DOCUMENTS}. {markdown}"
    response = AskResponse(
        answer_markdown=markdown,
        sentences=[AnswerSentence(text=u.text, citations=u.citations, shelf=u.shelf, kind=u.kind, obligation=u.obligation, status=u.status,
                                  source=u.source, superseded_by=u.superseded_by, cells=u.cells) for u in shown],
        not_covered=completion.gaps,
        label=completion.label,
        trace_id=trace_id,
        mode=pipeline.mode,
        models=pipeline.models,
        shelves=sorted(scope),
        resolved_question=plan.resolved_question,
        obligations=[o.model_dump() for o in completion.obligations],
        sources=sources_of(shown, shelves),
        not_shown=len(gated.removed),
        warnings=[*plan.warnings, *recall.warnings, *(research.warnings if research else []), *write_warnings, *getattr(draft, "warnings", [])],
        seconds=round(time.perf_counter() - started, 4),
    )
    if comparisons is not None:
        merged = merge_comparisons(response, full_plan, rest, comparisons, shelves)
        table_chars = int(settings.answer.max_answer_chars * COMPARE_SHARE)
        for _ in range(REFITS):  # the rest could not shrink to its room: the computed table gives way
            excess = len(merged.answer_markdown) - settings.answer.max_answer_chars
            table_chars -= excess + REFIT_MARGIN
            if excess <= 0 or comparisons.model_used or table_chars < settings.answer.max_answer_chars // 4:
                break
            smaller = answer_comparisons(full_plan, shelves, scope, chat=None, max_chars=table_chars)
            if smaller is None or smaller.obligations != comparisons.obligations:
                break
            comparisons, merged = smaller, merge_comparisons(response, full_plan, rest, smaller, shelves)
        response = merged
        written += comparisons.written
        gated = gated.model_copy(update={"removed": [*gated.removed, *comparisons.removed]})
    if traces is not None:
        traces.put(
            Trace(
                trace_id=trace_id,
                created=now_iso(),
                token=token,
                shelves=sorted(scope),
                question=request.question,
                history=[turn.question for turn in request.history],
                mode=pipeline.mode,
                models=pipeline.models,
                plan=full_plan.model_dump(),
                recall=[r.model_dump() for r in recall.obligations],
                read=[r.model_dump() for r in reading.sections] + (comparisons.read if comparisons else []),
                not_opened=[n.model_dump() for n in reading.not_opened],
                reading={**reading.model_dump(exclude={"sections", "not_opened"}), **({"compared": comparisons.pairs} if comparisons else {})},
                written=[u.model_dump() for u in written],
                removed=[r.model_dump() for r in gated.removed],
                checked=[c.model_dump() for c in getattr(draft, "claims", [])],
                warnings=response.warnings,
                invented_citations=invented,
                completion=completion.model_dump(),
                steps=steps,
                seconds=response.seconds,
                answer=response.model_dump(),
                research=research.trace if research else {},
            )
        )
    return response


def _store_compared(pipeline: Pipeline, request: AskRequest, shelves: dict[str, OpenShelf], scope, plan: Plan, comparisons,
                    traces: TraceStore | None, token: str, steps: list[StepCost], started: float) -> AskResponse:
    """The answer (and its trace) when every obligation is a comparison: recall, read and write do not run. The
    question's premise is checked against the compared documents as on the other path."""
    compared = SimpleNamespace(sections=[ReadSection.model_validate(r) for r in comparisons.read])
    correction = correction_unit(plan.question, compared, shelves)
    response = comparison_response(plan, comparisons, shelves, correction, trace_id=new_trace_id(), mode=pipeline.mode,
                                   models={**pipeline.models, "comparison": "code"}, shelves=sorted(scope),
                                   warnings=[*plan.warnings, *comparisons.warnings], seconds=round(time.perf_counter() - started, 4))
    if traces is not None:
        traces.put(Trace(
            trace_id=response.trace_id, created=now_iso(), token=token, shelves=sorted(scope), question=request.question,
            history=[turn.question for turn in request.history], mode=pipeline.mode, models=response.models,
            plan=plan.model_dump(), recall=[], read=comparisons.read, not_opened=[],
            reading={"budget": pipeline.settings.answer.reading_budget_chars, "chars_read": sum(r["chars"] for r in comparisons.read),
                     "scope_chars": sum(r["chars"] for r in comparisons.read), "whole_scope": False, "compared": comparisons.pairs},
            written=[u.model_dump() for u in comparisons.written], removed=[r.model_dump() for r in comparisons.removed],
            warnings=response.warnings, completion={"label": response.label, "obligations": response.obligations, "gaps": []},
            steps=steps, seconds=response.seconds, answer=response.model_dump(),
        ))
    return response
