"""Briefs and dossiers: composed from the ledger, verbatim, every line cited by section id."""

from __future__ import annotations

import json

from compiler.briefs import brief_markdown
from compiler.dossiers import dossier_markdown
from compiler.ledger import normalise
from compiler.linking import link_shelf
from compiler.store import Store
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


def test_dossier_quotes_each_document_and_flags_disagreement(tmp_path):
    store = _shelf(tmp_path)
    rows = {r[0]: json.loads(r[1]) for r in store.db.execute("SELECT topic, body FROM dossiers")}
    assert set(rows) == {"complaint", "complaints"}
    complaints = rows["complaints"]
    assert complaints["doc_ids"] == ["qm-rev-d", "sop-014"]
    says = {d["doc_id"]: [q["text"] for q in d["says"]] for d in complaints["documents"]}
    assert says == {"qm-rev-d": ["Complaints shall be closed within 30 calendar days of receipt."],
                    "sop-014": ["Complaints shall be closed within 45 calendar days of receipt."]}
    assert [d["reason"] for d in complaints["disagreements"]] == [
        "two rules on 'complaints' state 'within 30 calendar days' and 'within 45 calendar days' (a candidate, not asserted)"]
    assert "**Where they may disagree** (candidates, not asserted)" in dossier_markdown(complaints)
