"""HTTP routes: ask, search, sections, answers (traces and their feedback) and health. Handlers stay thin: authorise, call one function.

Every route that reads shelf data goes through ``authenticate`` (a guard, so it
runs before the body is read) and then names the shelves it reads to
``Principal.require``. Stage modules raise domain errors; shelfwise/api/server/app.py maps them
to HTTP statuses.
"""

from __future__ import annotations

from urllib.parse import quote

from litestar import Request, Response, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler
from typing import Annotated

from litestar.params import FromQuery, JSONBody, PathParameter, QueryParameter

from shelfwise.api.server.ask_stream import STREAMED, StreamedOperation, stream_answer, wants_stream
from shelfwise.api.server.asking import ask_as, check_served, prepare_ask
from shelfwise.api.cite_links import server_links, with_urls
from shelfwise.api.errors import Forbidden, NotFound
from shelfwise.api.schemas import (AskRequest, AskResponse, FeedbackRequest, FeedbackResponse, HealthResponse, SearchHitOut,
                                   SearchResponse, SectionResponse)
from shelfwise.api.server.hygiene import check_json_depth, clean_text, error_responses
from shelfwise.api.server.inert_answer import inert_markdown
from shelfwise.api.server.security import Principal, client_address, resolve_principal
from shelfwise.compiler import __version__
from shelfwise.compiler.digests.identity import document_name
from shelfwise.compiler.refs import SECTION_ID
from shelfwise.compiler.ingest.renames import moved_note
from shelfwise.compiler.search.snippets import snippet

__all__ = ["authenticate", "ROUTES", "BEARER", "TOKEN_REQUIRED", "TOKEN_OPTIONAL", "MOVED"]

BEARER = "BearerToken"
TOKEN_REQUIRED = [{BEARER: []}]
"""OpenAPI security of a route that needs a token (unless api.allow_anonymous)."""
TOKEN_OPTIONAL = [{}, {BEARER: []}]
"""OpenAPI security of a route a caller may use without a token."""
MOVED = ("The id is the old id of a renamed section: Location names its new id, and the body is that section with "
         "moved_from (the id asked for) and a note saying where it went.")


def authenticate(connection: ASGIConnection, handler: BaseRouteHandler) -> None:
    """Guard: resolve the bearer token (required unless the route says 'optional'), then count it against the rate limit."""
    state = connection.app.state
    header = connection.headers.get("authorization")
    address = client_address(connection.scope, state.settings.api.trusted_proxies)
    principal = resolve_principal(state, address, header, required=handler.opt.get("auth") != "optional")
    if principal is not None:
        state.limiter.hit(principal.name)
    connection.state.principal = principal


def _principal(request: Request) -> Principal:
    return request.state.principal


def _check_served(request: Request, names: list[str]) -> None:
    """NotFound for a granted shelf this server does not serve; the message names only shelves the caller may read."""
    check_served(request.app.state.shelves, _principal(request), names)


@post("/api/ask", status_code=200, guards=[authenticate], sync_to_thread=True, summary="Answer a question from a shelf",
      description=STREAMED, operation_class=StreamedOperation, before_request=check_json_depth, security=TOKEN_REQUIRED,
      responses={200: ResponseSpec(data_container=AskResponse, generate_examples=False, description="The checked answer."),
                 **error_responses(400, 401, 403, 404, 413, 429, 502, 504)})
def ask(
    request: Request,
    data: JSONBody[AskRequest],
    stream: Annotated[bool | None, QueryParameter(description="true: answer as server-sent events (as Accept: text/event-stream "
                                                              "does); false: one JSON answer whatever Accept says.")] = None,
) -> Response[AskResponse]:
    state = request.app.state
    principal = _principal(request)

    def finish(response: AskResponse) -> AskResponse:
        if "ask" in state.settings.api.inert_markup:
            response = response.model_copy(update={"answer_markdown": inert_markdown(response.answer_markdown)})
        return with_urls(response, server_links(state, str(request.base_url)))

    if wants_stream(request.headers.get("accept"), stream):
        return stream_answer(state, principal, prepare_ask(state, principal, data), finish)
    return Response(finish(ask_as(state, principal, data)))


@get("/api/search", guards=[authenticate], sync_to_thread=True, summary="Search a shelf's sections", security=TOKEN_REQUIRED,
     responses=error_responses(400, 401, 403, 404, 429))
def search(
    request: Request,
    shelf: FromQuery[str],
    q: Annotated[str, QueryParameter(min_length=1, max_length=2000, description="The words to search for.")],
    k: Annotated[int, QueryParameter(ge=1, le=100, description="How many sections to return.")] = 10,
) -> SearchResponse:
    _principal(request).require([shelf])
    _check_served(request, [shelf])
    with request.app.state.shelves.use([shelf]) as shelves, shelves[shelf].lock:
        result = shelves[shelf].searcher.search(q, k=k)
        sections = shelves[shelf].sections
        hits = [
            SearchHitOut(section_id=h.section_id, doc_id=h.doc_id, title=h.title, path=h.path, heading_path=h.heading_path, score=h.score,
                         ranks=h.ranks, snippet=snippet(sections[h.section_id].text, q) if h.section_id in sections else "")
            for h in result.hits
        ]
    return SearchResponse(shelf=shelf, query=result.query, hits=hits, warnings=result.warnings)


