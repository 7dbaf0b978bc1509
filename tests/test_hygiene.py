"""Request hygiene on the real app: nesting depth refused before parsing, echoed text cleaned, traces pruned,
and the OpenAPI document declaring the real error bodies; schemathesis (bounded) against it."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta, timezone

import pytest
import uvicorn
from litestar.testing import TestClient

from answer_shelves import HashEmbedder, tenant_builds
from shelfwise.api.server.app import create_app
from shelfwise.api.server.hygiene import clean_text, json_depth
from shelfwise.api.trace import TRACE_SCHEMA, TraceStore
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.settings import Settings
from tests.test_browser import _free_port, _wait

ALPHA = {"Authorization": "Bearer alpha-secret"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("tenants-hygiene")
    return tenant_builds(root / "build", root / "shelves")


def _app(builds, tmp_path, **api):
    settings = Settings.model_validate({"api": {
        "tokens": [{"name": "alpha-widget", "token": "alpha-secret", "shelves": ["alpha"]}],
        "trace_db": str(tmp_path / "traces.sqlite"), "rate_limit_per_minute": 10_000, **api}})
    return create_app(settings, chat=None, embedder=HashEmbedder(), stores=builds)


def test_deep_json_is_refused_with_400_before_it_is_parsed(builds, tmp_path):
    body = '{"question": "hi", "shelf": "alpha", "pad": ' + "[" * 969 + "]" * 969 + "}"
    with TestClient(_app(builds, tmp_path)) as client:
        response = client.post("/api/ask", content=body.encode(), headers={**ALPHA, "Content-Type": "application/json"})
        assert response.status_code == 400
        assert response.json()["error"] == "the JSON body is nested 970 levels deep; the limit is 32 (api.max_json_depth)"
        brackets_in_text = client.post("/api/ask", json={"question": "What does [[[[" * 20 + " mean?", "shelf": "alpha"}, headers=ALPHA)
        assert brackets_in_text.status_code == 200
    assert json_depth(b'{"a": "[[[[{{", "b": [[1], {"c": [2]}]}') == 4


def test_control_and_bidi_characters_are_not_echoed(builds, tmp_path):
    question = "How long do refresh\u202e tokens\x07 last\x1b[31m before\u2066 they expire?"
    with TestClient(_app(builds, tmp_path)) as client:
        answer = client.post("/api/ask", json={"question": question, "shelf": "alpha"}, headers=ALPHA).json()
        trace = client.get(f"/api/answers/{answer['trace_id']}", headers=ALPHA).json()
    for text in (json.dumps(answer, ensure_ascii=False), json.dumps(trace, ensure_ascii=False)):
        assert not any(ch in text for ch in "\u202e\u2066\x07\x1b")
    assert trace["question"] == "How long do refresh tokens last[31m before they expire?"
    assert clean_text("a\tb\nc\u200fd") == "a b cd"


def test_old_traces_are_pruned_by_the_retention_setting(builds, tmp_path):
    with TestClient(_app(builds, tmp_path)) as client:
        trace_id = client.post("/api/ask", json={"question": "How long are backups kept?", "shelf": "alpha"}, headers=ALPHA).json()["trace_id"]
    old = (datetime.now(timezone.utc) - timedelta(days=40)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    store = TraceStore(tmp_path / "traces.sqlite")
    with store.db:
        store.db.execute("UPDATE traces SET created = ? WHERE trace_id = ?", (old, trace_id))
    store.close()
    kept = TraceStore(tmp_path / "traces.sqlite", retention_days=60)
    assert kept.get(trace_id) is not None
    kept.close()
    pruned = TraceStore(tmp_path / "traces.sqlite", retention_days=30)
    assert pruned.get(trace_id) is None
    pruned.close()


def test_a_traces_file_is_numbered_and_one_from_a_newer_shelfwise_is_refused(tmp_path):
    store = TraceStore(tmp_path / "traces.sqlite")
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == TRACE_SCHEMA
    store.db.execute(f"PRAGMA user_version = {TRACE_SCHEMA + 1}")
    store.close()
    with pytest.raises(ShelfwiseError, match=rf"written by a newer shelfwise \(trace schema {TRACE_SCHEMA + 1}\); upgrade shelfwise"):
        TraceStore(tmp_path / "traces.sqlite")


def test_the_openapi_document_declares_the_error_bodies(builds, tmp_path):
    with TestClient(_app(builds, tmp_path)) as client:
        schema = client.get("/api/schema/openapi.json").json()
    ask = schema["paths"]["/api/ask"]["post"]["responses"]
    assert {"400", "401", "403", "404", "413", "429"} <= set(ask)
    body = ask["403"]["content"]["application/json"]["schema"]
    if "$ref" in body:
        body = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    assert set(body["properties"]) == {"error", "status", "detail"}


def test_schemathesis_finds_no_server_error_and_no_schema_violation(builds, tmp_path):
    """schemathesis' checks (no 5xx, status codes, headers and bodies as documented), a few examples per operation,
    on uvicorn. Left out: 'schema-valid request rejected' (ST202): the rules that need a shelf or shelves, a
    question within api.max_question_chars, known document ids are checked by the server, not the schema."""
    schemathesis = pytest.importorskip("schemathesis")
    from hypothesis import HealthCheck, given, settings as hypothesis_settings
    from schemathesis.specs.openapi.checks import positive_data_acceptance

    app = _app(builds, tmp_path)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    failures: list[str] = []
    calls: list[str] = []
    try:
        _wait(base + "/api/health", seconds=30)
        schema = schemathesis.openapi.from_url(base + "/api/schema/openapi.json")
        for result in schema.get_all_operations():
            operation = result.ok()

            @hypothesis_settings(max_examples=12, deadline=None, database=None, suppress_health_check=list(HealthCheck), derandomize=True)
            @given(case=operation.as_strategy())
            def check(case):
                calls.append(case.method)
                try:
                    case.call_and_validate(base_url=base, headers=ALPHA, excluded_checks=[positive_data_acceptance])
                except BaseException as exc:  # noqa: BLE001 - a FailureGroup of checks: collected with its case
                    if isinstance(exc, KeyboardInterrupt):
                        raise
                    failures.append(f"{case.method} {case.formatted_path}: {exc}"[:600])

            check()
    finally:
        server.should_exit = True
        thread.join(timeout=20)
    assert failures == [] and len(calls) >= 30 and "POST" in calls
