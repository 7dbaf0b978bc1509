"""A scanned PDF made here: a reportlab text page rendered to an image by pdfium, the image wrapped in a new PDF."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

SIZE = (420, 300)
HEADING = "3 Calibration Results"
PARAGRAPH = [
    "The flow sensor of every returned pump was checked",
    "against the reference meter at three rates. All readings",
    "stayed within two percent of the set rate.",
]


def scanned_pdf(path: Path, dpi: int = 150) -> Path:
    """Draw the text page, render it at ``dpi``, and store only the picture in ``path`` (no text layer)."""
    source = io.BytesIO()
    page = canvas.Canvas(source, pagesize=SIZE)
    page.setFont("Helvetica-Bold", 16)
    page.drawString(36, SIZE[1] - 60, HEADING)
    page.setFont("Helvetica", 11)
    for number, line in enumerate(PARAGRAPH):
        page.drawString(36, SIZE[1] - 95 - 15 * number, line)
    page.save()
    document = pdfium.PdfDocument(source.getvalue())
    image = document[0].render(scale=dpi / 72).to_pil().convert("L")
    document.close()
    scan = canvas.Canvas(str(path), pagesize=SIZE)
    scan.drawImage(ImageReader(image), 0, 0, width=SIZE[0], height=SIZE[1])
    scan.save()
    return path
