"""The site stage: pages rendered (shelfwise/compiler/publish/pages.py), then a mkdocs-material build swapped into place.

mkdocs always builds into a temporary folder beside the site and runs with --strict, so a broken internal link or a
missing anchor or image fails the build. Only a build that succeeded replaces build/<shelf>/site; a failed one raises
SiteError and leaves the last good site where it was. Given the shelf's folder, the documents as given are copied
into the new site's _originals/ before it is swapped in (shelfwise/compiler/publish/originals.py).

The build is full (``mkdocs build --clean`` from nothing) or incremental, as shelfwise/compiler/publish/site_incremental.py decides from
build/<shelf>/site-manifest.json, what the last site was built from. Full when forced (``site.incremental = false``,
``--full-site``), when there is no last site, when a global input changed (mkdocs.yml, the nav, the theme overrides,
the widget files, the mkdocs/material/Markdown versions, ``SITE_VERSION``, the hook), when pages were added or removed,
or when most pages changed. Incremental otherwise: the last site is copied into the temporary folder and
``mkdocs build --dirty`` rebuilds only the docs files whose content changed; its search index (which then holds only
the rebuilt pages) is merged with the last site's page by page, and every link into an anchor, from rebuilt and
unchanged pages alike, is checked as mkdocs would. shelfwise/compiler/publish/mkdocs_hook.py, listed in mkdocs.yml, records each
rendered page's URL, anchors and links for that. The result is the site a full build gives, file for file (the
sitemap's build date aside).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from shelfwise.compiler.errors import SiteError
from shelfwise.compiler.publish.llms_txt import LLMS_TXT, llms_txt, site_base
from shelfwise.compiler.publish.mkdocs_hook import CACHE_ENV, DIRTY_ENV, RECORD_ENV
from shelfwise.compiler.publish.originals import ORIGINALS_DIR, copy_originals
from shelfwise.compiler.store.generations import KEPT
from shelfwise.compiler.publish.pages import nav_title, render_pages
from shelfwise.compiler.publish.site_incremental import (
    MANIFEST,
    SEARCH_INDEX,
    SitePlan,
    check_anchor_links,
    docs_hashes,
    merge_search_index,
    plan_site_build,
    prepare_copy,
    read_manifest,
    site_inputs,
)

log = logging.getLogger("shelfwise.site")

__all__ = ["SITE_DIR", "WIDGET_FILES", "mkdocs_config", "run_mkdocs", "build_site", "site_stage", "directory_size"]

SITE_DIR = Path(__file__).resolve().parents[2] / "site"  # shelfwise/site/: mkdocs_base.yml, overrides/, widget/
WIDGET_FILES = ("shelfwise-ask.js", "shelfwise-ask.css", "shelfwise-site.css")
HOOK = Path(__file__).resolve().parent / "mkdocs_hook.py"
TEMPLATE_CACHE = ".template-cache"
SITE_VERSION = 1  # bump when what this module or the hook puts into the site changes, so the next site build is full


def mkdocs_config(shelf: str, title: str, docs_dir: Path, nav: list, *, endpoint: str | None = None,
                  token: str | None = None) -> dict:
    """The mkdocs.yml for one shelf: shelfwise/site/mkdocs_base.yml plus the shelf's name, folders, nav and widget settings."""
    config = yaml.safe_load((SITE_DIR / "mkdocs_base.yml").read_text(encoding="utf-8"))
    config["site_name"] = nav_title(title)
    config["docs_dir"] = str(Path(docs_dir).resolve())
    config["nav"] = nav
    config["theme"]["custom_dir"] = str((SITE_DIR / "overrides").resolve())
    config.setdefault("extra", {})["shelfwise"] = {"shelf": shelf, "endpoint": endpoint or "", "token": token or ""}
    config["hooks"] = [str(HOOK)]
    return config


def run_mkdocs(config_file: Path, site_dir: Path, *, dirty: bool = False, env: dict[str, str] | None = None) -> tuple[float, str]:
    """``mkdocs build --strict --clean`` (``--dirty`` with ``dirty``) into ``site_dir``; returns (seconds, output) or raises
    SiteError with the warnings. ``env`` is added to the environment (shelfwise/compiler/publish/mkdocs_hook.py reads it)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--dirty" if dirty else "--clean", "-f", str(config_file),
         "-d", str(site_dir)],
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


def _hook_env(record: Path, dirty: bool) -> dict[str, str]:
    """What shelfwise/compiler/publish/mkdocs_hook.py reads: where to write the page record, whether the build is incremental, and the
    theme's compiled templates kept beside the site (build/<shelf>/.template-cache)."""
    return {RECORD_ENV: str(record), DIRTY_ENV: "1" if dirty else "0", CACHE_ENV: str(record.parent / TEMPLATE_CACHE)}


