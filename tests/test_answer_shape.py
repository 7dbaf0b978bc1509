"""Answers that answer (issue 12), model-free: current first, question sentences and repeats dropped, not-in-documents
decided from what was read, false premises named, gap lines that read as English — each on a small shelf written here."""

from __future__ import annotations

import pytest
from pathlib import Path

from test_answer import _memory_shelf, _p, _write

from shelfwise.api.answer.complete import gap_line, part_line
from shelfwise.api.currency import current_first, doc_label, label_units, superseded_documents
from shelfwise.api.answer.read.evidence import asked_head, unheld_names, unstated_obligations
from shelfwise.api.terms import word_stems
from shelfwise.api.answer.check.premise import correction_unit, find_false_premise
from shelfwise.api.answer.question import premises_of
from shelfwise.api.answer.read.read import Reading, ReadSection
from shelfwise.api.answer.show.shape import shape_answer
from shelfwise.api.answer.records import Unit
from shelfwise.compiler.ledger.rules import sentences

REVISIONS = {
    "qm-rev-c": ("QM-001 Quality Manual, Rev C (superseded)", "quality-manual-rev-c.docx",
                 [("8 Complaints", [_p("Complaints shall be closed within 45 calendar days of receipt.")])]),
    "qm-rev-d": ("QM-001 Quality Manual, Rev D", "quality-manual-rev-d.pdf",
                 [("1 Document control", [_p("Revision D shortens the complaint closure target from 45 to 30 calendar days.")]),
                  ("8 Complaints", [_p("Complaints shall be closed within 30 calendar days of receipt. "
                                       "The 30-day closure requirement does not apply to complaints under MDR investigation.")]),
                  ("9 Quiz", [_p("How many days do you have to close a complaint? Lunch is served at noon.")])]),
}


def _reading(shelf) -> Reading:
    sections = [ReadSection(shelf="mem", section_id=sid, doc_id=shelf.sections[sid].doc_id, chars=shelf.chars(sid), why="whole scope")
                for doc in shelf.doc_order() for sid in shelf.doc_sections[doc]]
    return Reading(budget=400_000, scope_chars=1, whole_scope=True, chars_read=1, sections=sections, not_opened=[])


def _shaped(shelf, question):
    plan, draft = _write(shelf, question)
    units = [u.model_copy(update={"status": "verbatim"}) for u in draft.units]
    shown, _ = shape_answer(units, [o.ask for o in plan.obligations], {"mem": shelf}, max_chars=4000, extractive=True)
    return shown


def test_labels_and_supersession_come_from_the_ledger():
    shelf = _memory_shelf(REVISIONS, links=[("supersedes", "qm-rev-d", "qm-rev-c")])
    assert doc_label(shelf, "qm-rev-d") == "QM-001 Rev D" and doc_label(shelf, "qm-rev-c") == "QM-001 Rev C"
    assert superseded_documents(shelf) == {"qm-rev-c": "qm-rev-d"}
    assert superseded_documents(_memory_shelf(REVISIONS)) == {}


def test_the_current_rule_leads_and_the_changed_superseded_rule_follows_marked():
    shelf = _memory_shelf(REVISIONS, links=[("supersedes", "qm-rev-d", "qm-rev-c")])
    shown = _shaped(shelf, "How soon must complaints be closed?")
    texts = [u.text for u in shown]
    assert texts[0] == "Complaints shall be closed within 30 calendar days of receipt."
    old = next(u for u in shown if u.text == "Complaints shall be closed within 45 calendar days of receipt.")
    assert texts.index(old.text) > 0 and old.superseded_by == "QM-001 Rev D" and old.source == "QM-001 Rev C"
    assert not any(t.endswith("?") for t in texts), "a quiz question is never an answer"


def test_a_superseded_sentence_that_says_what_the_current_one_says_is_not_shown():
    def unit(uid, text, newer=""):
        return Unit(id=uid, kind="sentence", text=text, shelf="mem", citations=["s1"], obligation=0, superseded_by=newer)

    units = [unit("u1", "Staff are trained yearly by the training coordinator.", "QM-001 Rev D"),
             unit("u2", "Staff are trained yearly by the training coordinator."),
             unit("u3", "Records are kept for five years."),
             unit("u4", "Visitors sign the visitor log.", "QM-001 Rev D")]
    assert [u.id for u in current_first(units, ["How are staff trained?"])] == ["u2", "u3", "u4"]
    assert [u.id for u in current_first(units, ["What changed from the previous revision?"])] == ["u2", "u3", "u1", "u4"]


def test_repeats_are_shown_once_whatever_their_spacing_or_case():
    shelf = _memory_shelf(REVISIONS)
    units = [Unit(id=f"u{n}", kind="sentence", text=text, shelf="mem", citations=[sid], obligation=n % 2, status="verbatim")
             for n, (text, sid) in enumerate([("Complaints shall be closed within 30 calendar days of receipt.", "s01000000001x"),
                                              ("complaints  shall be closed within 30 calendar days of receipt.", "s01000000001x")])]
    shown, _ = shape_answer(label_units(units, {"mem": shelf}), ["a", "b"], {"mem": shelf}, max_chars=4000, extractive=False)
    assert len(shown) == 1


def test_one_text_in_two_copies_is_shown_once_and_a_rule_that_changed_is_not_taken_for_a_copy():
    # the Texinfo and the PDF of one manual: the PDF adds a section number and a page, nothing else
    texts = [("You can explicitly declare the target to be phony by making it a prerequisite of the special target .PHONY "
              "(see Special Built-in Target Names).", 0, ""),
             ("You can explicitly declare the target to be phony by making it a prerequisite of the special target .PHONY "
              "(see Section 4.8 [Special Built-in Target Names], page 34).", 1, ""),
             ("Complaints are closed by the complaint handling unit within 30 calendar days of receipt by the company.", 0, ""),
             ("Complaints are closed by the complaint handling unit within 45 calendar days of receipt by the company.", 0, ""),
             ("Use of this claim is OPTIONAL.", 0, ""), ("Use of that claim is OPTIONAL.", 0, ""),
             ("Verifiers SHALL store memorized secrets in a form that is resistant to offline attacks by the verifier.", 0, ""),
             ("Verifiers SHALL NOT store memorized secrets in a form that is resistant to offline attacks by the verifier.", 0, "")]
    units = [Unit(id=f"u{n}", kind="sentence", text=text, shelf="mem", citations=["s1"], obligation=o, status="verbatim")
             for n, (text, o, _) in enumerate(texts)]
    shown, _ = shape_answer(units, ["a", "b"], {}, max_chars=4000, extractive=False)
    assert [u.id for u in shown] == ["u0", "u2", "u3", "u4", "u5", "u6", "u7"]  # short sentences are compared whole only
    assert shown[0].also == [1]  # the copy kept serves the obligation of the one left out


def test_an_answer_fits_its_character_limit_least_relevant_first():
    units = [Unit(id=f"u{n}", kind="sentence", text=f"Fact number {n} " + "x" * 200 + ".", shelf="mem", citations=["s1"],
                  obligation=0, score=1.0 / (n + 1), status="verbatim") for n in range(10)]
    shown, short = shape_answer(units, ["q"], {}, max_chars=1300, extractive=True)
    assert sum(len(u.text) for u in shown) <= 1000 and shown[0].id == "u0" and short == set()  # only weak units left out
    strong = [u.model_copy(update={"score": 1.0 - u.obligation - int(u.id[1:]) / 100}) for u in units]
    shown, short = shape_answer(strong, ["q"], {}, max_chars=1300, extractive=True)
    assert [u.id for u in shown] == ["u0", "u1", "u2", "u3"] and short == {0}  # strong evidence left out: not complete


def test_the_parts_of_a_question_share_the_size_limit_by_how_well_the_documents_answer_them():
    """A question in three parts: the documents answer the second about as well as the first (its best unit scores 0.8
    of the first's), but its words rank lower, so every one of its units scores below the first part's. The size limit
    compares the second part's units on the first part's scale and both parts keep their best units; a third part whose
    best unit is weak (half the first's) gives way first, down to its own best unit."""
    def part(obligation: int, scores: list[float]) -> list[Unit]:
        return [Unit(id=f"p{obligation}u{n}", kind="sentence", text=f"Part {obligation} fact {n} " + "x" * 200 + ".", shelf="mem",
                     citations=[f"s{obligation}"], obligation=obligation, score=score, status="verbatim")
                for n, score in enumerate(scores)]

    units = part(0, [1.0, 0.9, 0.8, 0.7]) + part(1, [0.8, 0.72, 0.64, 0.56]) + part(2, [0.5, 0.45])
    shown, _ = shape_answer(units, ["first", "second", "third"], {}, max_chars=1900, extractive=True)
    kept = [u.id for u in shown]
    assert kept == ["p0u0", "p0u1", "p0u2", "p1u0", "p1u1", "p1u2", "p2u0"]  # before: p0u0-p0u3, p1u0, p1u1, p2u0


def test_the_size_limit_takes_a_quoted_document_out_of_the_answer_last():
    """A question over two quarterly filings: the best units all come from one filing, the weakest is the only one of
    the other. The size limit drops the first filing's weaker units before the second filing's only unit, so the answer
    still quotes every filing it drew from; when the limit leaves room for less, that unit goes too."""
    units = [Unit(id=f"u{n}", kind="sentence", text=f"Fact number {n} " + "x" * 200 + ".", shelf="mem", citations=["s1"],
                  obligation=0, score=1.0 / (n + 1), status="verbatim", source="ACME 10-Q, Q1" if n < 5 else "ACME 10-Q, Q2")
             for n in range(6)]
    shown, _ = shape_answer(units, ["q"], {}, max_chars=1100, extractive=True)
    assert [u.id for u in shown] == ["u0", "u1", "u5"]  # u2 to u4 of Q1 went before u5, Q2's only unit
    shown, _ = shape_answer(units, ["q"], {}, max_chars=600, extractive=True)
    assert [u.id for u in shown] == ["u0"]


def test_what_the_question_asks_for_decides_not_in_the_documents():
    assert asked_head("What is the warranty period of the pump?") == ["warranti", "period"]
    assert asked_head("What does an administration set cost?") == ["cost"]
    assert asked_head("How many employees does the site have?") == ["employee"]
    # the topic a document is asked about ("say about", "require for") is what the part asks for
    assert asked_head("What does SP 800-63B require for synchronizing passkeys between a user's devices?") == ["synchroniz", "passkei"]
    assert asked_head("What does the MIT License say about patent retaliation when a licensee sues?") == ["patent", "retali"]
    assert asked_head("How does RAPTOR handle images and figures embedded in the documents it indexes?") == ["imag"]
    assert asked_head("How does make handle errors in recipes?") == ["error"]
    shelf = _memory_shelf(REVISIONS)
    plan, _ = _write(shelf, "What is the warranty period of the complaint?")
    assert unstated_obligations(plan, _reading(shelf), {"mem": shelf}) == {0: ["warranty", "period"]}
    plan, _ = _write(shelf, "Which ISO 27001 controls apply to complaints?")
    assert unstated_obligations(plan, _reading(shelf), {"mem": shelf}) == {0: ["ISO 27001"]}
    plan, _ = _write(shelf, "What is the closure target for complaints?")
    assert unstated_obligations(plan, _reading(shelf), {"mem": shelf}) == {}
    plan, _ = _write(shelf, "What does the quality manual say about warranty claims in the complaint process?")
    assert unstated_obligations(plan, _reading(shelf), {"mem": shelf}) == {0: ["warranty", "claims"]}
    plan, _ = _write(shelf, "What does the quality manual say about complaint closure?")
    assert unstated_obligations(plan, _reading(shelf), {"mem": shelf}) == {}
    # a model planner's paraphrase adds words the asker never used ("frequency" for "how soon"): they decide nothing
    plan, _ = _write(shelf, "How soon must complaints be closed?")
    paraphrased = plan.model_copy(update={"obligations": [plan.obligations[0].model_copy(
        update={"ask": "What is the frequency of closure for complaints?"})], "planner": "a-model"})
    assert unstated_obligations(paraphrased, _reading(shelf), {"mem": shelf}) == {}
    asked = plan.model_copy(update={"question": "What is the frequency of closure for complaints?", "resolved_question": "What is the frequency of closure for complaints?",
                                    "obligations": [plan.obligations[0].model_copy(update={"ask": "What is the frequency of closure for complaints?"})]})
    assert unstated_obligations(asked, _reading(shelf), {"mem": shelf}) == {0: ["frequency"]}


def test_a_name_nothing_read_holds_makes_its_part_not_in_the_documents():
    """A name the ask gives what it is about that no read section, heading or document name holds: the documents do not
    say it, whatever else the ask names that they hold. Not a name of one of two alternatives when the other is held, of
    the asker's own things, one a premise gives, or a capitalised word that opens a sentence."""
    read = set(word_stems("General Data Protection Regulation GDPR personal data storage limitation Intel Data Center Group revenue"))

    def unheld(ask: str, premises=()) -> list[str]:
        return unheld_names(ask, ask, premises, read, set())

    assert unheld("How long does GDPR allow a company to keep CCTV footage?") == ["CCTV"]
    assert unheld("How long does GDPR allow a company to keep personal data?") == []
    assert unheld("Are there trends in Intel's Data Center Group or IoT segment revenues?") == []  # either answers
    assert unheld("Are there trends in Intel's IoT segment revenues?") == ["IoT"]
    assert unheld("Our Acme portal stores personal data. How long does GDPR allow it?") == []  # the asker's own
    assert unheld("Since Acme Cloud keeps personal data, how long does GDPR allow it?", ("Acme Cloud keeps personal data",)) == []
    shelf = _memory_shelf(REVISIONS)
    plan, _ = _write(shelf, "How soon must complaints about the Orion pump be closed?")
    assert unstated_obligations(plan, _reading(shelf), {"mem": shelf}) == {0: ["Orion"]}
    plan, _ = _write(shelf, "How soon must complaints under the QM-001 Quality Manual be closed?")
    assert unstated_obligations(plan, _reading(shelf), {"mem": shelf}) == {}


def test_a_model_plan_decides_not_in_the_documents_only_on_the_questions_own_subject():
    shelf = _memory_shelf(REVISIONS)
    plan, _ = _write(shelf, "How soon must complaints be closed?")
    # the model's rewrite of a question that stands alone holds a head the asker never used: it decides nothing
    rewritten = plan.model_copy(update={"resolved_question": "What is the frequency of closure for complaints?", "planner": "a-model",
                                        "obligations": [plan.obligations[0].model_copy(update={"ask": "What is the frequency of closure for complaints?"})]})
    assert unstated_obligations(rewritten, _reading(shelf), {"mem": shelf}) == {}
    # a word of the question that is not what it asks for ("warranty period" beside "how soon") decides nothing either
    plan, _ = _write(shelf, "How soon must complaints be closed after the warranty period?")
    narrowed = plan.model_copy(update={"planner": "a-model", "obligations": [plan.obligations[0].model_copy(
        update={"ask": "What is the warranty period of complaints?"})]})
    assert unstated_obligations(narrowed, _reading(shelf), {"mem": shelf}) == {}
    # the question's own head still decides with a model plan
    plan, _ = _write(shelf, "What is the warranty period of the complaint?")
    assert unstated_obligations(plan.model_copy(update={"planner": "a-model"}), _reading(shelf), {"mem": shelf}) == {0: ["warranty", "period"]}


