"""API replicas: two `shelfwise serve` processes over one build folder answer alike, share the trace store,
both follow a rebuild, and each keeps its own rate limit (api.rate_limit_per_minute is per process)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

POLICY = """# VIS-01 Visitor Policy

## 1 Scope

This policy covers every person who enters the Kettering site.

## 2 Badges

Visitors must wear a red badge at all times while on the production floor.
"""


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(url: str, process: subprocess.Popen, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{url} did not answer within {seconds} s")


@pytest.fixture(scope="module")
def replicas(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replicas")
    shelf = folder / "badges"
    shelf.mkdir()
    (shelf / "visitor-policy.md").write_text(POLICY, encoding="utf-8")
    config = folder / "shelfwise.toml"
    config.write_text(
        f'build_dir = "{folder / "build"}"\n[api]\nrate_limit_per_minute = 4\ntrace_db = "{folder / "traces.sqlite"}"\n'
        '[[api.tokens]]\nname = "reader"\ntoken = "replica-token"\nshelves = ["badges"]\n'
        '[[api.tokens]]\nname = "limited"\ntoken = "limited-token"\nshelves = ["badges"]\n',
        encoding="utf-8",
    )
    cli = [sys.executable, "-m", "shelfwise.compiler.cli.main"]
    subprocess.run([*cli, "build", str(shelf), "--config", str(config), "--quiet", "--strict"], check=True, capture_output=True)
    ports = [_port()]
    while len(ports) < 2:  # two asks of the kernel may name one free port twice
        ports += [port for port in [_port()] if port not in ports]
    logs = [folder / f"serve-{n}.log" for n in range(len(ports))]  # started together, as an orchestrator starts replicas
    handles = [log.open("w") for log in logs]
    servers = [subprocess.Popen([*cli, "serve", "badges", "--config", str(config), "--port", str(port)],
                                stdout=subprocess.DEVNULL, stderr=handle, env=os.environ) for port, handle in zip(ports, handles)]
    try:
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        for base, server, log in zip(bases, servers, logs):
            try:
                _wait(base + "/api/health", server)
            except AssertionError as exc:
                raise AssertionError(f"{exc}; it wrote:\n{log.read_text(errors='replace')[-3000:]}") from None
        yield bases, shelf, config, cli
    finally:
        for server in servers:
            if server.poll() is None:
                os.kill(server.pid, signal.SIGTERM)
        for server in servers:
            server.wait(timeout=20)
        for handle in handles:
            handle.close()


HEADERS = {"Authorization": "Bearer replica-token"}


def _ask(base: str, question: str) -> httpx.Response:
    return httpx.post(base + "/api/ask", json={"question": question, "shelf": "badges"}, headers=HEADERS, timeout=60)


def test_two_replicas_answer_alike_share_traces_and_follow_a_rebuild(replicas):
    (a, b), shelf, config, cli = replicas
    first, second = _ask(a, "Which badge must visitors wear?"), _ask(b, "Which badge must visitors wear?")
    assert first.status_code == second.status_code == 200
    assert [s["text"] for s in first.json()["sentences"]] == [s["text"] for s in second.json()["sentences"]]
    assert "red badge" in first.json()["answer_markdown"]
    trace = httpx.get(f"{b}/api/answers/{first.json()['trace_id']}", headers=HEADERS, timeout=20)  # written by A, read by B
    assert trace.status_code == 200
    (shelf / "visitor-policy.md").write_text(POLICY.replace("a red badge", "a green badge"), encoding="utf-8")
    subprocess.run([*cli, "build", str(shelf), "--config", str(config), "--quiet", "--strict"], check=True, capture_output=True)
    for base in (a, b):  # each replica opens the new generation on its next request
        hits = httpx.get(f"{base}/api/search", params={"shelf": "badges", "q": "green badge"}, headers=HEADERS, timeout=20).json()
        assert "green badge" in hits["hits"][0]["snippet"]


def test_the_rate_limit_is_per_replica(replicas):
    (a, b), *_ = replicas
    limited = {"Authorization": "Bearer limited-token"}
    codes = [httpx.get(f"{a}/api/search", params={"shelf": "badges", "q": "badge"}, headers=limited, timeout=20).status_code
             for _ in range(5)]
    assert codes == [200, 200, 200, 200, 429]  # api.rate_limit_per_minute = 4 on replica A ...
    assert httpx.get(f"{b}/api/search", params={"shelf": "badges", "q": "badge"}, headers=limited, timeout=20).status_code == 200
