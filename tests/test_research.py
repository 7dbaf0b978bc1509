"""Research mode (issue 18) on a generated bridge shelf: recorded tool-call conversations through the real openai client
(httpx.MockTransport), the loop and budgets stopped by code, a tool error, a reply that is not a tool call, and the
model-free expansion, each beside the fixed loop's reading."""

from __future__ import annotations

import json

import httpx
import pytest
from litestar.testing import TestClient

from answer_shelves import HashEmbedder
from shelfwise.api.answer import answer_question, build_pipeline, chat_models
from shelfwise.api.cli.actions import ask_command
from shelfwise.api.server.serve import make_app
from shelfwise.api.schemas import AskRequest
from shelfwise.api.shelves import close_shelves, open_shelves
from shelfwise.api.trace import TraceStore, format_trace
from bridge_shelf import QUESTION, bridge_build
from shelfwise.compiler.settings import Settings
from tests.claimshelf import Replay

RULE, RENAMING, EVENT = "s65c47f8cc9e", "sb1325b5f3bf", "sc378da22482"
"""Section ids of the bridge shelf's rule (Port Rules), renaming (Berth Renaming Notice) and event (Incident Log 2025)."""
BRIDGE_DOC = "berth-renaming-notice-md"
ROLES = {"planner": "planner-rec", "writer": "writer-rec", "checker": "checker-rec"}


class Models:
    """One mock model server: each request goes to the recording of the model it names."""

    def __init__(self, **recordings: str):
        self.replays = {ROLES[role]: Replay(name) for role, name in recordings.items()}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        return self.replays[json.loads(request.content)["model"]](request)


@pytest.fixture(scope="module")
def bridge(tmp_path_factory):
    return bridge_build(tmp_path_factory.mktemp("bridge"))


@pytest.fixture(scope="module")
def shelves(bridge):
    opened = open_shelves({"harbour": bridge}, HashEmbedder())
    yield opened
    close_shelves(opened)


def _ask(shelves, tmp_path, mode: str, models: Models | None = None, research: dict | None = None, roles=("planner",)):
    settings = Settings.model_validate({
        "models": {"base_url": "http://127.0.0.1:9/v1", "max_retries": 0, "timeout_s": 5, **{r: ROLES[r] for r in roles}} if models else {},
        "answer": {"reading_budget_chars": 2500}, "research": research or {}, "api": {"trace_db": str(tmp_path / "traces.sqlite")}})
    chat = chat_models(settings, http_client=httpx.Client(transport=httpx.MockTransport(models))) if models else {}
    traces = TraceStore(tmp_path / "traces.sqlite")
    try:
        answer = answer_question(build_pipeline(settings, chat), AskRequest(question=QUESTION, shelf="harbour", mode=mode), shelves,
                                 token="test", traces=traces)
        return answer, traces.get(answer.trace_id)
    finally:
        traces.close()


def _read(trace) -> set[str]:
    return {r["section_id"] for r in trace.read}


def test_fixed_loop_misses_the_bridging_document(shelves, tmp_path):
    answer, trace = _ask(shelves, tmp_path, "auto")
    assert {RULE, EVENT} <= _read(trace) and not any(r["doc_id"] == BRIDGE_DOC for r in trace.read)
    assert trace.research == {} and not any("research" in w for w in answer.warnings)


def test_agent_opens_and_cites_the_bridging_document(shelves, tmp_path):
    models = Models(planner="research_bridge", writer="research_bridge_write", checker="research_bridge_write")
    answer, trace = _ask(shelves, tmp_path, "research", models, roles=("planner", "writer", "checker"))
    research = trace.research
    assert research["ran"] == "agent" and research["model"] == "planner-rec" and research["stopped"] == "finish"
    assert research["opened"] == [RULE, EVENT, RENAMING] and _read(trace) == {RULE, EVENT, RENAMING}
    assert [r["why"] for r in trace.read] == [f"opened by the research agent at step {n}" for n in (7, 4, 2)]  # document order
    assert {sid for s in answer.sentences for sid in s.citations} == {RULE, RENAMING, EVENT}
    assert answer.sources and BRIDGE_DOC in {s.doc_id for s in answer.sources}
    assert BRIDGE_DOC not in research["fixed_loop"]["documents"]  # the fixed loop's reading, reported beside
    assert [s["tool"] for s in research["steps"]] == ["search", "open_section", "search", "open_section", "follow_links", "search",
                                                      "open_section", "finish"]
    assert all(s["result_chars"] > 0 for s in research["steps"][:-1]) and research["steps"][0]["prompt_tokens"] == 900
    assert research["chars_read"] == sum(shelves["harbour"].chars(s) for s in (RULE, EVENT, RENAMING)) <= research["budget"]["max_chars"]
    assert answer.warnings == ["research mode: the research agent (model planner-rec) opened 3 sections (413 characters) in 8 steps; "
                               "it called finish"]
    assert {s.step: s.calls for s in trace.steps}["research"] == 8
    shown = format_trace(trace)
    assert "research: agent (planner-rec); budget 12 steps, 60,000 characters, 60 s; the fixed loop read " in shown
    assert f'\n   7. open_section {{"id": "{RENAMING}"}} -> ' in shown and "\n   8. finish " in shown
    # Tool results are the store's content: the opened section's text goes back to the model verbatim.
    sent = models.replays["planner-rec"].requests[-1]["messages"]
    opened = [json.loads(m["content"]) for m in sent if m["role"] == "tool" and '"text"' in m["content"]]
    assert opened[-1]["id"] == RENAMING and opened[-1]["text"] == shelves["harbour"].sections[RENAMING].text
    found = json.loads([m for m in sent if m["role"] == "tool"][5]["content"])
    assert found["query"] == "Harbor Gate Wren Point berth name" and found["hits"][0]["id"] == RENAMING


