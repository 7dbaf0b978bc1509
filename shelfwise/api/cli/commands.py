"""`shelfwise ask`, `trace` and `serve`: the answering commands, registered into the CLI through the
``shelfwise.commands`` entry point (compiler/ never imports api/)."""

from __future__ import annotations

import argparse

__all__ = ["add_commands", "cmd_ask", "cmd_trace", "cmd_serve", "cmd_mcp"]


def cmd_ask(args: argparse.Namespace, settings) -> int:
    from shelfwise.api.cli.actions import ask_command

    return ask_command(args.shelf, args.question, args.json, settings, research=args.research)


def cmd_trace(args: argparse.Namespace, settings) -> int:
    from shelfwise.api.cli.actions import trace_command

    return trace_command(args.trace_id, settings, json_out=args.json)


def cmd_serve(args: argparse.Namespace, settings) -> int:
    from shelfwise.api.cli.actions import serve_command

    return serve_command(args.shelves, args.host, args.port, settings)


def cmd_mcp(args: argparse.Namespace, settings) -> int:
    from shelfwise.api.cli.actions import mcp_command

    return mcp_command(args.shelves, settings, http=args.http, host=args.host, port=args.port)


def add_commands(commands, common, bind) -> None:
    ask = commands.add_parser("ask", help="answer a question from a compiled shelf, in-process", description="Answer one question with the same pipeline as POST /api/ask (plan, recall, read, write, check, complete) and store its trace.")
    ask.add_argument("shelf", help="shelf name under the build dir (or its folder)")
    ask.add_argument("question", help="the question")
    common(ask)
    ask.add_argument("--json", action="store_true", help="print the answer JSON")
    ask.add_argument("--research", action="store_true", help="research mode: a tool-calling agent (with a planner or writer model) "
                     "or, model-free, the fixed reading plus hops along links and shared rare names chooses what is read")
    ask.set_defaults(func=bind(cmd_ask))

    trace = commands.add_parser("trace", help="show the stored trace of an answer", description="Show what an answer read, skipped and removed, and why, with cost, latency and models.")
    trace.add_argument("trace_id", help="the trace id printed with the answer")
    common(trace)
    trace.add_argument("--json", action="store_true", help="print JSON")
    trace.set_defaults(func=bind(cmd_trace))

    serve = commands.add_parser("serve", help="serve the answering endpoint and the compiled sites on 127.0.0.1", description="Serve the Litestar endpoint (/api/ask, /api/search, /api/sections/{id}, /api/answers/{id}, /api/health, /api/schema) and each compiled site under /sites/<shelf>/.")
    serve.add_argument("shelves", nargs="*", help="shelf names under the build dir (default: all compiled shelves)")
    common(serve)
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, where no api.tokens means anyone on "
                       "this machine may read; an address beyond loopback needs api.tokens)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.set_defaults(func=bind(cmd_serve))

    mcp = commands.add_parser("mcp", help="serve the shelves to assistants over the Model Context Protocol (stdio, or --http)",
                              description="An MCP server over the compiled shelves: tools search, read_section, links, ledger and ask "
                              "(the checked answer), each document a resource. Over stdio it serves the shelves named; with --http, "
                              "streamable HTTP on 127.0.0.1 at /mcp under the API's tokens (api.tokens).")
    mcp.add_argument("shelves", nargs="*", help="shelf names under the build dir (default: all compiled shelves)")
    common(mcp)
    mcp.add_argument("--http", action="store_true", help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    mcp.add_argument("--host", default="127.0.0.1", help="address to bind with --http (default 127.0.0.1)")
    mcp.add_argument("--port", type=int, default=8001, help="port with --http (default 8001)")
    mcp.set_defaults(func=bind(cmd_mcp))
