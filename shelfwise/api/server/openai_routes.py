"""The OpenAI-compatible chat API: ``GET /v1/models`` and ``POST /v1/chat/completions`` over the served shelves.

Each shelf the token grants (and the server serves) is a model. The last user message is the question and
the earlier user and assistant turns are the history, as the ask widget sends follow-ups to /api/ask (an
earlier answer's section ids, found in its citation links, say what it cited); only the last
``api.max_history_turns`` turns are kept, since chat clients send the whole conversation. System and tool
messages do not steer the answer. The reply is the checked answer (shelfwise/api/server/asking.py, the same limits, tenant
rules and stored trace as /api/ask) as Markdown with numbered citations linking to the site
(shelfwise/api/cite_links.py), its trace id in the text, in the ``X-Shelfwise-Trace`` header and, with the label, the
gaps and the citations, in a ``shelfwise`` field. ``stream: true`` answers as server-sent events in the
OpenAI chunk format: the role chunk at once, the answer's paragraphs once it is ready, then
``data: [DONE]``. Errors have the OpenAI shape ``{"error": {"message", "type", "code", "param"}}``.

As clients expect: ``usage`` counts tokens by an estimate (no tokenizer is loaded: a text is ``ceil(characters /
4)`` tokens, OpenAI's rule of thumb for English; the prompt is every message's text, the completion the reply's
content), also as a last chunk when ``stream_options.include_usage`` is set; a model (shelf) the token cannot read,
or one not served, is 404 ``model_not_found`` (never 403: the reply does not say whether it exists); a parameter
asking for what shelfwise cannot give (``response_format`` other than text, ``tools``, ``logprobs``, audio, ...)
or one it does not know is refused with a 400 naming it; sampling parameters are accepted and do not change the
answer. The routes are in the OpenAPI document (/api/schema).
"""

from __future__ import annotations

import json
import logging
import math
import re
import secrets
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

import anyio.to_thread
from litestar import Request, Response, Router, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.exceptions import HTTPException, ValidationException
from litestar.params import JSONBody, PathParameter
from litestar.response import Stream
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shelfwise.api.server.asking import answer_prepared, prepare_ask
from shelfwise.api.cite_links import SiteLinks, linked_answer, server_links
from shelfwise.api.errors import ApiError, BadRequest, NotFound
from shelfwise.api.server.hygiene import check_json_depth
from shelfwise.api.server.inert_answer import inert_markdown
from shelfwise.api.server.openai_schemas import (AssistantMessage, ChatCompletion, Choice, ModelCard, ModelList, OpenAIErrorBody,
                                                 Usage)
from shelfwise.api.schemas import Turn
from shelfwise.api.server.routes import TOKEN_REQUIRED, authenticate
from shelfwise.api.schemas import AskRequest, AskResponse
from shelfwise.compiler.models import ModelError
from shelfwise.compiler.refs import SECTION_ID_RE

__all__ = ["ChatMessage", "ChatRequest", "StreamOptions", "OPENAI_ROUTER", "chat_ask_request", "openai_error", "refused_parameters",
           "approx_tokens", "usage"]

log = logging.getLogger("shelfwise.api")

_SECTION_ID = SECTION_ID_RE
_TYPES = {400: ("invalid_request_error", "invalid_request"), 401: ("authentication_error", "invalid_api_key"),
          403: ("permission_error", "shelf_not_granted"), 404: ("not_found_error", "model_not_found"),
          405: ("invalid_request_error", "method_not_allowed"), 413: ("invalid_request_error", "request_too_large"),
          429: ("rate_limit_error", "rate_limit_exceeded"), 502: ("api_error", "model_failed"), 504: ("api_error", "timeout")}


_MEANINGS = {
    400: "The request is wrong: a malformed body, no user question last, a parameter shelfwise cannot honour or does not know "
         "(named in 'param'), a limit passed (api.max_question_chars, api.max_json_depth), or a model name in the path longer than "
         "200 characters.",
    401: "No token, a malformed Authorization header, or an unknown token.",
    404: "model_not_found: the model is not a shelf this token can read here.",
    413: "The request body is larger than api.max_request_bytes.",
    429: "Too many requests from this token, or too many failed token checks from this address; see Retry-After.",
    502: "A configured model failed.",
    504: "The answer took longer than api.answer_timeout_s.",
}


def _responses(*statuses: int) -> dict[int, ResponseSpec]:
    return {code: ResponseSpec(data_container=OpenAIErrorBody, description=_MEANINGS[code], generate_examples=False) for code in statuses}


