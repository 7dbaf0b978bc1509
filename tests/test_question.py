"""The question read once (issue 33 item 4): one record of what every stage reads of a question's words."""

from __future__ import annotations

import pytest

from shelfwise.api.answer.plan.plan import plan_by_rules
from shelfwise.api.answer.question import read_phrase, read_question


def test_a_versions_question_is_read_into_its_names_facets_and_versions():
    asked = read_question("What changed between Rev C and Rev D of the Quality Manual?")
    (part,) = asked.parts
    assert part.text == "What changed between Rev C and Rev D of the Quality Manual"
    assert part.names == ("Rev C and Rev D", "Quality Manual")
    assert part.identifiers == () and part.keys == ()
    assert part.versions and part.facets == ("@version",) and part.facet_words == {"@version": frozenset({"chang"})}
    assert not asked.leans and not asked.follow_up([object()]) and asked.premises == ()


def test_a_filings_question_splits_into_parts_and_leans_on_its_own_first_part():
    asked = read_question("What was Apple's total net sales in the quarter ended April 1, 2023, and how did it compare "
                          "with the same quarter of 2022?")
    assert [p.text for p in asked.parts] == ["What was Apple's total net sales in the quarter ended April 1, 2023",
                                             "how did it compare with the same quarter of 2022"]
    assert "appl" in asked.parts[0].word_stems and "2023" in asked.parts[0].word_stems
    assert asked.leans  # "it" points back: with an earlier turn it would be read against it ...
    assert not asked.opens_as_follow_up  # ... but it does not open like a follow-up, so it is answered as asked


def test_identifiers_premises_contrast_and_follow_ups_are_read_once():
    asked = read_question("Why did Rev D of the Quality Manual QM-001 extend the complaint closure time from 30 to 45 days?")
    assert asked.whole.identifiers == ("QM-001",) and asked.whole.keys == ("qm-1",)
    assert asked.premises == ("Rev D of the Quality Manual QM-001 extend the complaint closure time from 30 to 45 days",)
    assert asked.parts[0].facets == ("@reason",)
    contrast = read_phrase("How does RAPTOR build its index instead of plain fixed-size passages?")
    assert contrast.contrasted == frozenset({"plain", "fix", "size", "passag"})
    follow = read_question("and what about refresh tokens?")
    assert follow.leans and follow.follow_up([object()]) and not follow.follow_up([])
    assert read_question("What changed between Rev C and Rev D of the Quality Manual?") is read_question(
        "What changed between Rev C and Rev D of the Quality Manual?")  # one reading per text


def test_a_statement_the_question_then_asks_on_is_a_premise():
    """", so how ...?" and "; does ...?" ask on the statement before them (eval/questions/unseen-premises-14.yaml's
    licences and OWASP premises were read as no premise at their first run); a question with no statement before its
    question word has none."""
    assert read_question("CC BY 4.0 makes me publish any adaptation I share under CC BY 4.0 as well, so how should I label "
                         "the licence of my remixed version?").premises == (
        "CC BY 4.0 makes me publish any adaptation I share under CC BY 4.0 as well",)
    assert read_question("PEP 484 lets me pass an int where a parameter is annotated float; does the same shortcut let me "
                         "pass an int to a parameter annotated complex?").premises == (
        "PEP 484 lets me pass an int where a parameter is annotated float",)
    assert read_question("How does make decide what to rebuild, and what does -k do?").premises == ()


PREMISE = "RFC 6749 lets public clients use the client credentials grant"


@pytest.mark.parametrize("question", [
    f"As {PREMISE}, how do they authenticate?",
    f"Seeing that {PREMISE}, how do they authenticate?",
    f"Considering that {PREMISE}, how do they authenticate?",
    f"Knowing that {PREMISE}, how do they authenticate?",
    f"Assuming {PREMISE}, how do they authenticate?",
    f"Given that {PREMISE}, how do they authenticate?",
    f"{PREMISE}, right? Then how do they authenticate?",
    f"{PREMISE}, doesn't it? Then how do they authenticate?",
    f"Isn't it true that {PREMISE}? How do they authenticate then?",
    f"{PREMISE} - how do they authenticate?",
])
def test_a_premise_is_read_however_the_asker_puts_it(question):
    """The ways askers state what they take for granted besides "since" (a sentence's opening, a tag question, a
    statement before a dash): each gives the same premise, once."""
    assert read_question(question).premises == (PREMISE,)


