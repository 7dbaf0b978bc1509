"""One concept, one place (issue 33): the English word lists the compiler and the answering stages share, and each
former reader of a list now giving the same answer as the others."""

from __future__ import annotations

import pytest

from shelfwise.api.currency import changed_rule, current_first
from shelfwise.api.answer.check.guards import names, numbers
from shelfwise.api.answer.write.rank import FACETS
from shelfwise.api.answer.records import Unit
from shelfwise.compiler.ingest.sections import build_sections
from shelfwise.compiler.language.force import KEYWORDS
from shelfwise.compiler.language.numbers import NUMBER_WORDS
from shelfwise.compiler.store.records import Converted, Element
from shelfwise.compiler.language.versions import asks_about_versions
from shelfwise.compiler.ledger.rules import extract_rules, find_thresholds


def _orders_as_versions(ask: str) -> bool:
    """Whether the current-first ordering treats ``ask`` as a versions question: it then keeps a superseded sentence
    the current document restates word for word."""
    units = [Unit(id=uid, kind="sentence", text="The implicit grant returns the access token in the redirect URI.",
                  shelf="mem", citations=["s1"], obligation=0, superseded_by=newer)
             for uid, newer in (("old", "RFC 9700"), ("new", ""))]
    return [u.id for u in current_first(units, [ask])] == ["new", "old"]


def _ranks_as_versions(ask: str) -> bool:
    """Whether the ranking gives ``ask`` the versions facet."""
    return bool(FACETS["@version"][0].search(ask))


@pytest.mark.parametrize("ask, versions", [
    ("Is the implicit grant deprecated?", True),  # the ranking said yes, the ordering no
    ("Which OWASP Top 10 2013 categories were dropped in the 2017 edition?", True),  # the ordering said yes, the ranking no
    ("Is a pump malfunction a Reportable Event? Was that always so?", True),  # the same
    ("Which revision of SOP-014 is current?", True),
    ("How are staff trained?", False),
])
def test_the_ranking_and_the_current_first_ordering_share_one_versions_test(ask, versions):
    assert asks_about_versions(ask) is versions
    assert _ranks_as_versions(ask) is versions
    assert _orders_as_versions(ask) is versions


@pytest.mark.parametrize("word", ["two", "twelve", "fifteen", "forty", "ninety"])
def test_the_ledger_the_number_guard_and_the_same_rule_test_read_one_table_of_number_words(word):
    value = str(NUMBER_WORDS[word])
    assert [t.value for t in find_thresholds(f"Complaints are closed within {word} days.")] == [word]
    assert numbers(f"Complaints are closed within {word} days.") == [value]
    # a rule restated with another figure in words is a rule that changed, whichever number word it uses
    assert changed_rule(f"Complaints are closed within {word} days of receipt.", ["Complaints are closed within 7 days of receipt."])


@pytest.mark.parametrize("keyword", KEYWORDS)
def test_a_requirement_keyword_is_the_ledgers_modality_and_never_a_name_to_the_guard(keyword):
    sentence = f"The Client {keyword} send the Token to the Server."
    sections, _ = build_sections("d", Converted(title="Policy", reader="t", reader_version="1", elements=[
        Element(kind="heading", text="3 Tokens", level=1), Element(kind="paragraph", text=sentence)]))
    rules = [a for section in sections for a in extract_rules(section).assertions if a.kind == "rule"]
    assert [r.modality for r in rules] == [keyword]
    assert names(sentence) == ["Client", "Token", "Server"]


def test_the_language_package_says_the_rules_are_english_and_every_place_it_names_exists():
    import importlib
    import re

    import shelfwise.compiler.language as language
    from shelfwise.api import terms
    from shelfwise.compiler.language import questions

    assert "English" in language.__doc__.splitlines()[0]
    named = set(re.findall(r"``(shelfwise(?:\.\w+|\s*\n\s*\.\w+)+)``", language.__doc__))
    modules = {re.sub(r"\s+", "", name) for name in named}
    assert {"shelfwise.api.terms", "shelfwise.compiler.prose", "shelfwise.api.answer.plan.plan"} <= modules
    for module in modules:
        importlib.import_module(module)
    for concept in ("questions", "numbers", "force", "versions", "directions"):
        assert f"``{concept}``" in language.__doc__
        importlib.import_module(f"shelfwise.compiler.language.{concept}")
    assert terms.QUESTION_WORDS is questions.QUESTION_WORDS


@pytest.mark.parametrize("question", ["Is the 45-day complaint closure target deprecated?",
                                      "Were complaints closed within 45 days in an older edition?"])
def test_the_rankings_superseded_weight_is_lifted_by_the_same_versions_test(question):
    """A versions question weighs a superseded revision's sentences as the current ones (the ranking) and keeps them
    shown (the ordering): both by ``asks_about_versions``, "deprecated" and "edition" included."""
    from test_answer import _memory_shelf
    from test_answer_shape import REVISIONS, _reading

    from shelfwise.api.answer.write.pool import build_pool

    from shelfwise.api.answer.write.rank import score_units
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.api.answer.plan.plan import plan_by_rules

    shelf = _memory_shelf(REVISIONS, links=[("supersedes", "qm-rev-d", "qm-rev-c")])
    plan = plan_by_rules(question, [], {d: row["title"] for d, row in shelf.documents.items()}, [], [], [])
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units)
    explained: list = []
    score_units(plan, pool, explain=explained)
    old = [features["superseded"] for _, index, features in explained if pool.units[index].superseded_by]
    assert old and set(old) == {0.0}
    assert all(asks_about_versions(o.ask) for o in plan.obligations)
