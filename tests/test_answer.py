"""The answering pipeline end to end, model-free, on the demo shelf and on small tenants."""

from __future__ import annotations

import pytest
import yaml

from answer_shelves import DEMO, HashEmbedder, demo_build, tenant_builds
from api.answer import answer_question, build_pipeline
from api.cli import ask_command, trace_command
from api.schemas import AskRequest
from api.shelves import close_shelves, open_shelves
from api.terms import normalise
from api.trace import TraceStore
from compiler.settings import Settings

QUESTIONS = yaml.safe_load((DEMO / "questions.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def demo(tmp_path_factory):
    build = demo_build(tmp_path_factory.mktemp("demo"))
    shelves = open_shelves({"northwind": build}, HashEmbedder())
    yield shelves
    close_shelves(shelves)


@pytest.fixture(scope="module")
def tenants(tmp_path_factory):
    root = tmp_path_factory.mktemp("tenants")
    shelves = open_shelves(tenant_builds(root / "build", root / "shelves"), HashEmbedder())
    yield shelves
    close_shelves(shelves)


def _ask(shelves, question, settings=None, traces=None, **extra):
    pipeline = build_pipeline(settings or Settings(), None)
    request = AskRequest(question=question, shelves=sorted(extra.pop("only", shelves)), **extra)
    return answer_question(pipeline, request, shelves, token="test", traces=traces)


def _evidence_sections(shelf, evidence) -> set[str]:
    """Sections of the evidence's document whose heading matches and whose text holds the quote."""
    doc = next(d for d, row in shelf.documents.items() if row["path"] == evidence["doc"])
    quote = normalise(evidence["quote"])
    return {sid for sid in shelf.doc_sections[doc] if quote in normalise(shelf.sections[sid].text)}


@pytest.mark.parametrize("item", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_demo_truth_questions_read_their_evidence_and_quote_verbatim(demo, tmp_path, item):
    traces = TraceStore(tmp_path / "traces.sqlite")
    answer = _ask(demo, item["question"], traces=traces)
    trace = traces.get(answer.trace_id)
    shelf = demo["northwind"]
    read = {r["section_id"] for r in trace.read}
    for must in item["must"]:
        for evidence in must["evidence"]:
            sections = _evidence_sections(shelf, evidence)
            assert sections, f"{item['id']}: quote not found in {evidence['doc']}"
            assert sections & read, f"{item['id']}: evidence of {must['item'][:60]!r} was not read"
    assert answer.label != "not_in_documents" and answer.sentences
    for sentence in answer.sentences:
        assert any(normalise(sentence.text) in normalise(shelf.sections[sid].text) for sid in sentence.citations)
        assert all(f"[{sid}]" in answer.answer_markdown for sid in sentence.citations)
    traces.close()


def test_a_small_budget_reads_a_selection_and_records_what_it_did_not_open(demo):
    settings = Settings.model_validate({"answer": {"reading_budget_chars": 6000}})
    traces_answer = _ask(demo, "How often must top management review the quality management system?", settings=settings)
    assert traces_answer.label in ("complete", "conditional")
    assert any("at least twice a year" in s.text for s in traces_answer.sentences)


def test_selection_trace_lists_not_opened_candidates_with_reasons(demo, tmp_path):
    settings = Settings.model_validate({"answer": {"reading_budget_chars": 6000}, "api": {"trace_db": str(tmp_path / "t.sqlite")}})
    traces = TraceStore(tmp_path / "t.sqlite")
    answer = _ask(demo, "What are the steps of handling a complaint, from receipt to closure?", settings=settings, traces=traces)
    trace = traces.get(answer.trace_id)
    assert trace.reading["whole_scope"] is False and trace.reading["chars_read"] <= 6000
    assert trace.not_opened and all(n["reason"].startswith("not opened:") for n in trace.not_opened)
    assert answer.sentences and {r["why"] for r in trace.read} <= {"whole document", "relevant section"} | {
        r["why"] for r in trace.read if r["why"].startswith("one hop along")
    }
    traces.close()


def test_an_out_of_corpus_question_is_not_in_the_documents(demo):
    answer = _ask(demo, "What is the boiling point of mercury at sea level?")
    assert answer.label == "not_in_documents"
    assert answer.answer_markdown.startswith("This is not in these documents")
    assert answer.sentences == [] and answer.sources == []
    assert answer.not_covered == ["The documents do not say what is the boiling point of mercury at sea level."]


def test_a_follow_up_is_resolved_against_the_previous_turn(tenants):
    first = _ask(tenants, "How long do access tokens last?", only=["alpha"])
    assert any("15 minutes" in s.text for s in first.sentences)
    history = [{"question": "How long do access tokens last?", "answer": first.answer_markdown,
                "citations": [c for s in first.sentences for c in s.citations]}]
    follow = _ask(tenants, "and what about refresh tokens?", only=["alpha"], history=history)
    assert follow.resolved_question.startswith("How long do access tokens last")
    assert "refresh tokens" in follow.resolved_question
    assert follow.sentences[0].text == "Refresh tokens expire after 30 days."


def test_document_scope_limits_what_is_read(tenants):
    answer = _ask(tenants, "How long are backups kept?", only=["alpha"], documents=["access-policy-md"], mode="selected")
    assert answer.label == "not_in_documents" and answer.sentences == []
    whole = _ask(tenants, "How long are backups kept?", only=["alpha"])
    assert [s.text for s in whole.sentences] == ["Backups are kept for 35 days."]


def test_a_procedure_is_given_as_ordered_steps(tenants):
    answer = _ask(tenants, "What are the steps of the backup procedure?", only=["alpha"])
    steps = [s.text for s in answer.sentences if s.kind == "step"]
    assert steps == ["Stop the database writer.", "Copy the data folder to the vault.", "Start the database writer again."]
    assert "1. Stop the database writer." in answer.answer_markdown and "3. Start the database writer again." in answer.answer_markdown


def test_ask_and_trace_commands(tenants, tmp_path, capsys):
    build_dir = next(iter(tenants.values())).build_dir.parent
    settings = Settings.model_validate({"build_dir": str(build_dir), "api": {"trace_db": str(tmp_path / "t.sqlite")}})
    assert ask_command("alpha", "How long do refresh tokens last?", True, settings, embedder=HashEmbedder()) == 0
    import json

    body = json.loads(capsys.readouterr().out)
    assert body["label"] == "complete" and body["mode"] == "model-free"
    assert trace_command(body["trace_id"], settings) == 0
    out = capsys.readouterr().out
    assert f"trace {body['trace_id']}" in out and "label: complete" in out and "step read" in out