def test_a_premise_a_question_attributes_to_a_document():
    """"X, which RFC 6749 permits", "X (allowed by RFC 6749)", "If X, as RFC 6749 says, ...": the document is said to
    assert X (unseen-premises-14's redirect URI question was read as its bare statement); the clause it speaks of starts
    after the question's own words ("How do public clients authenticate when ...")."""
    assert read_question("How do public clients authenticate when using the client credentials grant, which RFC 6749 allows "
                         "them to use?").premises == ("RFC 6749 allows using the client credentials grant",)
    assert read_question("When a public client uses the client credentials grant (allowed by RFC 6749), how does it "
                         "authenticate?").premises == ("RFC 6749 allows a public client uses the client credentials grant",)
    assert read_question("If public clients may use the client credentials grant, as RFC 6749 says, how do they "
                         "authenticate?").premises == ("RFC 6749 says public clients may use the client credentials grant",)
    assert read_question("Our client uses the implicit grant, which is what RFC 6749 requires for browsers. How do we refresh "
                         "its tokens?").premises[0] == "RFC 6749 requires Our client uses the implicit grant"
    assert "RFC 6749 permits My client registered https://app.example.com/cb#done as its redirect URI" in read_question(
        "My client registered https://app.example.com/cb#done as its redirect URI, which RFC 6749 permits. Where does the "
        "authorization server add the code?").premises


@pytest.mark.parametrize("question", [
    "As of July 1, 2023, what were Apple's total net sales?",
    "As a developer, how do I register a client?",
    "With respect to refresh tokens, what does RFC 6749 say?",
    "With PKCE, how does the client prove possession?",
    "Who approves the quality manual, which the Complaint Handling Unit maintains?",
    "How does make decide what to rebuild, and is -k the option that keeps going?",
])
def test_what_frames_a_question_is_no_premise(question):
    """A time, a role or a topic an opening frames the question with, and a clause naming no document's assertion,
    presuppose nothing the documents could contradict."""
    assert read_question(question).premises == ()


def test_the_plan_carries_the_reading_its_obligations_were_made_from():
    plan = plan_by_rules("Who approves the Quality Manual, and how often is it reviewed?", [], {"qm": "Quality Manual"}, [], [], [])
    assert [o.ask for o in plan.obligations] == [p.text for p in plan.asked.parts]
    assert plan.asked.phrase(plan.obligations[1].ask) is plan.asked.parts[1]
    assert plan.asked.parts[1].facets == ("@number",)


def test_a_filings_question_names_its_company_and_quarter_by_the_compiled_identities():
    from shelfwise.api.answer.question import named_by_identity
    from shelfwise.compiler.digests.identity_match import IdentityMatch
    from shelfwise.compiler.store.records import DocumentIdentity

    def filing(doc_id, issuer, aliases, end, quarter):
        return DocumentIdentity(doc_id=doc_id, name=f"{issuer} 10-Q", title=f"{issuer} 10-Q", issuer=issuer, form="10-Q",
                                period_kind="quarter", period_end=end, fiscal_quarter=quarter, aliases=aliases)

    filed = {"2023-q2-aapl": filing("2023-q2-aapl", "Apple Inc.", ["Apple", "AAPL"], "2023-04-01", "Q2 2023"),
             "2023-q3-aapl": filing("2023-q3-aapl", "Apple Inc.", ["Apple", "AAPL"], "2023-07-01", "Q3 2023"),
             "2023-q1-intc": filing("2023-q1-intc", "Intel Corporation", ["Intel", "INTC"], "2023-04-01", "Q1 2023")}
    asked = read_question("What did Apple spend on research in the third quarter of 2023, and what was the focus of its spending?")
    named = named_by_identity(asked, IdentityMatch(filed))
    assert named.whole == {"2023-q3-aapl"}
    assert len(named.parts) == len(asked.parts) == 2 and named.parts[1] == frozenset()  # the second part names no one ...
    plan = plan_by_rules(asked.text, [], {d: i.name for d, i in filed.items()}, [], [], [], filed)
    assert [o.documents for o in plan.obligations] == [["2023-q3-aapl"], ["2023-q3-aapl"]]  # ... and is bound by the whole
    assert named_by_identity(asked, None).whole == frozenset()