class ChatMessage(BaseModel):
    """One message of the conversation; fields other clients send (name, tool_calls, ...) are accepted and unused."""

    model_config = ConfigDict(extra="allow")

    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[dict[str, Any]] | None = Field(default=None, description="Text, or a list of parts of type 'text'.")


class StreamOptions(BaseModel):
    """Options of a streamed answer."""

    model_config = ConfigDict(extra="allow")

    include_usage: bool | None = Field(default=None, description="Send a last chunk, with no choices, holding the usage.")


class ChatRequest(BaseModel):
    """POST /v1/chat/completions. Sampling parameters (temperature, top_p, max_tokens, seed, stop, ...) are accepted and do
    not change the answer; parameters asking for what shelfwise cannot give (response_format other than text, tools,
    logprobs, audio, ...) and unknown ones are refused with a 400 naming them."""

    model_config = ConfigDict(extra="allow")

    model: str = Field(min_length=1, description="The shelf to answer from (GET /v1/models lists them).")
    messages: list[ChatMessage] = Field(min_length=1, max_length=1000, description="The conversation, oldest first; the last is the question.")
    stream: bool | None = Field(default=False, description="Answer as server-sent events ending with 'data: [DONE]'.")
    stream_options: StreamOptions | None = Field(default=None, description="With stream: include_usage adds a last chunk holding the usage.")
    n: int | None = Field(default=1, ge=1, le=1, description="How many answers: shelfwise gives one.")


_IGNORED = frozenset({"temperature", "top_p", "max_tokens", "max_completion_tokens", "presence_penalty", "frequency_penalty", "seed",
                      "stop", "user", "metadata", "store", "logit_bias", "service_tier", "reasoning_effort", "verbosity",
                      "safety_identifier", "prompt_cache_key", "parallel_tool_calls"})
"""Parameters accepted that do not change the answer: sampling, budgets, bookkeeping."""
_NEUTRAL: dict[str, Any] = {"response_format": lambda v: v is None or (isinstance(v, dict) and v.get("type") == "text"),
                            "tools": lambda v: not v, "functions": lambda v: not v,
                            "tool_choice": lambda v: v in (None, "none", "auto"), "function_call": lambda v: v in (None, "none", "auto"),
                            "logprobs": lambda v: not v, "top_logprobs": lambda v: not v,
                            "modalities": lambda v: v in (None, ["text"]), "audio": lambda v: v is None,
                            "prediction": lambda v: v is None, "web_search_options": lambda v: v is None}
"""Parameters shelfwise cannot honour, with the values that ask for nothing it cannot give (accepted)."""


def refused_parameters(data: ChatRequest) -> tuple[list[str], list[str]]:
    """The request's parameters shelfwise cannot honour, and those it does not know, each in alphabetical order."""
    unsupported, unknown = [], []
    for name, value in (data.model_extra or {}).items():
        if name in _IGNORED:
            continue
        if name in _NEUTRAL:
            if not _NEUTRAL[name](value):
                unsupported.append(name)
        else:
            unknown.append(name)
    return sorted(unsupported), sorted(unknown)


