"""Charts drawn as text in a PDF: a bridge (waterfall) chart's lines each led by an amount are a table of label and
amount; a diagram's labels in small type about a small embedded picture belong to its figure, not to the section's
prose. Drawn with reportlab, read back by the text-layer reader."""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf import read_text_layer

WIDTH, HEIGHT = 612, 792
BRIDGE = [("$", "6,535", "Q3 2022 Gross Margin"), ("", "(1,350)", "Lower gross margin from server revenue"),
          ("", "(329)", "Higher period charges from the ramp of the new process"), ("", "152", "Lower incentive-based cash compensation charges"),
          ("", "23", "Other"), ("$", "10,746", "Q3 2021 Gross Margin"), ("$", "21,366", "YTD 2022 Gross Margin"),
          ("", "(2,340)", "Lower gross margin from notebook and desktop revenue, partially offset by higher margin from"),
          ("", "325", "Higher gross margin from Ethernet revenue"), ("$", "32,806", "YTD 2021 Gross Margin")]


def _lines(pdf: canvas.Canvas, y: float, led: list[tuple[str, str]], size: float = 7.2) -> float:
    """Lines each led by a figure right-aligned at x=74, its text from x=82; the height under the last one."""
    pdf.setFont("Helvetica", size)
    for figure, label in led:
        pdf.drawRightString(74, y, figure)
        pdf.drawString(82, y, label)
        y -= 10
    return y


def test_a_bridge_charts_lines_led_by_amounts_are_a_table_of_label_and_amount(tmp_path: Path) -> None:
    """Intel's 10-Q explains its gross margin and each segment's operating income with a bridge chart set as text, as
    here: the periods' amounts in bold, their "$" apart at the margin, the changes right-aligned (a closing parenthesis
    hanging past the digits), what each is beside it. Read as lines, the chart was one paragraph ("(1,350) Lower gross
    margin ... (329) Higher period charges ...") that no answer could quote a driver and its amount from, and the
    aligned-column finder cut a table of "$ | 10,746 | Q3 2021 Gross Margin" out of its middle. It is one table of
    label and amount; a label wrapped onto the next line stays with its row; the paragraphs about it stay paragraphs."""
    path = tmp_path / "bridge.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica", 9)
    pdf.drawString(24, HEIGHT - 230, "Our overall gross margin dollars in Q3 2022 decreased by $4.2 billion, or 39%, compared to Q3 2021.")
    y = HEIGHT - 260
    for sign, figure, label in BRIDGE:
        pdf.setFont("Helvetica-Bold" if sign else "Helvetica", 6.9)
        if sign:
            pdf.drawString(24.4, y, sign)
        pdf.drawRightString(89.3 if figure.endswith(")") else 87.4, y, figure)
        pdf.drawString(95.8, y, label)
        if label.endswith("from"):
            y -= 9.2
            pdf.drawString(95.8, y, "desktop revenue")
        y -= 12 if sign else 9.2
    pdf.setFont("Helvetica", 9)
    pdf.drawString(24, y - 20, "Revenue of the segment decreased in the quarter as notebook volumes fell.")
    pdf.save()
    elements = read_text_layer(path, ReadOptions()).elements
    tables = [e for e in elements if e.kind == "table"]
    assert len(tables) == 1, [(e.kind, e.text[:60], e.rows) for e in elements]
    assert tables[0].rows == [
        ["Q3 2022 Gross Margin", "$ 6,535"],
        ["Lower gross margin from server revenue", "(1,350)"],
        ["Higher period charges from the ramp of the new process", "(329)"],
        ["Lower incentive-based cash compensation charges", "152"],
        ["Other", "23"],
        ["Q3 2021 Gross Margin", "$ 10,746"],
        ["YTD 2022 Gross Margin", "$ 21,366"],
        ["Lower gross margin from notebook and desktop revenue, partially offset by higher margin from desktop revenue", "(2,340)"],
        ["Higher gross margin from Ethernet revenue", "325"],
        ["YTD 2021 Gross Margin", "$ 32,806"],
    ]
    texts = [e.text for e in elements if e.kind != "table"]
    assert "Our overall gross margin dollars in Q3 2022 decreased by $4.2 billion, or 39%, compared to Q3 2021." in texts
    assert "Revenue of the segment decreased in the quarter as notebook volumes fell." in texts