@get("/api/sections/{section_id:str}", guards=[authenticate], sync_to_thread=True, summary="One section's text, by id", security=TOKEN_REQUIRED,
     responses={301: ResponseSpec(data_container=SectionResponse, generate_examples=False, description=MOVED),
                **error_responses(400, 401, 403, 404, 429)})
def section(
    request: Request,
    section_id: Annotated[str, PathParameter(pattern=f"^{SECTION_ID}$", description="A section id: 's' and 11 hex digits.")],
    shelf: FromQuery[str | None] = None,
) -> Response[SectionResponse]:
    principal = _principal(request)
    if shelf is not None:
        principal.require([shelf])
        names = [shelf]
    else:
        names = sorted(n for n in principal.shelves if n in request.app.state.shelves)
    _check_served(request, names)
    with request.app.state.shelves.use(names) as shelves:
        for name in names:
            resolved = shelves[name].resolve(section_id)
            if resolved is not None:
                found, alias = resolved
                body = _section_response(name, found, shelves[name].documents[found.doc_id])
                if alias is None:
                    return Response(body)
                moved = body.model_copy(update={"moved_from": section_id, "note": moved_note(alias, found)})
                return Response(moved, status_code=301, headers={"Location": f"/api/sections/{found.id}?shelf={quote(name)}"})
    where = f"shelf '{shelf}'" if shelf else "the shelves this token grants"
    raise NotFound(f"no section '{section_id}' in {where}; section ids come from answers' citations and /api/search")


def _section_response(name: str, found, document: dict) -> SectionResponse:
    return SectionResponse(
        shelf=name, section_id=found.id, doc_id=found.doc_id, title=document_name(document), path=document["path"],
        heading=found.heading, heading_path=found.heading_path, page_start=found.page_start, page_end=found.page_end,
        text=found.text, blocks=[b.model_dump(exclude={"figure_id"}, exclude_defaults=True) for b in found.blocks],
    )


@get("/api/answers/{trace_id:str}", guards=[authenticate], sync_to_thread=False, summary="The stored trace of an answer", security=TOKEN_REQUIRED,
     responses=error_responses(400, 401, 403, 404, 429))
def answer_trace(
    request: Request,
    trace_id: Annotated[str, PathParameter(pattern=r"^a[0-9a-f]{20}$", description="An answer's trace id: 'a' and 20 hex digits.")],
) -> dict:
    traces = request.app.state.traces
    _check_trace(request, trace_id)
    return {**traces.get(trace_id).model_dump(), "feedback": traces.feedback(trace_id)}


def _check_trace(request: Request, trace_id: str) -> None:
    """NotFound for an unknown answer, Forbidden when the caller's token does not grant every shelf it read."""
    shelves = request.app.state.traces.shelves_of(trace_id)
    principal = _principal(request)
    if shelves is None:
        raise NotFound(f"no answer with trace id '{trace_id}'; the id is the trace_id field of an /api/ask answer")
    if any(name not in principal.shelves for name in shelves):
        raise Forbidden(f"the token '{principal.name}' does not grant the shelves answer '{trace_id}' read; use the token that asked it")


@post("/api/answers/{trace_id:str}/feedback", status_code=201, guards=[authenticate], sync_to_thread=True, security=TOKEN_REQUIRED,
      summary="Say whether an answer helped (kept with its trace)", before_request=check_json_depth,
      responses=error_responses(400, 401, 403, 404, 429))
def answer_feedback(
    request: Request,
    trace_id: Annotated[str, PathParameter(pattern=r"^a[0-9a-f]{20}$", description="An answer's trace id: 'a' and 20 hex digits.")],
    data: JSONBody[FeedbackRequest],
) -> FeedbackResponse:
    _check_trace(request, trace_id)
    entry = request.app.state.traces.add_feedback(trace_id, _principal(request).name, data.rating, clean_text(data.comment))
    return FeedbackResponse(**entry)


@get("/api/health", guards=[authenticate], opt={"auth": "optional"}, sync_to_thread=False, security=TOKEN_OPTIONAL,
     summary="Liveness, and what the caller may read", responses=error_responses(401, 429))
def health(request: Request) -> HealthResponse:
    state = request.app.state
    principal = request.state.principal or state.grants.anonymous
    granted = sorted(n for n in principal.shelves if n in state.shelves) if principal else []
    public = set(state.settings.api.public_sites)
    sites = sorted(n for n in state.sites if n in public or n in granted)
    return HealthResponse(status="ok", version=__version__, shelves=granted, sites=sites)


ROUTES = [ask, search, section, answer_trace, answer_feedback, health]
