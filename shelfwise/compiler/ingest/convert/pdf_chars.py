"""One page's characters, words and image boxes, read with pdfium's C API.

pdfium (``pypdfium2.raw``) reads a page's characters tens of times faster than
pdfminer. The characters are put in the coordinates pdfplumber uses (points
from the top-left of the page as displayed, its /Rotate applied) and grouped
into words the way pdfplumber's ``extract_words(x_tolerance_ratio=0.2,
extra_attrs=["fontname", "size"])`` groups them, so ``pdf_layout`` keeps its
rules. Image boxes come from pdfium's page objects (``pdf_tables`` reads paths).
"""

from __future__ import annotations

import ctypes
import itertools
import math
import re
from typing import Any, NamedTuple

import pypdfium2.raw as raw

__all__ = ["Char", "Matrix", "page_chars", "page_words", "image_boxes", "image_coverage", "page_objects", "compose", "display_transform",
           "LINE_GAP"]

Matrix = tuple[float, float, float, float, float, float]
LIGATURES = {"ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl", "ﬁ": "fi", "ﬂ": "fl", "ﬆ": "st", "ﬅ": "st"}  # as pdfplumber expands them
X_TOLERANCE_RATIO = 0.2  # a gap wider than this share of the font size starts a new word
SPACE_GAP_RATIO = 0.05  # a space character starts a new word when the gap is wider than this share (not an accent or kern)
Y_TOLERANCE = 3.0  # characters whose tops differ by up to this many points share a line
LINE_GAP = 0.8  # lines of one block follow each other closer than this share of their type size (a paragraph's gap is more)
_LINE_END_HYPHENS = (0x02, 0xFFFE)  # pdfium's codes for a hyphen that ends a line (per character; in page text)
_DRAWING_FONTS = re.compile(r"^(LCIRCLE|LINE)W?10$")  # TeX's picture fonts: box corners and rules, not text
_SPACES = frozenset((32, 9, 10, 13, 0xA0))
_FORCE_BOLD = 1 << 18  # PDF font descriptor flag ForceBold
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_MAX_DEPTH = 8  # Form XObjects nested deeper than this are not searched for images or paths


class Char(NamedTuple):
    """One character in display coordinates; ``top`` is ``bottom - size`` as in pdfminer."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    font: str
    upright: bool
    space: bool  # a space (the PDF's own or one pdfium infers from the gap) comes just before it


def _function(function: Any, restype: Any, *argtypes: Any) -> Any:
    """A pdfium function taking plain-integer handles: no pointer wrapping per call, as it runs once per character."""
    return ctypes.CFUNCTYPE(restype, *argtypes)(ctypes.cast(function, ctypes.c_void_p).value)


_text_object = _function(raw.FPDFText_GetTextObject, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
_loose_box = _function(raw.FPDFText_GetLooseCharBox, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
_unicode = _function(raw.FPDFText_GetUnicode, ctypes.c_uint, ctypes.c_void_p, ctypes.c_int)
_object_font = _function(raw.FPDFTextObj_GetFont, ctypes.c_void_p, ctypes.c_void_p)
_descent = _function(raw.FPDFFont_GetDescent, ctypes.c_int, ctypes.c_void_p, ctypes.c_float, ctypes.c_void_p)
_glyph_width = _function(raw.FPDFFont_GetGlyphWidth, ctypes.c_int, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_float, ctypes.c_void_p)


def display_transform(page: Any) -> tuple[Matrix, float, float]:
    """PDF user space -> pdfminer's display space (y up), with the displayed width and height."""
    x0, y0, x1, y1 = page.get_mediabox()
    rotation = page.get_rotation() % 360
    if rotation == 90:
        return (0.0, -1.0, 1.0, 0.0, -y0, x1), y1 - y0, x1 - x0
    if rotation == 180:
        return (-1.0, 0.0, 0.0, -1.0, x1, y1), x1 - x0, y1 - y0
    if rotation == 270:
        return (0.0, 1.0, -1.0, 0.0, y1, -x0), y1 - y0, x1 - x0
    return (1.0, 0.0, 0.0, 1.0, -x0, -y0), x1 - x0, y1 - y0


