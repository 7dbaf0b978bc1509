"""A shelf cannot steer or stop its build: shelf.toml paths stay inside --build-dir, documents that fail after a good
compile are published at their last good version, odd and colliding file names compile, hidden files are reported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

MD = "# Handbook\n\n## 1 Scope\n\nThis handbook covers pumps.\n"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shelfwise.compiler.cli.main", *args], capture_output=True, text=True)


def _tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


@pytest.mark.parametrize(("name", "reason"), [
    ("../x", "'../x' holds a path separator"),
    ("ABSOLUTE", "is an absolute path"),
    ("..", "'..' is not a name"),
])
def test_a_shelf_toml_name_that_leaves_the_build_folder_is_refused(tmp_path: Path, name: str, reason: str):
    outside = tmp_path / "outside"
    outside.mkdir()
    name = str(outside / "escaped") if name == "ABSOLUTE" else name
    shelf = tmp_path / "work" / "shelf"
    shelf.mkdir(parents=True)
    (shelf / "a.md").write_text(MD, encoding="utf-8")
    (shelf / "shelf.toml").write_text(f"name = {name!r}\n", encoding="utf-8")
    build = tmp_path / "work" / "build"
    result = _cli("build", str(shelf), "--build-dir", str(build), "--site", "--quiet")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {shelf / 'shelf.toml'}: name: ") and reason in line
    assert _tree(outside) == [] and sorted(os.listdir(tmp_path)) == ["outside", "work"]
    assert sorted(os.listdir(tmp_path / "work")) == ["shelf"]


def test_document_paths_and_globs_in_shelf_toml_stay_in_the_shelf(tmp_path: Path):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "a.md").write_text(MD, encoding="utf-8")
    (shelf / "shelf.toml").write_text('include = ["/etc/*"]\n[[documents]]\npath = "../secret.md"\n', encoding="utf-8")
    result = _cli("build", str(shelf), "--build-dir", str(tmp_path / "b"), "--quiet")
    assert result.returncode == 1
    assert "include: '/etc/*' is an absolute path; give a path relative to the shelf folder" in result.stderr
    assert "documents.0.path: '../secret.md' climbs out of the shelf with '..'" in result.stderr
    assert not (tmp_path / "b").exists()


def test_a_link_in_the_build_folder_pointing_out_of_it_is_refused(tmp_path: Path):
    outside, build, shelf = tmp_path / "outside", tmp_path / "build", tmp_path / "shelf"
    for folder in (outside, build, shelf):
        folder.mkdir()
    (shelf / "a.md").write_text(MD, encoding="utf-8")
    (build / "shelf").symlink_to(outside)
    result = _cli("build", str(shelf), "--build-dir", str(build), "--quiet")
    assert result.returncode == 1
    assert f"name: 'shelf' leads to {outside}, outside the build folder {build}" in result.stderr
    assert _tree(outside) == []


def _quiet(_line: str) -> None:
    return None


def test_colliding_derived_ids_are_told_apart_stably_with_a_warning(tmp_path: Path):
    from shelfwise.compiler.build import build_shelf
    from shelfwise.compiler.settings import Settings

    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "Q1 report.md").write_text("# Q1\n\nRevenue rose.\n", encoding="utf-8")
    (shelf / "q1-report.md").write_text("# Q1 costs\n\nCosts fell.\n", encoding="utf-8")
    settings = Settings(build_dir=tmp_path / "build")
    first = {d.path: d for d in build_shelf(shelf, settings, progress=_quiet, stages=[]).documents}
    assert [d.status for d in first.values()] == ["converted", "converted"]
    ids = {path: d.doc_id for path, d in first.items()}
    assert len(set(ids.values())) == 2 and all(i.startswith("q1-report-md-") for i in ids.values())
    assert first["Q1 report.md"].reason == (
        f"'Q1 report.md' and 'q1-report.md' both derive the id 'q1-report-md'; this one is compiled as "
        f"'{ids['Q1 report.md']}' (declare an id in shelf.toml [[documents]] to choose one)")
    (shelf / "Q1_Report.md").write_text("# Q1 again\n\nMore.\n", encoding="utf-8")
    second = {d.path: d for d in build_shelf(shelf, settings, progress=_quiet, stages=[]).documents}
    assert {p: d.doc_id for p, d in second.items() if p in ids} == ids
    assert second["Q1_Report.md"].status == "converted" and second["Q1_Report.md"].doc_id not in ids.values()
    assert second["q1-report.md"].status == "unchanged"


def test_hidden_entries_are_reported_and_a_newline_in_a_name_cannot_forge_a_line(tmp_path: Path):
    from shelfwise.compiler.build import build_shelf
    from shelfwise.compiler.settings import Settings

    shelf = tmp_path / "shelf"
    (shelf / ".git").mkdir(parents=True)
    (shelf / ".git" / "config").write_text("x", encoding="utf-8")
    (shelf / ".notes.md").write_text("# Hidden\n\nx.\n", encoding="utf-8")
    (shelf / "tides\n[9/9] forged.md".replace("/", "-")).write_text("# Tides\n\nLow tide at noon.\n", encoding="utf-8")
    lines: list[str] = []
    report = build_shelf(shelf, Settings(build_dir=tmp_path / "build"), progress=lines.append, stages=[])
    by_path = {d.path: d for d in report.documents}
    assert by_path[".git"].status == "skipped" and by_path[".git"].reason == "hidden folder (its name starts with '.'); not compiled"
    assert by_path[".notes.md"].status == "skipped" and by_path[".notes.md"].reason == "hidden file (its name starts with '.'); not compiled"
    forged = by_path["tides\\n[9-9] forged.md"]
    assert forged.status == "converted" and forged.reason == "the file name holds control characters; compiled as 'tides\\\\n[9-9] forged.md'"
    assert all("\n" not in line for line in lines) and "[1/1] tides\\n[9-9] forged.md" in lines
    assert all(line.startswith(("Compile report", "  ")) for line in report.render().splitlines())  # no forged line


def test_a_first_build_stopped_after_embedding_is_not_embedded_again(tmp_path: Path):
    from shelfwise.compiler.build import build_shelf
    from shelfwise.compiler.index.indexes import index_stage
    from shelfwise.compiler.settings import Settings
    from tests.answer_shelves import HashEmbedder

    shelf = tmp_path / "shelf"
    shelf.mkdir()
    for n in range(3):
        (shelf / f"doc{n}.md").write_text(f"# Doc {n}\n\n## Part\n\nText number {n} about pumps.\n", encoding="utf-8")
    settings = Settings(build_dir=tmp_path / "build")

    def stopped(store, out, changed, removed, progress):
        raise KeyboardInterrupt  # the build is stopped after the index stage embedded every passage

    with pytest.raises(KeyboardInterrupt):
        build_shelf(shelf, settings, progress=_quiet, stages=[index_stage(HashEmbedder()), stopped])
    assert not (tmp_path / "build" / "shelf" / "current").exists()
    lines: list[str] = []
    report = build_shelf(shelf, settings, progress=lines.append, stages=[index_stage(HashEmbedder())])
    vectors = report.stages["indexes"]["vectors"]
    assert (vectors["embedded"], vectors["cached"]) == (0, vectors["passages"]) and vectors["passages"] >= 3
    assert "kept from the build that was stopped: " in "\n".join(lines)
    assert not (tmp_path / "build" / "shelf" / "checkpoints" / "unfinished").exists()


def _searchable(generation: Path, phrase: str) -> set[str]:
    """The documents of the sections the shelf's search finds for ``phrase`` (its top three)."""
    from shelfwise.compiler.search.search import ShelfSearcher
    from shelfwise.compiler.store.store import Store
    from tests.answer_shelves import HashEmbedder

    store = Store(generation / "store.sqlite", create=False)
    try:
        hits = ShelfSearcher(store, generation / "lexical", HashEmbedder()).search(phrase, k=3).hits
        return {store.section(hit.section_id).doc_id for hit in hits}
    finally:
        store.close()