def _refusal(unsupported: list[str], unknown: list[str]) -> Response:
    parts = []
    if unsupported:
        parts.append(f"unsupported parameter{'s' if len(unsupported) > 1 else ''}: {', '.join(unsupported)} (shelfwise answers with its "
                     "checked Markdown text only: no response formats, tools, logprobs or audio); leave "
                     f"{'them' if len(unsupported) > 1 else 'it'} out")
    if unknown:
        parts.append(f"unrecognized parameter{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
    return openai_error(400, "; ".join(parts), param=(unsupported or unknown)[0])


def approx_tokens(text: str) -> int:
    """Tokens of ``text`` by estimate, as no tokenizer is loaded: ceil(characters / 4), OpenAI's rule of thumb for English."""
    return math.ceil(len(text) / 4)


def _said(message: ChatMessage) -> str:
    if isinstance(message.content, list):
        return "\n".join(part["text"] for part in message.content if isinstance(part.get("text"), str))
    return message.content or ""


def usage(data: ChatRequest, reply: str) -> Usage:
    """The OpenAI ``usage`` of a reply, estimated (approx_tokens): the prompt is every message's text."""
    prompt = sum(approx_tokens(_said(m)) for m in data.messages)
    completion = approx_tokens(reply)
    return Usage(prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion)


def _text(message: ChatMessage, number: int) -> str:
    if message.content is None:
        return ""
    if isinstance(message.content, str):
        return message.content
    parts = []
    for part in message.content:
        if part.get("type") != "text" or not isinstance(part.get("text"), str):
            raise BadRequest(f"messages.{number}.content has a part of type {str(part.get('type'))[:40]!r}; shelfwise reads text parts only")
        parts.append(part["text"])
    return "\n".join(parts)


def chat_ask_request(data: ChatRequest, max_turns: int) -> AskRequest:
    """The /api/ask request a chat request amounts to (BadRequest when there is no question to answer)."""
    said = [(m.role, _text(m, i)) for i, m in enumerate(data.messages) if m.role in ("user", "assistant")]
    if not said or said[-1][0] != "user":
        raise BadRequest("the last message must be the user's question (role 'user'); shelfwise answers it from the shelf named in 'model'")
    history: list[Turn] = []
    asked: str | None = None
    try:
        for role, text in said[:-1]:
            if role == "user":
                if asked is not None:
                    history.append(Turn(question=asked))
                asked = text
            elif asked is not None:
                history.append(Turn(question=asked, answer=text, citations=list(dict.fromkeys(_SECTION_ID.findall(text)))))
                asked = None
        if asked is not None:
            history.append(Turn(question=asked))
        return AskRequest(question=said[-1][1] or " ", shelf=data.model, history=history[-max_turns:] if max_turns else [])
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise BadRequest(f"the conversation cannot be asked: {problems}") from exc


def openai_error(status: int, message: str, headers: dict[str, str] | None = None, param: str | None = None) -> Response:
    kind, code = _TYPES.get(status, ("api_error", "server_error"))
    return Response({"error": {"message": message, "type": kind, "code": code, "param": param}}, status_code=status, headers=headers)


def _api_error(_: Request, exc: ApiError) -> Response:
    return openai_error(exc.status, exc.message, exc.headers)


def _validation(_: Request, exc: ValidationException) -> Response:
    detail = [f"{item.get('key') or 'body'}: {item.get('message', '')}" for item in exc.extra or [] if isinstance(item, dict)]
    given = f" ({'; '.join(detail)})" if detail else ""
    return openai_error(400, f"{exc.detail or 'invalid request'}{given}; send {{\"model\": SHELF, \"messages\": [{{\"role\": \"user\", "
                        "\"content\": QUESTION}]}", param=detail[0].split(":", 1)[0] if detail else None)


def _http(_: Request, exc: HTTPException) -> Response:
    message = exc.detail or "request failed"
    if exc.status_code == 400 and "JSON" in message:
        message = f"the request body is not valid JSON ({message})"
    elif exc.status_code == 413:
        message = "the request body is too large (api.max_request_bytes); send a shorter conversation"
    return openai_error(exc.status_code, message, getattr(exc, "headers", None))


def _model_error(_: Request, exc: ModelError) -> Response:
    return openai_error(502, f"{exc}; the model server failed, try again later")


def _crash(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return openai_error(500, "internal error; the server log has the details")


def _links(request: Request) -> SiteLinks:
    return server_links(request.app.state, str(request.base_url))


def _readable(request: Request) -> list[str]:
    principal = request.state.principal
    return sorted(n for n in request.app.state.shelves if n in principal.shelves)


def _model(request: Request, name: str) -> ModelCard:
    shelf = request.app.state.shelves.current(name)
    return ModelCard(id=name, created=int((shelf.generation or shelf.build_dir).joinpath("store.sqlite").stat().st_mtime))


@get("/models", guards=[authenticate], sync_to_thread=False, summary="The shelves this token may ask, as models", security=TOKEN_REQUIRED,
     responses=_responses(401, 429))
def models(request: Request) -> ModelList:
    return ModelList(data=[_model(request, name) for name in _readable(request)])


def _check_model(request: Request, name: str) -> None:
    """NotFound (model_not_found) for a model the token cannot read or the server does not serve: the same reply for
    both, so it never says whether a shelf the caller may not read exists."""
    if name not in request.state.principal.shelves or name not in request.app.state.shelves:
        readable = ", ".join(_readable(request)) or "none"
        raise NotFound(f"the model '{name}' does not exist or your token cannot read it; shelves your token can read here: {readable} "
                       "(GET /v1/models lists them)")


@get("/models/{model:str}", guards=[authenticate], sync_to_thread=False, summary="One shelf, as a model", security=TOKEN_REQUIRED,
     responses=_responses(400, 401, 404, 429))
def model(request: Request,
          model: Annotated[str, PathParameter(min_length=1, max_length=200, description="A shelf name, as GET /v1/models lists them.")]) -> dict:
    _check_model(request, model)
    return _model(request, model)


def _extra(response: AskResponse, citations) -> dict:
    return {"trace_id": response.trace_id, "label": response.label, "not_covered": response.not_covered, "mode": response.mode,
            "seconds": response.seconds,
            "citations": [c.model_dump() for c in citations], "warnings": response.warnings}


def _chunk(cid: str, created: int, model_name: str, delta: dict, finish: str | None = None, **extra) -> str:
    body = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model_name,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}], **extra}
    return f"data: {json.dumps(body, ensure_ascii=False)}\n\n"