def test_a_repeated_call_is_stopped_by_code(shelves, tmp_path):
    answer, trace = _ask(shelves, tmp_path, "research", Models(planner="research_loop"))
    research = trace.research
    assert research["stopped"] == 'stopped by code: step 3 repeats step 2 (search {"query": "spill", "shelf": "harbour"})'
    assert research["ran"] == "agent" and _read(trace) == {RULE} and len(research["steps"]) == 3
    assert answer.warnings[0].endswith("; " + research["stopped"])
    assert {sid for s in answer.sentences for sid in s.citations} == {RULE}


def test_a_tool_error_goes_back_to_the_model_and_the_run_goes_on(shelves, tmp_path):
    models = Models(planner="research_tool_error")
    answer, trace = _ask(shelves, tmp_path, "research", models)
    error = "no section or document 's000000000zz' in this answer's scope; use an id that search, an outline or a link gave"
    assert trace.research["steps"][0]["error"] == error and trace.research["stopped"] == "finish"
    assert json.loads(models.replays["planner-rec"].requests[2]["messages"][-1]["content"]) == {"error": error}
    assert _read(trace) == {RULE} and answer.label != "not_in_documents"


def test_budgets_are_never_exceeded(shelves, tmp_path):
    answer, trace = _ask(shelves, tmp_path, "research", Models(planner="research_budget"), research={"max_chars": 1000})
    research = trace.research
    assert research["stopped"].startswith("character budget: opening ") and "would pass research.max_chars (1,000;" in research["stopped"]
    assert 0 < research["chars_read"] <= 1000 == trace.reading["budget"] and trace.reading["chars_read"] == research["chars_read"]
    assert sum(r["chars"] for r in trace.read) == research["chars_read"]
    _, trace = _ask(shelves, tmp_path, "research", Models(planner="research_budget"), research={"max_steps": 2})
    assert trace.research["stopped"] == "step budget: 2 tool calls made (research.max_steps)" and len(trace.research["steps"]) == 2
    assert len(trace.read) == 2


def test_a_reply_that_is_not_a_tool_call_falls_back_to_the_fixed_loop(shelves, tmp_path):
    answer, trace = _ask(shelves, tmp_path, "research", Models(planner="research_not_tools"))
    assert trace.research["ran"] == "fixed loop (the research agent failed)"
    assert trace.research["error"] == "reply 1 of model planner-rec was not a tool call ('The spill was reported late.')"
    assert answer.warnings == ["research mode: the research agent (model planner-rec) failed: reply 1 of model planner-rec was not a "
                               "tool call ('The spill was reported late.'); this answer read what the fixed loop read instead"]
    assert _read(trace) == set(trace.research["fixed_loop"]["sections"])


def test_expansion_without_a_model_opens_the_bridging_document(shelves, tmp_path):
    answer, trace = _ask(shelves, tmp_path, "research")
    research = trace.research
    assert research["ran"] == "expansion" and research["added_documents"] == [BRIDGE_DOC] and RENAMING in _read(trace)
    assert BRIDGE_DOC not in research["fixed_loop"]["documents"]
    why = {r["section_id"]: r["why"] for r in trace.read}[RENAMING]
    assert why == "research expansion, hop 1: shares the rare name(s) Harbor Gate, Wren Point with what was read"
    assert research["bridging_names"] == ["Harbor Gate", "Wren Point"]
    assert answer.warnings == [
        "research mode: no model configured, so the model-free expansion ran: the fixed loop's reading plus 2 hops along links and "
        f"shared rare names added 1 section ({shelves['harbour'].chars(RENAMING)} characters) from 1 document the fixed loop did not "
        f"read ({BRIDGE_DOC}), joined by the rare name(s) Harbor Gate, Wren Point"]
    assert research["chars_added"] <= research["budget"]["max_chars"]
    assert answer.mode == "model-free" and {RULE, RENAMING, EVENT} <= {sid for s in answer.sentences for sid in s.citations}


