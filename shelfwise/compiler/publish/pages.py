"""The pages stage: the store rendered to Markdown pages (jinja2 templates) in build/<shelf>/docs/.

Pages: home (index.md), the shelf (shelf.md), one page per document
(documents/<doc>.md, its figures in documents/<doc>/), a ledger page per
document (ledger/<doc>.md), a page per dossier (dossiers/<slug>.md), open
references and index coverage; plus assets/shelfwise/sections.json, the map
the ask widget links citations with: section id -> [page URL#anchor, label,
document id], and document id -> [short name, title]. Tables are anchored HTML
(shelfwise/compiler/publish/page_tables.py), the shelf page's link map an SVG (shelfwise/compiler/publish/linkmap.py).

Incremental: each page's inputs are hashed (the template sources, the
document's content and settings hashes, its ledger, hooks and links, the
labels of what they point to); a page whose hash is in build/<shelf>/pages.json
and whose file exists is not rendered again, and pages no longer produced are
deleted. Document text goes through shelfwise.compiler.publish.inert: printed, never interpreted.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import re
from collections.abc import Callable
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateError
from pydantic import BaseModel, Field

from shelfwise.compiler.publish.change_pages import change_pages, marked, pages_by_document
from shelfwise.compiler.errors import SiteError
from shelfwise.compiler.publish.inert import Md, alias_anchors, code_block, escape_inline, finalize, heading, link, table
from shelfwise.compiler.publish.linkmap import link_map_html
from shelfwise.compiler.publish.originals import download_name, original_href, stored_name
from shelfwise.compiler.digests.names import count, page_count, page_unit, plural, reader_label, relation_words
from shelfwise.compiler.publish.page_tables import table_html
from shelfwise.compiler.refs import page_path, page_url
from shelfwise.compiler.publish.page_data import (
    ShelfData,
    document_relations,
    links_by_document,
    load_shelf_data,
    section_panel,
)

__all__ = ["PAGE_EPOCH", "TEMPLATES_DIR", "PagesResult", "render_pages", "nav_title"]

PAGE_EPOCH = 3  # bump when the page layout code changes, so every page re-renders
TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"  # shelfwise/templates/: the page templates
TEMPLATE_NAMES = ("home", "shelf", "document", "ledger", "dossier", "open_references", "coverage", "changes")
SECTIONS_MAP = "assets/shelfwise/sections.json"
WIDE_TABLE = 7  # columns from which a table is wide


class PagesResult(BaseModel):
    """What the pages stage wrote."""

    nav: list = Field(description="The mkdocs nav, in reading order.")
    pages: int = Field(description="Markdown pages in the docs folder.")
    rendered: int = Field(description="Pages rendered this time (their inputs changed).")
    unchanged: int = Field(description="Pages kept as they were (same input hash).")
    removed: int = Field(description="Files deleted because no page produces them any more.")
    sections: int = Field(description="Section anchors across the document pages.")
    figures: int = Field(description="Figure images written or kept.")


def _environment(templates_dir: Path | None) -> tuple[Environment, str]:
    dirs = [Path(templates_dir)] if templates_dir and Path(templates_dir).is_dir() else []
    dirs.append(TEMPLATES_DIR)
    env = Environment(
        loader=FileSystemLoader([str(d) for d in dirs]),
        finalize=finalize,
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(table=table, heading=heading, code_block=code_block, text=escape_inline)
    env.filters["fromjson"] = json.loads
    env.filters.update(plural=lambda word, n=2: plural(word, n), quantity=lambda n, word: count(n, word),
                       relation=relation_words, page_count=page_count, marked=marked)
    env.globals.update(reader_label=reader_label)
    digest = hashlib.sha256(str(PAGE_EPOCH).encode())
    for name in sorted({p.name for d in dirs for p in d.glob("*.md.j2")}):
        digest.update(name.encode() + env.loader.get_source(env, name)[0].encode("utf-8"))
    return env, digest.hexdigest()


def _linker(root: str) -> dict[str, Callable]:
    """Template helpers that make links relative to a page ``root`` levels deep ('' or '../')."""

    def href(doc_id: str, section_id: str | None = None) -> Md:
        return Md(root + page_path(doc_id, section_id, source=True))

    def ref(target: dict) -> Md:
        return link(target["label"], href(target["doc_id"], target.get("section_id")))

    def page(label: str, path: str) -> Md:
        return link(label, root + path)

    def original(path: str) -> Md:
        """Raw HTML (mkdocs checks Markdown links only against its pages): the download of the document as given."""
        url = original_href(path, root)
        return Md(f'<a class="sw-original" href="{html.escape(url)}" download="{html.escape(download_name(stored_name(path)))}">'
                  "download the original</a>")

    return {"href": href, "ref": ref, "page": page, "link": link, "original": original}


def _pages_label(start: int | None, end: int | None, fmt: str = "") -> str:
    """"p. 3", "pp. 3–4"; a slide or a sheet by its name ("slide 3", "sheets 1–2")."""
    if start is None:
        return ""
    unit = page_unit(fmt)
    if unit in ("slide", "sheet"):
        return f"{unit} {start}" if end in (None, start) else f"{plural(unit)} {start}–{end}"
    return f"p. {start}" if end in (None, start) else f"pp. {start}–{end}"


_BULLET = re.compile(r"^\s*(?:[-*+•·▪◦‣●○■□–—]\s*)+(?=\S)")


def _block_md(block, figures: dict, doc_id: str, section_id: str = "", rows: list[int] | None = None, fmt: str = "",
              where: str = "") -> Md:
    """One block as Markdown; a table becomes anchored HTML, its rows counted on in ``rows`` (one counter a section)."""
    if block.kind == "heading" or block.kind == "paragraph":
        return escape_inline(block.text)
    if block.kind == "list_item":  # the list marker is ours: a bullet the document typed is not repeated
        return Md("- " + escape_inline(_BULLET.sub("", block.text)))
    if block.kind == "code":
        return code_block(block.text)
    if block.kind == "table":
        if block.rows and section_id:
            rows = rows if rows is not None else [1]
            markup, written = table_html(block.rows, block.header_rows, section_id, rows[0], block.name, where)
            rows[0] += written
            return markup
        name = f"**Table: {escape_inline(block.name)}**\n\n" if block.name else ""
        return Md(name + table(block.rows, block.header_rows)) if block.rows else Md(name + escape_inline(block.text))
    figure = figures.get(block.figure_id)
    caption = escape_inline(figure.caption if figure else block.text) or Md("(no caption)")
    parts = []
    if figure is not None and figure.image:
        parts.append(Md(f"![{caption}]({doc_id}/{figure.id}.png)"))
    else:
        parts.append(Md("*(the document holds no image for this figure)*"))
    page = f" · {_pages_label(figure.page, None, fmt)}" if figure is not None and figure.page else ""
    parts.append(Md(f"*Figure: {caption}*{escape_inline(page)}"))
    if figure is not None and figure.description:
        parts.append(Md(f"Description ({escape_inline(figure.described_by or 'vision model')}): {escape_inline(figure.description)}"))
    else:
        parts.append(Md("*Undescribed: no vision model described this figure.*"))
    return Md("\n\n".join(parts))


def _hash(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False).encode("utf-8")).hexdigest()


class _Writer:
    """Writes pages whose input hash changed; remembers every path produced."""

    def __init__(self, docs: Path, manifest: dict[str, str]):
        self.docs, self.old, self.new = docs, manifest, {}
        self.rendered = self.unchanged = 0

    def fresh(self, path: str, key: str) -> bool:
        self.new[path] = key
        if self.old.get(path) == key and (self.docs / path).exists():
            self.unchanged += 1
            return True
        return False

    def write(self, path: str, content: str | bytes) -> None:
        target = self.docs / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
        self.rendered += 1

    def page(self, env: Environment, template: str, path: str, key: str, context: Callable[[], dict]) -> None:
        if self.fresh(path, key):
            return
        try:
            self.write(path, env.get_template(f"{template}.md.j2").render(**context()))
        except TemplateError as exc:
            raise SiteError(f"template {template}.md.j2 failed on {path}: {exc}; fix the template (or the shelf's override in templates/)") from exc


def _document_context(store, data: ShelfData, row: dict, panels: dict, relations: list[dict], writer: _Writer) -> dict:
    doc_id = row["doc_id"]
    figures = {f.id: f for f in store.figures(doc_id)}
    for figure in figures.values():
        if figure.image:
            path = f"documents/{doc_id}/{figure.id}.png"
            if not writer.fresh(path, figure.image_hash or _hash(len(figure.image))):
                writer.write(path, figure.image)
    sections = []
    old_ids: dict[str, list[str]] = {}
    for alias in store.section_aliases(doc_id):
        old_ids.setdefault(alias.new_id, []).append(alias.old_id)
    store_sections = store.sections(doc_id)
    for section in store_sections:
        level = 1 if section.level == 0 else section.level + 1
        text = row["title"] if section.level == 0 else section.heading
        rows = [1]
        sections.append({
            "id": section.id,
            "level": section.level,
            "heading": heading(level, text, section.id),
            "anchors": alias_anchors(old_ids.get(section.id, [])),
            "pages": _pages_label(section.page_start, section.page_end, row["format"]),
            "blocks": [_block_md(block, figures, doc_id, section.id, rows, row["format"], text) for block in section.blocks],
            "panel": panels.get(section.id),
        })
    widest = max((len(row) for sec in store_sections for b in sec.blocks if b.kind == "table" and b.rows for row in b.rows), default=0)
    # a short document with a wide table (a register, a log) gives the table the table of contents' room
    return {"sections": sections, "hide_toc": widest >= WIDE_TABLE and len(sections) <= 5}


def _keep_figure_paths(store, doc_id: str, writer: _Writer) -> None:
    """An unchanged document page still owns its figure files."""
    for figure_id, image_hash in store.figure_images(doc_id):
        writer.fresh(f"documents/{doc_id}/{figure_id}.png", image_hash or "")


def render_pages(store, out_dir: Path, *, shelf: str | None = None, templates_dir: Path | None = None,
                 progress: Callable[[str], None] | None = None, extra_files: dict[str, bytes] | None = None,
                 originals: bool = False) -> PagesResult:
    """Render the store's pages into ``out_dir/docs`` (only what changed); ``extra_files`` are copied in as well.

    With ``originals`` each document page links the document as given (shelfwise/compiler/publish/originals.py copies it)."""
    out_dir = Path(out_dir)
    docs = out_dir / "docs"
    manifest_path = out_dir / "pages.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.exists() else {}
    data = load_shelf_data(store, shelf or out_dir.name)
    env, templates_key = _environment(templates_dir)
    writer = _Writer(docs, manifest)
    by_doc = links_by_document(data.links)
    base = {"shelf": data.model_dump(include={"shelf", "title", "description", "ledger_ran"}), "originals": originals}

    def ctx(root: str, **values) -> Callable[[], dict]:
        return lambda: {**base, **_linker(root), **values}

    counts = {"documents": len(data.documents), "dossiers": len(data.dossiers),
              "open": sum(1 for hooks in data.hooks.values() for h in hooks if h["status"] == "open")}
    pair_map = link_map_html(data.documents, data.links, data.short_names, data.titles)
    changes = change_pages(store)
    changes_of = pages_by_document(changes)
    home = {"documents": data.documents, "counts": counts, "failures": data.failures, "changes": changes}
    writer.page(env, "home", "index.md", _hash(templates_key, base, home), ctx("", **home))
    shelf_page = {"documents": data.documents, "briefs": data.briefs, "dossiers": data.dossiers, "link_map": pair_map, "changes": changes}
    writer.page(env, "shelf", "shelf.md", _hash(templates_key, base, shelf_page), ctx("", **shelf_page))
    section_count = 0
    failed = {failure["path"]: failure for failure in data.failures}  # a document with a failure: kept at its last good version
    for number, row in enumerate(data.documents, 1):
        doc_id = row["doc_id"]
        kept = failed.get(row["path"])
        panels = section_panel(data, doc_id, by_doc)
        relations = document_relations(data, doc_id, by_doc)
        figure_meta = store.figure_meta(doc_id)
        key = _hash(templates_key, base, row["content_hash"], row["settings_hash"], row["title"], panels, relations,
                    data.briefs.get(doc_id), figure_meta, changes_of.get(doc_id, []),
                    [(a.old_id, a.new_id) for a in store.section_aliases(doc_id)], kept)
        path = f"documents/{doc_id}.md"
        section_count += row["n_sections"]
        if writer.fresh(path, key):
            _keep_figure_paths(store, doc_id, writer)
        else:
            if progress:
                progress(f"page {number}/{len(data.documents)} {row['path']}")
            writer.page(env, "document", path, key, ctx("../", doc=row, kept=kept, brief=data.briefs.get(doc_id), relations=relations,
                                                         changes_links=changes_of.get(doc_id, []),
                                                         **_document_context(store, data, row, panels, relations, writer)))
        if data.ledger_ran:
            entries = [{**a, "where": {"doc_id": doc_id, "section_id": a["section_id"],
                                       "label": data.labels.get(a["section_id"], ("", ""))[1] or row["title"]}}
                       for a in data.assertions.get(doc_id, [])]
            writer.page(env, "ledger", f"ledger/{doc_id}.md", _hash(templates_key, base, row["title"], entries),
                        ctx("../", doc=row, assertions=entries))
    for change in changes:
        writer.page(env, "changes", change["path"], _hash(templates_key, base, change), ctx("../", **change))
    for dossier in data.dossiers:
        writer.page(env, "dossier", f"dossiers/{dossier['slug']}.md", _hash(templates_key, base, dossier),
                    ctx("../", dossier=dossier, titles=data.titles, labels=data.labels))
    if data.ledger_ran:
        open_hooks = [{**h, "doc_title": data.titles[d], "where": {"doc_id": d, "section_id": h["section_id"],
                       "label": data.labels.get(h["section_id"], ("", ""))[1] or data.titles[d]}}
                      for d in (r["doc_id"] for r in data.documents) for h in data.hooks.get(d, []) if h["status"] == "open"]
        writer.page(env, "open_references", "open-references.md", _hash(templates_key, base, open_hooks), ctx("", hooks=open_hooks))
    coverage = {"documents": data.documents, "failures": data.failures}
    writer.page(env, "coverage", "coverage.md", _hash(templates_key, base, coverage), ctx("", **coverage))
    sections_map = {"shelf": data.shelf, "documents": {d: [data.short_names[d], t] for d, t in sorted(data.titles.items())},
                    "sections": {
        sid: [page_url(doc_id, sid), data.titles.get(doc_id, doc_id) + ("" if not heading_text or heading_text == data.titles.get(doc_id) else f" › {heading_text}"), doc_id]
        for sid, (doc_id, heading_text) in sorted(data.labels.items()) if doc_id in data.titles},
                    "examples": json.loads(store.get_meta("shelf_examples") or "[]")}
    for alias in store.section_aliases():  # an answer or link citing a renamed section's old id still finds its page
        if alias.new_id in sections_map["sections"] and alias.old_id not in sections_map["sections"]:
            sections_map["sections"][alias.old_id] = sections_map["sections"][alias.new_id]
    files = {SECTIONS_MAP: json.dumps(sections_map, ensure_ascii=False, sort_keys=True).encode("utf-8"), **(extra_files or {})}
    for path, content in sorted(files.items()):
        if not writer.fresh(path, hashlib.sha256(content).hexdigest()):
            writer.write(path, content)
    removed = _remove_stale(docs, set(writer.new))
    manifest_path.write_text(json.dumps(writer.new, indent=1, sort_keys=True), encoding="utf-8")
    return PagesResult(
        nav=_nav(data, changes), pages=sum(1 for p in writer.new if p.endswith(".md")), rendered=writer.rendered,
        unchanged=writer.unchanged, removed=removed, sections=section_count,
        figures=sum(1 for p in writer.new if p.endswith(".png")),
    )


_TITLE_SAFE = str.maketrans({"<": "‹", ">": "›", "&": "＆", '"': "”", "'": "’"})


def nav_title(text: str) -> str:
    """A title for mkdocs.yml: the theme prints nav titles unescaped, so HTML's special characters are swapped for look-alikes."""
    return " ".join(str(text).split()).translate(_TITLE_SAFE) or "(untitled)"


