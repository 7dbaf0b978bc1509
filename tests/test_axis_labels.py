"""A chart's titles and axis labels, read as a line of text ("Cash from Operations $B Capital Expenditures $B"), are
never shown: they name measures and give no figure (``unit_shape.axis_labels``, ``without_axis_labels``)."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from shelfwise.api.answer.write.unit_shape import axis_labels
from shelfwise.api.server.app import create_app
from shelfwise.compiler.build import build_shelf
from shelfwise.compiler.index.indexes import index_stage
from shelfwise.compiler.settings import Settings
from tests.answer_shelves import HashEmbedder


@pytest.mark.parametrize("text, labels", [
    ("Cash from Operations $B Capital Expenditures $B", True),
    ("DCAI Operating Income (Loss) $B", True),
    ("GAAP $B ■ GAAP ■ Non-GAAP", True),
    ("P % Golden Retrieved Context at Training", True),
    ("Research and Development $B", True),
    ("Dividends $B", True),
    ("B ABLATION STUDY ON CLUSTERING MECHANISM IN RAPTOR", False),  # an appendix's letter is no unit of measure
    ("Revenue was $12.9 billion, down 8%.", False),
    ("Total Revenue $B 12.9", False),  # a figure: a chart's value, kept
    ("Gross margin %", False),
    ("Operating cash flow is reported in $B.", False),  # a sentence
])
def test_a_charts_labels_are_told_from_a_statement(text, labels):
    assert axis_labels(text) is labels


def test_a_charts_labels_go_whatever_kind_of_unit_the_reader_made_of_them():
    from types import SimpleNamespace

    from shelfwise.api.answer.write.unit_shape import without_axis_labels

    units = [SimpleNamespace(kind=kind, text=text) for kind, text in [
        ("step", "\u25a0 Operating Cash Flow $B"),  # a legend's bullet in a section whose items are numbered: a step
        ("list_item", "Dividends $B"), ("sentence", "Cash from Operations $B Capital Expenditures $B"),
        ("step", "Operating cash flow was $6.8B, down $0.9B."), ("table_row", "| Cash flow $B | 6.8 |")]]
    assert without_axis_labels(units, {i: 0 for i in range(len(units))}) == {3: 0, 4: 0}


def test_an_answer_shows_the_sentence_beside_a_chart_not_its_labels(tmp_path):
    """The labels hold every word of the question and rank first; the answer shows the sentence of their section that
    gives the figures, not the labels (before: the labels stood first in the answer)."""
    shelf = tmp_path / "reports"
    shelf.mkdir()
    (shelf / "results.md").write_text(
        "# Quarterly Results\n\n## Cash Flows\n\nCash from Operations $B Capital Expenditures $B\n\n"
        "Cash from operations was $6.8 billion and capital expenditures were $18.2 billion in the first nine months.\n\n"
        "## Outlook\n\nWe expect demand to recover in the second half.\n", encoding="utf-8")
    settings = Settings.model_validate({"build_dir": str(tmp_path / "build"), "api": {
        "trace_db": str(tmp_path / "traces.sqlite"), "tokens": [{"name": "reader", "token": "reader-secret", "shelves": ["reports"]}]}})
    report = build_shelf(shelf, settings, progress=lambda line: None, stages=[index_stage(HashEmbedder())])
    assert not report.failed, report.render()
    with TestClient(create_app(settings, chat=None, embedder=HashEmbedder(), stores={"reports": tmp_path / "build" / "reports"})) as client:
        client.headers["Authorization"] = "Bearer reader-secret"
        body = client.post("/api/ask", json={"question": "What were the cash from operations and the capital expenditures?",
                                             "shelf": "reports"}).json()
    shown = [s["text"] for s in body["sentences"] if s["citations"]]
    assert shown and not any("$B" in t for t in shown), shown
    assert any(t.startswith("Cash from operations was $6.8 billion") for t in shown), shown
