"""Which PDF text lines are headings, and at what level, from every signal the text layer gives.

A line is a heading when its style sets it apart from the document's body text
(larger, bold by font name or weight) or when it is set like body text but
carries a section number ("1.2", "IV.", "A.", "제1장", "第三章", "Article 5",
"Appendix B") or is all capitals, and stands alone: a paragraph break above
it, and it ends well short of the column's edge. Sentences (a final period),
numbered list items ("1)", "(a)", or a run of numbered lines) and table-of-
contents lines are not headings. Levels come from the numbering scheme and
depth ("제1장" above "1.", "I." above "A.", "2.1" under "2"), else from the
style's rank by size and weight.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from shelfwise.compiler.ingest.convert.pdf_chars import LINE_GAP
from shelfwise.compiler.ingest.convert.pdf_heading_cues import cue_context, line_features, load_heading_model
from shelfwise.compiler.ingest.convert.pdf_layout import CAPTION, PageItem, monospace_family

__all__ = ["numbering", "heading_lines", "rule_headings", "heading_levels", "continues_heading", "block_starts", "Numbering"]

Numbering = tuple[str, int]  # (scheme, depth)

_CJK_NUM = "一二三四五六七八九十百零〇"
_SCHEMES: list[tuple[str, re.Pattern]] = [
    ("chapter", re.compile(rf"^(?:제\s*\d+\s*[장편부]|第\s*[\d{_CJK_NUM}]+\s*[章编部篇]|(?:chapter|part|book|title)\s+(?:\d+|[IVXLC]+|[A-Z]|one|two|three|four|five|six|seven|eight|nine|ten)\b)", re.IGNORECASE)),
    ("article", re.compile(rf"^(?:제\s*\d+\s*[조절]|第\s*[\d{_CJK_NUM}]+\s*[条节]|(?:article|section|§)\s*\d+(?:\.\d+)*\b)", re.IGNORECASE)),
    ("appendix", re.compile(r"^(?:appendix|annex|annexe|schedule)\s+(?:[A-Z]|\d+|[IVX]+)\b", re.IGNORECASE)),
    ("roman", re.compile(r"^(?=[IVXLC]+\.\s)(?:X{0,3})(?:IX|IV|V?I{0,3})\.\s+\S")),
    ("decimal", re.compile(r"^[A-Z](?:\.\d{1,3})+\.?(?=\s+\S)")),  # "A.1.1 Web Search": an appendix's numbered parts
    ("letter", re.compile(r"^[A-Z]\.\s+\S")),
    ("decimal", re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.?(?=\s+\S)")),
    ("cjk_list", re.compile(rf"^(?:[{_CJK_NUM}]+[、.]|[가나다라마바사아자차카타파하]\.)\s*\S")),
    ("paren", re.compile(r"^(?:\(\d{1,2}\)|\d{1,2}\)|\([a-z]\)|[a-z]\))\s+\S")),
]
# order of schemes from the outermost: a chapter holds articles, roman parts hold lettered ones
_RANK = {"chapter": 0, "appendix": 1, "roman": 1, "article": 2, "decimal": 3, "letter": 4, "cjk_list": 5, "paren": 6}
_SENTENCE_END = (".", ",", ";", "。", "，", "；", "؛", "،")
_LEADERS = re.compile(r"(\.\s?){4,}|…{2,}|\.{2,}\s*\d+$")
_TOC_LINE = re.compile(r"^(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)\s+.+\s(\d+)$")
_PAGE_NUMBER = re.compile(r"^\W*(page\s*)?([0-9]+|[ivxlcdm]+)(\s*(of|/)\s*[0-9]+)?\W*$", re.IGNORECASE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def numbering(text: str) -> Numbering | None:
    """The numbering scheme and depth a heading starts with ("2.1 Scope" -> ("decimal", 2)); None if unnumbered."""
    text = text.strip()
    for scheme, pattern in _SCHEMES:
        match = pattern.match(text)
        if not match:
            continue
        if scheme == "decimal":
            number = match.group(0).rstrip(".")
            if number[0].isdigit() and int(number.split(".")[0]) > 999:
                return None
            return scheme, number.count(".") + 1
        if scheme == "article":
            number = re.search(r"\d+(?:\.\d+)*", match.group(0))
            return scheme, number.group(0).count(".") + 1 if number else 1
        return scheme, 1
    return None


def _letters(text: str) -> list[str]:
    return [ch for ch in text if ch.isalpha()]


def _all_caps(text: str) -> bool:
    letters = _letters(text)
    cased = [ch for ch in letters if ch.lower() != ch.upper()]
    return len(cased) >= 4 and len(cased) >= 0.8 * len(letters) and all(ch.isupper() for ch in cased)


def _short(text: str, words: int) -> bool:
    if _CJK.search(text):
        return len(text) <= 3 * words
    return len(text.split()) <= words


def _ends_sentence(text: str) -> bool:
    return text.rstrip().endswith(_SENTENCE_END)


_FIGURE_OR_PERIOD = re.compile(r"^(?:[-–−+]?[$€£¥]?\(?[-–−]?[$€£¥]?\d[\d,.]*\)?(?:%|[KMBT]|bn)?|(?:Q[1-4]|H[12]|FY)(?:[\s'’]?\d{2,4})?)$")
"""A figure ("$11.7B", "34.2%", "$(0.66)") or a period ("Q1", "FY2023") standing as a word of its own."""


def _figures_only(text: str) -> bool:
    """A line of figures and periods only ("$11.7B 34.2% 38.4%", "Q1 2022 Q1 2023"): a chart's axis or a row of key
    figures, naming nothing a heading would."""
    return all(_FIGURE_OR_PERIOD.match(word) for word in text.split())


_AMOUNT = re.compile(r"[$€£¥]\s?\(?\d")
"""An amount of money ("$ 1,393", "$ (518)"): a line stating one is a chart's label or a statement's row ("$ 1,393 Q1
2022 DCAI Operating Income (Loss)", the start of a waterfall chart), not a heading, which names what follows."""


_ASIDE = re.compile(r"^\([^()]*\)$")
"""A line wholly within one pair of parentheses is an aside on what stands by it ("(In Millions)" over a table,
"(unaudited)" under a statement's title, "(Mark One)" on a form, "(Text with EEA relevance)" under a regulation's
title), not a heading: a heading names what follows, in its own words."""


def _not_a_heading(text: str, pages: int) -> bool:
    if not text or len(text) > 160 or not _letters(text) or CAPTION.match(text) or _figures_only(text) or _AMOUNT.search(text) \
            or _ASIDE.match(text.strip()):
        return True
    if _LEADERS.search(text) or _PAGE_NUMBER.match(text):
        return True
    toc = _TOC_LINE.match(text)
    return bool(toc and int(toc.group(1)) <= max(pages, 1))  # "2.1 Scope 14": a contents line pointing at a page


def _edges(lines: Sequence[PageItem]) -> dict[tuple[int, int], tuple[float, float]]:
    """Each page column's text edges (left, right): the most common line start and the widest line end."""
    starts: dict[tuple[int, int], Counter] = defaultdict(Counter)
    ends: dict[tuple[int, int], list[float]] = defaultdict(list)
    for line in lines:
        starts[(line.page, line.column)][round(line.x0)] += 1
        ends[(line.page, line.column)].append(line.x1)
    out = {}
    for key, counter in starts.items():
        right = sorted(ends[key])
        out[key] = (float(counter.most_common(1)[0][0]), right[int(0.9 * (len(right) - 1))])
    return out


def _line_gap(lines: Sequence[PageItem]) -> float:
    gaps = sorted(
        b.top - a.bottom for a, b in zip(lines, lines[1:]) if a.page == b.page and a.column == b.column and 0 <= b.top - a.bottom < a.size
    )
    return gaps[int(0.3 * len(gaps))] if gaps else 2.0  # the lower third: paragraph breaks of short paragraphs do not count


def heading_lines(lines: Sequence[PageItem], body: float, pages: int, *, cues: bool = True) -> set[int]:
    """Indexes of the lines that are headings (lines in reading order, running headers and footers removed): those
    the rules pick, and with ``cues`` those the fitted layout model (``pdf_heading_cues``) picks among the rest, all of
    them then kept only when the model's fitted check calls the first line of their heading a heading
    (``HeadingCheck``, ``block_starts``)."""
    heads, features = rule_headings(lines, body, pages)
    # "Article 12" alone on its line with its title tight below in its type (wrapped over up to three lines): one
    # heading, "Article 12 Transparent information, communication and modalities for the exercise of the rights ..."
    titled = {index for index in heads if _label_alone(" ".join(lines[index].text.split())) and index + 1 < len(lines)
              and continues_heading(lines[index], lines[index + 1])}
    for index in titled:
        below = index + 1
        heads.add(below)
        while below + 1 < len(lines) and below - index < 3 and continues_heading(lines[below], lines[below + 1]):
            below += 1
            heads.add(below)
    model = load_heading_model() if cues else None
    if model is not None:
        heads |= {index for index, cue in features.items() if index not in heads and model.is_heading(cue)}
        if model.check is not None:
            start = block_starts(lines, heads)
            # a labelled number over its title is a heading whatever its first line's cues say: the check, fitted on
            # headings that carry their words, reads "Article 12" as an index letter or a chart label
            heads = {index for index in heads if start[index] in titled or model.check.keeps(features[start[index]])}
    return heads


def continues_heading(above: PageItem | None, line: PageItem) -> bool:
    """``line`` continues the heading line ``above`` it (the reader joins them into one heading): the same size and
    weight, on the same page, tight below it, with no section number of its own."""
    return (above is not None and (round(above.size * 2), above.bold) == (round(line.size * 2), line.bold) and above.page == line.page
            and 0 <= line.top - above.bottom < LINE_GAP * line.size and numbering(line.text) is None)


def block_starts(lines: Sequence[PageItem], heads: set[int]) -> dict[int, int]:
    """For each heading line, the first line of the heading it belongs to ("CONSOLIDATED STATEMENTS OF CASH FLOWS",
    then "(in millions)" and "(unaudited)" tight below it in its type: one heading). The check judges a heading by its
    first line and keeps or drops its lines together: a continuation's own cues (no gap above, the line before unended)
    are those of any continuation, and dropping one would split the heading and title the rest by its last line."""
    start: dict[int, int] = {}
    for index in sorted(heads):
        above = lines[index - 1] if index else None
        start[index] = start[index - 1] if index - 1 in heads and continues_heading(above, lines[index]) else index
    return start


def rule_headings(lines: Sequence[PageItem], body: float, pages: int) -> tuple[set[int], dict[int, list[float]]]:
    """The headings the rules pick, and the layout cues (``pdf_heading_cues.FEATURES``) of every line that could be
    one (those the rules pick among them): not code or in a typewriter face, a contents line, a caption, a page number,
    a list item or over 25 words."""
    gap = _line_gap(lines)
    edges = _edges(lines)
    context = cue_context(lines, body, gap, edges)
    heads: set[int] = set()
    features: dict[int, list[float]] = {}
    recent: list[tuple[int, ...]] = []  # the section numbers of the last headings the rules pick
    for index, line in enumerate(lines):
        text = " ".join(line.text.split())
        if line.mono or _not_a_heading(text, pages) or not _short(text, 25):
            continue
        prev = lines[index - 1] if index else None
        after = lines[index + 1] if index + 1 < len(lines) else None
        number = numbering(text)
        listed = number is not None and (number[0] == "paren" or _next_in_list(line, after, number))
        rule = _rule_heading(text, line, prev, number, listed, body, gap, edges)
        section = _section_number(text)
        breaks = section is not None and not _number_follows(section, recent)
        if rule is not None:
            heads.add(index)
            if section is not None:
                recent = [*recent[-(_NUMBER_MEMORY - 1):], section]
        if rule is not None or (not listed and not monospace_family(line.font)):  # code and option names set in typewriter type
            cues = {"numbered": number is not None and (_starts_like_a_title(text) or _label_alone(text)), "caps": _all_caps(text),
                    "sentence_end": _ends_sentence(text), "colon_end": text.endswith(":"), "number_breaks": breaks}
            stacked = index - 1 in heads and _same_column(prev, line) and _ends_short(prev, edges) and _a_title(text)
            features[index] = line_features(lines, index, context, cues, rule, after_heading=stacked)
    return heads, features


_SECTION_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})*)\.?\s+\S")
_NUMBER_MEMORY = 3


