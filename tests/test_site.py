"""The site: a real mkdocs-material build (strict) of the demo shelf and of a hostile shelf, swapped in only on success."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from compiler.build import build_shelf
from compiler.errors import SiteError
from compiler.linking import links_stage
from compiler.settings import Settings
from compiler.site import build_site, site_stage
from compiler.store import Store
from tests.test_pages import make_store

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
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "coverage.md.j2").write_text("# Coverage\n\nSee [the missing page](nowhere.md).\n", encoding="utf-8")
    with pytest.raises(SiteError) as caught:
        build_site(store, folder, templates_dir=templates)
    assert "the last good site is kept" in str(caught.value) and "nowhere.md" in str(caught.value)
    assert (folder / "site/index.html").read_text(encoding="utf-8") == index
    assert (folder / "site/coverage.html").exists()
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".site-")]


def test_demo_shelf_site_through_the_build(tmp_path):
    shelf = ROOT / "shelves" / "northwind"
    if not (shelf / "documents").is_dir():
        pytest.skip("the demo shelf has not been generated")
    settings = Settings(build_dir=tmp_path / "build")
    report = build_shelf(shelf, settings, progress=lambda line: None, stages=[links_stage(), site_stage(settings, shelf)])
    summary = report.stages["site"]
    assert summary["sections"] > 100 and summary["figures"] >= 1
    out = tmp_path / "build" / "northwind"
    store = Store(out / "store.sqlite", create=False)
    try:
        _check_site(store, out / "site")
        shelf_page = (out / "site/shelf.html").read_text(encoding="utf-8")
        assert "How the documents link" in shelf_page and "Dossiers" in shelf_page
        again = build_shelf(shelf, settings, progress=lambda line: None, stages=[links_stage(), site_stage(settings, shelf)])
        assert again.stages["site"]["rendered"] == 0 and again.stages["site"]["pages"] == summary["pages"]
    finally:
        store.close()
