"""Shared fixtures: small real documents written by code, and the path of ../shared/corpora."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")

from shelfwise.compiler.offline import prepare  # noqa: E402 - before any test imports docling or transformers

prepare()

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
QUESTIONS = ROOT.parent / "shared" / "questions" / "dev.yaml"


@pytest.fixture
def corpora() -> Path:
    if not CORPORA.is_dir():
        pytest.skip("../shared/corpora is not present")
    return CORPORA


WIDGET_TEXI = """\\input texinfo
@include version.texi
@set EDITION 2.3
@settitle Widget Manual
@copying
This is Edition @value{EDITION}, last updated @value{UPDATED},
of @cite{The Widget Manual}, for Widget version @value{VERSION}.
@end copying
@titlepage
@insertcopying
@end titlepage
@node Top
@top Widget Manual
@insertcopying

@node Overview
@chapter Overview
Widgets turn.
@bye
"""
"""A manual's Texinfo source as GNU's are written: its edition in the @copying notice, set into the Top node by
@insertcopying, its date and version in a version.texi the shelf lacks."""


def write_docx(path: Path, title: str, sections: list[tuple[int, str, list[str]]], table: list[list[str]] | None = None) -> Path:
    """A real .docx with heading styles, paragraphs and an optional table."""
    import docx

    document = docx.Document()
    document.add_heading(title, level=0)
    for level, heading, paragraphs in sections:
        document.add_heading(heading, level=level)
        for paragraph in paragraphs:
            document.add_paragraph(paragraph)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
    document.save(path)
    return path


def write_pdf(path: Path, pages: list[list[tuple[str, str]]], encrypt: str | None = None) -> Path:
    """A real PDF: each page a list of (style, text) with style 'h1', 'h2' or 'p'."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1, encrypt=encrypt)
    for page in pages:
        y = 800
        for style, text in page:
            font, size = {"h1": ("Helvetica-Bold", 18), "h2": ("Helvetica-Bold", 14), "p": ("Helvetica", 10)}[style]
            c.setFont(font, size)
            c.drawString(60, y, text)
            y -= size * 2
        c.showPage()
    c.save()
    return path


@pytest.fixture(scope="session")
def demo_site(tmp_path_factory):
    """The demo shelf (shelves/northwind) compiled once per session with the ledger and the site: (settings, shelf, report)."""
    from shelfwise.compiler.build import build_shelf
    from shelfwise.compiler.build import links_stage
    from shelfwise.compiler.settings import Settings
    from shelfwise.compiler.publish.site import site_stage

    shelf = ROOT / "shelves" / "northwind"
    if not (shelf / "documents").is_dir():
        pytest.skip("the demo shelf has not been generated")
    settings = Settings(build_dir=tmp_path_factory.mktemp("demo-site") / "build")
    report = build_shelf(shelf, settings, progress=lambda line: None, stages=[links_stage(), site_stage(settings, shelf)])
    return settings, shelf, report
