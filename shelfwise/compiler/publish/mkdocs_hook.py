"""The mkdocs hook of the site build (listed under ``hooks:`` in build/<shelf>/mkdocs.yml): it records each page mkdocs renders.

mkdocs loads this file by path, in its own process, so it imports nothing from shelfwise. Environment variables set by
shelfwise/compiler/publish/site.py drive it; without them (mkdocs run by hand on the same mkdocs.yml) it does nothing.

- ``SHELFWISE_PAGE_RECORD``: a JSON file written after the build. ``order`` lists every Markdown page in the order mkdocs
  builds them (the order the search index lists them in), ``pages`` each page rendered this time with its URL, the
  anchor ids it holds and its links into other pages' anchors ({target: {anchor: link as written}}). These are
  exactly what mkdocs' own anchor check uses (``Page.present_anchor_ids``, ``Page.links_to_anchors``), so
  shelfwise/compiler/publish/site_incremental.py can check the links of a partial build across pages this run did not render.
- ``SHELFWISE_DIRTY_BUILD=1``: the build is an incremental one that shelfwise/compiler/publish/site.py decided on (``mkdocs build --dirty``
  into a copy of the last site, the nav unchanged). mkdocs warns that a dirty build may leave the navigation stale, and
  ``--strict`` counts that warning as a failure; this hook drops that one warning, and only it, so every other
  warning still fails the build. The theme's 404.html is not rendered again either: it shows only the nav and the
  config, both unchanged by that decision, so the last site's copy is already what it would be (sitemap.xml, which
  carries the build date, is rendered).
- ``SHELFWISE_TEMPLATE_CACHE``: a folder where jinja2 keeps the theme's compiled templates between builds
  (``FileSystemBytecodeCache``, keyed by each template's source), so a build does not compile Material's templates
  again (~0.4 s a build here); the HTML is the same.
"""

from __future__ import annotations

import json
import logging
import os

from jinja2 import FileSystemBytecodeCache

RECORD_ENV = "SHELFWISE_PAGE_RECORD"
DIRTY_ENV = "SHELFWISE_DIRTY_BUILD"
CACHE_ENV = "SHELFWISE_TEMPLATE_CACHE"
DIRTY_WARNING = "A 'dirty' build is being performed"

_order: list[str] = []
_pages: dict[str, dict] = {}


class _DropDirtyWarning(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(DIRTY_WARNING)


_FILTER = _DropDirtyWarning()


def on_config(config, **kwargs):
    _order.clear()
    _pages.clear()
    build_log = logging.getLogger("mkdocs.commands.build")
    if os.environ.get(DIRTY_ENV) == "1":
        build_log.addFilter(_FILTER)
        config.theme.static_templates.discard("404.html")
    else:
        build_log.removeFilter(_FILTER)
    return config


def on_nav(nav, config, files, **kwargs):
    _order[:] = [file.src_uri for file in files.documentation_pages()]
    return nav


def on_env(env, config, files, **kwargs):
    cache = os.environ.get(CACHE_ENV)
    if cache:
        os.makedirs(cache, exist_ok=True)
        env.bytecode_cache = FileSystemBytecodeCache(cache)
    return env


def on_page_content(html, page, config, files, **kwargs):
    links = {}
    for target, anchors in (page.links_to_anchors or {}).items():
        links[target.src_uri] = dict(sorted(anchors.items()))
    _pages[page.file.src_uri] = {"url": page.url, "anchors": sorted(page.present_anchor_ids or ()),
                                 "links": dict(sorted(links.items()))}
    return html


def on_post_build(config, **kwargs):
    path = os.environ.get(RECORD_ENV)
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump({"order": _order, "pages": _pages}, out, sort_keys=True, ensure_ascii=False)
