"""The one place an OpenAI-compatible client is built, and the small chat interface stages use.

``make_client`` accepts ``http_client``: tests pass an ``httpx.Client`` over
``httpx.MockTransport`` replaying recorded replies through the real ``openai``
client. No silent fallback: a role with no model configured is model-free, and
says so; a role with a model that fails raises ``ModelError``.
"""

from __future__ import annotations

import os

import httpx

from compiler.errors import ShelfwiseError
from compiler.settings import ModelSettings

__all__ = ["ModelError", "ChatModel", "make_client"]


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


class ChatModel:
    """One model id on one client: ``complete(messages) -> str``, with usage counted."""

    def __init__(self, client, model: str):
        self.client = client
        self.model = model
        self.prompt_tokens = 0
        self.completion_tokens = 0

    def complete(self, messages: list[dict], *, json_object: bool = False, max_tokens: int | None = None) -> str:
        import openai

        kwargs: dict = {"model": self.model, "messages": messages, "temperature": 0}
        if json_object:
            kwargs["response_format"] = {"type": "json_object"}
        if max_tokens:
            kwargs["max_tokens"] = max_tokens
        try:
            reply = self.client.chat.completions.create(**kwargs)
        except openai.APIError as exc:
            raise ModelError(f"model {self.model} failed: {type(exc).__name__}: {exc}") from exc
        if reply.usage:
            self.prompt_tokens += reply.usage.prompt_tokens or 0
            self.completion_tokens += reply.usage.completion_tokens or 0
        content = reply.choices[0].message.content if reply.choices else None
        if not content:
            raise ModelError(f"model {self.model} returned an empty reply")
        return content