NAV_GROUP = 40
"""Most entries one nav section lists; longer lists are split into groups named by their first and last entry
(groups of groups past that). With navigation.prune a page carries its own group and the group names above it,
so page size stays about flat as the shelf grows (a flat list put all N entries in every page: N² bytes)."""


def _short(title: str) -> str:
    words = title.split()
    return " ".join(words[:3]) + (" …" if len(words) > 3 else "")


def _grouped(entries: list[dict]) -> list[dict]:
    if len(entries) <= NAV_GROUP:
        return entries
    size = NAV_GROUP
    while math.ceil(len(entries) / size) > NAV_GROUP:
        size *= NAV_GROUP
    groups = []
    for start in range(0, len(entries), size):
        chunk = entries[start : start + size]
        first, last = _first_title(chunk[0]), _first_title(chunk[-1])
        groups.append({f"{_short(first)} – {_short(last)}": _grouped(chunk)})
    return groups


def _first_title(entry: dict) -> str:
    title, value = next(iter(entry.items()))
    return _first_title(value[0]) if isinstance(value, list) else title


def _nav(data: ShelfData, changes: list[dict] | None = None) -> list:
    nav: list = [{"Home": "index.md"}, {"Shelf": "shelf.md"},
                 {"Documents": _grouped([{nav_title(row["title"]): f"documents/{row['doc_id']}.md"} for row in data.documents])}]
    if data.ledger_ran:
        nav.append({"Ledgers": _grouped([{nav_title(row["title"]): f"ledger/{row['doc_id']}.md"} for row in data.documents])})
    if changes:
        nav.append({"What changed": _grouped([{nav_title(f"{c['older']['title']} → {c['newer']['title']}"): c["path"]} for c in changes])})
    if data.dossiers:
        nav.append({"Dossiers": _grouped([{nav_title(d["topic"]): f"dossiers/{d['slug']}.md"} for d in data.dossiers])})
    if data.ledger_ran:
        nav.append({"Open references": "open-references.md"})
    nav.append({"Index coverage": "coverage.md"})
    return nav


def _remove_stale(docs: Path, keep: set[str]) -> int:
    removed = 0
    if not docs.exists():
        return 0
    for path in sorted(docs.rglob("*"), reverse=True):
        rel = path.relative_to(docs).as_posix()
        if path.is_file() and rel not in keep:
            path.unlink()
            removed += 1
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return removed
