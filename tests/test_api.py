"""The HTTP API through Litestar's TestClient over two small compiled tenants: isolation, bad requests, traces."""

from __future__ import annotations

import json

import pytest
from litestar.testing import TestClient

from answer_shelves import HashEmbedder, tenant_builds
from shelfwise.api.server.app import create_app
from shelfwise.compiler.settings import Settings

ALPHA = {"Authorization": "Bearer alpha-secret"}
BETA = {"Authorization": "Bearer beta-secret"}
WRONG = {"Authorization": "Bearer not-a-token"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("tenants")
    return tenant_builds(root / "build", root / "shelves")


def _settings(tmp_path, **api) -> Settings:
    return Settings.model_validate(
        {
            "api": {
                "tokens": [
                    {"name": "alpha-widget", "token": "alpha-secret", "shelves": ["alpha"]},
                    {"name": "beta-widget", "token": "beta-secret", "shelves": ["beta"]},
                ],
                "trace_db": str(tmp_path / "traces.sqlite"),
                "cors_origins": ["https://docs.example.org"],
                **api,
            }
        }
    )


@pytest.fixture
def client(builds, tmp_path):
    app = create_app(_settings(tmp_path), chat=None, embedder=HashEmbedder(), stores=builds)
    with TestClient(app) as test_client:
        yield test_client


def _ask(client, question, headers=ALPHA, shelf="alpha", **extra):
    return client.post("/api/ask", json={"question": question, "shelf": shelf, **extra}, headers=headers)


def _no_leak(response) -> None:
    text = response.text
    assert "Traceback" not in text and 'File "' not in text
    assert "Zephyr" not in text and "7741" not in text and "12 characters" not in text


def test_ask_answers_with_verbatim_cited_sentences_and_stores_the_trace(client, builds):
    response = _ask(client, "How long do refresh tokens last before they expire?")
    assert response.status_code == 200
    body = response.json()
    assert body["label"] == "complete" and body["mode"] == "model-free"
    texts = [s["text"] for s in body["sentences"]]
    assert "Refresh tokens expire after 30 days." in texts
    for source in body["sources"]:  # each cited section with its anchor and where it is read (no site built: the API)
        assert source["anchor"] == source["section_id"]
        assert source["url"] == f"http://testserver.local/api/sections/{source['section_id']}?shelf=alpha"
    for sentence in body["sentences"]:
        section = client.get(f"/api/sections/{sentence['citations'][0]}", headers=ALPHA).json()
        assert " ".join(sentence["text"].split()) in " ".join(section["text"].split())
    trace = client.get(f"/api/answers/{body['trace_id']}", headers=ALPHA)
    assert trace.status_code == 200
    stored = trace.json()
    assert stored["models"]["writer"] == "extractive" and stored["mode"] == "model-free"
    assert [s["step"] for s in stored["steps"]] == ["plan", "recall", "read", "write", "check", "complete"]
    assert stored["reading"]["whole_scope"] is True and stored["read"]
    assert stored["recall"][0]["routes"]["bm25"] >= 1


@pytest.mark.parametrize(
    ("method", "url", "payload"),
    [
        ("post", "/api/ask", {"question": "What is the launch code?", "shelf": "beta"}),
        ("post", "/api/ask", {"question": "What is the launch code?", "shelves": ["alpha", "beta"]}),
        ("get", "/api/search?shelf=beta&q=launch+code", None),
        ("get", "/api/sections/{beta_section}?shelf=beta", None),
    ],
)
def test_no_route_reads_a_shelf_the_token_does_not_grant(client, builds, method, url, payload):
    beta_section = client.get("/api/search?shelf=beta&q=launch+code", headers=BETA).json()["hits"][0]["section_id"]
    url = url.format(beta_section=beta_section)
    for headers, status, words in [
        (ALPHA, 403, "does not grant shelf 'beta'"),
        (WRONG, 401, "unknown API token"),
        ({}, 401, "missing API token"),
        ({"Authorization": "Basic abc"}, 401, "Bearer TOKEN"),
    ]:
        kwargs = {"headers": headers} | ({"json": payload} if payload else {})
        response = getattr(client, method)(url, **kwargs)
        assert response.status_code == status, (headers, response.text)
        assert words in response.json()["error"]
        _no_leak(response)


def test_a_section_id_of_another_shelf_is_not_found_without_naming_the_shelf(client):
    beta_section = client.get("/api/search?shelf=beta&q=launch+code", headers=BETA).json()["hits"][0]["section_id"]
    response = client.get(f"/api/sections/{beta_section}", headers=ALPHA)
    assert response.status_code == 404
    _no_leak(response)
    assert client.get(f"/api/sections/{beta_section}", headers=BETA).status_code == 200


def test_traces_are_readable_only_with_a_token_granting_their_shelves(client):
    trace_id = _ask(client, "What is the launch code of project Zephyr?", headers=BETA, shelf="beta").json()["trace_id"]
    for headers, status in [(ALPHA, 403), (WRONG, 401), ({}, 401), (BETA, 200)]:
        response = client.get(f"/api/answers/{trace_id}", headers=headers)
        assert response.status_code == status
        if status != 200:
            _no_leak(response)
    assert client.get("/api/answers/a" + "0" * 20, headers=ALPHA).status_code == 404
    assert client.get("/api/answers/a0000", headers=ALPHA).status_code == 400  # not a trace id at all


def test_feedback_on_an_answer_is_kept_with_its_trace_for_tokens_granting_its_shelves(client, tmp_path):
    trace_id = _ask(client, "How long do refresh tokens last before they expire?").json()["trace_id"]
    url = f"/api/answers/{trace_id}/feedback"
    given = client.post(url, json={"rating": "not_helpful", "comment": "It did not say\x07 who sets it."}, headers=ALPHA)
    assert given.status_code == 201
    body = given.json()
    assert (body["trace_id"], body["token"], body["rating"], body["comment"]) == (trace_id, "alpha-widget", "not_helpful",
                                                                                  "It did not say who sets it.")
    assert client.post(url, json={"rating": "helpful"}, headers=ALPHA).status_code == 201
    stored = client.get(f"/api/answers/{trace_id}", headers=ALPHA).json()["feedback"]
    assert [(f["rating"], f["comment"]) for f in stored] == [("not_helpful", "It did not say who sets it."), ("helpful", "")]
    for headers, payload, status in [(BETA, {"rating": "helpful"}, 403), (WRONG, {"rating": "helpful"}, 401),
                                     (ALPHA, {"rating": "great"}, 400), (ALPHA, {"rating": "helpful", "extra": 1}, 400)]:
        response = client.post(url, json=payload, headers=headers)
        assert response.status_code == status, (payload, response.text)
        _no_leak(response)
    assert client.post(f"/api/answers/a{'0' * 20}/feedback", json={"rating": "helpful"}, headers=ALPHA).status_code == 404
    assert len(client.get(f"/api/answers/{trace_id}", headers=ALPHA).json()["feedback"]) == 2


def test_a_schema_1_trace_file_gains_the_feedback_table(tmp_path):
    import sqlite3

    from shelfwise.api.trace import TRACE_SCHEMA, TraceStore

    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE traces (trace_id TEXT PRIMARY KEY, created TEXT NOT NULL, token TEXT NOT NULL, "
               "shelves TEXT NOT NULL, question TEXT NOT NULL, label TEXT NOT NULL, body TEXT NOT NULL)")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    store = TraceStore(path)
    try:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == TRACE_SCHEMA == 2
        store.add_feedback("a" + "1" * 20, "cli", "helpful")
        assert [f["rating"] for f in store.feedback("a" + "1" * 20)] == ["helpful"]
    finally:
        store.close()


def test_health_lists_only_the_shelves_the_token_grants(client):
    assert client.get("/api/health").json() == {"status": "ok", "version": client.app.state.pipeline and "0.1.0", "shelves": [], "sites": []}
    assert client.get("/api/health", headers=ALPHA).json()["shelves"] == ["alpha"]
    assert client.get("/api/health", headers=WRONG).status_code == 401


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"{not json", 400, "not valid JSON"),
        (json.dumps({"question": 5, "shelf": "alpha"}).encode(), 400, "Validation failed"),
        (json.dumps({"question": "hi"}).encode(), 400, "Validation failed"),
        (json.dumps({"question": "hi", "shelf": "alpha", "colour": "red"}).encode(), 400, "Validation failed"),
        (json.dumps({"question": "x " * 10_000, "shelf": "alpha"}).encode(), 400, "api.max_question_chars"),
        (json.dumps({"question": "hi", "shelf": "alpha", "pad": "x" * 1_000_000}).encode(), 413, "too large"),
        (json.dumps({"question": "hi", "shelf": "alpha", "mode": "selected"}).encode(), 400, "Validation failed"),
        (json.dumps({"question": "hi", "shelf": "alpha", "documents": ["no-such-doc"]}).encode(), 400, "unknown document id"),
        (json.dumps({"question": "   ", "shelf": "alpha"}).encode(), 400, "empty"),
        (json.dumps([1, 2]).encode(), 400, "Validation failed"),
    ],
)
def test_bad_requests_get_a_4xx_with_a_useful_message(client, body, status, words):
    response = client.post("/api/ask", content=body, headers={**ALPHA, "Content-Type": "application/json"})
    assert response.status_code == status, response.text
    payload = response.json()
    assert words in payload["error"] + " ".join(payload["detail"])
    _no_leak(response)