def _pieces(text: str) -> list[str]:
    """The answer in paragraphs, each but the first with the blank line before it (their sum is ``text``)."""
    parts = text.split("\n\n")
    return [parts[0], *("\n\n" + p for p in parts[1:])]


async def _events(state, principal, ask: AskRequest, links: SiteLinks, data: ChatRequest) -> AsyncIterator[str]:
    cid, created = f"chatcmpl-{secrets.token_hex(12)}", int(time.time())
    yield _chunk(cid, created, ask.shelf or "", {"role": "assistant", "content": ""})
    try:
        response = await anyio.to_thread.run_sync(answer_prepared, state, principal, ask)
    except ApiError as exc:
        kind, code = _TYPES.get(exc.status, ("api_error", "server_error"))
        yield f"data: {json.dumps({'error': {'message': exc.message, 'type': kind, 'code': code, 'param': None}})}\n\n"
        yield "data: [DONE]\n\n"
        return
    except Exception:  # noqa: BLE001 - the status line is sent: the failure goes to the client as an error event
        log.exception("unexpected error while streaming an answer")
        yield 'data: {"error": {"message": "internal error; the server log has the details", "type": "api_error", "code": "server_error", "param": null}}\n\n'
        yield "data: [DONE]\n\n"
        return
    text, citations = linked_answer(_inert(state, response), links)
    for piece in _pieces(text):
        yield _chunk(cid, created, ask.shelf or "", {"content": piece})
    yield _chunk(cid, created, ask.shelf or "", {}, "stop", shelfwise=_extra(response, citations))
    if data.stream_options is not None and data.stream_options.include_usage:
        body = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": ask.shelf or "", "choices": [],
                "usage": usage(data, text).model_dump()}
        yield f"data: {json.dumps(body, ensure_ascii=False)}\n\n"
    yield "data: [DONE]\n\n"


def _inert(state, response: AskResponse) -> AskResponse:
    if "v1" not in state.settings.api.inert_markup:
        return response
    return response.model_copy(update={"answer_markdown": inert_markdown(response.answer_markdown)})


@post("/chat/completions", guards=[authenticate], before_request=check_json_depth, status_code=200, security=TOKEN_REQUIRED,
      summary="Answer the last user message from the shelf named as the model (OpenAI chat format)",
      responses={200: ResponseSpec(data_container=ChatCompletion, generate_examples=False,
                                   description="The answer; with stream, server-sent chat.completion.chunk events ending with "
                                               "'data: [DONE]' (text/event-stream)."),
                 **_responses(400, 401, 404, 413, 429, 502, 504)})
async def chat_completions(request: Request, data: JSONBody[ChatRequest]) -> Response:
    unsupported, unknown = refused_parameters(data)
    if unsupported or unknown:
        return _refusal(unsupported, unknown)
    state = request.app.state
    principal = request.state.principal
    _check_model(request, data.model)
    ask = prepare_ask(state, principal, chat_ask_request(data, state.settings.api.max_history_turns))
    links = _links(request)
    if data.stream:
        return Stream(_events(state, principal, ask, links, data), media_type="text/event-stream",
                      headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response = await anyio.to_thread.run_sync(answer_prepared, state, principal, ask)
    text, citations = linked_answer(_inert(state, response), links)
    body = ChatCompletion(id=f"chatcmpl-{response.trace_id}", created=int(time.time()), model=data.model,
                          choices=[Choice(message=AssistantMessage(content=text))], usage=usage(data, text),
                          shelfwise=_extra(response, citations))
    return Response(body.model_dump(), headers={"X-Shelfwise-Trace": response.trace_id})


OPENAI_ROUTER = Router(
    path="/v1", route_handlers=[models, model, chat_completions], tags=["OpenAI-compatible"],
    exception_handlers={ApiError: _api_error, ModelError: _model_error, ValidationException: _validation, HTTPException: _http, Exception: _crash},
)
"""Mounted by create_app beside /api: every error under /v1 in the OpenAI shape; the routes are in /api/schema."""
