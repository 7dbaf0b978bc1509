"""Every file name and link: a name that is not UTF-8 is compiled under its escaped form; links out of the shelf,
link loops and broken links are refused with a reason, counted as failures (--strict exits 3)."""

from __future__ import annotations

import os
from pathlib import Path

from shelfwise.compiler.build import build_shelf
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.store.store import Store



def _shelf(tmp_path: Path) -> Path:
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "rules.md").write_text("# Rules\n\n## Gates\n\nGates close at ten.\n", encoding="utf-8")
    with open(os.path.join(os.fsencode(shelf), b"caf\xe9.md"), "wb") as handle:  # a Latin-1 name: not UTF-8
        handle.write("# Caf\u00e9 Rules\n\n## Hours\n\nThe caf\u00e9 opens at eight.\n".encode("utf-8"))
    secret = tmp_path / "outside-secret.md"
    secret.write_text("# Secret\n\nThe vault code is 5521.\n", encoding="utf-8")
    os.symlink(secret, shelf / "leak.md")
    os.symlink(shelf / "rules.md", shelf / "rules-link.md")
    os.symlink("loop-b.md", shelf / "loop-a.md")
    os.symlink("loop-a.md", shelf / "loop-b.md")
    os.symlink(tmp_path / "nothing.md", shelf / "broken.md")
    os.symlink(tmp_path, shelf / "up")
    return shelf


def test_names_and_links_are_reported_and_never_stop_the_build(tmp_path: Path):
    shelf = _shelf(tmp_path)
    report = build_shelf(shelf, Settings(build_dir=tmp_path / "build"), progress=lambda line: None)
    by_path = {d.path: d for d in report.documents}
    assert by_path["caf\\xe9.md"].status == "converted"
    assert "the file name is not UTF-8; compiled as 'caf\\\\xe9.md'" in by_path["caf\\xe9.md"].reason
    assert by_path["rules-link.md"].status == "converted"
    assert by_path["leak.md"].status == "failed" and "outside the shelf" in by_path["leak.md"].reason
    assert by_path["loop-a.md"].reason == "symbolic link loop; it is not followed"
    assert by_path["broken.md"].status == "failed" and by_path["broken.md"].reason.startswith("broken symbolic link to ")
    assert by_path["up"].status == "failed" and "outside the shelf" in by_path["up"].reason
    store = Store(tmp_path / "build" / "shelf" / "store.sqlite", create=False)
    texts = " ".join(s.text for s in store.sections())
    store.close()
    assert "5521" not in texts and "opens at eight" in texts


def test_a_link_outside_is_compiled_only_when_the_setting_allows_it(tmp_path: Path):
    shelf = _shelf(tmp_path)
    settings = Settings(build_dir=tmp_path / "build", compile={"follow_symlinks_outside": True})
    report = build_shelf(shelf, settings, progress=lambda line: None, exclude=["up/**", "up"])
    assert {d.path: d.status for d in report.documents}["leak.md"] == "converted"


def test_refused_entries_count_as_failures_for_strict(tmp_path: Path):
    """--strict exits 3 when report.failed is not empty (tests/test_build.py runs that through the CLI)."""
    shelf = _shelf(tmp_path)
    report = build_shelf(shelf, Settings(build_dir=tmp_path / "build"), progress=lambda line: None)
    assert sorted(d.path for d in report.failed) == ["broken.md", "leak.md", "loop-a.md", "loop-b.md", "up"]
    assert "5 failed" in report.render()
