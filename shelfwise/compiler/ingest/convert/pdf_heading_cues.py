"""Layout cues that tell a heading line from body text, and the fitted model that weighs them.

The rules of ``pdf_headings`` catch headings set larger, bold, numbered or in
capitals. Many layouts set headings otherwise: small capitals a point below the
body size, a sans-serif family over a serif body, a lettered appendix heading
("B ABLATION STUDY") with no final dot. What such lines share is where they
stand and how often their style recurs: a clear gap above and a smaller one
below (a heading binds to the paragraph it opens), a line that stops short of
the column's edge, a style that differs from the line after it, used by few
characters but on several pages. ``line_features`` measures these cues for one
line; ``HeadingModel`` calls a line a heading when its cues pass bounds that
``python -m shelfwise.eval.fit_pdf_headings`` fits on PDFs whose outline names
their headings (leave-one-document-out); they ship in
``pdf_heading_weights.json`` beside this module.

The rules and bounds also pick lines no outline names: a contents page's
entries, an index's letter groups, a table's bold cells, a title page's
names and imprint, a running title echoing its section's heading. Further cues
say so (the text stands again on a later page; one letter; other lines share
the row; an e-mail or copyright sign; the same text lower on the page; a
page's first or last line in a style that stands at its height on other
pages' edges, a running title whose text changes; a page number after the
title; a section number that neither follows nor opens under the headings
before it, a list's step or a running title's repeat), and
``HeadingCheck``, a logistic model fitted on the same PDFs, keeps a picked line
only when its probability reaches the fitted threshold.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from shelfwise.compiler.ingest.convert.pdf_chars import LINE_GAP
from shelfwise.compiler.ingest.convert.pdf_layout import PageItem

__all__ = ["FEATURES", "WEIGHTS_FILE", "CueContext", "HeadingCheck", "HeadingModel", "text_key", "cue_context", "heading_model", "line_features", "load_heading_model"]

WEIGHTS_FILE = Path(__file__).with_name("pdf_heading_weights.json")
FEATURES = (
    "size_ratio",  # log(line size / body size): larger or smaller type
    "bold",  # bold where the body is not
    "caps",  # all capitals
    "numbered",  # a section number before a title-cased word
    "sentence_end",  # ends with . , ;
    "colon_end",  # ends with a colon (a run-in label)
    "words",  # log(1 + words)
    "gap_above",  # space above over the body size (at most 3, and 3 at the top of a column)
    "column_top",  # first line of its column on the page
    "gap_below",  # space below over the body size (0 at the foot of a column)
    "column_foot",  # last line of its column on the page
    "gap_balance",  # (space above - space below) over the body size: a heading binds to what follows
    "width_used",  # share of the column's width the line fills
    "next_differs",  # the next line's style (size, weight, family) differs
    "other_family",  # set in another font family than the body
    "style_share",  # log10 share of the document's characters set in this line's style
    "style_pages",  # log(1 + pages where the style starts a line)
    "prev_ended",  # the line before ends a sentence or a heading ("Note 5 – Debt" over "Commercial Paper"), or there is none in this column
    "next_capital",  # the next line starts with a capital or a digit
    "indent",  # start past the column's left edge over the body size
    "set_apart_gap",  # a style unlike the body's times the space above
    "style_alone",  # share of the lines in this style that stand alone: short, no final period, space above
    "style_words",  # log(1 + mean words per line in this style)
    "style_lines",  # log(1 + lines in this style)
    "above_text_block",  # set above where the body text of a page usually starts (a page header, a cover line)
    "isolated",  # a paragraph break above (or the column's top), stops short of the edge, no final period
    "isolated_set_apart",  # isolated and in a style unlike the body's
    "style_alone_set_apart",  # style_alone, for a style unlike the body's
    "letter_share",  # share of letters among the line's characters (a chart's "Q1 2022 Q1 2023" has few)
    "rule_size",  # the rules pick it for its larger type
    "rule_bold",  # the rules pick it for its bold type
    "rule_numbered",  # the rules pick it for its section number
    "rule_caps",  # the rules pick it for its capitals
    "text_later",  # the same text stands on a later page (a contents line names a heading further on)
    "echoed_below",  # the same text stands again lower on its page (a page header repeating its section's title)
    "style_repeats",  # log(1 + other lines of the same text in the same style): a part page's imprint, "end for"
    "contents_page",  # share of its page's lines whose text stands again on a later page (a contents page)
    "same_row",  # log(1 + other lines of its page and column beside it on the same row): a table's cells, a form
    "starts_lower",  # its first letter is lower case ("end for", "package, such as ...")
    "letters",  # log(1 + letters in the line): "A" heads an index's letter group
    "front_matter",  # an e-mail, a web address or a copyright sign (a title page's imprint)
    "first_page",  # on the document's first page
    "wraps_on",  # fills its column and the next line, in the same style, follows tight below (a wrapped paragraph)
    "same_place",  # first or last in its column: share of the other pages whose first or last line stands in its style at its height (a running title whose text changes: "Chapter 2: Copyright")
    "ends_page_number",  # ends in a number no greater than the document's pages, after its words: a page number set after a contents entry or a running title ("Chapter 2 Graphics 11"; not "Review 2025")
    "number_breaks",  # its section number neither follows nor opens under the last numbered heading the rules pick (a list item, a running title's repeat)
)


@dataclass
class CueContext:
    """What the cues of every line are measured against: the body's style and each column's edges."""

    body: float
    body_family: str
    line_gap: float
    edges: dict[tuple[int, int], tuple[float, float]]
    style_chars: Counter
    style_pages: dict[tuple, set[int]]
    total_chars: int
    style_lines: Counter
    style_words: Counter
    style_alone: Counter
    block_top: float
    keys: list[str]
    last_on_page: dict[tuple[str, int], int]
    text_pages: dict[str, Counter]
    text_styles: Counter
    contents_share: dict[int, float]
    row_mates: list[int]
    place_pages: dict[tuple, dict[int, set[int]]]  # style -> rounded top -> pages where a column's first or last line stands there
    page_count: int  # pages with text lines


_LEADING_NUMBER = re.compile(r"^(?:(?:chapter|appendix|section|part|note)\s+)?(?:[0-9]+|[A-Z]|[IVXL]+)(?:\.[0-9]+)*[.:]?\s+(?=\S)", re.IGNORECASE)
_FRONT_MATTER = re.compile(r"@|©|\(c\)|https?:|www\.", re.IGNORECASE)


def text_key(text: str) -> str:
    """A line's text for finding it again elsewhere: its leading section number and trailing page number dropped,
    letters and digits folded to lower case, nothing else."""
    text = _LEADING_NUMBER.sub("", " ".join(text.split()), count=1)
    text = re.sub(r"\s+[0-9ivxlc]{1,4}$", "", text)
    return re.sub(r"[\W_]+", "", text.casefold())


def _row_mates(lines: Sequence[PageItem]) -> list[int]:
    """For each line, how many other lines of its page and column share its row (overlap its vertical span by half
    its height)."""
    by_page: dict[tuple[int, int], list[int]] = defaultdict(list)
    for index, line in enumerate(lines):
        by_page[(line.page, line.column)].append(index)
    mates = [0] * len(lines)
    for indexes in by_page.values():
        ordered = sorted(indexes, key=lambda i: lines[i].top)
        for n, i in enumerate(ordered):
            a = lines[i]
            height = max(a.bottom - a.top, 1.0)
            for j in ordered[n + 1:]:
                b = lines[j]
                if b.top >= a.bottom:
                    break
                if min(a.bottom, b.bottom) - max(a.top, b.top) > 0.5 * min(height, max(b.bottom - b.top, 1.0)):
                    mates[i] += 1
                    mates[j] += 1
    return mates


def _text_recurrence(lines: Sequence[PageItem], keys: list[str]) -> tuple[dict[str, Counter], dict[int, float]]:
    """Pages each text key stands on (lines per page), and per page the share of its lines whose text stands again on
    a later page."""
    text_pages: dict[str, Counter] = defaultdict(Counter)
    for line, key in zip(lines, keys):
        if key:
            text_pages[key][line.page] += 1
    later: Counter = Counter()
    counted: Counter = Counter()
    for line, key in zip(lines, keys):
        counted[line.page] += 1
        later[line.page] += bool(key) and any(page > line.page for page in text_pages[key])
    return text_pages, {page: later[page] / counted[page] for page in counted if counted[page] >= 3}


def _style(line: PageItem) -> tuple:
    return (round(line.size * 2) / 2, line.bold, line.font)


def cue_context(lines: Sequence[PageItem], body: float, line_gap: float, edges: dict[tuple[int, int], tuple[float, float]]) -> CueContext:
    """The document-wide measures the cues need (body family, style frequencies)."""
    families: Counter = Counter()
    style_chars: Counter = Counter()
    style_pages: dict[tuple, set[int]] = defaultdict(set)
    style_lines: Counter = Counter()
    style_words: Counter = Counter()
    style_alone: Counter = Counter()
    for index, line in enumerate(lines):
        length = len(line.text)
        style = _style(line)
        style_chars[style] += length
        style_pages[style].add(line.page)
        style_lines[style] += 1
        words = len(line.text.split())
        style_words[style] += words
        prev = lines[index - 1] if index else None
        spaced = not _same_column(prev, line) or line.top < prev.top or line.top - prev.bottom > line_gap + 0.35 * line.size
        style_alone[style] += words <= 12 and spaced and not line.text.rstrip().endswith((".", ",", ";"))
        if abs(line.size - body) < 0.5 and not line.bold:
            families[line.font] += length
    body_family = families.most_common(1)[0][0] if families else ""
    first_body: dict[int, float] = {}
    for line in lines:
        if abs(line.size - body) < 0.5 and not line.bold and line.page not in first_body:
            first_body[line.page] = line.top
    tops = sorted(first_body.values())
    block_top = tops[len(tops) // 2] if tops else 0.0
    keys = [text_key(line.text) for line in lines]
    last_on_page = {(key, line.page): index for index, (line, key) in enumerate(zip(lines, keys))}
    text_pages, contents_share = _text_recurrence(lines, keys)
    text_styles = Counter((key, _style(line)) for line, key in zip(lines, keys))
    place_pages: dict[tuple, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for index in _column_edges(lines):
        place_pages[_style(lines[index])][round(lines[index].top)].add(lines[index].page)
    return CueContext(body, body_family, line_gap, edges, style_chars, style_pages, max(1, sum(style_chars.values())),
                      style_lines, style_words, style_alone, block_top, keys, last_on_page, text_pages, text_styles, contents_share,
                      _row_mates(lines), place_pages, max(1, len({line.page for line in lines})))


def _same_column(a: PageItem | None, b: PageItem) -> bool:
    return a is not None and a.page == b.page and a.column == b.column


def line_features(lines: Sequence[PageItem], index: int, context: CueContext, text_cues: dict[str, bool], rule: str | None = None,
                  after_heading: bool = False) -> list[float]:
    """The cue values of line ``index`` in the order of ``FEATURES``; ``text_cues`` holds numbered, caps,
    sentence_end and colon_end (read from the text by the caller); ``rule``: the rule that picks the line (size,
    bold, numbered, caps), None when none does; ``after_heading``: the rules pick the line before it in its column,
    and that line stops short of the column's edge (a heading over this one, not a paragraph running into it)."""
    line = lines[index]
    body = max(context.body, 1.0)
    prev = lines[index - 1] if index else None
    after = lines[index + 1] if index + 1 < len(lines) else None
    top = not _same_column(prev, line) or line.top < prev.top
    foot = after is None or not _same_column(line, after) or after.top < line.top
    above = 3.0 if top else min(max(line.top - prev.bottom, 0.0) / body, 3.0)  # a column's top: the widest gap
    below = 0.0 if foot else min(max(after.top - line.bottom, 0.0) / body, 3.0)
    left, right = context.edges.get((line.page, line.column), (line.x0, line.x1))
    width = max(right - left, 1.0)
    used = (right - line.x0) if line.rtl else (line.x1 - left)
    style = _style(line)
    differs = after is not None and (abs(after.size - line.size) > 0.5 or after.bold != line.bold or after.font != line.font)
    other_family = bool(line.font) and bool(context.body_family) and line.font != context.body_family
    set_apart = abs(math.log(max(line.size, 1.0) / body)) > 0.04 or (line.bold and not line.mono) or other_family or text_cues["caps"]
    first = (after.text.strip()[:1] if after is not None else "")
    values = {
        "size_ratio": math.log(max(line.size, 1.0) / body),
        "bold": float(line.bold),
        "caps": float(text_cues["caps"]),
        "numbered": float(text_cues["numbered"]),
        "sentence_end": float(text_cues["sentence_end"]),
        "colon_end": float(text_cues["colon_end"]),
        "words": math.log1p(len(line.text.split())),
        "gap_above": above,
        "column_top": float(top),
        "gap_below": below,
        "column_foot": float(foot),
        "gap_balance": above - below if not (top or foot) else 0.0,
        "width_used": min(used / width, 1.2),
        "next_differs": float(differs),
        "other_family": float(other_family),
        "style_share": math.log10(max(context.style_chars[style], 1) / context.total_chars),
        "style_pages": math.log1p(len(context.style_pages[style])),
        "prev_ended": float(top or after_heading or prev.text.rstrip().endswith((".", "!", "?", ":", "。"))),
        "next_capital": float(bool(first) and (first.isupper() or first.isdigit())),
        "indent": min(max((right - line.x1) if line.rtl else (line.x0 - left), 0.0) / body, 5.0),
        "set_apart_gap": float(set_apart) * (3.0 if top else above),
        "style_alone": context.style_alone[style] / max(context.style_lines[style], 1),
        "style_words": math.log1p(context.style_words[style] / max(context.style_lines[style], 1)),
        "style_lines": math.log1p(context.style_lines[style]),
        "above_text_block": float(line.bottom < context.block_top - 0.5 * body),
    }
    spaced = top or (line.top - prev.bottom > context.line_gap + 0.35 * line.size)
    isolated = spaced and used < 0.75 * width and not text_cues["sentence_end"]
    values["isolated"] = float(isolated)
    values["isolated_set_apart"] = float(isolated and set_apart)
    values["style_alone_set_apart"] = values["style_alone"] * float(set_apart)
    visible = [ch for ch in line.text if not ch.isspace()]
    values["letter_share"] = sum(ch.isalpha() for ch in visible) / max(len(visible), 1)
    values.update({f"rule_{name}": float(rule == name) for name in ("size", "bold", "numbered", "caps")})
    values.update(_recurrence_cues(lines, index, context))
    letters = [ch for ch in line.text if ch.isalpha()]
    values["starts_lower"] = float(bool(letters) and letters[0].islower())
    values["letters"] = math.log1p(len(letters))
    values["front_matter"] = float(bool(_FRONT_MATTER.search(line.text)))
    values["first_page"] = float(line.page == 1)
    tight = after is not None and not foot and _style(after) == style and after.top - line.bottom < LINE_GAP * line.size
    values["wraps_on"] = float(tight and used >= 0.75 * width)
    values["same_place"] = _same_place(line, top, foot, context)
    number = _ENDS_NUMBER.search(line.text.rstrip())
    values["ends_page_number"] = float(len(letters) >= 2 and number is not None and int(number.group(0)) <= context.page_count)
    values["number_breaks"] = float(text_cues.get("number_breaks", False))
    return [values[name] for name in FEATURES]


