"""The PDF heading benchmark's matching of found headings to outline entries (shelfwise.eval.bench.pdf_headings)."""

from __future__ import annotations

from shelfwise.eval.bench.pdf_headings import heading_key, score_headings


def test_a_section_number_is_dropped_with_its_label() -> None:
    """An outline lists "Basis of Presentation" where the page says "Note 1 : Basis of Presentation" (a 10-Q's notes),
    "Risk Factors" for "Item 1A. Risk Factors", "Graphics" for "Chapter 2 Graphics": the same heading."""
    assert heading_key("Note 1 : Basis of Presentation") == heading_key("Basis of Presentation") == "basisofpresentation"
    assert heading_key("Item 1A. Risk Factors") == heading_key("Risk Factors")
    assert heading_key("Chapter 2 Graphics") == heading_key("2 Graphics") == heading_key("Graphics")
    assert heading_key("Part II — Other Information") == heading_key("Other Information")
    # a label with no number is a word of the title, and a bare label keeps its number
    assert heading_key("Notes to the Financial Statements") == "notestothefinancialstatements"
    assert heading_key("Article 12") == "article12"


def test_headings_match_entries_with_or_without_their_labelled_numbers() -> None:
    found = [("Note 1 : Basis of Presentation", 2, 9), ("Note 2 : Operating Segments", 2, 10), ("Key Developments", 2, 4)]
    wanted = [(1, "Basis of Presentation", 9), (1, "Operating Segments", 10), (1, "Contingencies", 20)]
    scores = score_headings(found, wanted)
    assert scores["matched"] == 2 and scores["missed"] == ["Contingencies"]
    assert scores["recall"] == round(2 / 3, 3) and scores["precision"] == round(2 / 3, 3)
    assert scores["unmatched_found"] == ["Key Developments"]
