"""Whether the site can be rebuilt incrementally, and the parts of an incremental build mkdocs does not do right by itself.

shelfwise/compiler/publish/site.py records beside the site (build/<shelf>/site-manifest.json) what it was built from: a hash of each
global input (the mkdocs.yml without its nav and docs_dir, the nav, the theme overrides, the widget files, the versions of mkdocs,
mkdocs-material and the Markdown libraries, ``SITE_VERSION`` and the hook's source), a content hash of every file in
docs/, and what shelfwise/compiler/publish/mkdocs_hook.py recorded of each page (URL, anchors, links into other pages' anchors).

``plan_site_build`` compares that with the next build. A full clean build runs when it is forced, when there is no
previous site or manifest, when any global input changed (a new, removed or retitled document changes the nav and so
every page's sidebar), when the set of pages changed, or when most pages changed anyway. Otherwise only the docs files
whose content changed are rebuilt: a page's HTML is a function of its Markdown, the config, the nav and which files
exist, and shelfwise/compiler/publish/pages.py already re-renders the Markdown of every page that shows something of a changed
document (its input hash covers the labels, links and panels it prints), so an unchanged Markdown file gives the
same HTML. mkdocs runs ``--dirty`` into a copy of the last site; then

- ``merge_search_index`` puts every page's search entries back: the dirty index holds only the rebuilt pages, so the
  entries of the others are taken from the last site's index, page by page, in the order a full build lists them;
- ``check_anchor_links`` checks every recorded link into an anchor against the anchors pages hold now (a dirty build
  checks only links between pages it rendered), so a link from an unchanged page into an anchor an edit removed fails
  the build with mkdocs' own message, as a full build would.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from importlib import metadata
from pathlib import Path

from pydantic import BaseModel, Field

__all__ = ["MANIFEST", "SEARCH_INDEX", "SitePlan", "site_inputs", "docs_hashes", "read_manifest", "plan_site_build", "prepare_copy", "merge_search_index",
           "check_anchor_links", "dest_path"]

MANIFEST = "site-manifest.json"
SEARCH_INDEX = "search/search_index.json"
VERSIONED = ("mkdocs", "mkdocs-material", "markdown", "pymdown-extensions", "pygments", "jinja2")
MOST = 0.5  # from this share of pages changed, a full build is done (it costs about the same and needs no copy)


class SitePlan(BaseModel):
    """What the next site build will do."""

    kind: str = Field(description="'full' or 'incremental'.")
    reason: str = Field(default="", description="Why a full build runs ('' for an incremental one).")
    changed: list[str] = Field(default_factory=list, description="Docs files (relative paths) new or changed since the last site.")
    removed: list[str] = Field(default_factory=list, description="Docs files of the last site that are gone (static files only).")
    pages: int = Field(default=0, description="Markdown pages in docs/.")


def _digest(parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")).hexdigest()


def _tree_hash(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return ""


def site_inputs(config: dict, overrides: Path, widget: dict[str, bytes], site_version: int, hook: Path) -> dict[str, str]:
    """A hash per global input of the site, named as the reason a full build gives when it changed."""
    return {
        # docs_dir is where this build generation's pages are (build/<shelf>/generations/<n>/docs), not what they show
        "mkdocs.yml changed": _digest({k: v for k, v in config.items() if k not in ("nav", "docs_dir")}),
        "nav changed (a document added, removed or retitled)": _digest(config.get("nav")),
        "theme overrides changed": _tree_hash(overrides),
        "widget files changed": _digest({name: hashlib.sha256(body).hexdigest() for name, body in sorted(widget.items())}),
        "mkdocs, mkdocs-material or Markdown library versions changed": _digest({n: _version(n) for n in VERSIONED}),
        "shelfwise's site version changed": str(site_version),
        "the mkdocs hook changed": hashlib.sha256(Path(hook).read_bytes()).hexdigest(),
    }


def docs_hashes(docs: Path) -> dict[str, str]:
    """Relative path -> sha256 of every file under ``docs``, sorted."""
    docs = Path(docs)
    return {p.relative_to(docs).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(docs.rglob("*")) if p.is_file()}


def read_manifest(out_dir: Path) -> dict | None:
    path = Path(out_dir) / MANIFEST
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def plan_site_build(previous: dict | None, site: Path, inputs: dict[str, str], docs: dict[str, str], *,
                    full: bool = False) -> SitePlan:
    """Full or incremental, and what changed; ``previous`` is the last site's manifest (None when there is none)."""
    pages = sum(1 for p in docs if p.endswith(".md"))

    def full_build(reason: str) -> SitePlan:
        return SitePlan(kind="full", reason=reason, pages=pages)

    if full:
        return full_build("forced (--full-site)")
    if previous is None or not Path(site).is_dir() or not (Path(site) / SEARCH_INDEX).is_file():
        return full_build("no previous site")
    old_inputs = previous.get("inputs", {})
    for reason, value in inputs.items():
        if old_inputs.get(reason) != value:
            return full_build(reason)
    old_docs = previous.get("docs", {})
    if {p for p in docs if p.endswith(".md")} != {p for p in old_docs if p.endswith(".md")}:
        return full_build("pages added or removed")
    changed = [p for p, h in docs.items() if old_docs.get(p) != h]
    changed_pages = sum(1 for p in changed if p.endswith(".md"))
    if pages and changed_pages >= max(2, MOST * pages):
        return full_build(f"{changed_pages} of {pages} pages changed")
    record = previous.get("record", {}).get("pages", {})
    if any(p.endswith(".md") and p not in record for p in docs):
        return full_build("the last site's page record is incomplete")
    return SitePlan(kind="incremental", changed=changed, removed=sorted(set(old_docs) - set(docs)), pages=pages)


