"""docling on small real Word, Excel, PowerPoint and HTML files written here."""

from __future__ import annotations

from pathlib import Path

from shelfwise.compiler.ingest.convert import convert_file
from shelfwise.compiler.ingest.sections import build_sections
from tests.conftest import write_docx


def test_docx_headings_paragraphs_table(tmp_path: Path):
    path = write_docx(
        tmp_path / "sop.docx",
        "Calibration SOP",
        [(1, "1 Purpose", ["Instruments are calibrated every 12 months."]), (2, "1.1 Scope", ["All pumps."])],
        table=[["Instrument", "Interval"], ["CAL-07", "6 months"]],
    )
    converted = convert_file(path)
    assert converted.title == "Calibration SOP" and converted.reader == "docling"
    sections, _ = build_sections("sop", converted)
    by_heading = {s.heading: s for s in sections}
    assert by_heading["1.1 Scope"].heading_path == ["1 Purpose", "1.1 Scope"]
    assert "Instruments are calibrated every 12 months." in by_heading["1 Purpose"].text
    table = next(b for s in sections for b in s.blocks if b.kind == "table")
    assert table.rows == [["Instrument", "Interval"], ["CAL-07", "6 months"]] and table.header_rows == 1


def test_xlsx_keeps_sheet_names(tmp_path: Path):
    import openpyxl

    book = openpyxl.Workbook()
    first = book.active
    first.title = "Complaints 2026"
    first.append(["ID", "Opened", "Status"])
    first.append(["C-101", "2026-01-04", "Closed"])
    second = book.create_sheet("Calibration")
    second.append(["Instrument", "Due"])
    second.append(["CAL-07", "2026-03-01"])
    book.save(tmp_path / "logs.xlsx")
    sections, _ = build_sections("logs", convert_file(tmp_path / "logs.xlsx"))
    headings = [s.heading for s in sections[1:]]
    assert headings == ["Complaints 2026", "Calibration"]
    calibration = sections[2]
    table = calibration.blocks[0]
    assert table.name == "Calibration" and ["CAL-07", "2026-03-01"] in table.rows


