"""The ask widget against the real endpoint: `shelfwise build --site` then `shelfwise serve` on 127.0.0.1,
driven in headless Chromium. A question typed in the widget comes back as cited sentences whose links
land on the cited sections of the site the same server serves."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_browser import CHROMIUM, _free_port, _wait, launch_chromium

POLICY = """# Badge Policy

## 1 Scope

This policy covers every person who enters the Kettering site.

## 2 Badges

Visitors must wear a red badge at all times while on the production floor.

Employees must wear a blue badge.
"""

ESCORT = """# Escort Procedure

## 1 Escorts

A visitor wearing a red badge is escorted by an employee at all times.
"""


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    folder = tmp_path_factory.mktemp("live")
    shelf = folder / "badges"
    shelf.mkdir()
    (shelf / "badge-policy.md").write_text(POLICY, encoding="utf-8")
    (shelf / "escort.md").write_text(ESCORT, encoding="utf-8")
    port = _free_port()
    config = folder / "shelfwise.toml"
    # as shelves/demo.toml: no site.ask_endpoint, so the widget asks the server that serves the site, on its random port
    config.write_text(
        f'build_dir = "{folder / "build"}"\n[site]\nask_token_env = "LIVE_WIDGET_TOKEN"\n'
        '[[api.tokens]]\nname = "widget"\ntoken_env = "LIVE_WIDGET_TOKEN"\nshelves = ["badges"]\n',
        encoding="utf-8",
    )
    env = {**os.environ, "LIVE_WIDGET_TOKEN": "live-token"}
    cli = [sys.executable, "-m", "shelfwise.compiler.cli.main"]
    subprocess.run([*cli, "build", str(shelf), "--site", "--config", str(config), "--quiet", "--strict"], env=env, check=True, capture_output=True)
    server = subprocess.Popen([*cli, "serve", "badges", "--config", str(config), "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait(base + "/api/health", seconds=90, process=server)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(60000)
            yield page, base
            browser.close()
    finally:
        os.kill(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


def test_widget_asks_the_real_endpoint_and_citations_land_on_sections(live):
    page, base = live
    page.goto(base + "/sites/badges/")  # no credential yet: the server sends the browser to its sign-in form
    page.wait_for_url(re.compile(r"/sites/login\?next=/sites/badges/$"))
    page.locator("#token").fill("live-token")
    page.get_by_role("button", name="Read the site").click()
    page.wait_for_url(f"{base}/sites/badges/")
    page.get_by_role("button", name="Ask", exact=True).first.click()
    page.locator("#sw-ask-input").fill("Which badge must visitors wear?")
    page.keyboard.press("Enter")
    sentences = page.locator(".sw-ask-sentence")
    sentences.first.wait_for()
    texts = sentences.all_inner_texts()
    assert any("Visitors must wear a red badge at all times while on the production floor." in t for t in texts), texts
    cited = page.locator(".sw-ask-sentence", has_text="Visitors must wear a red badge").locator("a.sw-ask-cite").first
    href = cited.get_attribute("href")
    section_id = href.rsplit("#", 1)[1]
    cited.click()
    page.wait_for_url(f"**#{section_id}")
    heading = page.locator(f'[id="{section_id}"]')
    assert heading.is_visible() and "2 Badges" in heading.inner_text()
