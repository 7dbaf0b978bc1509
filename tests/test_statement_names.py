"""A filing's statement lines answer the everyday words a question uses for them: "Operating expenses" are the
operational expenditures asked about, "Operating income" the earnings (the writer's ``statements``); only a periodic
report's table rows, and never a phrase that merely shares a word."""

from __future__ import annotations

import pytest
from shelfwise.api.answer.write.statements import also_called
from shelfwise.api.terms import word_stems
from shelfwise.compiler.build import build_shelf
from shelfwise.compiler.index.indexes import index_stage
from shelfwise.compiler.settings import Settings
from tests.answer_shelves import HashEmbedder


@pytest.mark.parametrize("text, words", [
    ("Total operating expenses | 122,584", "expenditures spending operational"),
    ("Research and development expenses | 7,709", "expenditures spending"),
    ("Operating income | 3,669 | 4,774", "earnings profit"),
    ("Net income (loss) | $ (3,844) | $ 3,172", "earnings profit"),
    ("Net sales | $ 18,441 | $ 21,354", ""),  # the filer's every results sentence says net sales
    ("Provision for income taxes | 948", ""),  # taxes on income are no earnings
    ("Other income (expense), net | 12", ""),
])
def test_a_statement_line_holds_the_everyday_words_for_it_and_no_other(text, words):
    assert also_called(text) == frozenset(word_stems(words)), also_called(text)


_TABLE = """## Results of Operations

Results of operations were as follows (in millions):

| Line | Q1 2023 | Q1 2022 |
| --- | --- | --- |
| Operating expenses | 4,210 | 3,980 |
| Operating income | 815 | 790 |

Capital expenditures on new plants were approved by the board.

Earnings calls are held each quarter with analysts.
"""


def _cover(issuer: str, ticker: str) -> str:
    return (f"# FORM 10-Q\n\nUNITED STATES SECURITIES AND EXCHANGE COMMISSION\n\nQUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) "
            f"OF THE SECURITIES EXCHANGE ACT OF 1934\n\nFor the quarterly period ended April 1, 2023\n\n{issuer}\n\n"
            f"(Exact name of registrant as specified in its charter)\n\nCommon Stock {ticker} Nasdaq\n\n")


def _shelf(tmp_path, kind: str):
    """A shelf of two companies' 10-Qs (``kind`` "filings") or a handbook (``kind`` "handbooks") whose results table
    says "Operating expenses" and "Operating income"; the words "expenditures" and "earnings" only in prose."""
    shelf = tmp_path / kind
    shelf.mkdir()
    if kind == "filings":
        (shelf / "2023 Q1 EXW.md").write_text(_cover("EXAMPLE WIDGETS CORP.", "EXW") + _TABLE, encoding="utf-8")
        (shelf / "2023 Q1 NWG.md").write_text(_cover("NORTHWIND GADGETS INC.", "NWG") + "## Overview\n\nNorthwind sells gadgets.\n",
                                              encoding="utf-8")
    else:
        (shelf / "handbook.md").write_text("# Operations Handbook\n\n" + _TABLE, encoding="utf-8")
    settings = Settings.model_validate({"build_dir": str(tmp_path / "build"), "api": {
        "trace_db": str(tmp_path / "traces.sqlite"), "tokens": [{"name": "reader", "token": "reader-secret", "shelves": [kind]}]}})
    report = build_shelf(shelf, settings, progress=lambda line: None, stages=[index_stage(HashEmbedder())])
    assert not report.failed, report.render()
    return settings


def _statement_rows(tmp_path, kind: str) -> tuple:
    """The pool of the shelf's sections, and its units whose text is a statement's line ("Operating ...")."""
    from shelfwise.api.answer.read.read import ReadSection, Reading
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.api.shelves import open_shelves

    _shelf(tmp_path, kind)
    opened = open_shelves({kind: tmp_path / "build" / kind}, HashEmbedder())[kind]
    sections = [ReadSection(shelf=kind, section_id=sid, doc_id=opened.sections[sid].doc_id, chars=opened.chars(sid), why="whole scope")
                for doc in opened.doc_order() for sid in opened.doc_sections[doc]]
    reading = Reading(budget=400_000, scope_chars=1, whole_scope=True, chars_read=1, sections=sections, not_opened=[])
    pool = build_pool(reading, {kind: opened}, section_units)
    return pool, [u for u in pool.units if u.text.startswith("Operating")]


def test_a_filings_statement_rows_hold_the_everyday_names_of_their_lines(tmp_path):
    pool, rows = _statement_rows(tmp_path, "filings")
    assert pool.periodic and len(rows) == 2, [(u.kind, u.text) for u in pool.units]
    expenses, income = sorted(rows, key=lambda u: u.text)
    assert {"expenditur", "spend", "oper"} <= expenses.words and {"earn", "profit"} <= income.words


def test_a_document_that_reports_no_period_keeps_its_own_words(tmp_path):
    """The same table in a handbook (no issuer, no reporting period) is not read as expenditures and earnings: the
    statement names are the vocabulary of periodic reports only."""
    pool, rows = _statement_rows(tmp_path, "handbooks")
    assert not pool.periodic and rows and not any({"expenditur", "earn"} & u.words for u in rows)


def test_a_question_in_everyday_words_ranks_the_statement_lines(tmp_path):
    """"How did the companies' operational expenditures compare with their earnings?" ranks the rows "Operating expenses"
    and "Operating income" with the prose that shares its words ("Capital expenditures on new plants ...", "Earnings
    calls are held ..."): before, the rows held no word of it and were never candidates."""
    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.write.rank import score_units

    pool, rows = _statement_rows(tmp_path, "filings")
    plan = plan_by_rules("How did the companies' operational expenditures compare with their earnings?", [], {}, [], [], [])
    ranked = [pool.units[i].text for _, own, shown, i in score_units(plan, pool)[0][1] if own > 0 and shown]
    assert {u.text for u in rows} <= set(ranked[:4]), ranked
