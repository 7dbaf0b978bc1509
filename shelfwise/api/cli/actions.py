"""Command functions for the `shelfwise` CLI: ask, trace, serve. Each takes parsed values and settings, prints, returns an exit code."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from shelfwise.compiler.settings import Settings

__all__ = ["ask_command", "trace_command", "serve_command", "mcp_command"]


def ask_command(shelf: str, question: str, json_out: bool, settings: Settings, *, embedder=None, http_client=None,
                research: bool = False) -> int:
    """``shelfwise ask SHELF "question" [--json] [--research]``: the same pipeline as POST /api/ask, in-process; the trace is stored."""
    from shelfwise.compiler.errors import ShelfwiseError

    if not question.strip():
        raise ShelfwiseError(f'the question is empty; ask it in quotes, e.g. shelfwise ask {shelf} "Who approves the quality manual?"')
    from shelfwise.api.server.serve import shelf_build_dirs

    build_dirs = shelf_build_dirs([shelf], settings)  # a mistyped shelf is answered before the pipeline loads
    from shelfwise.api.answer import answer_question, build_pipeline, chat_models
    from shelfwise.api.shelves import close_shelves, open_shelves
    from shelfwise.api.schemas import AskRequest
    from shelfwise.api.trace import TraceStore
    from shelfwise.compiler.index.embedders import embedder_from_settings

    from shelfwise.api.cite_links import SiteLinks, site_root, with_urls

    pipeline = build_pipeline(settings, chat_models(settings, http_client=http_client))
    shelves = open_shelves(build_dirs, embedder if embedder is not None else embedder_from_settings(settings), settings=settings)
    traces = TraceStore(settings.api.trace_db, settings.api.trace_retention_days)
    try:
        request = AskRequest(question=question, shelves=sorted(shelves), mode="research" if research else "auto")
        response = answer_question(pipeline, request, shelves, token="cli", traces=traces)
        links = SiteLinks({n: site_root(n, s.build_dir, template=settings.site.url) for n, s in shelves.items()})
        response = with_urls(response, links)
    finally:
        traces.close()
        close_shelves(shelves)
    if json_out:
        print(response.model_dump_json(indent=1))
        return 0
    print(response.answer_markdown)
    if response.sources:
        print("\nSources:")
        for source in response.sources:
            print(f"  [{source.section_id}] {source.title} › {' › '.join(source.heading_path)}  ({source.url or source.path})")
    for warning in response.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"\nlabel: {response.label}  mode: {response.mode}  trace: {response.trace_id}", file=sys.stderr)
    return 0


def trace_command(trace_id: str, settings: Settings, *, json_out: bool = False) -> int:
    """``shelfwise trace ID``: the stored trace of an answer (from the CLI or the server, same trace db)."""
    from shelfwise.api.trace import TraceStore, format_trace
    from shelfwise.compiler.errors import ShelfwiseError

    traces = TraceStore(settings.api.trace_db, settings.api.trace_retention_days)
    try:
        trace = traces.get(trace_id)
    finally:
        traces.close()
    if trace is None:
        raise ShelfwiseError(f"no answer with trace id '{trace_id}' in {settings.api.trace_db}; check the id or api.trace_db")
    print(json.dumps(trace.model_dump(), indent=1, ensure_ascii=False) if json_out else format_trace(trace))
    return 0


def serve_command(shelves: list[str], host: str, port: int, settings: Settings) -> int:
    """``shelfwise serve [SHELF ...] [--host H] [--port P]``: the API and the static sites under uvicorn.

    Everything that can fail on the user's input (no such shelf, no tokens beyond loopback, a busy port) fails with
    one line before a URL is printed; with no tokens on 127.0.0.1 it says that anyone on this machine may read."""
    from shelfwise.api.server.serve import bind_port, serve, serve_access, shelf_build_dirs

    build_dirs = shelf_build_dirs(shelves, settings)
    settings, access = serve_access(settings, host)
    sock = bind_port(host, port)
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{shown}:{port}"
    print(f"answering endpoint: {base}/api/ask   (API docs: {base}/api/schema, OpenAPI: {base}/api/schema/openapi.json, "
          f"health: {base}/api/health)", flush=True)
    if settings.api.serve_sites:
        print(f"sites you can read: {base}/", flush=True)
        for name, build_dir in sorted(build_dirs.items()):
            if (Path(build_dir) / "site" / "index.html").exists():
                print(f"site {name}: {base}/sites/{name}/", flush=True)
    if access:
        print(access, flush=True)
    print("press Ctrl-C to stop", flush=True)
    serve(shelves, host, port, settings, sock=sock)
    return 0


def mcp_command(shelves: list[str], settings: Settings, *, http: bool, host: str, port: int) -> int:
    """``shelfwise mcp [SHELF ...] [--http [--host H] [--port P]]``: the MCP server (stdout is the protocol over stdio)."""
    from shelfwise.api.server.mcp_server import serve_mcp

    if http:
        print(f"MCP endpoint: http://{host}:{port}/mcp (streamable HTTP; 'Authorization: Bearer TOKEN' from api.tokens); "
              "press Ctrl-C to stop", file=sys.stderr, flush=True)
    serve_mcp(shelves, settings, http=http, host=host, port=port)
    return 0
