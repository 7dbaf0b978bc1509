"""Splitting a written answer into displayed units and claims."""

from __future__ import annotations

from shelfwise.api.answer.claims import citations_in, claims_of, parse_answer, split_sentences, strip_citations
from shelfwise.api.answer.records import Draft

A, B = "s0123456789a", "sfedcba98765"


def test_sentence_splitting_keeps_abbreviations_decimals_and_section_numbers():
    text = ("Compare A vs. B in Fig. 3 and Sec. 4.1.2, e.g. the 2.5 ms case, i.e. the fast one. "
            "Dr. Smith said so [s0123456789a]. Version 1.0 is old. (See p. 4.) It ends here.")
    assert split_sentences(text) == [
        "Compare A vs. B in Fig. 3 and Sec. 4.1.2, e.g. the 2.5 ms case, i.e. the fast one.",
        "Dr. Smith said so [s0123456789a].",
        "Version 1.0 is old.",
        "(See p. 4.)",
        "It ends here.",
    ]


def test_markers_after_the_full_stop_stay_with_their_sentence():
    assert split_sentences(f"One fact. [{A}] [{B}] Another fact. [{B}]") == [f"One fact [{A}] [{B}].", f"Another fact [{B}]."]
    assert citations_in(f"x [{A}, {B}] y [{A}]") == [A, B]
    assert strip_citations(f"It holds [{A}; {B}].") == "It holds."


def test_parse_answer_units_parts_tables_lists_verdicts():
    markdown = f"""<!-- part 1 -->
## Deadlines
The deadlines are:
- Acknowledge within 5 working days [{A}]
- Notify the same day [{A}]

| Event | Deadline | Source |
|---|---|---|
| Complaint | 5 working days | [{B}] |

<!-- part 2 -->
Verdict: Yes, it was on time.
Because:
- It was received on 2025-03-03 [{A}].
1. First step [{A}]
2. Second step [{A}]
In short, this follows.

<!-- part 3 -->
NOT IN THESE DOCUMENTS
"""
    units, unanswered = parse_answer(markdown)
    kinds = [(u.kind, u.obligation, u.group) for u in units]
    assert kinds == [
        ("heading", 0, "heading"), ("connective", 0, "lead-in"), ("list_item", 0, "list0"), ("list_item", 0, "list0"),
        ("table_header", 0, "table1"), ("table_row", 0, "table1"),
        ("sentence", 1, "verdict"), ("list_item", 1, "premise"), ("step", 1, "premise"), ("step", 1, "premise"),
        ("connective", 1, ""),
    ]
    assert units[5].text == "Complaint | 5 working days" and units[5].citations == [B]
    assert units[4].text == "Event | Deadline"
    assert unanswered == {2}


def test_claims_one_per_sentence_and_per_table_cell():
    units, _ = parse_answer(f"""Acknowledge within 5 days [{A}]. Then close it.

| Item | 2024 | 2025 | Change |
|---|---|---|---|
| Fee | 10 | 12 | +2 [{B}] |
""")
    claims = claims_of(Draft(writer="w", units=units))
    assert [(c.kind, c.text, c.cell) for c in claims] == [
        ("sentence", "Acknowledge within 5 days.", None),
        ("table_cell", "Fee", 0), ("table_cell", "10", 1), ("table_cell", "12", 2), ("change_cell", "+2", 3),
    ]
    assert "header: Item | 2024 | 2025 | Change" in claims[2].context