def _box(ctm: Matrix, height: float, left: float, bottom: float, right: float, top: float) -> tuple[float, float, float, float]:
    """A user-space rectangle as (x0, top, x1, bottom) from the displayed page's top-left."""
    a, b, c, d, e, f = ctm
    xs = [a * x + c * y + e for x in (left, right) for y in (bottom, top)]
    ys = [b * x + d * y + f for x in (left, right) for y in (bottom, top)]
    return min(xs), height - max(ys), max(xs), height - min(ys)


def _baseline(textpage: Any, index: int, font: int, size: float, ctm: Matrix, height: float) -> float | None:
    """Where pdfminer puts the bottom of an upright character's box: its baseline lowered by the font's descent."""
    x, y, descent = ctypes.c_double(), ctypes.c_double(), ctypes.c_float()
    if not font or not raw.FPDFText_GetCharOrigin(textpage, index, x, y) or not _descent(font, 1.0, ctypes.addressof(descent)):
        return None
    _, b, _, d, _, f = ctm
    return height - (b * x.value + d * y.value + f) - descent.value * size


def _codes(textpage: Any, handle: int, count: int) -> list[int]:
    """Every character's unicode value: the page's text in one call when it is one UTF-16 unit per character, else one by one."""
    buffer = (ctypes.c_ushort * (2 * count + 2))()  # room for surrogate pairs, should pdfium write any
    written = raw.FPDFText_GetText(textpage, 0, count, buffer)
    codes = buffer[:count]
    if written != count + 1 or any(0xD800 <= code <= 0xDFFF for code in codes):
        codes = [_unicode(handle, index) for index in range(count)]
    return codes


def _text(code: int) -> str:
    if code in _LINE_END_HYPHENS:
        return "-"
    if code < 32 or 0xD800 <= code <= 0xDFFF or code >= 0xFFFE:
        return f"(cid:{code})"  # a glyph without unicode, as pdfminer writes it
    return LIGATURES.get(chr(code), chr(code))


def page_chars(page: Any) -> tuple[list[Char], float, float]:
    """The page's characters in content order, spaces folded into ``Char.space``, and its displayed size."""
    ctm, width, height = display_transform(page)
    ra, rb, rc, rd, re, rf = ctm
    textpage = raw.FPDFText_LoadPage(page.raw)
    if not textpage:
        return [], width, height
    handle = ctypes.cast(textpage, ctypes.c_void_p).value
    found: list[tuple] = []  # Char fields, then where the glyph's advance ends
    try:
        count = raw.FPDFText_CountChars(textpage)
        rect, matrix = raw.FS_RECTF(), raw.FS_MATRIX()
        rect_ref = ctypes.addressof(rect)
        buffer, flags = ctypes.create_string_buffer(256), ctypes.c_int()
        texts: dict[int, str] = {}
        fonts: dict[int, dict[int, float]] = {}
        width_out = ctypes.c_float()
        width_ref = ctypes.addressof(width_out)
        corners = (ctypes.c_float * 4).from_address(rect_ref)  # FS_RECTF: left, top, right, bottom
        current, drawing, advances = None, False, {}
        font, size, upright, font_handle, stretch, baseline = "", 0.0, True, 0, 0.0, None
        unrotated = rb == 0.0 and rc == 0.0
        space = False
        for index, code in enumerate(_codes(textpage, handle, count)):
            if code in _SPACES and (code != 13 or raw.FPDFText_IsGenerated(textpage, index)):
                space = True  # a space, tab or pdfium's line end; a \r of the PDF's own is a glyph without unicode
                continue
            obj = _text_object(handle, index)
            if obj != current:  # the characters of one text object share its font, size and matrix
                current = obj
                raw.FPDFText_GetMatrix(textpage, index, matrix)
                a, b, c, d = matrix.a, matrix.b, matrix.c, matrix.d
                da, db, dc, dd = a * ra + b * rc, a * rb + b * rd, c * ra + d * rc, c * rb + d * rd
                raw.FPDFText_GetFontInfo(textpage, index, buffer, 256, flags)
                font_size = raw.FPDFText_GetFontSize(textpage, index)
                upright = da * dd > 0 and db * dc <= 0
                vertical_scale = abs(dd) if upright else math.hypot(dc, dd)  # pdfminer's size: the glyph box's height
                font, size = buffer.value.decode("utf-8", "replace"), round(font_size * vertical_scale, 3)
                if (flags.value & _FORCE_BOLD or raw.FPDFText_GetFontWeight(textpage, index) >= 600) and not _BOLD_NAME.search(font):
                    font += " Bold"  # bold by the font's flags or weight, not its name: say so in the name the layout reads
                drawing = bool(_DRAWING_FONTS.match(font))
                font_handle, stretch = (_object_font(obj) if obj else 0) or 0, font_size * math.hypot(da, db)
                advances = fonts.setdefault(font_handle, {})
                baseline = _baseline(textpage, index, font_handle, font_size * vertical_scale, ctm, height) if upright else None
            if drawing:
                continue
            text = texts.get(code)
            if text is None:
                text = texts[code] = _text(code)
            _loose_box(handle, index, rect_ref)
            left, top, right, bottom = corners[:]
            if unrotated:  # the common case: no general transform
                x0, x1 = left * ra + re, right * ra + re
                if x0 > x1:
                    x0, x1 = x1, x0
                low, high = bottom * rd + rf, top * rd + rf
                bottom, top = height - min(low, high), height - max(low, high)
            else:
                x0, top, x1, bottom = _box(ctm, height, left, bottom, right, top)
            end = 0.0
            if font_handle and upright:
                advance = advances.get(code)
                if advance is None:
                    advance = advances[code] = width_out.value if _glyph_width(font_handle, code, 1.0, width_ref) else 0.0
                end = x0 + advance * stretch
            if baseline is not None:
                bottom = baseline  # one text object, one baseline: its glyph boxes end at the font's descent, not at their ink
            found.append((text, x0, x1, bottom - size if upright else top, bottom, size, font, upright, space, end))
            space = False
    finally:
        raw.FPDFText_ClosePage(textpage)
    return _advance_ends(found), width, height


