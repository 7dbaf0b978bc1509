"""Numeric tables in PDFs: statement tables drawn with reportlab, read back as grids with one header per column."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf import read_text_layer
from shelfwise.compiler.ingest.sections import build_sections

HEIGHT = 842
COLUMNS = [250, 330, 410, 490]  # right edges of the four figure columns
ROWS = [  # label, then each column's (sign, figure, suffix)
    ("Net sales:", None),
    ("Products", [("$", "1,234", ""), ("$", "1,100", ""), ("$", "3,456", ""), ("$", "3,210", "")]),
    ("Services", [("", "567", ""), ("", "498", ""), ("", "1,602", ""), ("", "1,455", "")]),
    ("Other income/(expense), net", [("", "(45)", ""), ("", "12", ""), ("", "(101)", ""), ("", "(7)", "")]),
    ("Gross margin percentage", [("", "42.5", "%"), ("", "41.0", "%"), ("", "43.1", "%"), ("", "40.2", "%")]),
    ("Net income", [("$", "1,801", ""), ("$", "1,610", ""), ("$", "5,058", ""), ("$", "4,665", "")]),
]


def _statement(path: Path, shaded: bool) -> None:
    """A statement of operations: two-level column headers above the body, '$' at the left of its column,
    parenthesised negatives, '%' set apart; with ``shaded``, every other body row on a grey band (as filings draw)."""
    pdf = canvas.Canvas(str(path), pagesize=(595, HEIGHT))
    pdf.setFont("Helvetica-Bold", 10)
    pdf.drawCentredString(300, HEIGHT - 60, "CONDENSED STATEMENTS OF OPERATIONS")
    pdf.setFont("Helvetica", 8)
    pdf.drawCentredString(300, HEIGHT - 74, "(In millions, except percentages)")
    pdf.drawCentredString((COLUMNS[0] + COLUMNS[1]) / 2 - 20, HEIGHT - 100, "Three Months Ended")
    pdf.drawCentredString((COLUMNS[2] + COLUMNS[3]) / 2 - 20, HEIGHT - 100, "Nine Months Ended")
    for right, date in zip(COLUMNS, ["March 30,", "March 25,", "March 30,", "March 25,"]):
        pdf.drawRightString(right - 8, HEIGHT - 112, date)
    for right, year in zip(COLUMNS, ["2024", "2023", "2024", "2023"]):
        pdf.drawRightString(right - 14, HEIGHT - 122, year)
    y = HEIGHT - 140
    for index, (label, cells) in enumerate(ROWS):
        if shaded and index % 2 == 0:
            pdf.setFillGray(0.85)
            pdf.rect(40, y - 3, 470, 12, stroke=0, fill=1)
            pdf.setFillGray(0)
        pdf.drawString(50, y, label)
        for right, (sign, figure, suffix) in zip(COLUMNS, cells or []):
            if sign:
                pdf.drawString(right - 62, y, sign)
            pdf.drawRightString(right - 4 if not suffix else right - 12, y, figure)
            if suffix:
                pdf.drawString(right - 9, y, suffix)
        y -= 12
    pdf.drawString(50, y - 20, "See accompanying notes.")
    pdf.save()


@pytest.mark.parametrize("shaded", [True, False], ids=["shaded-rows", "no-rules"])
def test_statement_table_is_one_grid_with_a_header_per_column(tmp_path: Path, shaded: bool) -> None:
    path = tmp_path / "statement.pdf"
    _statement(path, shaded)
    converted = read_text_layer(path, ReadOptions())
    tables = [e for e in converted.elements if e.kind == "table"]
    assert len(tables) == 1
    table = tables[0]
    assert table.header_rows == 1
    assert table.rows[0] == ["", "Three Months Ended › March 30, 2024", "Three Months Ended › March 25, 2023",
                             "Nine Months Ended › March 30, 2024", "Nine Months Ended › March 25, 2023"]
    assert table.rows[1:] == [
        ["Net sales:", "", "", "", ""],
        ["Products", "$ 1,234", "$ 1,100", "$ 3,456", "$ 3,210"],
        ["Services", "567", "498", "1,602", "1,455"],
        ["Other income/(expense), net", "(45)", "12", "(101)", "(7)"],
        ["Gross margin percentage", "42.5%", "41.0%", "43.1%", "40.2%"],
        ["Net income", "$ 1,801", "$ 1,610", "$ 5,058", "$ 4,665"],
    ]
    paragraphs = " ".join(e.text for e in converted.elements if e.kind != "table")
    assert "Three Months Ended" not in paragraphs and "1,234" not in paragraphs  # the header and rows left the text flow
    assert "(In millions, except percentages)" in paragraphs and "See accompanying notes." in paragraphs


def test_statement_rows_reach_the_section_text_under_their_header(tmp_path: Path) -> None:
    """Search, the ledger and the checker read a table block's text: the header line first, each row aligned to it."""
    path = tmp_path / "statement.pdf"
    _statement(path, True)
    sections, _ = build_sections("statement-pdf", read_text_layer(path, ReadOptions()))
    block = next(b for s in sections for b in s.blocks if b.kind == "table")
    lines = block.text.split("\n")
    assert lines[0] == " | Three Months Ended › March 30, 2024 | Three Months Ended › March 25, 2023 | Nine Months Ended › March 30, 2024 | Nine Months Ended › March 25, 2023"
    assert "Products | $ 1,234 | $ 1,100 | $ 3,456 | $ 3,210" in lines
    assert block.header_rows == 1


