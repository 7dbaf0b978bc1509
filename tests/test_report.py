"""The compile report keeps a reader's unexpected exception: its line names the file and the exception, and
report.json holds the traceback (nothing configures logging, so a traceback only logged would be lost)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shelfwise.compiler.build import build_shelf
from shelfwise.compiler.settings import Settings


@pytest.mark.parametrize("in_subprocess", [False, True], ids=["in-process", "worker"])
def test_a_reader_crash_keeps_its_traceback_in_report_json(tmp_path: Path, in_subprocess: bool):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "gone.md").write_text("# Gone\n\nRemoved while the build runs.\n", encoding="utf-8")
    (shelf / "kept.md").write_text("# Kept\n\nStill here.\n", encoding="utf-8")

    def progress(line: str) -> None:
        if line.endswith(" gone.md"):  # the build is about to read it: it vanishes, and the reader meets an exception it did not expect
            (shelf / "gone.md").unlink()

    settings = Settings(build_dir=tmp_path / "build", compile={"convert_in_subprocess": in_subprocess})
    report = build_shelf(shelf, settings, progress=progress)
    failed = {d.path: d for d in report.failed}
    assert list(failed) == ["gone.md"] and report.count("converted") == 1
    assert failed["gone.md"].reason.startswith("reader error FileNotFoundError: ")
    line = next(x for x in report.render().splitlines() if x.endswith("(traceback in report.json)"))
    assert "gone.md  — reader error FileNotFoundError" in line
    written = json.loads(next((tmp_path / "build" / "shelf").rglob("report.json")).read_text(encoding="utf-8"))
    kept = {d["path"]: d["traceback"] for d in written["documents"]}
    assert kept["kept.md"] == ""
    assert kept["gone.md"].startswith("Traceback (most recent call last):") and "detect_format" in kept["gone.md"]
    assert kept["gone.md"].rstrip().splitlines()[-1].startswith("FileNotFoundError: ")


def test_an_expected_failure_has_no_traceback(tmp_path: Path):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "empty.md").write_text("", encoding="utf-8")
    report = build_shelf(shelf, Settings(build_dir=tmp_path / "build"), progress=lambda _line: None)
    assert [(d.path, d.reason, d.traceback) for d in report.failed] == [("empty.md", "file is empty (0 bytes)", "")]
    assert "traceback" not in report.render()