def test_a_bare_if_so_asks_nothing():
    """'Has there been ...? If so, what are the key drivers ...?' asks two things: 'If so' is no part of its own (as 'If
    not' is not), and the part after it leans on the part before it ('this change')."""
    asked = read_question("Has there been any significant change in ACME's operating expenses over the reported quarters? "
                          "If so, what are the key drivers for this change?")
    assert [p.text for p in asked.parts] == ["Has there been any significant change in ACME's operating expenses over the "
                                             "reported quarters", "what are the key drivers for this change"]
    plan = plan_by_rules(asked.text, [], {}, [], [], [])
    assert "expenses" in plan.obligations[1].targets, plan.obligations[1].targets


def test_what_a_question_states_before_it_asks_is_read_with_its_first_question():
    """'I want to build ... like the one in Dense X Retrieval .... How did the authors get a model ..., how did they
    measure ..., and how did they store ...?' asks three things. Its first part opens with a statement, which made that
    whole part, its question too, the setting of the two after it: the first question was never asked on its own
    (eval/questions/unseen-formats-3.yaml). The statement is read with the first question, and the later parts lean on
    its names as on any first part's. A leading phrase with no question in it stays the setting of every part."""
    setting = "I want to build a proposition index like the one in Dense X Retrieval for our own documents."
    question = (f"{setting} How did the authors get a model that splits passages into propositions, how did they measure "
                "whether its output was any good, and how did they store and search an index that large?")
    assert [p.text for p in read_question(question).parts] == [
        f"{setting} How did the authors get a model that splits passages into propositions",
        "how did they measure whether its output was any good", "how did they store and search an index that large"]
    plan = plan_by_rules(question, [], {}, [], [], [])
    assert all("Dense X Retrieval" in o.targets for o in plan.obligations[1:]), [o.targets for o in plan.obligations]
    # a conditional question after the statement asks too ("If I list both, does make understand ...")
    asked = read_question("One command writes both a .c and a .h file in a single run. If I simply list both files in front "
                          "of the colon, does make understand that one run produces both? If not, how do I declare that?")
    assert [p.text for p in asked.parts] == [
        "One command writes both a .c and a .h file in a single run. If I simply list both files in front of the colon, "
        "does make understand that one run produces both", "how do I declare that"]
    assert [p.text for p in read_question("We run FedRAMP. In an OSCAL-based SSP, how do I mark a control as inherited, and "
                                          "what must it provide?").parts] == [
        "We run FedRAMP. In an OSCAL-based SSP, how do I mark a control as inherited",
        "We run FedRAMP. In an OSCAL-based SSP, what must it provide"]