def _section_number(text: str) -> tuple[int, ...] | None:
    """A decimal section number's parts ("4.12. Workstation Security" -> (4, 12)); None when the line has none."""
    match = _SECTION_NUMBER.match(text)
    return tuple(int(part) for part in match.group(1).split(".")) if match else None


def _number_follows(number: tuple[int, ...], recent: Sequence[tuple[int, ...]]) -> bool:
    """``number`` follows one of the ``recent`` heading numbers (the next at its depth or above: "4.5" or "5" after
    "4.4.3") or opens under it ("4.4.1" under "4.4"); with none before it, it opens a sequence (every part 0 or 1).
    A repeat ("4.4" again after "4.4.3": a running title) or a jump back ("1." after "2.3": a list) does not."""
    if not recent:
        return all(part <= 1 for part in number)
    for previous in recent:
        if len(number) == len(previous) + 1 and number[:-1] == previous and number[-1] <= 1:
            return True
        depth = len(number)
        if depth <= len(previous) and number[:depth - 1] == previous[:depth - 1] and number[depth - 1] == previous[depth - 1] + 1:
            return True
    return False


def _rule_heading(text: str, line: PageItem, prev: PageItem | None, number: Numbering | None, listed: bool, body: float,
                  gap: float, edges: dict[tuple[int, int], tuple[float, float]]) -> str | None:
    """The style or numbering rule that calls the line a heading (size, bold, numbered, caps); None when none does."""
    if line.size >= max(body * 1.12, body + 1.0):
        return None if (len(text.split()) > 12 and _ends_sentence(text)) or _byline(text, line, prev) else "size"
    if line.size < body * 0.9:
        return None
    if line.bold and _short(text, 14) and not listed and (not _ends_sentence(text) or (number and not text.endswith(","))):
        return "bold"
    isolated = _paragraph_break_above(prev, line, gap) and _ends_short(line, edges) and not _ends_sentence(text) and not text.endswith(":")
    if not isolated or listed or not _short(text, 12):
        return None
    if number is not None and (_starts_like_a_title(text) or _label_alone(text)):
        return "numbered"
    return "caps" if _all_caps(text) and _short(text, 8) else None


