""""Label: value" lines that a reader ran together into one paragraph, split back into fields.

A PDF text layer often joins a form's lines: "Name: Luc Tremblay Social
insurance number (SIN): 000 318 552 Tax year: 2024 Refund: $773.00". Each
colon ends a label; the label starts at a label known from either document
(read from clean lines or tables), or else at the nearest capitalised word
before the colon (a parenthesised abbreviation belongs to the label). A value
that starts with an amount, number or date ends there when capitalised words
follow it (they begin the next label) or when a sentence follows it (prose).
"""

from __future__ import annotations

import re

from shelfwise.compiler.compare.values import values_in

__all__ = ["split_run_on"]

_COLON = re.compile(r"(?<=[^\s:]):\s+")
MAX_LABEL_WORDS = 8


def _label_start(head: str, floor: int, known: list[str]) -> int | None:
    lowered = head.lower()
    for label in known:
        if lowered.endswith(label) and len(head) - len(label) >= floor:
            start = len(head) - len(label)
            if start == 0 or head[start - 1].isspace():
                return start
    words = [(m.start(), m.group(0)) for m in re.finditer(r"\S+", head) if m.start() >= floor]
    in_parens = False
    for count, (start, word) in enumerate(reversed(words), start=1):
        if count > MAX_LABEL_WORDS:
            return None
        if word.endswith(")") and not word.startswith("("):
            in_parens = True
            continue
        if in_parens or word.startswith("("):
            in_parens = not word.startswith("(") and in_parens
            continue
        if values_in(word):
            return None
        if word[0].isupper():
            return start
    return None


def _leading_value_end(value: str) -> int | None:
    """Where a value that opens with an amount, number or date ends, when text follows it."""
    spans = values_in(value)
    if spans and spans[0][0] == 0 and spans[0][1] < len(value.rstrip()):
        return spans[0][1]
    return None


def split_run_on(text: str, known: list[str]) -> tuple[list[tuple[str, str]], str] | None:
    """(label, value) pairs and the prose around them, or None when ``text`` is not a run of two or more label lines.

    ``known`` holds lower-cased labels, longest first.
    """
    colons = list(_COLON.finditer(text))
    if len(colons) < 2:
        return None
    marks = []
    floor = 0
    for match in colons:
        start = _label_start(text[: match.start()], floor, known)
        if start is None:
            return None
        marks.append([start, match.start(), match.end()])
        floor = match.end()
    for n in range(len(marks) - 1):  # "$61,562.40 Adjusted Gross Income:" - the capitalised words belong to the next label
        value = text[marks[n][2]: marks[n + 1][0]]
        end = _leading_value_end(value)
        rest = value[end:] if end is not None else ""
        if end is not None and "," not in rest and all(w[0].isupper() for w in rest.split()):
            marks[n + 1][0] = marks[n][2] + end + (len(value[end:]) - len(value[end:].lstrip()))
    fields = []
    before = text[: marks[0][0]].strip()
    after = ""
    for n, (start, colon, value_start) in enumerate(marks):
        end = marks[n + 1][0] if n + 1 < len(marks) else len(text)
        value = text[value_start:end].strip()
        if n + 1 == len(marks):
            cut = _leading_value_end(value)
            if cut is not None and len(value[cut:].split()) >= 3:
                value, after = value[:cut].strip(), value[cut:].strip()
        fields.append((text[start:colon].strip(), value))
    if any(not label or not value for label, value in fields):
        return None
    return fields, " ".join(p for p in (before, after) if p)
