"""Render parsed source blocks into PDF, Word, HTML, Markdown, PowerPoint and Excel bytes.

Each writer returns the file's bytes, identical from run to run: reportlab runs with
``invariant=1`` and every OOXML package goes through ``fixed_zip`` (fixed core-property
dates, fixed entry timestamps, sorted entries).
"""

from __future__ import annotations

import html
import io
import re
import zipfile
from dataclasses import dataclass

from markup import Block

FIXED_DATE = "2026-06-30T09:00:00Z"
ZIP_TIME = (2026, 6, 30, 9, 0, 0)
COMPANY = "Northwind Medical, Inc."


@dataclass
class Meta:
    """Document control block printed on every document's first page."""

    number: str
    title: str
    revision: str
    effective: str
    status: str
    owner: str
    approver: str

    @property
    def full_title(self) -> str:
        return f"{self.number} {self.title}"

    def control_rows(self) -> list[list[str]]:
        return [
            ["Document", "Revision", "Effective date", "Status"],
            [self.number, self.revision, self.effective, self.status],
            ["Owner", self.owner, "Approved by", self.approver],
        ]


def fixed_zip(data: bytes) -> bytes:
    """Rewrite an OOXML package with fixed timestamps and entries in a fixed order."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        entries = {info.filename: archive.read(info) for info in archive.infolist()}
    core = entries.get("docProps/core.xml")
    if core is not None:
        text = core.decode("utf-8")
        text = re.sub(r"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)", rf"\g<1>{FIXED_DATE}\g<2>", text)
        entries["docProps/core.xml"] = text.encode("utf-8")
    names = sorted(entries, key=lambda name: (name != "[Content_Types].xml", name))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in names:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 0
            info.external_attr = 0
            archive.writestr(info, entries[name])
    return out.getvalue()


# ---------------------------------------------------------------- PDF (reportlab)


def write_pdf(blocks: list[Block], meta: Meta, images: dict[str, bytes]) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_LEFT
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import cm
    from reportlab.lib.utils import ImageReader
    from reportlab.platypus import Image, KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    body = ParagraphStyle("body", fontName="Helvetica", fontSize=11, leading=16, spaceAfter=8, alignment=TA_LEFT)
    heads = {
        1: ParagraphStyle("h1", fontName="Helvetica-Bold", fontSize=15, leading=19, spaceBefore=14, spaceAfter=8),
        2: ParagraphStyle("h2", fontName="Helvetica-Bold", fontSize=13, leading=17, spaceBefore=10, spaceAfter=6),
        3: ParagraphStyle("h3", fontName="Helvetica-Bold", fontSize=11.5, leading=15, spaceBefore=8, spaceAfter=5),
    }
    title = ParagraphStyle("title", fontName="Helvetica-Bold", fontSize=22, leading=28, spaceAfter=6)
    small = ParagraphStyle("small", fontName="Helvetica", fontSize=9, leading=12)
    cell = ParagraphStyle("cell", fontName="Helvetica", fontSize=9, leading=12)
    item = ParagraphStyle("item", parent=body, leftIndent=18, bulletIndent=6, spaceAfter=4)
    step = ParagraphStyle("step", parent=body, leftIndent=22, firstLineIndent=-22, spaceAfter=6)

    def table(rows: list[list[str]], widths: list[float] | None = None) -> Table:
        data = [[Paragraph(html.escape(c), cell) for c in row] for row in rows]
        grid = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
        grid.setStyle(TableStyle([
            ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.88, 0.91, 0.95)),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]))
        return grid

    story: list = [
        Paragraph(COMPANY, small),
        Spacer(1, 0.3 * cm),
        Paragraph(html.escape(meta.full_title), title),
        Spacer(1, 0.2 * cm),
        table(meta.control_rows(), [3.4 * cm, 4.4 * cm, 3.4 * cm, 5.4 * cm]),
        Spacer(1, 0.4 * cm),
    ]
    for block in blocks:
        if block.kind == "heading":
            story.append(Paragraph(html.escape(block.text), heads[block.level]))
        elif block.kind == "para":
            story.append(Paragraph(html.escape(block.text), body))
        elif block.kind == "bullet":
            story.append(Paragraph(html.escape(block.text), item, bulletText="-"))
        elif block.kind == "step":
            story.append(Paragraph(f"{block.number}.&nbsp;&nbsp;&nbsp;{html.escape(block.text)}", step))
        elif block.kind == "table":
            story.extend([table(block.rows), Spacer(1, 0.35 * cm)])
        elif block.kind == "figure":
            reader = ImageReader(io.BytesIO(images[block.figure]))
            width, height = reader.getSize()
            scale = 14 * cm / width
            story.append(KeepTogether([Image(io.BytesIO(images[block.figure]), 14 * cm, height * scale),
                                       Paragraph(html.escape(block.text), small), Spacer(1, 0.3 * cm)]))

    footer = f"{COMPANY} \u2014 {meta.full_title}, Rev {meta.revision} \u2014 Page "

    def on_page(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(2.2 * cm, 1.2 * cm, f"{footer}{doc.page}")
        canvas.restoreState()

    out = io.BytesIO()
    doc = SimpleDocTemplate(
        out, pagesize=A4, leftMargin=2.2 * cm, rightMargin=2.2 * cm, topMargin=2.0 * cm, bottomMargin=2.2 * cm,
        title=meta.full_title, author=COMPANY, subject=f"Revision {meta.revision}", creator="shelfwise demo generator",
        invariant=1,
    )
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return out.getvalue()


# ---------------------------------------------------------------- Word (python-docx)


def write_docx(blocks: list[Block], meta: Meta, images: dict[str, bytes]) -> bytes:
    import datetime

    from docx import Document
    from docx.shared import Cm, Pt

    document = Document()
    document.styles["Normal"].font.name = "Calibri"
    document.styles["Normal"].font.size = Pt(11)
    props = document.core_properties
    props.title, props.author, props.subject = meta.full_title, COMPANY, f"Revision {meta.revision}"
    props.last_modified_by, props.revision = COMPANY, 1
    props.created = props.modified = datetime.datetime(2026, 6, 30, 9, 0, 0)

    def table(rows: list[list[str]]) -> None:
        grid = document.add_table(rows=len(rows), cols=len(rows[0]))
        grid.style = "Table Grid"
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
                if r == 0:
                    for run in grid.cell(r, c).paragraphs[0].runs:
                        run.bold = True

    document.add_paragraph(COMPANY)
    document.add_heading(meta.full_title, level=0)
    table(meta.control_rows())
    for block in blocks:
        if block.kind == "heading":
            document.add_heading(block.text, level=block.level)
        elif block.kind == "para":
            document.add_paragraph(block.text)
        elif block.kind == "bullet":
            document.add_paragraph(block.text, style="List Bullet")
        elif block.kind == "step":
            paragraph = document.add_paragraph(f"{block.number}. {block.text}")
            paragraph.paragraph_format.left_indent = Cm(0.8)
            paragraph.paragraph_format.first_line_indent = Cm(-0.8)
        elif block.kind == "table":
            table(block.rows)
            document.add_paragraph("")
        elif block.kind == "figure":
            document.add_picture(io.BytesIO(images[block.figure]), width=Cm(14))
            document.add_paragraph(block.text, style="Caption")
    out = io.BytesIO()
    document.save(out)
    return fixed_zip(out.getvalue())


# ---------------------------------------------------------------- HTML and Markdown


def write_html(blocks: list[Block], meta: Meta, images: dict[str, bytes]) -> bytes:
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{esc(meta.full_title)}</title>",
        "<style>body{font-family:sans-serif;max-width:52em;margin:2em auto;line-height:1.45}"
        "table{border-collapse:collapse}td,th{border:1px solid #999;padding:4px 8px;vertical-align:top}</style>",
        "</head>",
        "<body>",
        f"<p>{esc(COMPANY)}</p>",
        f"<h1>{esc(meta.full_title)}</h1>",
    ]

    def table(rows: list[list[str]]) -> None:
        parts.append("<table>")
        parts.append("<thead><tr>" + "".join(f"<th>{esc(c)}</th>" for c in rows[0]) + "</tr></thead>")
        parts.append("<tbody>")
        parts.extend("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows[1:])
        parts.append("</tbody></table>")

    table(meta.control_rows())
    open_list = ""
    for block in blocks:
        wanted = {"bullet": "ul", "step": "ol"}.get(block.kind, "")
        if open_list and open_list != wanted:
            parts.append(f"</{open_list}>")
            open_list = ""
        if wanted and not open_list:
            start = f' start="{block.number}"' if wanted == "ol" else ""
            parts.append(f"<{wanted}{start}>")
            open_list = wanted
        if block.kind == "heading":
            level = block.level + 1
            parts.append(f"<h{level}>{esc(block.text)}</h{level}>")
        elif block.kind == "para":
            parts.append(f"<p>{esc(block.text)}</p>")
        elif block.kind in ("bullet", "step"):
            parts.append(f"<li>{esc(block.text)}</li>")
        elif block.kind == "table":
            table(block.rows)
        elif block.kind == "figure":
            raise ValueError(f"figure {block.figure!r} in an HTML source: HTML documents here are single files")
    if open_list:
        parts.append(f"</{open_list}>")
    parts.extend(["</body>", "</html>", ""])
    return "\n".join(parts).encode("utf-8")


def write_markdown(blocks: list[Block], meta: Meta, images: dict[str, bytes]) -> bytes:
    def row(cells: list[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    control = meta.control_rows()
    lines = [f"# {meta.full_title}", "", COMPANY, "", row(control[0]), row(["---"] * len(control[0])),
             *[row(r) for r in control[1:]], ""]
    previous = ""
    for block in blocks:
        if previous in ("bullet", "step") and block.kind != previous:
            lines.append("")
        if block.kind == "heading":
            lines.extend([f"{'#' * (block.level + 1)} {block.text}", ""])
        elif block.kind == "para":
            lines.extend([block.text, ""])
        elif block.kind == "bullet":
            lines.append(f"- {block.text}")
        elif block.kind == "step":
            lines.append(f"{block.number}. {block.text}")
        elif block.kind == "table":
            lines.extend([row(block.rows[0]), row(["---"] * len(block.rows[0])), *[row(r) for r in block.rows[1:]], ""])
        elif block.kind == "figure":
            raise ValueError(f"figure {block.figure!r} in a Markdown source: Markdown documents here are single files")
        previous = block.kind
    return ("\n".join(lines).rstrip() + "\n").encode("utf-8")


# ---------------------------------------------------------------- PowerPoint (python-pptx)


def write_pptx(blocks: list[Block], meta: Meta, images: dict[str, bytes]) -> bytes:
    import datetime

    from pptx import Presentation
    from pptx.util import Cm, Pt

    deck = Presentation()
    deck.slide_width, deck.slide_height = Cm(33.867), Cm(19.05)
    props = deck.core_properties
    props.title, props.author, props.subject = meta.full_title, COMPANY, f"Revision {meta.revision}"
    props.last_modified_by, props.revision = COMPANY, 1
    props.created = props.modified = datetime.datetime(2026, 6, 30, 9, 0, 0)

    cover = deck.slides.add_slide(deck.slide_layouts[0])
    cover.shapes.title.text = meta.full_title
    cover.placeholders[1].text = f"{COMPANY} \u2014 Revision {meta.revision}, effective {meta.effective}"

    slides: list[tuple[str, list[Block]]] = []
    for block in blocks:
        if block.kind == "heading":
            slides.append((block.text, []))
        else:
            slides[-1][1].append(block)
    for title, items in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[5])  # title only
        slide.shapes.title.text = title
        figure = next((b for b in items if b.kind == "figure"), None)
        text_width = Cm(15.5) if figure else Cm(30)
        box = slide.shapes.add_textbox(Cm(1.9), Cm(4.6), text_width, Cm(13))
        frame = box.text_frame
        frame.word_wrap = True
        first = True
        for block in items:
            if block.kind == "figure":
                continue
            paragraph = frame.paragraphs[0] if first else frame.add_paragraph()
            first = False
            prefix = f"{block.number}. " if block.kind == "step" else ""
            paragraph.text = prefix + block.text
            if block.kind == "bullet":
                _pptx_bullet(paragraph)
            paragraph.font.size = Pt(16)
            paragraph.space_after = Pt(8)
        if figure:
            slide.shapes.add_picture(io.BytesIO(images[figure.figure]), Cm(18), Cm(4.4), width=Cm(14.2))
            caption = slide.shapes.add_textbox(Cm(18), Cm(16.3), Cm(14.2), Cm(1.6))
            caption.text_frame.word_wrap = True
            caption.text_frame.paragraphs[0].text = figure.text
            caption.text_frame.paragraphs[0].font.size = Pt(12)
    out = io.BytesIO()
    deck.save(out)
    return fixed_zip(out.getvalue())


def _pptx_bullet(paragraph) -> None:
    """Give a text-box paragraph a real bullet (a:buChar) with a hanging indent."""
    from pptx.oxml.ns import qn

    properties = paragraph._p.get_or_add_pPr()
    properties.set("marL", "342900")
    properties.set("indent", "-342900")
    bullet = properties.makeelement(qn("a:buChar"), {"char": "\u2022"})
    properties.append(bullet)


# ---------------------------------------------------------------- Excel (openpyxl)


def write_xlsx(sheets: list[tuple[str, list[list[str]]]], meta: Meta) -> bytes:
    import datetime

    from openpyxl import Workbook
    from openpyxl.styles import Font, PatternFill

    book = Workbook()
    book.remove(book.active)
    book.properties.title, book.properties.creator = meta.full_title, COMPANY
    book.properties.created = book.properties.modified = datetime.datetime(2026, 6, 30, 9, 0, 0)
    for name, rows in sheets:
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append([int(v) if v.isdigit() and len(v) < 6 else v for v in row])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
            cell.fill = PatternFill("solid", fgColor="DCE6F1")
        for column, header in zip(sheet.columns, rows[0]):
            width = max(len(str(c.value or "")) for c in column)
            sheet.column_dimensions[column[0].column_letter].width = min(60, max(10, width + 2))
        sheet.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return fixed_zip(out.getvalue())