def test_post_api_ask_in_research_mode(bridge, tmp_path):
    settings = Settings.model_validate({
        "build_dir": str(bridge.parent), "answer": {"reading_budget_chars": 2500},
        "models": {"base_url": "http://127.0.0.1:9/v1", "max_retries": 0, "timeout_s": 5, "planner": "planner-rec"},
        "api": {"tokens": [{"name": "harbour-desk", "token": "harbour-secret", "shelves": ["harbour"]}], "trace_db": str(tmp_path / "t.sqlite")}})
    client = httpx.Client(transport=httpx.MockTransport(Models(planner="research_tool_error")))
    with TestClient(make_app(["harbour"], settings, embedder=HashEmbedder(), http_client=client)) as api:
        auth = {"Authorization": "Bearer harbour-secret"}
        response = api.post("/api/ask", json={"question": QUESTION, "shelf": "harbour", "mode": "research"}, headers=auth)
        assert response.status_code == 200, response.text
        trace = api.get(f"/api/answers/{response.json()['trace_id']}", headers=auth).json()
    assert trace["research"]["ran"] == "agent" and [s["tool"] for s in trace["research"]["steps"]] == ["open_section", "open_section", "finish"]
    assert response.json()["warnings"][0].startswith("research mode: the research agent (model planner-rec) opened 1 section (")


def test_shelfwise_ask_research_without_a_model(bridge, tmp_path, capsys):
    settings = Settings.model_validate({"build_dir": str(bridge.parent), "answer": {"reading_budget_chars": 2500},
                                        "api": {"trace_db": str(tmp_path / "t.sqlite")}})
    assert ask_command("harbour", QUESTION, False, settings, embedder=HashEmbedder(), research=True) == 0
    out, err = capsys.readouterr()
    assert f"[{RULE}]" in out and "warning: research mode: no model configured, so the model-free expansion ran" in err


@pytest.mark.parametrize(("recording", "error"), [
    ("research_bad_arguments", "step 1: not a valid tool call: the arguments of open_section are not JSON (Expecting property name "
                               "enclosed in double quotes): '{id: s65c47f8cc9e'"),
    ("research_unknown_tool", "step 1: not a valid tool call: unknown tool 'answer' (the tools are finish, follow_links, ledger, "
                              "open_document_outline, open_section, search)"),
])
def test_an_invalid_tool_call_is_a_clear_trace_error_and_the_fixed_loop_reads(shelves, tmp_path, recording, error):
    answer, trace = _ask(shelves, tmp_path, "research", Models(planner=recording))
    assert trace.research["error"] == error and trace.research["steps"][0]["error"] == error
    assert trace.research["ran"] == "fixed loop (the research agent failed)"
    assert answer.warnings == [f"research mode: the research agent (model planner-rec) failed: {error}; "
                               "this answer read what the fixed loop read instead"]
    assert _read(trace) == set(trace.research["fixed_loop"]["sections"]) and {RULE, EVENT} <= _read(trace)


def test_the_documents_a_question_names_are_read_whatever_the_search_ranks_first(shelves, tmp_path):
    """The plan binds Port Rules and Incident Log 2025: recall adds their sections by BM25 within each ("bound"), and
    the reader opens each one's best section before the fused ranking's (the event, fourth or lower in the fusion here)."""
    _, trace = _ask(shelves, tmp_path, "auto")
    assert trace.recall[0]["routes"]["bound"] > 0
    assert shelves["harbour"].searcher.route_named(QUESTION, ["incident-log-2025-md"])[0] == EVENT
    assert EVENT in _read(trace) and {"port-rules-md", "incident-log-2025-md"} <= {r["doc_id"] for r in trace.read}


def test_a_name_the_reading_left_out_but_the_shelf_holds_is_no_gap(shelves):
    """A name no read section holds makes its part "not in these documents" ("No section of these documents mentions
    X"), unless the shelf's index holds it: research that stopped after the Port Rules left the Incident Log unread, and
    the documents do mention it. A name no section holds is such a gap."""
    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.read.evidence import on_shelves, read_shelves, unstated_obligations
    from shelfwise.api.answer.read.read import Reading, ReadSection

    harbour = shelves["harbour"]
    assert on_shelves("Incident Log", shelves) and on_shelves("Dredging Plan", shelves) and not on_shelves("CCTV", shelves)
    rule_only = Reading(budget=400_000, scope_chars=1, whole_scope=False, chars_read=harbour.chars(RULE), not_opened=[],
                        sections=[ReadSection(shelf="harbour", section_id=RULE, doc_id=harbour.sections[RULE].doc_id,
                                              chars=harbour.chars(RULE), why="research")])

    def unstated(question: str) -> dict:
        return unstated_obligations(plan_by_rules(question, [], {}, [], [], []), rule_only, shelves)

    assert unstated("Was the spill in the Incident Log reported in time?") == {}
    assert unstated("Was the spill at the CCTV mast reported in time?") == {0: ["CCTV"]}
    # only the shelves read from count: a word another shelf of the server holds is no word of these documents
    assert read_shelves(rule_only, {**shelves, "elsewhere": None}) == {"harbour": harbour}
    # an asked head the reading left out is a gap; that the shelf holds it elsewhere only changes what the gap line says
    assert unstated("What is the dredging depth of the approach channel?") == {0: ["dredging", "depth"]} and on_shelves("dredging depth", shelves)
