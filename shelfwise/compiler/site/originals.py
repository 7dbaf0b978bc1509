"""The originals stage: each document's source file, as given, copied into the site under ``_originals/<path>``.

Each document page links its original (shelfwise/compiler/site/pages.py). A file a browser
would run as a page (HTML, SVG, XML) is stored with ``.txt`` added, so a
static host serves it as text; the page's link carries the real name in its
``download`` attribute, and ``shelfwise serve`` sends every original as an
attachment (shelfwise/api/server/site_files.py). A copy is checked against the document's
content hash: a source changed since it was compiled is refused, not copied.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from shelfwise.compiler.errors import SiteError

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


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def copy_originals(documents: list[dict], shelf_dir: Path, site_dir: Path) -> tuple[int, int]:
    """Copy every document's source (``path`` relative to ``shelf_dir``) into ``site_dir/_originals``; (files, bytes)."""
    shelf_dir = Path(shelf_dir).resolve()
    target_root = Path(site_dir) / ORIGINALS_DIR
    files = size = 0
    for row in sorted(documents, key=lambda r: r["path"]):
        source = shelf_dir / row["path"]  # a link the shelf allowed (discover.py) is followed, as the compile did
        if ".." in PurePosixPath(row["path"]).parts or not source.is_file():
            raise SiteError(f"{shelf_dir / row['path']}: the original of document '{row['doc_id']}' is missing; rebuild the shelf")
        if _sha256(source) != row["content_hash"]:
            raise SiteError(f"{source}: changed since it was compiled; rebuild the shelf so the site and its originals agree")
        target = target_root / stored_name(row["path"])
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        files += 1
        size += target.stat().st_size
    return files, size
