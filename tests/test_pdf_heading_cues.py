"""PDF headings from more than size and numbering: the tagged structure tree, and the fitted layout cues (a heading's
gap above and below, a style repeated across pages, a line's relation to the next paragraph), on real papers of
../shared/corpora and on PDFs written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.pdf import read, read_text_layer
from shelfwise.compiler.ingest.convert.pdf_heading_cues import FEATURES, WEIGHTS_FILE, heading_model, load_heading_model
from shelfwise.compiler.ingest.convert.pdf_structure import heading_like

PAPERS = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "papers"


def _tagged_pdf(lines: list[tuple[str, int, str]], elements: list[tuple[str, list[int]]]) -> bytes:
    """A one-page tagged PDF: each line (text, MCID, tag) set in 11 pt Helvetica 14 pt apart, and a structure tree
    of ``elements`` (type, MCIDs) under one Document element. Written object by object with its cross-reference table."""
    content = "\n".join(f"/{tag} <</MCID {mcid}>> BDC BT /F1 11 Tf 72 {780 - 14 * n} Td ({text}) Tj ET EMC"
                        for n, (text, mcid, tag) in enumerate(lines)).encode()
    ids = list(range(9, 9 + len(elements)))
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 5 0 R /MarkInfo << /Marked true >> >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 8 0 R /StructParents 0 >>",
        4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        5: b"<< /Type /StructTreeRoot /K 6 0 R /ParentTree 7 0 R >>",
        6: ("<< /Type /StructElem /S /Document /P 5 0 R /K [" + " ".join(f"{i} 0 R" for i in ids) + "] >>").encode(),
        8: b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    }
    owner = {}
    for number, (kind, mcids) in zip(ids, elements):
        objects[number] = f"<< /Type /StructElem /S /{kind} /P 6 0 R /Pg 3 0 R /K [{' '.join(map(str, mcids))}] >>".encode()
        owner.update({mcid: number for mcid in mcids})
    objects[7] = ("<< /Nums [0 [" + " ".join(f"{owner[m]} 0 R" for m in sorted(owner)) + "]] >>").encode()
    out = bytearray(b"%PDF-1.7\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (max(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offsets[number] for number in range(1, max(objects) + 1))
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (max(objects) + 1, xref)
    return bytes(out)


LINES = [
    ("The service keeps records of every request it answers and the time it took to answer.", 0, "P"),
    ("Retention of request records", 1, "H2"),
    ("Records are kept for ninety days and then deleted from every store that we run.", 2, "P"),
    ("Nothing in them names a person or a device that made the request to the service.", 3, "P"),
]


def test_a_tagged_heading_set_like_body_text_is_read_from_the_structure_tree(tmp_path: Path) -> None:
    path = tmp_path / "tagged.pdf"
    path.write_bytes(_tagged_pdf(LINES, [("P", [0]), ("H2", [1]), ("P", [2, 3])]))
    tagged = read_text_layer(path, ReadOptions())
    assert [(e.kind, e.level, e.text) for e in tagged.elements if e.kind == "heading"] == [("heading", 2, "Retention of request records")]
    assert [e.text for e in tagged.elements][2].startswith("Records are kept for ninety days")
    hidden = read_text_layer(path, ReadOptions(), use_outline=False)  # the same line in the same type: no heading without the tags
    assert [e for e in hidden.elements if e.kind == "heading"] == []
    assert [e for e in read(path, ReadOptions(use_outline=False)).elements if e.kind == "heading"] == []  # pdf.use_outline = false


def test_paragraphs_tagged_as_headings_are_not_taken_for_headings(tmp_path: Path) -> None:
    """GDPR's export tags every paragraph H1: tags whose text runs to sentences are not used."""
    long = [(f"Paragraph {n} of the regulation says that a controller shall keep records of the processing it does for each purpose.", n, "H1")
            for n in range(4)]
    path = tmp_path / "paragraphs.pdf"
    path.write_bytes(_tagged_pdf(long, [("H1", [n]) for n in range(4)]))
    assert [e for e in read_text_layer(path, ReadOptions()).elements if e.kind == "heading"] == []
    assert heading_like([(1, "Scope", 1), (1, "A sentence that runs on well past any heading " * 3, 2), (2, "Terms", 2)]) == [(1, "Scope", 1), (2, "Terms", 2)]


