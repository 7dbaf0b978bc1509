"""A streamed answer: ``POST /api/ask`` with ``Accept: text/event-stream`` (or ``?stream=true``) as server-sent events.

One event per answering stage as it completes, each ``event: STAGE`` with a JSON ``data`` line:

```
planned   {"obligations": [{"kind", "ask"}, ...]}      the plan: what a complete answer must do
compared  {"obligations": n, "pairs": n}               a compare question's change set, computed by code
read      {"sections": n, "documents": n}              what was opened to write from
written   {"units": n, "writer": "extractive"|...}     the draft
checked   {"units": n, "statuses": {status: n}}        each unit checked against its cited text
answer    the AskResponse, exactly the JSON the same request answers without streaming
error     {"error", "status", "detail"}                the error body a plain request would get (after the 200 line)
```

``compared`` comes only for a compare question, and when every obligation is a comparison it is the last stage
before ``answer``. The answer is checked whole before any of it is shown, so its text comes in one event.

The answer runs on its own thread and hands each stage's event over in lockstep: it goes on to the next stage only
once the event was sent. When the client goes away (Litestar cancels the stream on ``http.disconnect``), the
response's background task (and the event generator's ``finally``) marks the run stopped, and the answer stops at
its next stage boundary (no trace is stored). The ask route's ``prepare_ask`` runs before the stream starts, so a
request refused (401, 403, 404, 400 over a limit) gets its plain status and error body.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import anyio.to_thread
from litestar.background_tasks import BackgroundTask
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIType, Operation, Schema
from litestar.response import Stream

from shelfwise.api.errors import ApiError
from shelfwise.api.schemas import AskRequest, AskResponse
from shelfwise.api.server.asking import answer_prepared
from shelfwise.api.server.security import Principal
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.models import ModelError

__all__ = ["EVENT_STREAM", "STAGES", "STREAMED", "StreamedOperation", "wants_stream", "stream_answer"]

EVENT_STREAM = "text/event-stream"
STAGES = ("planned", "compared", "read", "written", "checked")
"""The progress events, in the order they can come; ``answer`` or ``error`` ends the stream."""

STREAMED = ("With `Accept: text/event-stream` or `?stream=true` the answer comes as server-sent events, one as each "
            "stage completes: `planned` (the obligations), `compared` (a compare question's change set), `read` (how many "
            "sections and documents), `written`, `checked`, then `answer` holding exactly the JSON this route answers "
            "without streaming, or `error` holding the error body. Closing the connection stops the answer at its next stage.")
"""The ask route's OpenAPI description."""

log = logging.getLogger("shelfwise.api")


@dataclass
class StreamedOperation(Operation):
    """The ask route's OpenAPI operation: its 200 response also lists the text/event-stream body."""

    def __post_init__(self) -> None:
        ok = (self.responses or {}).get("200")
        if ok is not None and not isinstance(ok, dict) and getattr(ok, "content", None) is not None:
            ok.content[EVENT_STREAM] = OpenAPIMediaType(schema=Schema(
                type=OpenAPIType.STRING, description="Server-sent events: 'event: STAGE' and 'data: JSON' lines, ending "
                                                     "with an 'answer' event (the AskResponse) or an 'error' event."))


def wants_stream(accept: str | None, stream: bool | None) -> bool:
    """True when the request asks for events: ``stream`` set, or ``Accept`` naming text/event-stream (and ``stream`` not
    false)."""
    if stream is not None:
        return stream
    return any(part.split(";")[0].strip().lower() == EVENT_STREAM for part in (accept or "").split(","))


class _Gone(Exception):
    """Raised in the answering thread at a stage boundary once the client has gone: it stops the answer there."""


class _Relay:
    """Hands stage events from the answering thread to the response, one at a time."""

    def __init__(self) -> None:
        self.events: queue.Queue[tuple[str, dict] | None] = queue.Queue()
        self.sent = threading.Semaphore(0)
        self.gone = threading.Event()

    def progress(self, stage: str, detail: dict) -> None:
        """Called by the answer driver as a stage completes: waits until the event was sent; _Gone once the client left."""
        if self.gone.is_set():
            raise _Gone(stage)
        self.events.put((stage, detail))
        self.sent.acquire()
        if self.gone.is_set():
            raise _Gone(stage)

    def stop(self) -> None:
        """The client has gone (or the stream ended): the answer stops at its next stage boundary."""
        self.gone.set()
        self.sent.release()


def _event(name: str, data: dict) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def _error_body(exc: Exception) -> dict:
    """The body the app's exception handlers give a plain request (shelfwise/api/server/app.py)."""
    if isinstance(exc, ApiError):
        return {"error": exc.message, "status": exc.status, "detail": []}
    if isinstance(exc, ModelError):
        return {"error": f"{exc}; the model server failed, try again later", "status": 502, "detail": []}
    if isinstance(exc, ShelfwiseError):
        return {"error": str(exc), "status": 400, "detail": []}
    return {"error": "internal error; the server log has the details", "status": 500, "detail": []}


def _work(relay: _Relay, state, principal: Principal, data: AskRequest, finish: Callable[[AskResponse], AskResponse]) -> None:
    """The answering thread: every stage's event, then the answer or the error; None when done."""
    try:
        relay.events.put(("answer", finish(answer_prepared(state, principal, data, progress=relay.progress)).model_dump(mode="json")))
    except _Gone as exc:
        log.info("the client left; the answer stopped after '%s'", exc)
    except Exception as exc:  # noqa: BLE001 - the 200 line is sent: the failure goes to the client as an error event
        if not isinstance(exc, ShelfwiseError):
            log.exception("unexpected error while streaming an answer")
        relay.events.put(("error", _error_body(exc)))
    finally:
        relay.events.put(None)


async def _events(relay: _Relay) -> AsyncIterator[str]:
    try:
        while (item := await anyio.to_thread.run_sync(relay.events.get, abandon_on_cancel=True)) is not None:
            name, data = item
            yield _event(name, data)
            if name in STAGES:
                relay.sent.release()
    finally:  # cancelled or closed: the answering thread never waits on a stream that is gone
        relay.stop()


def stream_answer(state, principal: Principal, data: AskRequest, finish: Callable[[AskResponse], AskResponse]) -> Stream:
    """The answer to ``data`` (already passed ``prepare_ask``) as server-sent events; ``finish`` turns the answer into
    what the plain route returns (site links, inert markup)."""
    relay = _Relay()
    threading.Thread(target=_work, args=(relay, state, principal, data, finish), name="shelfwise-ask-stream", daemon=True).start()
    return Stream(_events(relay), media_type=EVENT_STREAM, background=BackgroundTask(relay.stop),
                  headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
