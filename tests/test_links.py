"""Hooks and the resolver: identifiers, numbered and named sections, titles, series, rare names, conflicts, aliases."""

from __future__ import annotations

from pathlib import Path

import pytest

from shelfwise.compiler.links.aliases import initials_match
from shelfwise.compiler.links.linking import link_rows
from shelfwise.compiler.build import link_shelf
from shelfwise.compiler.store.records import Element
from shelfwise.compiler.store.store import Store
from tests.test_ledger import H, P, _put

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def _links(store, kind=None):
    return [r for r in link_rows(store) if kind is None or r["kind"] == kind]


@pytest.fixture()
def shelf(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    _put(store, "rfc9001-txt", "The Example Widget Protocol Framework", [
        Element(kind="code", text="Request for Comments: 9001                 A. Author"),
        H("1. Introduction"), P("This document defines widgets. See Section 4.2 for the grant."),
        H("4. Grants"), H("4.2. Authorization Code Grant", 2), P("The client MUST send the code once."),
        H("5. Phony Targets"), P("A phony target is a name for a recipe."),
        H("6. Targets"), P("See Phony Targets. Also see Section 9. Refresh tokens MUST expire within 30 days."),
    ], path="rfc9001.txt")
    _put(store, "rfc9002-txt", "Widget Token Revocation", [
        Element(kind="code", text="Request for Comments: 9002\nUpdates: 9001                 B. Writer"),
        H("1. Introduction"), P("The revocation endpoint is defined in Section 4.2 of [RFC9001]. "
                                "It relies on RFC 2119 keywords. This profile is part of The Example Widget Protocol Framework family."),
        H("2. Tokens"), P("Refresh tokens MUST expire within 90 days. A Credential Service Provider (CSP) issues them; "
                          "an Identity Proofing Checker (XYZ) checks them."),
    ], path="rfc9002.txt")
    _put(store, "manual-rev-c", "Quality Manual Rev C", [H("1 Scope"), P("Northwind Traders keeps the Wren ledger.")],
         path="manual-rev-c.md")
    _put(store, "manual-rev-d", "Quality Manual Rev D", [H("1 Scope"), P("Northwind Traders keeps the Wren ledger.")],
         path="manual-rev-d.md")
    summary = link_shelf(store, ["rfc9001-txt", "rfc9002-txt", "manual-rev-c", "manual-rev-d"], [])
    yield store, summary
    store.close()


def test_identifier_header_field_and_qualified_section(shelf):
    store, _ = shelf
    updates = _links(store, "updates")
    assert [(l["src_doc"], l["dst_doc"], l["evidence"], l["reason"]) for l in updates] == [
        ("rfc9002-txt", "rfc9001-txt", "Updates: 9001", "identifier RFC 9001")]
    section_links = [l for l in link_rows(store) if l["src_doc"] == "rfc9002-txt" and l["dst_section"]]
    assert [(l["kind"], l["reason"]) for l in section_links if l["reason"].startswith("section")] == [
        ("depends_on", "section 4.2 in RFC 9001")]


def test_numbered_and_named_references_inside_a_document(shelf):
    store, _ = shelf
    own = [(l["kind"], l["reason"]) for l in link_rows(store) if l["src_doc"] == l["dst_doc"] == "rfc9001-txt"]
    assert ("resolves", "section 4.2 in the citing document") in own
    assert ("resolves", "heading names it (citing document)") in own


def test_open_hooks_keep_their_reason(shelf):
    store, summary = shelf
    reasons = {(h["doc_id"], h["text"], h["reason"]) for h in link_rows(store, open_only=True)}
    assert ("rfc9001-txt", "Section 9", "no section 9 in the citing document") in reasons
    assert ("rfc9002-txt", "RFC 2119", "no document matches RFC 2119") in reasons
    assert summary["open_by_reason"]["no document matches"] >= 1


def test_full_title_citation_series_and_rare_names(shelf):
    store, _ = shelf
    titles = [(l["src_doc"], l["dst_doc"], l["evidence"]) for l in _links(store, "cites")]
    assert ("rfc9002-txt", "rfc9001-txt", "The Example Widget Protocol Framework") in titles
    assert [(l["src_doc"], l["dst_doc"], l["reason"]) for l in _links(store, "same_series")] == [
        ("manual-rev-d", "manual-rev-c", "Rev D is newer than Rev C")]


def test_conflicting_thresholds_are_only_candidates(shelf):
    store, _ = shelf
    conflicts = _links(store, "contradicts_candidate")
    assert len(conflicts) == 1
    assert conflicts[0]["reason"] == ("two rules on 'refresh tokens' state 'within 30 days' and 'within 90 days' "
                                      "(a candidate, not asserted)")


def test_acronyms_aligned_or_vetoed_with_reasons(shelf):
    store, summary = shelf
    rows = store.db.execute("SELECT short, long, decision, reason FROM aliases ORDER BY short").fetchall()
    assert ("CSP", "Credential Service Provider", "aligned", "initials of 'Credential Service Provider' spell CSP") in [tuple(r) for r in rows]
    vetoed = [tuple(r) for r in rows if r[0] == "XYZ"]
    assert vetoed and vetoed[0][2] == "rejected" and vetoed[0][3].startswith("code veto")
    assert initials_match("JWT", "JSON Web Token") == "JSON Web Token"
    assert initials_match("MitM", "man-in-the-middle") == "man-in-the-middle"


def test_a_list_of_terms_aligns_its_acronyms_and_a_sentence_opening_on_one_does_not(tmp_path):
    """A 10-Q's key terms, one per line ("R&D Research and development", verbatim from Intel's Q1 2023 10-Q), and a
    guideline's two-column table of abbreviations (SP 800-63-3) are lists of terms: each acronym is aligned with the
    longest run of words after it that spells it. "CPU Processor or central processing unit" spells nothing first; a
    sentence opening on an acronym, or two entry-like lines alone, is no list."""
    store = Store(tmp_path / "store.sqlite")
    terms = ["Term", "Definition", "ASP Average selling price", "CPU Processor or central processing unit",
             "DCAI Data Center and Artificial Intelligence operating segment", "FPGA Field-programmable gate array",
             "MG&A Marketing, general, and administrative", "R&D Research and development"]
    table = [["Abbreviation", "Term"], ["ABAC", "Attribute Based Access Control"], ["AAL", "Authenticator Assurance Level"],
             ["KBV", "Knowledge-Based Verification"]]
    _put(store, "intc", "Intel 10-Q", [H("Key Terms"), *[P(t) for t in terms],
                                       H("Revenue"), P("DCAI revenue decreased 39% from Q1 2022 due to lower server volume."),
                                       P("ASP Average selling price"), P("EPS Earnings per share")])
    _put(store, "sp", "SP 800-63-3", [H("A.2 Abbreviations"), Element(kind="table", text="", rows=table, header_rows=1)])
    link_shelf(store, ["intc", "sp"], [])
    rows = {(r[0], r[1]): (r[2], r[3]) for r in store.db.execute("SELECT short, long, decision, section_id FROM aliases")}
    aligned = {pair for pair, (decision, _) in rows.items() if decision == "aligned"}
    assert {("ASP", "Average selling price"), ("DCAI", "Data Center and Artificial Intelligence"),
            ("FPGA", "Field-programmable gate array"), ("MG&A", "Marketing general and administrative"),
            ("R&D", "Research and development"), ("ABAC", "Attribute Based Access Control"),
            ("AAL", "Authenticator Assurance Level"), ("KBV", "Knowledge-Based Verification")} <= aligned, aligned
    assert not any(short in ("CPU", "EPS") for short, _ in rows), rows  # nothing spelled first; two lines alone
    assert initials_match("R&D", "Research and development") == "Research and development"
    store.close()


def test_ambiguous_and_self_references_are_refused(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    _put(store, "guide", "Guide", [
        H("1 Phony Targets"), P("See Phony Targets for more."),
        H("2 Rules"), P("See Pattern Rules."), H("3 Pattern Rules", 2), P("x"), H("4 Pattern Rules", 2), P("y"),
    ])
    link_shelf(store, ["guide"], [])
    reasons = sorted(h["reason"] for h in link_rows(store, open_only=True))
    assert reasons == ["ambiguous: 2 sections match 'Pattern Rules' in the citing document", "self-reference"]


def test_named_reference_needs_every_content_word_and_at_most_three_others(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    _put(store, "guide", "Guide", [
        H("1 Intro"), P("See Automatic Variables. See Special Targets."),
        H("2 Using Automatic Variables In Recipes Of Make"), P("x"),
        H("3 Special Built In Targets Names For Old Makes"), P("y"),
    ])
    link_shelf(store, ["guide"], [])
    assert [l["reason"] for l in link_rows(store)] == ["heading names it (citing document)"]
    assert [h["text"] for h in link_rows(store, open_only=True)] == ["Special Targets"]


@pytest.mark.skipif(not (CORPORA / "oauth").exists(), reason="../shared/corpora is not present")
def test_expected_relations_on_the_real_shelves(tmp_path):
    from shelfwise.compiler.build import build_shelf
    from shelfwise.compiler.build import links_stage
    from shelfwise.compiler.settings import Settings

    found = set()
    for shelf in ("oauth", "typing", "identity"):
        build_shelf(CORPORA / shelf, Settings(build_dir=tmp_path), progress=lambda line: None,
                    exclude=["SOURCES.md"], stages=[links_stage()])
        store = Store(tmp_path / shelf / "store.sqlite")
        found |= {(l["kind"], l["src_doc"].split("-md")[0], l["dst_doc"]) for l in link_rows(store)}
        store.close()
    assert ("updates", "rfc8725-txt", "rfc7519-txt") in found
    for src in ("rfc6750-txt", "rfc7009-txt", "rfc7662-txt"):
        assert {k for k, s, d in found if s == src and d == "rfc6749-txt"} >= {"cites", "depends_on"}
    for src in ("pep-0585-rst", "pep-0604-rst", "pep-0612-rst", "pep-0646-rst"):
        assert ("cites", src, "pep-0484-rst") in found
    assert ("depends_on", "sp800-63b-sec3-definitions", "sp800-63-3-definitions-md") in found


def test_a_listing_row_naming_two_documents_supersedes_nothing(tmp_path):
    """A table of sources ("rfc9001.txt | ... | Obsoletes RFC 5849", then "rfc9002.txt | RFC 9002 | ...") is about the
    documents it lists: the row's cue never makes the listing supersede or update a document of the shelf."""
    store = Store(tmp_path / "s.sqlite")
    _put(store, "rfc9001-txt", "The Example Widget Protocol Framework",
         [Element(kind="code", text="Request for Comments: 9001"), H("1. Introduction"), P("Widgets.")], path="rfc9001.txt")
    _put(store, "rfc9002-txt", "Widget Token Revocation",
         [Element(kind="code", text="Request for Comments: 9002"), H("1. Introduction"), P("Tokens.")], path="rfc9002.txt")
    rows = [["file", "RFC", "relation"], ["rfc9001.txt", "RFC 9001", "Obsoletes RFC 5849"], ["rfc9002.txt", "RFC 9002", "uses RFC 9001 terms"]]
    _put(store, "sources-md", "Sources", [H("Sources"), Element(kind="table", text="\n".join(" | ".join(r) for r in rows), rows=rows, header_rows=1)],
         path="SOURCES.md")
    link_shelf(store, ["rfc9001-txt", "rfc9002-txt", "sources-md"], [])
    from_listing = {(l["kind"], l["dst_doc"]) for l in link_rows(store) if l["src_doc"] == "sources-md"}
    assert from_listing and not {kind for kind, _ in from_listing} & {"supersedes", "updates"}
    assert ("cites", "rfc9002-txt") in from_listing