def _wrapped(drawing, words: list[str], size: float, width: float = 460) -> list[str]:
    """``words`` set in lines of Times-Roman at ``size`` narrower than ``width`` points, as a paragraph is filled."""
    lines, text = [], ""
    for word in words + [""]:
        if word and drawing.stringWidth(f"{text} {word}".strip(), "Times-Roman", size) < width:
            text = f"{text} {word}".strip()
            continue
        lines.append(text)
        text = word
    return lines


def _sentence(words: list[str]) -> list[str]:
    """``words`` ending in a full stop: a paragraph that ends its sentence."""
    return words[:-1] + [words[-1].rstrip(";,.") + "."]


def _small_sans_headings(path: Path) -> list[str]:
    """A manual whose headings are set a size below the body in a bold sans-serif family over a serif body, with
    space above (gutenprint's user manual does this): size alone calls them footnotes."""
    titles = ["Page Size", "Media Type", "Media Source", "Output Type", "Color Correction", "Image Type", "Print Quality",
              "Resolution", "Ink Set", "Saturation", "Contrast", "Brightness", "Density", "Gamma", "Dither Algorithm", "Ink Limit"]
    body = ("The driver reads this option from the queue and sends the printer the commands that set it; when the printer "
            "does not offer the value asked for it falls back to the nearest one it has and says so in the log.")
    drawing = canvas.Canvas(str(path), pagesize=(595, 842))
    y = 780

    def line(text: str, font: str, size: float, step: float) -> None:
        nonlocal y
        if y < 90:  # the text flows on to the next page wherever it stands
            drawing.showPage()
            y = 780
        drawing.setFont(font, size)
        drawing.drawString(72, y, text)
        y -= step

    for title in titles:
        y = 50 if y < 140 else y - 16  # no heading left alone at the foot of a page
        line(title, "Helvetica-Bold", 10.5, 18)
        base = body.split()
        words = [word for turn in range(8) for word in base[3 * turn:] + base[:3 * turn]]  # no line repeats
        for text in _wrapped(drawing, words, 12, 450):
            line(text, "Times-Roman", 12, 14.5)
    drawing.save()
    return titles


@pytest.mark.skipif(load_heading_model() is None, reason="no fitted heading model ships")
def test_headings_set_smaller_in_another_family_are_found_by_their_layout(tmp_path: Path) -> None:
    path = tmp_path / "manual.pdf"
    titles = _small_sans_headings(path)
    found = [e.text for e in read_text_layer(path, ReadOptions()).elements if e.kind == "heading"]
    assert found == titles
    rules_only = [e.text for e in read_text_layer(path, ReadOptions(), heading_cues=False).elements if e.kind == "heading"]
    assert rules_only == []


@pytest.mark.skipif(not (PAPERS / "ReAct.pdf").is_file(), reason="../shared/corpora is not present")
def test_small_capital_section_headings_of_real_papers_are_found_without_the_outline() -> None:
    """ICLR's style sets subsection and appendix headings in small capitals below the body size."""
    react = [e.text for e in read_text_layer(PAPERS / "ReAct.pdf", ReadOptions(), use_outline=False).elements if e.kind == "heading"]
    assert {"3.2 METHODS", "3.3 RESULTS AND OBSERVATIONS", "B.1 HOTPOTQA FINETUNING DETAILS", "D.1 FEVER TRAJECTORIES"} <= set(react)
    raptor = [e.text for e in read_text_layer(PAPERS / "RAPTOR.pdf", ReadOptions(), use_outline=False).elements if e.kind == "heading"]
    assert {"B.1 METHODOLOGY", "B.2 RESULTS & DISCUSSION", "E.2 FINDINGS", "I.2 WHICH LAYERS DO RETRIEVED NODES COME FROM ?"} <= set(raptor)
    assert not any(text.startswith("To assess the effectiveness") for text in raptor)


