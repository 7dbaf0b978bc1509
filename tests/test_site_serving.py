"""Serving conventions of /sites/<shelf>/: the site's own styled 404, ``/`` listing the readable sites, HEAD,
ETag/Last-Modified with 304s, and each document's original downloadable from its page under the shelf's token rules."""

from __future__ import annotations

import hashlib
import os
import re
import threading
from email.utils import formatdate
from pathlib import Path

import pytest
import uvicorn
from litestar.testing import TestClient

from answer_shelves import TENANTS, HashEmbedder, tenant_builds
from shelfwise.api.server.app import create_app
from shelfwise.compiler.errors import SiteError
from shelfwise.compiler.publish.originals import copy_originals, download_name, original_href, stored_name
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.publish.site import build_site
from shelfwise.compiler.store.store import Store
from tests.test_browser import CHROMIUM, _free_port, _wait, launch_chromium

ALPHA = {"Authorization": "Bearer alpha-secret"}
BETA = {"Authorization": "Bearer beta-secret"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("serving")
    built = tenant_builds(root / "build", root / "shelves")
    for name, folder in built.items():
        store = Store(folder / "store.sqlite", create=False)
        build_site(store, folder / "current", shelf=name, shelf_dir=root / "shelves" / name)
        store.close()
    return built


def _app(builds, tmp_path, **api):
    settings = Settings.model_validate({"api": {
        "tokens": [{"name": "alpha-widget", "token": "alpha-secret", "shelves": ["alpha"]},
                   {"name": "beta-widget", "token": "beta-secret", "shelves": ["beta"]}],
        "trace_db": str(tmp_path / "traces.sqlite"), "rate_limit_per_minute": 10_000, **api}})
    return create_app(settings, chat=None, embedder=HashEmbedder(), stores=builds, sites={n: f / "site" for n, f in builds.items()})


def test_a_missing_page_is_the_sites_own_404_with_assets_under_its_prefix(builds, tmp_path):
    with TestClient(_app(builds, tmp_path)) as client:
        missing = client.get("/sites/beta/documents/no-such-page.html", headers=BETA)
        assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
        assert 'href="/assets/' not in missing.text and 'src="/assets/' not in missing.text
        sheets = re.findall(r'href="(/sites/beta/assets/stylesheets/[^"]+\.css)"', missing.text)
        scripts = re.findall(r'src="(/sites/beta/assets/[^"]+\.js)"', missing.text)
        assert sheets and scripts and '"base": "/sites/beta/"' in missing.text
        for asset in sheets + scripts:
            assert client.get(asset, headers=BETA).status_code == 200, asset
        assert client.head("/sites/beta/no-such-page.html", headers=BETA).status_code == 404
        # a caller who may not read the shelf gets no page of it, the same answer as for a shelf not served
        other = client.get("/sites/beta/no-such-page.html", headers=ALPHA)
        assert other.status_code == 404 and other.json()["error"] == "no site at /sites/beta/ that this token can read"


def test_the_root_lists_the_sites_the_caller_may_read_as_html_or_json(builds, tmp_path):
    with TestClient(_app(builds, tmp_path, public_sites=["alpha"])) as client:
        anonymous = client.get("/", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
        assert anonymous.status_code == 200 and anonymous.headers["content-type"].startswith("text/html")
        assert re.findall(r'<a href="(/sites/[^"]+)">', anonymous.text) == ["/sites/alpha/"]
        beta = client.get("/", headers={**BETA, "Accept": "application/json"})
        assert beta.json()["sites"] == [{"shelf": "alpha", "url": "/sites/alpha/"}, {"shelf": "beta", "url": "/sites/beta/"}]
        assert beta.json()["api"]["openapi"] == "/api/schema/openapi.json"
        assert client.get("/sites/", headers={"Accept": "application/json"}).json()["sites"] == [{"shelf": "alpha", "url": "/sites/alpha/"}]
        assert "beta" not in client.get("/").text
        assert client.get("/", headers={"Authorization": "Bearer guess"}).status_code == 401


def test_head_and_conditional_get_on_static_files(builds, tmp_path):
    url = "/sites/beta/assets/shelfwise/sections.json"
    with TestClient(_app(builds, tmp_path)) as client:
        full = client.get(url, headers=BETA)
        head = client.head(url, headers=BETA)
        assert full.status_code == 200 and head.status_code == 200 and head.content == b""
        for name in ("etag", "last-modified", "content-type", "cache-control"):
            assert head.headers[name] == full.headers[name], name
        assert head.headers["content-length"] == str(len(full.content))
        etag, modified = full.headers["etag"], full.headers["last-modified"]
        assert re.fullmatch(r'"[0-9a-f]+-[0-9a-f]+"', etag)
        unchanged = client.get(url, headers={**BETA, "If-None-Match": etag})
        assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged.headers["etag"] == etag
        assert client.get(url, headers={**BETA, "If-None-Match": f'"other", W/{etag}'}).status_code == 304
        assert client.get(url, headers={**BETA, "If-None-Match": '"other"'}).status_code == 200
        assert client.get(url, headers={**BETA, "If-Modified-Since": modified}).status_code == 304
        assert client.get(url, headers={**BETA, "If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"}).status_code == 200
        assert client.get(url, headers={**BETA, "If-Modified-Since": "Tue, 01 Jan 2999 00:00:00 GMT"}).status_code == 200
        assert client.get(url, headers={**BETA, "If-Modified-Since": "yesterday"}).status_code == 200
        assert client.get(url, headers={**BETA, "If-None-Match": '"other"', "If-Modified-Since": modified}).status_code == 200
        assert client.head("/sites/beta/", headers=BETA).status_code == 200
        assert client.head(url).status_code == 401
        path = builds["beta"] / "site" / "assets" / "shelfwise" / "sections.json"
        later = path.stat().st_mtime + 5
        os.utime(path, (later, later))
        changed = client.get(url, headers={**BETA, "If-None-Match": etag})
        assert changed.status_code == 200 and changed.headers["etag"] != etag
        assert changed.headers["last-modified"] == formatdate(later, usegmt=True)


def test_each_document_page_links_its_original_served_under_the_shelfs_token_rules(builds, tmp_path):
    page = (builds["beta"] / "site" / "documents" / "beta-secrets-md.html").read_text(encoding="utf-8")
    assert '<a class="sw-original" href="../_originals/beta-secrets.md" download="beta-secrets.md">download the original</a>' in page
    url = "/sites/beta/_originals/beta-secrets.md"
    with TestClient(_app(builds, tmp_path)) as client:
        original = client.get(url, headers=BETA)
        assert original.status_code == 200 and original.text == TENANTS["beta"]["beta-secrets.md"]
        assert original.headers["content-disposition"] == "attachment; filename*=UTF-8''beta-secrets.md"
        assert original.headers["content-security-policy"] == "sandbox" and original.headers["x-content-type-options"] == "nosniff"
        assert client.head(url, headers=BETA).status_code == 200
        assert client.get(url).status_code == 401
        assert client.get(url, headers=ALPHA).status_code == 404 and "Zephyr" not in client.get(url, headers=ALPHA).text
        for climb in ("/sites/beta/_originals/..%2F..%2Fstore.sqlite", "/sites/beta/_originals/%2e%2e/%2e%2e/store.sqlite",
                      "/sites/beta/..%2Fsite%2F..%2F..%2Fstore.sqlite", "/sites/beta/_originals/..%5C..%5Cstore.sqlite"):
            refused = client.get(climb, headers=BETA)
            assert refused.status_code == 400 and "climbs out of the site" in refused.json()["error"], climb
        assert client.get("/sites/alpha/_originals/access-policy.md", headers=BETA).status_code == 404


def test_originals_a_browser_would_run_are_stored_as_text_and_a_changed_source_is_refused(tmp_path):
    shelf = tmp_path / "shelf"
    (shelf / "notices").mkdir(parents=True)
    hostile = b"<html><body><script>document.title='pwned'</script>Notice</body></html>"
    (shelf / "notices" / "notice 1.html").write_bytes(hostile)
    (shelf / "plan.md").write_bytes(b"# Plan\n")
    rows = [{"doc_id": "notice", "path": "notices/notice 1.html", "content_hash": hashlib.sha256(hostile).hexdigest()},
            {"doc_id": "plan", "path": "plan.md", "content_hash": hashlib.sha256(b"# Plan\n").hexdigest()}]
    assert copy_originals(rows, shelf, tmp_path / "site") == (2, len(hostile) + 7)
    assert (tmp_path / "site" / "_originals" / "notices" / "notice 1.html.txt").read_bytes() == hostile
    assert not (tmp_path / "site" / "_originals" / "notices" / "notice 1.html").exists()
    assert stored_name("notices/notice 1.html") == "notices/notice 1.html.txt" and stored_name("plan.md") == "plan.md"
    assert download_name("notice 1.html.txt") == "notice 1.html" and download_name("notes.txt") == "notes.txt"
    assert original_href("notices/notice 1.html") == "../_originals/notices/notice%201.html.txt"
    (shelf / "plan.md").write_bytes(b"# Plan, edited\n")
    with pytest.raises(SiteError, match=r"plan\.md: changed since it was compiled; rebuild the shelf"):
        copy_originals(rows, shelf, tmp_path / "again")


@pytest.fixture
def served(builds, tmp_path):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(_app(builds, tmp_path, public_sites=["beta"]), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{port}"
        _wait(base + "/api/health", seconds=30)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
            page.set_default_timeout(15000)
            yield page, base
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def test_in_chromium_the_404_is_styled_and_the_original_downloads_from_its_page(served):
    page, base = served
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 and "no-such-page" not in r.url else None)
    response = page.goto(base + "/sites/beta/documents/no-such-page.html")
    assert response.status == 404
    header = page.locator("header.md-header")
    assert header.is_visible() and header.evaluate("h => getComputedStyle(h).position") == "sticky"
    assert failed == []
    page.locator("a.md-header__button.md-logo").click()  # the 404 page's own navigation leads into the site
    page.wait_for_url(base + "/sites/beta/index.html")
    page.goto(base + "/sites/beta/documents/beta-secrets-md.html")
    with page.expect_download() as download:
        page.locator("a.sw-original").click()
    assert download.value.suggested_filename == "beta-secrets.md"
    assert Path(download.value.path()).read_text(encoding="utf-8") == TENANTS["beta"]["beta-secrets.md"]
    assert failed == []