def _site_build(config_file: Path, out_dir: Path, building: Path, plan: SitePlan, docs: dict[str, str],
                previous: dict | None) -> tuple[float, dict]:
    """mkdocs into ``building``: clean for a full plan, dirty into a copy of the last site for an incremental one.
    Returns (mkdocs seconds, the page record of the whole site)."""
    record_file = building.parent / f"{building.name}.record.json"
    try:
        if plan.kind == "full":
            seconds, _ = run_mkdocs(config_file, building, env=_hook_env(record_file, False))
            return seconds, json.loads(record_file.read_text(encoding="utf-8"))
        site = out_dir / "site"
        prepare_copy(site, building, plan, docs)
        seconds, _ = run_mkdocs(config_file, building, dirty=True, env=_hook_env(record_file, True))
        fresh = json.loads(record_file.read_text(encoding="utf-8"))
    finally:
        record_file.unlink(missing_ok=True)
    missed = sorted(p for p in plan.changed if p.endswith(".md") and p not in fresh["pages"])
    if missed:
        raise SiteError(f"the incremental site build did not rebuild {', '.join(missed)}; the last good site is kept. "
                        "Rebuild with --full-site and report this")
    pages = {**previous["record"]["pages"], **fresh["pages"]}
    problems = check_anchor_links(pages)
    if problems:
        raise SiteError(f"mkdocs build of {config_file} failed (strict: {len(problems)} broken anchor links); the last good "
                        "site is kept. Fix these, then rebuild:\n  " + "\n  ".join(f"WARNING -  {p}" for p in problems[:20]))
    merge_search_index(site / SEARCH_INDEX, building / SEARCH_INDEX, fresh["order"],
                       {src: page["url"] for src, page in pages.items()}, set(fresh["pages"]))
    return seconds, {"order": fresh["order"], "pages": pages}


def build_site(store, out_dir: Path, progress: Callable[[str], None] | None = None, templates_dir: Path | None = None,
               *, endpoint: str | None = None, token: str | None = None, shelf: str | None = None,
               shelf_dir: Path | None = None, url: str | None = None, full: bool = False) -> dict:
    """Render pages into ``out_dir/docs`` and build ``out_dir/site``; returns the stage summary.

    ``templates_dir`` holds a shelf's own page templates (any of templates/*.md.j2 it overrides).
    ``endpoint`` and ``token`` configure the ask widget on every page. With ``shelf_dir`` (the shelf's
    folder) every document's original is copied to ``_originals/`` and linked from its page. ``url`` (``site.url``,
    ``{shelf}`` for the shelf's name) is where the site is published: llms.txt links there, else relative to the site.
    ``full`` forces a full clean mkdocs build even where an incremental one would do (shelfwise/compiler/publish/site_incremental.py).
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
    inputs = site_inputs(config, SITE_DIR / "overrides", widget, SITE_VERSION, HOOK)
    docs = docs_hashes(out_dir / "docs")
    previous = read_manifest(out_dir)
    plan = plan_site_build(previous, out_dir / "site", inputs, docs, full=full)
    if progress:
        what = (f"incremental, {sum(1 for p in plan.changed if p.endswith('.md'))} of {plan.pages} pages to rebuild"
                if plan.kind == "incremental" else f"full build ({plan.reason})")
        progress(f"site: {pages.rendered} files rendered, {pages.unchanged} unchanged; mkdocs {what}")
    building = Path(tempfile.mkdtemp(prefix=".site-new-", dir=out_dir))
    try:
        mkdocs_seconds, record = _site_build(config_file, out_dir, building, plan, docs, previous)
        (building / LLMS_TXT).write_text(llms_txt(store, shelf, site_base(url, shelf)), encoding="utf-8")
        shutil.rmtree(building / ORIGINALS_DIR, ignore_errors=True)  # an incremental build's copy holds the last ones
        missing: list[str] = []
        if shelf_dir is not None:
            copy_originals(store.documents(), Path(shelf_dir), building, kept_dir=out_dir / KEPT,
                           previous_dir=out_dir / "site" / ORIGINALS_DIR, missing=missing)
            for reason in missing:
                log.warning("%s", reason)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    # the manifest goes first: a crash between the swap and the new manifest leaves none, and the next build is full
    (out_dir / MANIFEST).unlink(missing_ok=True)
    _swap_in(building, out_dir / "site")
    (out_dir / MANIFEST).write_text(json.dumps({"inputs": inputs, "docs": docs, "record": record}, sort_keys=True,
                                               ensure_ascii=False), encoding="utf-8")
    files, size = directory_size(out_dir / "site")
    rebuilt = len(record["order"]) if plan.kind == "full" else sum(1 for p in plan.changed if p.endswith(".md"))
    seconds = round(time.perf_counter() - started, 2)
    if progress:
        kind = (f"incremental, {rebuilt} of {plan.pages} pages rebuilt" if plan.kind == "incremental"
                else f"full build ({plan.reason}), {rebuilt} pages")
        progress(f"site: {kind}, {seconds} s")
    return {
        "pages": pages.pages,
        "rendered": pages.rendered,
        "unchanged": pages.unchanged,
        "removed": pages.removed,
        "sections": pages.sections,
        "figures": pages.figures,
        "build": plan.kind,
        **({"full_reason": plan.reason} if plan.kind == "full" else {}),
        "pages_built": rebuilt,
        "site_files": files,
        "site_mb": round(size / 1e6, 2),
        "pages_seconds": round(pages_seconds, 2),
        "mkdocs_seconds": round(mkdocs_seconds, 2),
        "seconds": seconds,
        "site": str(out_dir / "site"),
        **({"originals_missing": missing} if missing else {}),
    }


def site_stage(settings, shelf_dir: Path | None = None) -> Callable:
    """``build_shelf`` stage that builds the site: ``stage(store, out_dir, changed, removed, progress) -> ('site', summary)``.

    A shelf folder's own ``templates/`` overrides the page templates. The widget's endpoint and token come
    from ``settings.site`` (the token from the environment variable it names); ``site.incremental = false``
    (``--full-site``) forces the full build.
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
                                  shelf=store.get_meta("shelf_name"), shelf_dir=shelf_dir, url=settings.site.url,
                                  full=not settings.site.incremental)

    return stage
