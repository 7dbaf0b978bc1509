"""The whole answering path with models: planner, writer and checker set in settings, their recorded replies played
through the real openai client (httpx.MockTransport), on a compiled tenant shelf, in-process and over POST /api/ask."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from litestar.testing import TestClient

from answer_shelves import HashEmbedder, tenant_builds
from shelfwise.api.answer import answer_question, build_pipeline, chat_models
from shelfwise.api.server.app import create_app
from shelfwise.api.schemas import AskRequest
from shelfwise.api.server.serve import make_app
from shelfwise.api.shelves import close_shelves, open_shelves
from shelfwise.api.terms import normalise
from shelfwise.api.trace import Trace, TraceStore, format_trace, unit_fates
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.settings import Settings
from tests.claimshelf import Replay

REFRESH, ACCESS = "s111ce4eec67", "s5e3526150c4"
"""Section ids of the alpha tenant's 'Refresh tokens' and 'Access tokens' sections (the recordings cite them)."""
ALPHA = {"Authorization": "Bearer alpha-secret"}
ROLES = {"planner": "planner-rec", "writer": "writer-rec", "checker": "checker-rec"}


class Roles:
    """One mock model server for all roles: each request goes to the recording of the model it names."""

    def __init__(self, **recordings: str):
        self.replays = {ROLES[role]: Replay(name) for role, name in recordings.items()}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        model = json.loads(request.content)["model"]
        if model not in self.replays:
            raise AssertionError(f"no recording for model {model!r}")
        return self.replays[model](request)

    def calls(self, role: str) -> int:
        replay = self.replays.get(ROLES[role])
        return len(replay.requests) if replay else 0

    def client(self) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self))


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("tenants")
    return root / "build", tenant_builds(root / "build", root / "shelves")


@pytest.fixture(scope="module")
def shelves(builds):
    opened = open_shelves({"alpha": builds[1]["alpha"]}, HashEmbedder())
    yield opened
    close_shelves(opened)


def _settings(tmp_path, build_dir=None, **models) -> Settings:
    roles = {role: ROLES[role] for role in ("planner", "writer", "checker")} if not models else models
    return Settings.model_validate({
        **({"build_dir": str(build_dir)} if build_dir else {}),
        "models": {"base_url": "http://127.0.0.1:9/v1", "max_retries": 2, "timeout_s": 5, **roles},
        "api": {"tokens": [{"name": "alpha-widget", "token": "alpha-secret", "shelves": ["alpha"]}],
                "trace_db": str(tmp_path / "traces.sqlite")},
    })


def _ask(shelves, tmp_path, roles: Roles, question: str, **models):
    """Ask on the alpha shelf with the roles ``models`` names (all three when none)."""
    settings = _settings(tmp_path, **models)
    pipeline = build_pipeline(settings, chat_models(settings, http_client=roles.client()))
    traces = TraceStore(tmp_path / "traces.sqlite")
    try:
        answer = answer_question(pipeline, AskRequest(question=question, shelf="alpha"), shelves, token="test", traces=traces)
        return answer, traces.get(answer.trace_id)
    finally:
        traces.close()


def _quoted_or_checked(answer, trace, shelf):
    """Every displayed sentence is verbatim in a cited section, or its checked claim's span is."""
    spans = {c["unit_id"]: c["span"] for c in trace.checked if c["verdict"] in ("supports", "restated", "verbatim")}
    written = {u["text"]: u["id"] for u in trace.written}
    for sentence in answer.sentences:
        if sentence.kind in ("heading", "connective"):
            continue
        texts = [normalise(shelf.sections[sid].text) for sid in sentence.citations]
        evidence = normalise(spans.get(written.get(sentence.text), sentence.text))
        assert sentence.citations and any(evidence in t for t in texts), sentence


