"""The PDF reader on small PDFs drawn with reportlab in tmp_path, and on one real paper."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib import colors
from reportlab.lib.pdfencrypt import StandardEncryption
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas
from reportlab.platypus import Table, TableStyle

from shelfwise.compiler.ingest.convert import ReadOptions, convert_file
from shelfwise.compiler.ingest.convert.pdf import read, read_text_layer
from shelfwise.compiler.errors import ConversionError

sys.path.insert(0, str(Path(__file__).parent))
PAPER = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "papers" / "HyDE.pdf"
WIDTH, HEIGHT = 612, 792
BODY = [
    "The compiler reads every document on the shelf and keeps its structure: headings, paragraphs,",
    "lists, tables and figures. A worked exam-",
    "ple shows how a paragraph that wraps over several lines is read back as one paragraph.",
]


class Writer:
    """Draws pages line by line with a running header and footer on each page."""

    def __init__(self, path: Path, **kwargs):
        self.canvas = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT), **kwargs)
        self.page = 1
        self.y = HEIGHT - 90
        self._furniture()

    def _furniture(self) -> None:
        self.canvas.setFont("Helvetica", 8)
        self.canvas.drawString(72, HEIGHT - 40, "Shelfwise Sample Report - internal")
        self.canvas.drawString(WIDTH / 2, 30, str(self.page))

    def new_page(self) -> None:
        self.canvas.showPage()
        self.page += 1
        self.y = HEIGHT - 90
        self._furniture()

    def text(self, line: str, font: str = "Helvetica", size: float = 10, x: float = 72, before: float = 0) -> None:
        self.y -= before
        self.canvas.setFont(font, size)
        self.canvas.drawString(x, self.y, line)
        self.y -= size * 1.3

    def heading(self, line: str, size: float, key: str | None = None, level: int = 0) -> None:
        self.text(line, "Helvetica-Bold", size, before=size * 0.8)
        if key:
            self.canvas.bookmarkPage(key, fit="XYZ", top=self.y + size * 2)
            self.canvas.addOutlineEntry(line, key, level=level)
        self.y -= 4

    def paragraph(self, lines: list[str]) -> None:
        self.y -= 6
        for line in lines:
            self.text(line)

    def table(self, rows: list[list[str]]) -> None:
        table = Table(rows)
        table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("FONT", (0, 0), (-1, -1), "Helvetica", 9)]))
        _, height = table.wrapOn(self.canvas, WIDTH, HEIGHT)
        self.y -= height + 6
        table.drawOn(self.canvas, 72, self.y)
        self.y -= 14

    def image(self, caption: str) -> None:
        picture = Image.new("RGB", (120, 80), (200, 30, 30))
        self.y -= 100
        self.canvas.drawImage(ImageReader(picture), 72, self.y, width=150, height=100)
        self.y -= 16
        self.text(caption, size=9)

    def save(self) -> None:
        self.canvas.save()


def sample_pdf(path: Path, outline: bool = False) -> Path:
    w = Writer(path)
    w.heading("Shelfwise Sample Report", 20)
    w.paragraph(["A short report used to test the PDF reader of the compiler."])
    w.heading("1 Introduction", 15, "intro" if outline else None, 0)
    w.paragraph(BODY)
    w.paragraph(["Three kinds of shelves are supported:"])
    for item in ["• plain text and Markdown files", "• office documents from Word and Excel", "• PDF files with a text layer"]:
        w.text(item)
    w.heading("1.1 Background", 12, "background" if outline else None, 1)
    w.paragraph(["The background section explains why structure matters when answering questions."])
    if outline:
        w.text("Quiet Details", before=8)
        w.canvas.bookmarkPage("quiet", fit="XYZ", top=w.y + 30)
        w.canvas.addOutlineEntry("Quiet Details", "quiet", level=1)
    w.paragraph(["This paragraph starts near the bottom of the first page and it keeps going, since", "the sentence is long and the page"])
    w.new_page()
    w.text("ends before the sentence does, so the reader must join it across the page break.")
    w.heading("2 Results", 15, "results" if outline else None, 0)
    w.paragraph(["The table below lists the measured throughput of each reader."])
    w.table([["Reader", "Pages", "Seconds"], ["pdf-text", "224", "40.1"], ["docling", "12", "9.5"]])
    w.paragraph(["The figure shows the sample output of the renderer in a single colour."])
    w.image("Figure 1: A red rectangle drawn by the test.")
    w.new_page()
    w.heading("2.1 Discussion", 12, "discussion" if outline else None, 1)
    w.paragraph(["The third page holds one last paragraph so that windows of two pages split the file."])
    w.save()
    return path


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_pdf(tmp_path_factory.mktemp("pdf") / "sample.pdf")


@pytest.fixture(scope="module")
def converted(sample: Path):
    return read(sample, ReadOptions())


def test_headings_have_levels_from_size_and_numbering(converted) -> None:
    headings = [(e.text, e.level, e.page) for e in converted.elements if e.kind == "heading"]
    assert headings == [
        ("Shelfwise Sample Report", 1, 1),
        ("1 Introduction", 1, 1),
        ("1.1 Background", 2, 1),
        ("2 Results", 1, 2),
        ("2.1 Discussion", 2, 3),
    ]
    assert converted.title == "Shelfwise Sample Report"
    assert converted.pages == 3
    assert converted.reader == "pdf-text"
    assert "pdfplumber" in converted.reader_version and "pypdfium2" in converted.reader_version


def test_paragraphs_join_lines_and_pages_and_drop_running_furniture(converted) -> None:
    texts = [e.text for e in converted.elements]
    assert all(e.page is not None for e in converted.elements)
    assert not any("internal" in t for t in texts), "running header kept"
    assert not any(t.strip().isdigit() for t in texts), "page number kept"
    joined = next(e for e in converted.elements if e.text.startswith("The compiler reads"))
    assert "A worked example shows how a paragraph" in joined.text
    straddling = next(e for e in converted.elements if e.text.startswith("This paragraph starts"))
    assert straddling.text.endswith("the page ends before the sentence does, so the reader must join it across the page break.")
    assert straddling.page == 1
    items = [e.text for e in converted.elements if e.kind == "list_item"]
    assert items == ["• plain text and Markdown files", "• office documents from Word and Excel", "• PDF files with a text layer"]


def test_table_has_cells_and_its_text_is_not_repeated(converted) -> None:
    tables = [e for e in converted.elements if e.kind == "table"]
    assert len(tables) == 1
    assert tables[0].rows == [["Reader", "Pages", "Seconds"], ["pdf-text", "224", "40.1"], ["docling", "12", "9.5"]]
    assert tables[0].header_rows == 1 and tables[0].page == 2
    assert not any("40.1" in e.text for e in converted.elements if e.kind != "table")


def test_figure_has_caption_and_small_png_crop(converted) -> None:
    figures = [e for e in converted.elements if e.kind == "figure"]
    assert len(figures) == 1
    figure = figures[0]
    assert figure.text == "Figure 1: A red rectangle drawn by the test."
    assert figure.name == "Figure 1"
    assert figure.page == 2
    assert figure.image is not None and figure.image.startswith(b"\x89PNG")
    crop = Image.open(io.BytesIO(figure.image))
    assert max(crop.size) <= 800
    red, green, blue = crop.convert("RGB").getpixel((crop.width // 2, crop.height // 2))
    assert red > 150 and green < 80 and blue < 80
    assert not any(e.kind == "paragraph" and e.text.startswith("Figure 1") for e in converted.elements)


def test_windows_with_checkpoints_equal_a_single_pass(sample: Path, converted, tmp_path: Path) -> None:
    lines: list[str] = []
    options = ReadOptions(window_pages=2, checkpoint_dir=tmp_path / "windows", progress=lines.append)
    windowed = read(sample, options)
    assert windowed.model_dump() == converted.model_dump()
    assert lines == ["sample.pdf: pages 1-2 of 3", "sample.pdf: pages 3-3 of 3",
                     "sample.pdf: assembling pages 1-2 of 3", "sample.pdf: assembling pages 3-3 of 3"]
    assert sorted(p.name for p in (tmp_path / "windows").iterdir()) == ["window-0000.json", "window-0001.json"]
    stored = json.loads((tmp_path / "windows" / "window-0000.json").read_text())
    assert (stored["window_pages"], stored["first_page"], stored["last_page"], stored["page_count"]) == (2, 1, 2, 3)


def test_interrupted_read_resumes_from_finished_windows(sample: Path, converted, tmp_path: Path) -> None:
    folder = tmp_path / "windows"

    def stop_at_second_window(line: str) -> None:
        if line.startswith("sample.pdf: pages 3-"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        read(sample, ReadOptions(window_pages=2, checkpoint_dir=folder, progress=stop_at_second_window))
    assert sorted(p.name for p in folder.iterdir()) == ["window-0000.json"]
    first = folder / "window-0000.json"
    # A stored window is loaded, not read again: an edit to it shows in the result.
    first.write_text(first.read_text().replace("Three kinds of shelves", "Four kinds of shelves"))
    resumed = read(sample, ReadOptions(window_pages=2, checkpoint_dir=folder))
    assert any(e.text.startswith("Four kinds of shelves") for e in resumed.elements)
    assert resumed.elements[-1] == converted.elements[-1]


def test_stale_or_broken_windows_are_read_again(sample: Path, converted, tmp_path: Path) -> None:
    folder = tmp_path / "windows"
    read(sample, ReadOptions(window_pages=2, checkpoint_dir=folder))
    first, second = folder / "window-0000.json", folder / "window-0001.json"
    stale = json.loads(first.read_text().replace("Three kinds of shelves", "Four kinds of shelves"))
    stale["format"] = -1
    first.write_text(json.dumps(stale))
    second.write_text(second.read_text()[:100])  # truncated by a kill mid-write
    again = read(sample, ReadOptions(window_pages=2, checkpoint_dir=folder))
    assert again.model_dump() == converted.model_dump()
    # a different window size never reuses these files
    three = read(sample, ReadOptions(window_pages=3, checkpoint_dir=folder))
    assert three.model_dump() == converted.model_dump()


def test_outline_switch(tmp_path: Path) -> None:
    path = sample_pdf(tmp_path / "outlined.pdf", outline=True)
    with_outline = read_text_layer(path, ReadOptions(), use_outline=True)
    text_only = read_text_layer(path, ReadOptions(), use_outline=False)
    quiet = [(e.kind, e.level) for e in with_outline.elements if e.text == "Quiet Details"]
    assert quiet == [("heading", 2)]
    assert [e.kind for e in text_only.elements if e.text.startswith("Quiet Details")] == ["paragraph"]


def test_encrypted_pdf_names_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    w = Writer(path, encrypt=StandardEncryption("secret", ownerPassword="owner"))
    w.heading("Locked", 20)
    w.save()
    with pytest.raises(ConversionError) as caught:
        read(path, ReadOptions())
    assert str(caught.value) == "PDF is encrypted (password-protected); remove the password and compile again"


def test_truncated_pdf_is_a_conversion_error(sample: Path, tmp_path: Path) -> None:
    path = tmp_path / "truncated.pdf"
    path.write_bytes(sample.read_bytes()[:600])
    with pytest.raises(ConversionError, match=r"^PDF is damaged or truncated \(.+\); re-export or download it again$") as caught:
        read(path, ReadOptions())
    assert caught.value.__cause__ is not None


def test_zero_page_pdf_is_a_conversion_error(tmp_path: Path) -> None:
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    body, offsets = b"%PDF-1.4\n", []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(body))
        body += b"%d 0 obj\n%s\nendobj\n" % (number, obj)
    xref = len(body)
    body += b"xref\n0 3\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    body += b"trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    path = tmp_path / "empty.pdf"
    path.write_bytes(body)
    with pytest.raises(ConversionError, match="^PDF has no pages; export it again from its source$"):
        read(path, ReadOptions())


def test_image_only_pdf_reports_no_text(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    page = canvas.Canvas(str(path), pagesize=(200, 260))
    page.drawImage(ImageReader(Image.new("RGB", (60, 80), (90, 90, 90))), 0, 0, width=200, height=260)
    page.save()
    with pytest.raises(ConversionError, match="^no text found"):
        convert_file(path)  # OCR ran on the page and found no text


def test_missing_docling_weights_fall_back_to_the_text_layer(sample: Path, tmp_path: Path) -> None:
    converted = read(sample, ReadOptions(docling_artifacts_path=tmp_path / "no-such-weights"))
    assert converted.reader == "pdf-text"


def test_pdfium_words_match_pdfplumber_words(sample: Path) -> None:
    """The pdfium character reader builds the words pdfplumber's extract_words builds, in the same places."""
    import pdfplumber
    import pypdfium2 as pdfium

    from shelfwise.compiler.ingest.convert.pdf_chars import page_chars, page_words

    document = pdfium.PdfDocument(sample)
    with pdfplumber.open(sample) as plumber:
        for index, plumber_page in enumerate(plumber.pages):
            expected = plumber_page.extract_words(x_tolerance_ratio=0.2, extra_attrs=["fontname", "size"])
            unnamed = {round(w["top"]) for w in expected if "(cid:" in w["text"]}
            for word in expected:  # pdfminer cannot name reportlab's bullet glyph (nor measure it: the rest of its line shifts)
                word["text"] = word["text"].replace("(cid:127)", "•")
            chars, width, height = page_chars(document[index])
            got = page_words(chars)
            assert (width, height) == (WIDTH, HEIGHT)
            key = lambda w: (round(w["top"]), w["x0"])  # noqa: E731
            assert [w["text"] for w in sorted(got, key=key)] == [w["text"] for w in sorted(expected, key=key)]
            for mine, theirs in zip(sorted(got, key=key), sorted(expected, key=key)):
                assert mine["fontname"] == theirs["fontname"] and mine["size"] == pytest.approx(theirs["size"], abs=0.01)
                for edge in ("top", "bottom") if round(theirs["top"]) in unnamed else ("x0", "x1", "top", "bottom"):
                    assert mine[edge] == pytest.approx(theirs[edge], abs=0.6), (mine, theirs)  # a line-end hyphen: pdfium boxes it 0.55 pt short
    document.close()


