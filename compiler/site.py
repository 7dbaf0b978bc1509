"""The site stage: pages rendered (compiler/pages.py), then a clean mkdocs-material build swapped into place.

mkdocs always builds from nothing into a temporary folder beside the site
(never --dirty: a dirty build's search index holds only the rebuilt pages)
and runs with --strict, so a broken internal link or a missing anchor or
image fails the build. Only a build that succeeded replaces
build/<shelf>/site; a failed one raises SiteError and leaves the last good
site where it was. Given the shelf's folder, the documents as given are copied
into the new site's _originals/ before it is swapped in (compiler/originals.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from compiler.errors import SiteError
from compiler.llms_txt import LLMS_TXT, llms_txt, site_base
from compiler.originals import copy_originals
from compiler.pages import nav_title, render_pages

__all__ = ["SITE_DIR", "WIDGET_FILES", "mkdocs_config", "run_mkdocs", "build_site", "site_stage", "directory_size"]

SITE_DIR = Path(__file__).resolve().parent.parent / "site"
WIDGET_FILES = ("shelfwise-ask.js", "shelfwise-ask.css", "shelfwise-site.css")


def mkdocs_config(shelf: str, title: str, docs_dir: Path, nav: list, *, endpoint: str | None = None,
                  token: str | None = None) -> dict:
    """The mkdocs.yml for one shelf: site/mkdocs_base.yml plus the shelf's name, folders, nav and widget settings."""
    config = yaml.safe_load((SITE_DIR / "mkdocs_base.yml").read_text(encoding="utf-8"))
    config["site_name"] = nav_title(title)
    config["docs_dir"] = str(Path(docs_dir).resolve())
    config["nav"] = nav
    config["theme"]["custom_dir"] = str((SITE_DIR / "overrides").resolve())
    config.setdefault("extra", {})["shelfwise"] = {"shelf": shelf, "endpoint": endpoint or "", "token": token or ""}
    return config


def run_mkdocs(config_file: Path, site_dir: Path) -> tuple[float, str]:
    """``mkdocs build --strict --clean`` into ``site_dir``; returns (seconds, output) or raises SiteError with the warnings."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-f", str(config_file), "-d", str(site_dir)],
        capture_output=True, text=True, env=env, check=False,
    )
    seconds = time.perf_counter() - started
    output = done.stdout + done.stderr
    if done.returncode != 0:
        problems = [line.strip() for line in output.splitlines() if line.startswith(("WARNING", "ERROR")) or "Error" in line]
        detail = "\n  ".join(problems[-20:]) or output.strip()[-2000:]
        raise SiteError(
            f"mkdocs build of {config_file} failed (exit {done.returncode}); the last good site is kept. "
            f"Fix these, then rebuild:\n  {detail}"
        )
    return seconds, output


def directory_size(path: Path) -> tuple[int, int]:
    """(files, bytes) under ``path``."""
    files = [p for p in Path(path).rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def _swap_in(built: Path, site: Path) -> None:
    """Replace ``site`` with ``built`` by two renames (the old one is deleted after)."""
    old = None
    if site.exists():
        old = Path(tempfile.mkdtemp(prefix=".site-old-", dir=site.parent))
        old.rmdir()
        site.rename(old)
    built.rename(site)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def build_site(store, out_dir: Path, progress: Callable[[str], None] | None = None, templates_dir: Path | None = None,
               *, endpoint: str | None = None, token: str | None = None, shelf: str | None = None,
               shelf_dir: Path | None = None, url: str | None = None) -> dict:
    """Render pages into ``out_dir/docs`` and build ``out_dir/site``; returns the stage summary.

    ``templates_dir`` holds a shelf's own page templates (any of templates/*.md.j2 it overrides).
    ``endpoint`` and ``token`` configure the ask widget on every page. With ``shelf_dir`` (the shelf's
    folder) every document's original is copied to ``_originals/`` and linked from its page. ``url`` (``site.url``,
    ``{shelf}`` for the shelf's name) is where the site is published: llms.txt links there, else relative to the site.
    """
    out_dir = Path(out_dir).resolve()  # mkdocs resolves relative paths against the config file's folder
    shelf = shelf or out_dir.name
    started = time.perf_counter()
    widget = {f"assets/shelfwise/{name}": (SITE_DIR / "widget" / name).read_bytes() for name in WIDGET_FILES}
    pages = render_pages(store, out_dir, shelf=shelf, templates_dir=templates_dir, progress=progress, extra_files=widget,
                         originals=shelf_dir is not None)
    pages_seconds = time.perf_counter() - started
    config = mkdocs_config(shelf, store.get_meta("shelf_title") or shelf, out_dir / "docs", pages.nav,
                           endpoint=endpoint, token=token)
    config_file = out_dir / "mkdocs.yml"
    config_file.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    if progress:
        progress(f"site: {pages.rendered} files rendered, {pages.unchanged} unchanged; mkdocs build")
    building = Path(tempfile.mkdtemp(prefix=".site-new-", dir=out_dir))
    try:
        mkdocs_seconds, _ = run_mkdocs(config_file, building)
        (building / LLMS_TXT).write_text(llms_txt(store, shelf, site_base(url, shelf)), encoding="utf-8")
        if shelf_dir is not None:
            copy_originals(store.documents(), Path(shelf_dir), building)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    _swap_in(building, out_dir / "site")
    files, size = directory_size(out_dir / "site")
    return {
        "pages": pages.pages,
        "rendered": pages.rendered,
        "unchanged": pages.unchanged,
        "removed": pages.removed,
        "sections": pages.sections,
        "figures": pages.figures,
        "site_files": files,
        "site_mb": round(size / 1e6, 2),
        "pages_seconds": round(pages_seconds, 2),
        "mkdocs_seconds": round(mkdocs_seconds, 2),
        "seconds": round(time.perf_counter() - started, 2),
        "site": str(out_dir / "site"),
    }


def site_stage(settings, shelf_dir: Path | None = None) -> Callable:
    """``build_shelf`` stage that builds the site: ``stage(store, out_dir, changed, removed, progress) -> ('site', summary)``.

    A shelf folder's own ``templates/`` overrides the page templates. The widget's endpoint and token come
    from ``settings.site`` (the token from the environment variable it names).
    """
    templates_dir = Path(shelf_dir) / "templates" if shelf_dir and (Path(shelf_dir) / "templates").is_dir() else None
    token = None
    if settings.site.ask_token_env:
        token = os.environ.get(settings.site.ask_token_env)
        if not token:
            raise SiteError(
                f"site.ask_token_env names {settings.site.ask_token_env!r} but that environment variable is empty; "
                "set it or remove site.ask_token_env"
            )

    def stage(store, out_dir, changed_ids, removed_ids, progress):
        return "site", build_site(store, out_dir, progress, templates_dir, endpoint=settings.site.ask_endpoint, token=token,
                                  shelf=store.get_meta("shelf_name"), shelf_dir=shelf_dir, url=settings.site.url)

    return stage
