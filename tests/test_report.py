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


def _crashing_markdown(monkeypatch) -> None:
    """Our own Markdown reader with a bug: it raises on one document (the worker runs in-process so the patch holds)."""
    from shelfwise.compiler.ingest.convert import markdown

    parse = markdown.parse_markdown

    def parse_markdown(text: str):
        if "BOOM" in text:
            raise IndexError("list index out of range")
        return parse(text)

    monkeypatch.setattr(markdown, "parse_markdown", parse_markdown)


def _shelf_with_a_crash(tmp_path: Path) -> tuple[Path, Path]:
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "bad.md").write_text("# Bad\n\nBOOM: the reader trips on this one.\n", encoding="utf-8")
    (shelf / "good.md").write_text("# Good\n\nThis one compiles.\n", encoding="utf-8")
    config = tmp_path / "shelfwise.toml"
    config.write_text(f'build_dir = "{(tmp_path / "build").as_posix()}"\n\n[compile]\nconvert_in_subprocess = false\n', encoding="utf-8")
    return shelf, config


@pytest.mark.parametrize("verbose", [False, True], ids=["default", "verbose"])
def test_the_cli_reports_a_reader_bug_with_its_traceback_and_compiles_the_rest(tmp_path: Path, monkeypatch, capsys, verbose: bool):
    from shelfwise.compiler.cli.main import main

    _crashing_markdown(monkeypatch)
    shelf, config = _shelf_with_a_crash(tmp_path)
    assert main(["build", str(shelf), "--config", str(config), "--quiet", "--json", *(["-v"] if verbose else [])]) == 0
    out, err = capsys.readouterr()
    printed = {d["path"]: d for d in json.loads(out)["documents"]}
    assert printed["good.md"]["status"] == "converted"
    assert printed["bad.md"]["status"] == "failed" and printed["bad.md"]["reason"] == "reader error IndexError: list index out of range"
    written = {d["path"]: d for d in json.loads(next((tmp_path / "build" / "shelf").rglob("report.json")).read_text(encoding="utf-8"))["documents"]}
    bug = written["bad.md"]["traceback"]
    assert bug.startswith("Traceback (most recent call last):") and "in parse_markdown" in bug
    assert bug.rstrip().splitlines()[-1] == "IndexError: list index out of range"
    if verbose:  # logged as it happens, once, by the handler the CLI configured
        assert err.count("debug: shelfwise.build: bad.md: reader error IndexError: list index out of range\nTraceback") == 1
    else:
        assert "Traceback" not in err


def test_the_cli_logs_shelfwise_warnings_to_stderr_once(capsys):
    import logging

    from shelfwise.compiler.cli.main import configure_logging

    configure_logging()
    configure_logging()  # configured once: a second call adds no second handler
    logging.getLogger("shelfwise.store").warning("store schema %d migrated to %d", 6, 7)
    logging.getLogger("shelfwise.build").debug("not shown without -v")
    assert capsys.readouterr().err == "warning: shelfwise.store: store schema 6 migrated to 7\n"