def test_rotated_page_reads_upright_text_in_display_coordinates(tmp_path: Path) -> None:
    """A landscape page stored portrait with /Rotate 90 (text drawn turned) reads as upright lines."""
    path = tmp_path / "rotated.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    page.setPageRotation(90)
    page.translate(WIDTH, 0)
    page.rotate(90)  # now x runs along the displayed width (792) and y up the displayed height (612)
    page.setFont("Helvetica-Bold", 16)
    page.drawString(72, WIDTH - 72, "Landscape Heading")
    page.setFont("Helvetica", 10)
    page.drawString(72, WIDTH - 100, "A paragraph on a landscape page that is stored in portrait and turned for display.")
    page.save()
    converted = read(path, ReadOptions())
    assert [(e.kind, e.text) for e in converted.elements] == [
        ("heading", "Landscape Heading"),
        ("paragraph", "A paragraph on a landscape page that is stored in portrait and turned for display."),
    ]


def test_image_and_table_inside_a_scaled_form_xobject(tmp_path: Path) -> None:
    """Images and ruling paths drawn through a moved and scaled Form XObject land where pdfplumber puts them."""
    import pdfplumber
    import pypdfium2 as pdfium

    from shelfwise.compiler.ingest.convert.pdf_chars import image_boxes, page_chars
    from shelfwise.compiler.ingest.convert.pdf_tables import find_tables

    path = tmp_path / "form.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    page.beginForm("drawing")
    page.drawImage(ImageReader(Image.new("RGB", (50, 50), (0, 0, 200))), 10, 20, width=120, height=80)
    table = Table([["Key", "Value"], ["alpha", "1"]])
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    table.wrapOn(page, WIDTH, HEIGHT)
    table.drawOn(page, 10, 150)
    page.endForm()
    page.translate(100, 300)
    page.scale(1.5, 1.5)
    page.doForm("drawing")
    page.save()
    with pdfplumber.open(path) as plumber:
        plumber_page = plumber.pages[0]
        expected_images = [tuple(round(image[k], 1) for k in ("x0", "top", "x1", "bottom")) for image in plumber_page.images]
        expected_tables = [(tuple(round(v, 1) for v in t.bbox), t.extract()) for t in plumber_page.find_tables()]
    document = pdfium.PdfDocument(path)
    chars, width, height = page_chars(document[0])
    assert image_boxes(document[0], width, height) == expected_images == [(115.0, 342.0, 295.0, 462.0)]
    assert [(tuple(round(v, 1) for v in bbox), rows) for bbox, rows in find_tables(document[0], chars)] == expected_tables
    assert expected_tables[0][1] == [["Key", "Value"], ["alpha", "1"]]
    document.close()


