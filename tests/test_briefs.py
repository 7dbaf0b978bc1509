"""Briefs and dossiers: composed from the ledger, verbatim, every line cited by section id."""

from __future__ import annotations

import json

from shelfwise.compiler.digests.briefs import brief_markdown
from shelfwise.compiler.digests.dossiers import dossier_markdown
from shelfwise.compiler.ledger.rules import normalise
from shelfwise.compiler.digests.names import count, is_noun_phrase, page_count, page_unit, reader_label, relation_words, short_name, singular, subject_phrase
from shelfwise.compiler.build import link_shelf
from shelfwise.compiler.store.store import Store
from tests.test_ledger import H, P, _put


def _shelf(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    _put(store, "qm-rev-d", "QM-001 Quality Manual, Rev D", [
        H("1 Scope"), P("This manual applies to every complaint about the NW-300 pump. It supersedes Revision C."),
        H("3 Terms and definitions"), P("Complaint: a written or oral report of a deficiency of a device."),
        H("8 Complaints"), P("Complaints shall be closed within 30 calendar days of receipt."),
    ], path="qm-rev-d.md")
    _put(store, "sop-014", "SOP-014 Complaint Handling", [
        H("1 Purpose"), P("This procedure implements the complaint rules of QM-001 Quality Manual, Rev D."),
        H("4 Definitions"), P("Complaint: a report of a deficiency as defined in QM-001."),
        H("6 Procedure"), P("1. Log the complaint."), P("2. Triage the complaint."),
        P("Complaints shall be closed within 45 calendar days of receipt."),
    ], path="sop-014.md")
    link_shelf(store, ["qm-rev-d", "sop-014"], [])
    return store


def test_brief_is_verbatim_and_cited(tmp_path):
    store = _shelf(tmp_path)
    brief = json.loads(store.db.execute("SELECT body FROM briefs WHERE doc_id = 'sop-014'").fetchone()[0])
    texts = {s.id: normalise(s.text) for s in store.sections("sop-014")}
    assert brief["mode"] == "extractive" and brief["identifiers"] == ["SOP-014"]
    assert brief["scope"] == {"text": "This procedure implements the complaint rules of QM-001 Quality Manual, Rev D.",
                              "section_id": store.sections("sop-014")[1].id}
    quoted = [brief["opening"], brief["scope"], *brief["definitions"], *brief["rules"]]
    for item in quoted:
        assert item["text"] in texts[item["section_id"]]
    assert [d["term"] for d in brief["definitions"]] == ["Complaint"]
    assert [(o["heading"], o["level"]) for o in brief["outline"]] == [("1 Purpose", 1), ("4 Definitions", 1), ("6 Procedure", 1)]
    assert {(l["kind"], l["doc_id"]) for l in brief["links_out"]} >= {("cites", "qm-rev-d")}
    markdown = brief_markdown(brief)
    assert f"- *Complaint*: a report of a deficiency as defined in QM-001. [{brief['definitions'][0]['section_id']}]" in markdown
    assert markdown.endswith("every sentence is a quote of the cited section._\n")
    assert "\n- Cites: QM-001 Quality Manual, Rev D (1 link) — " in markdown


def test_dossier_quotes_each_document_and_flags_disagreement(tmp_path):
    store = _shelf(tmp_path)
    rows = {r[0]: json.loads(r[1]) for r in store.db.execute("SELECT topic, body FROM dossiers")}
    assert set(rows) == {"complaint"}  # "Complaint" (defined) and "Complaints" (ruled on) are one topic
    complaints = rows["complaint"]
    assert complaints["topic"] == "Complaint" and complaints["doc_ids"] == ["qm-rev-d", "sop-014"]
    says = {d["doc_id"]: [q["text"] for q in d["says"]] for d in complaints["documents"]}
    assert says == {"qm-rev-d": ["a written or oral report of a deficiency of a device.",
                                 "Complaints shall be closed within 30 calendar days of receipt."],
                    "sop-014": ["a report of a deficiency as defined in QM-001.",
                                "Complaints shall be closed within 45 calendar days of receipt."]}
    assert [d["reason"] for d in complaints["disagreements"]] == [
        "two rules on 'complaints' state 'within 30 calendar days' and 'within 45 calendar days' (a candidate, not asserted)"]
    assert "**Where they may disagree** (candidates, not asserted)" in dossier_markdown(complaints)


def test_dossiers_are_named_by_noun_phrases_not_fragments(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    _put(store, "plan-a", "PLN-100 Audit Plan, Rev 2", [
        H("5 Audits"), P("The audit programme states the scope, the criteria, and the follow-up of findings that auditors shall record."),
        H("6 Records"), P("Each auditor has a log that lists the audits and the findings its holder shall keep."),
    ], path="plan-a.md")
    _put(store, "plan-b", "PLN-200 Audit Charter", [
        H("3 Audits"), P("The audit programme states the scope, the criteria, and the follow-up of findings that auditors shall record."),
        H("4 Records"), P("Each auditor has a log that lists the audits and the findings its holder shall keep."),
    ], path="plan-b.md")
    link_shelf(store, ["plan-a", "plan-b"], [])
    topics = sorted(json.loads(r[0])["topic"] for r in store.db.execute("SELECT body FROM dossiers"))
    assert topics and all(is_noun_phrase(t.split(" (")[0]) for t in topics), topics
    assert not any(t.split()[0].lower() in {"and", "lists", "that", "it"} for t in topics), topics


def test_names_in_words():
    assert [count(1, "assertion"), count(2, "table"), count(0, "policy"), count(3, "match")] == [
        "1 assertion", "2 tables", "0 policies", "3 matches"]
    assert [singular(w) for w in ("complaints", "policies", "status", "boxes", "analysis")] == [
        "complaint", "policy", "status", "box", "analysis"]
    assert relation_words("supersedes", "in") == "is superseded by" and relation_words("contradicts_candidate") == "may conflict with"
    assert page_count("pdf", 12) == "12 pages" and page_count("pptx", 1) == "1 slide"
    assert page_count("docx", 0) == page_count("html", 3) == page_count("md", None) == ""
    assert (page_unit("xlsx"), page_unit("PPTX"), page_unit("pdf"), page_unit("docx")) == ("sheet", "slide", "page", "")
    assert reader_label("docling", "docling 2.143.0") == "docling 2.143.0" and reader_label("test", "1") == "test 1"
    assert short_name("QM-001 Quality Manual, Rev D") == "QM-001 Rev D" and short_name("RFC 6749 The OAuth 2.0 Framework") == "RFC 6749"
    assert short_name("Widget Token Revocation") == "Widget Token Revocation"
    # a title cut to one word names a kind of document; an acronym file name says which one
    gdpr = "REGULATION (EU) 2016/679 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL"
    assert short_name(gdpr, "GDPR.pdf") == "GDPR" and short_name(gdpr, "regulation-2016-679.pdf") == "REGULATION"
    assert short_name("Top10Mapping", "Top10Mapping.xlsx") == "Top10Mapping"
    assert subject_phrase("It", "It supersedes Revision C.", "1 Scope", "QM-001 Quality Manual, Rev D") == "QM-001 Quality Manual, Rev D"
    assert subject_phrase("and the verification of effectiveness that", "The CAPA procedure states the triggers, and the "
                          "verification of effectiveness that it shall check.", "4 CAPA") == "CAPA procedure"
    assert subject_phrase("indicates that a pump", "Reportable Event: a complaint that indicates that a pump failed.") == "Reportable Event"
    assert subject_phrase("period of at least ten complaints before they", "Staff complete the training first.",
                          "7.2 Human resources and training") == "Human resources and training"
    assert subject_phrase("lots from Class B suppliers", "") == "lots from Class B suppliers"
    assert subject_phrase("1 Purpose", "") == "Purpose" and subject_phrase("Home page URI)", "") == "Home page URI"


def test_a_dossier_gathers_an_acronym_its_plural_and_its_expansion(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    _put(store, "qm", "QM-010 Quality Manual", [
        H("8 Improvement"), P("A Corrective and Preventive Action (CAPA) shall be opened for every repeated nonconformity."),
        H("9 Terms"), P("Corrective and Preventive Action: an action that removes the cause of a nonconformity."),
    ], path="qm.md")
    _put(store, "sop", "SOP-050 CAPA Procedure", [H("4 Rules"), P("CAPAs shall be closed within 90 days of opening.")], path="sop.md")
    link_shelf(store, ["qm", "sop"], [])
    dossiers = [json.loads(r[0]) for r in store.db.execute("SELECT body FROM dossiers")]
    assert [(d["topic"], d["doc_ids"]) for d in dossiers] == [("Corrective and Preventive Action", ["qm", "sop"])]