def _indexed_manual(path: Path) -> list[str]:
    """A short manual: chapters under 14 pt bold numbered headings, then an index whose letter groups are set as 14 pt
    bold single letters above their entries (as Texinfo sets make.pdf's and nettle's)."""
    chapters = ["Overview of the Tool", "Writing Rules", "Using Variables", "Running the Tool"]
    body = ("Each rule names the files it makes and the files they are made from, and the recipe runs whenever one of "
            "those files is newer than the file it makes; the tool reads every rule before it runs any recipe at all.")
    entries = {"A": ["archive members", "automatic variables"], "B": ["backslash in recipes", "built-in rules"],
               "C": ["canned recipes", "conditionals"], "D": ["default goal", "directories, searching"],
               "E": ["environment", "errors in recipes"], "F": ["flavors of variables", "functions"],
               "G": ["goals", "grouped targets"], "I": ["implicit rules", "include directive"]}
    drawing = canvas.Canvas(str(path), pagesize=(612, 792))
    words = body.split()
    for number, title in enumerate(chapters):
        y = 700
        drawing.setFont("Times-Bold", 14)
        drawing.drawString(72, y, f"{number + 1} {title}")
        y -= 24
        for paragraph in range(3):
            turn = words[3 * (number + paragraph):] + words[:3 * (number + paragraph)]
            for text in _wrapped(drawing, turn, 11):
                drawing.setFont("Times-Roman", 11)
                drawing.drawString(72, y, text)
                y -= 14
            y -= 8
        drawing.showPage()
    drawing.setFont("Times-Bold", 14)
    drawing.drawString(72, 700, "Index")
    y = 670
    for letter, items in entries.items():
        if y < 120:
            drawing.showPage()
            y = 720
        drawing.setFont("Times-Bold", 14)
        drawing.drawString(72, y, letter)
        y -= 20
        for page, item in enumerate(items):
            drawing.setFont("Times-Roman", 11)
            drawing.drawString(84, y, f"{item}, {page + 2}")
            y -= 14
        y -= 10
    drawing.save()
    return [f"{number + 1} {title}" for number, title in enumerate(chapters)] + ["Index"]


@pytest.mark.skipif(load_heading_model() is None, reason="no fitted heading model ships")
def test_an_index_letter_set_large_and_bold_is_not_a_heading(tmp_path: Path) -> None:
    """The size rule calls an index's letter groups ("A", "B", ...) headings; the fitted check over the picked lines
    (a line of one letter, its style used by one-letter lines alone, index entries below it) drops them and keeps
    the chapters."""
    path = tmp_path / "indexed.pdf"
    titles = _indexed_manual(path)
    found = [e.text for e in read_text_layer(path, ReadOptions()).elements if e.kind == "heading"]
    assert found == titles