def _a_title(text: str) -> bool:
    """A title's words: two letters or more, the first not lower case ("Commercial Paper"; not "A", an index's letter
    group, nor "(in millions)", a table's unit)."""
    letters = _letters(text)
    return len(letters) >= 2 and not letters[0].islower()


def _same_column(prev: PageItem | None, line: PageItem) -> bool:
    """``prev`` stands above ``line`` in the same column of the same page."""
    return prev is not None and prev.page == line.page and prev.column == line.column and prev.top <= line.top


def _byline(text: str, line: PageItem, prev: PageItem | None) -> bool:
    """Names under a title on the first pages ("Ana Lima and Bo Chen, University of Examples"): capitalised words and commas."""
    if line.page > 2 or prev is None or prev.size <= line.size or numbering(text) is not None or "," not in text:
        return False
    words = [w for w in re.split(r"[\s,]+", text) if w and w.lower() not in ("and", "of", "the", "&", "de", "van", "von")]
    capitalised = sum(1 for w in words if w[0].isupper())
    return len(words) >= 3 and capitalised >= 0.9 * len(words) and (text.count(",") >= 2 or " and " in text or "&" in text)


def _starts_like_a_title(text: str) -> bool:
    """After its number, a heading's first letter is not lower case ("1. Purpose", "제1장 총칙"; not "3 of the ...")."""
    rest = re.sub(r"^\S+\s*", "", text, count=1)
    if re.match(r"^(?:appendix|annex|chapter|part|section|article)\b", text, re.IGNORECASE):
        rest = re.sub(r"^\S+\s*", "", rest, count=1)
    letters = [ch for ch in rest if ch.isalpha()]
    return len(letters) >= 2 and not letters[0].islower()  # "1 X" is a label in a drawing, "1. Purpose" a heading


