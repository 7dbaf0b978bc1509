"""The bodies of the OpenAI-compatible routes (shelfwise/api/server/openai_routes.py) as the OpenAPI document shows them:
the chat completion, the model list, and the error shape. The routes build their replies from these."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = ["OpenAIError", "OpenAIErrorBody", "Usage", "AssistantMessage", "Choice", "ChatCompletion", "ModelCard", "ModelList"]


class OpenAIError(BaseModel):
    """An error as the OpenAI API gives it."""

    message: str = Field(description="What went wrong and how to fix it, in words.")
    type: str = Field(description="invalid_request_error, authentication_error, not_found_error, rate_limit_error or api_error.")
    code: str | None = Field(default=None, description="invalid_request, invalid_api_key, model_not_found, rate_limit_exceeded, ...")
    param: str | None = Field(default=None, description="The request parameter at fault, when one is.")


class OpenAIErrorBody(BaseModel):
    """Every error reply's body under /v1."""

    error: OpenAIError


class Usage(BaseModel):
    """Tokens by estimate (no tokenizer is loaded): a text is ceil(characters / 4) tokens."""

    prompt_tokens: int = Field(description="Every message's text of the request, estimated.")
    completion_tokens: int = Field(description="The reply's content, estimated.")
    total_tokens: int = Field(description="Their sum.")


class AssistantMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str = Field(description="The checked answer's Markdown: numbered citations [[n]](url), the sources, the trace id.")
    refusal: None = None


class Choice(BaseModel):
    index: int = 0
    message: AssistantMessage
    finish_reason: Literal["stop"] = "stop"
    logprobs: None = None


class ChatCompletion(BaseModel):
    """The reply of POST /v1/chat/completions without ``stream`` (with it: server-sent ``chat.completion.chunk`` events
    ending with ``data: [DONE]``)."""

    id: str = Field(description="'chatcmpl-' and the answer's trace id.")
    object: Literal["chat.completion"] = "chat.completion"
    created: int = Field(description="Unix time of the reply.")
    model: str = Field(description="The shelf answered from.")
    choices: list[Choice]
    usage: Usage
    shelfwise: dict[str, Any] = Field(description="trace_id, label, not_covered, mode, seconds, citations and warnings of the answer.")


class ModelCard(BaseModel):
    """A shelf, as a model."""

    id: str = Field(description="The shelf's name.")
    object: Literal["model"] = "model"
    created: int = Field(description="Unix time its current build was written.")
    owned_by: Literal["shelfwise"] = "shelfwise"


class ModelList(BaseModel):
    """The shelves the token may ask, as models."""

    object: Literal["list"] = "list"
    data: list[ModelCard]