def test_a_false_premise_is_named_with_the_documents_statement():
    shelf = _memory_shelf(REVISIONS, links=[("supersedes", "qm-rev-d", "qm-rev-c")])
    unit = correction_unit("Why did Rev D extend the complaint closure target from 30 to 45 days?", _reading(shelf), {"mem": shelf})
    assert unit is not None and unit.text == "Revision D shortens the complaint closure target from 45 to 30 calendar days."
    assert unit.group == "correction" and unit.status == "verbatim"
    always = correction_unit("Why must every complaint, including those under MDR investigation, be closed within 30 days?",
                             _reading(shelf), {"mem": shelf})
    assert always is not None and always.text == "The 30-day closure requirement does not apply to complaints under MDR investigation."
    assert correction_unit("How soon must complaints be closed?", _reading(shelf), {"mem": shelf}) is None


def test_premises_figures_and_frequencies():
    assert premises_of("Since suppliers have 60 days to respond, when are they disqualified?") == ["suppliers have 60 days to respond"]
    found = find_false_premise("Since suppliers have 60 days to respond to a SCAR, when are they disqualified?",
                               [("mem", "s1", "Suppliers respond to a SCAR within 30 calendar days.")])
    assert found is not None and "another figure" in found.why
    found = find_false_premise("Why is the test equipment calibrated only once a year?",
                               [("mem", "s1", "Test equipment shall be calibrated every 6 months.")])
    assert found is not None
    assert find_false_premise("Why is the test equipment calibrated twice a year?",
                              [("mem", "s1", "Test equipment shall be calibrated every 6 months.")]) is None


LICENSES = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "licenses"


def _licence_sentences(name: str) -> list[tuple[str, str, str]]:
    text = " ".join((LICENSES / name).read_text(encoding="utf-8").split())
    return [("licenses", name, sentence) for sentence in sentences(text)]


def test_a_premise_about_what_a_licence_requires_or_permits_is_corrected_from_its_text():
    """Polarity: the question takes for granted that something is (not) required or permitted, a sentence of the
    licence about the same thing says the reverse; a question whose premise the licence states is left alone."""
    mit, apache = _licence_sentences("mit.txt"), _licence_sentences("apache-2.0.txt")
    found = find_false_premise("Since the MIT License does not require the copyright notice to be included in copies of "
                               "the Software, can I leave it out?", mit)
    assert found is not None and ("shall be included in all copies" in found.sentence or "requiring preservation of copyright" in found.sentence)
    assert found.why == "the documents say it is required"
    found = find_false_premise("Why does the Apache License grant permission to use the trade names and trademarks of the Licensor?", apache)
    assert found is not None and "does not grant permission to use the trade names" in found.sentence
    assert find_false_premise("Why must the copyright notice be included in all copies of the Software?", mit) is None
    assert find_false_premise("Why does the Apache License not grant permission to use the trademarks of the Licensor?", apache) is None


def test_gap_lines_read_as_english_for_every_kind():
    assert gap_line("list all possible ways to annotate such a parameter", "list") == \
        "The documents do not list all possible ways to annotate such a parameter."
    assert gap_line("What is a Reportable Event", "describe") == "The documents do not say what a Reportable Event is."
    assert gap_line("Which revision of QM-001 is in force", "lookup") == \
        "The documents do not answer \u201cWhich revision of QM-001 is in force?\u201d"
    assert gap_line("what happens when a supplier fails", "explain") == "The documents do not say what happens when a supplier fails."
    assert gap_line("What limits do these documents give for codes", "list") == \
        "The documents do not answer \u201cWhat limits do these documents give for codes?\u201d"
    assert gap_line("How often must top management review the system", "lookup") == \
        "The documents do not answer \u201cHow often must top management review the system?\u201d"
    assert gap_line("Is it overdue", "judge") == "The documents do not answer \u201cIs it overdue?\u201d"
    assert gap_line("explain why the interval is shorter", "explain") == "The documents do not explain why the interval is shorter."
    assert gap_line("What are the steps of handling a complaint, from receipt to closure", "trace") == \
        "The documents do not answer \u201cWhat are the steps of handling a complaint, from receipt to closure?\u201d"
    assert gap_line("compare Rev C and Rev D", "compare") == "The documents do not compare Rev C and Rev D."
    assert gap_line("What should we propose", "propose") == "The documents do not answer \u201cWhat should we propose?\u201d"
    assert part_line("What is a bearer token", "describe") == "The sentences shown may not fully say what a bearer token is."
    # a passive ask: the verb goes after its subject, never after the participle ("how they produced are")
    assert part_line("how are they produced", "describe") == "The sentences shown may not fully say how they are produced."
    assert gap_line("Why was the closure time shortened", "explain") == "The documents do not say why the closure time was shortened."
    assert gap_line("What is required", "describe") == "The documents do not say what is required."
    assert gap_line("What is the seed", "describe") == "The documents do not say what the seed is."


def test_gap_lines_name_each_part_without_the_setting_they_share():
    """'If a bug in a GPL-3.0 library corrupts our data, can we hold its authors liable? Are there exceptions?': both
    parts are asked in the clause before the first one's question, and each gap line quoted it whole, as long as the
    question itself. The question states its setting once; the lines name what each part asks. Parts that share no
    setting up to a comma ("What lifetimes ... for codes", "... for JWTs"), and a single part, keep their words."""
    from shelfwise.api.answer.complete import complete_answer, without_setting
    from shelfwise.api.answer.plan.plan import plan_by_rules

    plan = plan_by_rules("If a bug in a GPL-3.0 library corrupts our data, can we hold its authors liable? Are there exceptions?",
                         [], {}, [], [], [])
    assert [o.ask for o in plan.obligations] == ["If a bug in a GPL-3.0 library corrupts our data, can we hold its authors liable",
                                                 "If a bug in a GPL-3.0 library corrupts our data, are there exceptions"]
    shown = [Unit(id="u1", kind="sentence", text="THERE IS NO WARRANTY FOR THE PROGRAM.", shelf="mem", citations=["s1"],
                  obligation=0, status="verbatim"),
             Unit(id="u2", kind="sentence", text="Unless required by applicable law, no holder is liable.", shelf="mem",
                  citations=["s1"], obligation=1, status="verbatim")]
    gaps = complete_answer(plan, shown, {0: 0.1, 1: 0.1}, 0.5).gaps
    assert gaps == ["The sentences shown may not fully answer \u201cCan we hold its authors liable?\u201d",
                    "The sentences shown may not fully answer \u201cAre there exceptions?\u201d"], gaps
    # the shared words end inside a part's clause: that part keeps its words, the others lose the setting
    parser = "Our parser goes .y to .c, and make throws away the generated .c files, "
    assert without_setting([parser + "which I want to keep. Why does it delete them", parser + "what are my options for one file"]) == [
        parser + "which I want to keep. Why does it delete them", "What are my options for one file"]
    asks = ["What lifetimes do these specifications give for authorization codes", "What lifetimes do these specifications give for JWTs"]
    assert without_setting(asks) == asks and without_setting(["In an OSCAL-based SSP, how do I mark it"]) == [
        "In an OSCAL-based SSP, how do I mark it"]


def test_a_judgment_is_derived_by_code_from_a_checked_record_and_rule():
    from shelfwise.api.answer.check.verdict import derive_verdicts, question_date

    record = Unit(id="u1", kind="table_row", text="CMP-7 | 2026-01-28 | Closed | 2026-03-20", shelf="mem", citations=["s1"],
                  obligation=0, status="verbatim", group="t1")
    rule = Unit(id="u2", kind="sentence", text="Complaints shall be closed within 30 calendar days of receipt.", shelf="mem",
                citations=["s2"], obligation=0, status="verbatim")
    verdicts = derive_verdicts("Was complaint CMP-7 closed in time?", [("judge", "Was complaint CMP-7 closed in time")], [record, rule])
    assert [v.text for v in verdicts] == ["Derived from the documents: CMP-7: from 2026-01-28 to 2026-03-20 is 51 calendar days; "
                                          "the limit is 30 calendar days, so it is over the limit by 21 days."]
    assert verdicts[0].citations == ["s1", "s2"] and verdicts[0].group == "verdict" and verdicts[0].status == "computed"
    unchecked = rule.model_copy(update={"status": "unconfirmed"})
    assert derive_verdicts("Was complaint CMP-7 closed in time?", [("judge", "q")], [record, unchecked]) == []
    assert question_date("Can it be used on 15 September 2026?").isoformat() == "2026-09-15"
    header = Unit(id="u3", kind="table_header", text="No. | Interval (months) | Last calibrated", shelf="mem", citations=["s3"],
                  obligation=0, status="verbatim", group="t2")
    row = Unit(id="u4", kind="table_row", text="CAL-7 | 6 | 2026-03-02", shelf="mem", citations=["s3"], obligation=0,
               status="verbatim", group="t2")
    verdicts = derive_verdicts("Is CAL-7 usable on 1 October 2026?", [("judge", "q")], [header, row])
    assert verdicts[0].text.endswith("CAL-7: 6 months from 2026-03-02 ends on 2026-09-02; 2026-10-01 is past that interval.")


def test_the_sentence_that_continues_a_picked_rule_follows_it():
    shelf = _memory_shelf({"sop": ("SOP-030 Supplier Control", "sop-030.docx", [("6 Corrective action", [_p(
        "A corrective action request is issued when a purchased component caused a failure. "
        "The supplier of the component responds with a plan within 30 calendar days. Lunch is served at noon.")])])})
    _, draft = _write(shelf, "What happens when a purchased component caused a failure?")
    assert [u.text for u in draft.units] == ["A corrective action request is issued when a purchased component caused a failure.",
                                             "The supplier of the component responds with a plan within 30 calendar days."]


def test_a_hyphenated_single_step_is_not_a_procedure():
    from shelfwise.api.answer.plan.plan import obligation_kind

    assert obligation_kind("How does it choose between single-step and multi-step retrieval") == "explain"
    assert obligation_kind("What are the steps of the backup") == "trace"


def test_expected_behaviours_are_graded_by_code():
    from shelfwise.eval.judge import displayed_statements
    from shelfwise.eval.answer_metrics import label_agrees
    from shelfwise.eval.judge import quote_recall
    from shelfwise.eval.questions import Question

    ooc = Question(id="x-1", shelf="s", question="What is the warranty period?", expect="not_in_documents", must=[])
    assert quote_recall(ooc, "This is not in these documents. No section of these documents mentions \u201cwarranty\u201d.", []).score == 1.0
    padded = quote_recall(ooc, "Pumps are blue. [s0123456789a]", [{"text": "Pumps are blue.", "citations": ["s0123456789a"]}])
    assert padded.score == 0.0 and padded.expected == {"expect": "not_in_documents", "met": False, "quoted": 1}
    assert displayed_statements("This is not in these documents. No section of these documents mentions \u201cwarranty\u201d.\n\n"
                                "No section answers it, so no references are given.",
                                ["No section of these documents mentions \u201cwarranty\u201d."]) == []
    premise = Question(id="x-2", shelf="s", question="Why did Rev D extend it from 30 to 45 days?", expect="false_premise",
                       must=[{"item": "Rev D shortened it from 45 to 30 days.",
                              "evidence": [{"doc": "d", "heading": "h", "quote": "Revision D shortens it from 45 to 30 days."}]},
                             {"item": "Rev C said 45 days.", "evidence": [{"doc": "d", "heading": "h", "quote": "Rev C said 45 days."}]}])
    first = "**Contrary to what the question assumes, the documents say:** Revision D shortens it from 45 to 30 days. [s0123456789a]"
    assert quote_recall(premise, first + "\n\nRev C said 45 days. [s0123456789b]").score == 1.0
    late = quote_recall(premise, "Rev C said 45 days. [s0123456789b]\n\nRevision D shortens it from 45 to 30 days. [s0123456789a]")
    assert late.score == 0.5 and late.items[0].reason.startswith("the correction is not the first sentence")
    assert label_agrees("partial", [1.0, 1.0], "false_premise") is True and label_agrees("complete", [1.0], "false_premise") is False
    assert label_agrees("not_in_documents", [], "not_in_documents") is True and label_agrees("partial", [], "not_in_documents") is False


def test_a_register_row_holding_the_asked_value_is_shown_for_a_which_question():
    """'Which instruments are out of calibration?': the row whose Status cell reads the asked value is the answer, not only
    the rule that defines the label (a long row holds the words less densely than the rules, so plain ranking left it out)."""
    from shelfwise.compiler.store.records import Block

    head = ["Calibration No.", "Instrument", "Location", "Use", "Interval (months)", "Last calibrated", "Due date", "Tolerance",
            "Status", "Back-up"]
    rows = [head, *[[f"CAL-0{n}", f"Digital pressure gauge DPG-{n}00", f"Final test line {n}", "Production test", "12", "2025-10-14",
                     "2026-10-14", "± 0.5 kPa", "In calibration", "-"] for n in range(1, 8)],
            ["CAL-11", "Flow-rate analyzer FRA-5", "Complaint laboratory", "Complaint investigation (back-up)", "6", "2025-12-10",
             "2026-06-10", "± 1.0 % of reading", "OUT OF CALIBRATION", "CAL-07"]]
    text = "\n".join(" | ".join(row) for row in rows)
    shelf = _memory_shelf({
        "qm": ("QM-001 Quality Manual", "qm.md", [("7.6 Control of monitoring equipment", [_p(
            "An instrument whose calibration has lapsed is labelled OUT OF CALIBRATION and removed from use until it has been "
            "recalibrated.")])]),
        "trn": ("TRN-031 Training", "trn.md", [("Testing", [_p(
            "Check the calibration due date of every instrument in the calibration register before you test. "
            "An instrument past its due date shall not be used. Before each test, check the calibration label of the instrument. "
            "The technician maintains the calibration status of every instrument.")])]),
        "reg": ("REG-007 Calibration Register", "reg.xlsx", [("Calibration", [Block(kind="table", text=text, rows=rows, header_rows=1)])]),
    })
    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.write.write import ExtractiveWriter

    question = "Which instruments are out of calibration?"
    plan = plan_by_rules(question, [], {d: row["title"] for d, row in shelf.documents.items()}, [], [], [])
    recall_rank = {"qm": 1, "trn": 2, "reg": 30}  # search puts a whole register low: its one matching row is diluted
    reading = Reading(budget=400_000, scope_chars=1, whole_scope=True, chars_read=1, not_opened=[], sections=[
        ReadSection(shelf="mem", section_id=sid, doc_id=doc, chars=shelf.chars(sid), why="whole scope", ranks={0: recall_rank[doc]})
        for doc in shelf.doc_order() for sid in shelf.doc_sections[doc]])
    draft = ExtractiveWriter().write(plan, reading, {"mem": shelf})
    shown_rows = [u.text for u in draft.units if u.kind == "table_row"]
    assert any(row.startswith("CAL-11 | Flow-rate analyzer FRA-5") for row in shown_rows), shown_rows
    assert not any("In calibration" in row for row in shown_rows)  # the other rows only share the word


def test_a_short_name_never_repeats_the_version_its_title_states():
    shelf = _memory_shelf({
        "gpl": ("GNU GENERAL PUBLIC LICENSE Version 3, 29 June 2007", "gpl-3.0_COPYING.txt", [("Preamble", [_p("Free software.")])]),
        "wi": ("WI-022 Complaint Investigation", "wi-022-rev-b.md", [("Steps", [_p("Test the pump.")])]),
    })
    assert doc_label(shelf, "gpl") == "GNU GENERAL PUBLIC LICENSE Version 3"  # not "... Version 3 Rev 3"
    assert doc_label(shelf, "wi") == "WI-022 Rev B"  # a revision only the file name gives is still added


