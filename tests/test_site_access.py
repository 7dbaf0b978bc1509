"""Served sites obey the tenants: /sites/<shelf>/ needs a token granting the shelf (header or the sign-in cookie)
unless the shelf is public; no reply names a shelf the caller cannot read; failed token checks are rate-limited."""

from __future__ import annotations

import re

import pytest
from litestar.testing import TestClient

from answer_shelves import HashEmbedder, tenant_builds
from shelfwise.api.server.app import create_app
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.publish.site import build_site
from shelfwise.compiler.store.store import Store

ALPHA = {"Authorization": "Bearer alpha-secret"}
BETA = {"Authorization": "Bearer beta-secret"}
URLS = ["/sites/beta/", "/sites/beta/index.html", "/sites/beta/search/search_index.json", "/sites/beta/assets/shelfwise/sections.json"]


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("tenants-sites")
    built = tenant_builds(root / "build", root / "shelves")
    for name, folder in built.items():
        store = Store(folder / "store.sqlite", create=False)
        build_site(store, folder / "current", shelf=name)
        store.close()
    return built


def _app(builds, tmp_path, **api):
    settings = Settings.model_validate({"api": {
        "tokens": [{"name": "alpha-widget", "token": "alpha-secret", "shelves": ["alpha"]},
                   {"name": "beta-widget", "token": "beta-secret", "shelves": ["beta"]}],
        "trace_db": str(tmp_path / "traces.sqlite"), **api}})
    return create_app(settings, chat=None, embedder=HashEmbedder(), stores=builds, sites={n: f / "site" for n, f in builds.items()})


def test_a_site_is_readable_only_with_a_token_granting_its_shelf(builds, tmp_path):
    with TestClient(_app(builds, tmp_path)) as client:
        for url in URLS:
            assert client.get(url, headers=BETA).status_code == 200, url
            nobody = client.get(url)
            assert nobody.status_code == 401 and "Zephyr" not in nobody.text, url
            other = client.get(url, headers=ALPHA)
            assert other.status_code == 404 and "Zephyr" not in other.text and "7741" not in other.text, url
        assert "Zephyr" in client.get("/sites/beta/search/search_index.json", headers=BETA).text
        browser = client.get("/sites/beta/", headers={"Accept": "text/html"}, follow_redirects=False)
        assert browser.status_code == 303 and browser.headers["location"] == "/sites/login?next=/sites/beta/"
        unserved = client.get("/sites/gamma/", headers=ALPHA)
        assert unserved.status_code == 404 and "beta" not in unserved.text
        escape = client.get("/sites/beta/..%2F..%2Fstore.sqlite", headers=BETA)
        assert escape.status_code == 400 and "climbs out of the site" in escape.json()["error"]


def _csrf(page) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)


def test_the_sign_in_cookie_grants_the_site_and_the_slashless_url_redirects(builds, tmp_path):
    with TestClient(_app(builds, tmp_path)) as client:
        csrf = _csrf(client.get("/sites/login"))
        wrong = client.post("/sites/login", data={"token": "guess", "next": "/sites/beta/", "csrf": csrf})
        assert wrong.status_code == 401 and "not known" in wrong.text
        csrf = _csrf(wrong)
        signed = client.post("/sites/login", data={"token": "beta-secret", "next": "https://evil.example/", "csrf": csrf},
                             follow_redirects=False)
        assert signed.status_code == 303 and signed.headers["location"] == "/sites/"
        assert "HttpOnly" in signed.headers["set-cookie"] and "SameSite=lax" in signed.headers["set-cookie"]
        assert client.get("/sites/beta/search/search_index.json").status_code == 200
        slashless = client.get("/sites/beta", follow_redirects=False)
        assert slashless.status_code == 301 and slashless.headers["location"] == "/sites/beta/"
        assert client.get("/sites/alpha/").status_code == 404
        assert "/sites/beta/" in client.get("/sites/").text and "alpha" not in client.get("/sites/").text