def test_supported_answer_shows_checked_sentences_with_citations(shelves, tmp_path):
    roles = Roles(planner="e2e_plan_two", writer="e2e_write_supported", checker="e2e_check_supported")
    answer, trace = _ask(shelves, tmp_path, roles, "How long do refresh and access tokens last, and what happens at logout?")
    assert answer.mode == "model" and answer.models == ROLES
    assert answer.label == "complete" and answer.not_shown == 0 and not answer.warnings
    shown = {s.text: s for s in answer.sentences}
    assert shown["A refresh token expires after 30 days."].status == "supports"
    assert shown["An access token expires after 15 minutes."].citations == [ACCESS]
    assert shown["A refresh token is revoked when the user logs out."].status == "verbatim"
    md = answer.answer_markdown
    assert md.startswith("### Refresh tokens and access tokens\n\n")
    assert f"A refresh token expires after 30 days. [{REFRESH}] An access token expires after 15 minutes. [{ACCESS}]" in md
    assert "\n\nIn short:\n\n- A refresh token is revoked when the user logs out. [" in md
    assert "could not be verified" not in md and "_Written by a model; every statement shown was checked" in md
    assert not any(u["id"].startswith("x") for u in trace.written)  # nothing was filled by the extractive writer
    _quoted_or_checked(answer, trace, shelves["alpha"])
    # The trace holds every claim with its verdict and span, and the token cost of each model step.
    assert {c["text"]: c["verdict"] for c in trace.checked} == {
        "A refresh token expires after 30 days.": "supports", "An access token expires after 15 minutes.": "supports",
        "A refresh token is revoked when the user logs out.": "verbatim"}
    steps = {s.step: s for s in trace.steps}
    assert (steps["plan"].model, steps["plan"].prompt_tokens, steps["plan"].completion_tokens) == ("planner-rec", 700, 120)
    assert (steps["write"].model, steps["write"].calls, steps["write"].prompt_tokens) == ("writer-rec", 1, 1500)
    assert (steps["check"].model, steps["check"].calls, steps["check"].completion_tokens) == ("checker-rec", 2, 60)
    assert roles.calls("checker") == 2
    # The checker saw each reworded claim with the text of the section it cites, not the verbatim one.
    first = roles.replays["checker-rec"].messages(0)
    assert "A refresh token expires after 30 days." in first and "Refresh tokens expire after 30 days." in first
    assert "revoked" not in first.split("Claims:")[1]
    assert "checked 3 claims: supports 2, verbatim 1" in format_trace(trace)


def test_contradicted_claim_is_removed_recorded_and_counted(shelves, tmp_path):
    roles = Roles(planner="e2e_plan_one", writer="e2e_write_contradicted", checker="e2e_check_contradicted")
    answer, trace = _ask(shelves, tmp_path, roles, "How long do refresh tokens and access tokens last?")
    assert "60 days" not in answer.answer_markdown
    assert [s.text for s in answer.sentences] == ["Access tokens expire after 15 minutes."]
    assert "1 statement could not be verified and is not shown." in answer.answer_markdown
    assert answer.not_shown == 1
    (removed,) = trace.removed
    assert removed["stage"] == "check" and removed["unit"]["text"] == "Refresh tokens expire after 60 days."
    assert removed["reason"].startswith("contradicts: the cited section says otherwise") and "30 days" in removed["reason"]
    claim = next(c for c in trace.checked if c["text"] == "Refresh tokens expire after 60 days.")
    assert claim["verdict"] == "contradicts" and claim["span"] == "Refresh tokens expire after 30 days."


def test_a_lying_checker_cannot_get_a_false_statement_shown(shelves, tmp_path):
    roles = Roles(planner="e2e_plan_one", writer="e2e_write_lying", checker="e2e_check_lying")
    answer, trace = _ask(shelves, tmp_path, roles, "How long do refresh tokens and access tokens last?")
    md = answer.answer_markdown
    assert "90 days" not in md and "vault" not in md
    # The 90-day claim is shown in the section's own words (the second look); the vault claim is not shown.
    assert [(s.text, s.status) for s in answer.sentences] == [
        ("Refresh tokens expire after 30 days.", "restated"), ("Access tokens expire after 15 minutes.", "verbatim")]
    assert "1 statement could not be verified and is not shown." in md
    by_text = {c["text"]: c for c in trace.checked}
    assert "quotes a span that is not in the cited section" in by_text["Refresh tokens expire after 90 days."]["reason"]
    vault = by_text["Refresh tokens are stored in the vault."]
    assert vault["verdict"] == "unconfirmed" and "not in the cited section" in vault["reason"]
    assert [r["unit"]["text"] for r in trace.removed] == ["Refresh tokens are stored in the vault."]
    _quoted_or_checked(answer, trace, shelves["alpha"])