def test_a_chapter_kept_in_its_publications_folder_is_named_with_the_publication():
    shelf = _memory_shelf({
        "b5": ("5 Authenticator and Verifier Requirements", "sp800-63b/sec5_authenticators.md", [("5.1", [_p("Secrets.")])]),
        "a1": ("Appendix A Definitions", "sp800-63-3/definitions.md", [("A", [_p("Terms.")])]),
        "qm": ("Quality Manual", "documents/quality-manual.pdf", [("1", [_p("Scope.")])]),
    })
    assert doc_label(shelf, "b5") == "SP 800-63B › 5 Authenticator and Verifier…"
    assert doc_label(shelf, "a1") == "SP 800-63-3 › Appendix A Definitions"
    assert doc_label(shelf, "qm") == "Quality Manual"  # a folder that names no publication adds nothing


def test_a_table_of_contents_line_or_a_slide_fragment_is_never_an_answer():
    from shelfwise.compiler.store.records import Block, table_text

    rows = [["Contents", "Page"], ["A1:2017 - Injection …….………..………", "7"], ["A2:2017 - Broken Authentication ……………", "8"]]
    shelf = _memory_shelf({"owasp": ("OWASP Top 10 - 2017", "owasp-top-10-2017.docx", [
        ("Table of contents", [Block(kind="table", text=table_text(rows), rows=rows, header_rows=1)]),
        ("A1:2017 Injection", [_p("A1"), _p("Injection flaws, such as SQL injection, occur when untrusted data is sent to an "
                                          "interpreter as part of a command or query.")]),
        ("Contents", [_p("A1:2017 Injection .......... 7")])])})
    _, draft = _write(shelf, "What is A1:2017 Injection in the OWASP Top 10?")
    texts = [u.text for u in draft.units]
    assert any(t.startswith("Injection flaws, such as SQL injection") for t in texts), texts
    assert not any("…" in t or "...." in t for t in texts), texts
    assert "A1" not in texts


def test_an_obligation_over_two_named_documents_is_answered_from_each():
    """'What does each licence require …' naming Apache-2.0 and GPL-3.0: a name with a dotted version is an identifier, so
    both documents are named, and the one whose wording matches the question less closely still gives its own best
    sentences (paper §6.6: two-document obligations bound to one document). On the real licences shelf the Apache side
    was missing before (dev-formats licenses-01)."""
    from shelfwise.api.terms import identifiers

    assert identifiers("code under Apache-2.0 and code under GPL-3.0") == ["Apache-2.0", "GPL-3.0"]
    gpl = [_p(text) for text in (
        "You may convey the object code of the program only with the source code of the program and its notices.",
        "The source code of the program must be offered for three years when you ship the program without its source code.",
        "Each copy of the source code of the program must keep intact the notices of the program.",
        "A physical product that carries the object code of the program must carry the source code of the program too.",
        "The notices in the source code of the program state that the program comes with no warranty.",
        "If you ship the program on a network server, the source code of the program may sit on another server.",
        "The source code of the program includes the scripts that build and install the program.",
        "You must require nothing of recipients who copy the source code of the program with its notices.")]
    shelf = _memory_shelf({
        "gpl": ("GNU GENERAL PUBLIC LICENSE Version 3", "gpl-3.0.txt", [("6. Conveying Non-Source Forms", gpl)]),
        "apache": ("Apache License 2.0", "apache-2.0.txt", [("4. Redistribution", [_p(
            "You must give any other recipients of the Work a copy of this License and retain all attribution notices.")])]),
    })
    _, draft = _write(shelf, "I ship code under Apache-2.0 and code under GPL-3.0. What does each require for the source code "
                             "of the program and its notices?")
    assert {u.citations[0][:3] for u in draft.units if u.kind == "sentence"} == {"s00", "s01"}, [u.text for u in draft.units]


def test_a_reference_list_entry_is_never_an_answer_unless_citations_are_asked():
    """'Large dual encoders are generalizable retrievers.' is a work's title in a References section, not a statement
    that answers 'how large are they?'."""
    shelf = _memory_shelf({"paper": ("Dense X Retrieval", "densex.pdf", [
        ("3 Propositions", [_p("Propositions are large enough to be self-contained and average 11.2 words.")]),
        ("References", [_p("Large dual encoders are generalizable retrievers."), _p("Dense passage retrieval for open-domain questions.")]),
    ])})
    _, draft = _write(shelf, "How large are propositions and large dual encoders?")
    assert [u.text for u in draft.units if u.kind == "sentence"] == ["Propositions are large enough to be self-contained and average 11.2 words."]
    _, draft = _write(shelf, "Which works does the paper cite about large dual encoders?")
    assert "Large dual encoders are generalizable retrievers." in [u.text for u in draft.units]


def test_words_the_question_sets_its_subject_against_weigh_less():
    """'index instead of plain fixed-size passages': the answer is about what is indexed, not about plain passages."""
    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.rank import obligation_query
    from shelfwise.compiler.tuning import DEFAULT_TUNING
    from shelfwise.api.answer.write.write import section_units

    shelf = _memory_shelf({"paper": ("Dense X Retrieval", "densex.pdf", [
        ("1 Units", [_p("We index propositions as retrieval units."), _p("Plain passages have a fixed size of 100 words.")])])})
    plan = plan_by_rules("What do they index instead of plain fixed-size passages?", [], {"paper": "Dense X Retrieval"}, [], [], [])
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units)
    query = obligation_query(plan.obligations[0], pool, set())
    assert query["plain"] == pytest.approx(DEFAULT_TUNING.contrast_weight * pool.idf["plain"], rel=0.2) and query["index"] > query["plain"]


def test_the_askers_pronouns_are_no_words_to_find():
    """"Our build writes both a .c and a .h file ... does make understand that one run produces both?": "our", "both",
    "me" name the asker and point back; rare in a manual, they weighed more than "colon" and ranked "Our examples ..."
    first. The ranking query leaves them out; the documents' words are read as they are."""
    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.rank import obligation_query, score_units
    from shelfwise.api.answer.write.write import section_units

    shelf = _memory_shelf({"make": ("GNU Make", "make.pdf", [
        ("4.10 Multiple Targets", [_p("Rules that use the standard target separator, the colon, define independent targets."),
                                   _p("Our examples in our manual show both kinds and both styles.")])])})
    plan = plan_by_rules("If I list both of our outputs in front of the colon, what does that give me?", [], {"make": "GNU Make"}, [], [], [])
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units)
    query = obligation_query(plan.obligations[0], pool, set())
    assert not {"our", "both", "me"} & query.keys() and "colon" in query
    (_, scored), = score_units(plan, pool)
    assert pool.units[scored[0][3]].text.startswith("Rules that use the standard target separator")  # before: "Our examples ..."


def test_a_word_of_a_documents_name_before_its_identifier_is_no_word_to_find():
    """"What patent rights do Apache-2.0 and CC BY 4.0 give me?": "BY 4.0" names cc-by-4.0_legalcode.html, and "CC"
    before it is part of that name. Left in the query, "cc" (a rare word: the licence writes "Creative Commons") weighed
    more than "patent" and ranked a sentence that says "CC" above the patent grants."""
    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.rank import named_documents, obligation_query, score_units
    from shelfwise.api.answer.write.write import section_units

    shelf = _memory_shelf({  # the compiler's document id of cc-by-4.0_legalcode.html
        "cc-by-4-0-legalcode": ("Creative Commons Legal Code", "cc-by-4.0_legalcode.html", [
            ("Section 2 - Scope", [_p("Patent and trademark rights are not licensed under this Public License."),
                                   _p("Use of CC marks is governed by the CC trademark policy.")])]),
        "apache": ("Apache License 2.0", "apache-2.0.txt", [
            ("3. Grant of Patent License", [_p("Each Contributor hereby grants to You a patent license to make and use the Work.")])]),
    })
    documents = {d: row["title"] for d, row in shelf.documents.items()}
    plan = plan_by_rules("What patent rights do Apache-2.0 and CC BY 4.0 give me?", [], documents, [], [], [])
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units)
    _, _, naming = named_documents(plan.obligations[0], pool)
    assert "cc" in naming
    query = obligation_query(plan.obligations[0], pool, naming)
    assert "cc" not in query and "patent" in query
    (_, scored), = score_units(plan, pool)
    assert not pool.units[scored[0][3]].text.startswith("Use of CC marks")
    # an acronym before an identifier that the named document's file and title do not hold stays a word to find
    plan = plan_by_rules("What patent rights does the ASF Apache-2.0 give me?", [], documents, [], [], [])
    _, _, naming = named_documents(plan.obligations[0], pool)
    assert "apache-2-0" in naming and "asf" not in naming


def test_a_trend_asked_for_is_a_change_over_periods_not_a_word_to_find():
    """"Can any trends be identified in the Services segment revenue over the reported periods?": a trend is what the
    figures of each period show side by side. The filings' risk boilerplate writes "trends" ("known trends and
    uncertainties"); as the ask's rarest word it ranked that boilerplate above the segment's rows."""
    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.rank import obligation_query
    from shelfwise.api.answer.write.write import section_units

    shelf = _memory_shelf({"q3": ("Apple 10-Q", "apple.pdf", [
        ("Segment Information", [_p("Services net sales were $21,213 million in the quarter, up from $19,604 million.")]),
        ("Risk Factors", [_p("Known trends and uncertainties could affect the Company's results.")])])})
    plan = plan_by_rules("Can any trends be identified in Apple's Services segment revenue over the reported periods?", [],
                         {"q3": "Apple 10-Q"}, [], [], [])
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units)
    assert plan.obligations[0].kind == "compare"
    query = obligation_query(plan.obligations[0], pool, set())
    assert "trend" not in query and "servic" in query


def test_a_register_row_with_empty_cells_keeps_its_columns():
    """'Open - MDR investigation |  | CAPA-2026-006' once whitespace is collapsed reads '… | | …': the empty Date closed
    cell stays a cell, so CAPA-2026-006 stays under CAPA (it was shown as '\\| CAPA-2026-006' under Date closed)."""
    from shelfwise.api.answer.render import _table
    from shelfwise.api.terms import table_cells

    assert table_cells("CMP-16 | Open - MDR investigation | | CAPA-2026-006 | ") == ["CMP-16", "Open - MDR investigation", "", "CAPA-2026-006", ""]
    header = Unit(id="u1", kind="table_header", text="Complaint ID | Status | Date closed | CAPA | Note", obligation=0, group="t")
    row = Unit(id="u2", kind="table_row", text="CMP-16 | Open - MDR investigation | | CAPA-2026-006 |", citations=["s1"], obligation=0, group="t")
    lines = _table([header, row]).splitlines()
    assert lines[2].startswith("| CMP-16 | Open - MDR investigation |  | CAPA-2026-006 |") and "\\|" not in lines[2]


def test_the_best_sentences_lend_their_words_to_the_rest():
    """Pseudo-relevance feedback: the words the best-matching sentences share ('expanded', 'substituted') lift a sentence
    that says the rest of the answer in the document's own words over one that merely repeats a question word."""
    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.rank import expansion_terms, obligation_query, score_units
    from shelfwise.api.answer.write.write import section_units

    shelf = _memory_shelf({"make": ("GNU Make", "make.pdf", [("6.2 The Two Flavors of Variables", [
        _p("A recursively expanded variable is defined with the equals operator."),
        _p("With the equals operator its references are expanded whenever the variable is substituted."),
        _p("The value is installed verbatim and references are expanded whenever this variable is substituted."),
        _p("A variable name may contain letters, digits and underscores."),
    ])])})
    plan = plan_by_rules("What does the equals operator do to a variable?", [], {"make": "GNU Make"}, [], [], [])
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units)
    query = obligation_query(plan.obligations[0], pool, set())
    ((_, scored),) = score_units(plan, pool)
    feedback = expansion_terms(query, pool, scored)
    assert {"expand", "substitut"} <= feedback.keys() and not feedback.keys() & query.keys()
    order = [pool.units[i].text for _, _, _, i in scored]
    assert order.index("The value is installed verbatim and references are expanded whenever this variable is substituted.") < \
        order.index("A variable name may contain letters, digits and underscores.")


def test_a_results_table_read_as_text_is_not_an_explanation():
    """A PDF's results table comes out as lines of figures ('Adaptive Retrieval 15.60 25.60 20.00 0.50 ...'): for a
    'how does it choose' question the sentence that explains ranks first; for a numeric question the figures still count."""
    shelf = _memory_shelf({"paper": ("Adaptive-RAG", "adaptive.pdf", [("3 Method", [
        _p("Adaptive Retrieval 15.60 25.60 20.00 0.50 Single-step 1.60 11.90 20.80 0.59 Multi-step 8.40 17.80 10.20"),
        _p("A classifier predicts how complex each query is, and the retrieval strategy follows from that prediction."),
    ])])})
    _, draft = _write(shelf, "How does Adaptive Retrieval choose a single-step or multi-step retrieval strategy for a query?")
    sentences = sorted((u for u in draft.units if u.kind == "sentence"), key=lambda u: -u.score)
    assert sentences[0].text.startswith("A classifier predicts"), [u.text for u in sentences]


def test_the_rows_of_a_named_documents_table_whose_header_matches_are_the_answer():
    """'Which revision of SOP-014 is current, and what changed from the revision before it?': the revision table's
    header says 'Revision | Summary of change'; its rows say what changed in the document's own words (no word of the
    question): they are shown, and the header is never shown alone."""
    from shelfwise.compiler.store.records import Block

    table = Block(kind="table", text="Revision | Effective date | Summary of change\nE | 2025-03-14 | Closure within 45 calendar days.\n"
                                     "F | 2026-02-01 | Closure within 30 calendar days to match QM-001 Rev D.", header_rows=1)
    shelf = _memory_shelf({"sop-014": ("SOP-014 Complaint Handling", "sop-014.md", [
        ("Revision history", [table]), ("1 Purpose", [_p("This procedure covers complaint handling for all pumps.")])])})
    _, draft = _write(shelf, "Which revision of SOP-014 is current, and what changed from the revision before it?")
    rows = [u.text for u in draft.units if u.kind == "table_row"]
    assert any(r.startswith("F | 2026-02-01") for r in rows), [(u.kind, u.text) for u in draft.units]
    assert all(any(r.group == h.group for r in draft.units if r.kind == "table_row") for h in draft.units if h.kind == "table_header")


def test_the_sentence_that_means_the_ask_outranks_one_that_only_shares_its_words():
    """Word overlap puts 'The client sends the authorization code it was issued ...' (client, code, issued, valid) first;
    the embedder, which places the ask and the 10-minute sentence together, lifts the sentence that answers. (An
    embedder that says so by construction: the ranking's arithmetic is what is tested; the evals run all-MiniLM-L6-v2.)"""
    import types

    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.rank import score_units
    from shelfwise.api.answer.write.semantic import semantic_rerank
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.compiler.index.embedders import Embedder

    class Meaning(Embedder):
        model_id, dimensions = "test:meaning", 2

        def embed_batch(self, texts):
            return [[1.0, 0.0] if ("10 minutes" in t or t.startswith("How long")) else [0.0, 1.0] for t in texts]

    shelf = _memory_shelf({"rfc": ("OAuth 2.0", "rfc6749.txt", [("4.1.2 Authorization Response", [
        _p("The client sends the authorization code it was issued to the token endpoint, where the code is checked as valid."),
        _p("A maximum lifetime of 10 minutes is recommended for these codes, after which they expire."),
    ])])})
    embedder = Meaning()
    shelf.searcher = types.SimpleNamespace(embedder=embedder, query_vector=lambda text: embedder.embed_batch([text])[0])
    plan = plan_by_rules("How long is an authorization code valid once it is issued?", [], {"rfc": "OAuth 2.0"}, [], [], [])
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units)
    ((_, scored),) = score_units(plan, pool)
    assert "10 minutes" not in pool.units[scored[0][3]].text  # the words alone put the other first
    reranked = semantic_rerank(plan.obligations[0].ask, pool, scored, {"mem": shelf})
    assert "10 minutes" in pool.units[reranked[0][3]].text
    shelf.searcher = None  # no embedder: the words' order stands
    assert semantic_rerank(plan.obligations[0].ask, pool, scored, {"mem": shelf}) == scored