def _stacked_notes(path: Path) -> list[str]:
    """Financial statement notes as a 10-Q sets them: each note's title in the body's size and bold, and right under
    it, as close as its own lines, the bold title of the note's first part ("Note 3 – Debt" over "Commercial Paper"),
    then the part's paragraphs."""
    notes = [("Note 1 – Summary of Significant Accounting Policies", ["Basis of Presentation", "Earnings Per Share"]),
             ("Note 2 – Financial Instruments", ["Cash and Marketable Securities", "Derivative Instruments"]),
             ("Note 3 – Debt", ["Commercial Paper", "Term Debt"]),
             ("Note 4 – Shareholders’ Equity", ["Share Repurchase Program", "Shares of Common Stock"]),
             ("Note 5 – Benefit Plans", ["Restricted Stock Units", "Share-Based Compensation"])]
    body = ("The Company records each of these amounts at the end of the period and reports the change from the prior "
            "period in the statements that follow; amounts are in millions unless the text says otherwise, and the "
            "periods compared are the three and nine months that ended on the same day of the year.").split()
    drawing = canvas.Canvas(str(path), pagesize=(612, 792))
    y = 720

    def put(text: str, font: str, step: float) -> None:
        nonlocal y
        if y < 80:
            drawing.showPage()
            y = 720
        drawing.setFont(font, 9)
        drawing.drawString(72, y, text)
        y -= step

    def paragraph(turn: int) -> None:
        nonlocal y
        words = body[turn:] + body[:turn]
        for text in _wrapped(drawing, _sentence(words), 9):  # each paragraph ends its sentence
            put(text, "Times-Roman", 11)
        y -= 7

    titles = []
    for number, (title, parts) in enumerate(notes):
        y -= 8
        put(title, "Times-Bold", 18)
        titles.append(title)
        for part_number, part in enumerate(parts):
            put(part, "Times-Bold", 18)
            titles.append(part)
            paragraph(3 * number + part_number)
            paragraph(3 * number + part_number + 5)
    drawing.save()
    return titles


@pytest.mark.skipif(load_heading_model() is None, reason="no fitted heading model ships")
def test_a_heading_right_under_a_heading_is_kept_by_the_check(tmp_path: Path) -> None:
    """The line before a part's title closes a heading, not a sentence (the cue after_heading): the check keeps
    "Commercial Paper" under "Note 3 – Debt" as it keeps the part titles that follow a paragraph."""
    path = tmp_path / "notes.pdf"
    titles = _stacked_notes(path)
    found = [e.text for e in read_text_layer(path, ReadOptions()).elements if e.kind == "heading"]
    assert found == titles


def _statements(path: Path) -> list[str]:
    """Financial statements as a 10-Q titles them: the statement's name in bold capitals, and tight below it in the
    same bold type its unit ("(in millions)") and "(unaudited)", then its rows as paragraphs of text."""
    names = {"CONSOLIDATED STATEMENTS OF OPERATIONS": "(in millions, except per share data)", "CONSOLIDATED BALANCE SHEETS":
             "(in millions, except par value)", "CONSOLIDATED STATEMENTS OF CASH FLOWS": "(in millions)",
             "CONSOLIDATED STATEMENTS OF STOCKHOLDERS’ EQUITY": "(in millions, shares in thousands)"}
    body = ("Amounts are stated in millions of dollars and the periods are the three and nine months that ended on the "
            "last day of the quarter; the notes that follow the statements are part of them and explain each line.").split()
    drawing = canvas.Canvas(str(path), pagesize=(612, 792))
    for number, (name, unit) in enumerate(names.items()):
        y = 720 - 30 * number  # not a running header: the block stands at another height on each page
        for title in (name, unit, "(unaudited)"):
            drawing.setFont("Times-Bold", 9)
            drawing.drawCentredString(306, y, title)
            y -= 11
        y -= 9
        for paragraph in range(3):
            words = body[3 * (number + paragraph):] + body[:3 * (number + paragraph)]
            for text in _wrapped(drawing, _sentence(words), 9):
                drawing.setFont("Times-Roman", 9)
                drawing.drawString(72, y, text)
                y -= 11
            y -= 7
        drawing.showPage()
    drawing.save()
    return list(names)


@pytest.mark.skipif(load_heading_model() is None, reason="no fitted heading model ships")
def test_a_statements_name_is_its_whole_heading_and_its_asides_stay_text(tmp_path: Path) -> None:
    """A statement's name is its heading, whole. "(in millions)" and "(unaudited)" tight under it in its type are asides
    (a line wholly in parentheses is no heading): the statement is never titled "(unaudited)", and their words stay
    in the text under the name."""
    path = tmp_path / "statements.pdf"
    titles = _statements(path)
    elements = read_text_layer(path, ReadOptions()).elements
    assert [e.text for e in elements if e.kind == "heading"] == titles
    text = " ".join(e.text for e in elements if e.kind != "heading")
    assert text.count("(unaudited)") == 4 and "(in millions, shares in thousands)" in text


