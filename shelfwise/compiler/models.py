"""The one place an OpenAI-compatible client is built, and the small chat interface stages use.

``make_client`` accepts ``http_client``: tests pass an ``httpx.Client`` over
``httpx.MockTransport`` replaying recorded replies through the real ``openai``
client. No silent fallback: a role with no model configured is model-free, and
says so; a role with a model that fails raises ``ModelError``.

Usage is counted per request: ``counting()`` opens a ``Usage`` accumulator in a
context variable, and every ``ChatModel.complete`` inside it (in that thread or
task) adds its call and tokens there, so concurrent requests sharing one
ChatModel never record each other's tokens. The ChatModel's own totals remain
for whole-run figures.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

import httpx

from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.settings import ModelSettings

__all__ = ["ModelError", "ChatModel", "make_client", "Usage", "counting"]


class ModelError(ShelfwiseError):
    """Raised by ChatModel when the model server fails after retries or answers unusably."""


def make_client(settings: ModelSettings, *, http_client: httpx.Client | None = None):
    """An ``openai.OpenAI`` client for ``settings.base_url``; the key comes from ``settings.api_key_env``."""
    import openai

    if not settings.base_url and http_client is None:
        raise ModelError("no model server configured; set models.base_url in shelfwise.toml")
    return openai.OpenAI(
        base_url=settings.base_url or "http://127.0.0.1:9/v1",
        api_key=os.environ.get(settings.api_key_env) or "no-key",
        timeout=settings.timeout_s,
        max_retries=settings.max_retries,
        http_client=http_client,
    )


@dataclass
class Usage:
    """Calls and tokens of the model calls made while it was open, per model id."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    by_model: dict[str, list[int]] = field(default_factory=dict)

    def add(self, model: str, prompt: int, completion: int) -> None:
        self.calls += 1
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        entry = self.by_model.setdefault(model, [0, 0, 0])
        entry[0] += 1
        entry[1] += prompt
        entry[2] += completion


_USAGE: ContextVar[tuple[Usage, ...]] = ContextVar("shelfwise_model_usage", default=())


@contextmanager
def counting() -> Iterator[Usage]:
    """A fresh ``Usage`` that every ChatModel call made inside the block (this thread or task) adds to.

    Blocks nest: a call counts in every open block, so a request's total and each of its steps can be counted.
    """
    usage = Usage()
    token = _USAGE.set((*_USAGE.get(), usage))
    try:
        yield usage
    finally:
        _USAGE.reset(token)


class ChatModel:
    """One model id on one client: ``complete(messages) -> str`` (and ``call_tools`` for tool calls), with usage counted."""

    def __init__(self, client, model: str):
        self.client = client
        self.model = model
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self._lock = threading.Lock()

    def complete(self, messages: list[dict], *, json_object: bool = False, max_tokens: int | None = None,
                 schema: dict | None = None) -> str:
        """The reply's text. ``json_object``: JSON mode; ``schema`` (implies it): a JSON schema the reply must follow, sent
        as llama.cpp's ``response_format={"type": "json_object", "schema": ...}`` (its server turns it into a grammar;
        the OpenAI-style ``json_schema`` type answers HTTP 500 there, FACTS.md)."""
        kwargs: dict = {"model": self.model, "messages": messages, "temperature": 0}
        if json_object or schema is not None:
            kwargs["response_format"] = {"type": "json_object", **({"schema": schema} if schema is not None else {})}
        reply = self._create(kwargs, max_tokens)
        content = reply.choices[0].message.content if reply.choices else None
        if not content:
            raise ModelError(f"model {self.model} returned an empty reply")
        return content

    def call_tools(self, messages: list[dict], tools: list[dict], *, max_tokens: int | None = None) -> dict:
        """One reply that may call ``tools`` (OpenAI function tools): {"content": str | None, "tool_calls":
        [{"id", "name", "arguments"}]} with the arguments as the model wrote them (a JSON string, unparsed)."""
        reply = self._create({"model": self.model, "messages": messages, "tools": tools, "temperature": 0}, max_tokens)
        if not reply.choices:
            raise ModelError(f"model {self.model} returned no choices")
        message = reply.choices[0].message
        calls = [{"id": call.id, "name": call.function.name, "arguments": call.function.arguments or ""}
                 for call in (message.tool_calls or []) if getattr(call, "function", None) is not None]
        return {"content": message.content, "tool_calls": calls}

    def _create(self, kwargs: dict, max_tokens: int | None):
        """One chat completion call, counted (a failed call counts too), its errors as ModelError."""
        import openai

        if max_tokens:
            kwargs["max_tokens"] = max_tokens
        try:
            reply = self.client.chat.completions.create(**kwargs)
        except openai.APIError as exc:
            self._count(0, 0)
            raise ModelError(f"model {self.model} failed: {type(exc).__name__}: {exc}") from exc
        usage = reply.usage
        self._count((usage.prompt_tokens or 0) if usage else 0, (usage.completion_tokens or 0) if usage else 0)
        return reply

    def _count(self, prompt: int, completion: int) -> None:
        """Add one call to this model's totals and to every open ``counting()`` block of the calling context."""
        with self._lock:
            self.prompt_tokens += prompt
            self.completion_tokens += completion
        for usage in _USAGE.get():
            usage.add(self.model, prompt, completion)
