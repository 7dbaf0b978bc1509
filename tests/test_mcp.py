"""`shelfwise mcp` through the official `mcp` SDK's client session: over stdio (the command spawned as a subprocess)
and over streamable HTTP (the command serving uvicorn on 127.0.0.1, stopped by its PID).

Two tenants, alpha and beta: every tool and resource works for the shelves the caller may read, and nothing
of another shelf is read, listed or named (no launch code, no Zephyr) over either transport.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from answer_shelves import tenant_builds
from tests.test_browser import _free_port

ROOT = Path(__file__).resolve().parents[1]
TOOLS = {"search", "read_section", "links", "ledger", "ask"}
SECRET = ("7741", "Zephyr", "launch code")


@pytest.fixture(scope="module")
def tenants(tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp")
    builds = tenant_builds(root / "build", root / "shelves")
    config = root / "shelfwise.toml"
    config.write_text(
        f'build_dir = "{root / "build"}"\n[site]\nurl = "https://docs.example.org/{{shelf}}/"\n'
        f'[api]\ntrace_db = "{root / "traces.sqlite"}"\n'
        '[[api.tokens]]\nname = "alpha-assistant"\ntoken = "alpha-secret"\nshelves = ["alpha"]\n'
        '[[api.tokens]]\nname = "beta-assistant"\ntoken = "beta-secret"\nshelves = ["beta"]\n',
        encoding="utf-8")
    env = {"PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "NO_MKDOCS_2_WARNING": "1"}
    return builds, config, env


def _text(result) -> str:
    return " ".join(getattr(part, "text", "") for part in result.content)


async def _tour(session: ClientSession) -> dict:
    """What a client sees of shelf alpha, and of shelf beta when it tries."""
    await session.initialize()
    seen: dict = {"tools": {tool.name for tool in (await session.list_tools()).tools}}
    found = await session.call_tool("search", {"shelf": "alpha", "query": "refresh tokens expire"})
    seen["search"] = found.structured_content
    hit = next(h for h in found.structured_content["hits"] if h["heading_path"][-1] == "Refresh tokens")
    seen["section"] = (await session.call_tool("read_section", {"section_id": hit["section_id"]})).structured_content
    seen["links"] = await session.call_tool("links", {"section_or_doc": hit["doc_id"]})
    seen["ledger"] = (await session.call_tool("ledger", {"shelf": "alpha", "subject": "PASSWORDS"})).structured_content
    seen["ask"] = (await session.call_tool("ask", {"shelf": "alpha", "question": "How long do refresh tokens last before they expire?"})).structured_content
    seen["resources"] = sorted(str(r.uri) for r in (await session.list_resources()).resources)
    seen["document"] = (await session.read_resource(f"shelfwise://alpha/{hit['doc_id']}")).contents[0].text
    seen["beta"] = [await session.call_tool("search", {"shelf": "beta", "query": "launch code"}),
                    await session.call_tool("ask", {"shelf": "beta", "question": "What is the launch code of project Zephyr?"}),
                    await session.call_tool("ledger", {"shelf": "beta", "subject": "launch code"})]
    try:
        await session.read_resource("shelfwise://beta/beta-secrets-md")
        seen["beta_resource"] = "read"
    except MCPError as exc:
        seen["beta_resource"] = exc.message
    return seen


def _check_alpha(seen: dict, *, refused: str) -> None:
    assert seen["tools"] == TOOLS
    assert seen["search"]["hits"] and seen["search"]["shelf"] == "alpha"
    section = seen["section"]
    assert "Refresh tokens expire after 30 days." in section["text"] and section["heading_path"][-1] == "Refresh tokens"
    assert section["url"] == f"https://docs.example.org/alpha/documents/{section['doc_id']}.html#{section['section_id']}"
    assert not seen["links"].is_error and seen["links"].structured_content["of"] == section["doc_id"]
    facts = seen["ledger"]["facts"]
    assert [(f["kind"], f["quote"]) for f in facts] == [("rule", "Passwords must have at least 12 characters.")], facts
    assert facts[0]["url"] == f"https://docs.example.org/alpha/documents/access-policy-md.html#{facts[0]['section_id']}"
    answer = seen["ask"]
    assert answer["label"] == "complete" and "Refresh tokens expire after 30 days." in answer["answer_markdown"]
    assert answer["citations"][0]["url"].startswith("https://docs.example.org/alpha/documents/")
    assert f"[[1]]({answer['citations'][0]['url']})" in answer["answer_markdown"] and answer["trace_id"] in answer["answer_markdown"]
    assert seen["resources"] == ["shelfwise://alpha/access-policy-md", "shelfwise://alpha/backup-procedure-md"]
    assert seen["document"].startswith("# Access Policy") and "Refresh tokens expire after 30 days." in seen["document"]
    for result in seen["beta"]:
        assert result.is_error and refused in _text(result), _text(result)
    assert refused in seen["beta_resource"]
    everything = repr(seen)
    assert not any(word in everything for word in SECRET[:2])


def test_stdio_serves_the_named_shelves_and_no_other(tenants):
    _, config, env = tenants
    params = StdioServerParameters(command=sys.executable, args=["-m", "shelfwise.compiler.cli.main", "mcp", "alpha", "--config", str(config)],
                                   env=env, cwd=str(ROOT))

    async def run() -> dict:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            return await _tour(session)

    seen = asyncio.run(run())
    _check_alpha(seen, refused="does not grant shelf 'beta'")


def _wait_port(port: int, process: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"shelfwise mcp --http exited with {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"shelfwise mcp --http did not listen on {port} in {seconds:g} s")


@pytest.fixture(scope="module")
def http_server(tenants):
    _, config, env = tenants
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "shelfwise.compiler.cli.main", "mcp", "alpha", "beta", "--http", "--port", str(port),
                                "--config", str(config)], env={**os.environ, **env, "FORWARDED_ALLOW_IPS": "*"}, cwd=str(ROOT),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_port(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        os.kill(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def _over_http(url: str, token: str, work):
    async def run():
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http, \
                streamable_http_client(url, http_client=http) as (read, write), ClientSession(read, write) as session:
            return await work(session)

    return asyncio.run(run())


def test_streamable_http_reads_only_what_the_token_grants(http_server):
    seen = _over_http(http_server, "alpha-secret", _tour)
    _check_alpha(seen, refused="does not grant shelf 'beta'")

    async def beta(session):
        await session.initialize()
        found = await session.call_tool("search", {"shelf": "beta", "query": "launch code"})
        resources = sorted(str(r.uri) for r in (await session.list_resources()).resources)
        return found.structured_content, resources

    found, resources = _over_http(http_server, "beta-secret", beta)
    assert found["hits"][0]["title"] == "Beta Handbook" and resources == ["shelfwise://beta/beta-secrets-md"]
    beta_section = found["hits"][0]["section_id"]

    async def across(session):
        await session.initialize()
        return [await session.call_tool("read_section", {"section_id": beta_section}),
                await session.call_tool("read_section", {"section_id": beta_section, "shelf": "beta"}),
                await session.call_tool("links", {"section_or_doc": "beta-secrets-md"})]

    unnamed, named, linked = _over_http(http_server, "alpha-secret", across)
    assert unnamed.is_error and f"no section '{beta_section}' in the shelves you may read" in _text(unnamed)
    assert named.is_error and "does not grant shelf 'beta'" in _text(named)
    assert linked.is_error and "no section or document 'beta-secrets-md'" in _text(linked)
    assert not any(word in repr([unnamed, named, linked]) for word in SECRET[:2])


def test_streamable_http_refuses_a_wrong_or_missing_token_before_the_protocol(http_server):
    for headers in ({"Authorization": "Bearer not-a-token"}, {}):
        response = httpx.post(http_server, headers={**headers, "Accept": "application/json, text/event-stream"},
                              json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert response.status_code == 401 and "token" in response.json()["error"]

    async def listed(session):
        await session.initialize()
        return await session.list_tools()

    with pytest.raises(BaseException) as refused:
        _over_http(http_server, "not-a-token", listed)
    leaves = [refused.value]
    while hasattr(leaves[0], "exceptions"):
        leaves = list(leaves[0].exceptions)
    assert any(isinstance(leaf, MCPError) for leaf in leaves), leaves


def test_rotating_forwarded_for_does_not_reset_the_failed_token_limit(http_server):
    """uvicorn is told to trust every forwarder (FORWARDED_ALLOW_IPS=*, in the fixture); only api.trusted_proxies
    (empty here) decides, so 40 guesses from one socket address get 429 from the 21st whatever the header says."""
    transport = httpx.HTTPTransport(local_address="127.0.0.6")
    with httpx.Client(transport=transport, timeout=30) as client:
        codes = [client.post(http_server, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                             headers={"Authorization": f"Bearer guess-{n}", "X-Forwarded-For": f"203.0.113.{n}",
                                      "Accept": "application/json, text/event-stream"}).status_code for n in range(40)]
    assert codes == [401] * 20 + [429] * 20


def test_building_the_server_leaves_the_process_logging_alone():
    """The SDK's constructor calls logging.basicConfig; a handler it left on the root logger wrote to streams that
    were closed by then ('--- Logging error ---' in the test run). Logging is the process owner's to configure."""
    import logging

    from shelfwise.api.answer import build_pipeline
    from shelfwise.api.server.mcp_server import McpState, build_mcp_server
    from shelfwise.api.shelves import ShelfRegistry
    from shelfwise.compiler.settings import Settings

    root = logging.getLogger()
    saved, level = list(root.handlers), root.level
    for handler in saved:  # a bare process: no handler on the root logger yet (pytest's own are put back below)
        root.removeHandler(handler)
    try:
        settings = Settings()
        build_mcp_server(McpState(settings=settings, pipeline=build_pipeline(settings, None), shelves=ShelfRegistry(None),
                                  traces=None, grants=None))
        assert root.handlers == [] and root.level == level
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved:
            root.addHandler(handler)
        root.setLevel(level)


