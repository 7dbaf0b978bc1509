"""Glossaries set in two columns in a PDF are read as a table of term and meaning; two columns of prose and numbered
paragraphs are not. Drawn with reportlab, read back by the text-layer reader."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen import canvas

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf import read_text_layer

WIDTH, HEIGHT = 612, 792
TERMS = [("ASP", ["Average selling price"]), ("IDM 2.0", ["Evolution of our IDM model that combines our internal factory network,",
                                                          "strategic use of foundries and our foundry services business"]),
         ("IFS", ["Intel Foundry Services operating segment"]), ("Form 10-Q", ["Quarterly Report on Form 10-Q for the quarter"]),
         ("R&D", ["Research and development"])]


def test_a_glossary_in_two_columns_is_a_table_of_term_and_meaning(tmp_path: Path) -> None:
    """Intel's 10-Q prints its key terms as two columns of text under "Term" and "Definition"; each pair read as a
    paragraph running the term into its meaning ("IFS Intel Foundry Services operating segment", quoted so in answers)
    and a wrapped meaning as a paragraph of its own. The glossary is a table headed by its header line; a wrapped
    meaning stays with its term; the paragraph above stays a paragraph."""
    path = tmp_path / "glossary.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Helvetica", 8)
    pdf.drawString(24, HEIGHT - 84, "We use terms throughout our document that are specific to us or that are abbreviations.")
    pdf.drawCentredString(75, HEIGHT - 103, "Term")
    pdf.drawCentredString(360, HEIGHT - 103, "Definition")
    y = HEIGHT - 114
    for term, meaning in TERMS:
        pdf.drawString(25, y, term)
        for line in meaning:
            pdf.drawString(132, y, line)
            y -= 9
        y -= 2
    pdf.save()
    elements = read_text_layer(path, ReadOptions()).elements
    tables = [e for e in elements if e.kind == "table"]
    assert len(tables) == 1, [(e.kind, e.text[:60]) for e in elements]
    assert tables[0].rows == [["Term", "Definition"], *([term, " ".join(meaning)] for term, meaning in TERMS)]
    assert tables[0].header_rows == 1
    assert [e.text for e in elements if e.kind != "table"] == [
        "We use terms throughout our document that are specific to us or that are abbreviations."]


def test_two_columns_of_prose_and_numbered_paragraphs_are_no_glossary(tmp_path: Path) -> None:
    """A paper's two columns of prose put each left line beside a right one as a term beside its meaning would be, but
    each left line fills its column; a regulation's numbered paragraphs set their numbers apart. Neither is a table."""
    path = tmp_path / "prose.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    pdf.setFont("Times-Roman", 10)
    left = ["Dense retrieval has become a prominent method", "to obtain relevant context or world knowledge",
            "in open-domain tasks, and the unit it indexes", "matters for both retrieval and answering."]
    right = ["We segment each document into passages,", "sentences and propositions, and compare six",
             "retrievers on five open-domain datasets,", "finding that propositions help the most."]
    for index, (a, b) in enumerate(zip(left, right)):
        pdf.drawString(72, HEIGHT - 100 - 12 * index, a)
        pdf.drawString(320, HEIGHT - 100 - 12 * index, b)
    numbered = [("6.", "Without prejudice to an individual contract, the contract may be based on standard clauses."),
                ("7.", "The Commission may lay down standard contractual clauses for the matters referred to."),
                ("8.", "A supervisory authority may adopt standard contractual clauses for those matters.")]
    for index, (number, text) in enumerate(numbered):
        pdf.drawString(72, HEIGHT - 200 - 12 * index, number)
        pdf.drawString(110, HEIGHT - 200 - 12 * index, text)
    pdf.save()
    elements = read_text_layer(path, ReadOptions()).elements
    assert not [e for e in elements if e.kind == "table"], [(e.kind, e.rows) for e in elements if e.kind == "table"]