@pytest.fixture
def api(builds, tmp_path):
    """POST /api/ask on an app built from settings (make_app, as `shelfwise serve` builds it) over one mock model server."""
    def start(roles: Roles) -> TestClient:
        app = make_app(["alpha"], _settings(tmp_path, build_dir=builds[0]), embedder=HashEmbedder(), http_client=roles.client())
        return TestClient(app)
    return start


def test_planner_429_and_writer_timeout_500_give_a_quoted_answer_with_warnings(api):
    roles = Roles(planner="e2e_plan_rate_limited", writer="e2e_write_down", checker="e2e_check_down")
    with api(roles) as client:
        response = client.post("/api/ask", json={"question": "How long do refresh tokens last?", "shelf": "alpha"}, headers=ALPHA)
        assert response.status_code == 200, response.text
        answer = response.json()
        trace = client.get(f"/api/answers/{answer['trace_id']}", headers=ALPHA).json()
    assert (roles.calls("planner"), roles.calls("writer"), roles.calls("checker")) == (3, 3, 0)
    planner_warning, writer_warning = answer["warnings"]
    assert "planner-rec failed: RateLimitError" in planner_warning and "planned by rules instead" in planner_warning
    assert "writer-rec failed" in writer_warning and "extractive writer" in writer_warning
    assert "Refresh tokens expire after 30 days." in [s["text"] for s in answer["sentences"]]
    assert all(s["status"] == "verbatim" for s in answer["sentences"])
    assert "_Model-free answer: every sentence above is quoted" in answer["answer_markdown"]
    assert trace["warnings"] == answer["warnings"] and trace["plan"]["planner"] == "rules"


def test_writer_429_is_retried_and_a_failed_checker_leaves_a_clear_partial_answer(api):
    roles = Roles(planner="e2e_plan_one", writer="e2e_write_after_429", checker="e2e_check_down")
    with api(roles) as client:
        response = client.post("/api/ask", json={"question": "How long do refresh tokens and access tokens last?", "shelf": "alpha"},
                               headers=ALPHA)
        assert response.status_code == 200, response.text
        answer = response.json()
        trace = client.get(f"/api/answers/{answer['trace_id']}", headers=ALPHA).json()
    assert (roles.calls("writer"), roles.calls("checker")) == (2, 3)
    assert [s["text"] for s in answer["sentences"]] == ["Refresh tokens expire after 30 days."]
    assert "1 statement could not be verified and is not shown." in answer["answer_markdown"]
    (warning,) = answer["warnings"]
    assert "checker-rec failed: APITimeoutError" in warning or "checker-rec failed: InternalServerError" in warning
    assert "1 claim(s) could not be checked and are not shown" in warning
    (removed,) = trace["removed"]
    assert removed["unit"]["text"] == "An access token expires after 15 minutes." and "the checker model failed" in removed["reason"]


def test_a_model_writer_without_a_checker_is_a_settings_error_naming_models_checker(builds, tmp_path):
    settings = _settings(tmp_path, build_dir=builds[0], writer="writer-rec")
    client = Roles().client()
    with pytest.raises(ShelfwiseError, match=r"models\.checker"):
        build_pipeline(settings, chat_models(settings, http_client=client))
    with pytest.raises(ShelfwiseError, match=r"models\.checker"):
        create_app(settings, chat=chat_models(settings, http_client=client), embedder=HashEmbedder(), stores={"alpha": builds[1]["alpha"]})
    with pytest.raises(ShelfwiseError, match=r"models\.checker"):
        make_app(["alpha"], settings, embedder=HashEmbedder(), http_client=client)
    # A role set in settings but given no model is an error too, never a silent model-free answer.
    with pytest.raises(ShelfwiseError, match=r"models\.planner is set"):
        build_pipeline(_settings(tmp_path, planner="planner-rec"), None)


