"""The incremental site build: real mkdocs-material builds of a small shelf, an edit rebuilt incrementally compared
file by file with a full build of the same store, the cases that must build in full, and failures that keep the site."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

import pytest

from shelfwise.compiler.errors import SiteError
from shelfwise.compiler.build import link_shelf
from shelfwise.compiler.store.records import Element
from shelfwise.compiler.publish.site import build_site
from shelfwise.compiler.publish.site_incremental import MANIFEST, check_anchor_links
from shelfwise.compiler.store.store import Store
from tests.test_pages import H, P, png, put
from tests.site_fixtures import broken_templates

LASTMOD = re.compile(r"<lastmod>\d{4}-\d{2}-\d{2}</lastmod>")


def _revocation(text: str, version: str) -> tuple[str, str, list[Element], str, str]:
    return ("rfc9002-txt", "Widget Token Revocation", [
        Element(kind="code", text="Request for Comments: 9002"),
        H("1. Introduction"), P("The revocation endpoint is defined in Section 4.2 of [RFC9001]."),
        H("2. Revocation"), P(text),
    ], "rfc9002.txt", version)


def _grants(with_code_grant: bool = True, version: str = "1") -> tuple[str, str, list[Element], str, str]:
    elements = [Element(kind="code", text="Request for Comments: 9001"),
                H("1. Introduction"), P("This document defines widgets and their grants."), H("4. Grants")]
    if with_code_grant:
        elements += [H("4.2. Authorization Code Grant", 2), P("The client MUST send the authorization code exactly once.")]
    return ("rfc9001-txt", "The Example Widget Protocol", elements, "rfc9001.txt", version)


def _shelf(folder: Path, extra_notes: int = 4) -> Store:
    """Two RFC-like documents that link, and a few notes that link to nothing (so one edit touches few pages)."""
    store = Store(folder / "store.sqlite")
    store.set_meta("shelf_title", "Incremental shelf")
    put(store, *_grants())
    put(store, *_revocation("A client revokes a token by sending it to the revocation endpoint.", "1"))
    for n in range(extra_notes):
        put(store, f"note-{n}-md", f"Operating note {n}", [H(f"Note {n}"), P(f"Note {n} says nothing about widgets.")],
            f"note-{n}.md")
    _link(store)
    return store


def _link(store: Store) -> None:
    link_shelf(store, [row["doc_id"] for row in store.documents()], [])


def _site_files(site: Path) -> dict[str, bytes]:
    """Every file of a built site, with the only time-dependent parts normalised: sitemap.xml's <lastmod> (the build
    date) and sitemap.xml.gz (gzip records its own timestamp; compared decompressed)."""
    files = {}
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        rel = path.relative_to(site).as_posix()
        body = path.read_bytes()
        if rel == "sitemap.xml.gz":
            body = gzip.decompress(body)
        if rel.startswith("sitemap.xml"):
            body = LASTMOD.sub("<lastmod/>", body.decode("utf-8")).encode("utf-8")
        files[rel] = body
    return files


def _search_entries(site: Path) -> list[tuple]:
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    return [tuple(sorted(entry.items())) for entry in index["docs"]]


@pytest.fixture()
def built(tmp_path):
    store = _shelf(tmp_path)
    out = tmp_path / "out"
    first = build_site(store, out)
    yield store, out, first
    store.close()


def test_one_edit_is_rebuilt_incrementally_and_equals_a_full_build(built, tmp_path):
    store, out, first = built
    assert first["build"] == "full" and first["full_reason"] == "no previous site"
    put(store, *_revocation("A client revokes a token by posting it to the revocation endpoint, once.", "2"))
    _link(store)
    lines = []
    again = build_site(store, out, progress=lines.append)
    assert again["build"] == "incremental", again
    assert 1 <= again["pages_built"] < again["pages"]
    assert re.fullmatch(rf"site: incremental, {again['pages_built']} of {again['pages']} pages rebuilt, [\d.]+ s", lines[-1])
    assert "posting it to the revocation endpoint" in (out / "site/documents/rfc9002-txt.html").read_text(encoding="utf-8")
    full = build_site(store, tmp_path / "full", shelf="out", full=True)
    assert full["build"] == "full" and full["full_reason"] == "forced (--full-site)"
    incremental_files, full_files = _site_files(out / "site"), _site_files(tmp_path / "full/site")
    assert sorted(incremental_files) == sorted(full_files)
    assert set(_search_entries(out / "site")) == set(_search_entries(tmp_path / "full/site"))
    assert _search_entries(out / "site") == _search_entries(tmp_path / "full/site")  # in the same order, too
    assert any("posting it" in dict(entry)["text"] for entry in _search_entries(out / "site"))
    different = [rel for rel in full_files if incremental_files[rel] != full_files[rel]]
    assert different == []


def test_the_next_build_generation_a_copy_in_another_folder_is_incremental(built, tmp_path):
    store, out, _ = built
    shutil.copytree(out, tmp_path / "generation-2", symlinks=True)  # as shelfwise/compiler/store/generations.py begins a build
    put(store, *_revocation("A client revokes a token by posting it.", "2"))
    _link(store)
    again = build_site(store, tmp_path / "generation-2", shelf="out")
    assert again["build"] == "incremental" and again["pages_built"] == 1


def test_a_figure_removed_by_an_edit_leaves_no_stale_image(built, tmp_path):
    store, out, _ = built
    flow = [H("Note 0"), P("Note 0 has a figure now."), Element(kind="figure", text="Figure 1: The flow", image=png())]
    put(store, "note-0-md", "Operating note 0", flow, "note-0.md", "2")
    _link(store)
    assert build_site(store, out)["build"] == "incremental"
    images = sorted(p.relative_to(out / "site").as_posix() for p in (out / "site/documents").rglob("*.png"))
    assert len(images) == 1
    put(store, "note-0-md", "Operating note 0", flow[:2], "note-0.md", "3")
    _link(store)
    assert build_site(store, out)["build"] == "incremental"
    assert not (out / "site" / images[0]).exists()
    build_site(store, tmp_path / "full", shelf="out", full=True)
    assert _site_files(out / "site") == _site_files(tmp_path / "full/site")


def test_nothing_changed_rebuilds_no_page(built):
    store, out, first = built
    again = build_site(store, out)
    assert again["build"] == "incremental" and again["pages_built"] == 0
    assert _search_entries(out / "site") and len(_search_entries(out / "site")) == len(set(_search_entries(out / "site")))


def test_a_new_document_changes_the_nav_and_builds_in_full(built):
    store, out, _ = built
    put(store, "note-9-md", "Operating note 9", [H("Note 9"), P("A ninth note.")], "note-9.md")
    _link(store)
    lines = []
    again = build_site(store, out, progress=lines.append)
    assert again["build"] == "full" and again["full_reason"] == "nav changed (a document added, removed or retitled)"
    assert lines[-1].startswith("site: full build (nav changed (a document added, removed or retitled)), ")
    assert (out / "site/documents/note-9-md.html").is_file()


def test_a_changed_setting_in_mkdocs_yml_builds_in_full(built):
    store, out, _ = built
    again = build_site(store, out, endpoint="http://127.0.0.1:9")
    assert again["build"] == "full" and again["full_reason"] == "mkdocs.yml changed"


def test_a_missing_manifest_builds_in_full(built):
    store, out, _ = built
    (out / MANIFEST).unlink()
    assert build_site(store, out)["full_reason"] == "no previous site"


def test_a_failed_incremental_build_keeps_the_last_good_site(built, tmp_path):
    store, out, _ = built
    index = (out / "site/coverage.html").read_text(encoding="utf-8")
    templates = broken_templates(tmp_path)
    lines = []
    with pytest.raises(SiteError) as caught:
        build_site(store, out, templates_dir=templates, progress=lines.append)
    assert "mkdocs incremental, 1 of" in lines[-1]
    assert "the last good site is kept" in str(caught.value) and "nowhere.md" in str(caught.value)
    assert (out / "site/coverage.html").read_text(encoding="utf-8") == index
    assert not [p.name for p in out.iterdir() if p.name.startswith(".site-")]
    assert build_site(store, out)["build"] == "incremental"  # the manifest still describes the kept site


def test_a_link_from_an_unchanged_page_into_a_removed_anchor_fails_as_in_a_full_build(built, tmp_path):
    store, out, _ = built
    code_grant = next(s.id for s in store.sections("rfc9001-txt") if s.heading.startswith("4.2."))
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "coverage.md.j2").write_text(f"# Coverage\n\nSee [the code grant](documents/rfc9001-txt.md#{code_grant}).\n",
                                              encoding="utf-8")
    assert build_site(store, out, templates_dir=templates)["build"] == "incremental"
    put(store, *_grants(with_code_grant=False, version="2"))
    _link(store)
    coverage = (out / "site/coverage.html").read_text(encoding="utf-8")
    expected = (f"Doc file 'coverage.md' contains a link 'documents/rfc9001-txt.md#{code_grant}', "
                f"but the doc 'documents/rfc9001-txt.md' does not contain an anchor '#{code_grant}'.")
    with pytest.raises(SiteError) as caught:
        build_site(store, out, templates_dir=templates)
    assert expected in str(caught.value) and "the last good site is kept" in str(caught.value)
    assert (out / "site/coverage.html").read_text(encoding="utf-8") == coverage
    with pytest.raises(SiteError) as full:
        build_site(store, tmp_path / "full", templates_dir=templates, shelf="out", full=True)
    assert expected in str(full.value)


def test_anchor_check_reports_links_within_and_across_pages():
    pages = {"a.md": {"url": "a.html", "anchors": ["x"], "links": {"a.md": {"y": "#y"}, "b.md": {"z": "b.md#z", "w": "b.md#w"}}},
             "b.md": {"url": "b.html", "anchors": ["w"], "links": {"c.md": {"q": "c.md#q"}}}}
    assert check_anchor_links(pages) == [
        "Doc file 'a.md' contains a link '#y', but there is no such anchor on this page.",
        "Doc file 'a.md' contains a link 'b.md#z', but the doc 'b.md' does not contain an anchor '#z'.",
    ]


def test_site_incremental_false_forces_the_full_build(built):
    store, out, _ = built
    from shelfwise.compiler.settings import Settings
    from shelfwise.compiler.publish.site import site_stage

    stage = site_stage(Settings(site={"incremental": False}))
    name, summary = stage(store, out, [], [], lambda line: None)
    assert name == "site" and summary["build"] == "full" and summary["full_reason"] == "forced (--full-site)"
    name, summary = site_stage(Settings())(store, out, [], [], lambda line: None)
    assert summary["build"] == "incremental" and summary["pages_built"] == 0
