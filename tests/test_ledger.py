"""The assertion ledger: rule-based extraction, quote verification, the model path and incremental re-extraction."""

from __future__ import annotations

import json

import httpx

from shelfwise.compiler.store.records import Assertion, Extraction, Converted, Element
from shelfwise.compiler.ledger.rules import extract_rules, find_thresholds, sentences, verify
from shelfwise.compiler.ledger.extract import ledger_rows
from shelfwise.compiler.build import link_shelf
from shelfwise.compiler.models import ChatModel, make_client
from shelfwise.compiler.ingest.sections import build_sections
from shelfwise.compiler.settings import ModelSettings
from shelfwise.compiler.store.store import Store


def _put(store: Store, doc_id: str, title: str, elements: list[Element], path: str | None = None) -> None:
    converted = Converted(title=title, elements=elements, reader="test", reader_version="1")
    sections, figures = build_sections(doc_id, converted)
    body = json.dumps([e.model_dump(exclude={"image"}) for e in elements], sort_keys=True)
    row = {
        "doc_id": doc_id, "path": path or f"{doc_id}.md", "title": title, "format": "md",
        "content_hash": str(abs(hash(body))), "size": len(body), "reader": "test", "reader_version": "1",
        "settings_hash": "s", "pages": 0, "n_sections": len(sections), "n_tables": 0, "n_figures": 0, "seconds": 0.0,
    }
    store.put_document(row, sections, figures)


def H(text: str, level: int = 1) -> Element:
    return Element(kind="heading", text=text, level=level)


def P(text: str) -> Element:
    return Element(kind="paragraph", text=text)


def _section(title: str, elements: list[Element]):
    sections, _ = build_sections("d", Converted(title=title, elements=elements, reader="t", reader_version="1"))
    return sections


def test_rule_keeps_conditions_exceptions_and_thresholds():
    section = _section("Policy", [H("5 Passwords"), P(
        "If the verifier disallows a chosen secret, the verifier SHALL require the subscriber to choose a different "
        "secret unless the subscriber is locked out. Memorized secrets SHALL be at least 8 characters in length.")])[1]
    extraction = extract_rules(section)
    rules = [a for a in extraction.assertions if a.kind == "rule"]
    assert [r.modality for r in rules] == ["SHALL", "SHALL"]
    assert rules[0].subject == "verifier"
    assert rules[0].conditions == ["If the verifier disallows a chosen secret"]
    assert rules[0].exceptions == ["unless the subscriber is locked out."]
    assert [(t.comparator, t.value, t.unit) for t in rules[1].thresholds] == [("at least", "8", "characters")]
    assert rules[1].quote == "Memorized secrets SHALL be at least 8 characters in length."


def test_definitions_from_sentences_glossary_headings_and_run_in_terms():
    sections = _section("Guide", [
        H("1 Intro"), P('A "bearer token" means a token that any party in possession of it can use.'),
        H("2 Definitions"), H("Access", 2), P("To make contact with one or more functions of a service."),
        H("3 Terminology"), P("JSON Web Token (JWT) A string representing a set of claims as a JSON object."),
    ])
    found = {(a.subject, a.quote) for s in sections for a in extract_rules(s).assertions if a.kind == "definition"}
    assert ("bearer token", 'A "bearer token" means a token that any party in possession of it can use.') in found
    assert ("Access", "To make contact with one or more functions of a service.") in found
    assert ("JSON Web Token (JWT)", "JSON Web Token (JWT) A string representing a set of claims as a JSON object.") in found


def test_the_means_of_is_not_a_definition():
    section = _section("X", [H("1 A"), P("The means of obtaining the endpoint location are out of scope.")])[1]
    assert [a for a in extract_rules(section).assertions if a.kind == "definition"] == []


def test_numbered_steps_are_ordered_and_header_fields_are_supersessions():
    sections = _section("SOP", [
        Element(kind="code", text="Request for Comments: 8725          Intuit\nUpdates: 7519                      D. Hardt"),
        H("6 Procedure"), P("1. Log the complaint in the register."), P("2. Assess whether it is reportable."),
        P("3. Notify Regulatory Affairs the same working day."),
    ])
    root, procedure = sections[0], sections[1]
    assert [(a.kind, a.statement) for a in extract_rules(root).assertions] == [("supersession", "Updates: 7519")]
    steps = [a for a in extract_rules(procedure).assertions if a.kind == "step"]
    assert [(s.step, s.quote) for s in steps] == [
        (1, "Log the complaint in the register."), (2, "Assess whether it is reportable."),
        (3, "Notify Regulatory Affairs the same working day."),
    ]