def test_the_shipped_check_weighs_every_cue_and_a_model_for_other_cues_is_refused() -> None:
    shipped = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    check = shipped["check"]
    assert len(check["coef"]) == len(check["mean"]) == len(check["scale"]) == len(FEATURES)
    assert 0 < check["threshold"] < 1 and set(check["cues"]) <= set(FEATURES)
    with pytest.raises(ValueError, match="heading check fitted for 2 cues"):
        heading_model({}, {}, {"mean": [0, 0], "scale": [1, 1], "coef": [1, 1], "intercept": 0, "threshold": 0.5})


def test_the_check_keeps_a_line_whose_probability_reaches_the_threshold() -> None:
    zeros = [0.0] * len(FEATURES)
    check = {"mean": zeros, "scale": [1.0] * len(FEATURES), "coef": [0.0] * len(FEATURES), "intercept": 0.0, "threshold": 0.5}
    check["coef"][FEATURES.index("same_row")] = -2.0
    model = heading_model({}, {}, check)
    assert model.check.keeps(zeros)
    assert not model.check.keeps([(1.0 if name == "same_row" else 0.0) for name in FEATURES])


def test_a_model_file_for_other_cues_is_refused_by_name(tmp_path: Path) -> None:
    stale = tmp_path / "weights.json"
    stale.write_text(json.dumps({"features": ["bias", "size"], "minimums": {"size": 1.0}, "maximums": {}}), encoding="utf-8")
    with pytest.raises(ValueError, match="weights.json: fitted for features"):
        load_heading_model(stale)
    with pytest.raises(ValueError, match="unknown heading cues"):
        heading_model({"size": 1.0}, {})
    shipped = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    assert shipped["features"] == list(FEATURES) and set(shipped["minimums"]) | set(shipped["maximums"]) <= set(FEATURES)


def test_the_model_calls_a_line_a_heading_when_every_bound_holds() -> None:
    model = heading_model({"isolated_set_apart": 1.0, "style_alone": 0.5}, {"words": 2.0})
    cues = dict.fromkeys(FEATURES, 0.0) | {"isolated_set_apart": 1.0, "style_alone": 0.8, "words": 1.5}
    assert model.is_heading([cues[name] for name in FEATURES])
    assert not model.is_heading([(cues | {"words": 2.5})[name] for name in FEATURES])
    assert not model.is_heading([(cues | {"style_alone": 0.4})[name] for name in FEATURES])


def _furnished_report(path: Path) -> None:
    """Five pages, each under a bold running title at one height below the page's header band whose text changes
    with the page ("Scope of the Review", "Terms Used", ...), and a bold contents entry with its page number; the
    sections numbered 1, 1.1, 2, then a bold numbered step "1. Remove the old driver" in section 2."""
    body = ("The review reads every claim the office received in the year and checks that each was paid or refused "
            "within the time the rules allow; where it was not, the reason is written down beside the claim.").split()
    running = ["Scope of the Review", "Terms Used in the Review", "How Claims Were Read", "What the Review Found", "What Comes Next"]
    blocks = {0: [("1 Scope", "Helvetica-Bold", 12), ("Results of the survey 3", "Helvetica-Bold", 11)], 1: [("1.1 Terms", "Helvetica-Bold", 12)],
              2: [("2 Method", "Helvetica-Bold", 12)], 3: [("1. Remove the old driver", "Helvetica-Bold", 11)], 4: [("3 Findings", "Helvetica-Bold", 12)]}
    drawing = canvas.Canvas(str(path), pagesize=(612, 792))
    for page, title in enumerate(running):
        drawing.setFont("Helvetica-Bold", 11)
        drawing.drawString(72, 670, title)
        y = 630
        for text, font, size in blocks[page]:
            drawing.setFont(font, size)
            drawing.drawString(72, y, text)
            y -= 22
            for paragraph in range(2):
                turn = body[5 * page + 3 * paragraph:] + body[:5 * page + 3 * paragraph]
                for line in _wrapped(drawing, _sentence(turn), 11):
                    drawing.setFont("Times-Roman", 11)
                    drawing.drawString(72, y, line)
                    y -= 14
                y -= 8
            y -= 12
        drawing.showPage()
    drawing.save()


