"""Planning: rules (kinds, parts, targets, aliases, follow-ups) and one model call replayed through the real openai client."""

from __future__ import annotations

import json

import httpx
import pytest

from shelfwise.api.answer.plan.plan import Turn, Vocabulary, obligation_kind, plan_by_rules, plan_with_model
from shelfwise.api.answer.question import question_parts, read_question, standalone
from shelfwise.compiler.models import ChatModel, ModelError, make_client
from shelfwise.compiler.settings import ModelSettings

DOCS = {"sop-014": "SOP-014 Complaint Handling", "qm-001": "QM-001 Quality Manual", "sp-63b": "Authentication Guidelines"}
ALIASES = [("AAL", "Authenticator Assurance Level")]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("What is a Reportable Event", "describe"),
        ("What are the steps of handling a complaint, from receipt to closure", "trace"),
        ("What changed from the previous revision", "compare"),
        # a trend is a change over periods: the answer sets them side by side ("trends" is no word to look for)
        ("Can any trends be identified in the segment's revenue over the reported periods", "compare"),
        ("Can I distribute modified copies", "judge"),
        ("How often must top management review the system", "lookup"),
        ("Is it overdue", "judge"),
        ("Which complaints led to a CAPA", "list"),
        ("Why is the closure target 30 days", "explain"),
        ("What should we recommend to the supplier", "propose"),
        ("What is the process for closing a complaint", "trace"),
        ("How does the review process work", "trace"),
        # "process" with an object is the verb: the asker processes data, and asks for no procedure
        ("We rely on consent to process their data. From what age can a user consent on their own", "describe"),
        ("Since the GDPR lets a controller process special categories of personal data, which safeguards apply", "list"),
    ],
)
def test_kinds_by_rule(text, kind):
    assert obligation_kind(text) == kind


def test_a_question_splits_into_its_parts_with_targets_and_named_documents():
    plan = plan_by_rules(
        "What is a Reportable Event, and what must the Complaint Handling Unit do under SOP-014 when a complaint is one?",
        [], DOCS, [], ["Reportable Event"], [],
    )
    assert plan.planner == "rules" and not plan.follow_up
    assert [o.ask for o in plan.obligations] == [
        "What is a Reportable Event",
        "what must the Complaint Handling Unit do under SOP-014 when a complaint is one",
    ]
    assert plan.obligations[0].targets[0] == "Reportable Event"
    assert plan.obligations[1].targets[:2] == ["SOP-014", "Complaint Handling Unit"]
    assert plan.obligations[1].documents == ["sop-014"]


def test_a_part_asking_the_same_of_three_items_becomes_one_part_per_item():
    """An expert answers 'for authorization codes, access tokens, and JWTs' item by item; one part over all three let
    the JWT sentences fill the answer (dev oauth-03). Two items, a long list and a comparison stay whole."""
    asks = lambda q: [o.ask for o in plan_by_rules(q, [], DOCS, [], [], []).obligations]
    assert asks("What lifetimes do these specifications give for authorization codes, access/bearer tokens, and JWTs?") == [
        "What lifetimes do these specifications give for authorization codes",
        "What lifetimes do these specifications give for access/bearer tokens",
        "What lifetimes do these specifications give for JWTs"]
    assert asks("What are the retention periods for complaints and CAPA records?") == ["What are the retention periods for complaints and CAPA records"]
    assert len(asks("What distinguishes FAL1, FAL2 and FAL3?")) == 1
    assert len(asks("What is required for access, audit, integrity, transmission and person authentication?")) == 1


