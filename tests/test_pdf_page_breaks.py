"""What a page break does to a PDF printed from HTML: its footer floats under each page's last paragraph, and a table
running on to the next page repeats no header. Drawn with reportlab, read back by the text-layer reader."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfgen import canvas
from reportlab.platypus import Table, TableStyle

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf import read_text_layer

WIDTH, HEIGHT = 612, 792


def test_a_footers_words_beside_its_page_number_are_furniture_wherever_the_row_stands(tmp_path: Path) -> None:
    """Intel's 10-Q sets its part's name left of the page number under each page's last paragraph ("MD&A ... 38"), at
    every height. The number was dropped and the name kept: read as a heading atop every page, it cut the part's
    sections at each page and glued "MD&A" to paragraphs. Words repeated elsewhere on the pages, not on the number's
    row, stay; so does a heading the footer's words also name, set where headings stand."""
    path = tmp_path / "footer.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    for number in range(1, 5):
        y = HEIGHT - 90
        if number == 1:
            page.setFont("Helvetica-Bold", 14)
            page.drawString(72, y, "Management's Discussion and Analysis")
            y -= 24
        page.setFont("Helvetica", 10)
        for line in range(3 + 2 * number):  # pages of different lengths: the footer moves up and down
            page.drawString(72, y, f"Page {number} line {line} says what drove the quarter's revenue and its margins.")
            y -= 14
        page.drawString(72, y - 6, "Segment results follow the overview.")  # repeated, off the footer's row: content
        page.setFont("Helvetica-Bold", 7)
        page.drawString(72, y - 40, "MD&A")
        page.setFont("Helvetica", 7)
        page.drawRightString(WIDTH - 72, y - 40, str(number + 20))
        page.showPage()
    page.save()
    elements = read_text_layer(path, ReadOptions()).elements
    assert not any("MD&A" in element.text for element in elements), [(e.kind, e.text[:40]) for e in elements if "MD&A" in e.text]
    assert sum(element.text.count("Segment results follow the overview.") for element in elements) == 4
    assert [e.text for e in elements if e.kind == "heading"] == ["Management's Discussion and Analysis"]


def _table(pdf: canvas.Canvas, rows: list[list[str]], top: float) -> None:
    table = Table(rows, colWidths=[150, 170, 170])
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("FONT", (0, 0), (-1, -1), "Helvetica", 8)]))
    _, height = table.wrapOn(pdf, WIDTH, HEIGHT)
    table.drawOn(pdf, 72, top - height)


HEADER = ["Measure", "Definition", "Why it is used"]
FIRST = [["Gross margin", "Revenue less the cost of sales.", "It shows pricing power."],
         ["Free cash flow", "Operating cash flow less capital spending.", "It shows cash for owners."]]
SECOND = [["Restructuring charges", "Costs of a formal restructuring plan.", "They recur in no quarter."],
          ["Share-based pay", "Charges of the employee equity plans.", "Peers report it apart."]]


def test_a_table_a_page_break_cut_gets_its_header_on_the_next_page(tmp_path: Path) -> None:
    """The part of a table on the next page (no header repeated: "Restructuring charges | Costs of ... | ...") was read
    as a table whose header was its first row. It now carries the header of the part above it; a table opening the
    page after with a header of its own ("Term | Meaning | Source") keeps it."""
    path = tmp_path / "continued.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, 700, "The non-GAAP measures we use are defined below.")
    _table(pdf, [HEADER, *FIRST], 140)
    pdf.showPage()
    _table(pdf, SECOND, HEIGHT - 72)
    pdf.showPage()
    _table(pdf, [["Term", "Meaning", "Source"], ["YTD", "The year so far.", "Internal glossary."],
                 ["GAAP", "US accounting principles.", "The FASB codification."]], HEIGHT - 72)
    pdf.save()
    tables = [e for e in read_text_layer(path, ReadOptions()).elements if e.kind == "table"]
    assert [(t.page, t.header_rows, t.rows[0]) for t in tables] == [(1, 1, HEADER), (2, 1, HEADER), (3, 1, ["Term", "Meaning", "Source"])], \
        [(t.page, t.header_rows, t.rows) for t in tables]
    assert tables[1].rows[1:] == SECOND


def test_a_ruled_tables_columns_empty_in_every_row_are_dropped(tmp_path: Path) -> None:
    """The ruled-table finder splits a cell at each rule it crosses: HIPAA's guide read "|  | Key Activities |  |  |
    Description |  |" in 62 tables. A column empty in every row, its header's too, says nothing and goes."""
    path = tmp_path / "spacers.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    rows = [["", "Key Activities", "", "Description", ""],
            ["", "1. Identify Relevant Information Systems", "", "Identify all information systems that house EPHI.", ""],
            ["", "2. Conduct Risk Assessment", "", "Assess potential risks and vulnerabilities to EPHI.", ""]]
    table = Table(rows, colWidths=[20, 170, 20, 230, 20])
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("FONT", (0, 0), (-1, -1), "Helvetica", 8)]))
    _, height = table.wrapOn(pdf, WIDTH, HEIGHT)
    table.drawOn(pdf, 72, HEIGHT - 100 - height)
    pdf.save()
    tables = [e for e in read_text_layer(path, ReadOptions()).elements if e.kind == "table"]
    assert [t.rows for t in tables] == [[[cell for cell in row if cell] for row in rows]], [t.rows for t in tables]