def test_the_semantic_window_counts_a_sentence_once_however_often_the_reading_holds_it():
    """A filer signs the same certification twice (two sections, one text): with a window of two units the two copies
    filled it and the 10-minute sentence a place below was left to its word score; the window counts texts, so the
    copies take one place and the sentence that answers is reranked too, and comes first."""
    import types

    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.rank import score_units
    from shelfwise.api.answer.write.semantic import semantic_rerank
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.compiler.index.embedders import Embedder
    from shelfwise.compiler.tuning import DEFAULT_TUNING

    class Meaning(Embedder):
        model_id, dimensions = "test:meaning", 2

        def embed_batch(self, texts):
            return [[1.0, 0.0] if ("10 minutes" in t or t.startswith("How long")) else [0.0, 1.0] for t in texts]

    signed = "The client sends the authorization code it was issued to the token endpoint, where the code is checked as valid."
    shelf = _memory_shelf({"rfc": ("OAuth 2.0", "rfc6749.txt", [
        ("Certification of the chief officer", [_p(signed)]),
        ("Certification of the finance officer", [_p(signed)]),
        ("4.1.2 Authorization Response", [_p("A maximum lifetime of 10 minutes is recommended for these codes, after which they expire.")]),
    ])})
    embedder = Meaning()
    shelf.searcher = types.SimpleNamespace(embedder=embedder, query_vector=lambda text: embedder.embed_batch([text])[0])
    plan = plan_by_rules("How long is an authorization code valid once it is issued?", [], {"rfc": "OAuth 2.0"}, [], [], [])
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units, DEFAULT_TUNING.model_copy(update={"semantic_top": 2}))
    ((_, scored),) = score_units(plan, pool)
    assert [pool.units[i].text for *_, i in scored[:2]] == [signed, signed]  # the words alone put both copies first
    reranked = semantic_rerank(plan.obligations[0].ask, pool, scored, {"mem": shelf})
    assert "10 minutes" in pool.units[reranked[0][3]].text


def test_a_bullet_glyph_left_by_a_converter_is_not_shown_twice():
    """A PDF list item read as '• We propose propositions ...' is rendered as a list item: its own glyph goes, so the
    answer shows '- We propose ...', not '- • We propose ...'; the quote stays a substring of the cited text."""
    from shelfwise.compiler.store.store import Block

    shelf = _memory_shelf({"paper": ("Dense X Retrieval", "densex.pdf", [("1 Introduction", [
        Block(kind="list_item", text="\u2022 We propose propositions as retrieval units for dense retrieval."),
        Block(kind="list_item", text="\u2022 We release FactoidWiki, an index of propositions.")])])})
    _, draft = _write(shelf, "What retrieval units do they propose?")
    items = [u.text for u in draft.units if u.kind in ("list_item", "step")]
    assert "We propose propositions as retrieval units for dense retrieval." in items
    assert not any(t.startswith("\u2022") for t in items)


def test_a_procedure_continued_in_another_document_is_shown_in_step_order():
    """SOP-014 holds steps 1-6 and WI-022 steps 7-12: however the two rank, steps 1-6 come first and 7-12 right after
    them; a separate 1-4 overview (TRN-031) does not cut between them; other blocks keep their places."""
    from shelfwise.api.answer.show.shape import most_relevant_first

    def steps(doc: str, numbers, score: float) -> list[Unit]:
        return [Unit(id=f"{doc}{n}", kind="step", text=f"{n}. Do step {n} of {doc}.", citations=[f"s-{doc}"], obligation=0,
                     group=f"s-{doc}:list", score=score) for n in numbers]

    rule = Unit(id="r", kind="sentence", text="Complaints are closed within 30 days.", citations=["s-qm"], obligation=0, score=0.5)
    units = [*steps("wi", range(7, 13), 0.9), *steps("trn", range(1, 5), 0.8), *steps("sop", range(1, 7), 0.7), rule]
    shown = [u.id for u in most_relevant_first(units)]
    assert shown == [*(f"sop{n}" for n in range(1, 7)), *(f"wi{n}" for n in range(7, 13)), *(f"trn{n}" for n in range(1, 5)), "r"]


def test_a_cell_holding_a_bar_or_nothing_keeps_its_column_from_the_writer_to_the_table():
    """A row's cells come from the stored rows, never from splitting its text again: the cell 'int | str' stays one cell
    (one claim, one column, its bar escaped) and the empty Default cell stays a cell, through writer, gate and table."""
    from shelfwise.api.answer.claims import claims_of
    from shelfwise.api.answer.check.gate import gate
    from shelfwise.api.answer.render import _table
    from shelfwise.compiler.store.records import Block, table_text

    rows = [["Function", "Accepts", "Default", "Since"], ["parse_value", "int | str", "", "2.1"], ["dump_value", "bytes", "None", "2.0"]]
    shelf = _memory_shelf({"api": ("API reference", "api.md", [("Functions", [Block(kind="table", text=table_text(rows), rows=rows, header_rows=1)])])})
    _, draft = _write(shelf, "Which types does parse_value accept?")
    header = next(u for u in draft.units if u.kind == "table_header")
    row = next(u for u in draft.units if u.kind == "table_row" and u.text.startswith("parse_value"))
    assert header.cells == rows[0] and row.cells == ["parse_value", "int | str", "", "2.1"]
    assert row.text == "parse_value | int | str | | 2.1"  # the text is as before: what is quoted and checked
    draft = draft.model_copy(update={"units": [u.model_copy(update={"status": "unconfirmed"}) for u in draft.units]})
    assert [(c.cell, c.text) for c in claims_of(draft) if c.unit_id == row.id] == [(0, "parse_value"), (1, "int | str"), (3, "2.1")]
    gated = gate(draft.model_copy(update={"units": [u.model_copy(update={"status": "supports"}) for u in draft.units]}))
    shown = [u for u in gated.shown if u.group == header.group]
    lines = _table(shown).splitlines()
    assert lines[0] == "| Function | Accepts | Default | Since | Source |"
    assert lines[2].startswith("| parse_value | int \\| str |  | 2.1 | ")


def test_a_failed_cell_is_blanked_in_the_cells_a_row_carries():
    """The gate blanks a cell the checker did not confirm in the row's cells and its text alike; the rest keep their columns."""
    from shelfwise.api.answer.claims import claims_of
    from shelfwise.api.answer.records import Draft
    from shelfwise.api.answer.check.gate import gate

    header = Unit(id="u1", kind="table_header", text="Function | Accepts | Since", cells=["Function", "Accepts", "Since"],
                  citations=["s1"], obligation=0, group="t", status="verbatim")
    row = Unit(id="u2", kind="table_row", text="parse_value | int | str | 2.1", cells=["parse_value", "int | str", "2.1"],
               citations=["s1"], obligation=0, group="t", status="unconfirmed")
    draft = Draft(writer="test", units=[header, row])
    claims = claims_of(draft)
    assert [c.text for c in claims] == ["parse_value", "int | str", "2.1"]
    for claim in claims:
        claim.verdict = "not_found" if claim.cell == 2 else "supports"
    gated = gate(draft.model_copy(update={"claims": claims}))
    shown = next(u for u in gated.shown if u.id == "u2")
    assert shown.cells == ["parse_value", "int | str", ""] and shown.text == "parse_value | int | str | "


def test_a_model_written_table_row_carries_the_cells_it_was_written_with():
    from shelfwise.api.answer.claims import parse_answer

    units, _ = parse_answer("| Function | Accepts |\n|---|---|\n| parse_value | int \\| str [s0123456789a] |\n", shelf="mem")
    assert [u.cells for u in units] == [["Function", "Accepts"], ["parse_value", "int \\| str"]]
    assert units[1].text == "parse_value | int \\| str" and units[1].citations == ["s0123456789a"]


def test_a_captions_sentences_after_its_title_are_sentences():
    """A paper's figure caption states findings ("In NQ, we find that training with 4 documents leads to the best
    performance"), and a converter may take the prose under a figure for its caption ("Figure 8. After filtering, 42,857
    pairs were used ..."). The caption's first sentence is the figure's title; each sentence after it is a sentence of its
    own, ranked as any other: as one long unit it only ever came beside its section's sentences, at no score, and gave way
    first."""
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.compiler.store.records import Block

    caption = ("Figure 8. After filtering, 42,857 pairs were used to fine-tune a Flan-T5-Large model. We named the model "
               "Propositionizer. The AdamW optimizer was used with a batch size of 64 and a learning rate of 1e-4.")
    shelf = _memory_shelf({"densex": ("Dense X Retrieval", "dense-x.pdf", [("B Training the Propositionizer", [
        _p("We prompt GPT-4 with an instruction containing the proposition definition and 1-shot demonstrations."),
        Block(kind="figure", text=caption),
        _p("The development set is used to compare models of different sizes."),
    ])])})
    units = section_units(shelf, next(iter(shelf.sections)))
    assert [(u.kind, u.text) for u in units[1:4]] == [  # a bare label and the sentence after it are one title
        ("figure", "Figure 8. After filtering, 42,857 pairs were used to fine-tune a Flan-T5-Large model."),
        ("sentence", "We named the model Propositionizer."),
        ("sentence", "The AdamW optimizer was used with a batch size of 64 and a learning rate of 1e-4.")]
    _, draft = _write(shelf, "Which optimizer, batch size and learning rate trained the Propositionizer?")
    texts = [u.text for u in draft.units if u.kind == "sentence"]
    assert texts and texts[0] == "The AdamW optimizer was used with a batch size of 64 and a learning rate of 1e-4.", texts
    one = _memory_shelf({"raft": ("RAFT", "raft.pdf", [("4.6 Test-time documents", [
        Block(kind="figure", text="Figure 6: Test-Time Documents Varying: we study how robust RAFT is to the number of documents.")])])})
    assert [u.kind for u in section_units(one, next(iter(one.sections)))] == ["figure"]  # a one-sentence caption is its title
    titled = _memory_shelf({"hipaa": ("HIPAA", "sp800-66.pdf", [("3 Risk management", [
        Block(kind="figure", text="Figure 2. NIST Risk Management Framework")])])})
    assert [(u.kind, u.text) for u in section_units(titled, next(iter(titled.sections)))] == [
        ("figure", "Figure 2. NIST Risk Management Framework")]  # not a label and a sentence of its title


def _paper(title: str, path: str, caption: str, rows: list[list[str]], page_of_table: int = 6):
    from shelfwise.compiler.store.records import Block

    return (title, path, [("4 Experiments", [
        Block(kind="paragraph", text="We compare the approaches on six datasets with three language models.", page=5),
        Block(kind="paragraph", text=caption, page=6),
        Block(kind="paragraph", text="Types Methods EM F1 Step Time", page=6),  # a header the reader could not read as cells
        Block(kind="table", text="\n".join(" | ".join(r) for r in rows), rows=rows, page=page_of_table),
        Block(kind="paragraph", text="Retrieval always helps on multi-hop questions, at a cost in time.", page=6),
    ])])


ROWS = [["Simple", "No Retrieval", "14.87", "21.12", "0.00", "0.11"], ["Adaptive", "Adaptive-RAG (Ours)", "37.17", "46.94", "2.17", "3.60"],
        ["Complex", "Multi-step Approach", "39.00", "48.85", "4.69", "8.81"]]


def test_a_table_named_by_its_number_is_shown_with_its_caption():
    """'What does its Table 1 show about cost ...' asks for that table, whatever words its caption shares with the
    question: the caption ("Table 1: Averaged results ...") is picked for the part at the strongest score and brings its
    table's rows, though the PDF reader set the header lines it could not read as cells between them. Each paper of a
    shelf has a Table 1: the one of the document the part is answered from. A caption's table is on its page."""
    from shelfwise.api.answer.write.tables import caption_label, named_labels

    assert caption_label("Table 1: Averaged results on a collection of benchmark datasets.") == ("table", "1")
    assert caption_label("Fig. 3. The tree.") == ("figure", "3") and caption_label("Table 1 shows the results.") is None
    assert named_labels("what does its Table 1 show, and figure 6-2?") == {("table", "1"), ("figure", "6-2")}
    shelf = _memory_shelf({
        "adaptive": _paper("Adaptive-RAG", "adaptive-rag.pdf", "Table 1: Averaged results on a collection of benchmark datasets "
                           "with different LLMs. We emphasize our results in bold.", ROWS),
        "raft": _paper("RAFT", "raft.pdf", "Table 1: RAFT improves RAG performance for all specialized domains.",
                       [["PubMed", "RAFT-7B", "73.30"], ["HotpotQA", "RAFT-7B", "35.28"]]),
    })
    question = "How does Adaptive-RAG pick a strategy, and what does its Table 1 show about cost versus the multi-step approach?"
    _, draft = _write(shelf, question)
    texts = [u.text for u in draft.units]
    caption = next(u for u in draft.units if u.text.startswith("Table 1: Averaged results"))
    rows = [u for u in draft.units if u.kind == "table_row" and u.citations == caption.citations]
    assert any("Adaptive-RAG (Ours) | 37.17" in u.text for u in rows) and any("Multi-step Approach | 39.00" in u.text for u in rows), texts
    assert caption.score == max(u.score for u in draft.units), [(u.text[:30], u.score) for u in draft.units]
    assert all(u.score < caption.score for u in draft.units if u.text.startswith("Table 1: RAFT") or "RAFT-7B" in u.text), texts
    elsewhere = _memory_shelf({"adaptive": _paper("Adaptive-RAG", "adaptive-rag.pdf", "Table 1: Averaged results with different LLMs.",
                                                  ROWS, page_of_table=7)})
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.compiler.store.records import Block

    raft = _memory_shelf({"raft": ("RAFT", "raft.pdf", [("5 Generalization to top-k RAG", [
        _p("We study how the number of distractor documents at training time affects the model."),
        Block(kind="figure", text="Figure 6: Test-Time Documents Varying: we study how robust RAFT is to varying numbers of "
                                  "test-time documents. In NQ, we find that training with 4 documents leads to the best performance."),
        _p("RAFT consistently outperforms supervised fine-tuning with and without retrieval.")])])})
    _, draft = _write(raft, "What does Figure 6 of the RAFT paper show?")
    top = max(u.score for u in draft.units)
    assert [(u.kind, u.score == top) for u in draft.units if u.text.startswith(("Figure 6:", "In NQ"))] == [("figure", True), ("sentence", False)]

    for paper, table in ((shelf, 2), (elsewhere, 0)):  # its first row is read as its header
        pool = build_pool(_reading(paper), {"mem": paper}, section_units)
        index = next(i for i, u in enumerate(pool.units) if u.text.startswith("Table 1: Averaged"))
        assert len(pool.tables.get(index, [])) == table, "the caption's table is the one on its page"


