"""POST /api/ask as server-sent events, through Litestar over the two small compiled tenants of test_api: one event
per stage in order, the last the very answer the plain request gives; errors as an event after the 200 line, before
it as a status; and a client that goes away stops the answer at the next stage (no trace stored)."""

from __future__ import annotations

import json
import sqlite3
import threading

import anyio
import pytest
from litestar.testing import AsyncTestClient, TestClient

from answer_shelves import HashEmbedder, tenant_builds
from shelfwise.api.server.app import create_app
from shelfwise.api.server.ask_stream import wants_stream
from shelfwise.compiler.settings import Settings

ALPHA = {"Authorization": "Bearer alpha-secret"}
QUESTION = {"question": "How long do refresh tokens last before they expire?", "shelf": "alpha"}
VARYING = ("trace_id", "seconds")
"""What differs between two answers to one question: its own trace id and how long it took."""


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("tenants")
    return tenant_builds(root / "build", root / "shelves")


def _settings(tmp_path, **api) -> Settings:
    return Settings.model_validate({"api": {
        "tokens": [{"name": "alpha-widget", "token": "alpha-secret", "shelves": ["alpha"]}],
        "trace_db": str(tmp_path / "traces.sqlite"), **api}})


def events(text: str) -> list[tuple[str, dict]]:
    """The (event, data) pairs of a text/event-stream body."""
    found = []
    for block in text.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if lines:
            found.append((lines["event"], json.loads(lines["data"])))
    return found


def _traces(tmp_path) -> int:
    with sqlite3.connect(tmp_path / "traces.sqlite") as db:
        return db.execute("SELECT count(*) FROM traces").fetchone()[0]


def test_the_stream_sends_each_stage_in_order_then_exactly_the_plain_answer(builds, tmp_path):
    app = create_app(_settings(tmp_path), chat=None, embedder=HashEmbedder(), stores=builds)
    with TestClient(app) as client:
        plain = client.post("/api/ask", json=QUESTION, headers=ALPHA)
        streamed = client.post("/api/ask", json=QUESTION, headers={**ALPHA, "Accept": "text/event-stream"})
        assert streamed.status_code == 200 and streamed.headers["content-type"].startswith("text/event-stream")
        got = events(streamed.text)
        assert [name for name, _ in got] == ["planned", "read", "written", "checked", "answer"]
        stages = dict(got)
        assert stages["planned"]["obligations"][0]["ask"] and stages["planned"]["obligations"][0]["kind"]
        assert stages["read"]["sections"] >= 1 and stages["read"]["documents"] >= 1
        assert stages["written"] == {"units": stages["checked"]["units"], "writer": "extractive"}
        assert sum(stages["checked"]["statuses"].values()) == stages["checked"]["units"] >= 1
        answer, expected = stages["answer"], plain.json()
        assert {k: v for k, v in answer.items() if k not in VARYING} == {k: v for k, v in expected.items() if k not in VARYING}
        assert set(answer) == set(expected) and "Refresh tokens expire after 30 days." in answer["answer_markdown"]
        stored = client.get(f"/api/answers/{answer['trace_id']}", headers=ALPHA).json()
        assert stored["answer"]["trace_id"] == answer["trace_id"]  # the streamed answer is the one its trace keeps
        assert stored["answer"]["answer_markdown"] == answer["answer_markdown"]

        # the flag picks either way whatever Accept says
        by_flag = client.post("/api/ask?stream=true", json=QUESTION, headers=ALPHA)
        assert [name for name, _ in events(by_flag.text)][-1] == "answer"
        not_streamed = client.post("/api/ask?stream=false", json=QUESTION, headers={**ALPHA, "Accept": "text/event-stream"})
        assert not_streamed.headers["content-type"].startswith("application/json") and not_streamed.json()["label"] == "complete"


def test_errors_before_the_answer_starts_are_statuses_and_after_it_an_error_event(builds, tmp_path):
    stream = {**ALPHA, "Accept": "text/event-stream"}
    app = create_app(_settings(tmp_path), chat=None, embedder=HashEmbedder(), stores=builds)
    with TestClient(app) as client:
        refused = client.post("/api/ask", json={**QUESTION, "shelf": "beta"}, headers=stream)
        assert refused.status_code == 403 and "does not grant" in refused.json()["error"]
        empty = client.post("/api/ask", json={**QUESTION, "question": "  "}, headers=stream)
        assert empty.status_code == 400 and empty.json()["error"] == "question is empty; write the question in plain words"
    slow = create_app(_settings(tmp_path, answer_timeout_s=1e-9), chat=None, embedder=HashEmbedder(), stores=builds)
    with TestClient(slow) as client:
        plain = client.post("/api/ask", json=QUESTION, headers=ALPHA)
        got = events(client.post("/api/ask", json=QUESTION, headers=stream).text)
    assert plain.status_code == 504
    assert got == [("error", plain.json())]  # the deadline passes during the plan: no stage event before it


def test_a_client_that_goes_away_stops_the_answer_at_the_next_stage(builds, tmp_path):
    """The ASGI app called as a server would: the client reads the first event and leaves (http.disconnect), its
    socket never taking another byte. The answer stops after the plan: no other event is sent, no trace stored."""
    app = create_app(_settings(tmp_path), chat=None, embedder=HashEmbedder(), stores=builds)
    body = json.dumps(QUESTION).encode()
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/api/ask", "raw_path": b"/api/ask", "query_string": b"", "root_path": "", "client": ("127.0.0.1", 50000),
             "server": ("testserver", 80), "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                                                       (b"accept", b"text/event-stream"), (b"authorization", b"Bearer alpha-secret")]}
    sent: list[dict] = []

    async def run() -> None:
        first, gone = anyio.Event(), anyio.Event()
        requested = False

        async def receive() -> dict:
            nonlocal requested
            if not requested:
                requested = True
                return {"type": "http.request", "body": body, "more_body": False}
            await first.wait()
            gone.set()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)
            if message["type"] == "http.response.body" and message.get("body"):
                first.set()
                await gone.wait()  # the client has left: this write never completes
                await anyio.sleep_forever()

        async with AsyncTestClient(app):  # the app's lifespan opens the shelves and the traces
            await app(scope, receive, send)
            for _ in range(200):  # the answering thread ends at its next stage boundary
                if not any(t.name == "shelfwise-ask-stream" for t in threading.enumerate()):
                    break
                await anyio.sleep(0.05)

    anyio.run(run)
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200
    bodies = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body").decode()
    assert [name for name, _ in events(bodies)] == ["planned"]
    assert not any(t.name == "shelfwise-ask-stream" for t in threading.enumerate())
    assert _traces(tmp_path) == 0


@pytest.mark.parametrize("accept, flag, wanted", [
    ("text/event-stream", None, True), ("application/json, text/event-stream;q=0.5", None, True), ("application/json", None, False),
    (None, None, False), ("*/*", None, False), ("text/event-stream", False, False), ("application/json", True, True)])
def test_streaming_is_chosen_by_accept_or_the_flag(accept, flag, wanted):
    assert wants_stream(accept, flag) is wanted