def test_a_shelf_granted_but_not_served_is_404(builds, tmp_path):
    settings = _settings(tmp_path, tokens=[{"name": "wide", "token": "wide", "shelves": ["alpha", "gamma"]}])
    with TestClient(create_app(settings, chat=None, embedder=HashEmbedder(), stores=builds)) as client:
        response = _ask(client, "hi", headers={"Authorization": "Bearer wide"}, shelf="gamma")
    assert response.status_code == 404 and "not served here" in response.json()["error"]


def test_the_rate_limit_answers_429_with_retry_after(builds, tmp_path):
    with TestClient(create_app(_settings(tmp_path, rate_limit_per_minute=2), chat=None, embedder=None, stores=builds)) as client:
        codes = [client.get("/api/search?shelf=alpha&q=backup", headers=ALPHA).status_code for _ in range(3)]
        limited = client.get("/api/search?shelf=alpha&q=backup", headers=ALPHA)
        other = client.get("/api/search?shelf=beta&q=launch", headers=BETA)
    assert codes == [200, 200, 429] and limited.status_code == 429
    assert "api.rate_limit_per_minute" in limited.json()["error"] and int(limited.headers["retry-after"]) >= 1
    assert other.status_code == 200


def test_cors_allows_listed_origins_only(client):
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"}
    allowed = client.options("/api/ask", headers={"Origin": "https://docs.example.org", **preflight})
    denied = client.options("/api/ask", headers={"Origin": "https://evil.example.com", **preflight})
    assert allowed.headers.get("access-control-allow-origin") == "https://docs.example.org"
    assert denied.headers.get("access-control-allow-origin") != "https://evil.example.com"


def test_unknown_routes_and_methods_are_4xx_and_the_schema_is_served(client):
    assert client.get("/api/nothing-here", headers=ALPHA).status_code == 404
    assert client.get("/api/ask", headers=ALPHA).status_code == 405
    schema = client.get("/api/schema/openapi.json").json()
    assert {"/api/ask", "/api/search", "/api/health"} <= set(schema["paths"])


def test_search_returns_ranked_sections(client):
    body = client.get("/api/search?shelf=alpha&q=backup+retention&k=3", headers=ALPHA).json()
    assert body["hits"][0]["heading_path"] == ["Backup Procedure", "Retention"]
    assert client.get("/api/search?shelf=alpha&k=3", headers=ALPHA).status_code == 400


def test_search_hits_carry_a_snippet_of_their_section(client):
    hit = client.get("/api/search?shelf=beta&q=launch+code", headers=BETA).json()["hits"][0]
    assert hit["snippet"] == "The launch code of project Zephyr is 7741."
