"""Errors the answering side raises on purpose; shelfwise/api/server/app.py maps each to its HTTP status in one place.

    ShelfwiseError (shelfwise.compiler.errors)
    └── ApiError                base; carries the HTTP status
        ├── BadRequest          400: a field is wrong (raised by routes, answer)
        ├── Unauthorized        401: no token, or an unknown one (raised by security)
        ├── Forbidden           403: the token does not grant the shelf (raised by security)
        ├── NotFound            404: no such section, shelf document or answer (raised by routes)
        ├── RateLimited         429: the token asked too often (raised by security)
        └── AnswerTimeout       504: the answer took longer than api.answer_timeout_s (raised by answer)
"""

from __future__ import annotations

from shelfwise.compiler.errors import ShelfwiseError

__all__ = ["ApiError", "BadRequest", "Unauthorized", "Forbidden", "NotFound", "RateLimited", "AnswerTimeout"]


class ApiError(ShelfwiseError):
    """Base: an expected failure of a request; ``status`` is its HTTP status."""

    status = 400

    def __init__(self, message: str, *, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.headers = headers or {}


class BadRequest(ApiError):
    """Raised when a request field is wrong: the message names the field and the fix."""

    status = 400


class Unauthorized(ApiError):
    """Raised by security when the Authorization header is missing, malformed or names no known token."""

    status = 401


class Forbidden(ApiError):
    """Raised by security when the token does not grant a shelf the request reads."""

    status = 403


class NotFound(ApiError):
    """Raised by routes for an unknown shelf, document, section or answer the token could read."""

    status = 404


class RateLimited(ApiError):
    """Raised by security when a token exceeds api.rate_limit_per_minute."""

    status = 429


class AnswerTimeout(ApiError):
    """Raised by the answer driver between stages once api.answer_timeout_s has passed."""

    status = 504
