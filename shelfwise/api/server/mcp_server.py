"""``shelfwise mcp``: the compiled shelves as a Model Context Protocol server (the official ``mcp`` SDK, MCPServer).

Tools: ``search(shelf, query)``, ``read_section(section_id)``, ``links(section_or_doc)``, ``ledger(shelf,
subject)`` and ``ask(shelf, question, mode)`` (the checked answer through shelfwise/api/server/asking.py, so the same limits
and stored traces as /api/ask); results are shelfwise/api/server/shelf_tools.py records, read from the store. Every tool is
read-only (``readOnlyHint``; nothing outside the shelves is reached: ``openWorldHint`` false) and every parameter is
described. Each document is a resource, ``shelfwise://<shelf>/<doc id>`` (Markdown), listed and read from the
shelf's current build at the time of the request: a rebuild that removes a document takes it off the list, one
that adds a document puts it on, with no restart.

Over stdio the caller may read the shelves named on the command line (its principal is ``stdio``). Over
streamable HTTP (``--http``, 127.0.0.1) every request needs a bearer token from ``api.tokens``, checked
before the SDK sees it (the failed-check limit and the per-token rate limit of the API apply); each tool
call, resource read and resource listing then reads only the shelves that token grants, so a listing never
names a document of another tenant.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, INVALID_REQUEST, ToolAnnotations
from mcp_types import Resource as MCPResource
from pydantic import Field

from shelfwise.api.answer import Pipeline
from shelfwise.api.server.asking import ask_as
from shelfwise.api.cite_links import SiteLinks, site_root
from shelfwise.api.errors import ApiError, Unauthorized
from shelfwise.api.schemas import AskRequest
from shelfwise.api.server.security import (UVICORN_OPTIONS, FailedAuthLimiter, Grants, Principal, RateLimiter, client_address,
                                          resolve_principal)
from shelfwise.api.server.shelf_tools import (CheckedAnswer, LedgerResults, LinkResults, SearchResults, SectionText, checked_answer,
                             document_markdown, ledger_results, link_results, search_results, section_text)
from shelfwise.api.shelves import ShelfRegistry
from shelfwise.api.trace import TraceStore
from shelfwise.compiler import __version__
from shelfwise.compiler.digests.identity import document_name
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.settings import Settings

__all__ = ["McpState", "build_mcp_server", "bearer_gate", "serve_mcp", "RESOURCE_SCHEME"]

log = logging.getLogger("shelfwise.mcp")

RESOURCE_SCHEME = "shelfwise"
INSTRUCTIONS = (
    "Compiled document shelves. search(shelf, query) finds sections; read_section(section_id) gives a section's text, "
    "headings, pages and site URL; links(section_or_doc) what it references or is referenced by; ledger(shelf, subject) the "
    "stored definitions, requirements and figures about a subject; ask(shelf, question) a checked answer whose every statement "
    "cites a section. Quote and cite what these tools return; they hold the documents' own words."
)


@dataclass
class McpState:
    """What the tools read with: the same parts as the HTTP app's state."""

    settings: Settings
    pipeline: Pipeline
    shelves: ShelfRegistry
    traces: TraceStore | None
    grants: Grants | None  # streamable HTTP: the API's tokens
    fixed: Principal | None = None  # stdio: the shelves named on the command line
    limiter: RateLimiter = field(init=False)
    failed_auth: FailedAuthLimiter = field(init=False)

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.settings.api.rate_limit_per_minute)
        self.failed_auth = FailedAuthLimiter(self.settings.api.failed_auth_per_minute)

    def principal(self, request: Any) -> Principal:
        """The caller: the fixed stdio principal, or the one the HTTP request's token names (checked by bearer_gate)."""
        if self.fixed is not None:
            return self.fixed
        headers = getattr(request, "headers", None)
        if self.grants is None:
            raise Unauthorized("this MCP server was started without tokens; start it with --http and api.tokens")
        return self.grants.required(headers.get("authorization") if headers is not None else None)

    def links(self) -> SiteLinks:
        template = self.settings.site.url
        return SiteLinks({n: site_root(n, self.shelves.current(n).build_dir, template=template) for n in self.shelves})

    def readable(self, principal: Principal) -> list[str]:
        return sorted(n for n in self.shelves if n in principal.shelves)


def _tool_error(exc: ShelfwiseError) -> ToolError:
    return ToolError(exc.message if isinstance(exc, ApiError) else str(exc))


def _shelf_of_uri(uri: str) -> str | None:
    prefix = f"{RESOURCE_SCHEME}://"
    return uri[len(prefix):].split("/", 1)[0] if uri.startswith(prefix) else None