def _advance_ends(found: list[tuple]) -> list[Char]:
    """Characters whose right edge is the glyph's advance, as pdfminer has it (pdfium's box also takes in ink that overhangs).

    Only for fonts whose advances are trustworthy (most boxes end exactly there) and
    never for the parts of a ligature glyph (characters that share one box).
    """
    exact: dict[str, list[int]] = {}
    for _text, x0, x1, _top, _bottom, _size, font, _upright, _space, end in found:
        tally = exact.get(font)
        if tally is None:
            tally = exact[font] = [0, 0]
        tally[0] += end > x0 and abs(end - x1) < 0.01
        tally[1] += 1
    trusted = {font for font, (hits, total) in exact.items() if hits >= 0.5 * total}
    chars = []
    last = len(found) - 1
    for index, (text, x0, x1, top, bottom, size, font, upright, space, end) in enumerate(found):
        if font in trusted and x0 < end < x1 and not (
            (index > 0 and abs(found[index - 1][1] - x0) < 0.01) or (index < last and abs(found[index + 1][1] - x0) < 0.01)
        ):
            x1 = end
        chars.append(Char(text, x0, x1, top, bottom, size, font, upright, space))
    return chars


def _lines(chars: list[Char]) -> list[list[Char]]:
    """pdfplumber's line clustering: tops sorted and chained within Y_TOLERANCE; each line sorted by x0."""
    tops = sorted({ch.top for ch in chars})
    cluster: dict[float, int] = {}
    index, last = 0, tops[0]
    for top in tops:
        if top > last + Y_TOLERANCE:
            index += 1
        cluster[top] = index
        last = top
    groups: dict[int, list[Char]] = {}
    for ch in chars:
        groups.setdefault(cluster[ch.top], []).append(ch)
    return [sorted(groups[key], key=lambda ch: ch.x0) for key in sorted(groups)]


def _word(chars: list[Char]) -> dict:
    texts, x0s, x1s, tops, bottoms = list(zip(*chars))[:5]
    return {
        "text": "".join(texts),
        "x0": min(x0s),
        "x1": max(x1s),
        "top": min(tops),
        "bottom": max(bottoms),
        "fontname": chars[0].font,
        "size": chars[0].size,
        "space": chars[0].space,
    }