def test_a_table_whose_text_is_not_its_rows_is_known_by_its_text():
    """An RST field list is a table whose text reads 'PEP: 483', not its rows joined: its units carry no cells, so the
    row is shown and checked as the text reads (split by ``table_cells``), as before."""
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.api.terms import unit_cells
    from shelfwise.compiler.store.records import Block

    rows = [["PEP", "483"], ["Title", "The Theory of Type Hints"]]
    shelf = _memory_shelf({"pep": ("PEP 483", "pep-0483.rst", [("Header", [Block(kind="table", text="PEP: 483\nTitle: The Theory of Type Hints", rows=rows)])])})
    units = section_units(shelf, next(iter(shelf.sections)))
    assert [(u.kind, u.text, u.cells) for u in units] == [("table_header", "PEP: 483", ()), ("table_row", "Title: The Theory of Type Hints", ())]
    assert unit_cells(Unit(id="u1", kind="table_row", text=units[1].text, obligation=0)) == ["Title: The Theory of Type Hints"]


def test_a_sentence_that_points_back_brings_the_sentence_it_points_to():
    """'We expect to fund this acquisition with cash on hand.' answers an acquisitions question only with the sentence
    before it, which says which acquisition and for how much; 'this License' names its own document and brings nothing."""
    shelf = _memory_shelf({"10q": ("ACME 10-Q", "acme.pdf", [("Acquisitions", [
        _p("Net sales rose in every segment during the quarter. In August 2022, we entered into an agreement to acquire "
           "Widget Robotics for approximately $1.7 billion, including its debt. We expect to fund this acquisition with cash "
           "on hand, and we expect it to close in the next fiscal year."),
    ])])})
    _, draft = _write(shelf, "Did ACME announce any acquisition it expects to fund with cash on hand?")
    texts = [u.text for u in draft.units if u.kind == "sentence"]
    assert any(t.startswith("We expect to fund this acquisition") for t in texts), texts
    assert any("Widget Robotics for approximately $1.7 billion" in t for t in texts), texts
    from shelfwise.api.answer.write.beside import _POINTS_BACK

    assert _POINTS_BACK.search("We expect to fund this acquisition with cash on hand.")
    assert not _POINTS_BACK.search("This License applies to any work.") and not _POINTS_BACK.search("Under this PEP, a type is")


def test_a_paragraph_a_page_break_cut_mid_sentence_is_read_whole():
    """A PDF page or column break leaves "... these automatically-" and "collected query-complexity pairs ..." as two
    paragraphs; the answer quotes the whole sentence (verbatim: the two blocks are adjacent), never the cut half. A list
    mark after a clause ("b) Requiring ...") and a finished sentence keep their paragraphs apart."""
    from shelfwise.api.answer.write.write import section_units

    shelf = _memory_shelf({"adaptive": ("Adaptive-RAG", "adaptive.pdf", [("3.2 Training Strategy", [
        _p("Unlabeled queries get the label of their dataset. Finally, we train the classifier with these automatically-"),
        _p("collected query-complexity pairs, by using a cross-entropy loss."),
        _p("Additional terms may include: a) Disclaiming warranty; or"),
        _p("b) Requiring preservation of notices."),
        _p("The classifier is a T5-Large model."),
        _p("it runs before retrieval.")])])})
    sid = next(iter(shelf.sections))
    texts = [u.text for u in section_units(shelf, sid)]
    assert "Finally, we train the classifier with these automatically- collected query-complexity pairs, by using a cross-entropy loss." in texts
    assert not any(t.startswith("collected") for t in texts)
    assert "b) Requiring preservation of notices." in texts and "The classifier is a T5-Large model." in texts
    assert "it runs before retrieval." in texts
    _, draft = _write(shelf, "How is the classifier trained?")
    assert any(u.text.endswith("automatically- collected query-complexity pairs, by using a cross-entropy loss.") for u in draft.units)


def test_a_table_of_contents_line_is_no_sentence():
    """SP 800-63B's Markdown table of contents: paragraphs that are one link each, cut at their numbers, were quoted as
    the sentence "Authenticator and Verifier Requirements](#sec5)". A paragraph that is only a link opens no unit; a
    sentence holding a link stays."""
    from shelfwise.api.answer.write.write import section_units

    shelf = _memory_shelf({"63b": ("NIST Special Publication 800-63B", "sec0.md", [("Table of Contents", [
        _p("[4. Authenticator Assurance Levels](#sec4)"),
        _p("[5. Authenticator and Verifier Requirements](#sec5)"),
        _p("Requirements for each authenticator type are in [Section 5](#sec5).")])])})
    texts = [u.text for u in section_units(shelf, next(iter(shelf.sections)))]
    assert texts == ["Requirements for each authenticator type are in [Section 5](#sec5)."], texts


def _repurchases():
    """A 10-Q's repurchase section as the filings write it: a sentence announcing the table, the table (a label row per
    period, then its figures), then the text on the programme."""
    from shelfwise.compiler.store.records import Block, table_text

    rows = [["Periods", "Total Number of Shares Purchased", "Average Price Paid Per Share"],
            ["April 2, 2023 to May 6, 2023:", "", ""],
            ["Open market and privately negotiated purchases", "34,633", "$ 169.40"],
            ["May 7, 2023 to July 1, 2023:", "", ""],
            ["Open market and privately negotiated purchases", "68,040", "$ 180.12"],
            ["Total", "102,673", ""]]
    return _memory_shelf({"10q": ("ACME 10-Q", "acme.pdf", [("Purchases of Equity Securities", [
        _p("Share repurchase activity during the three months ended July 1, 2023 was as follows (in millions, except number "
           "of shares, which are reflected in thousands, and per share amounts):"),
        Block(kind="table", text=table_text(rows), rows=rows, header_rows=1),
        _p("The Company's share repurchase programs do not obligate the Company to acquire a minimum amount of shares."),
    ])])})


def test_a_sentence_that_announces_a_table_brings_the_tables_rows():
    """'Share repurchase activity ... was as follows (in millions ...):' announces figures it does not give: the rows of
    the table right after it come with it (the asked words are only in the sentence, none in the rows), under the
    table's header."""
    _, draft = _write(_repurchases(), "Did ACME report any share repurchase activity, and what was the scale of these buybacks?")
    texts = [u.text for u in draft.units]
    assert any(t.startswith("Share repurchase activity during the three months") for t in texts), texts
    assert "Total | 102,673 |" in texts and "Open market and privately negotiated purchases | 68,040 | $ 180.12" in texts, texts
    assert any(u.kind == "table_header" for u in draft.units)


def test_a_rows_label_is_read_without_its_notes_number_or_trade_mark():
    """'iPhone® (1)' and 'Total net sales (4)' label the rows a question names as 'iPhone' and 'total net sales'."""
    from shelfwise.api.answer.write.unit_shape import value_match

    iphone = Unit(id="u1", kind="table_row", text="iPhone ® (1) | $ 39,669 | $ 40,665", cells=["iPhone ® (1)", "$ 39,669", "$ 40,665"], obligation=0)
    total = Unit(id="u2", kind="table_row", text="Total net sales (4) | $ 81,797", cells=["Total net sales (4)", "$ 81,797"], obligation=0)
    assert value_match("How has Apple's revenue from iPhone sales fluctuated across quarters", iphone, label_only=True)
    assert value_match("How have Apple's total net sales changed over time", total, label_only=True)
    assert not value_match("How have Apple's services net sales changed", total, label_only=True)


def test_a_row_comes_with_the_label_row_it_stands_under_and_a_label_row_is_never_shown_alone():
    """The segment table of a 10-Q: 'Net sales | 20,538 | 23,059' means AWS's net sales only under its label row 'AWS'.
    A question naming AWS's net sales gets the row with its label (the header too); a label row holds no figure and is
    never an answer alone, and the size limit keeps or drops it with its rows."""
    from shelfwise.api.answer.show.shape import fit_units
    from shelfwise.api.answer.write.unit_shape import label_row
    from shelfwise.compiler.store.records import Block, table_text

    rows = [["", "Q3 2022", "Q3 2023"], ["North America", "", ""], ["Net sales", "$ 78,843", "$ 87,887"],
            ["Operating income", "412", "4,307"], ["AWS", "", ""], ["Net sales", "$ 20,538", "$ 23,059"],
            ["Operating income", "5,403", "6,976"]]
    shelf = _memory_shelf({"10q": ("ACME 10-Q", "acme.pdf", [("Segment Information", [
        _p("We have organized our operations into two segments: North America and AWS."),
        Block(kind="table", text=table_text(rows), rows=rows, header_rows=1)])])})
    _, draft = _write(shelf, "What were the AWS segment's net sales in Q3 2023?")
    texts = [u.text for u in draft.units if u.kind == "table_row"]
    assert "Net sales | $ 20,538 | $ 23,059" in texts and "AWS | |" in texts, texts
    assert texts.index("AWS | |") < texts.index("Net sales | $ 20,538 | $ 23,059")
    assert not any(label_row(u) for u in draft.units if u.kind == "table_row" and not
                   any(r.group == u.group and r.kind == "table_row" and not label_row(r) for r in draft.units))
    label = next(u for u in draft.units if u.text == "AWS | |")
    row = next(u for u in draft.units if u.text == "Net sales | $ 20,538 | $ 23,059")
    sentence = Unit(id="s", kind="sentence", text="We have organized our operations into two segments: North America and AWS.",
                    citations=["s1"], obligation=0, score=0.9)
    units = [sentence, label.model_copy(update={"score": 0.3}), row.model_copy(update={"score": 0.1})]
    fitted = {limit: [u.id for u in fit_units(units, limit, True)[0]] for limit in range(100, 1000, 5)}
    assert ["s"] in fitted.values() and [sentence.id, label.id, row.id] in fitted.values()
    assert not [limit for limit, kept in fitted.items() if label.id in kept and row.id not in kept]
    assert [u.id for u in fit_units([sentence, label], 4000, True)[0]] == ["s"]  # room to spare: alone, it still states nothing


def test_each_quarters_table_shows_its_own_label_rows():
    """Two quarters' segment tables both label their rows "North America" and "AWS". The label rows were one statement
    to the writer and to the show stage (the same words), so only the first table kept them and the second showed "Net
    sales | $ 87,887 ..." four times, no segment said. Each table now shows its own; a label row whose rows are all gone
    (right before another label) is not shown."""
    from shelfwise.api.answer.show.shape import _with_their_rows, distinct
    from shelfwise.compiler.store.records import Block, table_text

    def segments(q: str, na: str, aws: str):
        rows = [["", f"{q} 2022", f"{q} 2023"], ["North America", "", ""], ["Net sales", "$ 70,000", na],
                ["AWS", "", ""], ["Net sales", "$ 20,000", aws]]
        return (f"ACME 10-Q {q}", f"acme-{q.lower()}.pdf", [("Segment Information", [
            _p("Segment net sales were as follows (in millions):"), Block(kind="table", text=table_text(rows), rows=rows, header_rows=1)])])

    shelf = _memory_shelf({"q2": segments("Q2", "$ 82,546", "$ 22,140"), "q3": segments("Q3", "$ 87,887", "$ 23,059")})
    _, draft = _write(shelf, "What were the segments' net sales in each quarter?")
    kept, _ = distinct(draft.units)
    for group in {u.group for u in kept if u.kind == "table_row"}:
        texts = [u.text for u in kept if u.group == group and u.kind == "table_row"]
        assert [t.split(" |")[0] for t in texts] == ["North America", "Net sales", "AWS", "Net sales"], texts
    label = next(u for u in kept if u.text == "AWS | |")
    rows = [u for u in kept if u.group == label.group and u.kind == "table_row"]
    assert label not in _with_their_rows([rows[0], rows[1], label])  # "AWS" with no row of its own under it
    assert [u.text for u in _with_their_rows(rows)] == [u.text for u in rows]


def test_a_table_under_its_documents_name_cites_each_row_without_naming_the_document_again():
    """The line above the table names the document; each row's Source cell gives its section only (the room goes to rows)."""
    from shelfwise.api.answer.render import _blocks

    header = Unit(id="u1", kind="table_header", text="Segment | Q3 2023", cells=["Segment", "Q3 2023"], citations=["s1"], obligation=0,
                  group="t", source="ACME 10-Q, quarter ended July 1, 2023")
    row = Unit(id="u2", kind="table_row", text="AWS | 23,059", cells=["AWS", "23,059"], citations=["s1"], obligation=0, group="t",
               source="ACME 10-Q, quarter ended July 1, 2023")
    block = _blocks([header, row])[0]
    assert block.splitlines()[0] == "**ACME 10-Q, quarter ended July 1, 2023:**"
    assert block.splitlines()[-1] == "| AWS | 23,059 | [s1] |"
    assert _blocks([header, row], split_by_source=False)[0].splitlines()[-1] == "| AWS | 23,059 | ACME 10-Q, quarter ended July 1, 2023 [s1] |"


def test_a_step_with_a_lettered_mark_of_its_own_keeps_it_and_gets_no_number():
    """Steps of two articles in a row ("1. Where processing is based on consent ...", then Article 6(1)'s "(a) the data
    subject has given consent ..."): a point with a mark of its own keeps it, as a bullet; numbered as the run's second
    step, it read "2. (a) ...", a paragraph 2 no article has."""
    from shelfwise.api.answer.render import _blocks

    def step(uid: str, text: str, section: str) -> Unit:
        return Unit(id=uid, kind="step", text=text, citations=[section], obligation=0, group=section, source="GDPR")

    lines = _blocks([step("u1", "1. Where processing is based on consent, the controller shall be able to demonstrate it.", "s7"),
                     step("u2", "(a) the data subject has given consent to the processing;", "s6"),
                     step("u3", "Record the consent.", "s9")])[0].splitlines()
    assert lines[1:] == ["1. Where processing is based on consent, the controller shall be able to demonstrate it. [s7]",
                         "- (a) the data subject has given consent to the processing; [s6]", "3. Record the consent. [s9]"]


def test_one_documents_quotes_in_a_row_are_named_once():
    """Quotes from three sections of one filing, then one of another filing, then the first again: the name opens the
    first block of each run only (the size limit counts the answer's Markdown, so a repeated name takes a quote's
    room); a table of the same document in the run keeps its rows' Source cells short."""
    from shelfwise.api.answer.render import _blocks

    q3, q2 = "ACME 10-Q, quarter ended July 1, 2023", "ACME 10-Q, quarter ended April 1, 2023"
    said = [Unit(id=f"u{n}", kind="sentence", text=f"Fact {n}.", citations=[f"s{n}"], obligation=0, source=source)
            for n, source in enumerate([q3, q3, q3, q2, q3])]
    header = Unit(id="h", kind="table_header", text="Segment | Q3 2023", cells=["Segment", "Q3 2023"], citations=["s9"],
                  obligation=0, group="t", source=q3)
    row = Unit(id="r", kind="table_row", text="AWS | 23,059", cells=["AWS", "23,059"], citations=["s9"], obligation=0,
               group="t", source=q3)
    blocks = _blocks([*said[:2], header, row, *said[2:]])
    assert blocks == [f"**{q3}:** Fact 0. [s0]", "Fact 1. [s1]", "| Segment | Q3 2023 | Source |\n| --- | --- | --- |\n| AWS | 23,059 | [s9] |",
                      "Fact 2. [s2]", f"**{q2}:** Fact 3. [s3]", f"**{q3}:** Fact 4. [s4]"]