def test_cues_for_running_titles_page_numbers_and_numbers_out_of_sequence(tmp_path: Path) -> None:
    """same_place: a running title whose text changes stands in its style at its height on every other page, a
    section heading on none; ends_page_number: "Results of the survey 3" ends in a page number; number_breaks:
    "1. Remove the old driver" after section 2 neither follows nor opens under it, "1.1 Terms" and "2 Method" do."""
    import pypdfium2 as pdfium

    from shelfwise.compiler.ingest.convert.pdf_headings import rule_headings
    from shelfwise.compiler.ingest.convert.pdf_layout import read_page
    from shelfwise.compiler.ingest.convert.pdf_tree import reading_lines

    path = tmp_path / "report.pdf"
    _furnished_report(path)
    document = pdfium.PdfDocument(path)
    pages = [read_page(document[index], index + 1) for index in range(len(document))]
    lines, body = reading_lines(pages)
    _, features = rule_headings(lines, body, len(pages))
    cue = {lines[index].text: dict(zip(FEATURES, values)) for index, values in features.items()}
    assert cue["Terms Used in the Review"]["same_place"] == pytest.approx(4 / 5)
    assert cue["1 Scope"]["same_place"] == cue["2 Method"]["same_place"] == 0.0
    assert cue["Results of the survey 3"]["ends_page_number"] == 1.0 and cue["1 Scope"]["ends_page_number"] == 0.0
    assert cue["1. Remove the old driver"]["number_breaks"] == 1.0
    assert [cue[text]["number_breaks"] for text in ("1 Scope", "1.1 Terms", "2 Method", "3 Findings")] == [0.0] * 4


@pytest.mark.skipif(load_heading_model() is None, reason="no fitted heading model ships")
def test_a_bold_line_ending_in_a_page_number_is_not_a_heading(tmp_path: Path) -> None:
    """"Results of the survey 3" (a contents entry's page number after its title) is dropped by the check weighing
    ends_page_number; the numbered sections around it stay headings."""
    path = tmp_path / "report.pdf"
    _furnished_report(path)
    found = [e.text for e in read_text_layer(path, ReadOptions()).elements if e.kind == "heading"]
    assert "Results of the survey 3" not in found
    assert {"1 Scope", "1.1 Terms", "2 Method", "3 Findings"} <= set(found)


def _regulation(path: Path) -> None:
    """Four pages of a regulation set like the GDPR's Council text: each article's "Article N" centred alone on its
    line in the body's size, its title on the line below (article 2's wrapped over two), then numbered paragraphs and
    lettered points; articles 1 and 3 open their pages (pages 1 and 2: one height on half the pages), the others stand
    lower on a page; a page number at each page's foot; and a bookmark for every paragraph, as the GDPR's outline
    indexes its paragraphs, not headings."""
    titles = {1: ["Subject-matter and objectives"], 2: ["Material scope of this Regulation", "and of the acts adopted under it"],
              3: ["Territorial scope"], 4: ["Definitions"], 5: ["Principles"]}
    paragraph = ("This Regulation applies to the processing of personal data wholly or partly by automated means and to "
                 "the processing other than by automated means of personal data which form part of a filing system.").split()
    drawing = canvas.Canvas(str(path), pagesize=(595, 842))
    layout = {1: [1, 2], 2: [3], 3: [None, 4], 4: [None, 5]}
    for page, articles in layout.items():
        y = 780
        for article in articles:
            if article is not None:
                drawing.setFont("Times-Italic", 12)
                drawing.drawCentredString(297, y, f"Article {article}")
                for title in titles[article]:
                    y -= 20
                    drawing.drawCentredString(297, y, title)
                y -= 30
            for number in (1, 2):
                lines = _wrapped(drawing, _sentence([f"{number}.", *paragraph]), 12)
                drawing.bookmarkPage(f"p{page}-{article}-{number}", top=y + 12)
                drawing.addOutlineEntry(" ".join(lines), f"p{page}-{article}-{number}", level=0)
                for line in lines:
                    drawing.setFont("Times-Roman", 12)
                    drawing.drawString(57, y, line)
                    y -= 16
                y -= 10
                drawing.drawString(99, y, "(a) in the course of an activity which falls outside the scope of Union law;")
                y -= 26
        drawing.setFont("Times-Roman", 10)
        drawing.drawCentredString(297, 40, f"- {page} -")
        drawing.showPage()
    drawing.save()