def page_words(chars: list[Char]) -> list[dict]:
    """Upright words as pdfplumber's extract_words builds them: runs of one font and size, split at spaces and gaps.

    ``space`` on a word: a space character came just before it (pdfium infers one from the gap where the PDF has none).
    """
    words: list[dict] = []
    upright = [ch for ch in chars if ch.upright]
    for _key, run in itertools.groupby(upright, key=lambda ch: (ch.font, ch.size)):
        for line in _lines(list(run)):
            current = [line[0]]
            for ch in line[1:]:
                prev = current[-1]
                spaced = ch.space and ch.x0 - prev.x1 > SPACE_GAP_RATIO * prev.size and not (ch.text == prev.text == ".")  # leader dots stay one word
                if spaced or ch.x0 < prev.x0 or ch.x0 > prev.x1 + X_TOLERANCE_RATIO * prev.size or abs(ch.top - prev.top) > Y_TOLERANCE:
                    words.append(_word(current))
                    current = []
                current.append(ch)
            words.append(_word(current))
    return words


def page_objects(page: Any):
    """(type, object, matrix from the object's container to page space) for every page object, Form XObjects opened."""
    yield from _objects(page.raw, False, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), 0)


def _objects(parent: Any, form: bool, matrix: Matrix, depth: int):
    """(type, object, matrix from its space to the page's) for every page object, Form XObjects opened."""
    count = raw.FPDFFormObj_CountObjects(parent) if form else raw.FPDFPage_CountObjects(parent)
    for index in range(max(count, 0)):
        obj = raw.FPDFFormObj_GetObject(parent, index) if form else raw.FPDFPage_GetObject(parent, index)
        if not obj:
            continue
        kind = raw.FPDFPageObj_GetType(obj)
        yield kind, obj, matrix
        if kind == raw.FPDF_PAGEOBJ_FORM and depth < _MAX_DEPTH:
            inner = raw.FS_MATRIX()
            if raw.FPDFPageObj_GetMatrix(obj, inner):
                m = (inner.a, inner.b, inner.c, inner.d, inner.e, inner.f)
                yield from _objects(obj, True, compose(m, matrix), depth + 1)


def compose(first: Matrix, then: Matrix) -> Matrix:
    """The matrix applying ``first``, then ``then`` (PDF's row-vector convention)."""
    a, b, c, d, e, f = first
    A, B, C, D, E, F = then
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _bounds(obj: Any) -> tuple[float, float, float, float] | None:
    left, bottom, right, top = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    if not raw.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
        return None
    return left.value, bottom.value, right.value, top.value


def image_boxes(page: Any, width: float, height: float) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, top, x1, bottom) of embedded images big enough to be figures, in content order."""
    ctm, _, _ = display_transform(page)
    boxes: list[tuple[float, float, float, float]] = []
    for kind, obj, matrix in page_objects(page):
        if kind != raw.FPDF_PAGEOBJ_IMAGE or (bounds := _bounds(obj)) is None:
            continue
        x0, top, x1, bottom = _box(compose(matrix, ctm), height, *bounds)
        x0, top, x1, bottom = max(x0, 0), max(top, 0), min(x1, width), min(bottom, height)
        if x1 - x0 < 40 or bottom - top < 40 or (x1 - x0) * (bottom - top) > 0.9 * width * height:
            continue  # icons and rules, or a full-page scan
        box = (round(x0, 1), round(top, 1), round(x1, 1), round(bottom, 1))
        if box not in boxes:
            boxes.append(box)
    return boxes


def image_coverage(page: Any) -> float:
    """The share of the page's area its largest embedded image covers (a scan covers most of it; a blank page 0)."""
    ctm, width, height = display_transform(page)
    largest = 0.0
    for kind, obj, matrix in page_objects(page):
        if kind != raw.FPDF_PAGEOBJ_IMAGE or (bounds := _bounds(obj)) is None:
            continue
        x0, top, x1, bottom = _box(compose(matrix, ctm), height, *bounds)
        area = max(0.0, min(x1, width) - max(x0, 0.0)) * max(0.0, min(bottom, height) - max(top, 0.0))
        largest = max(largest, area)
    return largest / max(width * height, 1.0)