def test_an_abbreviation_joined_by_an_ampersand_is_read_as_the_documents_spell_it():
    """'R&D' has no letters the ranking reads as a word; the filing spells it out once ('research and development
    (“R&D”) expense'), and its statement's row says 'Research and development': the row answers 'What was ACME's R&D
    expenditure?'."""
    from shelfwise.api.answer.write.definitions import spelled_out
    from shelfwise.compiler.store.records import Block, table_text

    rows = [["", "Three Months Ended July 1, 2023", "Three Months Ended June 25, 2022"],
            ["Research and development", "$ 7,442", "$ 6,797"], ["Selling, general and administrative", "6,224", "6,012"]]
    shelf = _memory_shelf({"10q": ("ACME 10-Q", "acme.pdf", [
        ("Operating Expenses", [Block(kind="table", text=table_text(rows), rows=rows, header_rows=1),
                                _p("The growth in research and development (\u201cR&D\u201d) expense during the third quarter of 2023 "
                                   "was driven primarily by increases in headcount-related expenses.")]),
        ("Liquidity", [_p("The Company believes its balances of cash will be sufficient to satisfy its cash requirements.")])])})
    _, draft = _write(shelf, "What was ACME's R&D expenditure in the quarter?")
    assert "Research and development | $ 7,442 | $ 6,797" in [u.text for u in draft.units], [u.text for u in draft.units]
    assert spelled_out("How do M&A and R&D compare?", ["Our mergers and acquisitions (\"M&A\") activity.", "No R&D here."]) == [
        "mergers and acquisitions"]


def _statement(order_older_first: bool = True):
    """A 10-Q's segment table as one filer writes it: the year before first, then the quarter the filing reports (the
    filing's identity: quarter ended September 30, 2023), three months before nine."""
    from shelfwise.compiler.store.records import Block, DocumentIdentity, table_text

    rows = [["", "Three Months Ended September 30, 2022", "Three Months Ended September 30, 2023",
             "Nine Months Ended September 30, 2022", "Nine Months Ended September 30, 2023"],
            ["North America", "", "", "", ""],
            ["Net sales", "$ 78,843", "$ 87,887", "$ 222,517", "$ 247,314"],
            ["Operating expenses", "79,255", "83,580", "225,124", "238,898"],
            ["Operating income (loss)", "$ (412)", "$ 4,307", "$ (2,607)", "$ 8,416"],
            ["AWS", "", "", "", ""],
            ["Net sales", "$ 20,538", "$ 23,059", "$ 58,718", "$ 66,553"],
            ["Operating expenses", "15,135", "16,083", "41,082", "49,089"],
            ["Operating income", "$ 5,403", "$ 6,976", "$ 17,636", "$ 17,464"]]
    shelf = _memory_shelf({"10q": ("ACME 10-Q", "acme-2023-q3.pdf", [("Segment Information", [
        _p("Information on reportable segments and reconciliation to consolidated net income is as follows (in millions):"),
        Block(kind="table", text=table_text(rows), rows=rows, header_rows=1)])])})
    shelf.identities = {"10q": DocumentIdentity(doc_id="10q", name="ACME 10-Q, quarter ended September 30, 2023", title="ACME 10-Q", issuer="ACME",
                                                form="10-Q", period="quarter ended September 30, 2023", period_kind="quarter",
                                                period_end="2023-09-30", fiscal_quarter="Q3 2023")}
    return shelf


def _shown_table(shelf, question):
    from shelfwise.api.answer.render import _blocks

    _, draft = _write(shelf, question)
    units = [u for u in draft.units if u.kind in ("table_header", "table_row")]
    return draft, _blocks(units)[0].splitlines()


def test_a_statement_row_shows_the_asked_period_first_under_the_header_that_names_it():
    """'Operating income | $ 5,403 | $ 6,976 | ...': which figure is the quarter asked about is said by its column's
    header. The asked period's column comes first among the columns of its length, for a question naming the period
    by date or by fiscal quarter, and for a question naming none, the period the filing reports (its latest)."""
    shelf = _statement()
    for question in ("What was ACME's AWS operating income in the quarter ended September 30, 2023?",
                     "What was ACME's AWS operating income in Q3 2023?", "What was ACME's AWS operating income?"):
        draft, lines = _shown_table(shelf, question)
        assert lines[0] == ("|  | Three Months Ended September 30, 2023 | Three Months Ended September 30, 2022 | Nine Months Ended "
                            "September 30, 2023 | Nine Months Ended September 30, 2022 | Source |"), (question, lines)
        assert "| Operating income | $ 6,976 | $ 5,403 | $ 17,464 | $ 17,636 | [s00000000000x] |" in lines, (question, lines)
        row = next(u for u in draft.units if u.text.startswith("Operating income | $ 5,403"))
        assert row.text == "Operating income | $ 5,403 | $ 6,976 | $ 17,636 | $ 17,464" and row.period_columns == [2, 4]
    _, lines = _shown_table(shelf, "What was ACME's AWS operating income in the quarter ended September 30, 2022?")
    assert "| Operating income | $ 5,403 | $ 6,976 | $ 17,636 | $ 17,464 | [s00000000000x] |" in lines, lines


def test_a_column_whose_period_length_was_read_into_its_neighbour_gets_it_back():
    """A PDF's 'Three Months Ended' spans two columns and is read into the second ('June 25, 2022 | Three Months Ended
    June 26, 2021'): the first column is the three months too, and is the quarter a question about June 25, 2022 asks."""
    from shelfwise.api.answer.write.columns import column_labels, column_order, period_columns

    header = ["", "June 25, 2022", "Three Months Ended June 26, 2021", "Change", "June 25, 2022", "Nine Months Ended June 26, 2021", "Change"]
    assert column_labels(header) == ["", "Three Months Ended \u203a June 25, 2022", "Three Months Ended June 26, 2021", "Change",
                                     "Nine Months Ended \u203a June 25, 2022", "Nine Months Ended June 26, 2021", "Change"]
    assert period_columns(header, {"2022-06-25"}) == [1, 4] and period_columns(header, {"2021-06-26"}) == [2, 5]
    assert column_order(header, [2, 5]) == [0, 2, 1, 3, 5, 4, 6]
    assert period_columns(["", "July 1, 2023"], {"2023-07-01"}) == [] and period_columns(header, {"2020-01-01"}) == []


def test_a_statement_row_is_read_with_the_other_rows_of_its_statement():
    """A question about one segment's operating income gets the statement's other lines around it (the segment's net
    sales and expenses the income is computed from, the other segment), within the part's budget; label rows come
    with their rows."""
    draft, lines = _shown_table(_statement(), "How did ACME's AWS operating income change in Q3 2023?")
    texts = [u.text for u in draft.units if u.kind == "table_row"]
    assert "Operating income | $ 5,403 | $ 6,976 | $ 17,636 | $ 17,464" in texts, texts
    assert "Net sales | $ 20,538 | $ 23,059 | $ 58,718 | $ 66,553" in texts and "Operating expenses | 15,135 | 16,083 | 41,082 | 49,089" in texts, texts
    assert "AWS | | | |" in texts and texts.index("AWS | | | |") < texts.index("Net sales | $ 20,538 | $ 23,059 | $ 58,718 | $ 66,553"), texts


def test_a_sentence_that_announces_a_table_brings_its_rows_whatever_brought_it():
    """'Net sales information is as follows (in millions):' enters the answer as the sentence continuing a picked one;
    it still announces figures it does not give, so the table's rows come with it."""
    from shelfwise.compiler.store.records import Block, table_text

    rows = [["", "Three Months Ended September 30, 2022", "Three Months Ended September 30, 2023"],
            ["Online stores", "$ 53,489", "$ 57,267"], ["Physical stores", "4,694", "4,959"], ["Advertising", "9,548", "12,060"]]
    shelf = _memory_shelf({"10q": ("ACME 10-Q", "acme.pdf", [("Net Sales", [
        _p("Service sales primarily represent third-party seller fees, advertising services and membership fees. "
           "Net sales information is as follows (in millions):"),
        Block(kind="table", text=table_text(rows), rows=rows, header_rows=1)]),
        ("Liquidity", [_p("Cash provided by operating activities was $21.2 billion.")])])})
    _, draft = _write(shelf, "What do ACME's service sales primarily represent?")
    texts = [u.text for u in draft.units]
    assert "Net sales information is as follows (in millions):" in texts, texts
    assert "Online stores | $ 53,489 | $ 57,267" in texts and "Advertising | 9,548 | 12,060" in texts, texts


def test_a_table_of_contents_kept_as_a_table_is_never_an_answer():
    """A filing's contents as a table ('Item 2. | ... | Pages 37 - 38', 'Liquidity and Capital Resources | 37' under a
    'Page' column) names the sections a question's words are in; it states nothing, the section does."""
    from shelfwise.compiler.store.records import Block, table_text

    contents = [["", "Page"], ["Management's Discussion and Analysis", ""], ["Liquidity and Capital Resources", "37"]]
    items = [["Item 1.", "Financial Statements", "Pages 4 - 23"], ["", "Liquidity and capital resources", "Pages 37 - 38"]]
    shelf = _memory_shelf({"10q": ("ACME 10-Q", "acme.pdf", [
        ("Organization of Our Form 10-Q", [Block(kind="table", text=table_text(contents), rows=contents, header_rows=1),
                                           Block(kind="table", text=table_text(items), rows=items, header_rows=1)]),
        ("Liquidity and Capital Resources", [_p("Our liquidity and capital resources rest on cash from operations of $6.8 billion.")])])})
    _, draft = _write(shelf, "What does ACME say about its liquidity and capital resources?")
    assert [u.text for u in draft.units] == ["Our liquidity and capital resources rest on cash from operations of $6.8 billion."], draft.units


def test_a_table_of_contents_whose_page_column_has_no_header_is_never_an_answer():
    """Intel's 10-Q lists its MD&A's parts as rows of a title and a page ("Liquidity and Capital Resources | 38"), with no
    "Page" cell: its rows were shown as an answer on the filings' questions. Rows of titles each followed by a page that
    never goes down are contents; a table of figures is not ("$ 7,621", years, a page going down)."""
    from shelfwise.api.answer.write.tables import _paged_rows
    from shelfwise.compiler.store.records import Block, table_text

    contents = [["Segment Trends and Results", "24"], ["Consolidated Results of Operations", "33"],
                ["Liquidity and Capital Resources", "38"], ["Non-GAAP Financial Measures", "40"]]
    shelf = _memory_shelf({"10q": ("ACME 10-Q", "acme.pdf", [
        ("Management's Discussion and Analysis", [Block(kind="table", text=table_text(contents), rows=contents, header_rows=1)]),
        ("Liquidity and Capital Resources", [_p("Our liquidity and capital resources rest on cash from operations of $6.8 billion.")])])})
    _, draft = _write(shelf, "What does ACME say about its liquidity and capital resources?")
    assert [u.text for u in draft.units] == ["Our liquidity and capital resources rest on cash from operations of $6.8 billion."], draft.units
    assert not _paged_rows([["Cash and cash equivalents", "$ 7,621"], ["Short-term investments", "17,409"], ["Loans", "58"]])
    assert not _paged_rows([["Notes due", "2025"], ["Notes due", "2027"], ["Notes due", "2030"]])  # years, not pages
    assert not _paged_rows([["Segment Trends", "24"], ["Results", "33"], ["Liquidity", "12"]])  # a page going down
    assert not _paged_rows([["Segment Trends", "24"], ["Results", "33"]])  # too few rows to say


def test_a_contents_line_without_leaders_is_never_an_answer():
    """The OWASP Top 10's contents as lines ("A10:2017 Insufficient Logging and Monitoring 33") and a 10-Q's ("Financial
    Statements Consolidated Condensed Statements of Cash Flows 7") were shown as answers, one of them first where a
    correction belonged (eval/questions/unseen-premises-7.yaml's up7-office-02): they name a section and say nothing."""
    from shelfwise.api.answer.write.unit_shape import names_only

    assert names_only("A10:2017 Insufficient Logging and Monitoring 33")
    assert names_only("Financial Statements Consolidated Condensed Statements of Cash Flows 7")
    assert not names_only("We trained the model for 3 epochs with a batch size of 64")
    assert not names_only("Section 4 of RFC 6749") and not names_only("Table 2") and not names_only("Python 3")
    shelf = _memory_shelf({"owasp": ("OWASP Top 10 - 2017", "owasp-top-10-2017.pptx", [
        ("Contents", [_p("A10:2017 Insufficient Logging and Monitoring 33")]),
        ("A10:2017 Insufficient Logging & Monitoring", [_p("Insufficient logging and monitoring, coupled with missing or "
                                                          "ineffective integration with incident response, allows attackers to "
                                                          "further attack systems.")])])})
    _, draft = _write(shelf, "What is A10:2017 Insufficient Logging and Monitoring?")
    texts = [u.text for u in draft.units]
    assert any(t.startswith("Insufficient logging and monitoring, coupled") for t in texts), texts
    assert "A10:2017 Insufficient Logging and Monitoring 33" not in texts, texts


def _filing(sections, **others):
    """A shelf of one filing with its compiled identity (ACME Corp's 10-Q for Q3 2023), and ``others`` (doc id -> (title,
    path, sections)) without one."""
    from shelfwise.compiler.store.records import DocumentIdentity

    shelf = _memory_shelf({"10q": ("ACME 10-Q", "acme-2023-q3.pdf", sections), **others})
    shelf.identities = {"10q": DocumentIdentity(doc_id="10q", name="ACME Corp 10-Q, quarter ended September 30, 2023", title="ACME 10-Q",
                                                issuer="ACME Corp", aliases=["ACME"], form="10-Q", period="quarter ended September 30, 2023",
                                                period_kind="quarter", period_end="2023-09-30", fiscal_quarter="Q3 2023")}
    return shelf


def test_what_a_filing_says_changed_is_between_periods_not_versions():
    """On a shelf of filings, 'how did inventories change' asks what changed between periods: a sentence is not evidence
    for saying 'changes' or 'prior' (a versions question's facet): the inventories' own row ranks above it. The shelf's
    catalogue (SOURCES.md, no identity) decides nothing."""
    from shelfwise.compiler.store.records import Block, table_text

    rows = [["", "September 30, 2023", "December 31, 2022"], ["Inventories", "7,351", "4,946"]]
    shelf = _filing([("Controls", [_p("There were no changes in internal control over financial reporting compared to the prior "
                                      "period, and no revisions of earlier disclosures.")]),
                     ("Balance sheet", [Block(kind="table", text=table_text(rows), rows=rows, header_rows=1)]),
                     ("Inventories", [_p("Inventory levels rose to support product launches.")])],
                    sources=("Sources", "SOURCES.md", [("Sources", [_p("The filings were downloaded from EDGAR.")])]))
    _, draft = _write(shelf, "How have the inventory levels ACME reported changed?")
    score = {u.text[:20]: u.score for u in draft.units}
    assert score["Inventories | 7,351 "] > score.get("There were no change", 0.0), score