def test_a_long_table_is_split_into_passages_each_under_its_header(tmp_path: Path) -> None:
    from shelfwise.compiler.index.passages import PassageSizing, build_passages
    from shelfwise.compiler.store.records import Block, Section

    header = ["", "Three Months Ended › March 30, 2024", "Three Months Ended › March 25, 2023"]
    rows = [header, *[[f"Line item {n}", f"$ {n},{n:03d}", f"({n * 7})"] for n in range(1, 61)]]
    block = Block(kind="table", text="\n".join(" | ".join(r) for r in rows), rows=rows, header_rows=1)
    section = Section(id="s1", doc_id="d", parent_id=None, seq=1, level=1, heading="Statements", heading_path=["Statements"], blocks=[block])
    sizing = PassageSizing(window_tokens=120, count_tokens=lambda text: len(text.split()) + 2)
    passages = build_passages("Report", [section], sizing)
    assert len(passages) > 2
    for passage in passages:
        body = passage.text.split("\n\n", 1)[1]
        assert body.startswith("| Three Months Ended › March 30, 2024 | Three Months Ended › March 25, 2023\n")
    bodies = "\n".join(p.text for p in passages)
    assert all(f"Line item {n} | $ {n},{n:03d} | ({n * 7})" in bodies for n in range(1, 61))  # every row whole, once at least


def test_the_site_shows_a_statement_table_with_its_column_headers_and_figures_aligned(tmp_path: Path) -> None:
    from shelfwise.compiler.publish.page_tables import table_html

    path = tmp_path / "statement.pdf"
    _statement(path, True)
    table = next(e for e in read_text_layer(path, ReadOptions()).elements if e.kind == "table")
    markup, written = table_html(table.rows, table.header_rows, "s1", 1)
    assert written == 7
    assert '<thead>\n<tr id="s1-r1"><th scope="col"></th><th scope="col">Three Months Ended › March 30, 2024</th>' in markup
    assert '<th scope="row" class="sw-nw">Products</th><td class="sw-nw sw-num">$ 1,234</td>' in markup
    assert '<td class="sw-nw sw-num">(45)</td>' in markup and '<td class="sw-nw sw-num">42.5%</td>' in markup


TWO_COLUMNS = [350, 430]  # right edges of two figure columns


