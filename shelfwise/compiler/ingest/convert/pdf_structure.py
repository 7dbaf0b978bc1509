"""Headings from a tagged PDF's structure tree (the tags Word, LibreOffice and Acrobat write for accessibility).

A tagged PDF marks each run of page content with a marked-content id (MCID)
and files it under a structure element; headings are ``H1``..``H6`` or ``H``
(pdfium reports an authoring tool's own style names by the standard type its
role map gives them). ``tagged_headings`` walks each page's structure tree,
takes every heading element with the MCIDs under it, reads their text from the
page's text objects, and returns the headings in document order as outline
entries (level, title, page), which the reader applies as it applies
bookmarks: ``H2`` is level 2, ``H`` level 1. Tags that mark paragraphs as
headings (GDPR's export tags every paragraph ``H1``) are not used.
"""

from __future__ import annotations

import ctypes
import re
import statistics
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

__all__ = ["tagged_headings", "heading_like", "MAX_MEDIAN_WORDS", "MAX_TITLE_WORDS"]

MAX_MEDIAN_WORDS = 12  # tagged "headings" longer than this at the median are paragraphs tagged wrongly
MAX_TITLE_WORDS = 25  # the longest heading kept (the text layer's rules use the same bound)
_HEADING = re.compile(r"^H([1-6])?$")


def _type(element: Any) -> str:
    size = pdfium_c.FPDF_StructElement_GetType(element, None, 0)
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDF_StructElement_GetType(element, buffer, size)
    return buffer.raw[: size - 2].decode("utf-16-le", "replace")


def _mcids(element: Any, out: list[int]) -> None:
    """The MCIDs of an element and of every element under it, in order."""
    for index in range(pdfium_c.FPDF_StructElement_GetMarkedContentIdCount(element)):
        mcid = pdfium_c.FPDF_StructElement_GetMarkedContentIdAtIndex(element, index)
        if mcid >= 0:
            out.append(mcid)
    for index in range(pdfium_c.FPDF_StructElement_CountChildren(element)):
        child = pdfium_c.FPDF_StructElement_GetChildAtIndex(element, index)
        if child:
            _mcids(child, out)


def _headings(element: Any, out: list[tuple[int, list[int]]]) -> None:
    """(level, MCIDs) of every heading element at or under ``element``."""
    match = _HEADING.match(_type(element))
    if match:
        mcids: list[int] = []
        _mcids(element, mcids)
        out.append((int(match.group(1) or 1), mcids))
        return
    for index in range(pdfium_c.FPDF_StructElement_CountChildren(element)):
        child = pdfium_c.FPDF_StructElement_GetChildAtIndex(element, index)
        if child:
            _headings(child, out)


def _texts(page: Any, textpage: Any, wanted: set[int]) -> dict[int, str]:
    """The text of each wanted MCID on a page, from the page's text objects in content order."""
    texts: dict[int, str] = {}
    for index in range(pdfium_c.FPDFPage_CountObjects(page.raw)):
        obj = pdfium_c.FPDFPage_GetObject(page.raw, index)
        if pdfium_c.FPDFPageObj_GetType(obj) != pdfium_c.FPDF_PAGEOBJ_TEXT:
            continue
        mcid = pdfium_c.FPDFPageObj_GetMarkedContentID(obj)
        if mcid not in wanted:
            continue
        size = pdfium_c.FPDFTextObj_GetText(obj, textpage.raw, None, 0)
        buffer = ctypes.create_string_buffer(size)
        pdfium_c.FPDFTextObj_GetText(obj, textpage.raw, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)), size)
        texts[mcid] = texts.get(mcid, "") + buffer.raw[: max(size - 2, 0)].decode("utf-16-le", "replace")
    return texts


def _page_headings(document: pdfium.PdfDocument, index: int) -> list[tuple[int, str, int | None]]:
    page = document[index]
    try:
        tree = pdfium_c.FPDF_StructTree_GetForPage(page.raw)
        if not tree:
            return []
        found: list[tuple[int, list[int]]] = []
        try:
            for child in range(pdfium_c.FPDF_StructTree_CountChildren(tree)):
                element = pdfium_c.FPDF_StructTree_GetChildAtIndex(tree, child)
                if element:
                    _headings(element, found)
        finally:
            pdfium_c.FPDF_StructTree_Close(tree)
        if not found:
            return []
        textpage = page.get_textpage()
        try:
            texts = _texts(page, textpage, {mcid for _, mcids in found for mcid in mcids})
        finally:
            textpage.close()
    finally:
        page.close()
    marks = []
    for level, mcids in found:
        title = " ".join(" ".join(texts.get(mcid, "") for mcid in mcids).split())
        if title:
            marks.append((level, title, index + 1))
    return marks


def tagged_headings(document: pdfium.PdfDocument) -> list[tuple[int, str, int | None]]:
    """The tagged headings of an open PDF as (level, title, 1-based page), in document order; [] when it has no
    structure tree or no heading tags that read as headings."""
    marks: list[tuple[int, str, int | None]] = []
    for index in range(len(document)):
        marks += _page_headings(document, index)
    return heading_like(marks)


def heading_like(marks: list[tuple[int, str, int | None]]) -> list[tuple[int, str, int | None]]:
    """Entries that read as headings: none when their titles run to sentences at the median (GDPR tags each
    paragraph H1), else those of at most ``MAX_TITLE_WORDS`` words."""
    if not marks or statistics.median(len(title.split()) for _, title, _ in marks) > MAX_MEDIAN_WORDS:
        return []
    return [mark for mark in marks if len(mark[1].split()) <= MAX_TITLE_WORDS]