@pytest.mark.skipif(not PAPER.is_file(), reason="corpora not present")
def test_real_paper_gives_a_sane_tree() -> None:
    converted = read(PAPER, ReadOptions())
    headings = [e.text for e in converted.elements if e.kind == "heading"]
    assert "Precise Zero-Shot Dense Retrieval" in converted.title
    assert "Abstract" in headings
    assert any(h.endswith("Introduction") for h in headings)
    assert all(e.page is not None and 1 <= e.page <= converted.pages for e in converted.elements)
    assert sum(len(e.text) for e in converted.elements if e.kind == "paragraph") > 20000
    text = " ".join(e.text for e in converted.elements)
    assert "fine-tuning" in text and "ﬁ" not in text  # ligatures spelled out
    assert "Inourexperiments" not in text and "In our experiments" in text  # spaces where the PDF only leaves a gap


def test_docling_document_maps_to_elements(tmp_path: Path) -> None:
    """The docling route's mapping, on a DoclingDocument docling builds offline (from Markdown)."""
    from docling.document_converter import DocumentConverter

    from shelfwise.compiler.ingest.convert.pdf_docling import elements_from_document

    source = tmp_path / "doc.md"
    source.write_text("# Guide\n\n## 1 Setup\n\nInstall it first.\n\n- one step\n- two steps\n\n| Key | Value |\n|---|---|\n| a | 1 |\n")
    document = DocumentConverter().convert(source).document
    elements = elements_from_document(document)
    assert [(e.kind, e.text, e.level) for e in elements if e.kind != "table"] == [
        ("heading", "Guide", 1),
        ("heading", "1 Setup", 1),
        ("paragraph", "Install it first.", None),
        ("list_item", "one step", None),
        ("list_item", "two steps", None),
    ]
    table = next(e for e in elements if e.kind == "table")
    assert table.rows == [["Key", "Value"], ["a", "1"]] and table.header_rows == 1
    assert table.text == "Key | Value\na | 1" and table.name is None  # the cells reach search and the checker; a caption is the name


def test_scanned_page_is_read_by_ocr_into_headings_and_paragraphs(tmp_path: Path) -> None:
    from scanned_pdf import HEADING, PARAGRAPH, scanned_pdf

    converted = convert_file(scanned_pdf(tmp_path / "scan.pdf"))
    assert converted.reader == "pdf-ocr"
    assert "OCR rapidocr-onnxruntime" in converted.reader_version and converted.reader_version.endswith("on pages 1")
    assert converted.warnings == ["page 1 has no text layer; read by OCR (rapidocr-onnxruntime 1.4.4): check the text of it"]
    assert [(e.kind, e.text, e.level) for e in converted.elements if e.kind == "heading"] == [("heading", HEADING, 1)]
    paragraph = " ".join(e.text for e in converted.elements if e.kind == "paragraph").split()
    wanted = " ".join(PARAGRAPH).split()
    assert sum(1 for word in wanted if word in paragraph) >= 0.95 * len(wanted)


def test_ocr_off_leaves_a_scan_unread_and_says_so(tmp_path: Path) -> None:
    from scanned_pdf import scanned_pdf

    path = scanned_pdf(tmp_path / "scan.pdf")
    with pytest.raises(ConversionError, match=r"^no text found \(a blank or image-only document; scanned PDF pages are read by OCR when pdf.ocr is on"):
        convert_file(path, ReadOptions(ocr=False))