def test_a_regulations_articles_are_headings_and_its_paragraph_bookmarks_are_not(tmp_path: Path) -> None:
    """Bookmarks that run to sentences are a paragraph index, not headings (heading_like, as for tags); "Article N"
    alone on its line heads with its title below, kept by the check, a wrapped title whole; one atop its page is not taken for a running
    header because other pages open with other articles (its number does not follow the page on most of them)."""
    path = tmp_path / "regulation.pdf"
    _regulation(path)
    elements = read_text_layer(path, ReadOptions()).elements
    headings = [e.text for e in elements if e.kind == "heading"]
    assert headings == ["Article 1 Subject-matter and objectives",
                        "Article 2 Material scope of this Regulation and of the acts adopted under it",
                        "Article 3 Territorial scope", "Article 4 Definitions", "Article 5 Principles"]
    assert not any(e.text.startswith("- ") for e in elements)  # the page numbers are furniture
    assert sum(e.text.startswith("1. This Regulation applies") for e in elements) == 5  # each paragraph read once, as text


def test_a_footnote_mark_after_a_heading_is_not_read_as_its_page_number(tmp_path: Path) -> None:
    """NIST SP 800-66's section headings end in a raised footnote number ("4.4. Information Access Management (§
    164.308(a)(4))" and a small "27" above the line): the mark is not part of the heading's text, so the heading is
    not taken for a contents entry followed by its page number, and a sentence's footnote mark leaves its sentence."""
    path = tmp_path / "guide.pdf"
    drawing = canvas.Canvas(str(path), pagesize=(612, 792))
    body = ("Implement policies and procedures for authorizing access to electronic protected health information that are "
            "consistent with the applicable requirements of the rule.").split()
    for page, (number, title, mark) in enumerate([("4.4.", "Information Access Management", "27"),
                                                  ("4.5.", "Security Awareness and Training", "35"),
                                                  ("4.6.", "Security Incident Procedures", "42")]):
        drawing.setFont("Helvetica-Bold", 16)
        heading = f"{number} {title} (§ 164.308(a)({page + 4}))"
        drawing.drawString(72, 700, heading)
        drawing.setFont("Helvetica-Bold", 9)
        drawing.drawString(72 + drawing.stringWidth(heading, "Helvetica-Bold", 16), 707, mark)
        y = 670
        for line in _wrapped(drawing, _sentence(body), 11):
            drawing.setFont("Times-Roman", 11)
            drawing.drawString(72, y, line)
            y -= 14
        drawing.setFont("Times-Roman", 7)
        drawing.drawString(72 + drawing.stringWidth(line, "Times-Roman", 11), y + 18, "9")
        drawing.showPage()
    drawing.save()
    elements = read_text_layer(path, ReadOptions()).elements
    assert [e.text for e in elements if e.kind == "heading"] == [
        "4.4. Information Access Management (§ 164.308(a)(4))", "4.5. Security Awareness and Training (§ 164.308(a)(5))",
        "4.6. Security Incident Procedures (§ 164.308(a)(6))"]
    assert all(e.text.endswith("rule.") for e in elements if e.kind == "paragraph"), [e.text[-20:] for e in elements]
