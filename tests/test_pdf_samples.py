"""The PDF reader on a varied set of generated PDFs (tests/pdf_samples.py): headings and words recovered per document."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf import read

sys.path.insert(0, str(Path(__file__).parent))
from pdf_samples import Sample, score, write_samples  # noqa: E402

EXPECTED = {
    "bold-numbered-report", "two-column-paper", "handbook-parts", "contents-report", "roman-sections",
    "korean-report", "chinese-report", "arabic-notice", "hebrew-guide",
}


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Sample]:
    return {sample.name: sample for sample in write_samples(tmp_path_factory.mktemp("samples"))}


def test_every_sample_was_drawn(samples: dict[str, Sample]) -> None:
    assert EXPECTED <= set(samples), "DejaVu fonts (fonts-dejavu-core) are needed for the Arabic and Hebrew samples"


@pytest.mark.parametrize("name", sorted(EXPECTED) + ["libreoffice-docx"])
def test_headings_and_words_are_recovered(samples: dict[str, Sample], name: str) -> None:
    if name not in samples:
        pytest.skip("soffice is not installed: no LibreOffice-made PDF")
    result = score(samples[name], read(samples[name].path, ReadOptions()))
    assert result["heading_recall"] >= 0.9, (result["found"], result["wanted"])
    assert result["heading_precision"] >= 0.8, (result["found"], result["wanted"])
    assert result["word_recall"] >= 0.95


def test_levels_follow_the_numbering_scheme(samples: dict[str, Sample]) -> None:
    korean = read(samples["korean-report"].path, ReadOptions())
    levels = {e.text: e.level for e in korean.elements if e.kind == "heading"}
    assert (levels["제1장 총칙"], levels["1. 목적"], levels["제2장 감독 현황"]) == (1, 2, 1)
    report = read(samples["bold-numbered-report"].path, ReadOptions())
    levels = {e.text: e.level for e in report.elements if e.kind == "heading"}
    assert (levels["1 Introduction"], levels["1.1 Scope of the review"], levels["Appendix A Method"]) == (1, 2, 1)
    chinese = read(samples["chinese-report"].path, ReadOptions())
    levels = {e.text: e.level for e in chinese.elements if e.kind == "heading"}
    assert (levels["第一章 总则"], levels["1.1 适用范围"], levels["第二章 经营情况"]) == (1, 2, 1)
    roman = read(samples["roman-sections"].path, ReadOptions())
    levels = {e.text: e.level for e in roman.elements if e.kind == "heading"}
    assert levels["I. BACKGROUND"] < levels["A. Scope"]


def test_right_to_left_lines_read_in_logical_order_with_the_latin_name_intact(samples: dict[str, Sample]) -> None:
    arabic = read(samples["arabic-notice"].path, ReadOptions())
    text = "\n".join(e.text for e in arabic.elements)
    assert "تحديث برنامج التشغيل لجهاز NW-300 Pump في جميع المستشفيات" in text
    hebrew = read(samples["hebrew-guide"].path, ReadOptions())
    assert "המדריך מתאר את התקנת מערכת Shelfwise Server בבית החולים." in [e.text for e in hebrew.elements][2]


def test_numbered_list_items_are_not_headings(samples: dict[str, Sample]) -> None:
    report = read(samples["bold-numbered-report"].path, ReadOptions())
    items = [e.text for e in report.elements if e.kind == "list_item"]
    assert items == ["1) Register the claim in the ledger.", "2) Assess the damage on site.", "3) Approve the payment.", "4) Close the file."]


def test_right_to_left_paragraphs_join_their_right_aligned_lines(samples: dict[str, Sample]) -> None:
    hebrew = read(samples["hebrew-guide"].path, ReadOptions())
    from pdf_samples import HE_BODY

    assert [e.text for e in hebrew.elements if e.kind == "paragraph"].count(HE_BODY) == 4