def test_borderless_table_from_aligned_columns_reaches_the_section_grid(tmp_path: Path) -> None:
    from shelfwise.compiler.ingest.sections import build_sections

    path = tmp_path / "borderless.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    page.setFont("Helvetica-Bold", 14)
    page.drawString(72, 720, "4 Calibration intervals")
    page.setFont("Helvetica", 10)
    page.drawString(72, 695, "Table 3: Calibration intervals of the test bench instruments")
    rows = [["Instrument", "Interval", "Last calibrated"], ["Flow meter FM-2", "6 months", "2026-01-14"], ["Pressure gauge PG-7", "12 months", "2025-11-02"], ["Scale SC-1", "12 months", "2026-02-20"]]
    for number, row in enumerate(rows):
        for x, cell in zip((72, 230, 340), row):
            page.setFont("Helvetica-Bold" if number == 0 else "Helvetica", 10)
            page.drawString(x, 665 - 16 * number, cell)
    page.setFont("Helvetica", 10)
    page.drawString(72, 590, "Instruments past their due date are tagged and withdrawn from use.")
    page.save()
    converted = read(path, ReadOptions())
    assert [e.kind for e in converted.elements] == ["heading", "table", "paragraph"]
    sections, _ = build_sections("doc", converted)
    table = next(b for s in sections for b in s.blocks if b.kind == "table")
    assert table.rows == rows and table.header_rows == 1
    assert table.name == "Table 3: Calibration intervals of the test bench instruments"
    assert next(s for s in sections if s.heading_path == ["4 Calibration intervals"]).blocks[0] is table


def test_a_page_numbered_line_set_in_the_flow_is_furniture_wherever_it_stands(tmp_path) -> None:
    """A PDF printed from HTML sets its running line under each page's last paragraph, at a different height on
    each page: the line is dropped because its number follows the page's, and a repeated line without that is kept."""
    path = tmp_path / "flow.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    for number in range(1, 5):
        page.setFont("Helvetica", 10)
        y = HEIGHT - 90
        for line in range(3 + 2 * number):  # pages of different lengths: the footer moves up and down
            page.drawString(72, y, f"Page {number} paragraph line {line} says something about quarterly net sales.")
            y -= 14
        page.drawString(72, y - 10, "Totals are shown in millions of dollars.")  # repeated, not numbered: content
        page.setFont("Helvetica", 7)
        page.drawString(72, y - 40, f"Acme Corp. | Q3 2023 Form 10-Q | {number + 2}")
        page.showPage()
    page.save()
    texts = " ".join(e.text for e in read_text_layer(path, ReadOptions()).elements)
    assert "Form 10-Q" not in texts, "a page-numbered running line was kept"
    assert texts.count("Totals are shown in millions of dollars.") == 4


def test_a_page_number_alone_set_in_the_flow_is_furniture_wherever_it_stands(tmp_path) -> None:
    """A PDF printed from HTML sets a page's number alone right under its last paragraph, well above the margin band
    (Amazon's 10-Q: "39" at 78% of the page's height). Kept, it opened the next page's first paragraph ("39 As our
    agreements terminate, ..."). A line of figures alone whose number follows no page (a year over a chart) stays."""
    path = tmp_path / "numbers.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    for number in range(1, 6):
        page.setFont("Helvetica", 10)
        y = HEIGHT - 90
        page.drawString(72, y, f"Agreements of page {number} may end, and we may be unable to renew them on comparable terms.")
        y -= 14
        for line in range(2 + number):  # pages of different lengths: the number moves up and down
            page.drawString(72, y, f"Line {line} of page {number} says what the commercial agreements expose us to")
            y -= 14
        page.drawString(72, y, "and to what extent.")
        if number == 3:
            page.drawString(72, y - 30, "2023")  # a year over a chart: no page's number
            page.drawString(72, y - 44, "Net sales grew in every segment.")
            y -= 44
        page.drawCentredString(WIDTH / 2, y - 40, str(number))
        page.showPage()
    page.save()
    texts = [e.text for e in read_text_layer(path, ReadOptions()).elements]
    assert not any(re.match(r"\d\s+Agreements", text) or text.strip() in {"1", "2", "3", "4", "5"} for text in texts), texts
    assert any("2023" in text for text in texts), texts


def test_page_furniture_numbered_within_chapters_or_by_the_page_is_dropped_and_article_headings_stay(tmp_path) -> None:
    """Edge lines whose digits change: a page number within its chapter ("3-8", set alone at each page's foot, its
    number following no single page offset) and a running title whose number follows the page ("Guide page 5") are
    furniture; "Article 2" and "Article 5" opening two pages are headings, kept (their numbers follow no page)."""
    path = tmp_path / "chapters.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    feet = ["3-7", "3-8", "4-1", "4-2", "5-1"]
    for number, foot in enumerate(feet, start=1):
        page.setFont("Helvetica", 10)
        page.drawString(72, HEIGHT - 40, f"Guide page {number + 4}")
        y = HEIGHT - 90
        if number in (2, 4):
            page.drawCentredString(WIDTH / 2, y, f"Article {2 if number == 2 else 5}")
            page.drawCentredString(WIDTH / 2, y - 14, "Scope of the rules")
            y -= 40
        for line in range(6):
            page.drawString(72, y, f"Line {line} of page {number} says what the rules require of each member state and of its "
                                   "supervisory authority.")
            y -= 14
        page.drawString(WIDTH / 2, 40, foot)
        page.showPage()
    page.save()
    elements = read_text_layer(path, ReadOptions()).elements
    texts = [e.text for e in elements]
    assert not any(text in texts for text in feet) and not any("Guide page" in text for text in texts), texts
    assert [e.text for e in elements if e.kind == "heading"] == ["Article 2 Scope of the rules", "Article 5 Scope of the rules"]


def test_a_chart_drawn_past_its_clip_makes_no_table_over_the_text_below(tmp_path) -> None:
    """A plotting library draws a chart's bars longer than its axes and clips them there: the bars' unclipped edges
    reach into the text below the chart. Read as drawn (clipped), the chart's frame ends at its axis and the paragraph
    under it keeps every line (unclipped, the lines under the bars became cells of a table: Adaptive-RAG's page 7)."""
    path = tmp_path / "chart.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    top, bottom = HEIGHT - 100, HEIGHT - 220  # the chart's axes box
    page.rect(72, bottom, 300, top - bottom)
    page.setFont("Helvetica", 7)
    for index, tick in enumerate((20, 40, 60, 80)):  # gridlines and their labels, inside the axes
        y = bottom + 25 * (index + 1)
        page.line(72, y, 372, y)
        page.drawString(76, y + 2, str(tick))
    page.drawString(300, top - 12, "Adaptive Retrieval")
    page.drawString(300, top - 22, "Self-RAG")
    page.saveState()
    clip = page.beginPath()
    clip.rect(72, bottom, 300, top - bottom)
    page.clipPath(clip, stroke=0, fill=0)
    for index, height in enumerate((60, 90, 40, 110)):
        x = 100 + 60 * index
        page.rect(x, bottom - 200, 30, height + 200, stroke=1, fill=0)  # drawn from far below the axis up to its value
    page.restoreState()
    page.setFont("Helvetica", 10)
    body = ["The first line under the chart says the classifier is trained on silver labels.",
            "The second line says queries left unlabeled get labels from their dataset.",
            "The third line says the labels are then used to train the classifier."]
    for index, line in enumerate(body):
        page.drawString(80, bottom - 40 - 14 * index, line)
    page.showPage()
    page.save()
    elements = read_text_layer(path, ReadOptions()).elements
    text = " ".join(e.text for e in elements if e.kind != "table")
    assert "classifier is trained on silver labels" in text and "get labels from their dataset" in text
    assert not any("silver" in " ".join(" ".join(row) for row in (e.rows or [])) for e in elements if e.kind == "table")