def test_a_statement_written_twice_is_shown_once(shelves, tmp_path):
    roles = Roles(planner="e2e_plan_one", writer="e2e_write_repeated", checker="e2e_check_down")
    answer, trace = _ask(shelves, tmp_path, roles, "How long do refresh tokens and access tokens last?")
    assert [s.text for s in answer.sentences] == ["Refresh tokens expire after 30 days.", "Access tokens expire after 15 minutes."]
    assert answer.answer_markdown.count("30 days") == 1 and answer.not_shown == 0 and roles.calls("checker") == 0
    assert len(trace.written) == 3


WRITER_ONLY = {"writer": ROLES["writer"], "checker": ROLES["checker"]}
"""A model writer and checker, planned by rules: the plan is the model-free pipeline's, so the answers compare."""
LIFETIMES = "How long do refresh tokens and access tokens last?"


def _model_free(shelves, tmp_path, question: str):
    settings = Settings.model_validate({"api": {"trace_db": str(tmp_path / "free.sqlite")}})
    return answer_question(build_pipeline(settings, None), AskRequest(question=question, shelf="alpha"), shelves, token="test", traces=None)


def test_a_writer_citing_nothing_gives_the_model_free_quotes_and_says_so_never_not_in_documents(shelves, tmp_path):
    roles = Roles(writer="e2e_write_uncited", checker="e2e_check_down")
    answer, trace = _ask(shelves, tmp_path, roles, LIFETIMES, **WRITER_ONLY)
    free = _model_free(shelves, tmp_path, LIFETIMES)
    assert free.label != "not_in_documents" and free.sentences
    assert answer.label == free.label and answer.not_covered == free.not_covered
    assert [(s.text, s.citations, s.status) for s in answer.sentences] == [(s.text, s.citations, s.status) for s in free.sentences]
    line = "The model's draft cited nothing, so the documents' own sentences are shown instead."
    removed = "2 statements could not be verified and are not shown."
    md = answer.answer_markdown
    assert not md.startswith("This is not in these documents") and f"{line}\n\n{removed}" in md
    assert md.replace(f"{line}\n\n{removed}\n\n", "") == free.answer_markdown  # the model-free answer, plus the two lines
    assert answer.warnings == [f"the model's text for part 1 ({LIFETIMES.rstrip('?')!r}) could not be used: none of its 2 statement(s) could "
                               "be verified (first: it cites no section); the documents' own sentences are shown for it instead"]
    assert [r["reason"].split(" carries")[0] for r in trace.removed] == ["unchecked connective"] * 2
    assert roles.calls("checker") == 0 and [u["id"][0] for u in trace.written] == ["u", "u"] + ["x"] * (len(trace.written) - 2)


def test_only_the_part_whose_model_text_failed_is_filled_and_the_line_names_it(shelves, tmp_path):
    roles = Roles(writer="e2e_write_half_cited", checker="e2e_check_down")
    answer, _ = _ask(shelves, tmp_path, roles, "How long do refresh tokens last, and how long are backups kept?", **WRITER_ONLY)
    assert [(s.obligation, s.text, s.status) for s in answer.sentences] == [
        (0, "Refresh tokens expire after 30 days.", "verbatim"), (1, "Backups are kept for 35 days.", "verbatim")]
    assert ("The model's text for \u201chow long are backups kept\u201d cited nothing, so the documents' own sentences "
            "are shown for it instead.") in answer.answer_markdown
    assert "_Written by a model; every statement shown was checked" in answer.answer_markdown  # part 1 is the model's
    assert answer.warnings == ["the model's text for part 2 ('how long are backups kept') could not be used: none of its 1 "
                               "statement(s) could be verified (first: it cites no section); the documents' own sentences are "
                               "shown for it instead"]