def test_a_quoted_list_keeps_its_lead_in_and_a_list_of_conditions_shows_whole_or_not_at_all():
    """A section's rule introduces a list of conditions ("unless all of the following conditions are met:"), another
    section a plain list ("Other areas include:"). The size limit never shows a list's items without the sentence that
    introduces them, and shows a list of conditions whole or not at all: two of three conditions would read as the
    whole rule. The items follow their lead-in in their section's block, in document order."""
    def unit(uid: str, kind: str, text: str, section: str, score: float, group: str = "") -> Unit:
        return Unit(id=uid, kind=kind, text="x" * 150 + " " + text, shelf="mem", citations=[section], obligation=0,
                    score=score, status="verbatim", group=group)

    units = [unit("r0", "sentence", "Tokens may be sent in the request body.", "s1", 0.9),
             unit("lead", "sentence", "The client MUST NOT use this method unless all of the following conditions are met:", "s1", 0.5),
             unit("c1", "list_item", "The content type is form-encoded.", "s1", 0.8, "s1:list"),
             unit("c2", "list_item", "The body is single-part.", "s1", 0.7, "s1:list"),
             unit("c3", "list_item", "The method is not GET.", "s1", 0.3, "s1:list"),
             unit("q0", "sentence", "Tokens may be sent in the query.", "s2", 0.85),
             unit("q1", "sentence", "Responses carry no-store.", "s2", 0.6),
             unit("plain", "sentence", "Other areas include:", "s3", 0.35),
             unit("p1", "list_item", "Caching of responses.", "s3", 0.65, "s3:list"),
             unit("p2", "list_item", "Logging of URLs.", "s3", 0.4, "s3:list")]
    shown, _ = shape_answer(units, ["q"], {}, max_chars=2000, extractive=True)
    # before: r0 lead q0 q1 c1 c2 p1 p2 plain: c3 gave way ("all of the following conditions" over two of three), and
    # the lists stood apart from their lead-ins
    assert [u.id for u in shown] == ["r0", "lead", "c1", "c2", "c3", "q0", "q1", "plain", "p1"]
    shown, _ = shape_answer(units, ["q"], {}, max_chars=1600, extractive=True)
    # before: r0 q0 q1 c1 c2 p1: both lead-ins gone with their items shown
    assert [u.id for u in shown] == ["r0", "lead", "c1", "c2", "c3", "q0"]
    # a lead-in that ranks above its items never stays alone once they are gone: a list of conditions goes with its
    # lead-in, and a plain list's lead-in goes after its last item
    units = [u.model_copy(update={"score": 0.95}) if u.id in ("lead", "plain") else u for u in units]
    shown, _ = shape_answer(units, ["q"], {}, max_chars=1600, extractive=True)
    assert [u.id for u in shown] == ["r0", "lead", "c1", "c2", "c3", "q0"]  # not "plain" alone, under no item
    shown, _ = shape_answer(units, ["q"], {}, max_chars=1200, extractive=True)
    assert [u.id for u in shown] == ["r0", "q0"]  # not "lead" alone, introducing nothing


def test_a_sentence_announcing_a_table_goes_with_the_tables_last_row():
    """"Net sales by segment were as follows (in millions):" says nothing without its table. Once the size limit has
    taken every row of the table it announces, it goes too (the answer orders blocks by relevance, so the sentence and
    its table need not be neighbours), and its room goes to a sentence that states something."""
    def unit(uid: str, kind: str, text: str, section: str, score: float, group: str = "") -> Unit:
        return Unit(id=uid, kind=kind, text=text if kind == "table_header" else "x" * 150 + " " + text, shelf="mem",
                    citations=[section], obligation=0, score=score, status="verbatim", group=group)

    table = [unit("intro", "sentence", "Net sales by segment were as follows (in millions):", "s3", 0.95),
             unit("head", "table_header", "Segment | Q1 | Q2", "s3", 0.0, "t1"),
             unit("row1", "table_row", "Americas | 37,784 | 40,882", "s3", 0.3, "t1"),
             unit("row2", "table_row", "Europe | 23,945 | 23,287", "s3", 0.25, "t1"),
             *[unit(f"a{i}", "sentence", f"Services net sales rose in quarter {i}.", "s4", 0.8 - i / 100) for i in range(6)]]
    shown, _ = shape_answer(table, ["q"], {}, max_chars=4000, extractive=True)
    assert {"intro", "head", "row1", "row2"} <= {u.id for u in shown}
    shown, _ = shape_answer(table, ["q"], {}, max_chars=1600, extractive=True)
    # before: intro a0 a1 a2 a3 a4: the sentence stayed, announcing a table the answer left out, in a5's room
    assert [u.id for u in shown] == ["a0", "a1", "a2", "a3", "a4", "a5"]
    # a sentence introducing a list that still shows stays, whatever became of a table of its section
    listed = [unit("intro", "sentence", "Net sales by segment include:", "s3", 0.95),
              unit("l1", "list_item", "Americas.", "s3", 0.9, "s3:list"), unit("l2", "list_item", "Europe.", "s3", 0.85, "s3:list"),
              *table[1:]]
    ids = [u.id for u in shape_answer(listed, ["q"], {}, max_chars=1600, extractive=True)[0]]
    assert "row1" not in ids and {"intro", "l1", "l2"} <= set(ids)


def test_a_tables_running_header_repeated_page_after_page_is_never_an_answer():
    """A table continued over pages repeats its header rows ("| HIPAA Security | | Security Controls |"); read as rows,
    each copy held the question's words and was shown first. A row repeated three times without a figure is a header;
    twice, or with a figure, it is still a row."""
    from shelfwise.compiler.store.records import Block, table_text

    rows = [["Standard", "Specification"], ["HIPAA Security", "Security Controls"], ["Security Management", "Risk Analysis (R)"],
            ["HIPAA Security", "Security Controls"], ["Security Awareness", "Security Reminders (A)"],
            ["HIPAA Security", "Security Controls"], ["Contingency Plan", "Data Backup Plan (R)"]]

    def rows_shown(table: list[list[str]]) -> list[str]:
        shelf = _memory_shelf({"guide": ("Security Rule Guide", "guide.pdf", [
            ("Crosswalk", [Block(kind="table", text=table_text(table), rows=table, header_rows=1)]),
            ("Standards", [_p("Each HIPAA Security standard lists its security controls as required or addressable specifications.")])])})
        _, draft = _write(shelf, "Which HIPAA Security controls does the guide list?")
        return [u.text for u in draft.units if u.kind == "table_row"]

    assert "HIPAA Security | Security Controls" not in rows_shown(rows)
    assert "HIPAA Security | Security Controls" in rows_shown(rows[:4])  # twice: a row


def test_a_named_documents_table_lends_its_matching_header_to_its_rows():
    """"What versions of the registry are recorded, with their dates?": the rows under "Date | Description | Version" hold
    none of the words, their header does; in a document the question names (by its title, not only by an identifier)
    the header's match carries to its rows."""
    from shelfwise.compiler.store.records import Block, table_text

    rows = [["Date", "Description", "Version"], ["2019-11-27", "Initial draft of the SSP content", "DRAFT 1.0"],
            ["2020-08-01", "Revised SSP content; added SAP and SAR content", "DRAFT 2.0"]]
    shelf = _memory_shelf({"registry": ("Acme OSCAL Registry", "registry.xlsx", [
        ("History", [Block(kind="table", text=table_text(rows), rows=rows, header_rows=1)]),
        ("About", [_p("The Acme OSCAL Registry is the authoritative source for Acme's extensions and identifiers.")])])})
    plan, draft = _write(shelf, "Which versions of the Acme OSCAL Registry are recorded, with their dates?")
    assert plan.obligations[0].documents == ["registry"]
    assert {"2019-11-27 | Initial draft of the SSP content | DRAFT 1.0", "2020-08-01 | Revised SSP content; added SAP and SAR content | DRAFT 2.0"} <= {
        u.text for u in draft.units if u.kind == "table_row"}


def test_numbered_paragraphs_give_way_to_the_size_limit_a_list_at_a_time_and_a_procedure_stays_whole():
    """A regulation's articles are numbered paragraphs ("1. ... 2. ..."), read as steps: an answer quoting four
    articles ran to 5,032 characters, and one quoting a recital list to 100,484, because steps never gave way. Now the
    lists of steps go, the least relevant first, when the answer is still too long without its other units (never the
    last of their obligation). For a procedure part ("what are the steps ..."), the best procedure stays whole with the
    list that continues its numbering in another document (SOP-014 1-6, WI-022 7-12)."""
    from shelfwise.api.answer.show.shape import fit_units

    def steps(group: str, numbers, score: float, obligation: int = 0) -> list[Unit]:
        return [Unit(id=f"{group}{n}", kind="step", text=f"{n}. The controller shall do thing {n} of {group}. " + "x" * 300,
                     shelf="mem", citations=[f"s-{group}"], obligation=obligation, group=f"s-{group}:list", score=score,
                     status="verbatim") for n in numbers]

    articles = [*steps("art33", range(1, 6), 0.9), *steps("art35", range(1, 6), 0.6), *steps("art36", range(1, 6), 0.5)]
    assert sum(len(u.text) for u in articles) > 4000
    kept, _ = fit_units(articles, 4000, True, procedures=set())
    assert {u.group for u in kept} == {"s-art33:list", "s-art35:list"} and sum(len(u.text) for u in kept) < 4000  # least relevant went
    assert {u.group for u in fit_units(articles, 2500, True, procedures=set())[0]} == {"s-art33:list"}
    ranked = [u.model_copy(update={"score": u.score - int(u.id[-1]) / 100}) for u in articles]  # later paragraphs weaker
    kept, _ = fit_units(ranked, 1200, True, procedures=set())  # one list left, still too long: its weakest items go
    assert [u.id for u in kept] == ["art331", "art332"]
    assert {u.group for u in fit_units(articles, 4000, True)[0]} == {u.group for u in articles}  # no plan: all stay, as before

    procedure = [*steps("sop", range(1, 7), 0.7), *steps("wi", range(7, 13), 0.9), *steps("trn", range(1, 5), 0.4)]
    kept, _ = fit_units(procedure, 4000, True, procedures={0})
    assert {u.group for u in kept} == {"s-sop:list", "s-wi:list"}  # 1-6 continue into 7-12; the overview 1-4 gives way


def test_a_numbered_list_longer_than_the_answer_is_not_kept_whole_as_a_procedure():
    """A procedure part keeps every step of the procedure it quotes; a numbered list longer than the whole answer's
    room (a regulation's 173 recitals, here 60 long paragraphs) is no procedure to show whole: only its picked items
    are written. A six-step procedure beside it is still written whole."""
    from shelfwise.compiler.store.records import Block

    long_list = [Block(kind="list_item", text=f"{n}. The archive rule number {n} applies to records of kind {n}; " + "it is long. " * 20)
                 for n in range(1, 61)]
    short = [Block(kind="list_item", text=f"{n}. Do restore step {n}.") for n in range(1, 7)]
    shelf = _memory_shelf({"recitals": ("Archive Regulation", "reg.md", [("Recitals", long_list)]),
                           "restore": ("Restore procedure", "restore.md", [("Restore steps", short)])})
    _, draft = _write(shelf, "What are the steps of the archive procedure?")
    written = [u for u in draft.units if u.kind in ("step", "list_item") and "archive rule" in u.text]
    assert 0 < len(written) < 60, len(written)
    _, draft = _write(shelf, "What are the steps of the restore procedure?")
    assert [u.text for u in draft.units if u.kind == "step"] == [f"{n}. Do restore step {n}." for n in range(1, 7)]


def _notes_shelf(procedure: bool = False):
    """Amazon's Q3 2023 net sales table with its numbered notes under it (verbatim); ``procedure``: a section of numbered
    steps of the same shape and no table."""
    from shelfwise.compiler.store.records import Block

    rows = [["", "Three Months Ended September 30, 2022", "Three Months Ended September 30, 2023"],
            ["Online stores (1)", "$ 53,489", "$ 57,267"], ["Physical stores (2)", "4,694", "4,959"],
            ["Subscription services (3)", "8,903", "10,170"]]
    table = Block(kind="table", text="\n".join(" | ".join(r) for r in rows), rows=rows, header_rows=1)
    notes = [Block(kind="list_item", text="(1) Includes product sales and digital media content where we record revenue gross."),
             Block(kind="list_item", text="(2) Includes product sales where our customers physically select items in a store."),
             Block(kind="list_item", text="(3) Includes annual and monthly fees associated with Amazon Prime memberships, as well as "
                                          "digital video, audiobook, digital music, e-book, and other non-AWS subscription services.")]
    steps = [Block(kind="list_item", text="(1) Close the inlet valve."), Block(kind="list_item", text="(2) Drain the pump housing.")]
    sections = [("Note 10 — Segment Information", [_p("Net sales by groups of similar products and services is as follows (in millions):"),
                                                   table, *notes])]
    return _memory_shelf({"amzn": ("Amazon.com, Inc. 10-Q", "2023-q3-amzn.pdf", sections + ([("Draining", steps)] if procedure else []))})


def test_a_note_under_a_table_brings_the_row_it_annotates():
    """A 10-Q's notes under its net sales table ("(1) Includes product sales ...", verbatim from Amazon's Q3 2023 10-Q)
    say what a row holds; the row whose label carries the note's marker ("Online stores (1)") gives the figures, so it
    comes with its note. A row no picked note annotates does not come."""
    shelf = _notes_shelf()
    _, draft = _write(shelf, "Which fees for Amazon Prime memberships and audiobook subscriptions does Amazon count as revenue?")
    written = [u.text for u in draft.units]
    assert any(t.startswith("(3) Includes annual and monthly fees") for t in written), written
    assert any(t.startswith("Subscription services (3)") for t in written), written
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.tables import annotated_rows
    from shelfwise.api.answer.write.write import section_units

    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units).units
    pairs = {pool[n].text.split()[0]: pool[r].text.split(" |")[0] for n, r in annotated_rows(pool).items()}
    assert pairs == {"(1)": "Online stores (1)", "(2)": "Physical stores (2)", "(3)": "Subscription services (3)"}, pairs


def test_a_tables_numbered_notes_are_no_procedure_and_give_way_before_their_rows():
    """Numbered like steps, a table's notes were a procedure's steps, which the answer's size limit keeps whole: Amazon's
    long note "(1) Includes product sales ..." stayed while the row it annotates, "Online stores (1) | $ 53,489 | ...",
    went. A note is a list's item now (it goes before its row); numbered steps with no table stay steps."""
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.write import section_units

    shelf = _notes_shelf(procedure=True)
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units).units
    kinds = {u.text.split(" ", 1)[1][:12]: u.kind for u in pool if u.text.startswith("(")}
    assert kinds == {"Includes pro": "list_item", "Includes ann": "list_item", "Close the in": "step", "Drain the pu": "step"}, kinds
    facet = {u.text.split(" ", 1)[1][:12]: "@step" in u.words for u in pool if u.text.startswith("(")}  # nor a step's facet
    assert facet == {"Includes pro": False, "Includes ann": False, "Close the in": True, "Drain the pu": True}, facet