def test_a_footnote_mark_by_the_gutter_is_not_a_line_of_its_own(tmp_path) -> None:
    """In two columns, a raised footnote number in the right column overlaps the height of a left column's line more
    than its own and was clustered with it, then split off at the gutter as a line "3" cutting the right column's
    paragraph in two ("automatically-" | "3" | "collected"). It is dropped; the paragraph reads on."""
    path = tmp_path / "columns.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    left = ["The left column holds a paragraph of its own that", "runs over several lines beside the right one and",
            "says nothing about the classifier at all, only", "about the weather on the day of the experiment."]
    right = ["Finally, we train the classifier with these automatically-", "collected query-complexity pairs, by using a",
             "cross-entropy loss over the three labels."]
    page.setFont("Times-Roman", 11)
    for index, line in enumerate(left):
        page.drawString(60, HEIGHT - 100 - 13.5 * index, line)
    for index, line in enumerate(right):
        page.drawString(320, HEIGHT - 107 - 13.5 * index, line)  # half a line lower than the left column's
    width = page.stringWidth("collected query-complexity pairs", "Times-Roman", 11)
    page.setFont("Times-Roman", 8)
    page.drawString(320 + width + 0.5, HEIGHT - 107 - 13.5 + 4, "3")  # raised, after "pairs"
    page.showPage()
    page.save()
    elements = read_text_layer(path, ReadOptions()).elements
    assert not any(e.text.strip() == "3" for e in elements), [e.text for e in elements]
    assert any("Finally, we train the classifier" in e.text and "collected query-complexity pairs, by using a cross-entropy loss"
               in e.text for e in elements), [e.text for e in elements]


def test_a_paragraph_cut_mid_sentence_by_a_figure_or_a_table_reads_on_after_it(tmp_path) -> None:
    """A paper sets a figure or a table where a paragraph's sentence is half written ("... including ques-" | figure
    | "tion answering ..."; "... of +12.0 and +9.3 (35.0%" | a table's lines in smaller type | "and 22.5%
    relative improvement) ..."). The paragraph reads on after it as one sentence (the line-end hyphen undone) and the
    figure, caption and table lines follow it; a paragraph that ended its sentence stays apart from the next one, and
    so do a sentence going on after an example it introduces and a caption's line standing away from the body's
    left edge."""
    w = Writer(tmp_path / "cut.pdf")
    w.heading("1 Introduction", 15)
    w.paragraph(["Large language models have shown strong performances across diverse tasks, including ques-"])
    w.image("Figure 1: Accuracy against time per query for each approach.")
    w.paragraph(["tion answering, where the model reads retrieved documents before it answers."])
    w.paragraph(["With the unsupervised retrievers we see an average improvement of +12.0 and +9.3 (35.0%"])
    for line in ["R@5 R@20 R@5 R@20 R@5 R@20", "SimCSE Passage 28.8 44.3 35.5 53.1", "Contriever Passage 42.5 63.8 46.4"]:
        w.text(line, size=7)
    w.paragraph(["and 22.5% relative improvement) respectively over five datasets."])
    w.paragraph(["A rule written like"])
    w.text("foo.o : foo.c defs.h", font="Courier", size=8)
    w.paragraph(["should instead be written with its prerequisites in order."])
    w.paragraph(["The note under the table gives the scores 27.1, 28.9 and 33.8 for Standard, CoT,"])
    w.image("Figure 3: Prompting results with respect to")
    w.text("the number of samples used.", x=330)
    w.paragraph(["The second experiment ends its sentence here."])
    w.image("Figure 2: A second chart.")
    w.paragraph(["more text that starts a paragraph in lower case stays apart."])
    w.save()
    paragraphs = [e.text for e in read_text_layer(tmp_path / "cut.pdf", ReadOptions()).elements if e.kind == "paragraph"]
    assert ("Large language models have shown strong performances across diverse tasks, including question answering, "
            "where the model reads retrieved documents before it answers.") in paragraphs, paragraphs
    assert ("With the unsupervised retrievers we see an average improvement of +12.0 and +9.3 (35.0% and 22.5% relative "
            "improvement) respectively over five datasets.") in paragraphs, paragraphs
    assert "more text that starts a paragraph in lower case stays apart." in paragraphs, paragraphs
    assert "should instead be written with its prerequisites in order." in paragraphs, paragraphs
    assert not any("CoT, the number" in p for p in paragraphs), paragraphs  # a caption's line beside, not the body's
    assert [p for p in paragraphs if p.startswith("R@5 R@20")][0] == paragraphs[paragraphs.index(
        "With the unsupervised retrievers we see an average improvement of +12.0 and +9.3 (35.0% and 22.5% relative "
        "improvement) respectively over five datasets.") + 1], paragraphs


def test_a_line_opening_with_a_figure_reference_inside_a_sentence_is_no_caption(tmp_path) -> None:
    """ "... using GPT-4 with a prompt, as shown in" | "Figure 8. After filtering, 42,857 pairs were used ...": the
    second line goes on with the first one's sentence; it was taken for a figure's caption, and the paragraph lost its
    rest to it. A caption under its own gap stays a figure."""
    w = Writer(tmp_path / "ref.pdf")
    w.heading("B Training the Propositionizer", 15)
    w.paragraph(["We generated a list of propositions from a given paragraph using GPT-4 with a prompt, as shown in",
                 "Figure 8. After filtering, 42,857 pairs were used to fine-tune a Flan-T5-large model."])
    w.paragraph(["The next paragraph stands apart; it ends its sentence, and the caption below it is set apart too."])
    w.y -= 10
    w.text("Figure 9: The prompt used to generate propositions.", size=9)
    w.save()
    elements = read_text_layer(tmp_path / "ref.pdf", ReadOptions()).elements
    paragraphs = [e.text for e in elements if e.kind == "paragraph"]
    assert ("We generated a list of propositions from a given paragraph using GPT-4 with a prompt, as shown in Figure 8. "
            "After filtering, 42,857 pairs were used to fine-tune a Flan-T5-large model.") in paragraphs, paragraphs
    assert [e.text for e in elements if e.kind == "figure"] == ["Figure 9: The prompt used to generate propositions."]


def _finish_with_rows(page, rows: list[tuple[str, str]], x: float, top: float) -> None:
    """Draws a table read as lines (a label at ``x``, its figure at the right, 14 points a row) and saves the page."""
    for index, (label, figure) in enumerate(rows):
        page.drawString(x, top - 14 * index, label)
        page.drawString(480, top - 14 * index, figure)
    page.showPage()
    page.save()