def test_numbered_lines_and_an_index_of_exhibits_are_no_bridge(tmp_path: Path) -> None:
    """Lines led by numbers that are no amounts stay text: a contents page's section numbers and footnotes, each the
    one before plus one, and an exhibit index, whose numbers never fall ("3.1 Amended and Restated Bylaws")."""
    path = tmp_path / "numbered.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    y = _lines(pdf, HEIGHT - 100, [("2.1", "What a Rule Looks Like"), ("2.2", "A Simple Makefile"), ("2.3", "How make Processes a Makefile")])
    y = _lines(pdf, y - 30, [("13", "See Section 4.5, Security Standards"), ("14", "See Section 4.21, Device Controls"), ("15", "See Key Activity 4.1.3")])
    _lines(pdf, y - 30, [("3.1", "Amended and Restated Certificate of Incorporation"), ("3.2", "Amended and Restated Bylaws"),
                         ("10.1", "Term Loan Agreement, dated as of January 3, 2023"), ("31.1", "Certification of the Chief Executive Officer")])
    pdf.save()
    elements = read_text_layer(path, ReadOptions()).elements
    assert not [e for e in elements if e.kind == "table"], [(e.kind, e.text[:60], e.rows) for e in elements if e.kind == "table"]
    text = " ".join(e.text for e in elements)
    assert "2.2 A Simple Makefile" in text and "14 See Section 4.21" in text and "3.2 Amended and Restated Bylaws" in text


def test_a_diagrams_labels_about_a_small_picture_belong_to_its_figure(tmp_path: Path) -> None:
    """RAPTOR's Figure 1 draws its tree with labels in 5-point type ("Root layer", "Leaf layer", "Text chunks")
    about a small embedded picture; the labels were read as paragraphs of the introduction ("7 8 Index #8", "Text
    chunks"). They now belong to the figure; the paragraph above it, in the body's type, stays."""
    path = tmp_path / "diagram.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Times-Roman", 10)
    pdf.drawString(108, HEIGHT - 80, "Our system clusters the chunks of the text, then summarises each of the clusters and repeats, from the")
    pdf.drawString(108, HEIGHT - 92, "bottom up, until one root remains.")
    pdf.setFont("Helvetica", 5)
    pdf.drawString(170, HEIGHT - 140, "Root layer    9    10    2. Summarization")
    pdf.drawString(330, HEIGHT - 150, "7 8 Index #8")
    pdf.drawImage(ImageReader(Image.new("RGB", (60, 40), (40, 90, 200))), 400, HEIGHT - 230, width=56, height=42)
    pdf.drawString(160, HEIGHT - 200, "Leaf layer    1    2    3    4    5")
    pdf.drawString(320, HEIGHT - 236, "Text chunks")
    pdf.setFont("Times-Roman", 10)
    pdf.drawString(108, HEIGHT - 262, "Figure 1: Tree construction process: the tree is built from the bottom up, each layer summarising the")
    pdf.drawString(108, HEIGHT - 274, "clusters of the layer below it.")
    pdf.drawString(108, HEIGHT - 300, "Retrieval then reads the nodes of the tree that best match the question.")
    pdf.save()
    elements = read_text_layer(path, ReadOptions()).elements
    figures = [e for e in elements if e.kind == "figure"]
    assert len(figures) == 1 and figures[0].text.startswith("Figure 1: Tree construction process")
    prose = " ".join(e.text for e in elements if e.kind != "figure")
    for label in ("Root layer", "Index #8", "Leaf layer", "Text chunks"):
        assert label not in prose, prose
    assert "Our system clusters the chunks of the text, then summarises each of the clusters and repeats, from the bottom up, until one root remains." in prose
    assert "Retrieval then reads the nodes of the tree that best match the question." in prose