def test_verify_rejects_and_counts_quotes_not_in_the_section():
    text = "The client MUST   authenticate\nwith the server."
    extraction = Extraction(assertions=[
        Assertion(kind="rule", subject="client", statement="s", quote="The client MUST authenticate with the server."),
        Assertion(kind="rule", subject="client", statement="s", quote="The client MUST NOT authenticate."),
    ])
    checked = verify(extraction, text)
    assert [a.quote for a in checked.assertions] == ["The client MUST authenticate with the server."]
    assert (checked.rejected, checked.rejected_quotes) == (1, ["The client MUST NOT authenticate."])


def test_sentences_and_thresholds_helpers():
    assert sentences("Use TLS, e.g. version 1.2. See Section 4.2. Done") == ["Use TLS, e.g. version 1.2.", "See Section 4.2.", "Done"]
    assert [t.text for t in find_thresholds("no more than 100 consecutive failed attempts within 30 days")] == [
        "no more than 100 consecutive failed attempts", "within 30 days"]


def _recorded_reply(content: dict) -> dict:
    """An OpenAI chat.completions reply as the server sends it (recorded shape, key stripped)."""
    return {
        "id": "chatcmpl-rec1", "object": "chat.completion", "created": 1764460800, "model": "extractor-test",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": json.dumps(content)}}],
        "usage": {"prompt_tokens": 300, "completion_tokens": 80, "total_tokens": 380},
    }


