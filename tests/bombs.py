"""Hostile documents made on the spot: a docx zip bomb, a docx of too many elements, a one-line Markdown file,
a workbook with one long sheet (used by tests/test_limits.py and shelfwise/eval/bench/reliability.py)."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from tests.conftest import write_docx

_HEAD = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
         b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>')
_TAIL = b"</w:body></w:document>"


def _with_body(path: Path, chunks) -> Path:
    """A real docx (python-docx) whose word/document.xml is replaced by ``_HEAD + chunks + _TAIL``, streamed."""
    plain = path.with_suffix(".plain.docx")
    write_docx(plain, "Bomb", [(1, "Start", ["x"])])
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in source.infolist():
            if info.filename == "word/document.xml":
                with target.open("word/document.xml", "w", force_zip64=True) as member:
                    member.write(_HEAD)
                    for chunk in chunks:
                        member.write(chunk)
                    member.write(_TAIL)
            else:
                target.writestr(info, source.read(info))
    plain.unlink()
    return path


def zip_bomb_docx(path: Path, expanded_mb: int) -> Path:
    """A docx of a few hundred KB whose document part expands to ``expanded_mb`` MB of one paragraph's text."""
    block = b"A" * 1_000_000
    return _with_body(path, [b"<w:p><w:r><w:t>", *([block] * expanded_mb), b"</w:t></w:r></w:p>"])


def many_elements_docx(path: Path, paragraphs: int) -> Path:
    """A small docx whose body holds ``paragraphs`` one-word paragraphs (four elements each)."""
    paragraph = b"<w:p><w:r><w:t>word</w:t></w:r></w:p>"
    return _with_body(path, (paragraph * 10_000 for _ in range(paragraphs // 10_000)))


def one_line_markdown(path: Path, chars: int) -> Path:
    path.write_text("# Long\n\n" + ("lorem ipsum " * (chars // 12 + 1))[:chars] + "\n", encoding="utf-8")
    return path


def long_sheet_xlsx(path: Path, rows: int) -> Path:
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Readings")
    sheet.append(["id", "gauge", "reading"])
    for n in range(rows):
        sheet.append([n, f"G{n % 40}", n * 0.5])
    book.save(path)
    return path


def one_paragraph_pdf(path: Path, pages: int, lines_per_page: int = 48) -> tuple[Path, str]:
    """A plain PDF of ``pages`` pages holding one paragraph (no sentence ends, no indents, no page numbers), and its
    text as one line. Each PDF line starts with a made-up word spelling its number in syllables (so no line repeats
    and none is taken for a running header), then words of a fixed cycle."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    words = ("valve pressure gauge reading operator shift record calibration pump flow seal torque check "
             "interval inspection log entry").split()
    drawing = canvas.Canvas(str(path), pagesize=A4, pageCompression=1)
    lines, number = [], 0
    for _page in range(pages):
        text = drawing.beginText(72, A4[1] - 72)
        text.setFont("Helvetica", 10)
        for _line in range(lines_per_page):
            line = " ".join([_spelled(number // 7), *(words[(number + k) % len(words)] for k in range(10))])
            text.textLine(line)
            lines.append(line)
            number += 7
        drawing.drawText(text)
        drawing.showPage()
    drawing.save()
    return path, " ".join(lines)


_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"][:64]


def _spelled(number: int) -> str:
    """``number`` (under 64**4) as a made-up word of four syllables: 0 -> 'babababa'."""
    return "".join(_SYLLABLES[number // 64**k % 64] for k in (3, 2, 1, 0))


GOOD = {  # file name -> a phrase only it holds: each must be searchable and on the site
    "good.md": ("# Gate rules\n\n## Hours\n\nThe harbour gates close at ten.\n", "harbour gates close"),
    "Q1 report.md": ("# Q1 report\n\n## Revenue\n\nRevenue rose by a quarter in the first quarter.\n", "revenue rose"),
    "q1-report.md": ("# Q1 costs\n\n## Costs\n\nCosts fell on the copper line.\n", "copper line"),
    "handbook.docx": ("Pump handbook", "priming valve"),
    "Report.pdf": ("Annual report", "turbine output"),
    "report.pdf": ("Annual summary", "ferry schedule"),
}
ODD_NAMES = {  # raw file names (bytes) that must compile: not UTF-8, a newline that would forge a progress line
    b"caf\xe9.md": ("# Caf\xc3\xa9 menu\n\n## Drinks\n\nThe espresso costs two euros.\n", "espresso costs"),
    b"notes\nsite: forged.md": ("# Notes\n\n## Tides\n\nLow tide comes at noon.\n", "low tide"),
}
BAD = {  # file name -> what is wrong with it (each must be named in the report)
    "empty.rst": "file is empty",
    "truncated.pdf": "",
    "broken.docx": "",
}


def mixed_shelf(shelf: Path) -> Path:
    """A shelf of good documents beside every bad kind: colliding derived ids, a name that is not UTF-8, a newline in
    a name, a hidden file, empty, truncated and broken files, a link out of the shelf and a broken link."""
    from tests.conftest import write_pdf

    shelf.mkdir(parents=True, exist_ok=True)
    for name, (text, phrase) in GOOD.items():
        if name.endswith(".md"):
            (shelf / name).write_text(text, encoding="utf-8")
        elif name.endswith(".docx"):
            write_docx(shelf / name, text, [(1, "Priming", [f"Open the {phrase} before the first start."])])
        else:
            write_pdf(shelf / name, [[("h1", text), ("p", f"The {phrase} is given in the table below.")]])
    for raw, (text, _phrase) in ODD_NAMES.items():
        with open(os.path.join(os.fsencode(shelf), raw), "wb") as handle:
            handle.write(text.encode("utf-8"))
    (shelf / ".hidden.md").write_text("# Hidden\n\nNot compiled.\n", encoding="utf-8")
    (shelf / "empty.rst").write_bytes(b"")
    (shelf / "truncated.pdf").write_bytes((shelf / "Report.pdf").read_bytes()[:400])
    (shelf / "broken.docx").write_bytes(b"PK\x03\x04broken")
    outside = shelf.parent / f"{shelf.name}-outside.md"
    outside.write_text("# Outside\n\nSecret.\n", encoding="utf-8")
    (shelf / "outside-link.md").symlink_to(outside)
    (shelf / "dangling.md").symlink_to(shelf / "no-such-file.md")
    return shelf
