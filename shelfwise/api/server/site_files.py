"""How a served site's files are answered: validators, HEAD, conditional GET, the site's own 404 page, originals.

Every file carries ``ETag`` (its size and modification time) and ``Last-Modified``;
a GET with a matching ``If-None-Match`` (or, without one, an ``If-Modified-Since``
no older than the file) is answered 304 with no body. HEAD answers the same
headers as GET and no body. A path the site does not hold is answered 404 with
the site's own mkdocs ``404.html``, its root-relative links (``/assets/…``)
rewritten to ``/sites/<shelf>/…`` so it is styled and its navigation works.
Files under ``_originals/`` (the documents as given, shelfwise/compiler/publish/originals.py)
are sent as downloads that a browser never runs as a page.
"""

from __future__ import annotations

import mimetypes
import re
import time
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path
from urllib.parse import quote

from litestar import Request, Response
from litestar.response import File

from shelfwise.compiler.publish.originals import ORIGINALS_DIR, download_name

__all__ = ["file_response", "not_found_page", "etag_of"]

_ROOT_RELATIVE = re.compile(r'(\s(?:href|src|action)=")/(?!/)')
_THEME_PATHS = re.compile(r'("(?:base|search)":\s*")/(?!/)')  # the theme's __config: its base and search worker


def etag_of(target: Path) -> str:
    """A strong validator from the file's size and modification time (a rebuilt file gets a new one)."""
    stat = target.stat()
    return f'"{stat.st_size:x}-{stat.st_mtime_ns:x}"'


def _not_modified(request: Request, etag: str, mtime: float) -> bool:
    """RFC 9110 §13.1: If-None-Match decides when present; else If-Modified-Since, to the second."""
    matches = request.headers.get("if-none-match")
    if matches is not None:
        given = {tag.strip().removeprefix("W/") for tag in matches.split(",")}
        return "*" in given or etag in given
    since = request.headers.get("if-modified-since")
    if since:
        try:
            stamp = parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return False  # an unreadable date is ignored, as the RFC says
        return int(mtime) <= stamp <= time.time()  # so is one in the future
    return False


def file_response(request: Request, target: Path, relative: str, *, cache_control: str) -> Response:
    """The answer for one existing file of a site: 304, HEAD's headers, or the file (an original as a download)."""
    stat = target.stat()
    etag = etag_of(target)
    headers = {"etag": etag, "last-modified": formatdate(stat.st_mtime, usegmt=True), "cache-control": cache_control,
               "x-content-type-options": "nosniff"}
    original = relative.startswith(f"{ORIGINALS_DIR}/")
    media_type = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    if original:
        name = download_name(target.name)
        media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        headers["content-security-policy"] = "sandbox"
        headers["content-disposition"] = f"attachment; filename*=UTF-8''{quote(name)}"
    if _not_modified(request, etag, stat.st_mtime):
        return Response(content=None, status_code=304, headers=headers)
    if request.method == "HEAD":
        return Response(content=b"", media_type=media_type, headers={**headers, "content-length": str(stat.st_size)})
    if original:
        return File(path=target, media_type=media_type, headers=headers, content_disposition_type="attachment",
                    filename=download_name(target.name))
    return File(path=target, media_type=media_type, content_disposition_type="inline", headers=headers)


def not_found_page(request: Request, folder: Path, shelf: str) -> Response | None:
    """The site's own 404.html with status 404, its links pointing into /sites/<shelf>/; None when the site has none."""
    page = folder / "404.html"
    if not page.is_file():
        return None
    prefix = f"/sites/{quote(shelf)}/"
    text = _ROOT_RELATIVE.sub(lambda m: m.group(1) + prefix, page.read_text(encoding="utf-8"))
    text = _THEME_PATHS.sub(lambda m: m.group(1) + prefix, text)
    headers = {"cache-control": "no-store", "x-content-type-options": "nosniff"}
    if request.method == "HEAD":
        return Response(content=b"", status_code=404, media_type="text/html",
                        headers={**headers, "content-length": str(len(text.encode("utf-8")))})
    return Response(text, status_code=404, media_type="text/html", headers=headers)