def test_a_writer_saying_not_in_documents_for_a_part_the_sections_state_is_filled(shelves, tmp_path):
    roles = Roles(writer="e2e_write_said_not_in", checker="e2e_check_down")
    answer, _ = _ask(shelves, tmp_path, roles, LIFETIMES, **WRITER_ONLY)
    assert answer.label != "not_in_documents" and "Refresh tokens expire after 30 days." in [s.text for s in answer.sentences]
    (warning,) = answer.warnings
    assert "the model said the documents do not answer it, but the sections read state its terms" in warning


@pytest.mark.parametrize("writer", ["e2e_write_uncited", "e2e_write_half_cited", "e2e_write_said_not_in", "e2e_write_invented"])
def test_every_model_unit_and_fallback_quote_not_shown_names_its_step_and_reason(shelves, tmp_path, writer):
    """Issue 33's floor on the model path: the model's units, the fallback's quotes (origin 'fallback') and the computed
    ones are each shown, or a step of what is shown recorded why not."""
    roles = Roles(writer=writer, checker="e2e_check_down")
    answer, trace = _ask(shelves, tmp_path, roles, "How long do refresh tokens last, and how long are backups kept?", **WRITER_ONLY)
    fates = unit_fates(trace)
    assert fates and all(shown or removals for _, shown, removals in fates), [u["id"] for u, s, r in fates if not (s or r)]
    assert len(trace.shown) == len(answer.sentences)
    filled = [u for u, _, _ in fates if u["origin"] == "fallback"]
    assert filled and all(u["id"].startswith("x") for u in filled)  # each writer leaves a part to the fallback here


def test_an_out_of_corpus_question_stays_not_in_documents_with_a_model_writer(shelves, tmp_path):
    roles = Roles(writer="e2e_write_said_not_in", checker="e2e_check_down")
    answer, _ = _ask(shelves, tmp_path, roles, "What is the warranty of the zeppelin?", **WRITER_ONLY)
    assert answer.label == "not_in_documents" and answer.sentences == [] and answer.warnings == []


def test_invented_citation_ids_are_dropped_and_named_in_the_warnings_and_the_trace(shelves, tmp_path):
    roles = Roles(writer="e2e_write_invented", checker="e2e_check_down")
    answer, trace = _ask(shelves, tmp_path, roles, LIFETIMES, **WRITER_ONLY)
    assert [(s.text, s.citations) for s in answer.sentences] == [("Refresh tokens expire after 30 days.", [REFRESH])]
    assert answer.warnings == [
        "the model writer cited section id(s) s0badbadbad1 that it was not given, in u1 'Refresh tokens expire after 30 days.'; "
        "those citations were dropped",
        "the model writer cited section id(s) s0deadbeef00 that it was not given, in u2 'Access tokens expire after 15 minutes.'; "
        "it cites nothing else and is not shown"]
    assert trace.warnings == answer.warnings
    assert trace.invented_citations == [  # the same, as fields
        {"unit": "u1", "text": "Refresh tokens expire after 30 days.", "ids": ["s0badbadbad1"], "kept": [REFRESH]},
        {"unit": "u2", "text": "Access tokens expire after 15 minutes.", "ids": ["s0deadbeef00"], "kept": []}]
    assert [(r["unit"]["text"], r["reason"]) for r in trace.removed] == [("Access tokens expire after 15 minutes.", "cites no section")]


def test_a_trace_with_no_invented_citations_records_none_and_an_older_trace_body_still_reads(shelves, tmp_path):
    roles = Roles(writer="e2e_write_refresh", checker="e2e_check_down")
    _, trace = _ask(shelves, tmp_path, roles, LIFETIMES, **WRITER_ONLY)
    assert trace.invented_citations == []
    older = trace.model_dump(exclude={"invented_citations"})  # a trace stored before the field existed
    assert Trace.model_validate(older).invented_citations == []


