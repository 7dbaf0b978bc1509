"""Request hygiene: JSON nesting depth checked before parsing, control and bidi-override characters removed from
text the answer and the trace echo back, and the error body the OpenAPI document declares."""

from __future__ import annotations

import re
import unicodedata

from litestar import Request
from litestar.openapi.datastructures import ResponseSpec
from pydantic import BaseModel, Field

from shelfwise.api.errors import BadRequest

__all__ = ["ErrorBody", "check_json_depth", "clean_text", "error_responses", "json_depth"]

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")
# Bidi embeddings, overrides and isolates, and the marks that reorder text without showing.
_BIDI = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"))


class ErrorBody(BaseModel):
    """Every error reply's body."""

    error: str = Field(description="What went wrong and how to fix it, in words.")
    status: int = Field(description="The HTTP status, repeated.")
    detail: list[str] = Field(default_factory=list, description="Field-by-field problems of a request that failed validation.")


_MEANINGS = {
    400: "The request is wrong: a query parameter, an id in the path, a field of the JSON body or its nesting; the error says which and how to fix it.",
    401: "No token, a malformed Authorization header, or an unknown token.",
    403: "The token does not grant a shelf the request reads.",
    404: "No such shelf, section or answer that this token can read.",
    413: "The request body is larger than api.max_request_bytes.",
    429: "Too many requests from this token, or too many failed token checks from this address; see Retry-After.",
    502: "A configured model failed.",
    504: "The answer took longer than api.answer_timeout_s.",
}


def error_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI response entries for ``statuses``, each with the real error body."""
    return {code: ResponseSpec(data_container=ErrorBody, description=_MEANINGS[code], generate_examples=False) for code in statuses}


def json_depth(body: bytes) -> int:
    """The deepest nesting of arrays and objects in ``body`` (strings skipped), without parsing it."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub(b"", body)):
        if bracket in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


async def check_json_depth(request: Request) -> None:
    """before_request hook: 400 for a JSON body nested deeper than api.max_json_depth (read once; Litestar keeps it)."""
    if request.method not in {"POST", "PUT", "PATCH"}:
        return
    limit = request.app.state.settings.api.max_json_depth
    body = await request.body()
    if body.count(b"[") + body.count(b"{") <= limit:
        return
    depth = json_depth(body)
    if depth > limit:
        raise BadRequest(f"the JSON body is nested {depth} levels deep; the limit is {limit} (api.max_json_depth)")


def clean_text(text: str) -> str:
    """``text`` without control characters (a newline or tab becomes a space) and without bidi controls."""
    text = text.translate(_BIDI)
    if text.isprintable():
        return text
    return "".join(" " if ch in "\t\n\r\v\f" else ch for ch in text if ch in "\t\n\r\v\f" or unicodedata.category(ch) != "Cc")
