"""The ask widget on the demo shelf, against the real endpoint, in headless Chromium: ten questions a newcomer asks
(a false premise, a superseded revision, a compare showing k of n changes, table answers, one not in the documents).
Every mark and note of each answer's Markdown and every warning is on screen, each table under its own header, every
citation chip names its cited section's own document; feedback is kept with the trace; and axe-core finds no serious
or critical violation on five site pages or in the open widget.

axe-core comes from the npm registry (``make system-deps`` runs ``npm install --prefix build/node axe-core``); the
test finds it at build/node/node_modules/axe-core/axe.min.js, or where $SHELFWISE_AXE_JS points.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.test_ask_stream import events
from tests.test_browser import ARTIFACTS, CHROMIUM, _free_port, _wait, launch_chromium

ROOT = Path(__file__).resolve().parents[1]
AXE = Path(os.environ.get("SHELFWISE_AXE_JS", ROOT / "build/node/node_modules/axe-core/axe.min.js"))
REV_C, REV_D = "documents-quality-manual-rev-c-docx", "documents-quality-manual-rev-d-pdf"
QUESTIONS = [
    "Why did Rev D of the Quality Manual extend the complaint closure time from 30 to 45 days?",  # false premise
    "What changed between Rev C and Rev D of the Quality Manual?",  # compare: "Shown: the k of n changes"
    "Which revision of the Quality Manual QM-001 is in force, and what changed from the previous revision?",
    "How often must the flow-rate analyzer used for complaint investigations be calibrated?",
    "How often must top management review the quality management system?",  # quotes the superseded Rev C, marked
    "What are the steps of handling a complaint, from receipt to closure?",
    "What is the warranty period of the NW-300 pump?",  # not in the documents
    "Can the complaint laboratory use flow-rate analyzer CAL-07 to test a returned pump on 15 September 2026? "
    "If not, what about its back-up?",  # a table answer
    "When must a CAPA be opened because of complaints, and which 2026 complaints led to one?",
    "Why is the test equipment used for complaint investigations calibrated only once a year?",  # false premise
]
SITE_PAGES = ["index.html", "shelf.html", f"documents/{REV_D}.html", f"changes/{REV_C}--{REV_D}.html", "coverage.html"]
CITE = re.compile(r"\[(s[0-9a-z]{11})\]")


def _flat(text: str) -> str:
    return " ".join(text.split())


def marks(markdown: str) -> list[str]:
    """What an answer's Markdown says about itself, as a reader sees it: each block's leading **mark** (a document's
    name, "(superseded by ...) said:", the premise's correction, "Derived from the documents:") and each paragraph
    citing nothing (the "Shown: k of n" note, gaps, what was not shown, the mode line)."""
    found = []
    for block in re.split(r"\n\s*\n", markdown):
        block = block.strip()
        if not block or block.startswith(("|", "```", "#")):
            continue
        for line in block.splitlines():
            lead = re.match(r"\*\*(.+?)\*\*", line.strip())
            if lead:
                found.append(_flat(lead.group(1)))
        if not CITE.search(block) and not re.match(r"(- |\d+\. |\*\*[^*]+\*\*$)", block):
            whole = re.fullmatch(r"_(.+)_|\*([^*].*[^*])\*", block, re.S)  # an italic line: the mode line
            text = next(g for g in whole.groups() if g) if whole else block
            found.append(_flat(text.replace("**", "").replace("`", "")))
    return found


def table_headers(markdown: str) -> list[list[str]]:
    lines = markdown.splitlines()
    return [[c.strip() for c in line.strip().strip("|").split("|")] for n, line in enumerate(lines[:-1])
            if line.startswith("|") and re.match(r"^\|(\s*-{3,}\s*\|)+$", lines[n + 1].strip())]


@pytest.fixture(scope="module")
def demo_live(demo_site, tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    settings, shelf, _ = demo_site
    folder = tmp_path_factory.mktemp("demo-live")
    shutil.copytree(settings.build_dir / "northwind", folder / "build" / "northwind", symlinks=True)
    port = _free_port()
    config = folder / "shelfwise.toml"
    config.write_text(
        f'build_dir = "{folder / "build"}"\n[site]\nask_endpoint = "http://127.0.0.1:{port}"\nask_token_env = "DEMO_WIDGET_TOKEN"\n'
        f'[api]\ntrace_db = "{folder / "traces.sqlite"}"\ncors_origins = ["http://127.0.0.1:{port}"]\npublic_sites = ["northwind"]\n'
        '[[api.tokens]]\nname = "demo-widget"\ntoken_env = "DEMO_WIDGET_TOKEN"\nshelves = ["northwind"]\n', encoding="utf-8")
    env = {**os.environ, "DEMO_WIDGET_TOKEN": "demo-token"}
    cli = [sys.executable, "-m", "shelfwise.compiler.cli.main"]
    subprocess.run([*cli, "build", str(shelf), "--site", "--config", str(config), "--quiet"], env=env, check=True,
                   capture_output=True, timeout=1800)
    server = subprocess.Popen([*cli, "serve", "northwind", "--config", str(config), "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait(base + "/api/health", seconds=120, process=server)
        sections = json.loads((folder / "build/northwind/site/assets/shelfwise/sections.json").read_text(encoding="utf-8"))
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(180000)
            yield page, base, sections
            browser.close()
    finally:
        os.kill(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


def _ask(page, question: str) -> dict:
    """``question`` typed in a fresh conversation; returns the API's answer as the widget received it."""
    if page.locator(".sw-ask-reset").is_visible():
        page.locator(".sw-ask-reset").click()
    page.locator("#sw-ask-input").fill(question)
    with page.expect_response(lambda r: r.url.endswith("/api/ask") and r.request.method == "POST", timeout=240000) as info:
        page.keyboard.press("Enter")
    answer = answer_of(info.value)
    page.locator(".sw-ask-turn .sw-ask-trace").last.wait_for()
    return answer


def answer_of(response) -> dict:
    """The answer an /api/ask response carried: the widget asks for events, so its last event (plain JSON otherwise)."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        streamed = events(response.text())
        assert streamed[-1][0] == "answer", [name for name, _ in streamed]
        return streamed[-1][1]
    return response.json()


def _open_widget(page, base: str) -> None:
    page.goto(base + "/sites/northwind/index.html")
    if page.locator("#sw-ask-panel").is_hidden():
        page.locator(".sw-ask-toggle").click()


def test_the_widget_shows_each_stage_as_it_completes_then_the_answer(demo_live):
    page, base, _ = demo_live
    _open_widget(page, base)
    page.evaluate("""() => { window.swStatus = []; new MutationObserver((records) => records.forEach((r) =>
        r.addedNodes.forEach((n) => window.swStatus.push(n.textContent)))).observe(
        document.querySelector('.sw-ask-status'), {childList: true, subtree: true}); }""")
    answer = _ask(page, QUESTIONS[3])
    shown = page.evaluate("window.swStatus")
    progress = [text for text in shown if text.startswith("Planned")]
    assert progress, shown
    asks = "; ".join(f"\u201c{o['ask']}\u201d" for o in answer["obligations"])
    assert re.fullmatch(rf"Planned \d+ parts?: {re.escape(asks)} · Read \d+ sections? of \d+ documents? · Drafted \d+ statements? · "
                        r"Checked \d+ statements? against the documents \(\d+ confirmed\)… \(Stop cancels\)", progress[-1]), progress
    assert progress == sorted(progress, key=len)  # one stage added at a time, in order
    assert not page.locator(".sw-ask-status").inner_text().startswith("Planned")  # the answer replaced the progress
    turn = _flat(page.locator(".sw-ask-turn").last.inner_text())
    assert all(m in turn for m in marks(answer["answer_markdown"])), turn


def test_a_compare_question_streams_its_plan_and_the_computed_change_set_then_the_answer(demo_live):
    """'What changed between Rev C and Rev D' is answered from the change set alone: recall, read and write do not run,
    so the served stream is planned, compared, answer."""
    _, base, _ = demo_live
    request = urllib.request.Request(base + "/api/ask", data=json.dumps({"question": QUESTIONS[1], "shelf": "northwind"}).encode(),
                                     headers={"Authorization": "Bearer demo-token", "Content-Type": "application/json",
                                              "Accept": "text/event-stream"})
    with urllib.request.urlopen(request, timeout=240) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        got = events(response.read().decode("utf-8"))
    assert [name for name, _ in got] == ["planned", "compared", "answer"]
    compared, answer = got[1][1], got[2][1]
    assert compared["obligations"] == 1 and compared["pairs"] >= 1
    assert answer["models"]["comparison"] == "code" and re.search(r"Shown: the \d+ of \d+ changes", answer["answer_markdown"])


def test_stop_aborts_a_streamed_answer_after_its_first_stage(demo_live):
    """The network slowed to 1.5 kB/s: the plan's event arrives, the answer's would take seconds; Stop aborts the
    request, no answer is shown, and the question stays in the box."""
    page, base, _ = demo_live
    _open_widget(page, base)
    if page.locator(".sw-ask-reset").is_visible():
        page.locator(".sw-ask-reset").click()
    turns = page.locator(".sw-ask-turn").count()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": 1500, "uploadThroughput": -1})
    try:
        page.locator("#sw-ask-input").fill(QUESTIONS[5])
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelector('.sw-ask-status').textContent.startsWith('Planned')", timeout=60000)
        page.get_by_role("button", name="Stop").click()
        page.wait_for_function("document.querySelector('.sw-ask-status').textContent.startsWith('Stopped')")
        page.wait_for_timeout(3000)
        assert page.locator(".sw-ask-turn").count() == turns
        assert page.locator("#sw-ask-input").input_value() == QUESTIONS[5]
        assert page.get_by_role("button", name="Stop").is_hidden()
    finally:
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        cdp.detach()


def test_ten_newcomer_questions_show_every_mark_table_and_document_the_api_returns(demo_live):
    page, base, sections = demo_live
    page.goto(base + "/sites/northwind/index.html")
    page.locator(".sw-ask-toggle").click()
    examples = page.locator(".sw-ask-example").all_inner_texts()
    assert examples and examples[0].startswith("Which revision of the Quality Manual QM-001 is in force")  # shelf.toml examples
    seen = {"superseded": 0, "correction": 0, "shown k of n": 0, "tables": 0, "not in documents": 0}
    for question in QUESTIONS:
        answer = _ask(page, question)
        turn = page.locator(".sw-ask-turn").last
        shown = _flat(turn.inner_text())
        expected = marks(answer["answer_markdown"]) + [_flat(w) for w in answer["warnings"]]
        missing = [m for m in expected if m not in shown]
        assert not missing, (question, missing)
        headers = table_headers(answer["answer_markdown"])
        assert [[_flat(t) for t in table.locator("thead th").all_inner_texts()]
                for table in turn.locator("table.sw-ask-table").all()] == headers, question
        documents = {s["section_id"]: s["doc_id"] for s in answer["sources"]}
        chips = turn.locator("a.sw-ask-cite").all()
        assert len(chips) >= len(set(CITE.findall(answer["answer_markdown"])) & set(sections["sections"])), question
        for chip in chips:
            section_id = chip.get_attribute("href").rsplit("#", 1)[1].split("-r")[0]
            doc_id = documents.get(section_id) or sections["sections"][section_id][2]
            name = sections["documents"][doc_id][0]
            assert re.fullmatch(r"\[\d+\] " + re.escape(name), chip.inner_text()), (question, chip.inner_text(), name)
        markdown = answer["answer_markdown"]
        seen["superseded"] += "(superseded by" in markdown
        seen["correction"] += "Contrary to what the question assumes" in markdown
        seen["shown k of n"] += bool(re.search(r"Shown: the \d+ of \d+ changes", markdown))
        seen["tables"] += len(headers) >= 2
        seen["not in documents"] += answer["label"] == "not_in_documents"
        if question == QUESTIONS[0]:  # the premise's correction first, a superseded revision's quote marked
            ARTIFACTS.mkdir(exist_ok=True)
            page.locator("#sw-ask-panel").screenshot(path=str(ARTIFACTS / "widget-demo.png"), animations="disabled")
    assert all(seen.values()), seen  # the ten questions exercise each kind of mark


def test_feedback_from_the_widget_is_kept_with_the_answers_trace(demo_live):
    page, base, _ = demo_live
    page.goto(base + "/sites/northwind/index.html")
    if page.locator("#sw-ask-panel").is_hidden():
        page.locator(".sw-ask-toggle").click()
    answer = _ask(page, "How often must top management review the quality management system?")
    turn = page.locator(".sw-ask-turn").last
    turn.get_by_role("button", name="Not helpful").click()
    page.wait_for_function("document.querySelector('.sw-ask-status').textContent.startsWith('Thank you')")
    assert turn.get_by_role("button", name="Not helpful").get_attribute("aria-pressed") == "true"
    request = urllib.request.Request(f"{base}/api/answers/{answer['trace_id']}", headers={"Authorization": "Bearer demo-token"})
    with urllib.request.urlopen(request, timeout=30) as response:
        feedback = json.load(response)["feedback"]
    assert [(f["rating"], f["token"]) for f in feedback] == [("not_helpful", "demo-widget")]


def _serious(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}" for v in result["violations"]
            if v["impact"] in ("serious", "critical")]


def test_axe_core_finds_no_serious_violation_on_five_site_pages_and_the_open_widget(demo_live):
    if not AXE.exists():
        pytest.skip(f"axe-core is not installed at {AXE}: run 'npm install --prefix build/node axe-core' (make system-deps)")
    page, base, _ = demo_live
    for path in SITE_PAGES:
        page.goto(f"{base}/sites/northwind/{path}")
        page.locator(".sw-ask-toggle").wait_for()
        if page.locator("#sw-ask-panel").is_visible():
            page.keyboard.press("Escape")
        assert _serious(page) == [], path
    page.goto(f"{base}/sites/northwind/index.html")
    if page.locator("#sw-ask-panel").is_hidden():
        page.locator(".sw-ask-toggle").click()
    _ask(page, QUESTIONS[7])  # a table, chips, sources, copy and feedback buttons in the open panel
    assert page.locator("#sw-ask-panel").is_visible()
    assert _serious(page) == [], "the open widget"