def test_two_columns_under_a_full_width_block_of_text_are_read_column_by_column(tmp_path) -> None:
    """A two-column paper's page under a full-width figure of text (a prompt set in full lines, more text than both
    columns hold) was read as one column, top to bottom: each line of the left column followed by the right column's
    line beside it ("introducing RAG to a domain-" | "the Chain-of-Thought approach ..."). The columns under it are read
    one after the other; a table read as lines (labels at the left, short figures at the right) keeps its rows."""
    path = tmp_path / "band.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    page.setFont("Courier", 9)
    for index in range(16):
        page.drawString(60, HEIGHT - 80 - 11 * index, f"Instruction {index}: given the question, the context and the answer above, give a reason.")
    left = ["The left column tells how the model was trained on the", "questions with the oracle document and four of the",
            "distractors, and what that did to its accuracy over the", "datasets of the study."]
    right = ["The right column tells what the evaluation found out", "when the retriever gave the model fewer documents",
             "than it saw in training, and why its accuracy still", "held up in most of the datasets."]
    page.setFont("Times-Roman", 10)
    for index, (one, other) in enumerate(zip(left, right)):
        page.drawString(60, HEIGHT - 290 - 12 * index, one)
        page.drawString(320, HEIGHT - 294 - 12 * index, other)
    page.drawString(60, HEIGHT - 370, "Below both columns, a full line of text across the page says what the table under it holds.")
    page.setFont("Helvetica", 10)
    rows = [("Net sales of products", "81,797"), ("Net sales of services", "21,213"), ("Cost of sales of products", "46,000"),
            ("Total operating expenses", "13,415")]
    _finish_with_rows(page, rows, 60, HEIGHT - 400)
    elements = read_text_layer(path, ReadOptions()).elements
    texts = [e.text for e in elements if e.kind == "paragraph"]
    assert " ".join(left) in texts and " ".join(right) in texts, texts
    table_rows = [tuple(row) for e in elements if e.kind == "table" for row in e.rows]
    assert all(row in table_rows for row in rows), table_rows


def test_real_pages_read_column_by_column_only_where_both_halves_hold_prose(corpora) -> None:
    """RAFT's page 5 sets a full-width figure of prompt text over two columns: its columns are read one after the other
    (the left column's "... introducing RAG to a domain-" goes on with "specifically fine-tuned (DSF) ...", not with the
    right column's line beside it). An Intel 10-Q page whose tables put labels at the left and rows of figures at the
    right ("$ (153) $ 300 $ (475) $ 694") is one column, read top to bottom."""
    import pypdfium2

    from shelfwise.compiler.ingest.convert.pdf_layout import read_page

    raft = pypdfium2.PdfDocument(corpora / "papers" / "RAFT.pdf")
    try:
        texts = [item.text for item in read_page(raft[4], 5).items]
    finally:
        raft.close()
    left = next(i for i, t in enumerate(texts) if t.endswith("introducing RAG to a domain-"))
    right = next(i for i, t in enumerate(texts) if t.startswith("the Chain-of-Thought approach in enhancing"))
    assert texts[left + 1].startswith("specifically fine-tuned (DSF) model") and right > left + 1, texts
    intel = pypdfium2.PdfDocument(corpora / "filings" / "2023 Q2 INTC.pdf")
    try:
        items = read_page(intel[15], 16).items
    finally:
        intel.close()
    assert all(item.column == 0 for item in items) and [i.top for i in items] == sorted(i.top for i in items)


def test_boxes_of_prose_set_side_by_side_are_read_box_by_box(tmp_path, corpora) -> None:
    """A report's summary panel sets four boxes of prose side by side, each under a key figure. Read as lines across the
    page they were interleaved: "Lower revenue in CCG, Lower GAAP gross margin from Lower GAAP EPS attributable to Lower
    operating cash flow driven DCAI, and NEX. lower revenue, ..." (Intel's 10-Q, shown as a sentence of answers). Each
    box is now read whole, left to right; a table of labels and figures, and prose in one column, read as before."""
    boxes = [["Lower revenue in CCG,", "DCAI, and NEX."],
             ["Lower gross margin from", "lower revenue, higher unit", "cost, partially offset by lower", "period charges."],
             ["Lower earnings per share", "from a lower tax benefit,", "partially offset by reduced", "operating expenses."],
             ["Lower operating cash flow", "driven by a net operating", "loss, partially offset by one-", "time gains."]]
    path = tmp_path / "panel.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    page.setFont("Helvetica", 10)
    page.drawString(40, HEIGHT - 80, "The quarter in review: what moved each of the four key figures against the same quarter a year ago.")
    page.setFont("Helvetica", 8)
    x = 40.0
    for lines in boxes:  # gutters narrower than the type (a borderless table's columns stand further apart)
        for row, line in enumerate(lines):
            page.drawString(x, HEIGHT - 110 - 9.5 * row, line)
        x += max(stringWidth(line, "Helvetica", 8) for line in lines) + 6
    page.setFont("Helvetica", 10)
    page.drawString(40, HEIGHT - 170, "Below the panel, a full line of text goes on with the review of the quarter's segments.")
    rows = [("Net sales of products", "81,797"), ("Net sales of services", "21,213"), ("Total operating expenses", "13,415")]
    _finish_with_rows(page, rows, 40, HEIGHT - 200)
    elements = read_text_layer(path, ReadOptions()).elements
    text = " ".join(e.text for e in elements if e.kind == "paragraph")
    said = ["Lower revenue in CCG, DCAI, and NEX.", "Lower gross margin from lower revenue, higher unit cost, partially offset by "
            "lower period charges.", "Lower earnings per share from a lower tax benefit, partially offset by reduced operating "
            "expenses.", "Lower operating cash flow driven by a net operating loss, partially offset by one-time gains."]
    assert all(box in text for box in said), text
    assert [text.index(box) for box in said] == sorted(text.index(box) for box in said)  # left to right
    table_rows = [tuple(row) for e in elements if e.kind == "table" for row in e.rows]
    assert all(row in table_rows for row in rows), table_rows

    import pypdfium2

    from shelfwise.compiler.ingest.convert.pdf_layout import read_page

    intel = pypdfium2.PdfDocument(corpora / "filings" / "2023 Q3 INTC.pdf")  # the panel of Intel's "A Quarter in Review"
    try:
        texts = [item.text for item in read_page(intel[4], 5).items]
    finally:
        intel.close()
    assert "Lower GAAP EPS attributable to Intel primarily from a lower tax benefit, partially offset by reduced operating expenses." in texts
    assert not any(t.startswith("Lower revenue in CCG, Lower GAAP") for t in texts), texts


