"""The API documented offline: the OpenAPI JSON at /api/schema/openapi.json, a page at /api/schema that loads nothing
from another host, the Bearer scheme on the routes that need it, every 4xx a route returns declared (provoked here,
route by route), health telling an anonymous caller what it may read, and GET errors speaking of query parameters."""

from __future__ import annotations

import re

import pytest
from litestar.testing import TestClient

from answer_shelves import HashEmbedder, tenant_builds
from shelfwise.api.server.app import create_app
from shelfwise.compiler.settings import Settings

ALPHA = {"Authorization": "Bearer alpha-secret"}
BETA = {"Authorization": "Bearer beta-secret"}
GAMMA = {"Authorization": "Bearer gamma-secret"}  # grants a shelf this server does not serve
EXTERNAL = re.compile(r"(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
VIEWERS = ["redoc", "swagger", "elements", "rapidoc", "scalar", "openapi.yaml", "openapi.yml", "swagger/oauth2-redirect.html"]


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("tenants-docs")
    return tenant_builds(root / "build", root / "shelves")


def _app(builds, tmp_path, **api):
    settings = Settings.model_validate({"api": {
        "tokens": [{"name": "alpha-widget", "token": "alpha-secret", "shelves": ["alpha"]},
                   {"name": "beta-widget", "token": "beta-secret", "shelves": ["beta"]},
                   {"name": "gamma-widget", "token": "gamma-secret", "shelves": ["alpha", "gamma"]}],
        "trace_db": str(tmp_path / "traces.sqlite"), "max_request_bytes": 4096, **api}})
    return create_app(settings, chat=None, embedder=HashEmbedder(), stores=builds, sites={n: f / "site" for n, f in builds.items()})


def test_the_schema_pages_load_nothing_from_another_host(builds, tmp_path):
    app = _app(builds, tmp_path)
    with TestClient(app) as client:
        schema_paths = sorted({route.path for route in app.routes if route.path.startswith("/api/schema")})
        assert "/api/schema" in schema_paths and "/api/schema/openapi.json" in schema_paths
        for path in schema_paths:
            if "{" in path:
                continue
            page = client.get(path)
            assert page.status_code == 200, path
            assert EXTERNAL.findall(page.text) == [], path
            assert "<script" not in page.text and "<link" not in page.text, path
        for viewer in VIEWERS:  # Litestar's CDN-backed viewers are not mounted
            assert client.get(f"/api/schema/{viewer}").status_code == 404, viewer
        page = client.get("/api/schema").text
        document = client.get("/api/schema/openapi.json").json()
    assert document["openapi"].startswith("3.") and 'href="/api/schema/openapi.json"' in page
    for path, item in document["paths"].items():
        for method, operation in item.items():
            anchor = "op-" + method + "-" + path.strip("/").replace("/", "-").replace("{", "").replace("}", "")
            assert f'id="{anchor}"' in page, anchor
            section = page.split(f'id="{anchor}"', 1)[1].split('<section class="op"', 1)[0]
            for status in operation["responses"]:
                assert f"<td><code>{status}</code></td>" in section, (path, method, status)
    assert "Token optional" in page and "Token required" in page and 'id="schema-AskRequest"' in page


def test_the_bearer_scheme_is_declared_and_on_every_route_that_reads_a_shelf(builds, tmp_path):
    with TestClient(_app(builds, tmp_path)) as client:
        document = client.get("/api/schema/openapi.json").json()
    schemes = document["components"]["securitySchemes"]
    assert schemes["BearerToken"]["type"] == "http" and schemes["BearerToken"]["scheme"] == "bearer"
    security = {(method, path): op.get("security") for path, item in document["paths"].items() for method, op in item.items()}
    assert security.pop(("get", "/api/health")) == [{}, {"BearerToken": []}]
    assert security and all(value == [{"BearerToken": []}] for value in security.values()), security


def _provoke(builds, tmp_path) -> dict[tuple[str, str], dict[int, int]]:
    """(method, OpenAPI path) -> {expected status: status the server answered}, each 4xx brought about for real."""
    seen: dict[tuple[str, str], dict[int, int]] = {}

    def record(method, path, expected, response):
        seen.setdefault((method, path), {})[expected] = response.status_code

    big = {"question": "x" * 5000, "shelf": "alpha"}
    with TestClient(_app(builds, tmp_path)) as client:
        trace = client.post("/api/ask", json={"question": "How long are backups kept?", "shelf": "alpha"}, headers=ALPHA).json()["trace_id"]
        section = client.get("/api/search?shelf=alpha&q=backups", headers=ALPHA).json()["hits"][0]["section_id"]
        ask, search, compare = ("post", "/api/ask"), ("get", "/api/search"), ("post", "/api/compare")
        sections, answers, health = ("get", "/api/sections/{section_id}"), ("get", "/api/answers/{trace_id}"), ("get", "/api/health")
        record(*ask, 400, client.post("/api/ask", json={"question": " ", "shelf": "alpha"}, headers=ALPHA))
        record(*ask, 401, client.post("/api/ask", json={"question": "hi", "shelf": "alpha"}))
        record(*ask, 403, client.post("/api/ask", json={"question": "hi", "shelf": "beta"}, headers=ALPHA))
        record(*ask, 404, client.post("/api/ask", json={"question": "hi", "shelf": "gamma"}, headers=GAMMA))
        record(*ask, 413, client.post("/api/ask", json=big, headers=ALPHA))
        record(*search, 400, client.get("/api/search?shelf=alpha", headers=ALPHA))
        record(*search, 401, client.get("/api/search?shelf=alpha&q=backups"))
        record(*search, 403, client.get("/api/search?shelf=beta&q=backups", headers=ALPHA))
        record(*search, 404, client.get("/api/search?shelf=gamma&q=backups", headers=GAMMA))
        record(*sections, 400, client.get("/api/sections/not-an-id", headers=ALPHA))
        record(*sections, 401, client.get(f"/api/sections/{section}", headers={"Authorization": "Token x"}))
        record(*sections, 403, client.get(f"/api/sections/{section}?shelf=beta", headers=ALPHA))
        record(*sections, 404, client.get(f"/api/sections/{section}", headers=BETA))
        record(*answers, 400, client.get("/api/answers/a0000", headers=ALPHA))
        record(*answers, 401, client.get(f"/api/answers/{trace}"))
        record(*answers, 403, client.get(f"/api/answers/{trace}", headers=BETA))
        record(*answers, 404, client.get("/api/answers/a" + "0" * 20, headers=ALPHA))
        feedback, liked = ("post", "/api/answers/{trace_id}/feedback"), {"rating": "helpful"}
        record(*feedback, 400, client.post(f"/api/answers/{trace}/feedback", json={"rating": "fine"}, headers=ALPHA))
        record(*feedback, 401, client.post(f"/api/answers/{trace}/feedback", json=liked))
        record(*feedback, 403, client.post(f"/api/answers/{trace}/feedback", json=liked, headers=BETA))
        record(*feedback, 404, client.post("/api/answers/a" + "0" * 20 + "/feedback", json=liked, headers=ALPHA))
        record(*health, 401, client.get("/api/health", headers={"Authorization": "Bearer guess"}))
        record(*compare, 400, client.post("/api/compare", json={"shelf": "alpha"}, headers=ALPHA))
        record(*compare, 401, client.post("/api/compare", json={"shelf": "alpha", "batch": True}))
        record(*compare, 403, client.post("/api/compare", json={"shelf": "beta", "batch": True}, headers=ALPHA))
        record(*compare, 404, client.post("/api/compare", json={"shelf": "alpha", "doc_a": "nope", "doc_b": "nada"}, headers=ALPHA))
        record(*compare, 413, client.post("/api/compare", json={"shelf": "alpha" * 1000, "batch": True}, headers=ALPHA))
        chat, models, model = ("post", "/v1/chat/completions"), ("get", "/v1/models"), ("get", "/v1/models/{model}")
        said = [{"role": "user", "content": "How long are backups kept?"}]
        record(*chat, 400, client.post("/v1/chat/completions", json={"model": "alpha", "messages": said, "tools": [{"type": "function"}]},
                                       headers=ALPHA))
        record(*chat, 401, client.post("/v1/chat/completions", json={"model": "alpha", "messages": said}))
        record(*chat, 404, client.post("/v1/chat/completions", json={"model": "beta", "messages": said}, headers=ALPHA))
        record(*chat, 413, client.post("/v1/chat/completions", json={"model": "alpha", "messages": said * 200}, headers=ALPHA))
        record(*models, 401, client.get("/v1/models", headers={"Authorization": "Bearer guess"}))
        record(*model, 401, client.get("/v1/models/alpha"))
        record(*model, 404, client.get("/v1/models/beta", headers=ALPHA))
        record(*model, 400, client.get("/v1/models/" + "x" * 201, headers=ALPHA))
    calls = {ask: lambda c: c.post("/api/ask", json={"question": "hi", "shelf": "alpha"}, headers=ALPHA),
             search: lambda c: c.get("/api/search?shelf=alpha&q=backups", headers=ALPHA),
             sections: lambda c: c.get(f"/api/sections/{section}", headers=ALPHA),
             answers: lambda c: c.get(f"/api/answers/{trace}", headers=ALPHA),
             health: lambda c: c.get("/api/health", headers=ALPHA),
             feedback: lambda c: c.post(f"/api/answers/{trace}/feedback", json=liked, headers=ALPHA),
             compare: lambda c: c.post("/api/compare", json={"shelf": "alpha", "batch": True}, headers=ALPHA),
             chat: lambda c: c.post("/v1/chat/completions", json={"model": "alpha", "messages": said}, headers=ALPHA),
             models: lambda c: c.get("/v1/models", headers=ALPHA), model: lambda c: c.get("/v1/models/alpha", headers=ALPHA)}
    for route, call in calls.items():  # one request a minute allowed: the second is refused
        with TestClient(_app(builds, tmp_path, rate_limit_per_minute=1)) as client:
            assert call(client).status_code in (200, 201), route
            record(*route, 429, call(client))
    return seen


def test_every_4xx_a_route_returns_is_declared_and_every_declared_4xx_happens(builds, tmp_path):
    seen = _provoke(builds, tmp_path)
    with TestClient(_app(builds, tmp_path)) as client:
        document = client.get("/api/schema/openapi.json").json()
    for (method, path), answered in sorted(seen.items()):
        assert answered == {code: code for code in answered}, (method, path, answered)
        declared = {int(code) for code in document["paths"][path][method]["responses"] if code.startswith("4")}
        assert declared == set(answered), (method, path, declared, set(answered))
    assert {path for path in document["paths"]} == {path for _, path in seen}


def test_health_tells_an_anonymous_caller_what_it_may_read(builds, tmp_path):
    with TestClient(_app(builds, tmp_path, allow_anonymous=True)) as client:
        assert client.get("/api/health").json() == {"status": "ok", "version": "0.1.0", "shelves": ["alpha", "beta"],
                                                    "sites": ["alpha", "beta"]}
        assert client.get("/api/search?shelf=beta&q=launch").status_code == 200  # what it says is what works
        assert client.get("/api/health", headers=ALPHA).json()["shelves"] == ["alpha"]
    with TestClient(_app(builds, tmp_path, public_sites=["beta"])) as client:
        assert client.get("/api/health").json() == {"status": "ok", "version": "0.1.0", "shelves": [], "sites": ["beta"]}
        assert client.get("/api/search?shelf=beta&q=launch").status_code == 401
        assert client.get("/api/health", headers=ALPHA).json() == {"status": "ok", "version": "0.1.0", "shelves": ["alpha"],
                                                                   "sites": ["alpha", "beta"]}
    with TestClient(_app(builds, tmp_path)) as client:
        assert client.get("/api/health").json() == {"status": "ok", "version": "0.1.0", "shelves": [], "sites": []}


def test_get_errors_speak_of_query_parameters_and_post_errors_of_the_json_body(builds, tmp_path):
    with TestClient(_app(builds, tmp_path)) as client:
        missing = client.get("/api/search?shelf=alpha", headers=ALPHA).json()["error"]
        too_many = client.get("/api/search?shelf=alpha&q=backups&k=500", headers=ALPHA).json()["error"]
        posted = client.post("/api/ask", json={"shelf": "alpha"}, headers=ALPHA).json()["error"]
        malformed = client.get("/api/sections/x1", headers=ALPHA).json()["error"]
    for message in (missing, too_many):
        assert "JSON" not in message and "takes query parameters in the URL, e.g. /api/search?shelf=NAME&q=WORDS&k=10" in message
    assert missing.startswith("Missing required query parameter 'q'") and "(k: Expected `int` <= 100)" in too_many
    assert "JSON" not in malformed and "the id in the path is malformed: section ids are 's' and 11 hex digits" in malformed
    assert posted.endswith('send a JSON object such as {"question": "...", "shelf": "..."}')