def test_a_planner_inventing_a_target_and_a_document_is_overruled_by_the_rules_with_a_warning(shelves, tmp_path):
    roles = Roles(planner="e2e_plan_invented", writer="e2e_write_refresh", checker="e2e_check_down")
    answer, trace = _ask(shelves, tmp_path, roles, "How long do refresh tokens last?")
    assert answer.warnings == [
        "planner model planner-rec named what neither the question, the earlier turns nor the shelf holds, dropped: "
        "target 'RFC 6749', target 'backup-procedure-md', document 'backup-procedure-md' (obligation 1); "
        "the rule planner's targets and documents are used there instead"]
    (obligation,) = trace.plan["obligations"]
    assert trace.plan["planner"] == "planner-rec" and obligation["documents"] == []
    assert obligation["targets"] == ["refresh token", "refresh", "tokens", "last"]
    assert [s.text for s in answer.sentences] == ["Refresh tokens expire after 30 days."] and answer.label == "complete"


@pytest.mark.parametrize(("recording", "words"), [
    ("e2e_plan_garbage", "planner model planner-rec returned an unusable plan: Expecting value: line 1 column 1 (char 0); "
                         "this answer was planned by rules instead"),
    ("e2e_plan_nothing_named", "planner model planner-rec planned nothing the question or the shelf names (obligation 1 "
                               "('Describe OAuth grants': target 'RFC 6749', target 'grant flows')); this answer was planned by rules instead"),
])
def test_an_unusable_or_unfounded_model_plan_gives_the_rule_plan(shelves, tmp_path, recording, words):
    roles = Roles(planner=recording, writer="e2e_write_refresh", checker="e2e_check_down")
    answer, trace = _ask(shelves, tmp_path, roles, "How long do refresh tokens last?")
    assert answer.warnings == [words] and trace.plan["planner"] == "rules"
    assert [s.text for s in answer.sentences] == ["Refresh tokens expire after 30 days."]


def test_concurrent_asks_on_two_shelves_each_count_only_their_own_tokens(builds, tmp_path):
    """Two requests in flight at once on one pipeline (one ChatModel per role): each trace holds its own tokens."""
    replays = {(role, shelf): Replay(name) for (role, shelf), name in {
        ("planner", "alpha"): "e2e_plan_one", ("planner", "beta"): "e2e_plan_beta",
        ("writer", "alpha"): "e2e_write_refresh", ("writer", "beta"): "e2e_write_beta"}.items()}
    together = threading.Barrier(2, timeout=20)

    def serve(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        role = {v: k for k, v in ROLES.items()}[body["model"]]
        shelf = "beta" if "beta-secrets-md" in request.content.decode() or "Zephyr" in request.content.decode() else "alpha"
        together.wait()  # both requests are inside the same model call before either is answered
        return replays[(role, shelf)](request)

    settings = _settings(tmp_path)
    pipeline = build_pipeline(settings, chat_models(settings, http_client=httpx.Client(transport=httpx.MockTransport(serve))))
    opened = open_shelves(builds[1], HashEmbedder())
    traces = TraceStore(tmp_path / "traces.sqlite")
    questions = {"alpha": "How long do refresh tokens last?", "beta": "What is the launch code of project Zephyr?"}
    try:
        with ThreadPoolExecutor(2) as pool:
            answers = dict(zip(questions, pool.map(lambda item: answer_question(
                pipeline, AskRequest(question=item[1], shelf=item[0]), opened, token="test", traces=traces), questions.items())))
        costs = {name: {s.step: (s.calls, s.prompt_tokens, s.completion_tokens) for s in traces.get(a.trace_id).steps}
                 for name, a in answers.items()}
    finally:
        traces.close()
        close_shelves(opened)
    assert [s.text for s in answers["beta"].sentences] == ["The launch code of project Zephyr is 7741."]
    assert (costs["alpha"]["plan"], costs["alpha"]["write"]) == ((1, 700, 80), (1, 1300, 20))
    assert (costs["beta"]["plan"], costs["beta"]["write"]) == ((1, 7, 1), (1, 13, 2))
    assert costs["alpha"]["check"] == costs["beta"]["check"] == (0, 0, 0)  # verbatim quotes: no checker call
    assert pipeline.planner.prompt_tokens == 707  # the shared model's own total still counts both
