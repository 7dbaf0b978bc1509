"""shelfwise.compiler.document_ids: every family of document identifier found and keyed one way, and what must not match."""

from __future__ import annotations

import pytest

from shelfwise.compiler.document_ids import find_ids, key, label, series_ids, whole


def _found(text: str, **options) -> list[tuple[str, str, str]]:
    return [(f.kind, f.label, f.text) for f in find_ids(text, **options)]


@pytest.mark.parametrize(("text", "expected"), [
    ("RFC 6749, [RFC6750] and RFC-7519", [("series", "RFC 6749", "RFC 6749"), ("series", "RFC 6750", "[RFC6750]"),
                                         ("series", "RFC 7519", "RFC-7519")]),
    ("PEP 484, :pep:`585`, :pep:`the union PEP <604>`, pep-0612", [
        ("series", "PEP 484", "PEP 484"), ("series", "PEP 585", ":pep:`585`"), ("series", "PEP 604", ":pep:`the union PEP <604>`"),
        ("series", "PEP 612", "pep-0612")]),
    ("PEPs 526 and 544", [("series", "PEP 526", "PEPs 526 and 544"), ("series", "PEP 544", "PEPs 526 and 544")]),
    ("NIST SP 800-63B, Special Publication 800-63-3", [("series", "SP 800-63B", "NIST SP 800-63B"),
                                                       ("series", "SP 800-63-3", "Special Publication 800-63-3")]),
    ("FIPS 140-3 and FIPS PUB 186-4", [("series", "FIPS 140-3", "FIPS 140-3"), ("series", "FIPS 186-4", "FIPS PUB 186-4")]),
    ("NISTIR 8062, BCP 14, STD 68", [("series", "NISTIR 8062", "NISTIR 8062"), ("series", "BCP 14", "BCP 14"),
                                     ("series", "STD 68", "STD 68")]),
    ("ISO 9001, ISO/IEC 27001:2013, IEC 62304", [("series", "ISO 9001", "ISO 9001"), ("series", "ISO/IEC 27001", "ISO/IEC 27001:2013"),
                                                  ("series", "IEC 62304", "IEC 62304")]),
    ("QM-001 Rev D, WI-022, SOP-014.", [("code", "QM-001", "QM-001"), ("code", "WI-022", "WI-022"), ("code", "SOP-014", "SOP-014")]),
    ("supplier NW-AS 210 and part NW-300A, complaint CMP-2026-0016", [
        ("code", "NW-AS 210", "NW-AS 210"), ("code", "NW-300A", "NW-300A"), ("code", "CMP-2026-0016", "CMP-2026-0016")]),
])
def test_each_family_is_found_with_its_label(text, expected):
    assert _found(text) == expected


@pytest.mark.parametrize("text", [
    "In 2017 the rule changed", "Rev C of the manual", "Python 2.7.4 and 3.9", "H2O", "AAL2 and HS256", "UTF-8 and GPT-4",
    "WITHIN 30 DAYS", "PART 11", "TLS 1.3", "Section 4.2", "rfc 6749 written in lower case prose", "log-2026",
    "<a name=\"ISO_IEC_10646\">",  # in prose an underscore joins an anchor's words; in a path it separates (below)
])
def test_what_is_not_a_document_identifier(text):
    assert find_ids(text) == []


def test_a_code_shape_is_only_a_candidate_and_series_leave_it_out():
    assert _found("SHA-256") == [("code", "SHA-256", "SHA-256")]  # a document only when the shelf carries it
    assert series_ids("SOP-014 cites RFC 6749") == [f for f in find_ids("SOP-014 cites RFC 6749") if f.kind == "series"]
    assert [f.label for f in series_ids("SOP-014 cites RFC 6749")] == ["RFC 6749"]


@pytest.mark.parametrize(("path", "labels"), [
    ("rfc6749.txt", ["RFC 6749"]), ("pep-0484.rst", ["PEP 484"]), ("sp800-63b/sec4_aal.md", ["SP 800-63B"]),
    ("nist_sp_800-63-3.pdf", ["SP 800-63-3"]), ("fips-140-3.pdf", ["FIPS 140-3"]),
    ("documents/sop-014-complaint-handling.docx", ["SOP-014"]), ("sp800-63-3-cover-md", ["SP 800-63-3"]),
    ("documents/complaint-log-2026.xlsx", []),
])
def test_paths_and_lower_cased_text_are_read_in_any_case(path, labels):
    assert [f.label for f in find_ids(path, ignore_case=True)] == labels


@pytest.mark.parametrize(("forms", "expected"), [
    (["RFC 6749", "[RFC6749]", "rfc6749", "RFC-6749", "RFC 06749"], "rfc-6749"),
    (["PEP 484", "pep-0484", ":pep:`484`", ":pep:`484#arbitrary-argument-lists`", ":pep:`the PEP <484#x>`", "PEP484"], "pep-484"),
    (["SP 800-63B", "NIST SP 800-63B", "Special Publication 800-63B", "sp800-63b"], "sp-800-63-b"),
    (["FIPS 140-3", "FIPS PUB 140-3", "fips-140-3"], "fips-140-3"),
    (["ISO 13485", "ISO 13485:2016"], "iso-13485"),
    (["SOP-014", "sop-014", "SOP-14"], "sop-14"),
    (["NW-AS 210", "NW-AS-210", "nw-as 210"], "nw-as-210"),
])
def test_every_form_of_one_identifier_has_one_key(forms, expected):
    assert {key(form) for form in forms} == {expected}


def test_the_key_of_other_text_is_its_letter_and_digit_runs_and_a_whole_identifier_has_a_label():
    assert key("HS256") == "hs-256" and key("T1078.003") == "t-1078-3"
    assert label("rfc6749") == "RFC 6749" and label("RFC 6749 and more") is None
    assert whole("[RFC6749]").kind == "series" and whole("SOP-014", codes=False) is None and whole("[JWS]") is None
