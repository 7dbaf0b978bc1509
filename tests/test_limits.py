"""No document can stop or exhaust a build: a zip bomb, a docx of too many elements, an over-long text file and a
too-long sheet are each reported by name with the limit they went past, and the rest of the shelf compiles."""

from __future__ import annotations

from pathlib import Path

from shelfwise.compiler.build import build_shelf
from shelfwise.compiler.settings import Settings
from tests.bombs import long_sheet_xlsx, many_elements_docx, one_line_markdown, zip_bomb_docx


def test_hostile_documents_are_reported_by_limit_and_the_rest_compiles(tmp_path: Path):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "rules.md").write_text("# Rules\n\n## Gates\n\nGates close at ten.\n", encoding="utf-8")
    zip_bomb_docx(shelf / "bomb.docx", expanded_mb=30)
    many_elements_docx(shelf / "crowded.docx", paragraphs=20_000)
    one_line_markdown(shelf / "long.md", chars=1_200_000)
    long_sheet_xlsx(shelf / "readings.xlsx", rows=1_500)
    assert (shelf / "bomb.docx").stat().st_size < 200_000
    settings = Settings(build_dir=tmp_path / "build", compile={
        "max_unzipped_mb": 20, "max_xml_elements": 50_000, "max_text_chars": 1_000_000, "max_sheet_rows": 1_000})
    report = build_shelf(shelf, settings, progress=lambda line: None)
    reasons = {d.path: (d.status, d.reason) for d in report.documents}
    assert reasons["rules.md"] == ("converted", "")
    assert reasons["bomb.docx"][0] == "failed" and reasons["bomb.docx"][1].startswith("expands to more than 20 MB when unzipped (31 MB in ")
    assert reasons["crowded.docx"] == ("failed", "holds more than 50,000 XML elements (compile.max_xml_elements); it is not converted")
    assert reasons["long.md"] == ("failed", "has 1,200,009 characters, more than 1,000,000 (compile.max_text_chars); it is not converted")
    assert reasons["readings.xlsx"] == ("failed", "sheet 1 has more than 1,000 rows (compile.max_sheet_rows); it is not converted")


def test_a_conversion_past_its_time_limit_is_reported_and_the_next_document_converts(tmp_path: Path):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    long_sheet_xlsx(shelf / "a-readings.xlsx", rows=3_000)
    (shelf / "b-rules.md").write_text("# Rules\n\n## Gates\n\nGates close at ten.\n", encoding="utf-8")
    settings = Settings(build_dir=tmp_path / "build", compile={"convert_timeout_s": 2})
    report = build_shelf(shelf, settings, progress=lambda line: None)
    reasons = {d.path: (d.status, d.reason) for d in report.documents}
    assert reasons["a-readings.xlsx"] == ("failed", "took longer than 2 s to convert (compile.convert_timeout_s); it is not converted")
    assert reasons["b-rules.md"] == ("converted", "")
