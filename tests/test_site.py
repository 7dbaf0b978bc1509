"""The site: a real mkdocs-material build (strict) of the demo shelf and of a hostile shelf, swapped in only on success."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from shelfwise.compiler.build import build_shelf
from shelfwise.compiler.errors import SiteError
from shelfwise.compiler.build import links_stage
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.publish.site import build_site, site_stage
from shelfwise.compiler.store.store import Store
from tests.test_pages import make_store
from tests.site_fixtures import broken_templates

ROOT = Path(__file__).resolve().parents[1]


class _Tags(HTMLParser):
    """Every start tag with its attributes, and the text inside <script> elements."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)


def _parse(path: Path) -> _Tags:
    parser = _Tags()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _check_site(store: Store, site: Path) -> None:
    """Every section anchor on its page, every figure image present, nothing loaded from another host."""
    sections_map = json.loads((site / "assets/shelfwise/sections.json").read_text(encoding="utf-8"))["sections"]
    for row in store.documents():
        page = site / f"documents/{row['doc_id']}.html"
        ids = {attrs.get("id") for _, attrs in _parse(page).tags}
        for section in store.sections(row["doc_id"]):
            assert section.id in ids, f"{section.id} missing from {page}"
            assert sections_map[section.id][0] == f"documents/{row['doc_id']}.html#{section.id}"
        for figure in store.figures(row["doc_id"]):
            if figure.image:
                assert (site / f"documents/{row['doc_id']}/{figure.id}.png").read_bytes() == figure.image
    for page in site.rglob("*.html"):
        for tag, attrs in _parse(page).tags:
            for name in ("src", "href"):
                value = attrs.get(name) or ""
                if tag in {"script", "link", "img", "iframe"} and re.match(r"(https?:)?//", value):
                    raise AssertionError(f"{page} loads {value} from another host")
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    assert any("#s" in doc["location"] for doc in index["docs"]), "the search index holds no section entries"


@pytest.fixture(scope="module")
def widget_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    store = make_store(folder)
    summary = build_site(store, folder, endpoint="http://127.0.0.1:9", token="t0k", shelf="widgets")
    yield store, folder, summary
    store.close()


def test_site_anchors_figures_and_search(widget_site):
    store, folder, summary = widget_site
    _check_site(store, folder / "site")
    assert summary["pages"] == summary["rendered"] - 6  # pages plus sections.json, the widget's three files, two images
    page = (folder / "site/documents/rfc9001-txt.html").read_text(encoding="utf-8")
    assert '<table class="sw-grid">' in page and "Lifetime | limit" in page
    assert 'data-endpoint="http://127.0.0.1:9"' in page and 'data-token="t0k"' in page and 'data-shelf="widgets' in page


def test_hostile_document_is_inert_in_the_site(widget_site):
    store, folder, _ = widget_site
    page = folder / "site/documents/hostile-md.html"
    parsed = _parse(page)
    assert not any("alert(" in script for script in parsed.scripts)
    for tag, attrs in parsed.tags:
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        assert not (attrs.get("href") or "").lower().startswith("javascript:"), (tag, attrs)
        if tag == "script":
            assert attrs.get("src") is None or not attrs["src"].startswith(("x", "javascript"))
    text = page.read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "a | b" in text and '<th scope="row" class="sw-nw">[l](javascript:alert(6))</th>' in text
    assert "Hostile ‹script›alert(’title’)‹/script› notes - Widget ‹Shelf›</title>" in text  # nav title and site name


def test_failed_build_keeps_the_last_good_site(widget_site, tmp_path):
    store, folder, _ = widget_site
    index = (folder / "site/index.html").read_text(encoding="utf-8")
    templates = broken_templates(tmp_path)
    with pytest.raises(SiteError) as caught:
        build_site(store, folder, templates_dir=templates)
    assert "the last good site is kept" in str(caught.value) and "nowhere.md" in str(caught.value)
    assert (folder / "site/index.html").read_text(encoding="utf-8") == index
    assert (folder / "site/coverage.html").exists()
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".site-")]


def test_demo_shelf_site_through_the_build(demo_site):
    settings, shelf, report = demo_site
    summary = report.stages["site"]
    assert summary["sections"] > 100 and summary["figures"] >= 1
    out = settings.build_dir / "northwind"
    store = Store(out / "store.sqlite", create=False)
    try:
        _check_site(store, out / "site")
        shelf_page = (out / "site/shelf.html").read_text(encoding="utf-8")
        assert "How the documents link" in shelf_page and "Dossiers" in shelf_page
        again = build_shelf(shelf, settings, progress=lambda line: None, stages=[links_stage(), site_stage(settings, shelf)])
        assert again.stages["site"]["rendered"] == 0 and again.stages["site"]["pages"] == summary["pages"]
    finally:
        store.close()


REV_C, REV_D = "documents-quality-manual-rev-c-docx", "documents-quality-manual-rev-d-pdf"
CHANGES_PAGE = f"changes/{REV_C}--{REV_D}.html"


def _closure_row(site: Path) -> list[str]:
    """The hrefs of the What-changed table row moving complaint closure from 45 to 30 calendar days."""
    html = (site / CHANGES_PAGE).read_text(encoding="utf-8")
    rows = [row for row in re.findall(r"<tr>(.*?)</tr>", html, re.S) if "45 calendar days" in row and "30 calendar days" in row]
    assert len(rows) == 1 and "−15 calendar days" in rows[0] and "Complaints shall be closed within" in rows[0]
    return re.findall(r'href="([^"]+)"', rows[0])