def _tenant_filter(state: McpState):
    """Middleware: a resource listing keeps the caller's shelves' documents only; reading another shelf's is refused."""

    async def middleware(ctx, call_next):
        if ctx.method not in ("resources/list", "resources/read"):
            return await call_next(ctx)
        try:
            principal = state.principal(ctx.request)
        except Unauthorized as exc:
            raise MCPError(INVALID_REQUEST, exc.message) from exc
        if ctx.method == "resources/read":
            shelf = _shelf_of_uri(str((ctx.params or {}).get("uri", "")))
            if shelf is not None and shelf not in principal.shelves:
                raise MCPError(INVALID_PARAMS, f"the token '{principal.name}' does not grant shelf '{shelf}'; use a token that grants it")
            return await call_next(ctx)
        result = await call_next(ctx)
        if isinstance(result, dict):
            return {**result, "resources": [r for r in result.get("resources", []) if _shelf_of_uri(str(r.get("uri", ""))) in principal.shelves]}
        kept = [r for r in result.resources if _shelf_of_uri(str(r.uri)) in principal.shelves]
        return result.model_copy(update={"resources": kept})

    return middleware


class _ShelfServer(MCPServer):
    """The SDK's server with the documents as resources listed and read from each shelf's current build."""

    def __init__(self, state: McpState, **options: Any):
        super().__init__(**options)
        self._state = state

    async def list_resources(self) -> list[MCPResource]:
        listed = []
        for name in self._state.shelves:
            shelf = self._state.shelves.current(name)
            for doc_id in shelf.doc_order():
                row = shelf.documents[doc_id]
                listed.append(MCPResource(uri=f"{RESOURCE_SCHEME}://{name}/{doc_id}", name=f"{name}/{doc_id}", title=document_name(row),
                                          description=f"{document_name(row)} ({row['path']}), shelf {name}", mime_type="text/markdown"))
        return listed

    async def read_resource(self, uri: Any, context: Context | None = None) -> list[ReadResourceContents]:
        shelf_name, _, doc_id = str(uri).removeprefix(f"{RESOURCE_SCHEME}://").partition("/")
        if not str(uri).startswith(f"{RESOURCE_SCHEME}://") or shelf_name not in self._state.shelves:
            raise ResourceNotFoundError(f"no resource {uri}; resources are {RESOURCE_SCHEME}://<shelf>/<document id> (resources/list)")
        try:
            with self._state.shelves.use([shelf_name]) as shelves:
                if doc_id not in shelves[shelf_name].documents:
                    raise ResourceNotFoundError(f"no document '{doc_id}' in shelf '{shelf_name}' now; resources/list gives the current ones")
                text = document_markdown(shelves[shelf_name], doc_id, self._state.links())
        except ShelfwiseError as exc:
            raise ResourceError(str(exc)) from exc
        return [ReadResourceContents(content=text, mime_type="text/markdown")]


_READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
_SHELF = Field(description="The shelf's name: the <shelf> of the shelfwise://<shelf>/<doc id> resources listed to you.")
_SCOPE = Field(description="Only this shelf; none: every shelf you may read.")


