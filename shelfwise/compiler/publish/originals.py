"""The originals stage: each document's source file, as given, copied into the site under ``_originals/<path>``.

Each document page links its original (shelfwise/compiler/publish/pages.py). A file a browser
would run as a page (HTML, SVG, XML) is stored with ``.txt`` added, so a
static host serves it as text; the page's link carries the real name in its
``download`` attribute, and ``shelfwise serve`` sends every original as an
attachment (shelfwise/api/server/site_files.py). A copy is checked against the document's
content hash: a source changed since it was compiled is refused, not copied.

The build that compiles a document keeps its original, by content hash, in the generation's ``originals/``
(shelfwise/compiler/store/generations.py ``keep_original``; the next generation links them in, ``prune_kept``
drops those no document uses). The site
copies that kept file first, so a document kept at its last good version (its file replaced by one that fails to
convert) is published with the original it was compiled from, and a file name that is not UTF-8 (stored under its
escaped form) still finds its bytes.
"""

from __future__ import annotations

import shutil
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from shelfwise.compiler.errors import SiteError
from shelfwise.compiler.store.generations import file_sha256

__all__ = ["ORIGINALS_DIR", "copy_originals", "original_href", "stored_name", "download_name"]

ORIGINALS_DIR = "_originals"
_ACTIVE = frozenset({".html", ".htm", ".xhtml", ".xht", ".shtml", ".svg", ".svgz", ".xml", ".xsl", ".xslt", ".mht", ".mhtml"})


def stored_name(path: str) -> str:
    """The path under _originals/ that holds the document at ``path`` (``.txt`` added to active formats)."""
    return path + ".txt" if PurePosixPath(path).suffix.lower() in _ACTIVE else path


def download_name(stored: str) -> str:
    """The file name a download of ``stored`` gets: the document's own name."""
    name = PurePosixPath(stored).name
    if name.endswith(".txt") and PurePosixPath(name[:-4]).suffix.lower() in _ACTIVE:
        return name[:-4]
    return name


def original_href(path: str, root: str = "../") -> str:
    """The link from a page at depth ``root`` to the original of the document at ``path``."""
    return root + ORIGINALS_DIR + "/" + quote(stored_name(path))


def _source_of(row: dict, shelf_dir: Path, kept_dir: Path | None, previous_dir: Path | None) -> Path | None:
    """Where the bytes ``row`` was compiled from are: the kept original, else the shelf's file or the last site's copy
    when they still hash to the document's content hash; None when none does."""
    if kept_dir is not None and (Path(kept_dir) / row["content_hash"]).is_file():
        return Path(kept_dir) / row["content_hash"]
    candidates = [] if ".." in PurePosixPath(row["path"]).parts else [shelf_dir / row["path"]]
    if previous_dir is not None:
        candidates.append(Path(previous_dir) / stored_name(row["path"]))
    for source in candidates:  # a link the shelf allowed (discover.py) is followed, as the compile did
        if source.is_file() and file_sha256(source) == row["content_hash"]:
            return source
    return None


def copy_originals(documents: list[dict], shelf_dir: Path, site_dir: Path, *, kept_dir: Path | None = None,
                   previous_dir: Path | None = None, missing: list[str] | None = None) -> tuple[int, int]:
    """Copy every document's original into ``site_dir/_originals``; (files, bytes). The bytes come from ``kept_dir``
    (the build's kept originals), else the shelf (``path`` relative to ``shelf_dir``) or ``previous_dir`` (the last
    site's ``_originals``) while they still match the document's content hash. A document whose original is found
    nowhere raises SiteError, or with ``missing`` given is appended to it (by path, with the reason) and skipped."""
    shelf_dir = Path(shelf_dir).resolve()
    target_root = Path(site_dir) / ORIGINALS_DIR
    files = size = 0
    for row in sorted(documents, key=lambda r: r["path"]):
        source = _source_of(row, shelf_dir, kept_dir, previous_dir)
        if source is None:
            on_shelf = shelf_dir / row["path"]
            reason = (f"{on_shelf}: changed since it was compiled; rebuild the shelf so the site and its originals agree"
                      if on_shelf.is_file() else
                      f"{on_shelf}: the original of document '{row['doc_id']}' is missing; rebuild the shelf")
            if missing is None:
                raise SiteError(reason)
            missing.append(reason)
            continue
        target = target_root / stored_name(row["path"])
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        files += 1
        size += target.stat().st_size
    return files, size
