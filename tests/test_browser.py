"""The built site in headless Chromium: links between documents, the site search, and the ask widget.

The site is served by ``python -m http.server``; the answering endpoint is a small server that speaks the
widget's contract (POST /api/ask -> {answer_markdown, sentences, not_covered, label, trace_id}, CORS,
Bearer token), started on 127.0.0.1 and stopped by its PID, like the site server.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from shelfwise.compiler.publish.site import build_site
from tests.test_pages import make_store

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"  # committed: table.png, widget.png, link-map.png, widget-phone-search.png
HOSTILE_ANSWER = "The code is sent once <img src=x onerror=\"document.title='pwned'\"> and **only** once."

ENDPOINT = r'''
import http.server, json, sys, time
port, answer_file = int(sys.argv[1]), sys.argv[2]

class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def _cors(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Headers", "Authorization, Content-Type")
        self.send_header("Access-Control-Allow-Methods", "POST, OPTIONS")

    def do_OPTIONS(self):
        self.send_response(204)
        self._cors()
        self.end_headers()

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if "slowly" in request.get("question", ""):
            time.sleep(4)
        ok = self.path == "/api/ask" and self.headers.get("Authorization") == "Bearer t0k"
        name = answer_file.replace(".json", "-sentences.json") if "sentences only" in request.get("question", "") else answer_file
        answer = json.load(open(name)) if ok else {"error": "unauthorized"}
        answer["trace_id"] = "trace-" + request.get("shelf", "") + "-h" + str(len(request.get("history", [])))
        history = request.get("history", [])
        answer["resolved_question"] = request["question"] + (" (about: " + history[-1]["question"] + ")" if history else "")
        body = json.dumps(answer).encode()
        self.send_response(200 if ok else 401)
        self._cors()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
'''


def launch_chromium(playwright):
    """Debian's Chromium, headless, with nothing that reaches for the network."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=[
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(url: str, *, seconds: float = 5, process: subprocess.Popen | None = None) -> None:
    """Until ``url`` answers; fails after ``seconds`` or as soon as ``process`` (the server) has exited."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server for {url} exited with {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not come up in {seconds:g} s")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    folder = tmp_path_factory.mktemp("browser")
    store = make_store(folder)
    api_port, site_port, dead_port = _free_port(), _free_port(), _free_port()
    build_site(store, folder, endpoint=f"http://127.0.0.1:{api_port}", token="t0k", shelf="widgets")
    grant = next(s for s in store.sections("rfc9001-txt") if s.heading.startswith("4.2"))
    revoke = next(s for s in store.sections("rfc9002-txt") if s.heading.startswith("2."))
    answer = {
        "answer_markdown": "\n\n".join([
            f"{HOSTILE_ANSWER} [{grant.id}]",
            f"A client revokes a token at the revocation endpoint. [{revoke.id}] [s000000000zz]",
            "```\nPOST /revoke HTTP/1.1\n  token=<img src=x onerror=alert(1)>\n```",
            "| Token No. | Client | Issued | Revoked | Reason | Status | Back-up | Review | Source |\n" + "| --- " * 9 + "|\n"
            "| TOK-2025-0002 | Example client of the widget service | 2025-10-12 | 2025-11-04 | The client asked for revocation "
            f"after the device holding the token was reported lost | Closed | none | REV-2025-018 | Widget Token Revocation [{revoke.id}] |",
            "The documents do not say how long a revoked token is remembered."]),
        "sentences": [{"text": HOSTILE_ANSWER, "citations": [grant.id]},
                      {"text": "A client revokes a token at the revocation endpoint.", "citations": [revoke.id, "s000000000zz"]},
                      {"text": "POST /revoke HTTP/1.1\n  token=<img src=x onerror=alert(1)>", "citations": [revoke.id], "kind": "code"},
                      {"text": "Token No. | Client | Issued | Revoked | Reason | Status | Back-up | Review", "citations": [revoke.id],
                       "kind": "table_header"},
                      {"text": "TOK-2025-0002 | Example client of the widget service | 2025-10-12 | 2025-11-04 | The client asked for "
                               "revocation after the device holding the token was reported lost | Closed | none | REV-2025-018",
                       "citations": [revoke.id], "kind": "table_row"}],
        "sources": [{"section_id": grant.id, "shelf": "widgets", "doc_id": "rfc9001-txt", "title": "The Example Widget Protocol",
                     "path": "rfc9001.txt", "heading_path": ["4. Grants", "4.2. Authorization Code Grant"]}],
        "not_covered": ["The documents do not say how long a revoked token is remembered."],
        "warnings": ["model 'writer' failed (HTTP 503); this answer quotes the documents (extractive writer) instead"],
        "label": "partial",
    }
    (folder / "answer.json").write_text(json.dumps(answer), encoding="utf-8")
    # an older endpoint's answer: sentences only, two tables of two documents one after the other, one sentence citing both
    header = {"kind": "table_header", "citations": [revoke.id]}
    (folder / "answer-sentences.json").write_text(json.dumps({**answer, "answer_markdown": "", "warnings": [], "sentences": [
        {**header, "text": "Token No. | Client", "cells": ["Token No.", "Client"]},
        {"kind": "table_row", "text": "TOK-2025-0002 | Example client", "cells": ["TOK-2025-0002", "Example client"], "citations": [revoke.id]},
        {**header, "text": "Grant | Lifetime", "cells": ["Grant", "Lifetime"], "citations": [grant.id]},
        {"kind": "table_row", "text": "code | 10 minutes", "cells": ["code", "10 minutes"], "citations": [grant.id]},
        {"text": "A revoked code is never sent again.", "citations": [revoke.id, grant.id], "source": "Widget Token Revocation"}]}),
        encoding="utf-8")
    (folder / "endpoint.py").write_text(ENDPOINT, encoding="utf-8")
    (folder / "embed.html").write_text(
        "<!doctype html><html><head><title>Elsewhere</title></head><body><h1>Another page</h1>"
        f'<script src="/site/assets/shelfwise/shelfwise-ask.js" data-endpoint="http://127.0.0.1:{dead_port}" '
        'data-shelf="widgets"></script></body></html>', encoding="utf-8")
    (folder / "site" / "missing.html").write_text(  # mkdocs' 404 page: base_url "/" makes data-site "//"
        "<!doctype html><html><head><title>404</title></head><body><h1>Not found</h1>"
        f'<script src="/site/assets/shelfwise/shelfwise-ask.js" data-endpoint="http://127.0.0.1:{dead_port}" data-site="//" '
        'data-shelf="widgets"></script></body></html>', encoding="utf-8")
    processes = [
        subprocess.Popen([sys.executable, "-m", "http.server", str(site_port), "--bind", "127.0.0.1", "--directory", str(folder)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        subprocess.Popen([sys.executable, str(folder / "endpoint.py"), str(api_port), str(folder / "answer.json")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    ]
    try:
        base = f"http://127.0.0.1:{site_port}"
        _wait(base + "/site/index.html")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(15000)
            yield page, base, grant, revoke
            browser.close()
    finally:
        for process in processes:
            os.kill(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        store.close()


def test_follow_a_link_to_another_documents_section(served):
    page, base, grant, _ = served
    page.goto(base + "/site/documents/rfc9002-txt.html")
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    page.locator(f'article a[href="rfc9001-txt.html#{grant.id}"]').first.click()
    page.wait_for_url(f"**/rfc9001-txt.html#{grant.id}")
    heading = page.locator(f'[id="{grant.id}"]')
    assert heading.is_visible() and "Authorization Code Grant" in heading.inner_text()


def test_site_search_finds_a_section(served):
    page, base, _, _ = served
    page.goto(base + "/site/index.html")
    page.locator("input.md-search__input").click()
    page.keyboard.type("revokes token")
    result = page.locator(".md-search-result__item").first
    result.wait_for(timeout=15000)
    assert "Revocation" in page.locator(".md-search-result").inner_text()


def test_widget_shows_cited_sentences_inertly_and_citations_land_on_sections(served):
    page, base, grant, revoke = served
    page.goto(base + "/site/documents/rfc9002-txt.html")
    page.get_by_role("button", name="Ask", exact=True).first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "sw-ask-input"
    page.keyboard.type("How often may the code be sent?")
    page.keyboard.press("Enter")
    sentences = page.locator("p.sw-ask-sentence")
    sentences.first.wait_for(timeout=10000)
    assert sentences.count() == 2
    assert HOSTILE_ANSWER in sentences.first.inner_text()
    assert page.locator(".sw-ask img").count() == 0 and page.title() != "pwned"
    assert "The documents do not say how long" in page.locator(".sw-ask-gap").inner_text()
    assert "Partial answer" in page.locator(".sw-ask-results").inner_text()
    assert page.get_by_role("note", name="Warnings").inner_text().endswith(
        "model 'writer' failed (HTTP 503); this answer quotes the documents (extractive writer) instead")
    assert page.locator(".sw-ask-trace").inner_text() == "trace trace-widgets-h0"
    # each citation names its document (from the answer's sources, else the site's map), not only "[n]": by the short
    # label an answer gives it (rfc9001.txt is "RFC 9001" in both)
    assert sentences.first.locator("a.sw-ask-cite").inner_text() == "[1] RFC 9001"
    assert sentences.nth(1).locator("a.sw-ask-cite").inner_text() == "[2] RFC 9002"
    assert sentences.nth(1).locator("span.sw-ask-cite").inner_text() == "[s000000000zz]"
    # a code block comes as preformatted text, inert, its lines kept, with no citation of its own
    code = page.locator("pre.sw-ask-code")
    assert code.inner_text() == "POST /revoke HTTP/1.1\n  token=<img src=x onerror=alert(1)>" and code.locator("a").count() == 0
    # table rows come as a table, the row's citation landing on the row's anchor
    table = page.locator(".sw-ask-table")
    assert table.locator("thead th").all_inner_texts()[:3] == ["Token No.", "Client", "Issued"]
    row_cite = table.locator("tbody a.sw-ask-cite")
    page.wait_for_function("document.querySelector('.sw-ask-table tbody a.sw-ask-cite').href.includes('-r')")
    assert row_cite.get_attribute("href").endswith(f"rfc9002-txt.html#{revoke.id}-r3")
    assert page.locator(".sw-ask-table td.sw-nw", has_text="2025-10-12").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#sw-ask-panel").screenshot(path=str(ARTIFACTS / "widget.png"), animations="disabled")
    page.keyboard.press("Escape")
    assert page.locator("#sw-ask-panel").is_hidden()
    assert page.evaluate("document.activeElement.classList.contains('sw-ask-toggle')")
    page.keyboard.press("Enter")
    # following a citation keeps the conversation: the next page restores it, open, with a follow-up box
    page.locator("p.sw-ask-sentence a.sw-ask-cite").first.click()
    page.wait_for_url(f"**/site/documents/rfc9001-txt.html#{grant.id}")
    assert page.locator(f'[id="{grant.id}"]').is_visible()
    page.locator(".sw-ask-turn").first.wait_for()
    assert page.locator("#sw-ask-panel").is_visible() and page.locator(".sw-ask-question").all_inner_texts() == [
        "How often may the code be sent?"]
    assert page.locator(".sw-ask-label").inner_text().startswith("Ask a follow-up")
    page.locator("#sw-ask-input").fill("And how long is the code valid?")
    page.keyboard.press("Enter")
    page.locator(".sw-ask-turn >> nth=1 >> .sw-ask-trace").wait_for()
    assert page.locator(".sw-ask-trace").all_inner_texts() == ["trace trace-widgets-h0", "trace trace-widgets-h1"]
    assert page.locator(".sw-ask-resolved").all_inner_texts() == [
        "Read as: And how long is the code valid? (about: How often may the code be sent?)"]
    page.get_by_role("button", name="New conversation").click()
    assert page.locator(".sw-ask-turn").count() == 0



def _fresh_conversation(page, base: str, path: str) -> None:
    """Open ``path`` with no conversation in the tab. The store is cleared from a page of the same origin that runs no
    widget: a widget page still restoring an earlier test's turns would save them back after a clear (on a loaded
    machine the restore outlasted the reload, and the next page counted those turns too)."""
    page.goto(base + "/site/search/search_index.json")
    page.evaluate("sessionStorage.clear()")
    page.goto(base + path)


def test_stop_aborts_a_question_on_its_way_and_copy_gives_the_answers_markdown(served):
    page, base, _, _ = served
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    _fresh_conversation(page, base, "/site/index.html")
    page.locator(".sw-ask-toggle").click()
    question = "Answer slowly: how often may the code be sent?"
    page.locator("#sw-ask-input").fill(question)
    page.keyboard.press("Enter")
    stop = page.get_by_role("button", name="Stop")
    stop.wait_for()
    assert page.locator(".sw-ask-submit").is_disabled()
    stop.click()
    page.wait_for_function("document.querySelector('.sw-ask-status').textContent.startsWith('Stopped')")
    assert stop.is_hidden() and page.locator("#sw-ask-input").input_value() == question
    page.wait_for_timeout(5000)  # the endpoint's answer would have come by now: the stopped request shows nothing
    assert page.locator(".sw-ask-turn").count() == 0
    page.locator("#sw-ask-input").fill("How often may the code be sent?")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Copy answer").click()
    page.wait_for_function("document.querySelector('.sw-ask-status').textContent.startsWith('Copied')")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(HOSTILE_ANSWER) and "| TOK-2025-0002 |" in copied and copied.endswith("remembered.")
    page.keyboard.press("Escape")


def test_an_answer_of_sentences_only_keeps_each_table_under_its_header_and_names_each_chips_document(served):
    page, base, _, _ = served
    _fresh_conversation(page, base, "/site/index.html")
    page.locator(".sw-ask-toggle").click()
    page.locator("#sw-ask-input").fill("Which tokens and grants? (sentences only)")
    page.keyboard.press("Enter")
    page.locator(".sw-ask-trace").wait_for()
    tables = page.locator("table.sw-ask-table").all()
    assert [t.locator("thead th").all_inner_texts() for t in tables] == [["Token No.", "Client", "Source"], ["Grant", "Lifetime", "Source"]]
    assert tables[1].locator("tbody th").all_inner_texts() == ["code"]
    chips = page.locator("p.sw-ask-sentence a.sw-ask-cite").all_inner_texts()  # each its own section's document
    assert chips == ["[1] RFC 9002", "[2] RFC 9001"], chips  # each document by its one name (its short label)
    page.keyboard.press("Escape")


def test_widget_works_by_keyboard_alone_with_its_roles_and_names(served):
    page, base, _, _ = served
    page.set_viewport_size({"width": 1280, "height": 900})
    _fresh_conversation(page, base, "/site/documents/rfc9002-txt.html")
    toggle = page.locator(".sw-ask-toggle")
    assert [toggle.get_attribute(a) for a in ("aria-haspopup", "aria-controls", "aria-expanded")] == ["dialog", "sw-ask-panel", "false"]
    inside = "document.getElementById('sw-ask-panel').contains(document.activeElement)"
    for _ in range(60):  # Tab from the top of the page reaches the Ask button
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('sw-ask-toggle')"):
            break
    else:
        pytest.fail("Tab never reached the Ask button")
    page.keyboard.press("Space")
    dialog = page.get_by_role("dialog", name="Ask widgets")
    assert dialog.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.activeElement.id") == "sw-ask-input"
    assert page.get_by_role("textbox", name="Ask a question about widgets").evaluate("n => n.id") == "sw-ask-input"
    assert dialog.get_by_role("log", name="Questions and answers").count() == 1
    assert dialog.get_by_role("button", name="Close the Ask panel").is_visible()
    page.keyboard.type("How often may the code be sent?")
    page.keyboard.press("Enter")
    page.locator("p.sw-ask-sentence").first.wait_for()
    stops = page.evaluate("""() => [...document.getElementById('sw-ask-panel').querySelectorAll(
        'a[href], button, input, [tabindex]:not([tabindex="-1"])')].filter(n => n.getClientRects().length).length""")
    assert stops >= 7  # close, new conversation, citations, the table, input, submit
    where = "[...document.getElementById('sw-ask-panel').querySelectorAll('*')].indexOf(document.activeElement)"
    visited = set()
    for _ in range(stops + 3):  # round the panel and past its end: focus never leaves it
        page.keyboard.press("Tab")
        assert page.evaluate(inside)
        visited.add(page.evaluate(where))
    assert len(visited) == stops
    for _ in range(stops + 3):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(inside)
    page.keyboard.press("Escape")
    assert dialog.is_hidden() and toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.classList.contains('sw-ask-toggle')")
    page.keyboard.press("Enter")
    assert dialog.is_visible() and page.locator(".sw-ask-question").all_inner_texts() == ["How often may the code be sent?"]
    page.keyboard.press("Escape")


def test_tables_keep_ids_and_dates_whole_with_sticky_header_and_row_anchors(served):
    page, base, _, revoke = served
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base + f"/site/documents/rfc9002-txt.html#{revoke.id}-r3")
    row = page.locator(f'tr[id="{revoke.id}-r3"]')
    assert row.is_visible() and row.locator("th").inner_text() == "TOK-2025-0002"
    whole = page.evaluate("""() => [...document.querySelectorAll('table.sw-grid .sw-nw')].filter(c => /\\d/.test(c.textContent))
        .map(c => { const r = document.createRange(); r.selectNodeContents(c); return [c.textContent, r.getClientRects().length]; })""")
    assert whole and all(lines == 1 for _, lines in whole), whole  # no "2025-10-" / "14" breaks
    box = page.locator(f'[id="{revoke.id}"] ~ .sw-table').first
    box.evaluate("b => { b.scrollLeft = 400; b.scrollTop = 40; }")
    left = page.evaluate(f"""() => {{ const b = document.querySelector('[id="{revoke.id}"] ~ .sw-table');
        const first = b.querySelector('tbody th'), head = b.querySelector('thead th:last-child');
        return [first.getBoundingClientRect().left - b.getBoundingClientRect().left,
                head.getBoundingClientRect().top - b.getBoundingClientRect().top]; }}""")
    assert abs(left[0]) < 2 and abs(left[1]) < 2, left  # first column and header row stay in view
    box.evaluate("b => { b.scrollLeft = 0; b.scrollTop = 0; }")
    ARTIFACTS.mkdir(exist_ok=True)
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(ARTIFACTS / "table.png"), animations="disabled")


def test_link_map_is_a_picture_whose_nodes_open_documents(served):
    page, base, _, _ = served
    page.goto(base + "/site/shelf.html")
    svg = page.locator("svg.sw-linkmap-svg")
    svg.scroll_into_view_if_needed()
    assert svg.is_visible() and page.locator(".sw-linkmap table.sw-grid").is_visible()
    assert page.locator("svg.sw-linkmap-svg path.sw-edge").count() >= 1
    legend = page.locator("ul.sw-legend").inner_text()
    assert "depends on" in legend and "_" not in legend
    article = page.locator("article").inner_text()  # names and counts in words, as a reader sees them
    assert "· 1 table · 1 figure" in article and "(s)" not in article and "depends_on" not in article
    ARTIFACTS.mkdir(exist_ok=True)
    svg.screenshot(path=str(ARTIFACTS / "link-map.png"), animations="disabled")
    page.locator('svg.sw-linkmap-svg a.sw-node[href="documents/rfc9001-txt.html"] circle').click()
    page.wait_for_url("**/site/documents/rfc9001-txt.html")
    assert "The Example Widget Protocol" in page.locator("h1").first.inner_text()


def test_widget_on_a_phone_fits_keeps_the_cited_passage_in_view_and_steps_aside_for_search(served):
    page, base, grant, _ = served
    page.set_viewport_size({"width": 390, "height": 844})
    _fresh_conversation(page, base, "/site/index.html")
    toggle = page.locator(".sw-ask-toggle")
    toggle.click()
    page.locator("#sw-ask-input").fill("How often may the code be sent?")
    page.keyboard.press("Enter")
    page.locator("p.sw-ask-sentence").first.wait_for()
    box = page.locator("#sw-ask-panel").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    # on a phone the restored panel stays closed after a citation, so it does not cover the cited passage
    page.locator("p.sw-ask-sentence a.sw-ask-cite").first.click()
    page.wait_for_url(f"**/site/documents/rfc9001-txt.html#{grant.id}")
    # a new page of the site loads Material's scripts and the widget: on a loaded 2-core machine that took over 15 s
    page.wait_for_function("document.querySelector('.sw-ask-toggle') && document.querySelector('.sw-ask-toggle').dataset.turns === '1'",
                           timeout=45000)
    assert page.locator("#sw-ask-panel").is_hidden() and page.locator(f'[id="{grant.id}"]').is_visible()
    toggle.click()
    assert page.locator(".sw-ask-question").all_inner_texts() == ["How often may the code be sent?"]
    page.keyboard.press("Escape")
    page.locator('label.md-header__button[for="__search"]').click()
    page.locator("input.md-search__input").wait_for(state="visible")
    assert toggle.is_hidden()  # the site's search overlay is not covered by the Ask button
    page.keyboard.type("revokes token")
    page.locator(".md-search-result__item").first.wait_for()
    assert toggle.is_hidden() and toggle.bounding_box() is None
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "widget-phone-search.png"), animations="disabled")
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_widget_embedded_elsewhere_falls_back_to_site_search(served):
    page, base, _, _ = served
    _fresh_conversation(page, base, "/embed.html")
    page.get_by_role("button", name="Ask", exact=True).click()
    page.locator("#sw-ask-input").fill("revokes token")
    page.keyboard.press("Enter")
    hits = page.locator("a.sw-ask-hit")
    hits.first.wait_for(timeout=10000)
    assert "could not be reached" in page.locator(".sw-ask-status").inner_text()
    assert hits.first.get_attribute("href").startswith(base + "/site/documents/rfc9002-txt.html")
    assert page.locator(".sw-ask-hits li").first.locator(".sw-ask-hitdoc").inner_text() == "RFC 9002"  # its short label
    hits.first.click()
    page.wait_for_url("**/site/documents/rfc9002-txt.html*")
    assert "Widget Token Revocation" in page.locator("h1").first.inner_text()


def test_widget_on_the_not_found_page_opens_and_finds_the_sites_search(served):
    """The 404 page's data-site is "//" (mkdocs' base_url "/"): the widget takes its site root from its own script."""
    page, base, _, _ = served
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _fresh_conversation(page, base, "/site/missing.html")
    page.get_by_role("button", name="Ask", exact=True).click()
    page.locator("#sw-ask-input").fill("revokes token")
    page.keyboard.press("Enter")
    hits = page.locator("a.sw-ask-hit")
    hits.first.wait_for(timeout=10000)
    assert hits.first.get_attribute("href").startswith(base + "/site/documents/rfc9002-txt.html")
    assert errors == []