_LABEL_ALONE = re.compile(r"(?:article|section|§|chapter|part|book|appendix|annex|annexe|schedule)\s*(?:\d{1,3}(?:\.\d{1,3})*|[IVXLC]+|[A-Z])\.?",
                          re.IGNORECASE)


def _label_alone(text: str) -> bool:
    """The line is a labelled section number and nothing else ("Article 12", "CHAPTER IV", "Annex B"): a regulation or
    a book sets its title on the line below, which continues the heading (``continues_heading``)."""
    return _LABEL_ALONE.fullmatch(text) is not None


def _next_in_list(line: PageItem, after: PageItem | None, number: Numbering) -> bool:
    """The next line carries a number of the same scheme at the same indent, tight below: a list, not a heading."""
    if after is None or after.page != line.page or abs(after.x0 - line.x0) > 2 or after.top - line.bottom > 1.2 * line.size:
        return False
    other = numbering(after.text)
    return other is not None and other[0] == number[0] and other[1] == number[1]


def _paragraph_break_above(prev: PageItem | None, line: PageItem, gap: float) -> bool:
    if prev is None or prev.page != line.page or prev.column != line.column or line.top < prev.top:
        return True
    return line.top - prev.bottom > gap + 0.35 * line.size


def _ends_short(line: PageItem, edges: dict[tuple[int, int], tuple[float, float]]) -> bool:
    """The line stops well before the column's far edge (it cannot be the first line of a wrapped paragraph)."""
    left, right = edges.get((line.page, line.column), (line.x0, line.x1))
    width = max(right - left, 1.0)
    used = (right - line.x0) if line.rtl else (line.x1 - left)
    return used < 0.75 * width


