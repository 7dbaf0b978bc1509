"""`shelfwise serve` on a shelf of your own: with no settings file it serves 127.0.0.1 to anyone on this machine and
says so, beyond loopback it asks for tokens, a busy port is one line before any URL, and the site's ask widget asks
the server it came from (whatever the port). The live tests run `shelfwise build X --site` then `shelfwise serve X`
as a new user would, in a folder with no shelfwise.toml, and drive the site in headless Chromium."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from shelfwise.api.server.serve import bind_port, is_loopback, serve_access
from shelfwise.compiler.errors import SettingsError, ShelfwiseError
from shelfwise.compiler.settings import Settings
from tests.test_browser import CHROMIUM, _free_port, _wait, launch_chromium

GUIDE = """# Onboarding Guide

## 1 First day

Collect your badge at reception before nine o'clock.

## 2 First week

Meet your mentor every morning at ten o'clock.
"""

TOKENS = {"api": {"tokens": [{"name": "widget", "token": "s3cret", "shelves": ["notes"]}]}}


def test_no_tokens_on_loopback_is_anonymous_and_says_so():
    settings, line = serve_access(Settings(), "127.0.0.1")
    assert settings.api.allow_anonymous and not Settings().api.allow_anonymous
    assert line == ("access: no API tokens are configured (api.tokens), so anyone on this machine may read every served shelf "
                    "and site without a token; add [[api.tokens]] to the settings to require one")
    assert serve_access(Settings(), "localhost")[0].api.allow_anonymous
    assert serve_access(Settings(), "::1")[0].api.allow_anonymous


def test_no_tokens_beyond_loopback_is_refused_with_what_to_configure():
    with pytest.raises(ShelfwiseError) as refused:
        serve_access(Settings(), "0.0.0.0")
    assert str(refused.value) == (
        "serving on 0.0.0.0 reaches beyond this machine, so it needs API tokens: add an [[api.tokens]] entry "
        "(name, token_env, shelves) to the settings file (--config, $SHELFWISE_CONFIG or ./shelfwise.toml), or serve on 127.0.0.1")
    assert not is_loopback("10.0.0.7") and not is_loopback("example.org") and is_loopback("127.0.0.2")


def test_configured_tokens_are_required_and_an_empty_token_variable_is_named_at_start(monkeypatch):
    settings = Settings.model_validate(TOKENS)
    assert serve_access(settings, "127.0.0.1") == (settings, None)
    assert serve_access(settings, "0.0.0.0") == (settings, None)
    monkeypatch.delenv("NOTES_TOKEN_UNSET", raising=False)
    unset = Settings.model_validate({"api": {"tokens": [{"name": "w", "token_env": "NOTES_TOKEN_UNSET", "shelves": ["notes"]}]}})
    with pytest.raises(SettingsError, match="NOTES_TOKEN_UNSET is empty"):
        serve_access(unset, "127.0.0.1")


def test_a_busy_port_is_one_line_naming_another_port():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ShelfwiseError) as busy:
            bind_port("127.0.0.1", port)
    assert str(busy.value) == (f"port {port} on 127.0.0.1 is already in use (another 'shelfwise serve'?); stop that server "
                               f"or choose another port, e.g. --port {port + 1}")
    free = bind_port("127.0.0.1", 0)
    free.close()


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "shelfwise.compiler.cli.main", *args]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``shelfwise build notes --site`` and ``shelfwise serve notes --port P`` in a folder with no settings file."""
    folder = tmp_path_factory.mktemp("own")
    (folder / "notes").mkdir()
    (folder / "notes" / "guide.md").write_text(GUIDE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "SHELFWISE_CONFIG"}
    subprocess.run(_cli("build", "notes", "--site", "--quiet", "--strict"), cwd=folder, env=env, check=True, capture_output=True)
    port = _free_port()
    out, err = (folder / "serve.out").open("w"), (folder / "serve.err").open("w")
    server = subprocess.Popen(_cli("serve", "notes", "--port", str(port)), cwd=folder, env=env, stdout=out, stderr=err)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait(base + "/api/health", seconds=120, process=server)
        yield folder, base, port, env
    finally:
        os.kill(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
        out.close()
        err.close()


def test_serve_without_settings_says_who_may_read_and_answers_without_a_token(served):
    folder, base, port, _ = served
    printed = (folder / "serve.out").read_text(encoding="utf-8").splitlines()
    assert printed[:3] == [
        f"answering endpoint: {base}/api/ask   (API docs: {base}/api/schema, OpenAPI: {base}/api/schema/openapi.json, "
        f"health: {base}/api/health)", f"sites you can read: {base}/", f"site notes: {base}/sites/notes/"]
    assert printed[3].startswith("access: no API tokens are configured (api.tokens), so anyone on this machine may read")
    page = urllib.request.urlopen(urllib.request.Request(base + "/sites/notes/", headers={"Accept": "text/html"}), timeout=30)
    assert page.status == 200 and page.url == base + "/sites/notes/"  # the site itself, not the sign-in form
    ask = urllib.request.Request(base + "/api/ask", data=json.dumps({"question": "When do I meet my mentor?", "shelf": "notes"}).encode(),
                                 headers={"Content-Type": "application/json"})
    answer = json.loads(urllib.request.urlopen(ask, timeout=120).read())
    assert any("Meet your mentor every morning at ten o'clock." in s["text"] for s in answer["sentences"])


def test_a_second_serve_on_the_busy_port_fails_with_one_line_and_no_urls(served):
    folder, _, port, env = served
    done = subprocess.run(_cli("serve", "notes", "--port", str(port)), cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"error: port {port} on 127.0.0.1 is already in use (another 'shelfwise serve'?); stop that server "
                           f"or choose another port, e.g. --port {port + 1}\n")


def test_cli_citations_link_the_stable_site_path_not_a_build_generation(served):
    folder, _, _, env = served
    done = subprocess.run(_cli("ask", "notes", "When do I meet my mentor?", "--json"), cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300, check=True)
    urls = [s["url"] for s in json.loads(done.stdout)["sources"]]
    stable = (folder / "build" / "notes" / "site").as_uri() + "/documents/"
    assert urls and all(u.startswith(stable) and "generations" not in u for u in urls), urls


def test_the_widget_asks_the_server_it_came_from_with_no_settings(served):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    _, base, _, _ = served
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(90000)
            page.goto(base + "/sites/notes/")
            page.get_by_role("button", name="Ask", exact=True).first.click()
            page.locator("#sw-ask-input").fill("When do I meet my mentor?")
            page.keyboard.press("Enter")
            page.locator(".sw-ask-sentence").first.wait_for()
            texts = page.locator(".sw-ask-sentence").all_inner_texts()
            assert any("Meet your mentor every morning at ten o'clock." in t for t in texts), texts
            panel = page.locator("body").inner_text()
            assert "showing search results" not in panel and "could not be reached" not in panel
        finally:
            browser.close()
