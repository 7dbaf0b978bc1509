"""Writers that put one :class:`~shelfwise.eval.synth.content.DocSpec` on disk in a real format.

Markdown and HTML are written as text; Word with python-docx (real Heading styles), Excel with openpyxl (one
sheet per top-level section, the forms table as cells), PDF with reportlab (headings set larger and bold, as
an office suite exports them). Every writer is byte-deterministic: document properties carry a fixed date,
zip members a fixed timestamp, and reportlab runs in its ``invariant`` mode.
"""

from __future__ import annotations

import datetime
import html
import re
import zipfile
from pathlib import Path

from shelfwise.compiler.store.records import table_line
from shelfwise.eval.synth.content import DocSpec

__all__ = ["write_document", "WRITERS"]

_FIXED = datetime.datetime(2025, 1, 1, 0, 0, 0)


def _markdown(doc: DocSpec, path: Path) -> None:
    lines = [f"# {doc.title}", ""]
    for section in doc.sections:
        lines += ["#" * (section.level + 1) + f" {section.title}", ""]
        for paragraph in section.paragraphs:
            lines += [paragraph, ""]
        if section.table:
            head, *rows = section.table
            lines += [table_line(head), "|" + "---|" * len(head)]
            lines += [table_line(row) for row in rows]
            lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


def _html(doc: DocSpec, path: Path) -> None:
    esc = html.escape
    parts = ["<!DOCTYPE html>", "<html><head><meta charset=\"utf-8\">", f"<title>{esc(doc.title)}</title></head><body>",
             f"<h1>{esc(doc.title)}</h1>"]
    for section in doc.sections:
        level = section.level + 1
        parts.append(f"<h{level}>{esc(section.title)}</h{level}>")
        parts += [f"<p>{esc(p)}</p>" for p in section.paragraphs]
        if section.table:
            head, *rows = section.table
            parts.append("<table><tr>" + "".join(f"<th>{esc(c)}</th>" for c in head) + "</tr>")
            parts += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows]
            parts.append("</table>")
    parts.append("</body></html>")
    path.write_text("\n".join(parts), encoding="utf-8")


def _fix_zip(path: Path) -> None:
    """Rewrite a zip with every member dated _FIXED, in name order, so the same content gives the same bytes."""
    with zipfile.ZipFile(path) as archive:
        members = [(info.filename, archive.read(info.filename)) for info in archive.infolist()]
    stamp = _FIXED.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    members = [(name, re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*", rb"\g<1>" + stamp, data) if name == "docProps/core.xml" else data)
               for name, data in members]  # openpyxl stamps the save time over the one it was given
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=_FIXED.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)


def _docx(doc: DocSpec, path: Path) -> None:
    import docx

    document = docx.Document()
    props = document.core_properties
    props.title, props.author, props.created, props.modified, props.revision = doc.title, "synth", _FIXED, _FIXED, 1
    props.last_printed = _FIXED
    document.add_heading(doc.title, level=0)
    for section in doc.sections:
        document.add_heading(section.title, level=section.level)
        for paragraph in section.paragraphs:
            document.add_paragraph(paragraph)
        if section.table:
            table = document.add_table(rows=len(section.table), cols=len(section.table[0]))
            table.style = "Table Grid"
            for r, row in enumerate(section.table):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
    document.save(path)
    _fix_zip(path)


def _xlsx(doc: DocSpec, path: Path) -> None:
    """One sheet per top-level section: its heading path and paragraphs in column A, a table as a grid."""
    import openpyxl

    book = openpyxl.Workbook()
    book.properties.title, book.properties.creator = doc.title, "synth"
    book.properties.created = book.properties.modified = _FIXED
    book.remove(book.active)
    sheet = None
    for section in doc.sections:
        if section.level == 1:
            sheet = book.create_sheet(f"{section.number} {section.heading}"[:31])
            sheet.append([doc.title])
        sheet.append([section.title])
        for paragraph in section.paragraphs:
            sheet.append([paragraph])
        if section.table:
            for row in section.table:
                sheet.append(row)
        sheet.append([])
    book.save(path)
    _fix_zip(path)


def _pdf(doc: DocSpec, path: Path) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    sizes = {0: 18, 1: 14, 2: 12}
    styles = {level: ParagraphStyle(f"h{level}", fontName="Helvetica-Bold", fontSize=size, leading=size * 1.3, spaceBefore=8, spaceAfter=4)
              for level, size in sizes.items()}
    body = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=13, spaceAfter=4)
    flow = [Paragraph(html.escape(doc.title), styles[0])]
    for section in doc.sections:
        flow.append(Paragraph(html.escape(section.title), styles[min(section.level, 2)]))
        flow += [Paragraph(html.escape(p), body) for p in section.paragraphs]
        if section.table:
            table = Table(section.table)
            table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                                       ("FONTSIZE", (0, 0), (-1, -1), 9)]))
            flow += [table, Spacer(1, 6)]
    SimpleDocTemplate(str(path), pagesize=A4, title=doc.title, author="synth", invariant=1).build(flow)


WRITERS = {"markdown": _markdown, "html": _html, "docx": _docx, "xlsx": _xlsx, "pdf": _pdf}


def write_document(doc: DocSpec, root: Path) -> Path:
    """Write ``doc`` under ``root`` at its relative path; returns the file written."""
    path = root / doc.relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    WRITERS[doc.fmt](doc, path)
    return path