def test_a_how_question_over_three_actions_becomes_one_part_per_action():
    """"How do I set the job count, stop new jobs on a loaded machine and keep the output apart?" asks three things an
    expert answers in turn; as one part, the best-matching action's sentences filled the answer. A list of nouns, two
    actions or one action stay whole."""
    asks = lambda q: [o.ask for o in plan_by_rules(q, [], DOCS, [], [], []).obligations]
    assert asks("We build on a shared server. How can we limit the number of parallel jobs, pause new jobs when the load "
                "is high, and keep each job's output together?") == [
        "We build on a shared server. How can we limit the number of parallel jobs",
        "We build on a shared server. How can we pause new jobs when the load is high",
        "We build on a shared server. How can we keep each job's output together"]
    assert len(asks("How do I configure the cache, the queue and the workers?")) == 1  # nouns, not actions
    assert len(asks("How do I limit parallel jobs and keep their output together?")) == 1  # two: one part
    assert len(asks("How do I set a breakpoint in gdb?")) == 1


def test_a_trailing_and_why_is_kept_with_the_part_it_asks_about():
    """'..., and why?' has no word to search for, so it was dropped: the reasons are asked of the part before it, and
    the ranking's reason facet looks for 'because', 'as a result', ..."""
    from shelfwise.api.answer.write.rank import FACETS

    (obligation,) = plan_by_rules("Which categories were dropped in the 2017 edition, and why?", [], DOCS, [], [], []).obligations
    assert obligation.ask == "Which categories were dropped in the 2017 edition, and why"
    assert FACETS["@reason"][0].search(obligation.ask)


def test_a_leading_setting_is_not_a_question_of_its_own():
    """'In an OSCAL-based FedRAMP SSP, how do I record the authorization type, and which values are accepted?' asks two
    things in one setting: the setting is part of each, not a third thing to answer."""
    asks = [o.ask for o in plan_by_rules("In an OSCAL-based FedRAMP System Security Plan, how do I record the authorization "
                                          "type, and which values are accepted?", [], DOCS, [], [], []).obligations]
    assert asks == ["In an OSCAL-based FedRAMP System Security Plan, how do I record the authorization type",
                    "In an OSCAL-based FedRAMP System Security Plan, which values are accepted"]


def test_a_part_that_asks_after_a_preposition_is_a_question_not_a_setting():
    """"Under what conditions ...", "From what age ...": a wh-word after a preposition asks, so such a part is a question
    of its own. Before, it was read as the setting of the parts after it ("We're launching an app ... . Under the GDPR,
    from what age can a user consent on their own, what do we need for younger users, and ...?" became two parts,
    each asking "from what age" again, and never on its own)."""
    asks = [o.ask for o in plan_by_rules("Under what conditions may a controller process health data, and how must it record "
                                          "its decisions?", [], DOCS, [], [], []).obligations]
    assert asks == ["Under what conditions may a controller process health data", "how must it record its decisions"]
    asks = [o.ask for o in plan_by_rules("We're launching an app for teenagers. Under the GDPR, from what age can a user consent on "
                                          "their own, what do we need for younger users, and what rules on withdrawing consent "
                                          "apply?", [], DOCS, [], [], []).obligations]
    assert asks == ["We're launching an app for teenagers. Under the GDPR, from what age can a user consent on their own",
                    "what do we need for younger users", "what rules on withdrawing consent apply"]


def test_targets_are_aligned_with_the_ledger_aliases():
    plan = plan_by_rules("Which authenticators meet AAL2?", [], DOCS, ALIASES, [], [])
    assert "Authenticator Assurance Level" in plan.obligations[0].targets
    plan = plan_by_rules("What does Authenticator Assurance Level 2 require?", [], DOCS, ALIASES, [], [])
    assert "AAL" in plan.obligations[0].targets


def test_a_follow_up_inherits_the_previous_question_and_its_documents():
    history = [Turn(question="How long do access tokens last?", citations=["s1"])]
    assert read_question("and what about refresh tokens?").follow_up(history)
    assert not read_question("and what about refresh tokens?").follow_up([])
    assert not read_question("What is the retention period of backups kept in the offsite vault by operations?").follow_up(history)
    plan = plan_by_rules("and what about refresh tokens?", history, DOCS, [], [], ["sop-014"])
    assert plan.follow_up and plan.resolved_question == "How long do access tokens last — refresh tokens?"
    assert plan.obligations[0].targets[:2] == ["refresh", "tokens"] and plan.obligations[0].documents == ["sop-014"]