def _figures_page(path: Path, headers: list[str], rows) -> tuple[canvas.Canvas, float]:
    """A page of 8-point rows, each a label at the left and its figures right-aligned in ``TWO_COLUMNS`` under
    ``headers``; the canvas (not saved) and the height under the last row."""
    pdf = canvas.Canvas(str(path), pagesize=(595, HEIGHT))
    pdf.setFont("Helvetica", 8)
    for right, header in zip(TWO_COLUMNS, headers):
        pdf.drawRightString(right - 4, HEIGHT - 100, header)
    y = HEIGHT - 114
    for label, figures in rows:
        pdf.drawString(50, y, label)
        for right, figure in zip(TWO_COLUMNS, figures or []):
            pdf.drawRightString(right - 4, y, figure)
        y -= 12
    return pdf, y


def test_a_wrapped_label_carrying_a_figure_and_a_footnote_below_keep_their_places(tmp_path: Path) -> None:
    """A label wrapped onto its row's line ('... net of tax of $76, and' / '$4  (2,142)  ...') is one label; a
    footnote under the table ('(1) Amounts ...') stays text and does not merge the figure columns."""
    path = tmp_path / "comprehensive.pdf"
    rows = [("Net income (1)", ["$ 2,872", "$ 9,879"]), ("Foreign currency translation, net of tax of $76, and", None),
            ("$4", ["(2,142)", "(1,388)"]), ("Unrealized gains (losses), net", ["(195)", "62"]), ("Comprehensive income", ["$ 539", "$ 8,556"])]
    pdf, y = _figures_page(path, ["2024", "2023"], rows)
    pdf.drawString(50, y - 8, "(1) Amounts include the effect of a change in accounting for leases, applied to every period shown.")
    pdf.save()
    converted = read_text_layer(path, ReadOptions())
    table = next(e for e in converted.elements if e.kind == "table")
    assert table.rows == [
        ["", "2024", "2023"],
        ["Net income (1)", "$ 2,872", "$ 9,879"],
        ["Foreign currency translation, net of tax of $76, and $4", "(2,142)", "(1,388)"],
        ["Unrealized gains (losses), net", "(195)", "62"],
        ["Comprehensive income", "$ 539", "$ 8,556"],
    ]
    assert any(e.kind != "table" and "Amounts include the effect" in e.text for e in converted.elements)


def test_a_label_set_a_line_above_its_figures_labels_them(tmp_path: Path) -> None:
    """A row label set higher than its figures, on a line of its own ("Total cash and investments 1", lifted by its
    note mark in Intel's 10-Q), labels the line of figures under it: the row was read as a label with no figures over
    figures with no label, and an answer quoting "| $ 25,088 | $ 28,801" did not say what they were. A group label
    ending in a colon ("Net sales:") still stands over the labelled rows it opens."""
    path = tmp_path / "lifted.pdf"
    pdf, y = _figures_page(path, ["Sep 30, 2023", "Dec 31, 2022"], [
        ("Net sales:", None), ("Cash and cash equivalents", ["$ 7,621", "$ 11,144"]), ("Short-term investments", ["17,409", "17,194"])])
    pdf.drawString(50, y + 4, "Total cash and investments 1")  # a line of its own, above its figures
    for right, figure in zip(TWO_COLUMNS, ["$ 25,088", "$ 28,801"]):
        pdf.drawRightString(right - 4, y - 6, figure)
    y -= 18
    pdf.drawString(50, y, "Total debt")
    for right, figure in zip(TWO_COLUMNS, ["$ 48,879", "$ 42,051"]):
        pdf.drawRightString(right - 4, y, figure)
    pdf.save()
    table = next(e for e in read_text_layer(path, ReadOptions()).elements if e.kind == "table")
    assert table.rows == [
        ["", "Sep 30, 2023", "Dec 31, 2022"],
        ["Net sales:", "", ""],
        ["Cash and cash equivalents", "$ 7,621", "$ 11,144"],
        ["Short-term investments", "17,409", "17,194"],
        ["Total cash and investments 1", "$ 25,088", "$ 28,801"],
        ["Total debt", "$ 48,879", "$ 42,051"],
    ], table.rows


