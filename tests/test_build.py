"""End to end: shelves of real files compiled into a real store, incrementally, with bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shelfwise.compiler.build import build_shelf
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.store.store import Store, sqlite3
from tests.conftest import write_docx, write_pdf

MD = "# Handbook\n\n## 1 Scope\n\nThis handbook covers pumps.\n\n## 2 Terms\n\nA *pump* moves fluid.\n"
RST = "Policy\n======\n\nIntro.\n\nRules\n-----\n\nStaff must wear ``badges``.\n"


def _settings(tmp_path: Path, **pdf) -> Settings:
    return Settings(build_dir=tmp_path / "build", pdf=pdf or {})


def _quiet(_line: str) -> None:
    return None


def _shelf(tmp_path: Path) -> Path:
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "handbook.md").write_text(MD, encoding="utf-8")
    (shelf / "policy.rst").write_text(RST, encoding="utf-8")
    write_docx(shelf / "sop.docx", "Complaint SOP", [(1, "Purpose", ["Complaints are logged within 2 days."]), (2, "Steps", ["Log it."])])
    return shelf


def test_compile_then_incremental_edit_and_removal(tmp_path: Path):
    shelf = _shelf(tmp_path)
    settings = _settings(tmp_path)
    first = build_shelf(shelf, settings, progress=_quiet)
    assert [d.status for d in first.documents] == ["converted"] * 3
    store = Store(tmp_path / "build" / "shelf" / "store.sqlite")
    ids_before = {s.heading: s.id for s in store.sections("handbook-md")}
    assert store.document("sop-docx")["reader"] == "docling"
    store.close()

    second = build_shelf(shelf, settings, progress=_quiet)
    assert [d.status for d in second.documents] == ["unchanged"] * 3

    (shelf / "handbook.md").write_text(MD.replace("covers pumps", "covers infusion pumps"), encoding="utf-8")
    (shelf / "policy.rst").unlink()
    third = build_shelf(shelf, settings, progress=_quiet)
    statuses = {d.path: d.status for d in third.documents}
    assert statuses == {"handbook.md": "converted", "sop.docx": "unchanged", "policy.rst": "removed"}
    store = Store(tmp_path / "build" / "shelf" / "store.sqlite")
    assert {s.heading: s.id for s in store.sections("handbook-md")} == ids_before
    assert "infusion pumps" in store.section(ids_before["1 Scope"]).text
    assert store.document("policy-rst") is None and store.sections("policy-rst") == []
    store.close()
    assert "1 converted, 1 unchanged, 1 removed" in third.render()


def test_sections_cover_the_documents_text(tmp_path: Path):
    shelf = _shelf(tmp_path)
    build_shelf(shelf, _settings(tmp_path), progress=_quiet)
    store = Store(tmp_path / "build" / "shelf" / "store.sqlite")
    text = " ".join(s.text for s in store.sections("handbook-md"))
    for sentence in ("This handbook covers pumps.", "A *pump* moves fluid."):
        assert sentence in text
    docx_text = " ".join(s.text for s in store.sections("sop-docx"))
    assert "Complaints are logged within 2 days." in docx_text and "Log it." in docx_text
    store.close()


BAD_FILES = {
    "empty.md": (b"", "file is empty (0 bytes)"),
    "fake.pdf": (b"just some text, not a PDF\n", "named .pdf but holds plain text"),
    "truncated.docx": (b"PK\x03\x04" + b"\x00" * 40, "corrupt .docx file"),
    "binary.txt": (b"\x00\x01\x02\x03" * 64, "named .txt but holds binary data"),
    "notes.xyz": (b"hello", "unsupported file type .xyz"),
}


def test_bad_files_are_reported_by_name_and_the_rest_compiles(tmp_path: Path):
    shelf = _shelf(tmp_path)
    for name, (content, _) in BAD_FILES.items():
        (shelf / name).write_bytes(content)
    (shelf / "latin1.txt").write_bytes("Caf\xe9 policy: staff must sign in.\n".encode("cp1252"))
    write_pdf(shelf / "locked.pdf", [[("h1", "Secret"), ("p", "Body")]], encrypt="pw")
    report = build_shelf(shelf, _settings(tmp_path), progress=_quiet)
    by_path = {d.path: d for d in report.documents}
    for name, (_, reason) in BAD_FILES.items():
        assert reason in by_path[name].reason, (name, by_path[name].reason)
    assert "encrypted" in by_path["locked.pdf"].reason and by_path["locked.pdf"].status == "failed"
    assert by_path["latin1.txt"].status == "converted" and "Windows-1252" in by_path["latin1.txt"].reason
    assert all(by_path[n].status == "converted" for n in ("handbook.md", "policy.rst", "sop.docx"))
    store = Store(tmp_path / "build" / "shelf" / "store.sqlite")
    assert {f["path"] for f in store.failures()} == {"empty.md", "fake.pdf", "truncated.docx", "binary.txt", "locked.pdf"}
    assert any("Café policy" in s.text for s in store.sections("latin1-txt"))
    store.close()


def test_zero_page_and_huge_files(tmp_path: Path):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "ok.md").write_text("# OK\n\nFine.\n", encoding="utf-8")
    (shelf / "zero.pdf").write_bytes(b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")
    (shelf / "big.md").write_text("# Big\n\n" + "word " * 5000, encoding="utf-8")
    settings = Settings(build_dir=tmp_path / "build", compile={"max_file_mb": 0.01})
    report = build_shelf(shelf, settings, progress=_quiet)
    by_path = {d.path: d for d in report.documents}
    assert by_path["ok.md"].status == "converted"
    assert by_path["zero.pdf"].status == "failed" and by_path["zero.pdf"].reason
    assert "over the 0.01 MB limit (compile.max_file_mb)" in by_path["big.md"].reason


def test_failed_recompile_keeps_the_last_good_version(tmp_path: Path):
    shelf = _shelf(tmp_path)
    settings = _settings(tmp_path)
    build_shelf(shelf, settings, progress=_quiet)
    (shelf / "sop.docx").write_bytes(b"PK\x03\x04broken")
    report = build_shelf(shelf, settings, progress=_quiet)
    sop = next(d for d in report.documents if d.path == "sop.docx")
    assert sop.status == "failed" and "keeps its last good version" in sop.reason
    store = Store(tmp_path / "build" / "shelf" / "store.sqlite")
    assert any("within 2 days" in s.text for s in store.sections("sop-docx"))
    store.close()


def test_cli_strict_exit_code_and_help(tmp_path: Path):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "ok.md").write_text("# OK\n\nFine.\n", encoding="utf-8")
    (shelf / "empty.rst").write_bytes(b"")
    cmd = [sys.executable, "-m", "shelfwise.compiler.cli.main", "build", str(shelf), "--build-dir", str(tmp_path / "b"), "--quiet"]
    loose = subprocess.run(cmd, capture_output=True, text=True)
    assert loose.returncode == 0 and "empty.rst  — file is empty (0 bytes)" in loose.stdout
    strict = subprocess.run([*cmd, "--strict"], capture_output=True, text=True)
    assert strict.returncode == 3 and "1 document(s) failed (--strict)" in strict.stderr
    missing = subprocess.run([sys.executable, "-m", "shelfwise.compiler.cli.main", "build", str(tmp_path / "nope")], capture_output=True, text=True)
    assert missing.returncode == 1 and missing.stderr.startswith("error: ") and "Traceback" not in missing.stderr


def test_declared_ids_and_bad_shelf_toml(tmp_path: Path):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    (shelf / "shelf.toml").write_text('title = "S"\n[[documents]]\npath = "a.md"\nid = "alpha"\ntitle = "Alpha"\n', encoding="utf-8")
    build_shelf(shelf, _settings(tmp_path), progress=_quiet)
    store = Store(tmp_path / "build" / "shelf" / "store.sqlite")
    assert store.document("alpha")["title"] == "Alpha"
    store.close()
    (shelf / "shelf.toml").write_text('[[documents]]\npath = "missing.md"\nid = "Bad Id"\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "shelfwise.compiler.cli.main", "build", str(shelf), "--build-dir", str(tmp_path / "b")], capture_output=True, text=True)
    assert result.returncode == 1
    assert "'missing.md' is declared but no such file" in result.stderr and "use lowercase letters" in result.stderr


@pytest.mark.parametrize("command", ["build", "documents", "sections", "ledger", "links"])
def test_every_command_has_help(command: str):
    result = subprocess.run([sys.executable, "-m", "shelfwise.compiler.cli.main", command, "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "usage: shelfwise" in result.stdout


def test_scanned_pdf_compiles_through_ocr_and_the_report_says_so(tmp_path: Path):
    sys.path.insert(0, str(Path(__file__).parent))
    from scanned_pdf import scanned_pdf

    shelf = tmp_path / "shelf"
    shelf.mkdir()
    scanned_pdf(shelf / "scan.pdf")
    report = build_shelf(shelf, _settings(tmp_path), progress=_quiet)
    assert [(d.status, d.reader) for d in report.documents] == [("converted", "pdf-ocr")]
    assert report.documents[0].reason == "page 1 has no text layer; read by OCR (rapidocr-onnxruntime 1.4.4): check the text of it"
    store = Store(tmp_path / "build" / "shelf" / "store.sqlite")
    section = next(s for s in store.sections("scan-pdf") if s.heading_path == ["3 Calibration Results"])
    assert "within two percent of the set rate" in section.text
    assert "on pages 1" in store.document("scan-pdf")["reader_version"]
    store.close()


def test_a_store_from_an_older_shelfwise_is_migrated_and_the_compile_report_says_so(tmp_path: Path):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "handbook.md").write_text(MD, encoding="utf-8")
    settings = _settings(tmp_path)
    build_shelf(shelf, settings, progress=_quiet)
    old = sqlite3.connect(str((tmp_path / "build" / "shelf" / "store.sqlite").resolve()))  # as schema 3 left it
    old.execute("DROP TABLE section_aliases")
    old.execute("DROP TABLE identities")
    old.execute("PRAGMA user_version = 3")
    old.commit()
    old.close()
    again = build_shelf(shelf, settings, progress=_quiet)
    assert again.migrated == ["section_aliases", "identities"] and [d.status for d in again.documents] == ["unchanged"]
    assert "the last build's store came from an older shelfwise: migrated (added section_aliases, identities)" in again.render()
    assert build_shelf(shelf, settings, progress=_quiet).migrated == []