def test_a_footnote_at_the_foot_of_a_page_does_not_cut_the_paragraph_running_past_it(tmp_path) -> None:
    """A paragraph runs from one page's foot onto the next; between them stands the first page's footnote, in smaller
    type, opening with its number. The paragraph is one paragraph (its sentence whole), the footnote a paragraph after
    it; a small-type line without a note's mark stays where it stands."""
    path = tmp_path / "notes.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    page.setFont("Helvetica", 10)
    y = HEIGHT - 90
    for line in range(8):
        page.drawString(72, y, f"Line {line} of an opening paragraph that says the verifier stores salted hashes only.")
        y -= 14
    page.drawString(72, y - 14, "The retention rule applies to every record the agency keeps about a subscriber, and it")
    page.setFont("Helvetica", 7.5)
    page.drawString(72, 90, "1 See the agency's records schedule for the retention periods of each kind of record.")
    page.showPage()
    page.setFont("Helvetica", 10)
    page.drawString(72, HEIGHT - 90, "lasts for seven years after the account is closed, whatever the reason for closing.")
    page.drawString(72, HEIGHT - 104, "A second paragraph follows on the second page.")
    page.setFont("Helvetica", 7.5)
    page.drawString(72, 90, "Source: the agency's own survey.")
    page.showPage()
    page.save()
    paragraphs = [e.text for e in read_text_layer(path, ReadOptions()).elements if e.kind == "paragraph"]
    joined = [p for p in paragraphs if "The retention rule applies" in p]
    assert joined and "it lasts for seven years after the account is closed" in joined[0], paragraphs
    notes = [i for i, p in enumerate(paragraphs) if p.startswith("1 See the agency's records schedule")]
    assert notes and notes[0] == paragraphs.index(joined[0]) + 1, paragraphs
    assert paragraphs[-1] == "Source: the agency's own survey."


def test_a_footnote_over_two_lines_where_no_paragraph_runs_on_is_one_paragraph(tmp_path) -> None:
    """A page whose paragraph ends before its foot: the footnote of two lines below it stays one paragraph, its
    line-end hyphen undone, where it stands (after the paragraph, before the next page's heading)."""
    path = tmp_path / "note.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    page.setFont("Helvetica", 10)
    page.drawString(72, HEIGHT - 90, "The agency keeps each record for seven years after the account is closed.")
    page.setFont("Helvetica", 7.5)
    page.drawString(72, 104, "2 The schedule lists the retention periods of every kind of record the agency imple-")
    page.drawString(72, 94, "ments, and names the officer who approves each disposal.")
    page.showPage()
    page.setFont("Helvetica-Bold", 14)
    page.drawString(72, HEIGHT - 90, "Disposal")
    page.setFont("Helvetica", 10)
    page.drawString(72, HEIGHT - 110, "Records are destroyed by the officer the schedule names.")
    page.showPage()
    page.save()
    elements = [(e.kind, e.text) for e in read_text_layer(path, ReadOptions()).elements]
    note = ("paragraph", "2 The schedule lists the retention periods of every kind of record the agency implements, and names "
                         "the officer who approves each disposal.")
    assert note in elements, elements
    assert elements.index(note) == elements.index(("paragraph", "The agency keeps each record for seven years after the "
                                                                "account is closed.")) + 1


def test_small_print_in_a_column_without_body_text_is_no_footnote(tmp_path) -> None:
    """A page set wholly in small type (an appendix's fine print) has no body line above its foot: a line opening with a
    number there is a paragraph of the page, read as paragraphs are (a gap parts them), not footnotes run together."""
    path = tmp_path / "small.pdf"
    page = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    page.setFont("Helvetica", 10)
    for index in range(6):
        page.drawString(72, HEIGHT - 90 - 14 * index, f"Body line {index} of the first page, in the type most of the document uses.")
    page.showPage()
    page.setFont("Helvetica", 7)
    page.drawString(72, HEIGHT - 90, "1 Records are kept for seven years.")
    page.drawString(72, HEIGHT - 120, "Fine print that stands on its own, far below the first.")
    page.showPage()
    page.save()
    paragraphs = [e.text for e in read_text_layer(path, ReadOptions()).elements if e.kind == "paragraph"]
    assert "1 Records are kept for seven years." in paragraphs and "Fine print that stands on its own, far below the first." in paragraphs, paragraphs


def _paragraphs_of_lines(path: Path, lines: list[str]) -> str:
    """The paragraphs' text of a one-page PDF whose body is ``lines``, set one under the other in one type."""
    pdf = canvas.Canvas(str(path), pagesize=(595, 842))
    pdf.setFont("Helvetica", 10)
    for n, line in enumerate(lines):
        pdf.drawString(72, 760 - 12 * n, line)
    pdf.showPage()
    pdf.save()
    return " ".join(e.text for e in convert_file(path, ReadOptions()).elements if e.kind == "paragraph")


def test_a_compound_broken_at_its_own_hyphen_keeps_it_and_a_broken_word_is_joined(tmp_path: Path) -> None:
    """Adaptive-RAG's "retrieval-" at a line's end over "and-generate steps": the compound broke at its own hyphen, so
    it stays ("retrieval-and-generate"), as "mark-to-" over "market" does where the document spells "mark-to-market"; a
    word split by a line-end hyphen ("con-" over "sider") is joined whole."""
    text = _paragraphs_of_lines(tmp_path / "hyphens.pdf", [
        "For efficiency, we measure the number of retrieval-", "and-generate steps and the average time for answering each",
        "query relative to the one-step approach. We also con-", "sider the time each query takes to answer in full.",
        "Equity securities are marked to market: the mark-to-market gains on marketable securities and the mark-to-",
        "market losses on the others are both reported. They guide the day-to-day work and the day-to-",
        "day reporting, today and later."])
    assert "the number of retrieval-and-generate steps and the average time" in text, text
    assert "We also consider the time each query takes" in text, text
    assert "and the mark-to-market losses on the others" in text, text  # a compound broken after its second hyphen
    assert "and the day-to-day reporting, today" in text, text  # never "day-today", though the page spells "today"


def test_a_line_end_hyphen_before_a_capital_or_a_figure_joins_one_word(tmp_path: Path) -> None:
    """Dense X Retrieval's "Flan-" at a line's end over "T5-large model" and a filing's "Form 10-" over "K": the line goes
    on with the same word, so it is one word with its hyphen ("Flan-T5-large", "10-K"), never "Flan- T5-large"; a word
    the document spells whole elsewhere ("FACTOID-" over "WIKI" of FACTOIDWIKI) is joined without it."""
    text = _paragraphs_of_lines(tmp_path / "capitals.pdf", [
        "We introduce FACTOIDWIKI, a proposition-level index of the English Wikipedia dump.",
        "Next, we use the seed set to finetune a Flan-", "T5-large model, as described in our 2022 Form 10-",
        "K, and we refer to the processed corpus as FACTOID-", "WIKI in the rest of this paper."])
    assert "finetune a Flan-T5-large model, as described in our 2022 Form 10-K, and we" in text, text
    assert "the processed corpus as FACTOIDWIKI in the rest" in text, text


def test_a_table_cell_and_a_caption_join_their_lines_as_a_paragraph_does(tmp_path: Path) -> None:
    """A ruled table's cell set on two lines ("acquisition-" over "related intangibles") and a figure caption wrapped
    over two ("proposi-" over "tions ...") read as the printed words: the compound the document spells hyphenated keeps
    its hyphen, the broken word the document spells whole is whole; never "acquisition- related" or "proposi- tions"."""
    w = Writer(tmp_path / "cells.pdf")
    w.paragraph(["Retrieval by propositions is compared with retrieval by passages; acquisition-related costs follow."])
    w.y -= 24
    w.table([["Adjustment", "Amount"], ["Amortization of acquisition-\nrelated intangibles", "1,250"], ["Restructuring charges", "310"]])
    w.image("Figure 2: Retrieving by proposi-")
    w.text("tions yields the best retrieval performance.", size=9)
    w.save()
    elements = convert_file(tmp_path / "cells.pdf", ReadOptions()).elements
    table = next(e for e in elements if e.kind == "table")
    assert table.rows[1] == ["Amortization of acquisition-related intangibles", "1,250"], table.rows
    figure = next(e for e in elements if e.kind == "figure")
    assert figure.text == "Figure 2: Retrieving by propositions yields the best retrieval performance.", figure.text