def test_xlsx_sheet_laid_out_by_hand_is_one_table_under_its_header(tmp_path: Path):
    """A registry sheet as people lay it out: a "DRAFT" banner, a group header merged over its sub-headers, a blank
    spacer column, a blank row between entries, and after two blank rows more entries under the same columns."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Accepted Values"
    sheet["A1"] = "DRAFT"
    sheet["A2"] = "Cardinality"
    sheet.merge_cells("A2:B2")
    sheet["D2"] = "Value"
    sheet["E2"] = "Meaning"
    sheet.append([])
    for row, cells in {3: ["SSP", "SAP", None, "", ""], 4: ["1", "n/a", None, "fedramp-jab", "FedRAMP JAB Authorization"],
                       6: ["1", "n/a", None, "fedramp-agency", "FedRAMP Agency Authorization"],
                       9: ["0 or 1", "n/a", None, "fedramp-li-saas", "FedRAMP Tailored for Low Impact SaaS"]}.items():
        for column, value in enumerate(cells, start=1):
            if value:
                sheet.cell(row=row, column=column, value=value)
    book.save(tmp_path / "registry.xlsx")
    converted = convert_file(tmp_path / "registry.xlsx")
    tables = [e for e in converted.elements if e.kind == "table"]
    assert [e.text for e in converted.elements if e.kind == "paragraph"] == ["DRAFT"]  # the banner is no header
    first = tables[0]
    assert first.header_rows == 2 and first.rows[0][:2] == ["Cardinality", "Cardinality"] and first.rows[1][:2] == ["SSP", "SAP"]
    body = [row for row in first.rows[2:] if any(row)]
    assert [row[-2:] for row in body] == [["fedramp-jab", "FedRAMP JAB Authorization"], ["fedramp-agency", "FedRAMP Agency Authorization"]]
    assert body[0][:2] == ["1", "n/a"]  # the row keeps its cells on both sides of the spacer column
    # two blank rows end a table; the rows under them, over the same columns, are read under the same header
    continued = tables[1]
    assert continued.header_rows == 2 and continued.rows[:2] == first.rows[:2]
    assert continued.rows[-1][-2:] == ["fedramp-li-saas", "FedRAMP Tailored for Low Impact SaaS"]


def test_xlsx_title_above_a_sheets_table_is_a_paragraph_and_dates_read_as_shown(tmp_path: Path):
    from datetime import datetime

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Information"
    sheet["A1"] = "Version History"
    sheet.merge_cells("A1:C1")
    sheet.append(["Date", "Description", "Version"])
    sheet.append([datetime(2019, 11, 27), "Initial draft", "DRAFT 1.0"])
    sheet.append([datetime(2020, 8, 1), "Revised draft", "DRAFT 2.0"])
    book.save(tmp_path / "info.xlsx")
    converted = convert_file(tmp_path / "info.xlsx")
    assert [e.text for e in converted.elements if e.kind == "paragraph"] == ["Version History"]
    table = next(e for e in converted.elements if e.kind == "table")
    assert table.header_rows == 1 and table.rows == [["Date", "Description", "Version"], ["2019-11-27", "Initial draft", "DRAFT 1.0"],
                                                      ["2020-08-01", "Revised draft", "DRAFT 2.0"]]


def test_pptx_slides_become_sections_with_pages(tmp_path: Path):
    from pptx import Presentation

    deck = Presentation()
    for title, body in [("Welcome", "Training on complaint intake."), ("Step 3: Triage", "Classify each complaint within 1 day.")]:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    deck.save(tmp_path / "deck.pptx")
    converted = convert_file(tmp_path / "deck.pptx")
    sections, _ = build_sections("deck", converted)
    triage = next(s for s in sections if s.heading == "Step 3: Triage")
    assert triage.page_start == 2 and "Classify each complaint within 1 day." in triage.text
    assert converted.pages == 2


def _html_sections(path: Path, title: str, body: str) -> list:
    """The sections of an HTML page titled ``title`` (its <title> and <h1>) with ``body`` under its <h1>."""
    path.write_text(f"<!doctype html><html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>",
                    encoding="utf-8")
    sections, _ = build_sections(path.stem, convert_file(path))
    return sections


def test_html_headings_and_table(tmp_path: Path):
    sections = _html_sections(tmp_path / "risk.html", "Risk File",
                              "<h2>Hazards</h2><p>Over-infusion is the top hazard.</p>"
                              "<table><tr><th>Hazard</th><th>Severity</th></tr><tr><td>Over-infusion</td><td>5</td></tr></table>"
                              "<h2>Controls</h2><p>Alarms must sound within 5 seconds.</p>")
    by_heading = {s.heading: s for s in sections}
    assert "Over-infusion is the top hazard." in by_heading["Hazards"].text
    table = next(b for b in by_heading["Hazards"].blocks if b.kind == "table")
    assert table.rows[0] == ["Hazard", "Severity"] and table.rows[1] == ["Over-infusion", "5"]
    assert "Alarms must sound within 5 seconds." in by_heading["Controls"].text


def test_an_html_paragraph_set_wholly_in_bold_is_a_heading_under_the_heading_above(tmp_path: Path):
    """Creative Commons' legal code marks its sections as <p><strong>Section 2 – Scope.</strong></p> under one <h3>:
    each is a section of its own, a level under the <h3>, all of them siblings. A bold lead-in of a paragraph, a bold
    label ending in a colon and a bold sentence of many words stay text."""
    sections = _html_sections(tmp_path / "licence.html", "Licence",
                              "<h3>Example Public License</h3><p>By using the material you accept these terms.</p>"
                              "<p id='s1'><strong>Section 1 – Definitions.</strong></p><ol><li><strong>Share</strong> means to provide material to the public.</li></ol>"
                              "<p id='s2'><strong>Section 2 – Scope.</strong></p><p><strong>Considerations:</strong> the licensor grants a licence.</p>"
                              "<p><strong>Note:</strong></p><p>Rights are granted worldwide.</p>"
                              "<p><strong>You must keep every notice of the licensor intact whenever you share the licensed material with anyone at all.</strong></p>")
    levels = {s.heading: s.level for s in sections}
    assert levels["Section 1 - Definitions."] == levels["Section 2 - Scope."] == levels["Example Public License"] + 1  # docling writes '–' as '-'
    by_heading = {s.heading: s for s in sections}
    assert "means to provide material to the public" in by_heading["Section 1 - Definitions."].text
    scope = by_heading["Section 2 - Scope."].text
    assert "Considerations: the licensor grants a licence." in scope and "Note:" in scope and "You must keep every notice" in scope
    assert not any(h.startswith(("Note", "Considerations", "You must", "Share")) for h in levels)


def test_pptx_picture_takes_the_following_figure_caption(tmp_path: Path):
    import io

    from PIL import Image
    from pptx import Presentation
    from pptx.util import Inches

    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 30)).save(buffer, format="PNG")
    buffer.seek(0)
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Triage"
    slide.shapes.add_picture(buffer, Inches(1), Inches(2))
    box = slide.shapes.add_textbox(Inches(1), Inches(5), Inches(6), Inches(1))
    box.text_frame.text = "Figure 1: Triage decision flow"
    deck.save(tmp_path / "deck.pptx")
    sections, figures = build_sections("deck", convert_file(tmp_path / "deck.pptx"))
    assert [f.caption for f in figures] == ["Figure 1: Triage decision flow"]
    assert figures[0].image and figures[0].image.startswith(b"\x89PNG")
    assert "Figure 1: Triage decision flow" in sections[1].text


def test_titles_come_from_the_core_properties_never_a_sheet_name(tmp_path: Path):
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Calibration"
    book.active.append(["Instrument", "Due"])
    book.active.append(["CAL-07", "2026-03-01"])
    book.properties.title = "REG-007 Calibration Register"
    book.save(tmp_path / "register.xlsx")
    assert convert_file(tmp_path / "register.xlsx").title == "REG-007 Calibration Register"
    book.properties.title = None
    book.save(tmp_path / "calibration-register.xlsx")
    assert convert_file(tmp_path / "calibration-register.xlsx").title == "calibration register"


def test_numbered_word_list_keeps_its_numbers(tmp_path: Path):
    from docx import Document

    document = Document()
    document.add_heading("Procedure", level=1)
    for step in ("Receive the complaint.", "Record it.", "Acknowledge it."):
        document.add_paragraph(step, style="List Number")
    document.save(tmp_path / "steps.docx")
    items = [e.text for e in convert_file(tmp_path / "steps.docx").elements if e.kind == "list_item"]
    assert items == ["1. Receive the complaint.", "2. Record it.", "3. Acknowledge it."]


def test_slide_figure_takes_the_caption_two_paragraphs_below(tmp_path: Path):
    import io

    from PIL import Image
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Triage"
    picture = io.BytesIO()
    Image.new("RGB", (120, 80), (200, 30, 30)).save(picture, format="PNG")
    slide.shapes.add_picture(picture, Inches(1), Inches(1.5), width=Inches(3))
    box = slide.shapes.add_textbox(Inches(1), Inches(4), Inches(8), Inches(2)).text_frame
    box.text = "The specialist decides at step 4."
    for text in ("A death or serious injury is always reportable.", "Figure 1: Triage decision for a new complaint"):
        box.add_paragraph().text = text
    deck.save(tmp_path / "deck.pptx")
    converted = convert_file(tmp_path / "deck.pptx")
    figures = [e for e in converted.elements if e.kind == "figure"]
    assert [f.text for f in figures] == ["Figure 1: Triage decision for a new complaint"]
    assert "Figure 1: Triage decision for a new complaint" not in [e.text for e in converted.elements if e.kind == "paragraph"]


def test_a_word_paragraph_of_several_runs_is_read_as_one_paragraph(tmp_path: Path):
    """docling splits a Word paragraph with mixed formatting or a hyperlink into an inline group of runs; the reader
    joins them back, so 'A4 … and A7 … merged into A5:2017 …' is one sentence (the OWASP 2017 release notes came out
    as eight one-word paragraphs), and a list item keeps its joined text."""
    import docx

    document = docx.Document()
    document.add_heading("Release Notes", level=1)
    paragraph = document.add_paragraph()
    for text, bold in (("A4-Insecure Direct Object References", True), (" and ", False),
                       ("A7-Missing Function Level Access Control", True), (" merged into ", False),
                       ("A5:2017-Broken Access Control", True), (".", False)):
        paragraph.add_run(text).bold = bold
    item = document.add_paragraph(style="List Bullet")
    item.add_run("CSRF").italic = True
    item.add_run(" was found in only 5% of applications.")
    document.add_paragraph("A plain paragraph.")
    document.save(tmp_path / "notes.docx")
    converted = convert_file(tmp_path / "notes.docx")
    texts = [(e.kind, e.text) for e in converted.elements if e.kind != "heading"]
    assert texts == [("paragraph", "A4-Insecure Direct Object References and A7-Missing Function Level Access Control merged into A5:2017-Broken Access Control."),
                     ("list_item", "CSRF was found in only 5% of applications."),
                     ("paragraph", "A plain paragraph.")], texts