def build_mcp_server(state: McpState) -> MCPServer:
    """The MCP server over ``state``'s shelves: five read-only tools and one resource per document of the current builds."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    server = _ShelfServer(state, name="shelfwise", title="shelfwise", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING",
                          middleware=[_tenant_filter(state)])
    for handler in [h for h in root.handlers if h not in handlers]:  # the SDK calls logging.basicConfig: the process's
        root.removeHandler(handler)                                    # logging is its owner's to configure, not a library's
    root.setLevel(level)

    def granted(ctx: Context, shelves: list[str]) -> Principal:
        principal = state.principal(ctx.request_context.request)
        principal.require(shelves)
        missing = [s for s in shelves if s not in state.shelves]
        if missing:
            readable = ", ".join(state.readable(principal)) or "none"
            raise ToolError(f"shelf '{missing[0]}' is not served here; shelves you can read here: {readable}")
        return principal

    def readable_names(ctx: Context, shelf: str | None) -> list[str]:
        if shelf:
            granted(ctx, [shelf])
            return [shelf]
        return state.readable(state.principal(ctx.request_context.request))

    @server.tool(description="Search a shelf's sections (BM25, dense and exact identifiers fused); each hit has its section id, "
                             "headings, a snippet and its site URL.", title="Search a shelf", annotations=_READ_ONLY)
    def search(shelf: Annotated[str, _SHELF],
               query: Annotated[str, Field(description="Words to search for (1 to 2000 characters); identifiers such as CAL-07 match exactly.")],
               ctx: Context, k: Annotated[int, Field(description="How many sections to return, 1 to 100.")] = 10) -> SearchResults:
        try:
            granted(ctx, [shelf])
            if not query.strip() or len(query) > 2000 or not 1 <= k <= 100:
                raise ToolError("query must hold 1 to 2000 characters and k be 1 to 100")
            with state.shelves.use([shelf]) as shelves:
                return search_results(shelves[shelf], query, k, state.links())
        except ShelfwiseError as exc:
            raise _tool_error(exc) from exc

    @server.tool(description="A section's own text with its document, heading path, page span and site URL.", title="Read a section",
                 annotations=_READ_ONLY)
    def read_section(section_id: Annotated[str, Field(description="A section id ('s' and 11 hex digits) from search hits or answers.")],
                     ctx: Context, shelf: Annotated[str | None, _SCOPE] = None) -> SectionText:
        try:
            names = readable_names(ctx, shelf)
            with state.shelves.use(names) as shelves:
                return section_text(shelves, section_id, state.links())
        except ShelfwiseError as exc:
            raise _tool_error(exc) from exc

    @server.tool(description="The links from and to a section or a document (by id): references, supersedes, implements, ...",
                 title="Links of a section or document", annotations=_READ_ONLY)
    def links(section_or_doc: Annotated[str, Field(description="A section id or a document id (the doc_id of search hits).")],
              ctx: Context, shelf: Annotated[str | None, _SCOPE] = None) -> LinkResults:
        try:
            names = readable_names(ctx, shelf)
            with state.shelves.use(names) as shelves:
                return link_results(shelves, section_or_doc, state.links())
        except ShelfwiseError as exc:
            raise _tool_error(exc) from exc

    @server.tool(description="The shelf's ledger: stored definitions, requirements, numbers and dates whose subject holds the given "
                             "words, each with its verbatim sentence and section.", title="Facts about a subject", annotations=_READ_ONLY)
    def ledger(shelf: Annotated[str, _SHELF],
               subject: Annotated[str, Field(description="Words the stored facts' subject must hold (case and spacing aside).")],
               ctx: Context) -> LedgerResults:
        try:
            granted(ctx, [shelf])
            with state.shelves.use([shelf]) as shelves:
                return ledger_results(shelves[shelf], subject, state.links())
        except ShelfwiseError as exc:
            raise _tool_error(exc) from exc

    @server.tool(description="A checked answer from a shelf: every statement quoted from (or checked against) the section it cites, "
                             "citations numbered with site URLs, its label, the gaps (not_covered) and its trace id.",
                 title="Ask a shelf", annotations=_READ_ONLY)
    def ask(shelf: Annotated[str, _SHELF], question: Annotated[str, Field(description="The question, in plain words.")], ctx: Context,
            mode: Annotated[Literal["auto", "whole"], Field(description="auto: the shelf's most relevant documents; whole: read the "
                                                                       "whole shelf when it fits the reading budget.")] = "auto") -> CheckedAnswer:
        try:
            principal = granted(ctx, [shelf])
            response = ask_as(state, principal, AskRequest(question=question or " ", shelf=shelf, mode=mode))
            return checked_answer(response, state.links())
        except ShelfwiseError as exc:
            raise _tool_error(exc) from exc

    return server


def bearer_gate(app, state: McpState):
    """ASGI wrapper of the streamable HTTP app: 401 without a known bearer token, 429 past the limits; then the app."""

    async def gated(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        address = client_address(scope, state.settings.api.trusted_proxies)
        try:
            principal = resolve_principal(state, address, headers.get("authorization"), required=True)
            state.limiter.hit(principal.name)
        except ApiError as exc:
            body = json.dumps({"error": exc.message, "status": exc.status, "detail": []}).encode("utf-8")
            extra = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in (exc.headers or {}).items()]
            if exc.status == 401:
                extra.append((b"www-authenticate", b'Bearer realm="shelfwise"'))
            await send({"type": "http.response.start", "status": exc.status,
                        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra]})
            await send({"type": "http.response.body", "body": body})
            return
        return await app(scope, receive, send)

    return gated


def serve_mcp(shelves: list[str], settings: Settings, *, http: bool, host: str = "127.0.0.1", port: int = 8001, embedder=None) -> None:
    """Serve ``shelves`` (names under the build dir; none: every compiled shelf) over stdio or streamable HTTP until stopped."""
    import anyio

    from shelfwise.api.answer import build_pipeline, chat_models
    from shelfwise.api.server.serve import shelf_build_dirs
    from shelfwise.compiler.index.embedders import embedder_from_settings

    build_dirs = shelf_build_dirs(shelves, settings)
    pipeline = build_pipeline(settings, chat_models(settings))
    grants = Grants(settings.api, sorted(build_dirs)) if http else None  # stdio reads the shelves named, with no token
    registry = ShelfRegistry(embedder if embedder is not None else embedder_from_settings(settings), settings=settings)
    traces = TraceStore(settings.api.trace_db, settings.api.trace_retention_days)
    try:
        for name in sorted(build_dirs):
            registry.add(name, build_dirs[name])
        fixed = None if http else Principal("stdio", frozenset(build_dirs))
        state = McpState(settings=settings, pipeline=pipeline, shelves=registry, traces=traces, grants=grants, fixed=fixed)
        server = build_mcp_server(state)
        if not http:
            anyio.run(server.run_stdio_async)
            return
        import uvicorn

        app = bearer_gate(server.streamable_http_app(host=host), state)
        uvicorn.run(app, host=host, port=port, log_level="warning", timeout_keep_alive=5, **UVICORN_OPTIONS)
    finally:
        registry.close()
        traces.close()