def test_a_statement_with_one_column_of_figures_is_a_table_and_the_paragraph_above_stays_text(tmp_path: Path) -> None:
    """A rollforward sets each label beside one amount at the right ("Cash payments   (923)"). A numeric table needed
    two figures a line, so the statement was read as label and figure paragraphs by turns ("Adjustments", "56", "Cash
    payments", "(923)") and no answer could quote a balance with what it is. Three such lines, their amounts aligned,
    are now a table; the lines of the paragraph above it, ending left of the figures, stay the paragraph's."""
    path = tmp_path / "rollforward.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(595, HEIGHT))
    pdf.setFont("Helvetica", 8)
    y = HEIGHT - 100
    for line in ["We expect actions under the restructuring program to be substantially completed by the end of the year",
                 "and to reduce our cost structure.", "Restructuring activity during the first nine months was as follows:"]:
        pdf.drawString(50, y, line)
        y -= 11
    pdf.drawString(50, y - 4, "(In Millions)")
    y -= 18
    rows = [("Accrued restructuring balance as of December 31", "$ 873"), ("Additional accruals", "130"), ("Adjustments", "56"),
            ("Cash payments", "(923)"), ("Accrued restructuring balance as of September 30", "$ 136")]
    for label, figure in rows:
        pdf.drawString(50, y, label)
        pdf.drawRightString(500, y, figure)
        y -= 11
    pdf.drawString(50, y - 12, "The balances are recorded as current liabilities within accrued compensation and benefits.")
    pdf.save()
    elements = read_text_layer(path, ReadOptions()).elements
    table = next(e for e in elements if e.kind == "table")
    assert table.rows[-5:] == [list(row) for row in rows], table.rows
    assert not any("restructuring program" in " ".join(row).lower() or "as follows" in " ".join(row) for row in table.rows), table.rows
    text = " ".join(e.text for e in elements if e.kind != "table")
    assert "by the end of the year and to reduce our cost structure." in text and "was as follows:" in text, text


def test_a_schedule_of_one_row_under_its_years_is_a_table(tmp_path: Path) -> None:
    """Amazon's 10-Q gives the scheduled vesting of its restricted stock units as one row of figures under a line of
    years ("2023 2024 2025 2026 2027 Thereafter Total"); no run of rows seeded it, and it read as "2023 2024 ... Total",
    "Scheduled vesting — restricted stock units 70.7", "224.5 128.6 ...". It is a table whose header is the years.
    A line of years over prose, and a chart's axis over key figures, stay text."""
    path = tmp_path / "schedule.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(595, HEIGHT))
    pdf.setFont("Helvetica", 8)
    years = ["2023", "2024", "2025", "2026", "2027", "Thereafter", "Total"]
    figures = ["70.7", "224.5", "128.6", "47.0", "7.4", "3.3", "481.5"]
    centres = [247, 308, 358, 408, 458, 510, 566]
    pdf.drawString(40, HEIGHT - 100, "Scheduled vesting for outstanding restricted stock units is as follows (in millions):")
    for centre, year, figure in zip(centres, years, figures):
        pdf.drawCentredString(centre, HEIGHT - 130, year)
        pdf.drawRightString(centre + 21, HEIGHT - 142, figure)
    pdf.drawString(19, HEIGHT - 142, "Scheduled vesting — restricted stock units")
    pdf.drawString(40, HEIGHT - 200, "2021 2022 2023 were the years of the program, and each of them closed with a review.")
    pdf.drawString(40, HEIGHT - 211, "The review of the program found that the units vested as planned in each of the years.")
    for centre, period, figure in zip([100, 200, 300], ["Q1 2022", "Q1 2023", "Q1 2023"], ["$11.7B", "34.2%", "38.4%"]):
        pdf.drawCentredString(centre, HEIGHT - 260, period)
        pdf.drawCentredString(centre, HEIGHT - 272, figure)
    pdf.save()
    elements = read_text_layer(path, ReadOptions()).elements
    tables = [e for e in elements if e.kind == "table"]
    assert [t.rows for t in tables] == [[["", *years], ["Scheduled vesting — restricted stock units", *figures]]], [(e.kind, e.text[:50]) for e in elements]
    assert tables[0].header_rows == 1
    text = " ".join(e.text for e in elements)
    assert "2021 2022 2023 were the years of the program" in text and "$11.7B" in text
