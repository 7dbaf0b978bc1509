"""Compiled sites under /sites/<shelf>/, under the same tenant rules as the API.

A site is read with a token granting its shelf: in the ``Authorization: Bearer``
header, or in the ``shelfwise_token`` cookie that ``POST /sites/login`` sets
(a small form at ``GET /sites/login``, whose CSRF token the POST must send back
with the matching ``shelfwise_csrf`` cookie; after signing in it goes to ``next``,
only ever a path under /sites/). Shelves listed in ``api.public_sites``
are readable by anyone. A browser without a credential is sent to the login
form; a request for a site its token cannot read gets the same 404 as one that
does not exist, so no reply names a shelf the caller may not read. ``/`` (and
``/sites/``) lists the sites the caller may read: HTML, or JSON when the
request's Accept prefers it. Files are answered by shelfwise/api/server/site_files.py (HEAD,
ETag and Last-Modified with 304s, the site's own 404 page, originals as
downloads); a path that climbs out of the site folder, or holds a NUL byte or another control character, is
refused with 400.
Published static copies of a site (the CI workflow) do not go through here.
"""

from __future__ import annotations

import hmac
import html
import re
import secrets
import unicodedata
from pathlib import Path, PurePosixPath
from urllib.parse import quote, unquote

from litestar import Request, Response, get, post, route
from litestar.enums import HttpMethod, RequestEncodingType
from litestar.params import Body, FromPath, FromQuery
from litestar.response import Redirect
from typing import Annotated

from shelfwise.api.errors import BadRequest, NotFound, Unauthorized
from shelfwise.api.server.security import client_address, resolve_principal
from shelfwise.api.server.site_files import file_response, not_found_page

__all__ = ["SITE_ROUTES", "INDEX_ROUTES", "COOKIE", "CSRF_COOKIE"]

COOKIE = "shelfwise_token"
CSRF_COOKIE = "shelfwise_csrf"
_CSRF = re.compile(r"[A-Za-z0-9_-]{32}")

_FORM = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to read the site</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 28rem; margin: 4rem auto">
<h1>Sign in</h1>
<p>{message}</p>
<form method="post" action="/sites/login">
<label for="token">API token</label><br>
<input id="token" name="token" type="password" autocomplete="current-password" required style="width: 100%">
<input type="hidden" name="next" value="{next}">
<input type="hidden" name="csrf" value="{csrf}">
<p><button type="submit">Read the site</button></p>
</form></body></html>
"""


def _asked(request: Request) -> str:
    """The path as the client sent it (the router drops a trailing slash from request.url.path)."""
    return (request.scope.get("raw_path") or request.url.path.encode()).decode("latin-1").split("?", 1)[0]


def _address(request: Request) -> str:
    return client_address(request.scope, request.app.state.settings.api.trusted_proxies)


def _safe_next(value: str | None) -> str:
    """Only a path under /sites/ is a place to go after signing in: never another host (``//evil``, an absolute URL),
    never a path that climbs out (``/sites/../evil``, also percent-encoded), never one with spaces or controls."""
    if not value or not value.startswith("/sites/"):
        return "/sites/"
    decoded = unquote(value)
    path = decoded.split("?", 1)[0].split("#", 1)[0]
    if "//" in decoded or "\\" in decoded or any(ch.isspace() or not ch.isprintable() for ch in decoded):
        return "/sites/"
    if any(segment in (".", "..") for segment in path.split("/")):
        return "/sites/"
    return value


def _form(request: Request, message: str, next_path: str, status: int) -> Response:
    """The sign-in form with its CSRF token, in the form and in a cookie the POST must match (double submit): the
    browser's own when it has one (so two open forms both work), else a fresh one."""
    kept = request.cookies.get(CSRF_COOKIE) or ""
    csrf = kept if _CSRF.fullmatch(kept) else secrets.token_urlsafe(24)
    secure = request.url.scheme == "https"
    body = _FORM.format(message=html.escape(message), next=html.escape(_safe_next(next_path), quote=True), csrf=csrf)
    response = Response(body, status_code=status, media_type="text/html", headers={"Cache-Control": "no-store"})
    response.set_cookie(CSRF_COOKIE, csrf, path="/sites/login", httponly=True, samesite="strict", secure=secure)
    return response


@get("/sites/login", sync_to_thread=False, summary="The sign-in form for the served sites", include_in_schema=False)
def login_form(request: Request, next: FromQuery[str | None] = None) -> Response:  # noqa: A002 - the query parameter is called next
    return _form(request, "The sites served here need a token that grants their shelf.", next or "/sites/", 200)


@post("/sites/login", sync_to_thread=False, summary="Sign in to the served sites with a token", include_in_schema=False)
def login(request: Request, data: Annotated[dict[str, str], Body(media_type=RequestEncodingType.URL_ENCODED)]) -> Response:
    token = (data.get("token") or "").strip()
    next_path = _safe_next(data.get("next"))
    sent, kept = data.get("csrf") or "", request.cookies.get(CSRF_COOKIE) or ""
    if not sent or not kept or not hmac.compare_digest(sent.encode("utf-8"), kept.encode("utf-8")):
        return _form(request, "The sign-in form was not this server's or has expired; sign in again here.", next_path, 403)
    try:
        resolve_principal(request.app.state, _address(request), f"Bearer {token}" if token else None, required=False)
    except Unauthorized:
        return _form(request, "That token is not known here; try again.", next_path, 401)
    if not token:
        return _form(request, "Enter a token.", next_path, 401)
    response = Redirect(next_path, status_code=303)
    response.set_cookie(COOKIE, token, path="/sites", httponly=True, samesite="lax", secure=request.url.scheme == "https")
    return response


def _principal(request: Request):
    state = request.app.state
    header = request.headers.get("authorization")
    cookie = request.cookies.get(COOKIE)
    credential = header or (f"Bearer {cookie}" if cookie else None)
    return resolve_principal(state, _address(request), credential, required=False) or state.grants.anonymous


def _readable(request: Request) -> list[str]:
    principal = _principal(request)
    public = set(request.app.state.settings.api.public_sites)
    return sorted(n for n in request.app.state.sites if n in public or (principal and n in principal.shelves))


@route(["/", "/sites"], http_method=[HttpMethod.GET, HttpMethod.HEAD], sync_to_thread=False, include_in_schema=False,
       summary="The served sites the caller can read")
def site_index(request: Request) -> Response:
    readable = _readable(request)
    headers = {"Cache-Control": "no-store", "Vary": "Accept, Authorization, Cookie"}
    if request.accept.best_match(["text/html", "application/json"], default="text/html") == "application/json":
        body = {"sites": [{"shelf": n, "url": f"/sites/{quote(n)}/"} for n in readable],
                "api": {"openapi": "/api/schema/openapi.json", "docs": "/api/schema", "health": "/api/health"}}
        return Response(body if request.method != "HEAD" else b"", media_type="application/json", headers=headers)
    items = "".join(f'<li><a href="/sites/{quote(n)}/">{html.escape(n)}</a></li>' for n in readable)
    items = items or '<li>none: <a href="/sites/login">sign in</a> with a token that grants a shelf</li>'
    body = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sites</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
            '<body style="font-family: sans-serif; max-width: 40rem; margin: 3rem auto">'
            f'<h1>Sites you can read here</h1><ul>{items}</ul>'
            '<p>The API: <a href="/api/schema">its documentation</a> and '
            '<a href="/api/schema/openapi.json">OpenAPI document</a>.</p></body></html>')
    return Response(body if request.method != "HEAD" else b"", media_type="text/html", headers=headers)


