"""Right-to-left lines back in logical order.

A PDF stores Arabic and Hebrew glyphs where they are drawn, so a line read left
to right by position is in visual order: each right-to-left run reversed,
numbers and embedded Latin words (a product name) left to right. The Unicode
bidirectional algorithm (python-bidi, a maintained binding of the Rust
``unicode-bidi`` crate) turns a visual line of a right-to-left paragraph back
into reading order; applied to a visual line it undoes the reordering that
made it. Arabic presentation forms (shaped glyphs some PDFs map to) become
the letters they stand for.
"""

from __future__ import annotations

import re
import unicodedata

from bidi import get_display

__all__ = ["is_rtl", "logical_order"]

_RTL = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_PRESENTATION = re.compile(r"[\ufb50-\ufdff\ufe70-\ufefc]+")


def is_rtl(text: str) -> bool:
    """Whether a line is mostly right-to-left letters (Hebrew, Arabic, Syriac, Thaana)."""
    if not _RTL.search(text):
        return False
    strong = [unicodedata.bidirectional(ch) for ch in text if ch.isalpha()]
    rtl = sum(1 for kind in strong if kind in ("R", "AL"))
    return rtl >= 0.3 * len(strong)


def logical_order(visual: str) -> str:
    """A visual-order right-to-left line in reading order, presentation forms unshaped."""
    text = _PRESENTATION.sub(lambda m: unicodedata.normalize("NFKC", m.group(0)), visual)
    return get_display(text, base_dir="R")