_ENDS_NUMBER = re.compile(r"(?<=[\s)\]])\d{1,4}$")  # "... (§ 164.308(a)(4))27", "with pdfgen 11"; not "Section 4.2", "Salsa20"


def _column_edges(lines: Sequence[PageItem]) -> list[int]:
    """The lines that stand first or last in their column of their page (reading order)."""
    edges = []
    for index, line in enumerate(lines):
        prev = lines[index - 1] if index else None
        after = lines[index + 1] if index + 1 < len(lines) else None
        if not _same_column(prev, line) or line.top < prev.top or after is None or not _same_column(line, after) or after.top < line.top:
            edges.append(index)
    return edges


def _same_place(line: PageItem, top: bool, foot: bool, context: CueContext) -> float:
    """For a line first or last in its column: the share of the document's pages, its own left out, whose first or last
    line stands in its style within a point of its height (a running title); 0 for any other line, and where fewer
    than two other pages do (a running title stands on three pages or more, as the reader's running-line rule asks of
    repeated text; one other page is a regular layout's coincidence)."""
    if not (top or foot):
        return 0.0
    by_top = context.place_pages.get(_style(line), {})
    top = round(line.top)
    pages = set().union(*(by_top.get(t, set()) for t in (top - 1, top, top + 1)))
    others = len(pages - {line.page})
    return others / context.page_count if others >= 2 else 0.0


