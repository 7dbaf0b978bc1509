"""Bridge (waterfall) charts drawn as text: lines each led by an amount, read as a table of label and amount.

A quarterly report explains how a figure moved between two periods with a bridge chart
set as lines of text, each amount at the left, right-aligned, and what it is beside it:

    $ 1,039  Q2 2023 CCG Operating Income
        428  Lower operating expenses driven by various cost-cutting measures
      (585)  Lower product margin from notebook revenue
      $ 876  Q2 2022 CCG Operating Income

Read as lines, the chart became one paragraph ("$ 1,039 Q2 2023 CCG Operating Income 428
Lower operating expenses ..."), which no answer could quote a driver and its amount from.
Here three lines or more, close together, each led by an amount (money or a count stated as
tables state amounts: "428", "(585)", "$(300)", not a year, a percentage, a list's "13,")
with the amounts' right edges within one type size, are a table whose rows are the label,
then the amount, as a statement's rows are. A label wrapped onto the next line, set where
the label above begins, stays with its row.

A bridge moves both ways: one amount at least is a fall ("(585)"); an exhibit index
("3.1 Amended and Restated Certificate of Incorporation ...", "10.1 Term Loan Agreement")
has none. Numbered lines are not amounts either: section numbers of a contents page ("2.1 What a Rule
Looks Like"), footnotes at a page's foot ("13 See Section 4.5"), each number the one before
plus one, lead lines right-aligned as a bridge's amounts do, and are left alone.
"""

from __future__ import annotations

import re

from shelfwise.compiler.ingest.convert.pdf_grid import CELL_GAP, MIN_RUN_ROWS, ROW_GAP, YEAR, Box, line_bounds, line_within

__all__ = ["bridge_tables"]

_AMOUNT = re.compile(r"^(?:[$€£¥]\s?)?\(?(?:[$€£¥]\s?)?[-–−]?\d{1,3}(?:,\d{3})*(?:\.\d+)?\)?$")
"""A stated amount: "428", "(585)", "$ 1,039", "$(300)"; not "13," (a list's count), "1.000%" or "2022"."""
_SIGN = re.compile(r"^(?:\(|[$€£¥]|[$€£¥]\()$")


def _led(line: list[dict]) -> tuple[str, float, list[dict]] | None:
    """(amount, its right edge, the label's words) of a line led by an amount, or None."""
    index, text = 0, ""
    while index < len(line) - 1 and _SIGN.match(line[index]["text"]):
        text += line[index]["text"] + ("" if line[index]["text"].endswith("(") else " ")
        index += 1
    text += line[index]["text"]
    right = line[index]["x1"]
    label = line[index + 1:]
    if label and label[0]["text"] == ")":
        text, right, label = text + ")", label[0]["x1"], label[1:]
    if any(b["x0"] - a["x1"] > CELL_GAP * max(a["size"], b["size"]) for a, b in zip(label, label[1:])):
        return None  # text set apart beside the label: another column, not a bridge's row
    if not _AMOUNT.match(text) or YEAR.match(text.strip("$() ")) or not label or not label[0]["text"][:1].isalpha():
        return None
    return text, right, label


def _numbered(amounts: list[str]) -> bool:
    """Whether each leading number is the one before plus one (its last dotted part): a numbering, not amounts."""
    last = [re.sub(r"[^\d.]", "", amount).split(".")[-1] for amount in amounts]
    return all(a.isdigit() and b.isdigit() and int(b) == int(a) + 1 for a, b in zip(last, last[1:]))


def bridge_tables(lines: list[list[dict]], boxes: list[Box], taken: set[int]) -> tuple[list[tuple[Box, list[list[str]], int]], set[int]]:
    """The bridge charts among a page's physical lines (top to bottom), leaving out lines within ``boxes`` (tables
    found) or holding words of ``taken``: each as (box, rows, 0 header rows), and the ids of the words they take."""
    found: list[tuple[Box, list[list[str]], int]] = []
    used: set[int] = set()
    run: list[tuple[list[dict], str, float, list[dict]]] = []  # (line, amount, right edge, label words)
    more: dict[int, list[list[dict]]] = {}  # run index -> lines wrapping its label

    def close() -> None:
        if len(run) >= MIN_RUN_ROWS:
            size = max(w["size"] for line, *_ in run for w in line)
            rights = [right for _, _, right, _ in run]
            amounts = [amount for _, amount, _, _ in run]
            falls = any(re.search(r"\(|[-–−]\d", amount) for amount in amounts)
            if max(rights) - min(rights) <= size and falls and not _numbered(amounts):
                rows = []
                for index, (line, amount, _, label) in enumerate(run):
                    text = "\n".join([" ".join(w["text"] for w in label), *(" ".join(w["text"] for w in wrap) for wrap in more.get(index, []))])
                    rows.append([text, amount])
                words = [w for index, (line, *_) in enumerate(run) for w in [*line, *(w for wrap in more.get(index, []) for w in wrap)]]
                found.append(((min(w["x0"] for w in words), min(w["top"] for w in words), max(w["x1"] for w in words),
                               max(w["bottom"] for w in words)), rows, 0))
                used.update(id(w) for w in words)
        run.clear()
        more.clear()

    for line in lines:
        if not line or line_within(line, boxes) or any(id(w) in taken for w in line):
            close()
            continue
        size = max(w["size"] for w in line)
        last = run[-1][0] if run else None
        if last is not None and line[0]["top"] - max(line_bounds(x)[3] for x in [last, *more.get(len(run) - 1, [])]) >= ROW_GAP * size:
            close()
            last = None
        led = _led(line)
        if led is not None:
            run.append((line, *led))
        elif last is not None and abs(line[0]["x0"] - run[-1][3][0]["x0"]) <= size:
            more.setdefault(len(run) - 1, []).append(line)  # the label above wrapped onto this line
        else:
            close()
    close()
    return found, used