def test_a_first_part_asked_after_its_setting_is_asked_and_its_setting_is_the_later_parts():
    """'If I break the terms of GPL-3.0 or of CC BY 4.0, do I lose my licence automatically, how can I get it back under
    each, and what happens to people who already received the work from me?': the first part asks after its clause
    ("..., do I lose ..."). It was read as a setting with nothing asked: its question was never a part of its own, and
    the later parts carried it whole ("... automatically, What happens to ..."). It is the first part now; its clause is
    the setting of the later ones."""
    asked = read_question("If I break the terms of GPL-3.0 or of CC BY 4.0, do I lose my licence automatically, how can I "
                          "get it back under each, and what happens to people who already received the work from me?")
    assert [p.text for p in asked.parts] == [
        "If I break the terms of GPL-3.0 or of CC BY 4.0, do I lose my licence automatically",
        "If I break the terms of GPL-3.0 or of CC BY 4.0, how can I get it back under each",
        "If I break the terms of GPL-3.0 or of CC BY 4.0, what happens to people who already received the work from me"]
    asked = read_question("If a bug in a GPL-3.0 library corrupts our data, can we hold its authors liable? Are there exceptions?")
    assert [p.text for p in asked.parts] == ["If a bug in a GPL-3.0 library corrupts our data, can we hold its authors liable",
                                             "If a bug in a GPL-3.0 library corrupts our data, are there exceptions"]


def test_a_later_part_that_asks_nothing_is_the_setting_of_the_part_after_it():
    """'... Why does that happen and how should I write it? And if I turn on .ONESHELL instead, what changes for the @
    prefix?': 'And if I turn on .ONESHELL instead' asks nothing; it was a part of its own, read and answered apart."""
    asked = read_question("Why does each recipe line run in its own shell? And if I turn on .ONESHELL for the whole makefile "
                          "instead, what changes for the @ and - prefixes?")
    assert [p.text for p in asked.parts] == [
        "Why does each recipe line run in its own shell",
        "And if I turn on .ONESHELL for the whole makefile instead, what changes for the @ and - prefixes"]


def test_an_identifier_written_with_its_version_glued_or_with_zeros_is_one_identifier():
    """'GPLv3' is the 'GPL-3.0' a licence shelf holds; another version stays another."""
    from shelfwise.api.answer.read.evidence import holds_name
    from shelfwise.api.terms import identifier_key, version_key

    assert version_key(identifier_key("GPLv3")) == version_key(identifier_key("GPL-3.0")) == "gpl-3"
    assert version_key(identifier_key("TLSv1.2")) == version_key(identifier_key("TLS 1.2"))
    assert version_key(identifier_key("TLS 1.2")) != version_key(identifier_key("TLS 1.3"))
    assert version_key(identifier_key("HTTP/1.0")) != version_key(identifier_key("HTTP/1.1"))
    assert version_key(identifier_key("RFC 2000")) == "rfc-2000"
    assert holds_name("GPLv3", set(), {identifier_key("GPL-3.0")})
    assert not holds_name("GPLv2", set(), {identifier_key("GPL-3.0")})


def test_what_else_asks_for_more_of_what_was_asked():
    """'..., and what else does each expect from our technical security measures?': "else" says more of the same is
    wanted; no document need write it. The part was "not in these documents" ("No section of these documents mentions
    'else'", eval/questions/unseen-formats-3.yaml)."""
    from shelfwise.api.answer.read.evidence import asked_head

    assert asked_head("what else does each expect from our technical security measures") == []
    assert "els" not in read_phrase("what else may I remove").stems


def test_a_part_naming_only_an_option_or_joined_by_then_or_also_still_asks():
    """'What does -k do? Also, how does -i differ?' lost its first part, whose only subject, "-k", has no word stem; and a
    part opening with "then" or "Also," asks as the same part without it does (it is not the setting of the part after it)."""
    assert [p.text for p in read_question("What does -k do? Also, how does -i differ?").parts] == [
        "What does -k do", "how does -i differ"]
    assert [p.text for p in read_question("What does $@ hold, and what does $< hold?").parts] == [
        "What does $@ hold", "what does $< hold"]
    assert [p.text for p in read_question("What is an order-only prerequisite; then describe how make orders them; and how "
                                          "is a phony target declared?").parts] == [
        "What is an order-only prerequisite", "then describe how make orders them", "and how is a phony target declared"]
    assert [p.text for p in read_question("Which option prints the database? Please explain what -p prints, and what does "
                                          "-q do?").parts] == [
        "Which option prints the database", "Please explain what -p prints", "what does -q do"]