def _recurrence_cues(lines: Sequence[PageItem], index: int, context: CueContext) -> dict[str, float]:
    """Where else the line's text stands, its page's share of text that recurs later, and its row mates."""
    line = lines[index]
    key = context.keys[index]
    pages = context.text_pages.get(key, Counter()) if key else Counter()
    return {
        "text_later": float(any(page > line.page for page in pages)),
        "echoed_below": float(bool(key) and context.last_on_page[(key, line.page)] > index),
        "style_repeats": math.log1p(max(context.text_styles[(key, _style(line))] - 1, 0)) if key else 0.0,
        "contents_page": context.contents_share.get(line.page, 0.0),
        "same_row": math.log1p(context.row_mates[index]),
    }


@dataclass(frozen=True)
class HeadingCheck:
    """A logistic model over every cue of a line the rules or bounds pick: the line stays a heading when its
    probability is at least ``threshold`` (weights and threshold fitted by ``python -m shelfwise.eval.fit_pdf_headings``)."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float

    def probability(self, features: Sequence[float]) -> float:
        z = self.intercept + sum(c * (f - m) / s for c, f, m, s in zip(self.coef, features, self.mean, self.scale))
        return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))

    def keeps(self, features: Sequence[float]) -> bool:
        return self.probability(features) >= self.threshold


@dataclass(frozen=True)
class HeadingModel:
    """A line is a heading when every cue named in ``minimums`` is at least its bound and every cue named in
    ``maximums`` at most its bound (bounds fitted by ``python -m shelfwise.eval.fit_pdf_headings``); ``check``, when
    fitted, then keeps only the picked lines (the rules' and the bounds') its logistic model calls headings."""

    minimums: tuple[tuple[int, float], ...]
    maximums: tuple[tuple[int, float], ...]
    check: HeadingCheck | None = None

    def is_heading(self, features: Sequence[float]) -> bool:
        return all(features[i] >= bound for i, bound in self.minimums) and all(features[i] <= bound for i, bound in self.maximums)


def heading_model(minimums: dict[str, float], maximums: dict[str, float], check: dict | None = None) -> HeadingModel:
    """The model with these bounds, by cue name (a name not in ``FEATURES`` is a ValueError), and the fitted check
    (``mean``, ``scale``, ``coef`` in the order of ``FEATURES``, ``intercept``, ``threshold``) when given."""
    unknown = sorted((set(minimums) | set(maximums)) - set(FEATURES))
    if unknown:
        raise ValueError(f"unknown heading cues {unknown}; the reader measures {list(FEATURES)}")
    fitted = None
    if check is not None:
        if not len(check["mean"]) == len(check["scale"]) == len(check["coef"]) == len(FEATURES):
            raise ValueError(f"heading check fitted for {len(check['coef'])} cues; the reader measures {len(FEATURES)}")
        fitted = HeadingCheck(tuple(check["mean"]), tuple(s or 1.0 for s in check["scale"]), tuple(check["coef"]),
                              float(check["intercept"]), float(check["threshold"]))
    return HeadingModel(tuple((FEATURES.index(k), float(v)) for k, v in sorted(minimums.items())),
                        tuple((FEATURES.index(k), float(v)) for k, v in sorted(maximums.items())), fitted)


@lru_cache(maxsize=4)
def load_heading_model(path: Path = WEIGHTS_FILE) -> HeadingModel | None:
    """The fitted model in ``path``; None when no fit ships (the rules alone then pick headings)."""
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if tuple(data.get("features", ())) != FEATURES:
        raise ValueError(f"{path}: fitted for features {data.get('features')}, the reader measures {list(FEATURES)}; "
                         "run python -m shelfwise.eval.fit_pdf_headings")
    return heading_model(data["minimums"], data["maximums"], data.get("check"))