def test_a_mixed_shelf_of_every_bad_kind_builds_its_site_and_keeps_last_good_versions(tmp_path: Path):
    from shelfwise.compiler.build import build_shelf, current_build
    from shelfwise.compiler.index.indexes import index_stage
    from shelfwise.compiler.build import links_stage
    from shelfwise.compiler.settings import Settings
    from shelfwise.compiler.publish.site import site_stage
    from tests.answer_shelves import HashEmbedder
    from shelfwise.compiler.ingest.discover import escaped_name
    from tests.bombs import BAD, GOOD, ODD_NAMES, mixed_shelf

    shelf = mixed_shelf(tmp_path / "shelf")
    settings = Settings(build_dir=tmp_path / "build")
    stages = [index_stage(HashEmbedder()), links_stage(), site_stage(settings, shelf_dir=shelf)]
    first = build_shelf(shelf, settings, progress=_quiet, stages=stages)
    handbook = (shelf / "handbook.docx").read_bytes()
    (shelf / "handbook.docx").write_bytes(b"PK\x03\x04 a replacement that is not a Word file")
    report = build_shelf(shelf, settings, progress=_quiet, stages=stages)
    by_path = {d.path: d for d in report.documents}
    generation = current_build(tmp_path / "build" / "shelf")
    assert generation.name == "2"  # the second build switched its generation in
    for name in [*BAD, "outside-link.md", "dangling.md", "handbook.docx"]:
        assert by_path[name].status == "failed" and by_path[name].reason, name
    assert by_path[".hidden.md"].status == "skipped"
    assert by_path["handbook.docx"].reason.endswith("(the store keeps its last good version, and search and the site "
                                                    "show it, with its original as compiled)")
    phrases = {**{name: phrase for name, (_text, phrase) in GOOD.items()},
               **{escaped_name(os.fsdecode(raw)): phrase for raw, (_text, phrase) in ODD_NAMES.items()}}
    ids = {d.path: d.doc_id for d in first.documents if d.status == "converted"}
    assert sorted(ids) == sorted(phrases) and len(set(ids.values())) == len(ids)
    site = generation / "site"
    for path, doc_id in ids.items():  # every good document (the kept one too) on the site and found by search
        assert (site / "documents" / f"{doc_id}.html").is_file(), path
        assert doc_id in _searchable(generation, phrases[path]), path
    assert (site / "_originals" / "handbook.docx").read_bytes() == handbook
    assert (site / "_originals" / "caf\\xe9.md").read_bytes() == ODD_NAMES[b"caf\xe9.md"][0].encode("utf-8")
    page = (site / "documents" / f"{ids['handbook.docx']}.html").read_text(encoding="utf-8")
    assert "Last good version" in page and "priming valve" in page
    assert "originals_missing" not in report.stages["site"]

    strict = _cli("build", str(shelf), "--build-dir", str(tmp_path / "build"), "--site", "--quiet", "--strict")
    assert strict.returncode == 3 and f"{len(BAD) + 3} document(s) failed (--strict)" in strict.stderr
    assert (current_build(tmp_path / "build" / "shelf") / "site" / "_originals" / "handbook.docx").read_bytes() == handbook


def test_a_pdf_of_one_long_paragraph_reads_as_that_paragraph_with_progress_per_window(tmp_path: Path):
    from shelfwise.compiler.ingest.convert import ReadOptions
    from shelfwise.compiler.ingest.convert.pdf import read_text_layer
    from tests.bombs import one_paragraph_pdf

    path, text = one_paragraph_pdf(tmp_path / "long.pdf", 25)
    lines: list[str] = []
    converted = read_text_layer(path, ReadOptions(progress=lines.append), use_outline=False)
    assert [(e.kind, e.text) for e in converted.elements] == [("paragraph", text)]
    assert [line for line in lines if "assembling" in line] == [
        "long.pdf: assembling pages 1-10 of 25", "long.pdf: assembling pages 11-20 of 25", "long.pdf: assembling pages 21-25 of 25"]