def dest_path(src: str) -> str:
    """Where mkdocs writes a docs file (use_directory_urls: false): a page as .html, anything else as it is."""
    return src[: -len(".md")] + ".html" if src.endswith(".md") else src


def prepare_copy(site: Path, building: Path, plan: SitePlan, docs: dict[str, str]) -> None:
    """Copy the last site into ``building`` so that ``mkdocs build --dirty`` rebuilds exactly ``plan.changed``.

    mkdocs rebuilds a file whose output is missing or older than its source: the outputs of changed and removed files
    are deleted, and those of unchanged files are marked newer than their sources.
    """
    shutil.copytree(site, building, dirs_exist_ok=True)
    for src in [*plan.changed, *plan.removed]:
        (building / dest_path(src)).unlink(missing_ok=True)
    changed = set(plan.changed)
    for src in docs:
        if src not in changed:
            target = building / dest_path(src)
            if target.exists():
                os.utime(target)


def _grouped(entries: list[dict]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for entry in entries:
        groups.setdefault(entry["location"].split("#", 1)[0], []).append(entry)
    return groups


def merge_search_index(last_index: Path, partial_index: Path, order: list[str], urls: dict[str, str],
                       rebuilt: set[str]) -> int:
    """Rewrite ``partial_index`` (the dirty build's) with every page: rebuilt pages' entries from it, the others' from
    ``last_index``, pages in ``order`` (src paths; ``urls`` maps each to its URL). Returns the entries written."""
    last = json.loads(Path(last_index).read_text(encoding="utf-8"))
    partial = json.loads(Path(partial_index).read_text(encoding="utf-8"))
    old, new = _grouped(last["docs"]), _grouped(partial["docs"])
    docs: list[dict] = []
    for src in order:  # an entry's location is its page's URL, then '#' and the section's anchor
        docs.extend((new if src in rebuilt else old).get(urls[src], []))
    data = {"config": partial["config"], "docs": docs}
    # the same JSON as the search plugin writes (material/plugins/search/plugin.py generate_search_index)
    Path(partial_index).write_text(json.dumps(data, separators=(",", ":"), default=str), encoding="utf-8")
    return len(docs)


def check_anchor_links(pages: dict[str, dict]) -> list[str]:
    """mkdocs' anchor warnings (mkdocs/structure/pages.py ``validate_anchor_links``) over every recorded page."""
    anchors = {src: set(page["anchors"]) for src, page in pages.items()}
    problems = []
    for src in sorted(pages):
        for target, links in pages[src]["links"].items():
            if target not in anchors:
                continue
            for anchor, original in links.items():
                if anchor in anchors[target]:
                    continue
                problem = ("there is no such anchor on this page" if target == src
                           else f"the doc '{target}' does not contain an anchor '#{anchor}'")
                problems.append(f"Doc file '{src}' contains a link '{original}', but {problem}.")
    return problems
