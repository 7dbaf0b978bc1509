"""Tables benchmark: the filings questions' reference figures found in table cells under their period's column header.

    .venv/bin/python -m shelfwise.eval.bench.tables [--corpora ../shared/corpora] [--questions ../shared/questions/dev-filings.yaml]

For each question whose evidence is a table (``evidence_kind: Table``), its source documents (the
``source_documents`` glob over the shelf's file names) are read by the shelf's reader (``convert_file``), and
the figures of its reference answer are taken: amounts with a thousands separator or decimals and percentages
("$82,959 million", "1.26", "42.5%"; years and bare small numbers are not figures); an amount in billions
matches a figure in millions that rounds to it ("$15.3 billion": 15,338). Each figure's period is
what the reference answer's line holding it names (dates such as "July 1, 2023", quarters such as "Q3 2023",
"three months" or "nine months"), else what the question names, else the period the filing's cover names
("For the quarterly period ended July 1, 2023"); a quarter also stands for the date the cover of the filing
named for that quarter names ("2022 Q3 AAPL.pdf": "June 25, 2022"); a line naming a source file ("SOURCE: 2023 Q3 AAPL.pdf")
restricts the figure to that document. Reported:

- ``in_period_cell``: share of figures found in a table cell whose column header names the figure's period
  (a date or quarter of it, and its duration when both name one);
- ``in_cell``: share found in any table cell;
- ``in_text``: share found anywhere in the compiled text (paragraphs and table rows).

Writes eval/results/tables.json (with ``--label``, under that key, so a before and an after sit side by side).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import time
from datetime import date
from pathlib import Path

import yaml

from shelfwise.compiler.errors import ConversionError
from shelfwise.compiler.ingest.convert import convert_file
from shelfwise.compiler.store.records import Converted, table_text

__all__ = ["figures", "same", "periods", "header_names", "score", "main"]

ROOT = Path(__file__).resolve().parents[3]
RESULTS = ROOT / "eval" / "results" / "tables.json"

_FIGURE = re.compile(r"(?<![\d.,])\(?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?(?:\s?%)?|(?<![\d.,])\d+\.\d+(?:\s?%)?|(?<![\d.,])\d+(?:\s?%)")
_MONTHS = {name: index for index, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"), ("jul", "july"),
     ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"), ("dec", "december")], start=1)
    for name in names}
_DATE = re.compile(r"\b(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?\s+(\d{1,2}),?\s+(\d{4})\b", re.IGNORECASE)
_QUARTER = re.compile(r"\bQ(?P<n1>[1-4])\s*(?:FY\s*)?'?(?P<y1>\d{4})\b|\b(?P<y2>\d{4})\s+Q(?P<n2>[1-4])\b|"
                      r"\b(?P<n3>first|second|third|fourth)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:fiscal\s+)?(?P<y3>\d{4})\b", re.IGNORECASE)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_DURATION = re.compile(r"\b(three|six|nine|twelve)[- ]months?\b|\b(quarter|quarterly)\b", re.IGNORECASE)
_COVER = re.compile(r"quarterly period ended\s+(.{6,25}?\d{4})", re.IGNORECASE)
_SOURCE = re.compile(r"\b(\d{4} Q[1-4] [A-Z]+\.pdf)\b")


def figures(text: str) -> list[str]:
    """The figures of a text, normalised to digits, a decimal point and a trailing '%' ('$82,959' -> '82959'); an
    amount in billions is marked ('$15.3 billion' -> 'b15.3'): a table in millions holds it as 15,338."""
    found = []
    for match in _FIGURE.finditer(text):
        billions = re.match(r"\s*billion", text[match.end():]) and "%" not in match.group()
        found.append(("b" if billions else "") + _normal(match.group()))
    return found


def same(cell: str, figure: str) -> bool:
    """Whether a cell's figure (in the table's unit) is the reference figure; one in billions matches millions
    rounded to its decimals (15,338 for '$15.3 billion', 4,255 for '$4.255 billion')."""
    if not figure.startswith("b"):
        return cell == figure
    if "%" in cell or not cell.replace(".", "", 1).isdigit():
        return False
    decimals = len(figure.split(".")[1]) if "." in figure else 0
    return round(float(cell) / 1000, decimals) == float(figure[1:])


def _normal(figure: str) -> str:
    return re.sub(r"[^\d.%]", "", figure)


def periods(text: str) -> tuple[set[tuple], set[str]]:
    """(the dates and quarters a text names, as comparable keys; the durations it names: 'three', 'nine', ...)."""
    keys: set[tuple] = set()
    for month, day, year in _DATE.findall(text):
        try:
            keys.add(("date", date(int(year), _MONTHS[month.lower()], int(day))))
        except ValueError:
            continue
    for match in _QUARTER.finditer(text):
        number = match["n1"] or match["n2"] or str(_ORDINAL[match["n3"].lower()])
        keys.add(("quarter", int(number), int(match["y1"] or match["y2"] or match["y3"])))
    durations = {(m.group(1) or "three").lower() for m in _DURATION.finditer(text)}
    return keys, durations


def header_names(header: str, period: tuple[set[tuple], set[str]]) -> bool:
    """Whether a column header names the period: one of its dates or quarters, and its duration when both name one."""
    keys, durations = periods(header)
    if not keys & period[0]:
        return False
    return not (durations and period[1]) or bool(durations & period[1])


def _cells(converted: Converted) -> list[tuple[str, str]]:
    """(normalised figure, column header) of every table cell holding one figure."""
    cells = []
    for element in converted.elements:
        if element.kind != "table" or not element.rows:
            continue
        header_count = max(element.header_rows, 1)
        width = max(len(row) for row in element.rows)
        headers = [" ".join(row[i] for row in element.rows[:header_count] if i < len(row)) for i in range(width)]
        for row in element.rows[header_count:]:
            for index, cell in enumerate(row):
                found = figures(cell)
                if len(found) == 1:
                    cells.append((found[0], headers[index] if index < len(headers) else ""))
    return cells


def _text(converted: Converted) -> str:
    return "\n".join(table_text(e.rows) if e.kind == "table" and e.rows else e.text for e in converted.elements)


def _view(converted: Converted | None) -> tuple[str, list[tuple[str, str]], set[str]] | None:
    """What the score reads of a document: the period its cover names, its table cells, the figures of its text."""
    if converted is None:
        return None
    text = _text(converted)
    return next(iter(_COVER.findall(text)), ""), _cells(converted), set(figures(text))


def _figure_period(line: str, question: str, cover: str, quarters: dict[tuple, str]) -> tuple[set[tuple], set[str]]:
    """The period a figure is of: what its line names, else the question, else the filing's cover; a quarter
    ("Q3 2023", "third quarter of 2022") also stands for the date the cover of that quarter's filing names."""
    for text in (line, question, cover):
        keys, durations = periods(text)
        if keys:
            for key in [k for k in keys if k[0] == "quarter"]:
                keys |= periods(quarters.get(key, ""))[0]
            return keys, durations | (periods(line)[1] if text is not line else set())
    return set(), set()