def test_only_a_question_that_leans_on_the_conversation_is_read_as_a_follow_up():
    """Issue 34: "and who approves the quality manual?" was glued to the warranty question before it."""
    history = [Turn(question="What is the warranty period of the NW-300 infusion pump?")]
    for question in ("and who approves the quality manual?", "but who owns the complaint handling database?",
                     "Also, what is the closure time for complaints?"):
        assert not read_question(question).leans and not read_question(question).follow_up(history), question
        plan = plan_by_rules(question, history, DOCS, [], [], [])
        assert not plan.follow_up and plan.resolved_question == question
        assert plan.obligations == plan_by_rules(standalone(question), [], DOCS, [], [], []).obligations
    assert standalone("and who approves the quality manual?") == "Who approves the quality manual?"
    # "how quickly" asks for a time, as "how soon" does: a lookup, answered by the rule and the record together
    assert obligation_kind("How quickly must a Reportable Event be notified internally?") == "lookup"
    for question in ("and who approves it?", "And how often?", "and why?", "What about Rev C?", "and for Rev C?",
                     "and which one is current?", "and the other one?"):
        assert read_question(question).leans and read_question(question).follow_up(history), question


def _replay(content: str | None, status: int = 200):
    """An httpx client answering every request with one recorded chat completion."""
    seen: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        if status != 200:
            return httpx.Response(status, json={"error": {"message": "server error", "type": "server_error"}})
        return httpx.Response(
            200,
            json={
                "id": "chatcmpl-rec1", "object": "chat.completion", "created": 1764500000, "model": "qwen2.5-1.5b-instruct",
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 321, "completion_tokens": 54, "total_tokens": 375},
            },
        )

    client = make_client(ModelSettings(base_url="http://127.0.0.1:9/v1", max_retries=0), http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    return ChatModel(client, "qwen2.5-1.5b-instruct"), seen


def test_the_model_planner_makes_one_call_and_keeps_only_known_documents():
    reply = {
        "resolved_question": "What is a Reportable Event and what must the CHU do?",
        "follow_up": False,
        "obligations": [
            {"kind": "describe", "ask": "Define Reportable Event", "targets": ["Reportable Event", ""], "documents": ["qm-001", "made-up"]},
            {"kind": "trace", "ask": "What the Complaint Handling Unit does", "targets": ["Complaint Handling Unit"], "documents": ["sop-014"]},
        ],
    }
    chat, seen = _replay(json.dumps(reply))
    plan = plan_with_model(chat, "What is a Reportable Event and what must the CHU do?", [], DOCS, ALIASES)
    assert plan.planner == "qwen2.5-1.5b-instruct" and len(seen) == 1
    assert seen[0]["response_format"] == {"type": "json_object"}
    assert "- qm-001: QM-001 Quality Manual" in seen[0]["messages"][1]["content"]
    assert [o.kind for o in plan.obligations] == ["describe", "trace"]
    assert plan.obligations[0].targets == ["Reportable Event"] and plan.obligations[0].documents == ["qm-001"]
    assert chat.prompt_tokens == 321


def test_a_model_plan_that_glues_a_question_standing_alone_to_the_last_turn_gives_way_to_the_rules():
    history = [Turn(question="What is the warranty period of the NW-300 infusion pump?", answer="This is not in these documents.")]
    glued = {"resolved_question": "What is the warranty period of the NW-300 infusion pump — who approves the quality manual?",
             "follow_up": True, "obligations": [{"kind": "lookup", "ask": "Who approves the quality manual, and the pump's warranty",
                                                 "targets": ["quality manual", "warranty"], "documents": []}]}
    for question, planner in (("and who approves the quality manual?", "rules"), ("and who approves it?", "qwen2.5-1.5b-instruct")):
        chat, _ = _replay(json.dumps(glued))
        rules = plan_by_rules(question, history, DOCS, [], [], [])
        plan = plan_with_model(chat, question, history, DOCS, [], rules=rules, vocabulary=Vocabulary())
        assert plan.planner == planner, question
    assert plan.follow_up  # "it" leans on the conversation: the model's follow-up stands
    chat, _ = _replay(json.dumps(glued))
    question = "and who approves the quality manual?"
    plan = plan_with_model(chat, question, history, DOCS, [], rules=plan_by_rules(question, history, DOCS, [], [], []),
                           vocabulary=Vocabulary())
    assert not plan.follow_up and plan.resolved_question == question and [o.ask for o in plan.obligations] == ["Who approves the quality manual"]
    assert plan.warnings == ["planner model qwen2.5-1.5b-instruct read the question as a follow-up of the previous turn, but it "
                             "stands alone; this answer was planned by rules instead"]


@pytest.mark.parametrize(
    ("content", "status", "words"),
    [
        ("not json at all", 200, "unusable plan"),
        (json.dumps({"resolved_question": "q", "obligations": [{"kind": "ponder", "ask": "x"}]}), 200, "unusable plan"),
        (None, 500, "InternalServerError"),
    ],
)
def test_an_unusable_planner_reply_raises_model_error(content, status, words):
    chat, _ = _replay(content, status)
    with pytest.raises(ModelError, match=words):
        plan_with_model(chat, "What is a Reportable Event?", [], DOCS, [])


TYPING = {"pep-0484-rst": "Type Hints", "pep-0585-rst": "Type Hinting Generics In Standard Collections",
          "pep-0646-rst": "Variadic Generics", "sp800-63-3-cover-md": "NIST Special Publication 800-63"}


def test_each_comma_separated_question_is_its_own_obligation_bound_to_the_document_it_names():
    plan = plan_by_rules("How was a list of ints annotated under PEP 484, what changed with PEP 585, and what is the status "
                         "of typing.List afterwards?", [], TYPING, [], [], [])
    assert [o.ask for o in plan.obligations] == ["How was a list of ints annotated under PEP 484", "what changed with PEP 585",
                                                 "what is the status of typing.List afterwards"]
    assert [o.documents for o in plan.obligations[:2]] == [["pep-0484-rst"], ["pep-0585-rst"]]
    assert "PEP 585" in plan.obligations[2].targets and "pep-0585-rst" in plan.obligations[2].documents  # "afterwards" leans on it


def test_a_part_that_says_it_takes_the_words_of_the_part_before():
    plan = plan_by_rules("How is *args typed under PEP 484 and how does PEP 646 extend it?", [], TYPING, [], [], [])
    second = plan.obligations[1]
    assert second.documents == ["pep-0646-rst"] and "args" in second.targets and "PEP 484" not in second.targets


def test_a_part_leaning_on_a_part_that_leans_reaches_back_to_what_the_chain_is_about():
    plan = plan_by_rules("What retrieval units do Dense X Retrieval and RAPTOR index, how are they produced, and how large are "
                         "they?", [], TYPING, [], [], [])
    assert [o.ask for o in plan.obligations][1:] == ["how are they produced", "how large are they"]
    assert {"units", "RAPTOR"} <= set(plan.obligations[1].targets) and {"units", "RAPTOR"} <= set(plan.obligations[2].targets)


def test_an_abbreviation_inside_a_document_code_is_not_expanded():
    plan = plan_by_rules("Which guideline does the SP 800-63-3 suite replace?", [], TYPING, [("SP", "Special Publication")], [], [])
    assert "Special Publication" not in plan.obligations[0].targets and plan.obligations[0].documents == ["sp800-63-3-cover-md"]
    plan = plan_by_rules("What does the SP say?", [], TYPING, [("SP", "Special Publication")], [], [])
    assert "Special Publication" in plan.obligations[0].targets


def test_a_model_plan_keeps_what_the_question_the_history_or_the_shelf_holds():
    from shelfwise.api.answer.plan.plan import Obligation, Plan, Vocabulary, validate_model_plan

    vocabulary = Vocabulary.of(["A Reportable Event is notified the same day."],
                               {"sop-014": ["SOP-014 Complaint Handling", "6 Procedure"], "qm-001": ["QM-001 Quality Manual"]})
    history = [Turn(question="What does SOP-014 say about complaints?")]
    question = "and how fast must a Reportable Event be notified?"
    rules = plan_by_rules(question, history, DOCS, [], [], ["sop-014"])
    model = Plan(question=question, resolved_question=question, planner="m", obligations=[Obligation(
        kind="lookup", ask="How fast is a Reportable Event notified under SOP-014?",
        targets=["Reportable Event", "SOP-014", "notified", "QM-001"], documents=["sop-014", "qm-001"])])
    plan = validate_model_plan(model, rules, question, history, DOCS, vocabulary)
    (obligation,) = plan.obligations
    # SOP-014 is named by the earlier turn; QM-001 by nothing, so it goes, and its document with it (no kept target is in its title)
    assert obligation.targets[:3] == ["Reportable Event", "SOP-014", "notified"] and "QM-001" not in obligation.targets
    assert obligation.documents == ["sop-014"]
    assert plan.warnings == ["planner model m named what neither the question, the earlier turns nor the shelf holds, dropped: "
                             "target 'QM-001', document 'qm-001' (obligation 1); the rule planner's targets and documents are used there instead"]
    # a plan that holds only what nothing names is replaced by the rule plan
    lost = model.model_copy(update={"obligations": [Obligation(kind="describe", ask="Describe RFC 6749", targets=["RFC 6749"])]})
    assert validate_model_plan(lost, rules, question, history, DOCS, vocabulary).planner == "rules"


def test_an_operator_holding_a_question_mark_does_not_split_the_question():

    question = "What is the difference between the =, := and ?= operators in GNU make, and what does the newer edition add?"
    assert question_parts(question) == ["What is the difference between the =, := and ?= operators in GNU make",
                                "what does the newer edition add"]
    assert question_parts("How long is a token valid? Who may revoke it?") == ["How long is a token valid", "Who may revoke it"]


def test_a_file_named_by_a_proper_name_names_its_document():
    """"GDPR.pdf" holds "REGULATION (EU) 2016/679 ...": a question "under the GDPR" names it by its file; a file called by
    a plain word ("make.pdf") or by a title written out names nothing of its own."""
    from shelfwise.api.answer.plan.names import file_name, named_by_name

    assert [file_name(p) for p in ["office/GDPR.pdf", "papers/HyDE.pdf", "make/make.pdf", "filings/2023 Q3 AAPL.pdf",
                                   "notes/Minutes.docx", "Adaptive RAG.pdf", ""]] == ["GDPR", "HyDE", "", "", "", "", ""]
    titles = {"gdpr": "REGULATION (EU) 2016/679 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL", "hipaa": "NIST SP 800-66 Revision 1"}
    files = {"gdpr": "office/GDPR.pdf", "hipaa": "office/nist-hipaa-guide.pdf"}
    question = "What must a processor report after a breach under the GDPR and under NIST SP 800-66?"
    assert named_by_name(question, titles) == set()
    assert named_by_name(question, titles, files) == {"gdpr"}
    assert named_by_name("What does the regulation say about gdpr fines?", titles, files) == set()  # a word, not the name
    plan = plan_by_rules(question, [], titles, [], [], [], files=files)
    assert set(plan.obligations[0].documents) == {"gdpr", "hipaa"}
    assert plan_by_rules(question, [], titles, [], [], []).obligations[0].documents == ["hipaa"]