def test_a_part_bound_to_an_issuers_latest_report_quotes_only_that_report():
    """"What was ACME's gross margin in its latest 10-Q?" binds the quarter ended September 30, 2023 (the plan's
    documents, by compiled identity); a sentence of ACME's June quarter states another period's figures and is not
    shown. A part bound to every report of the issuer ("compared to previous quarters") keeps both, and a shelf's
    catalogue, with no identity, is no report."""
    from shelfwise.api.answer.plan.plan import Obligation, Plan
    from shelfwise.api.answer.show.shape import on_bound_reports
    from shelfwise.compiler.store.records import DocumentIdentity

    shelf = _memory_shelf({
        "q3": ("ACME 10-Q Q3", "acme-2023-q3.pdf", [("Gross margin", [_p("Gross margin was 41.2% in the third quarter.")])]),
        "q2": ("ACME 10-Q Q2", "acme-2023-q2.pdf", [("Gross margin", [_p("Gross margin was 39.8% in the second quarter.")])]),
        "sources": ("Sources", "SOURCES.md", [("Filings", [_p("The shelf holds ACME's 10-Q filings for 2023.")])])})
    shelf.identities = {doc: DocumentIdentity(doc_id=doc, name=f"ACME Corp 10-Q, quarter ended {end}", title="ACME 10-Q",
                                              issuer="ACME Corp", form="10-Q", period=f"quarter ended {end}", period_kind="quarter",
                                              period_end=iso) for doc, end, iso in (("q3", "September 30, 2023", "2023-09-30"),
                                                                                     ("q2", "July 1, 2023", "2023-07-01"))}
    section_of = {shelf.sections[s].doc_id: s for s in shelf.sections}
    units = [Unit(id=f"u{n}", kind="sentence", text=text, shelf="mem", citations=[section_of[doc]], obligation=0)
             for n, (doc, text) in enumerate((("q3", "Gross margin was 41.2% in the third quarter."),
                                              ("q2", "Gross margin was 39.8% in the second quarter."),
                                              ("sources", "The shelf holds ACME's 10-Q filings for 2023.")), start=1)]

    def plan(documents):
        return Plan(question="q", resolved_question="q", planner="rules",
                    obligations=[Obligation(kind="lookup", ask="What was ACME's gross margin in its latest 10-Q?", documents=documents)])

    assert [u.id for u in on_bound_reports(units, plan(["q3"]), {"mem": shelf})] == ["u1", "u3"]
    assert [u.id for u in on_bound_reports(units, plan(["q2", "q3"]), {"mem": shelf})] == ["u1", "u2", "u3"]
    assert [u.id for u in on_bound_reports(units, plan([]), {"mem": shelf})] == ["u1", "u2", "u3"]


def test_a_sentence_every_quarter_repeats_cites_the_bound_report_only():
    """"In Apple's latest 10-Q, how did foreign exchange rates affect it?": a sentence the June and the September report
    both print cited both, the June one first, so the answer showed it under "quarter ended July 1, 2023". Bound to the
    latest report, it cites that report only; unbound, it keeps both citations."""
    from shelfwise.api.answer.plan.plan import Obligation, Plan
    from shelfwise.api.answer.show.shape import on_bound_reports
    from shelfwise.compiler.store.records import DocumentIdentity

    said = "The derivative assets above represent the Company's gross credit exposure."
    shelf = _memory_shelf({
        "q2": ("ACME 10-Q Q2", "acme-2023-q2.pdf", [("Derivatives", [_p(said)])]),
        "q3": ("ACME 10-Q Q3", "acme-2023-q3.pdf", [("Derivatives", [_p(said)])])})
    shelf.identities = {doc: DocumentIdentity(doc_id=doc, name=f"ACME Corp 10-Q, quarter ended {end}", title="ACME 10-Q",
                                              issuer="ACME Corp", form="10-Q", period=f"quarter ended {end}", period_kind="quarter",
                                              period_end=iso) for doc, end, iso in (("q3", "September 30, 2023", "2023-09-30"),
                                                                                     ("q2", "July 1, 2023", "2023-07-01"))}
    section_of = {shelf.sections[s].doc_id: s for s in shelf.sections}
    unit = Unit(id="u1", kind="sentence", text=said, shelf="mem", citations=[section_of["q2"], section_of["q3"]], obligation=0)

    def plan(documents):
        return Plan(question="q", resolved_question="q", planner="rules",
                    obligations=[Obligation(kind="lookup", ask="How did exchange rates affect ACME in its latest 10-Q?", documents=documents)])

    assert [u.citations for u in on_bound_reports([unit], plan(["q3"]), {"mem": shelf})] == [[section_of["q3"]]]
    # and it is shown under that report's name: labelled (as the show stage labels every unit) by its first citation, the
    # June report's, it kept that label once the June citation went ("quarter ended September 30, 2022" above a sentence
    # of Amazon's June 2023 report, cited by that report's section only)
    from shelfwise.api.currency import label_units

    labelled = label_units([unit], {"mem": shelf})[0]
    assert labelled.source == "ACME Corp 10-Q, quarter ended July 1, 2023", labelled.source
    assert [u.source for u in on_bound_reports([labelled], plan(["q3"]), {"mem": shelf})] == ["ACME Corp 10-Q, quarter ended September 30, 2023"]
    assert [u.citations for u in on_bound_reports([unit], plan(["q2", "q3"]), {"mem": shelf})] == [[section_of["q2"], section_of["q3"]]]
    assert unit.citations == [section_of["q2"], section_of["q3"]]  # the writer's unit is not changed in place


def test_amounts_and_figures_opening_items_are_no_step_numbers():
    """A chart's bridge of amounts read as a list ("(77) Higher period charges ...", "(60) Other") and a tile of figures
    ("42.5% GAAP gross margin ...") open with figures, not step marks: as steps the answer numbered them "77. Higher
    period charges ...", the sign of the amount lost. A numbered list goes on at its own level or an outer one."""
    from shelfwise.api.answer.render import _blocks
    from shelfwise.api.answer.write.write import numbered_run, section_units
    from shelfwise.compiler.store.records import Block

    assert not numbered_run(["(77) Higher period charges", "(60) Other"])
    assert not numbered_run(["42.5% GAAP Gross margin down 0.1 ppt", "45.8% non-GAAP Gross margin down 0.1 ppt"])
    assert numbered_run(["1. License grant.", "1. Subject to ...", "2. produce ...", "1. a", "3. Term."])  # nested, flattened
    assert numbered_run(["Step 1: open the valve.", "Step 2: close it."])
    shelf = _memory_shelf({"q": ("Intel 10-Q", "intc.pdf", [("CCG Operating Income", [
        _p("Operating income fell."),
        Block(kind="list_item", text="(77) Higher period charges related to excess capacity charges"),
        Block(kind="list_item", text="(60) Other")])])})
    sid = shelf.doc_sections["q"][0]
    units = section_units(shelf, sid)
    assert [u.kind for u in units] == ["sentence", "list_item", "list_item"]
    shown = _shaped(shelf, "Which period charges related to excess capacity changed operating income?")
    markdown = "\n".join(_blocks(shown))
    assert "(77) Higher period charges related to excess capacity charges" in markdown and "77. Higher" not in markdown


def test_a_caption_that_is_its_label_alone_is_never_an_answer():
    """A filing's exhibit index read as captions ("Exhibit 31.1", "Exhibit 32.1") showed as lines of their own in answers
    about the filing; a caption with nothing after its label says nothing. A part naming the figure still gets it
    (``named_captions``)."""
    from shelfwise.api.answer.plan.plan import plan_by_rules
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.rank import score_units
    from shelfwise.api.answer.write.tables import named_captions
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.compiler.store.records import Block

    shelf = _memory_shelf({"q": ("Apple 10-Q", "aapl.pdf", [("Exhibits", [
        Block(kind="figure", text="Exhibit 31.1"),
        _p("Exhibit 31.1 is the certification of the Chief Executive Officer under the Exchange Act."),
        Block(kind="figure", text="Exhibit 32.1: Section 1350 certifications")])])})
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units)
    plan = plan_by_rules("Which exhibit certifies the report?", [], {"mem": "Apple 10-Q"}, [], [], [])
    (_, scored), = score_units(plan, pool)
    ranked = [pool.units[i].text for *_, i in scored]
    assert "Exhibit 31.1" not in ranked and "Exhibit 32.1: Section 1350 certifications" in ranked
    assert any(t.startswith("Exhibit 31.1 is the certification") for t in ranked)
    named = named_captions("What is Exhibit 31.1?", pool, [(1.0, i) for *_, i in scored])
    assert [pool.units[i].text for i in named] == ["Exhibit 31.1"]
    shown = [u.text for u in _shaped(shelf, "Which exhibit certifies the report?")]  # nor beside a quoted sentence
    assert any(t.startswith("Exhibit 31.1 is the certification") for t in shown) and "Exhibit 31.1" not in shown


def test_a_forms_line_the_filer_writes_its_own_name_into_is_template_text():
    """"I have reviewed this quarterly report on Form 10-Q of Intel Corporation;" and "... of Apple Inc.;" are one line
    of the form, each filer's name written in: a template, shown only when nothing else answers. Unmasked it was Intel's
    own sentence, and, read in a section of exhibits, came into eleven filings answers about revenue and tax rates."""
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.templates import filer_names, template_key, template_texts, template_units
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.compiler.store.records import DocumentIdentity

    def filing(name: str, revenue: str, exhibits: list[str]):
        return (f"{name} 10-Q", f"{name.split()[0].lower()}-10q.pdf", [
            ("Revenue", [_p(f"{name.split()[0]} revenue was {revenue}, down 8% from a year earlier.")]),
            ("Exhibits", [*map(_p, exhibits), _p(f"I have reviewed this quarterly report on Form 10-Q of {name};")])])

    shelf = _memory_shelf({
        "intel": filing("Intel Corporation", "$14.2 billion", ["The bylaws were amended in March 2023.", "The plan adds 80 million shares."]),
        "apple": filing("Apple Inc.", "$81.8 billion", ["The director stock plan was renewed.", "Its award terms are unchanged."])})
    shelf.identities = {doc: DocumentIdentity(doc_id=doc, name=f"{issuer} 10-Q", title=f"{issuer} 10-Q", issuer=issuer, form="10-Q",
                                              aliases=[issuer.split()[0]]) for doc, issuer in (("intel", "Intel Corporation"), ("apple", "Apple Inc."))}
    assert filer_names(shelf, "intel") == ("intel corporation", "intel")
    texts = template_texts(shelf, section_units)
    assert template_key("I have reviewed this quarterly report on Form 10-Q of Intel Corporation;", filer_names(shelf, "intel")) in texts
    assert not any("revenue was" in key for key in texts)  # each filer's own figures stay its own
    pool = build_pool(_reading(shelf), {"mem": shelf}, section_units)
    found = {pool.units[i].text for i in template_units(pool, {"mem": shelf}, section_units)}
    assert found == {"I have reviewed this quarterly report on Form 10-Q of Intel Corporation;",
                     "I have reviewed this quarterly report on Form 10-Q of Apple Inc.;"}, found


def test_an_ask_for_a_breakdown_gets_the_whole_table_that_breaks_it_down():
    """"What was the breakdown of ACME's net sales across its service offerings?" asks for every part of the whole: the
    rows the ranking did not pick came as the picked rows' context, each scored under every pick and less the farther
    it stood, so the answer's size limit dropped "Online stores" and "Other" for sentences about service revenue. Every
    row of the table now scores as much as the row picked; an ask for one offering's figure still gets its row first
    and the others as context."""
    from shelfwise.api.answer.show.shape import fit_units
    from shelfwise.compiler.store.records import Block, table_text

    rows = [["", "Q3 2023", "Q3 2022"], ["Online stores", "$ 57,267", "$ 53,489"], ["Physical stores", "4,959", "4,694"],
            ["Third-party seller services", "34,342", "28,666"], ["Subscription services", "10,170", "8,903"],
            ["Advertising services", "12,060", "9,548"], ["Cloud services", "23,059", "20,538"], ["Other", "1,226", "1,263"]]
    prose = [_p("Unearned revenue primarily relates to prepayments of cloud services and subscription memberships, which are "
                "recognized over the term of the membership."),
             _p("Service sales represent third-party seller fees, cloud services sales, advertising services and subscription fees "
                "charged to our customers."),
             _p("Revenue from service offerings is recognized as the services are performed for the customer over the contract term."),
             _p("We expect revenue from our service offerings to keep growing as customers adopt more of our services in each quarter."),
             _p("Our service offerings are subject to competition, and revenue from those offerings may fluctuate from quarter to quarter.")]
    shelf = _memory_shelf({"10q": ("ACME 10-Q", "acme.pdf", [("Revenue", prose), ("Net Sales", [
        Block(kind="table", text=table_text(rows), rows=rows, header_rows=1)])])})

    def shown(question: str) -> list[str]:
        _, draft = _write(shelf, question, budget_chars=500, answer_chars=900)
        return [u.text.split(" | ")[0] for u in fit_units(draft.units, 900, True)[0] if u.kind == "table_row"]

    assert set(shown("What was the breakdown of ACME's net sales across its service offerings in Q3 2023?")) >= {row[0] for row in rows[1:]}
    one = shown("What net sales did ACME's subscription services bring in Q3 2023?")
    assert "Subscription services" in one and not set(one) >= {row[0] for row in rows[1:]}, one


def test_an_ask_how_a_figure_moved_over_periods_wants_the_sentences_stating_amounts():
    """"How has ACME's revenue from iPhone sales fluctuated across quarters?" asks for amounts over periods, as "how
    much" does: a sentence stating the quarter's amount ranks above one saying what revenue depends on. Without the
    numeric facet for trends, fluctuations and variations over periods, the vaguer sentence came first (its words
    matched as well); an ask for what drives the revenue still gets it first."""
    shelf = _memory_shelf({"10q": ("ACME 10-Q", "acme.pdf", [("iPhone", [
        _p("iPhone revenue depends on the timing of new iPhone models and on the demand for iPhone across regions."),
        _p("iPhone net sales were $39.7 billion in the third quarter, down 2% from a year earlier.")])])})

    def scores(question: str) -> dict[str, float]:
        _, draft = _write(shelf, question)
        return {u.text.split()[1]: u.score for u in draft.units}

    moved = scores("How has ACME's revenue from iPhone sales fluctuated across quarters?")
    assert moved["net"] > moved["revenue"], moved
    driven = scores("What drives ACME's revenue from iPhone sales?")
    assert driven["revenue"] > driven["net"], driven


def test_rows_quoted_for_one_part_show_under_their_header_placed_with_another_part():
    """The writer places a table's header once, with the part whose ask named its columns ("... with FLAN-T5-XL?"); a
    row of that table another part quoted ("No Retrieval | 14.87 | ...") showed under an empty header, no column
    saying which model and measure a figure is. Each part's rows now show under the header."""
    from shelfwise.api.answer.render import markdown_chars, _blocks, _with_headers

    header = Unit(id="u1", kind="table_header", text="Methods | FLAN-T5-XL › EM | FLAN-T5-XL › F1", cells=["Methods", "FLAN-T5-XL › EM", "FLAN-T5-XL › F1"],
                  citations=["s1"], obligation=1, group="t", status="verbatim", source="Adaptive-RAG")
    row = Unit(id="u2", kind="table_row", text="No Retrieval | 14.87 | 21.12", cells=["No Retrieval", "14.87", "21.12"],
               citations=["s1"], obligation=0, group="t", status="verbatim", source="Adaptive-RAG")
    other = Unit(id="u3", kind="sentence", text="Adaptive-RAG picks a strategy by the query's complexity.", citations=["s2"],
                 obligation=1, status="verbatim", source="Adaptive-RAG")
    units = [row, header, other]
    part = "\n\n".join(_blocks(_with_headers([u for u in units if u.obligation == 0], units)))
    assert "| Methods | FLAN-T5-XL › EM | FLAN-T5-XL › F1 | Source |" in part and "| No Retrieval | 14.87 | 21.12 |" in part
    assert "|  |  |  | Source |" not in part
    assert markdown_chars(units) > markdown_chars([row, other])