def _style(line: PageItem) -> tuple[float, bool]:
    return (round(line.size * 2) / 2, line.bold)


def heading_levels(lines: Sequence[PageItem], heads: set[int], texts: dict[int, str]) -> dict[int, int]:
    """Level per heading index.

    Numbered headings: the scheme's rank among the schemes the document uses,
    plus the depth within it ("2.1" one below "2"). Unnumbered headings: their
    style's rank by size and weight, placed against the numbered styles.
    """
    numbers = {index: numbering(texts[index]) for index in heads}
    sizes: dict[str, list[float]] = defaultdict(list)
    for index, number in numbers.items():
        if number and number[0] != "appendix" and number[1] == 1:
            sizes[number[0]].append(round(lines[index].size * 2) / 2)
    for index, number in numbers.items():
        if number and number[0] != "appendix" and number[0] not in sizes:
            sizes[number[0]].append(round(lines[index].size * 2) / 2)
    typical = {scheme: sorted(values)[len(values) // 2] for scheme, values in sizes.items()}
    # outermost first: the larger type, then the scheme's usual rank (a chapter holds articles, Roman parts hold letters)
    schemes = sorted(typical, key=lambda s: (-typical[s], _RANK[s]))
    offset: dict[str, int] = {}
    level = 0
    shallowest: dict[str, int] = {}
    for scheme in schemes:
        depths = [n[1] for n in numbers.values() if n and n[0] == scheme]
        shallowest[scheme] = min(depths)  # "1.1" under "第一章": the chapter is the first number
        offset[scheme] = level - shallowest[scheme] + 1
        level += max(depths) - shallowest[scheme] + 1
    # an appendix sits beside the document's outermost numbered parts
    offset["appendix"] = offset[schemes[0]] if schemes else 0
    numbered_level = {index: offset[n[0]] + n[1] for index, n in numbers.items() if n}
    styles = sorted({_style(lines[i]) for i in heads}, key=lambda s: (-s[0], not s[1]))
    anchored: dict[tuple[float, bool], Counter] = defaultdict(Counter)
    for index, lvl in numbered_level.items():
        anchored[_style(lines[index])][lvl] += 1
    anchor = {style: counter.most_common(1)[0][0] for style, counter in anchored.items()}
    style_level: dict[tuple[float, bool], int] = {}
    for rank, style in enumerate(styles):
        if style in anchor:
            style_level[style] = anchor[style]
            continue
        above = [(r, anchor[s]) for r, s in enumerate(styles[:rank]) if s in anchor]
        below = [(r, anchor[s]) for r, s in enumerate(styles) if r > rank and s in anchor]
        if above:
            r, lvl = above[-1]
            style_level[style] = lvl + (rank - r)
        elif below:
            r, lvl = below[0]
            style_level[style] = max(1, lvl - (r - rank))
        else:
            style_level[style] = rank + 1
    return {index: numbered_level.get(index) or style_level[_style(lines[index])] for index in heads}