def test_demo_superseded_revision_links_to_what_changed_with_the_45_to_30_day_change_anchored_both_sides(demo_site):
    settings, _, _ = demo_site
    site = settings.build_dir / "northwind" / "site"
    hrefs = _closure_row(site)
    assert [h.split("#")[0] for h in hrefs] == [f"../documents/{REV_C}.html", f"../documents/{REV_D}.html"]
    for href in hrefs:
        page, anchor = href.split("#")
        target = _parse((site / "changes" / page).resolve())
        assert any(attrs.get("id") == anchor for tag, attrs in target.tags if tag.startswith("h")), href
    store = Store(settings.build_dir / "northwind" / "store.sqlite", create=False)
    try:
        headings = {s.id: (s.doc_id, s.heading) for s in store.sections()}
    finally:
        store.close()
    assert [headings[h.split("#")[1]] for h in hrefs] == [(REV_C, "8.2.2 Complaint handling"), (REV_D, "8.2.2 Complaint handling")]
    for page in (f"documents/{REV_C}.html", f"documents/{REV_D}.html", "index.html", "shelf.html"):
        links = {attrs.get("href") for tag, attrs in _parse(site / page).tags if tag == "a"}
        assert any((href or "").endswith(CHANGES_PAGE.split("/")[1]) for href in links), page
    old_page = (site / f"documents/{REV_C}.html").read_text(encoding="utf-8")
    assert "What changed in QM-001 Quality Manual, Rev D" in old_page


def test_demo_what_changed_marks_words_dossiers_skip_revision_pairs_and_internals_fold_away(demo_site):
    settings, _, _ = demo_site
    site = settings.build_dir / "northwind" / "site"
    changes = (site / CHANGES_PAGE).read_text(encoding="utf-8")
    assert '<del class="sw-del">C</del> <ins class="sw-ins">D</ins>' in changes  # "This is Revision C/D of QM-001."
    assert '<del class="sw-del">45 calendar days</del> → <ins class="sw-ins">30 calendar days</ins>' in changes
    assert "[-" not in changes and "{+" not in changes
    store = Store(settings.build_dir / "northwind" / "store.sqlite", create=False)
    try:
        dossiers = [json.loads(row[0]) for row in store.db.execute("SELECT body FROM dossiers")]
        doc_of = {s.id: s.doc_id for s in store.sections()}
    finally:
        store.close()
    assert dossiers
    for dossier in dossiers:  # Rev C and Rev D are one work: a topic needs another document beside them
        assert len({REV_D if d == REV_C else d for d in dossier["doc_ids"]}) >= 2, dossier["topic"]
        for item in dossier["disagreements"]:
            assert {doc_of[s] for s in item["sections"]} != {REV_C, REV_D}, (dossier["topic"], item)
    page = (site / f"documents/{REV_D}.html").read_text(encoding="utf-8")
    folded = re.search(r"<details class=\"note\">\s*<summary>How this page was made</summary>(.*?)</details>", page, re.S)
    assert folded and "Read by pdf-text" in folded.group(1) and "by chance" in folded.group(1)
    outside = page.replace(folded.group(0), "")
    assert "Read by" not in outside and "by chance" not in outside.split("Brief:")[0]


def test_demo_what_changed_anchors_land_on_both_sections_in_chromium(demo_site):
    from tests.test_browser import CHROMIUM, launch_chromium

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    settings, _, _ = demo_site
    site = (settings.build_dir / "northwind" / "site").resolve()
    hrefs = _closure_row(site)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page()
        try:
            for index, href in enumerate(hrefs):
                page.goto((site / CHANGES_PAGE).as_uri())
                page.locator("tr", has_text="−15 calendar days").locator("a").nth(index).click()
                anchor = href.split("#")[1]
                page.wait_for_url(f"**#{anchor}")
                heading = page.locator(f"[id='{anchor}']")
                assert heading.is_visible() and "8.2.2 Complaint handling" in heading.inner_text()
        finally:
            browser.close()


def test_llms_txt_at_the_site_root_lists_every_document_with_its_page(widget_site):
    store, folder, _ = widget_site
    text = (folder / "site" / "llms.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "# Widget <Shelf>" and "> Widget specifications for the site tests." in lines
    documents = store.documents()
    listed = [line for line in lines if line.startswith("- [") and "documents/" in line]
    assert len(listed) == len(documents) >= 2
    for row, line in zip(documents, listed):
        assert line.endswith(f"](documents/{row['doc_id']}.html): {row['path']}"), line
        assert (folder / "site" / "documents" / f"{row['doc_id']}.html").is_file()
    assert "- [Hostile <script>alert('title')</script> notes](documents/hostile-md.html): hostile.md" in lines  # plain text, never run
    assert "- [The shelf](shelf.html): how the documents link, and the dossiers" in lines and (folder / "site" / "shelf.html").is_file()


def test_llms_txt_links_where_site_url_says_the_site_is_published(widget_site):
    from shelfwise.compiler.publish.llms_txt import llms_txt, site_base

    store, _, _ = widget_site
    text = llms_txt(store, "widgets", site_base("https://docs.example.org/{shelf}", "widgets"))
    assert "](https://docs.example.org/widgets/documents/rfc9001-txt.html): " in text
    assert "- [The shelf](https://docs.example.org/widgets/shelf.html)" in text
    assert llms_txt(store, "widgets") == llms_txt(store, "widgets")  # the same store, the same bytes
