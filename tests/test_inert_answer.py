"""Document markup in answers is shown, never run: with ``api.inert_markup`` (on by default for /v1) a quoted
``<script>``, ``javascript:`` link or ``file://`` image reaches a client that renders the answer's Markdown as text.
Checked by rendering the answers with Python-Markdown (mkdocs' renderer, with its HTML-friendly extensions) and
markdown-it-py (CommonMark, raw HTML on), through /api/ask (Litestar's TestClient) and /v1 (the openai client)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import markdown
import openai
import pytest
from litestar.testing import TestClient
from markdown_it import MarkdownIt

from answer_shelves import HashEmbedder, compile_shelf
from shelfwise.api.server.app import create_app
from shelfwise.api.server.inert_answer import inert_markdown
from shelfwise.compiler.settings import Settings

HOSTILE = {
    "refunds.md": "# Refund Policy\n\n## Refunds\n\nRefunds are issued within 14 days <script>alert(1)</script> of the request. "
                  "The refund form is [here](javascript:alert(1)) and the logo ![logo](file:///etc/passwd) marks it.\n\n"
                  "## Returns\n\nReturned goods must be unused.\n",
    "rules.txt": "Refund Rules\n\nRefunds are paid within 21 days <img src=x onerror=alert(2)> by bank transfer, see "
                 "[form](&#106;avascript:alert(3)) and ![x](file:///etc/shadow) {: onclick=\"alert(4)\" }.\n",
}
QUESTION = "How long do refunds take?"


def _renderings(text: str) -> list[str]:
    python_markdown = markdown.markdown(text, extensions=["tables", "attr_list", "fenced_code", "md_in_html"])
    commonmark = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    return [python_markdown, commonmark]


class _Live(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "img", "iframe", "object", "embed", "svg"):
            self.found.append(tag)
        for name, value in attrs:
            url = "".join((value or "").split()).lower()
            if name.startswith("on") or (name in ("href", "src") and url.startswith(("javascript:", "file:", "data:", "vbscript:"))):
                self.found.append(f"{tag} {name}={value}")

    def handle_comment(self, data):
        self.found.append("comment")


def _live_markup(html: str) -> list[str]:
    """What a browser would run or fetch in rendered HTML: script or img elements, event handlers, javascript:/file: URLs."""
    parser = _Live()
    parser.feed(html)
    parser.close()
    return parser.found


@pytest.mark.parametrize("text", [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[a](javascript:alert(1))", "[a](&#106;avascript:alert(1))",
    "[a]( javascript:alert(1) )", "![x](file:///etc/passwd)", "![x][r]\n\n[r]: file:///etc/passwd", "[a][r]\n\n[r]:\njavascript:alert(1)",
    "<file:///etc/passwd>", "[a\\\\](javascript:alert(1))", "text\n{: onclick=\"alert(1)\" }", "<!-- x --><svg onload=alert(1)>", "```\n<b>x\n````\n<img src=x onerror=alert(1)>",
    "````\n<img src=x onerror=alert(1)>", "- item\n  ```\n  x\nnot code <img src=x onerror=alert(1)>\n```",
    "`` ` <script>alert(1)</script>",
])
def test_hostile_markup_is_inert_in_both_renderers(text):
    assert _live_markup("".join(_renderings(text))), text  # hostile as written
    for html in _renderings(inert_markdown(text)):
        assert _live_markup(html) == [], (text, html)


def test_the_answer_keeps_its_own_structure():
    answer = ("**QM-001 Rev D:** Calibration is yearly. [s0123456789a]\n\n| Item | Interval |\n|---|---|\n| CAL-07 | 12 months |\n\n"
              "- Stop the writer. [s0123456789b]\n\n```\nif (a < b) { copy(); }\n```\n\n_Model-free answer._")
    assert inert_markdown(answer) == answer
    python_markdown, commonmark = _renderings(inert_markdown(answer))
    for html in (python_markdown, commonmark):
        assert "<table>" in html and "<strong>QM-001 Rev D:</strong>" in html and "[s0123456789a]" in html
        assert "if (a &lt; b) { copy(); }" in html and "<li>Stop the writer. [s0123456789b]</li>" in html
    shown = inert_markdown("Use `<br>` and 2 < 3 and [the form](https://example.org/form) {sic}.")
    assert "&lt;br>" in shown and "2 &lt; 3" in shown and "[the form\\](https://example.org/form)" in shown and "\\{sic}" in shown


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory):
    root = tmp_path_factory.mktemp("inert")
    folder = root / "shelves" / "hostile"
    folder.mkdir(parents=True)
    for name, text in HOSTILE.items():
        (folder / name).write_text(text, encoding="utf-8")
    return root, {"hostile": compile_shelf(folder, root / "build")}


def _app(hostile_build, **api):
    root, stores = hostile_build
    settings = Settings.model_validate({"api": {"tokens": [{"name": "reader", "token": "reader-secret", "shelves": ["hostile"]}],
                                                "trace_db": str(root / "traces.sqlite"), **api}})
    return create_app(settings, chat=None, embedder=HashEmbedder(), stores=stores)


def test_api_ask_shows_document_markup_as_text_when_asked_to(hostile_build):
    headers = {"Authorization": "Bearer reader-secret"}
    with TestClient(_app(hostile_build)) as client:  # default: /api/ask quotes verbatim (the widget renders text safely)
        verbatim = client.post("/api/ask", json={"question": QUESTION, "shelf": "hostile"}, headers=headers).json()["answer_markdown"]
    assert "<script>alert(1)</script>" in verbatim and "![logo](file:///etc/passwd)" in verbatim
    with TestClient(_app(hostile_build, inert_markup=["ask"])) as client:
        answer = client.post("/api/ask", json={"question": QUESTION, "shelf": "hostile"}, headers=headers).json()
    shown = answer["answer_markdown"]
    assert "within 14 days &lt;script>alert(1)&lt;/script> of the request" in shown and "[here\\](javascript:alert(1))" in shown
    assert "!\\[logo\\](file:///etc/passwd)" in shown and re.search(r"\[s[0-9a-f]{11}\]", shown)
    for html in _renderings(shown):
        assert _live_markup(html) == [] and "alert(1)" in html


@pytest.mark.parametrize("stream", [False, True])
def test_v1_answers_show_document_markup_as_text_by_default(hostile_build, stream):
    with TestClient(_app(hostile_build)) as http:
        client = openai.OpenAI(base_url=str(http.base_url) + "/v1", api_key="reader-secret", http_client=http, max_retries=0)
        reply = client.chat.completions.create(model="hostile", messages=[{"role": "user", "content": QUESTION}], stream=stream)
        text = "".join(c.choices[0].delta.content or "" for c in reply) if stream else reply.choices[0].message.content
    assert "Refunds are issued within 14 days" in text and "[[1]](" in text  # the answer's own citation links stay links
    for html in _renderings(text):
        assert _live_markup(html) == [], html
        assert 'href="http://testserver.local/api/sections/' in html
    with TestClient(_app(hostile_build, inert_markup=[])) as http:  # the option off: verbatim, as before
        client = openai.OpenAI(base_url=str(http.base_url) + "/v1", api_key="reader-secret", http_client=http, max_retries=0)
        text = client.chat.completions.create(model="hostile", messages=[{"role": "user", "content": QUESTION}]).choices[0].message.content
    assert "<script>alert(1)</script>" in text
