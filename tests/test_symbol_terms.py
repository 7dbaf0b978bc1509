"""Options, automatic variables and assignment operators are words of their own: "make -k" asks about -k, and the
sentence saying what -k does answers it, although the analyzer has no stem for "-k"; "?=" is the operator a sentence
names (``terms.symbol_terms``)."""

from __future__ import annotations

import pytest

from shelfwise.api.terms import symbol_terms
from shelfwise.compiler.build import build_shelf
from shelfwise.compiler.index.indexes import index_stage
from shelfwise.compiler.settings import Settings
from tests.answer_shelves import HashEmbedder


@pytest.mark.parametrize("text, terms", [
    ("Since make -k continues after an error, how can I see every failure?", ("-k",)),
    ("Flags such as ‘-s’ and ‘-k’ are passed automatically to the sub-make through MAKEFLAGS.", ("-s", "-k")),
    ("`-B`, `--always-make`: Consider all targets out-of-date.", ("-B", "--always-make")),
    ("The value of $^ omits duplicate prerequisites, while $+ keeps them; $@ is the target.", ("$^", "$+", "$@")),
    ("cloud-based e-mail, pre- and post-processing, x - y, $(CC), 2021-2022", ()),  # hyphens inside words, a variable with a name
    ("How do I generate header dependency (.d) files?", ()),  # a file's suffix is no term: measured, it cost answers
    ("What is the difference between the =, := / ::=, ?= and += assignment operators?", (":=", "::=", "?=", "+=")),
    ("Only the ‘::=’ form is in POSIX; the `:::=` operator came later.", ("::=", ":::=")),
    ("if a == b or k=5 and x <= y, see ?a=b; x: int = 5", ()),  # a comparison, a keyword argument, a query string, code
])
def test_options_and_automatic_variables_are_read_as_written(text, terms):
    assert symbol_terms(text) == terms


def test_a_question_about_an_option_ranks_the_sentence_that_says_what_it_does(tmp_path):
    """"What does make -k do?" holds one word the analyzer keeps ("make"): before, the sentence on -k held none of it and
    every sentence saying "make" outranked it; now -k is a word both hold, and "-B" is not "-b"."""
    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.read.read import ReadSection, Reading
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.rank import score_units
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.api.shelves import open_shelves

    shelf = tmp_path / "manual"
    shelf.mkdir()
    (shelf / "make.md").write_text(
        "# GNU Make\n\n## Running make\n\nYou run make in the directory that holds the makefile. "
        "GNU make reads the makefile and remakes the targets that are out of date. "
        "The make program prints each recipe before it runs it.\n\n"
        "## Options Summary\n\n- `-k`, `--keep-going`: Continue as much as possible after an error.\n"
        "- `-B`, `--always-make`: Consider all targets out-of-date.\n- `-b`: This option is ignored for compatibility.\n\n"
        "## Setting Variables\n\nA makefile sets a variable with an assignment operator. "
        "The `?=` operator sets the variable only if it is not yet defined.\n",
        encoding="utf-8")
    report = build_shelf(shelf, Settings(build_dir=tmp_path / "build"), progress=lambda line: None, stages=[index_stage(HashEmbedder())])
    assert not report.failed, report.render()
    opened = open_shelves({"manual": tmp_path / "build" / "manual"}, HashEmbedder())["manual"]
    sections = [ReadSection(shelf="manual", section_id=sid, doc_id=opened.sections[sid].doc_id, chars=opened.chars(sid), why="whole scope")
                for doc in opened.doc_order() for sid in opened.doc_sections[doc]]
    pool = build_pool(Reading(budget=400_000, scope_chars=1, whole_scope=True, chars_read=1, sections=sections, not_opened=[]),
                      {"manual": opened}, section_units)

    def first(question: str) -> str:
        plan = plan_by_rules(question, [], {}, [], [], [])
        return next(pool.units[i].text for _, own, shown, i in score_units(plan, pool)[0][1] if own > 0 and shown)

    assert first("What does make -k do?").startswith("`-k`"), first("What does make -k do?")
    assert first("What does make -B do?").startswith("`-B`"), first("What does make -B do?")
    assert first("What does ?= do?").startswith("The `?=` operator"), first("What does ?= do?")
