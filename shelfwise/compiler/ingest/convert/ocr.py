"""Text lines of a scanned PDF page, read by OCR (offline).

A page whose text layer holds (almost) no characters is rendered with pdfium
and read by RapidOCR (``rapidocr-onnxruntime``: PP-OCRv4 detection and
recognition models shipped inside the wheel, run by onnxruntime; nothing is
fetched). Each detected line becomes a ``PageItem`` line with its box in page
points and a font size taken from the box height, so ``pdf_tree`` rebuilds
headings and paragraphs exactly as on a text page. The recognition model
sometimes runs Latin words together ("twopercentof"); a space is put back
where the rendered line has a blank gap of word-space width between two
recognised characters.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib.metadata import version
from typing import Any

from shelfwise.compiler.ingest.convert.pdf_bidi import is_rtl
from shelfwise.compiler.ingest.convert.pdf_layout import PageItem

__all__ = ["ocr_lines", "ocr_version"]

TARGET_PIXELS = 1800  # the rendered page's longer side, in pixels (about 150 dpi on A4)
MIN_SCORE = 0.5  # recognition confidence below which a line is noise
_DESCENDERS = frozenset("gjpqy(),;[]{}|/")
_NO_SPACE_BEFORE = frozenset(".,;:!?)]}%")  # "1.2", "end." : the gap after a narrow digit or letter is not a word space
SPACE_GAP = 0.3  # a blank gap in the ink wider than this share of the ink's height is a word space


def ocr_version() -> str:
    return f"rapidocr-onnxruntime {version('rapidocr-onnxruntime')}"


@functools.lru_cache(maxsize=1)
def _engine() -> Any:
    from rapidocr_onnxruntime import RapidOCR

    return RapidOCR()


def _ink_gaps(gray: Any, x0: int, top: int, x1: int, bottom: int) -> tuple[list[tuple[int, int]], int]:
    """Blank column runs between inked columns of a line's crop (pixels), and the height of its ink."""
    crop = gray[max(top, 0) : max(bottom, 0), max(x0, 0) : max(x1, 0)]
    if crop.size == 0:
        return [], 0
    ink = crop < 128
    rows = ink.any(axis=1).nonzero()[0]
    columns = ink.any(axis=0)
    gaps, start = [], None
    for index, inked in enumerate(columns.tolist()):
        if not inked and start is None:
            start = index
        elif inked and start is not None:
            if start > 0:
                gaps.append((x0 + start, x0 + index))
            start = None
    return gaps, int(rows[-1] - rows[0] + 1) if rows.size else 0


def _spaced(chars: list[str], boxes: list, gaps: list[tuple[int, int]], ink_height: int) -> str:
    """The recognised characters with a space added wherever a wide blank gap in the ink falls between two of them."""
    centres = [(min(p[0] for p in box) + max(p[0] for p in box)) / 2 for box in boxes]
    wide = [(a + b) / 2 for a, b in gaps if b - a > SPACE_GAP * ink_height]
    out = ""
    for index, char in enumerate(chars):
        before = chars[index - 1] if index else " "
        if char != " " and before != " " and char not in _NO_SPACE_BEFORE and before not in "([{" and _spacing(char) and _spacing(before):
            if any(centres[index - 1] < middle < centres[index] for middle in wide):
                out += " "
        out += char
    return " ".join(out.split())


def _font_size(text: str, ink: float) -> float:
    """The font size (points) a line's ink height implies: ascenders to descenders span about 0.95 em, capitals and ascenders 0.72."""
    if any(not _spacing(ch) for ch in text if not ch.isspace()):
        return ink / 0.9  # CJK ideographs fill most of the em square
    return ink / (0.95 if any(ch in _DESCENDERS for ch in text) else 0.72)


def _spacing(char: str) -> bool:
    """Scripts that separate words with spaces (not CJK ideographs or kana)."""
    name = unicodedata.name(char[:1], "") if char else ""
    return not name.startswith(("CJK", "HIRAGANA", "KATAKANA", "IDEOGRAPHIC"))


def ocr_lines(pdfium_page: Any, page_no: int, width: float, height: float) -> list[PageItem]:
    """The page's text lines as OCR reads them from its rendering, top to bottom, boxes in points."""
    import numpy

    scale = min(3.0, TARGET_PIXELS / max(width, height, 1.0))
    image = pdfium_page.render(scale=scale).to_pil().convert("RGB")
    gray = numpy.asarray(image.convert("L"))
    result, _elapsed = _engine()(numpy.asarray(image), use_cls=False, return_word_box=True)  # the angle classifier flips upright lines
    lines: list[PageItem] = []
    for entry in result or []:
        box, text, score = entry[0], str(entry[1]), float(entry[2])
        if score < MIN_SCORE or not text.strip():
            continue
        xs, ys = [p[0] / scale for p in box], [p[1] / scale for p in box]
        x0, x1, top, bottom = min(xs), max(xs), min(ys), max(ys)
        chars = list(entry[4]) if len(entry) > 4 and entry[4] else []
        boxes = entry[3] if len(entry) > 3 and entry[3] else []
        pixels = [int(min(p[0] for p in box)), int(min(p[1] for p in box)), int(max(p[0] for p in box)), int(max(p[1] for p in box))]
        gaps, ink_height = _ink_gaps(gray, *pixels)
        if chars and len(chars) == len(boxes) and not is_rtl(text):
            text = _spaced(chars, boxes, gaps, ink_height)
        text = " ".join(text.split())
        size = _font_size(text, ink_height / scale) if ink_height else bottom - top
        lines.append(PageItem(kind="line", page=page_no, x0=x0, x1=x1, top=top, bottom=bottom, text=text, size=round(size * 2) / 2, rtl=is_rtl(text)))
    return sorted(lines, key=lambda line: (round(line.top), line.x0))
