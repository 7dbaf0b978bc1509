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
