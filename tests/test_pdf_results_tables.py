"""A paper's results table read from a PDF: measures under the models they belong to, row labels under group labels.

Adaptive-RAG's Table 1 sets three models ("FLAN-T5-XL (3B)") each centred over its five measures ("EM F1 Acc Step
Time"), and a column of group labels ("Simple", "Adaptive", "Complex") left of the methods, each on one row of its
group. The group labels made two pieces of text left of the figures, which the numeric-table reader took for prose
beside a table: its header lines and first row became paragraphs ("Types Methods EM F1 Acc Step Time") and the rest a
table headed by its first row of figures. Answers quoted the rows with no measure named.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen import canvas

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf import read_text_layer

HEIGHT = 842
MODELS = ["Model-S (3B)", "Model-M (11B)", "Model-L"]
MEASURES = ["EM", "F1", "Step"]
ROWS = [  # group label (on this row only), method, figures
    ("", "No Retrieval", ["14.87", "21.12", "0.00", "17.83", "25.14", "0.00", "35.77", "48.56", "0.00"]),
    ("Simple", "Single-step", ["34.83", "44.31", "1.00", "37.87", "47.63", "1.00", "34.73", "46.99", "1.00"]),
    ("", "Adaptive Retrieval", ["23.87", "32.24", "0.50", "26.93", "35.67", "0.50", "35.90", "48.20", "0.50"]),
    ("Adaptive", "Self-RAG", ["9.90", "20.79", "0.72", "10.87", "22.98", "0.74", "10.87", "22.98", "0.74"]),
    ("", "Ours", ["37.17", "46.94", "2.17", "38.90", "48.62", "1.35", "37.97", "50.91", "1.03"]),
    ("Complex", "Multi-step", ["39.00", "48.85", "4.69", "40.13", "50.09", "2.13", "38.13", "50.87", "2.81"]),
]
FIRST, STEP = 200, 38  # x of the first figure column's right edge, and between columns


def _results(path: Path, data_label: str = "") -> None:
    """The results table; ``data_label``: a third column of labels, left of the groups', set on the Self-RAG row only
    (Adaptive-RAG's Table 2 names the kind of datasets so: "Single-step  Adaptive  Self-RAG  2.20 ...")."""
    pdf = canvas.Canvas(str(path), pagesize=(595, HEIGHT))
    pdf.setFont("Times-Roman", 9)
    pdf.drawString(60, HEIGHT - 60, "Table 1: Averaged results with different models. We emphasize our results in bold.")
    pdf.setFont("Times-Roman", 7)
    for n, model in enumerate(MODELS):  # centred over its three measures, narrower than they are
        pdf.drawCentredString(FIRST + STEP * (3 * n + 1) - 8, HEIGHT - 80, model)
    pdf.drawString(60, HEIGHT - 90, "Types")
    pdf.drawString(100, HEIGHT - 90, "Methods")
    for column in range(9):
        pdf.drawRightString(FIRST + STEP * column, HEIGHT - 90, MEASURES[column % 3])
    y = HEIGHT - 102
    for group, method, figures in ROWS:
        if group:
            pdf.drawString(60, y, group)
        if data_label and method == "Self-RAG":
            pdf.drawString(14, y, data_label)
        pdf.drawString(100, y, method)
        for column, figure in enumerate(figures):
            pdf.drawRightString(FIRST + STEP * column, y, figure)
        y -= 10
    pdf.setFont("Times-Roman", 9)
    pdf.drawString(60, y - 20, "Adaptive retrieval lowers the steps taken against the multi-step approach.")
    pdf.save()


def test_a_third_column_of_labels_on_one_row_keeps_the_table_whole(tmp_path: Path) -> None:
    """With three pieces of text left of one row's figures, the rows of figures around it no longer made one run: the
    table stopped above that row and the rows below it were paragraphs ("Adaptive-RAG (Ours) 27.80 39.80 ...")."""
    path = tmp_path / "results.pdf"
    _results(path, data_label="Single-step")
    elements = read_text_layer(path, ReadOptions()).elements
    tables = [e for e in elements if e.kind == "table"]
    assert len(tables) == 1, [(e.kind, e.text[:60]) for e in elements]
    assert [row[0] for row in tables[0].rows[1:]] == ["No Retrieval", "Simple Single-step", "Adaptive Retrieval", "Single-step Adaptive Self-RAG", "Ours", "Complex Multi-step"]
    assert "37.17" not in " ".join(e.text for e in elements if e.kind != "table")


def _statement_rows(pdf: canvas.Canvas, rows: list[tuple[str, list[str]]], rights: list[int], top: float) -> None:
    """Rows of a label at the left margin and figures right-aligned at ``rights``, 12 points apart from ``top`` down."""
    for index, (label, figures) in enumerate(rows):
        y = top - 12 * index
        pdf.drawString(60, y, label)
        for right, figure in zip(rights, figures):
            pdf.drawRightString(right, y, figure)


def _text_columns(path: Path) -> None:
    """A table of two text columns and one of figures, both text cells filled on every row: no group labels."""
    pdf = canvas.Canvas(str(path), pagesize=(595, HEIGHT))
    pdf.setFont("Helvetica", 8)
    rows = [("Alpha", "North site", "1,200"), ("Beta", "South site", "950"), ("Gamma", "East site", "1,410"), ("Delta", "West site", "880")]
    for index, (name, site, figure) in enumerate(rows):
        y = HEIGHT - 100 - 12 * index
        pdf.drawString(60, y, name)
        pdf.drawString(160, y, site)
        pdf.drawRightString(330, y, figure)
        pdf.drawRightString(400, y, str(10 + index))
    pdf.save()


def test_a_results_table_names_each_measure_under_its_model_and_keeps_its_group_labels(tmp_path: Path) -> None:
    path = tmp_path / "results.pdf"
    _results(path)
    elements = read_text_layer(path, ReadOptions()).elements
    tables = [e for e in elements if e.kind == "table"]
    assert len(tables) == 1, [(e.kind, e.text[:60]) for e in elements]
    table = tables[0]
    assert table.header_rows == 1
    assert table.rows[0] == ["Types Methods", *(f"{model} › {measure}" for model in MODELS for measure in MEASURES)]
    labels = [row[0] for row in table.rows[1:]]
    assert labels == ["No Retrieval", "Simple Single-step", "Adaptive Retrieval", "Adaptive Self-RAG", "Ours", "Complex Multi-step"]
    assert table.rows[5][1:] == ROWS[4][2]
    text = " ".join(e.text for e in elements if e.kind != "table")
    assert "EM F1" not in text and "14.87" not in text
    assert "Adaptive retrieval lowers the steps" in text


def test_two_text_columns_filled_on_every_row_are_no_group_labels(tmp_path: Path) -> None:
    path = tmp_path / "sites.pdf"
    _text_columns(path)
    elements = read_text_layer(path, ReadOptions()).elements
    cells = [cell for e in elements if e.kind == "table" for row in e.rows for cell in row]
    assert "North site" in cells and "Alpha" in cells, [(e.kind, e.text[:60], getattr(e, "rows", None)) for e in elements]


def test_a_header_piece_over_one_column_of_each_group_names_that_column_only(tmp_path: Path) -> None:
    """Intel's statement of operations sets "% of Net" over each period's percentage, beside the period's amount: two
    pieces over four columns, but each over the right one of its pair, not centred over it. The amounts' headers stay
    free of it; the periods centred over their pairs name both."""
    path = tmp_path / "percentages.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(595, HEIGHT))
    pdf.setFont("Helvetica", 8)
    rights = [300, 370, 440, 510]
    for pair, period in enumerate(["Quarter ended Q3 2023", "Quarter ended Q3 2022"]):
        pdf.drawCentredString((rights[2 * pair] + rights[2 * pair + 1]) / 2 - 15, HEIGHT - 90, period)
        pdf.drawRightString(rights[2 * pair + 1], HEIGHT - 100, "% of Net")
        pdf.drawRightString(rights[2 * pair], HEIGHT - 110, "Amount")
        pdf.drawRightString(rights[2 * pair + 1], HEIGHT - 110, "Revenue")
    rows = [("Net revenue", ["$ 14,158", "100.0%", "$ 15,338", "100.0%"]), ("Cost of sales", ["8,140", "57.5", "9,774", "63.7"]),
            ("Gross margin", ["6,018", "42.5", "5,564", "36.3"]), ("Research and development", ["3,870", "27.3", "4,302", "28.0"])]
    _statement_rows(pdf, rows, rights, HEIGHT - 124)
    pdf.save()
    tables = [e for e in read_text_layer(path, ReadOptions()).elements if e.kind == "table"]
    assert len(tables) == 1 and tables[0].header_rows == 1
    header = tables[0].rows[0]
    assert [cell.replace(" › ", " ") for cell in header[1:]] == [
        "Quarter ended Q3 2023 Amount", "Quarter ended Q3 2023 % of Net Revenue", "Quarter ended Q3 2022 Amount", "Quarter ended Q3 2022 % of Net Revenue"], header


def test_a_groups_label_under_the_column_headers_keeps_the_headers_on_the_table(tmp_path: Path) -> None:
    """HyDE's Table 1 opens its body with a group's label, "w/o relevance judgement", set at the row labels' left edge
    and running over the first figure column. The table stopped under it: the label and the headers above it
    ("DL19 DL20", "map ndcg@10 recall@1k ...") were one paragraph, the table headless. A sentence set right above a
    table with no header over it stays text."""
    path = tmp_path / "web.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(595, HEIGHT))
    pdf.setFont("Times-Roman", 8)
    rights = [240, 290, 340, 390]
    pdf.drawCentredString(255, HEIGHT - 80, "DL19")
    pdf.drawCentredString(355, HEIGHT - 80, "DL20")
    for right, measure in zip(rights, ["map", "ndcg@10", "map", "ndcg@10"]):
        pdf.drawRightString(right, HEIGHT - 90, measure)
    rows = [("w/o relevance judgement", []), ("BM25", ["30.1", "50.6", "28.6", "48.0"]), ("Contriever", ["24.0", "44.5", "24.0", "42.1"]),
            ("HyDE", ["41.8", "61.3", "38.2", "57.9"]), ("w/ relevance judgement", []), ("DPR", ["36.5", "62.2", "41.8", "65.3"]),
            ("ANCE", ["37.1", "64.5", "40.8", "64.6"])]
    for index, (label, figures) in enumerate(rows):
        y = HEIGHT - 102 - 10 * index
        pdf.drawString(150, y, label)
        for right, figure in zip(rights, figures):
            pdf.drawRightString(right, y, figure)
    pdf.drawString(150, HEIGHT - 250, "The scores below are averages.")
    for index, (label, figures) in enumerate(rows[1:4]):
        y = HEIGHT - 262 - 10 * index
        pdf.drawString(150, y, label)
        for right, figure in zip(rights, figures):
            pdf.drawRightString(right, y, figure)
    pdf.save()
    elements = read_text_layer(path, ReadOptions()).elements
    tables = [e for e in elements if e.kind == "table"]
    assert len(tables) == 2, [(e.kind, e.text[:60]) for e in elements]
    assert tables[0].header_rows == 1 and tables[0].rows[0] == ["", "DL19 › map", "DL19 › ndcg@10", "DL20 › map", "DL20 › ndcg@10"], tables[0].rows[0]
    assert [row[0] for row in tables[0].rows[1:]] == [label for label, _ in rows]
    assert [row[0] for row in tables[1].rows] == ["BM25", "Contriever", "HyDE"]
    assert "The scores below are averages." in [e.text for e in elements if e.kind != "table"]


def test_a_small_table_beside_a_column_of_prose_leaves_the_prose_out(tmp_path: Path) -> None:
    """Dense X Retrieval's Table 1 stands in the right column of a two-column page, level with the left column's
    lines. The aligned-column finder took each pair for a row: "concept of proposition and how a passage can be |
    | # units | Avg. # words", cutting the paragraph and filling the table with its lines. A column of prose set
    justified (five words or more a line, one right edge) is no table column; the table keeps its own columns and the
    paragraph reads whole."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    path = tmp_path / "two-columns.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(595, HEIGHT))
    words = ("We demonstrate the concept of proposition and how a passage can be split into its set of propositions by "
             "an example on the left side of the figure, where the passage contains three propositions, each of which "
             "corresponds to a distinct factoid about the tower and its angle before the restoration.").split()
    lines, line = [], []
    for word in words:
        if line and stringWidth(" ".join([*line, word]), "Times-Roman", 10) > 218:
            lines.append(line)
            line = []
        line.append(word)
    lines.append(line)
    for index, line in enumerate(lines):
        text = pdf.beginText(71, HEIGHT - 100 - 13 * index)
        text.setFont("Times-Roman", 10)
        if index < len(lines) - 1:  # justified: each line but the paragraph's last ends at the column's right edge
            text.setWordSpace((218 - stringWidth(" ".join(line), "Times-Roman", 10)) / (len(line) - 1))
        text.textLine(" ".join(line))
        pdf.drawText(text)
    rows = [("", "# units", "Avg. # words"), ("Passage", "41,393,528", "58.5"), ("Sentence", "114,219,127", "21.0"),
            ("Proposition", "256,885,003", "11.2")]
    pdf.setFont("Times-Roman", 9)
    for index, (label, units, average) in enumerate(rows):
        y = HEIGHT - 113 - 13 * index
        pdf.drawString(336, y, label)
        pdf.drawRightString(440, y, units)
        pdf.drawRightString(500, y, average)
    pdf.save()
    elements = read_text_layer(path, ReadOptions()).elements
    tables = [e for e in elements if e.kind == "table"]
    assert len(tables) == 1 and [row[0] for row in tables[0].rows] == ["", "Passage", "Sentence", "Proposition"], \
        [(e.kind, e.text[:60], getattr(e, "rows", None)) for e in elements]
    assert " ".join(words) in [e.text for e in elements if e.kind == "paragraph"]


def test_one_date_centred_over_all_the_columns_names_each_of_them(tmp_path: Path) -> None:
    """Apple's securities table sets its balance date once, centred over all its columns ("June 25, 2022" over
    "Adjusted Cost", "Unrealized Gains", ...); it named the one column it stood over: "June 25, 2022 Fair Value"
    beside a bare "Adjusted Cost". A piece centred on no group ("Nine Months Ended" over the last two of four columns)
    names only what it stands over, never the first two."""
    path = tmp_path / "securities.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(595, HEIGHT))
    pdf.setFont("Helvetica", 8)
    rights = [260, 340, 420, 500]
    names = ["Adjusted Cost", "Unrealized Gains", "Unrealized Losses", "Fair Value"]
    pdf.drawCentredString((rights[0] - 40 + rights[-1]) / 2, HEIGHT - 90, "June 25, 2022")
    for right, name in zip(rights, names):
        pdf.drawRightString(right, HEIGHT - 100, name)
    rows = [("Money market funds", ["$ 1,234", "$ —", "$ —", "$ 1,234"]), ("U.S. Treasury securities", ["5,678", "12", "(45)", "5,645"]),
            ("Corporate debt securities", ["9,012", "3", "(210)", "8,805"])]
    _statement_rows(pdf, rows, rights, HEIGHT - 114)
    pdf.drawCentredString((rights[2] - 40 + rights[3]) / 2, HEIGHT - 190, "Nine Months Ended")
    for right, name in zip(rights, ["Q1", "Q2", "Q3", "Q4"]):
        pdf.drawRightString(right, HEIGHT - 200, name)
    _statement_rows(pdf, rows, rights, HEIGHT - 214)
    pdf.save()
    tables = [e for e in read_text_layer(path, ReadOptions()).elements if e.kind == "table"]
    assert len(tables) == 2 and all(t.header_rows == 1 for t in tables)
    assert tables[0].rows[0][1:] == [f"June 25, 2022 › {name}" for name in names], tables[0].rows[0]
    assert tables[1].rows[0][1:3] == ["Q1", "Q2"] and "Nine Months Ended" in tables[1].rows[0][3], tables[1].rows[0]
