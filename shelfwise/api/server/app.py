"""The Litestar app: ``create_app(settings, *, chat, embedder, stores)``; HTTP errors are mapped here, in one place.

Every error body is ``{"error": message, "status": code, "detail": [...]}``, except under /v1 (the
OpenAI-compatible routes, shelfwise/api/server/openai_routes.py), whose router maps the same errors to the OpenAI shape.
Expected errors keep their message; anything else is logged with its
traceback and answered 500 with no internals in the body.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from litestar import Litestar, Request, Response
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from shelfwise.api.answer import build_pipeline
from shelfwise.api.server.compare_routes import COMPARE_ROUTES
from shelfwise.api.errors import ApiError
from shelfwise.api.server.openai_routes import OPENAI_ROUTER
from shelfwise.api.server.routes import BEARER, ROUTES
from shelfwise.api.server.schema_page import schema_plugins
from shelfwise.api.server.security import FailedAuthLimiter, Grants, RateLimiter
from shelfwise.api.shelves import OpenShelf, ShelfRegistry
from shelfwise.api.server.sites import INDEX_ROUTES, SITE_ROUTES
from shelfwise.api.trace import TraceStore
from shelfwise.compiler import __version__
from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.models import ChatModel, ModelError
from shelfwise.compiler.settings import Settings

__all__ = ["create_app"]

log = logging.getLogger("shelfwise.api")


def _body(status: int, message: str, detail: list[str] | None = None, headers: dict[str, str] | None = None) -> Response:
    return Response({"error": message, "status": status, "detail": detail or []}, status_code=status, headers=headers)


def _api_error(_: Request, exc: ApiError) -> Response:
    return _body(exc.status, exc.message, headers=exc.headers)


def _model_error(_: Request, exc: ModelError) -> Response:
    return _body(502, f"{exc}; the model server failed, try again later")


def _expected(_: Request, exc: ShelfwiseError) -> Response:
    return _body(400, str(exc))


def _validation(request: Request, exc: ValidationException) -> Response:
    detail, sources = [], set()
    for item in exc.extra if isinstance(exc.extra, list) else []:
        if isinstance(item, dict):
            key = item.get("key") or item.get("source") or "body"
            sources.add(item.get("source") or "body")
            detail.append(f"{key}: {item.get('message', '')}".strip())
    message = exc.detail or f"invalid request to {request.method} {request.url.path}"
    given = f" ({'; '.join(detail)})" if detail else ""
    if "path" in sources:
        return _body(400, f"{message}{given}; the id in the path is malformed: section ids are 's' and 11 hex digits (from "
                     "/api/search hits and answers' citations), answer trace ids 'a' and 20 (an answer's trace_id)", detail)
    if request.method in {"GET", "HEAD"} or "query" in sources:
        return _body(400, f"{message}{given}; {request.method} {request.url.path} takes query parameters in the URL, "
                     "e.g. /api/search?shelf=NAME&q=WORDS&k=10: see /api/schema for each route's parameters", detail)
    return _body(400, message + "; send a JSON object such as {\"question\": \"...\", \"shelf\": \"...\"}", detail)


def _http(_: Request, exc: HTTPException) -> Response:
    status = exc.status_code
    message = exc.detail or "request failed"
    if status == 400 and "JSON" in message:
        message = f"the request body is not valid JSON ({message}); send a JSON object such as {{\"question\": \"...\", \"shelf\": \"...\"}}"
    elif status == 413:
        message = "the request body is too large (api.max_request_bytes); send a shorter question and history"
    elif status == 404:
        message = f"{message}: no such route; see /api/schema for the API"
    elif status == 405:
        message = f"{message}: this route does not take that method; see /api/schema"
    return _body(status, message, headers=getattr(exc, "headers", None))


def _crash(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return _body(500, "internal error; the server log has the details")


def create_app(
    settings: Settings,
    *,
    chat: Mapping[str, ChatModel] | None,
    embedder: Embedder | None,
    stores: Mapping[str, Path | OpenShelf],
    sites: Mapping[str, Path] | None = None,
) -> Litestar:
    """The API over ``stores`` (shelf name -> compiled build folder, or an already open shelf).

    Build folders are opened in the lifespan and closed at shutdown; open
    shelves given in are left open. ``chat`` maps answering roles (planner,
    writer, checker) to models; ``sites`` maps shelf names to static site folders
    served under /sites/<shelf>/ to tokens granting the shelf (shelfwise/api/server/sites.py), or to anyone for api.public_sites.
    """
    for name, where in stores.items():
        if not isinstance(where, OpenShelf) and not (Path(where) / "store.sqlite").exists():
            raise ShelfwiseError(f"shelf '{name}': no compiled store at {Path(where) / 'store.sqlite'}; run 'shelfwise build' on it first")
    pipeline = build_pipeline(settings, chat)
    grants = Grants(settings.api, sorted(stores))

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        shelves = ShelfRegistry(embedder, settings=settings)
        traces = TraceStore(settings.api.trace_db, settings.api.trace_retention_days)
        try:
            for name in sorted(stores):
                shelves.add(name, stores[name])
            app.state.shelves = shelves
            app.state.traces = traces
            yield
        finally:
            shelves.close()
            traces.close()

    handlers: list = [*ROUTES, *COMPARE_ROUTES, *INDEX_ROUTES, OPENAI_ROUTER]
    if sites:
        handlers.extend(SITE_ROUTES)
    cors = None
    if settings.api.cors_origins:
        cors = CORSConfig(
            allow_origins=list(settings.api.cors_origins),
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["Authorization", "Content-Type"],
            max_age=600,
        )
    return Litestar(
        route_handlers=handlers,
        lifespan=[lifespan],
        cors_config=cors,
        request_max_body_size=settings.api.max_request_bytes,
        openapi_config=OpenAPIConfig(
            title="shelfwise", version=__version__, path="/api/schema", render_plugins=schema_plugins(),
            components=Components(security_schemes={BEARER: SecurityScheme(
                type="http", scheme="bearer",
                description="A token from api.tokens, sent as 'Authorization: Bearer TOKEN'; it grants a set of shelves.")}),
        ),
        exception_handlers={
            ApiError: _api_error,
            ModelError: _model_error,
            ShelfwiseError: _expected,
            ValidationException: _validation,
            HTTPException: _http,
            Exception: _crash,
        },
        state=State({
            "settings": settings, "pipeline": pipeline, "grants": grants, "limiter": RateLimiter(settings.api.rate_limit_per_minute),
            "failed_auth": FailedAuthLimiter(settings.api.failed_auth_per_minute), "sites": dict(sites or {}),
        }),
        debug=False,
        # logging is the process owner's to configure (shelfwise serve, uvicorn): Litestar's default config would put a
        # root handler on the stderr of whoever built the app, which in a test run is a stream closed by then
        logging_config=None,
    )