def _replaying_chat(seen: list[str]) -> ChatModel:
    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        prompt = body["messages"][1]["content"]
        seen.append(prompt)
        assert body["response_format"] == {"type": "json_object"}
        sections = []
        for key in sorted(set(__import__("re").findall(r'key="(S\d+)"', prompt))):
            sections.append({"key": key, "assertions": [
                {"kind": "rule", "subject": "client", "statement": "The client must authenticate.",
                 "quote": "The client MUST authenticate to the server.", "modality": "MUST"},
                {"kind": "definition", "subject": "token", "statement": "invented",
                 "quote": "A token is a thing this section never says."},
            ]})
        return httpx.Response(200, json=_recorded_reply({"sections": sections}))

    client = make_client(ModelSettings(base_url="http://model.test/v1"),
                         http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    return ChatModel(client, "extractor-test")


def test_model_path_validates_verifies_and_caches_by_section_hash(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "badkey")
    store = Store(tmp_path / "store.sqlite")
    _put(store, "spec", "Spec", [H("1 Auth"), P("The client MUST authenticate to the server."),
                                 H("2 Other"), P("The client MUST authenticate to the server. Nothing else.")])
    seen: list[str] = []
    chat = _replaying_chat(seen)
    summary = link_shelf(store, ["spec"], [], chat=chat)
    assert summary["extractor"] == "model:extractor-test:extract-1"
    assert summary["quotes_rejected"] == 2
    rows = ledger_rows(store, "spec")
    assert [(r["heading"], r["kind"], r["quote"]) for r in rows] == [
        ("1 Auth", "rule", "The client MUST authenticate to the server."),
        ("2 Other", "rule", "The client MUST authenticate to the server."),
    ]
    again = link_shelf(store, ["spec"], [], chat=chat)
    assert (again["sections_extracted"], again["sections_cached"]) == (0, 3)
    assert [r["quote"] for r in ledger_rows(store, "spec")] == [r["quote"] for r in rows]


def test_model_reply_that_is_not_valid_json_is_reported_not_cached(tmp_path):
    def handler(request):
        return httpx.Response(200, json=_recorded_reply({"sections": "not a list"}))

    chat = ChatModel(make_client(ModelSettings(base_url="http://model.test/v1"),
                                 http_client=httpx.Client(transport=httpx.MockTransport(handler))), "bad-model")
    store = Store(tmp_path / "store.sqlite")
    _put(store, "spec", "Spec", [H("1 Auth"), P("The client MUST authenticate to the server.")])
    summary = link_shelf(store, ["spec"], [], chat=chat)
    assert summary["assertions"] == 0
    assert len(summary["problems"]) == 1
    assert "unusable extraction reply" in summary["problems"][0] and "retried on the next build" in summary["problems"][0]


def test_incremental_edit_reextracts_only_changed_sections_and_removal_retracts(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    first = [H("1 A"), P("The client MUST use TLS."), H("2 B"), P("The server SHOULD log requests.")]
    _put(store, "one", "One", first)
    _put(store, "two", "Two", [H("1 C"), P("Operators MAY rotate keys.")])
    summary = link_shelf(store, ["one", "two"], [])
    assert (summary["sections_extracted"], summary["sections_cached"], summary["assertions"]) == (4, 1, 3)
    _put(store, "one", "One", [H("1 A"), P("The client MUST use TLS."), H("2 B"), P("The server MUST log requests.")])
    summary = link_shelf(store, ["one"], [])
    assert (summary["sections_extracted"], summary["sections_cached"]) == (1, 2)
    assert [r["modality"] for r in ledger_rows(store, "one")] == ["MUST", "MUST"]
    store.remove_document("two")
    summary = link_shelf(store, [], ["two"])
    assert summary["documents_removed"] == 1
    assert {r["doc_id"] for r in ledger_rows(store)} == {"one"}


def _pdf_text(path) -> str:
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(path))
    try:
        return " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def _docx_text(path) -> str:
    import docx

    return "\n\n".join(p.text for p in docx.Document(str(path)).paragraphs)


NEGATED_BOUNDS = [  # (file under ../shared/corpora or the demo shelf, the bound as the document writes it, its sense)
    ("northwind:documents/quality-manual-rev-c.docx", "never less than fifteen years", "minimum"),
    ("northwind:documents/quality-manual-rev-c.docx", "not exceeding 12 months", "maximum"),
    ("oauth/rfc7519.txt", "not to exceed 8 characters", "maximum"),
    ("office/GDPR.pdf", "not later than 72 hours", "maximum"),
    ("office/GDPR.pdf", "no less than four years", "minimum"),
    ("office/GDPR.pdf", "shall not exceed three months", "maximum"),
    ("office/GDPR.pdf", "no later than one month", "maximum"),
    ("identity/sp800-63b/sec5_authenticators.md", "at least 8 characters", "minimum"),
    ("identity/sp800-63b/sec5_authenticators.md", "less than 64 bits", "maximum"),
    ("licenses/gpl-3.0_COPYING.txt", "at least three years", "minimum"),
]


def test_negated_bounds_of_real_documents_keep_their_sense(corpora):
    """Issue 34: "never less than fifteen years" was recorded as "less than fifteen years", the opposite. Every bound
    of these documents, as it stands in its sentence, keeps its negation in the comparator and its sense in ``bound``."""
    from pathlib import Path

    demo = Path(__file__).resolve().parents[1] / "shelves" / "northwind"
    texts: dict[str, str] = {}
    for name, bound, sense in NEGATED_BOUNDS:
        path = demo / name.split(":", 1)[1] if name.startswith("northwind:") else corpora / name
        if name not in texts:
            raw = _pdf_text(path) if path.suffix == ".pdf" else _docx_text(path) if path.suffix == ".docx" else path.read_text(encoding="utf-8")
            texts[name] = " ".join(raw.split())
        sentence = next(s for s in sentences(texts[name]) if bound in s)
        found = [(t.text, t.bound) for t in find_thresholds(sentence) if t.text == bound]
        assert found == [(bound, sense)], (name, sentence, [(t.text, t.bound) for t in find_thresholds(sentence)])


def test_a_rule_with_a_negated_bound_is_stored_with_it():
    section = _section("Control of records", [H("4.2.4 Control of records"), P(
        "Complaint records shall be kept for the lifetime of the device plus two years, and never less than fifteen years "
        "from the date of release of the product concerned. Measuring equipment shall be calibrated at intervals not "
        "exceeding 12 months.")])[1]
    thresholds = [t for a in extract_rules(section).assertions for t in a.thresholds]
    assert [(t.comparator, t.value, t.unit, t.bound) for t in thresholds] == [
        ("", "two", "years", ""), ("never less than", "fifteen", "years", "minimum"), ("not exceeding", "12", "months", "maximum")]


def test_a_models_threshold_takes_the_comparator_its_quote_writes():
    """The model path: a model that drops the negation ("less than fifteen years") is read again from its quote."""
    quote = "Superseded revisions are kept for the lifetime of the device plus two years, and never less than fifteen years."
    model = Assertion(kind="rule", subject="superseded revisions", statement="kept at least fifteen years", quote=quote,
                      thresholds=[{"value": "fifteen", "unit": "years", "comparator": "less than", "text": "less than fifteen years"}])
    kept = verify(Extraction(assertions=[model]), quote).assertions[0]
    assert [(t.comparator, t.text, t.bound) for t in kept.thresholds] == [("never less than", "never less than fifteen years", "minimum")]
