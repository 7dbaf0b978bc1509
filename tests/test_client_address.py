"""The failed-token limit counts the socket's address: a client rotating X-Forwarded-For gets no fresh allowance,
unless the request comes through a proxy listed in ``api.trusted_proxies``, whose header then names the client.

Run against ``shelfwise serve`` itself (uvicorn as the command starts it, on 127.0.0.1) with uvicorn's
FORWARDED_ALLOW_IPS set to '*' in its environment, as a host's environment might: the header is still not trusted,
since only api.trusted_proxies decides. Each case connects from its own loopback address (127.0.0.x), so the cases
do not share a count.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from answer_shelves import tenant_builds
from shelfwise.api.server.security import client_address
from shelfwise.compiler.publish.site import build_site
from shelfwise.compiler.store.store import Store
from tests.test_browser import _free_port

ROOT = Path(__file__).resolve().parents[1]
BAD = 40


def _wait(url: str, process: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"shelfwise serve exited with {process.returncode}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{url} did not answer within {seconds} s")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("client-address")
    builds = tenant_builds(root / "build", root / "shelves")
    store = Store(builds["beta"] / "store.sqlite", create=False)
    build_site(store, builds["beta"] / "current", shelf="beta")
    store.close()
    config = root / "shelfwise.toml"
    config.write_text(
        f'build_dir = "{root / "build"}"\n[api]\ntrace_db = "{root / "traces.sqlite"}"\ntrusted_proxies = ["127.0.0.9"]\n'
        '[[api.tokens]]\nname = "beta-reader"\ntoken = "beta-secret"\nshelves = ["beta"]\n', encoding="utf-8")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "NO_MKDOCS_2_WARNING": "1",
           "FORWARDED_ALLOW_IPS": "*"}
    process = subprocess.Popen([sys.executable, "-m", "shelfwise.compiler.cli.main", "serve", "alpha", "beta", "--config", str(config),
                                "--port", str(port)], env=env, cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(f"http://127.0.0.1:{port}/api/health", process)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.kill(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def _from(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30)


def _forged(n: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"203.0.113.{n}", "X-Real-IP": f"203.0.113.{n}", "Forwarded": f"for=203.0.113.{n}"}


def test_rotating_forwarded_for_does_not_reset_the_failed_token_limit_on_the_api(served):
    with _from("127.0.0.2") as client:
        codes = [client.get(served + "/api/health", headers={"Authorization": f"Bearer guess-{n}", **_forged(n)}).status_code
                 for n in range(BAD)]
    assert codes == [401] * 20 + [429] * 20


def test_rotating_forwarded_for_does_not_reset_the_failed_token_limit_on_the_sign_in_form(served):
    with _from("127.0.0.3") as client:
        form = client.get(served + "/sites/login")
        csrf = re.search(r'name="csrf" value="([^"]+)"', form.text).group(1)
        codes = [client.post(served + "/sites/login", data={"token": f"guess-{n}", "next": "/sites/beta/", "csrf": csrf},
                             headers=_forged(n)).status_code for n in range(BAD)]
        assert codes == [401] * 20 + [429] * 20
    with _from("127.0.0.4") as client:  # another address still signs in
        form = client.get(served + "/sites/login")
        csrf = re.search(r'name="csrf" value="([^"]+)"', form.text).group(1)
        signed = client.post(served + "/sites/login", data={"token": "beta-secret", "next": "/sites/beta/", "csrf": csrf},
                             follow_redirects=False)
        assert signed.status_code == 303 and signed.headers["location"] == "/sites/beta/"


def test_a_trusted_proxy_names_the_client_in_x_forwarded_for(served):
    """From 127.0.0.9 (api.trusted_proxies) each forwarded client has its own count; a hop the client wrote itself,
    left of the one the proxy appended, changes nothing."""
    with _from("127.0.0.9") as proxy:
        one = [proxy.get(served + "/api/health", headers={"Authorization": "Bearer guess", "X-Forwarded-For": f"spoof-{n}, 198.51.100.7"})
               .status_code for n in range(22)]
        other = proxy.get(served + "/api/health", headers={"Authorization": "Bearer guess", "X-Forwarded-For": "198.51.100.8"})
    assert one == [401] * 20 + [429] * 2 and other.status_code == 401


def test_client_address_reads_the_header_only_from_a_trusted_proxy():
    def scope(peer: str, *forwarded: str) -> dict:
        return {"client": (peer, 5000), "headers": [(b"x-forwarded-for", value.encode()) for value in forwarded]}

    assert client_address(scope("127.0.0.1", "203.0.113.5"), []) == "127.0.0.1"
    assert client_address(scope("127.0.0.1", "203.0.113.5"), ["10.0.0.0/8"]) == "127.0.0.1"
    assert client_address(scope("10.1.2.3", "203.0.113.5"), ["10.0.0.0/8"]) == "203.0.113.5"
    assert client_address(scope("10.1.2.3", "1.1.1.1, 203.0.113.5, 10.9.9.9"), ["10.0.0.0/8"]) == "203.0.113.5"
    assert client_address(scope("10.1.2.3", "1.1.1.1", "203.0.113.5"), ["10.0.0.0/8"]) == "203.0.113.5"
    assert client_address(scope("10.1.2.3", "10.2.2.2"), ["10.0.0.0/8"]) == "10.2.2.2"
    assert client_address(scope("10.1.2.3"), ["10.0.0.0/8"]) == "10.1.2.3"
    assert client_address(scope("::1", "2001:db8::5"), ["::1"]) == "2001:db8::5"
    assert client_address(scope("::ffff:10.1.2.3", "203.0.113.5"), ["10.0.0.0/8"]) == "203.0.113.5"
    assert client_address({"client": None, "headers": []}, ["127.0.0.1"]) == "unknown"