def test_a_word_a_ligature_broke_is_rejoined_by_the_documents_own_words(tmp_path: Path) -> None:
    """Amazon's 10-Q sets "ff" as one glyph its font maps to a plain "f", so the text layer reads "could dif er" and "May
    Af ect Our Business". The document spells "differ", "affect" and "suffer" whole elsewhere, and "dif", "er", "Af",
    "ect", "Suf" and "ers" never stand alone in it: one word each, the lost "f" back ("Suf ers" by the stem of
    "suffer"). "of set" stays two words: "of" is a word of its own, though the page also spells "offset"."""
    text = _paragraphs_of_lines(tmp_path / "ligatures.pdf", [
        "Actual results could dif er materially; results differ by region and weather may affect them.",
        "Our Business May Af ect Demand, and the business suffer from delays. It Suf ers when costs rise.",
        "The offset is shown for each of set sizes in the table, one of many."])
    assert "Actual results could differ materially" in text, text
    assert "Our Business May Affect Demand" in text and "It Suffers when costs rise" in text, text
    assert "for each of set sizes" in text, text


def test_key_figure_tiles_read_one_text_each_and_a_table_of_figures_stays_a_table(tmp_path: Path) -> None:
    """Intel's 10-Q overview sets its key figures side by side, each over its basis and the wrapped lines that say what it
    is. Read as a grid, "Revenue down $2.4B or" and "Gross margin" were a row and the figures a column header; each tile
    is one text, in its own order ("$12.9B GAAP Revenue down $2.4B or 15% from Q2 2022"). A table whose rows under its
    first row of figures hold figures too (years over amounts) stays a table."""
    path = tmp_path / "tiles.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(595, 842))
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, 780, "Our quarter in brief, set out in the tiles below for the second quarter of the year.")
    tiles = [["$12.9B", "GAAP", "Revenue down $2.4B or", "15% from Q2 2022"], ["35.8%", "GAAP", "Gross margin", "down 0.7 ppt", "from Q2 2022"],
             ["$0.35", "GAAP", "Diluted EPS", "up $0.46 from Q2", "2022"], ["$1.0B", "GAAP", "Operating cash", "flow down $5.7B", "or 85% from Q2 2022"]]
    for column, tile in enumerate(tiles):
        for line, text in enumerate(tile):
            pdf.drawString(72 + 120 * column, 740 - 12 * line, text)
    pdf.drawString(72, 640, "Net sales by year were as follows, in millions of dollars, for each of the segments we report.")
    for line, row in enumerate([["", "2023", "2022"], ["North America", "82,546", "74,430"], ["International", "29,697", "27,065"],
                                ["AWS", "22,140", "19,739"]]):
        for column, text in enumerate(row):
            pdf.drawString(72 + 150 * column, 610 - 12 * line, text)
    pdf.showPage()
    pdf.save()
    elements = convert_file(path, ReadOptions()).elements
    items = [e.text for e in elements if e.kind == "list_item"]
    assert items == ["$12.9B GAAP Revenue down $2.4B or 15% from Q2 2022", "35.8% GAAP Gross margin down 0.7 ppt from Q2 2022",
                     "$0.35 GAAP Diluted EPS up $0.46 from Q2 2022", "$1.0B GAAP Operating cash flow down $5.7B or 85% from Q2 2022"], elements
    tables = [e for e in elements if e.kind == "table"]
    assert len(tables) == 1 and tables[0].rows[1] == ["North America", "82,546", "74,430"], tables


def _headings(path: Path, sections: list[tuple[str, int, str]]) -> list[str]:
    """The headings read back from a PDF of ``sections``, each a line in large type (its text, its size) over a
    paragraph."""
    w = Writer(path)
    for heading, size, paragraph in sections:
        w.heading(heading, size)
        w.paragraph([paragraph])
    w.save()
    return [e.text for e in convert_file(path, ReadOptions()).elements if e.kind == "heading"]


def test_a_line_of_figures_or_periods_in_large_bold_type_is_no_heading(tmp_path: Path) -> None:
    """Intel's Q1 2023 overview sets its key figures ("$11.7B 34.2% 38.4%") and a chart's axis ("Q1 2022 Q1 2023") in
    large bold type, and they were level-1 headings the rest of the page fell under; a line of figures and periods
    names nothing, so the sections stay under the headings with words ("Revenue and margins", "Q3 2023 Highlights");
    nor is a line stating an amount of money (a waterfall chart's labels, "$ 1,393 Q1 2022 DCAI Operating Income")."""
    headings = _headings(tmp_path / "figures.pdf", [
        ("Revenue and margins", 16, "Revenue fell in the quarter on lower demand for notebook and desktop processors across the segments."),
        ("$11.7B 34.2% 38.4%", 16, "Gross margin was lower on higher unit costs and the write-down of inventory in the quarter."),
        ("Q1 2022 Q1 2023", 14, "Operating cash flow fell on the net loss of the quarter and lower customer payments received."),
        # a waterfall chart's first bar: an amount, no heading
        ("$ 1,393 Q1 2022 DCAI Operating Income (Loss)", 14, "Lower revenue and higher unit costs took the segment from an operating income to a loss in the quarter."),
        ("Q3 2023 Highlights", 14, "We launched new processors for laptops and servers and signed an agreement with a foundry customer."),
    ])
    assert "Revenue and margins" in headings and "Q3 2023 Highlights" in headings, headings
    assert not any(h.startswith(("$11.7B", "Q1 2022", "$ 1,393")) for h in headings), headings


def test_a_line_wholly_in_parentheses_is_an_aside_not_a_heading(tmp_path: Path) -> None:
    """Intel's 10-Q sets "(In Millions)" in bold over each of its charts' tables, Amazon's "(unaudited)" under each
    statement's title, the GDPR "(Text with EEA relevance)" under its title: each was a heading the table or the
    preamble after it fell under, away from the heading that names it. A heading with a parenthesised part stays."""
    headings = _headings(tmp_path / "asides.pdf", [
        ("Operating Income Summary", 14, "Operating income increased 19% from the second quarter of last year, on lower operating expenses."),
        ("(In Millions)", 14, "Lower operating expenses driven by cost-cutting measures added most of the increase in the quarter."),
        ("Protected Health Information (PHI)", 14, "Individually identifiable health information that a covered entity transmits or maintains in any form."),
    ])
    assert headings == ["Operating Income Summary", "Protected Health Information (PHI)"], headings