def _site_folder(request: Request, shelf: str) -> Path | None:
    sites = request.app.state.sites
    return Path(sites[shelf]).resolve() if shelf in sites else None


def _authorise(request: Request, shelf: str) -> Response | None:
    """None when the request may read ``shelf``'s site; a redirect to the sign-in form for a browser without a credential."""
    if shelf in request.app.state.settings.api.public_sites:
        return None
    principal = _principal(request)
    if principal is None:
        if "text/html" in request.headers.get("accept", ""):
            return Redirect(f"/sites/login?next={quote(_asked(request))}", status_code=303)
        raise Unauthorized("this site needs a token granting its shelf: send 'Authorization: Bearer TOKEN' or sign in at /sites/login")
    if shelf not in principal.shelves:
        raise NotFound(f"no site at /sites/{shelf}/ that this token can read")
    return None


def _serve(request: Request, shelf: str, path: str) -> Response:
    folder = _site_folder(request, shelf)
    refused = _authorise(request, shelf)
    if refused is not None:
        return refused
    if folder is None:
        raise NotFound(f"no site at /sites/{shelf}/ that this token can read")
    relative = path.lstrip("/")
    if any(unicodedata.category(ch) == "Cc" for ch in relative):
        raise BadRequest(f"the path {path!r} holds a control character (a NUL byte, a newline, ...); no file of a site has one")
    if ".." in PurePosixPath(relative).parts or "\\" in relative:
        raise BadRequest(f"the path {path!r} climbs out of the site; ask for a file under /sites/{shelf}/")
    target = (folder / relative).resolve()
    if not target.is_relative_to(folder):
        raise BadRequest(f"the path {path!r} leads out of the site; ask for a file under /sites/{shelf}/")
    if target.is_dir():
        asked = _asked(request)
        if not asked.endswith("/"):
            return Redirect(asked + "/", status_code=301)
        target = target / "index.html"
        relative = (relative.rstrip("/") + "/index.html").lstrip("/")
    if not target.is_file():
        page = not_found_page(request, folder, shelf)
        if page is None:
            raise NotFound(f"no file {path} in the site of shelf '{shelf}'")
        return page
    public = shelf in request.app.state.settings.api.public_sites
    return file_response(request, target, relative, cache_control="public, max-age=60" if public else "private, no-cache")


_FILE_METHODS = [HttpMethod.GET, HttpMethod.HEAD]


@route("/sites/{shelf:str}", http_method=_FILE_METHODS, sync_to_thread=True, include_in_schema=False,
       summary="A served site's front page (redirects to the slash form)")
def site_root(request: Request, shelf: FromPath[str]) -> Response:
    return _serve(request, shelf, "/")


@route("/sites/{shelf:str}/{path:path}", http_method=_FILE_METHODS, sync_to_thread=True, include_in_schema=False,
       summary="A file of a served site")
def site_file(request: Request, shelf: FromPath[str], path: FromPath[str]) -> Response:
    return _serve(request, shelf, path)


INDEX_ROUTES = [site_index]
"""Always served: ``/`` lists the readable sites (none when the server serves no site)."""
SITE_ROUTES = [login_form, login, site_root, site_file]
