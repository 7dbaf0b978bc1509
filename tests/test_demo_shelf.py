"""The bundled demo shelf (shelves/northwind): deterministic generator, size, formats, and a true gold set."""

from __future__ import annotations

import hashlib
import html.parser
import math
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SHELF = ROOT / "shelves" / "northwind"
DOCUMENTS = SHELF / "documents"
KINDS = {"definition", "versions", "procedure", "conditions", "citation", "numeric"}
CHARS_PER_PAGE = 3000  # a printed page of Word, HTML or Markdown text


def _generate(out: Path) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, str(SHELF / "generate.py"), "--out", str(out)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.iterdir())}


def _hashes(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def test_generator_is_deterministic_and_committed_documents_are_current(tmp_path: Path) -> None:
    first = _generate(tmp_path / "a")
    second = _generate(tmp_path / "b")
    assert first == second
    assert len(first) == 10
    stale = sorted(name for name, digest in first.items() if _hashes(DOCUMENTS).get(name) != digest)
    assert not stale, f"committed documents differ from the generator's output: {stale}; run .venv/bin/python shelves/northwind/generate.py"


class _TextOf(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self._skip = tag in {"style", "script"}

    def handle_endtag(self, tag: str) -> None:
        self._skip = False

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _pages(path: Path) -> float:
    """PDF pages, slides and sheets count as they are; Word, HTML and Markdown by length."""
    suffix = path.suffix
    if suffix == ".pdf":
        import pypdfium2

        return len(pypdfium2.PdfDocument(str(path)))
    if suffix == ".pptx":
        import pptx

        return len(pptx.Presentation(str(path)).slides)
    if suffix == ".xlsx":
        import openpyxl

        return len(openpyxl.load_workbook(path, read_only=True).sheetnames)
    if suffix == ".docx":
        import docx

        document = docx.Document(str(path))
        cells = sum(len(cell.text) for table in document.tables for row in table.rows for cell in row.cells)
        return (sum(len(p.text) for p in document.paragraphs) + cells) / CHARS_PER_PAGE
    text = path.read_text(encoding="utf-8")
    if suffix == ".html":
        parser = _TextOf()
        parser.feed(text)
        text = "".join(parser.parts)
    return len(text) / CHARS_PER_PAGE


def test_shelf_size_and_formats() -> None:
    files = sorted(p for p in DOCUMENTS.iterdir() if p.is_file())
    assert {p.suffix for p in files} == {".pdf", ".docx", ".xlsx", ".pptx", ".html", ".md"}
    pages = {p.name: _pages(p) for p in files}
    total = math.ceil(sum(pages.values()))
    assert 30 <= total <= 60, pages
    assert 12 <= pages["quality-manual-rev-d.pdf"] <= 15


def test_questions_are_well_formed() -> None:
    questions = yaml.safe_load((SHELF / "questions.yaml").read_text(encoding="utf-8"))
    assert len(questions) >= 12
    assert {q["kind"] for q in questions} == KINDS
    assert len({q["id"] for q in questions}) == len(questions)
    cited: set[str] = set()
    expected = [q.get("expect", "") for q in questions]
    assert expected.count("not_in_documents") >= 5 and expected.count("false_premise") >= 5
    for question in questions:
        assert question["shelf"] == "northwind"
        if question.get("expect") == "not_in_documents":
            assert question["must"] == [], f"{question['id']}: a question the shelf does not answer has no must items"
            continue
        docs = {e["doc"] for m in question["must"] for e in m["evidence"]}
        assert len(docs) >= 2, f"{question['id']} is not cross-document"
        cited |= docs
        for must in question["must"]:
            assert must["item"] and must["evidence"]
            for evidence in must["evidence"]:
                assert (SHELF / evidence["doc"]).is_file(), evidence["doc"]
                assert evidence["heading"].strip() and evidence["quote"].strip()
    assert cited == {f"documents/{p.name}" for p in DOCUMENTS.iterdir()}, "every document is evidence somewhere"


def test_every_gold_quote_stands_in_exactly_one_section_with_its_heading(tmp_path: Path) -> None:
    pytest.importorskip("docling")
    from shelfwise.eval.bench.structure import run

    result = run(SHELF / "questions.yaml", ROOT.parent / "shared" / "corpora", SHELF)
    reasons = [f"{f['id']} {f['doc']} [{f['heading']}]: {f['reason']}" for f in result["failures"]]
    assert not reasons, "\n".join(reasons)
    assert result["entries"] >= 60