def score(questions: list[dict], corpora: Path) -> dict:
    """The three shares over the table questions' reference figures, with a row per question."""
    cache: dict[Path, Converted | None] = {}
    views: dict[Path, tuple | None] = {}
    rows, totals = [], {"figures": 0, "in_period_cell": 0, "in_cell": 0, "in_text": 0}
    for question in questions:
        if question.get("evidence_kind") != "Table":
            continue
        folder = corpora / question["shelf"]
        paths = sorted(p for p in folder.iterdir() if fnmatch.fnmatch(p.name, question["source_documents"]))
        for path in paths:
            if path not in cache:
                try:
                    cache[path] = convert_file(path)
                except ConversionError:
                    cache[path] = None
        for path in paths:
            if path not in views:
                views[path] = _view(cache[path])
        docs = {p.name: views[p] for p in paths if views[p] is not None}
        counts = {"figures": 0, "in_period_cell": 0, "in_cell": 0, "in_text": 0}
        quarters = {key: view[0] for name, view in docs.items() for key in periods(name)[0] if key[0] == "quarter"}
        for line in question["reference_answer"].splitlines():
            named = [name for name in _SOURCE.findall(line) if name in docs]
            for figure in figures(_SOURCE.sub("", line)):
                counts["figures"] += 1
                in_period = in_cell = in_text = False
                for name, (cover, cells, text_figures) in docs.items():
                    if named and name not in named:
                        continue
                    period = _figure_period(line, question["question"], cover, quarters)
                    in_cell |= any(same(value, figure) for value, _ in cells)
                    in_period |= any(same(value, figure) and header_names(header, period) for value, header in cells)
                    in_text |= figure in text_figures or any(same(value, figure) for value in text_figures)
                counts["in_period_cell"] += in_period
                counts["in_cell"] += in_cell
                counts["in_text"] += in_text
        rows.append({"id": question["id"], **counts})
        for key in totals:
            totals[key] += counts[key]
    shares = {key: round(totals[key] / totals["figures"], 3) if totals["figures"] else 0.0 for key in ("in_period_cell", "in_cell", "in_text")}
    return {"questions": len(rows), "figures": totals["figures"], **shares, "per_question": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--questions", type=Path, default=ROOT.parent / "shared" / "questions" / "dev-filings.yaml")
    parser.add_argument("--label", default="current", help="Key the result is stored under in eval/results/tables.json.")
    args = parser.parse_args()
    questions = yaml.safe_load(args.questions.read_text(encoding="utf-8"))
    started = time.perf_counter()
    result = score(questions, args.corpora)
    result["seconds"] = round(time.perf_counter() - started, 1)
    print(f"{result['questions']} table questions, {result['figures']} reference figures: in a cell under their period "
          f"{result['in_period_cell']}, in any table cell {result['in_cell']}, anywhere in the text {result['in_text']}")
    stored = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.is_file() else {}
    stored[args.label] = result
    RESULTS.write_text(json.dumps(stored, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