def test_a_public_site_needs_no_token_and_the_api_still_does(builds, tmp_path):
    with TestClient(_app(builds, tmp_path, public_sites=["alpha"])) as client:
        assert client.get("/sites/alpha/").status_code == 200
        assert client.get("/sites/beta/").status_code == 401
        assert client.get("/api/search?shelf=alpha&q=backup").status_code == 401


def test_failed_token_checks_are_limited_by_client_address(builds, tmp_path):
    with TestClient(_app(builds, tmp_path, failed_auth_per_minute=5)) as client:
        codes = [client.get("/api/health", headers={"Authorization": f"Bearer guess-{n}"}).status_code for n in range(8)]
        assert codes == [401] * 5 + [429] * 3
        limited = client.get("/api/search?shelf=alpha&q=backup", headers=ALPHA)
        assert limited.status_code == 429 and "api.failed_auth_per_minute" in limited.json()["error"]
        assert int(limited.headers["retry-after"]) >= 1
        assert client.get("/api/health").status_code == 200  # no token presented: nothing to guess


def test_the_sign_in_form_needs_its_csrf_token(builds, tmp_path):
    """A form posted from another site (no token, or no matching cookie) signs nobody in: login CSRF would sign a
    victim's browser in with the attacker's token."""
    with TestClient(_app(builds, tmp_path)) as client:
        page = client.get("/sites/login?next=/sites/beta/")
        assert page.status_code == 200 and "shelfwise_csrf=" in page.headers["set-cookie"]
        assert "SameSite=strict" in page.headers["set-cookie"] and "HttpOnly" in page.headers["set-cookie"]
        for sent in ({}, {"csrf": "forged"}):
            refused = client.post("/sites/login", data={"token": "beta-secret", "next": "/sites/beta/", **sent}, follow_redirects=False)
            assert refused.status_code == 403 and "sign in again" in refused.text and "shelfwise_token" not in refused.headers.get("set-cookie", "")
    with TestClient(_app(builds, tmp_path)) as other:  # a token from the form, but not this browser's cookie
        refused = other.post("/sites/login", data={"token": "beta-secret", "csrf": _csrf(page)}, follow_redirects=False)
        assert refused.status_code == 403


@pytest.mark.parametrize("next_path", ["/sites/../evil", "/sites/%2e%2e/evil", "/sites/beta/../../api/health", "//evil.example/",
                                       "/sites//evil.example", "https://evil.example/sites/", "/sites/\\evil", "/sites/%0a/x",
                                       "/api/health"])
def test_after_signing_in_next_goes_only_to_a_path_under_sites(builds, tmp_path, next_path):
    with TestClient(_app(builds, tmp_path)) as client:
        form = client.get("/sites/login", params={"next": next_path})
        assert 'name="next" value="/sites/"' in form.text
        signed = client.post("/sites/login", data={"token": "beta-secret", "next": next_path, "csrf": _csrf(form)}, follow_redirects=False)
        assert signed.status_code == 303 and signed.headers["location"] == "/sites/"
        form = client.get("/sites/login")
        kept = client.post("/sites/login", data={"token": "beta-secret", "next": "/sites/beta/search/", "csrf": _csrf(form)},
                           follow_redirects=False)
        assert kept.headers["location"] == "/sites/beta/search/"


def test_a_nul_byte_or_control_character_in_a_site_path_is_a_400(builds, tmp_path):
    with TestClient(_app(builds, tmp_path)) as client:
        for path in ("/sites/beta/index%00.html", "/sites/beta/%00", "/sites/beta/a%01b.html", "/sites/be%00ta/"):
            response = client.get(path, headers=BETA)
            assert response.status_code in (400, 404) and response.status_code < 500, (path, response.status_code)
        nul = client.get("/sites/beta/index%00.html", headers=BETA)
        assert nul.status_code == 400 and "control character" in nul.json()["error"]
