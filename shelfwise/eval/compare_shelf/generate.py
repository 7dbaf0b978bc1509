"""Write the synthetic comparison shelf (shelfwise/eval/compare_shelf/forms.py) as PDF, DOCX and XLSX, with its truth file.

    .venv/bin/python -m shelfwise.eval.compare_shelf.generate OUT_DIR

OUT_DIR receives documents/, shelf.toml (each document's title declared) and
truth.json (every changed field of every pair, and the fields that did not
change). Deterministic: reportlab runs with invariant=1. The output is not
committed; ``make bench-compare`` writes it under build/.
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

from shelfwise.eval.compare_shelf.forms import ALONE, PAIRS

__all__ = ["write_shelf", "main"]


def _pdf(blocks: list, title: str) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    story = []
    for block in blocks:
        if block[0] == "h":
            story.append(Paragraph(block[2], styles["Heading1" if block[1] == 1 else "Heading2"]))
        elif block[0] == "p":
            story.append(Paragraph(block[1], styles["BodyText"]))
        elif block[0] == "l":
            story.extend(Paragraph(f"{label}: {value}", styles["BodyText"]) for label, value in block[1])
        else:
            table = Table(block[1])
            table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("FONTSIZE", (0, 0), (-1, -1), 9)]))
            story.extend([table, Spacer(1, 8)])
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=A4, title=title, author="shelfwise compare benchmark", invariant=1).build(story)
    return out.getvalue()


def _docx(blocks: list, title: str) -> bytes:
    from docx import Document

    document = Document()
    document.core_properties.title = title
    for block in blocks:
        if block[0] == "h":
            document.add_heading(block[2], level=block[1])
        elif block[0] == "p":
            document.add_paragraph(block[1])
        elif block[0] == "l":
            for label, value in block[1]:
                document.add_paragraph(f"{label}: {value}")
        else:
            rows = block[1]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = "Table Grid"
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
    out = io.BytesIO()
    document.save(out)
    return _fixed(out.getvalue())


def _xlsx(blocks: list, title: str) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Return" if "Return" in title else "Invoice"
    book.properties.title = title
    row = 1
    for block in blocks:
        if block[0] in ("t", "l"):
            for cells in block[1]:
                for column, cell in enumerate(cells, start=1):
                    sheet.cell(row=row, column=column, value=cell)
                row += 1
            row += 1
    out = io.BytesIO()
    book.save(out)
    return _fixed(out.getvalue())


def _fixed(data: bytes) -> bytes:
    """OOXML with fixed timestamps, so the same input gives the same bytes."""
    import re
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        entries = {info.filename: archive.read(info) for info in archive.infolist()}
    if "docProps/core.xml" in entries:
        core = entries["docProps/core.xml"].decode("utf-8")
        entries["docProps/core.xml"] = re.sub(r"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)", r"\g<1>2026-01-01T00:00:00Z\g<2>", core).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(entries, key=lambda n: (n != "[Content_Types].xml", n)):
            archive.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), entries[name])
    return out.getvalue()


WRITERS = {".pdf": _pdf, ".docx": _docx, ".xlsx": _xlsx}


def _doc_id(file_name: str) -> str:
    return "documents-" + file_name.replace(".", "-")


def write_shelf(out: Path) -> dict:
    """Write every document, shelf.toml and truth.json under ``out``; returns the truth."""
    documents = out / "documents"
    documents.mkdir(parents=True, exist_ok=True)
    declared = []
    truth = {"pairs": [], "alone": []}
    for pair in PAIRS:
        for file_name, title, blocks in (pair["a"], pair["b"]):
            (documents / file_name).write_bytes(WRITERS[Path(file_name).suffix](blocks, title))
            declared.append((file_name, title))
        truth["pairs"].append({"name": pair["name"], "kind": pair["kind"], "doc_a": _doc_id(pair["a"][0]), "doc_b": _doc_id(pair["b"][0]),
                               "changes": pair["truth"], "unchanged": pair["unchanged"]})
    for alone in ALONE:
        file_name, title, blocks = alone["doc"]
        (documents / file_name).write_bytes(WRITERS[Path(file_name).suffix](blocks, title))
        declared.append((file_name, title))
        truth["alone"].append({"name": alone["name"], "doc": _doc_id(file_name), "why": alone["why"]})
    lines = ['name = "compare-bench"', 'title = "Synthetic returns, invoices and a procedure"', 'include = ["documents/**/*"]', ""]
    for file_name, title in sorted(declared):
        lines += ["[[documents]]", f'path = "documents/{file_name}"', f'title = "{title}"', ""]
    (out / "shelf.toml").write_text("\n".join(lines), encoding="utf-8")
    (out / "truth.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return truth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    truth = write_shelf(parser.parse_args().out)
    print(f"{len(truth['pairs'])} pairs, {sum(len(p['changes']) for p in truth['pairs'])} changed fields, {len(truth['alone'])} alone")


if __name__ == "__main__":
    main()
