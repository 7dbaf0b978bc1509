"""Glossaries set in two columns: each term at one left edge, what it means at another, read as a table of two columns.

A report's key terms, a guide's acronyms, a manual's variables are set as two columns
of text without rules:

    Term                       Definition
    IFS        Intel Foundry Services operating segment
    IDM 2.0    Evolution of our IDM model that combines our internal factory network,
               strategic use of foundries ...

Read as lines, each pair was a paragraph that runs the term into its meaning ("IFS Intel
Foundry Services operating segment"), and a wrapped meaning a paragraph of its own. Here
three lines or more, close together, each a short term and a meaning set apart by a gap
wider than a cell's (``pdf_grid.CELL_GAP``), the terms starting at one left edge and the
meanings at another (within one type size), with a line of text wrapping a meaning at its
edge kept with it, are a table of term and meaning. A line of two short cells right above,
one left of the meanings' edge and one over them ("Term", "Definition"), is its header.

A term stops short of the middle between the terms' edge and the meanings' edge: two columns of prose side by side
(a paper's page, where each left line fills its column) are no glossary. Not a glossary either: numbered paragraphs ("6.  Without prejudice to ..."), a contents page or an
index ("4.1. Security Management Process ....... 23": numbering, leader dots), code set in a
fixed-width font beside its comments, and pairs whose meanings are figures (a statement's
rows, read as numeric tables).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from shelfwise.compiler.ingest.convert.pdf_grid import CELL_GAP, LABEL_WORDS, MIN_RUN_ROWS, ROW_GAP, Box, line_bounds, line_within

__all__ = ["glossary_tables"]

_NUMBERING = re.compile(r"^(?:\(?\d+(?:\.\d+)*[.)]?|\(?[a-zA-Z]\)|[ivxlc]+\.|[•▪■◦*\-–—])$")
_LEADERS = re.compile(r"\.{4,}|(?:\. ){3,}")


def _pieces(line: list[dict]) -> list[list[dict]]:
    """The line's words grouped at gaps wider than a cell's."""
    pieces = [[line[0]]]
    for a, b in zip(line, line[1:]):
        if b["x0"] - a["x1"] > CELL_GAP * max(a["size"], b["size"]):
            pieces.append([b])
        else:
            pieces[-1].append(b)
    return pieces


def _text(words: list[dict]) -> str:
    return " ".join(w["text"] for w in words)


def _pair(line: list[dict], mono: Callable[[str], bool]) -> tuple[list[dict], list[dict]] | None:
    """(term words, meaning words) of a line that reads as a glossary's pair, or None."""
    pieces = _pieces(line)
    if len(pieces) != 2:
        return None
    term, meaning = pieces
    term_text, meaning_text = _text(term), _text(meaning)
    if len(term) > LABEL_WORDS or _NUMBERING.match(term_text) or _LEADERS.search(term_text + " " + meaning_text):
        return None
    if term[-1]["x1"] > (term[0]["x0"] + meaning[0]["x0"]) / 2:
        return None  # the term fills its column: two columns of prose side by side, not a name and its meaning
    if not re.match(r"[^\W\d_]", meaning_text) or all(mono(w["fontname"]) for w in line):
        return None  # a meaning is words: not a figure, not code beside its comment
    return term, meaning


def _header(line: list[dict] | None, edges: tuple[float, float]) -> list[str] | None:
    """The two cells of a header line over a glossary whose terms and meanings start at ``edges``, or None: short
    cells, one left of the meanings' edge and one over the meanings, set otherwise than a row ("Term" and "Definition"
    centred over their columns; a line set at the edges as the rows are is a row)."""
    if not line:
        return None
    pieces = _pieces(line)
    if len(pieces) != 2 or any(len(piece) > 3 for piece in pieces):
        return None
    first, second = pieces
    size = max(w["size"] for w in line)
    if (first[0]["x0"] + first[-1]["x1"]) / 2 >= edges[1] or second[-1]["x1"] < edges[1]:
        return None
    if abs(first[0]["x0"] - edges[0]) <= size and abs(second[0]["x0"] - edges[1]) <= size:
        return None
    return [_text(first), _text(second)]


def glossary_tables(lines: list[list[dict]], boxes: list[Box], taken: set[int],
                    mono: Callable[[str], bool]) -> tuple[list[tuple[Box, list[list[str]], int]], set[int]]:
    """The glossaries among a page's physical lines (top to bottom), leaving out lines within ``boxes`` (tables found)
    or holding words of ``taken``; ``mono`` tells a fixed-width font by its name. Each as (box, rows, header rows),
    and the ids of the words they take."""
    found: list[tuple[Box, list[list[str]], int]] = []
    used: set[int] = set()
    run: list[list[list[dict]]] = []  # per row: its lines (the pair's line, then the lines wrapping its meaning)
    pairs: list[tuple[list[dict], list[dict]]] = []
    start = 0  # index of the run's first line

    def close() -> None:
        if len(run) >= MIN_RUN_ROWS:
            rows = [[_text(term), "\n".join([_text(meaning), *(_text(wrap) for wrap in lines_[1:])])]
                    for (term, meaning), lines_ in zip(pairs, run)]
            header = _header(lines[start - 1] if start else None, (pairs[0][0][0]["x0"], pairs[0][1][0]["x0"]))
            if header is not None and _bounds_gap(lines[start - 1], lines[start]) and not line_within(lines[start - 1], boxes) \
                    and not any(id(w) in taken for w in lines[start - 1]):
                rows.insert(0, header)
                words = list(lines[start - 1])
            else:
                header, words = None, []
            words += [w for row in run for line in row for w in line]
            found.append(((min(w["x0"] for w in words), min(w["top"] for w in words), max(w["x1"] for w in words),
                           max(w["bottom"] for w in words)), rows, 1 if header else 0))
            used.update(id(w) for w in words)
        run.clear()
        pairs.clear()

    for index, line in enumerate(lines):
        if not line or line_within(line, boxes) or any(id(w) in taken for w in line):
            close()
            continue
        size = max(w["size"] for w in line)
        if run and line[0]["top"] - line_bounds(run[-1][-1])[3] >= ROW_GAP * size:
            close()
        pair = _pair(line, mono)
        if run and pair is not None and abs(pair[0][0]["x0"] - pairs[0][0][0]["x0"]) <= size \
                and abs(pair[1][0]["x0"] - pairs[0][1][0]["x0"]) <= size:
            run.append([line])
            pairs.append(pair)
        elif run and pair is None and len(_pieces(line)) == 1 and abs(line[0]["x0"] - pairs[0][1][0]["x0"]) <= size:
            run[-1].append(line)  # the meaning above wrapped onto this line
        else:
            close()
            if pair is not None:
                run.append([line])
                pairs.append(pair)
                start = index
    close()
    return found, used


def _bounds_gap(above: list[dict], below: list[dict]) -> bool:
    """Whether ``above`` stands right over ``below``: a gap under ``ROW_GAP`` type sizes."""
    return min(w["top"] for w in below) - line_bounds(above)[3] < ROW_GAP * max(w["size"] for w in below)