def test_every_tool_is_read_only_and_every_parameter_is_described(tenants):
    _, config, env = tenants
    params = StdioServerParameters(command=sys.executable, args=["-m", "shelfwise.compiler.cli.main", "mcp", "alpha", "--config", str(config)],
                                   env=env, cwd=str(ROOT))

    async def run():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return (await session.list_tools()).tools

    tools = asyncio.run(run())
    assert {tool.name for tool in tools} == TOOLS
    for tool in tools:
        assert tool.annotations.read_only_hint is True and tool.annotations.open_world_hint is False, tool.name
        assert tool.annotations.destructive_hint is False and tool.title, tool.name
        properties = tool.input_schema["properties"]
        assert properties and all(spec.get("description") for spec in properties.values()), (tool.name, properties)
    search = next(tool for tool in tools if tool.name == "search")
    assert "1 to 100" in search.input_schema["properties"]["k"]["description"]


def test_the_resource_list_follows_a_rebuild_without_a_restart(tmp_path):
    """A rebuild that removes one document and adds another: the next listing and reads show the new build."""
    from mcp import Client

    from answer_shelves import HashEmbedder, compile_shelf
    from shelfwise.api.answer import build_pipeline
    from shelfwise.api.server.mcp_server import McpState, build_mcp_server
    from shelfwise.api.server.security import Principal
    from shelfwise.api.shelves import ShelfRegistry
    from shelfwise.compiler.settings import Settings

    folder = tmp_path / "shelves" / "rules"
    folder.mkdir(parents=True)
    (folder / "gates.md").write_text("# Gates\n\n## Closing\n\nGates close at ten.\n", encoding="utf-8")
    (folder / "badges.md").write_text("# Badges\n\n## Visitors\n\nVisitors wear a red badge.\n", encoding="utf-8")
    build = compile_shelf(folder, tmp_path / "build")
    settings = Settings(build_dir=tmp_path / "build")
    registry = ShelfRegistry(HashEmbedder(), settings=settings)
    registry.add("rules", build)
    state = McpState(settings=settings, pipeline=build_pipeline(settings, None), shelves=registry, traces=None, grants=None,
                     fixed=Principal("stdio", frozenset({"rules"})))

    async def run():
        async with Client(build_mcp_server(state)) as client:
            before = sorted(str(r.uri) for r in (await client.list_resources()).resources)
            (folder / "badges.md").unlink()
            (folder / "parking.md").write_text("# Parking\n\n## Spaces\n\nVisitors park in row C.\n", encoding="utf-8")
            compile_shelf(folder, tmp_path / "build")
            after = sorted(str(r.uri) for r in (await client.list_resources()).resources)
            new = (await client.read_resource("shelfwise://rules/parking-md")).contents[0].text
            try:
                await client.read_resource("shelfwise://rules/badges-md")
                removed = "read"
            except MCPError as exc:
                removed = exc.message
            return before, after, new, removed

    try:
        before, after, new, removed = asyncio.run(run())
    finally:
        registry.close()
    assert before == ["shelfwise://rules/badges-md", "shelfwise://rules/gates-md"]
    assert after == ["shelfwise://rules/gates-md", "shelfwise://rules/parking-md"]
    assert new.startswith("# Parking") and "Visitors park in row C." in new
    assert "no document 'badges-md' in shelf 'rules' now" in removed
