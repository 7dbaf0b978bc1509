"""shelfwise/compiler/prose.py: the one sentence splitter (with spans) and the one normaliser."""

from __future__ import annotations

import pytest

from shelfwise.api.answer.claims import split_sentences
from shelfwise.compiler.ledger.rules import sentences as ledger_sentences
from shelfwise.compiler.prose import normalise, sentence_spans, sentences


@pytest.mark.parametrize("text, expected", [
    ("Ship by Jan. 5. Then invoice.", ["Ship by Jan. 5.", "Then invoice."]),  # the ledger and the claims used to disagree here
    ("See No. 3 and Fig. 2 of the plan. It holds.", ["See No. 3 and Fig. 2 of the plan.", "It holds."]),
    ("The answer is no. Then we stop.", ["The answer is no.", "Then we stop."]),
    ("Ask Dr. Smith, e.g. about U.S. rules. Done.", ["Ask Dr. Smith, e.g. about U.S. rules.", "Done."]),
    ("It costs 3.5 USD. \"Quoted\" next.", ["It costs 3.5 USD.", "\"Quoted\" next."]),
    ("when using `.ONESHELL` (see Using One Shell).", ["when using `.ONESHELL` (see Using One Shell)."]),
    ("  \n ", []),
    # a BCP 14 label runs in after its term's colon, also behind a lead-in (an answer's correction label)
    ("active: REQUIRED.  Boolean indicator of whether the token is active. Next.",
     ["active: REQUIRED. Boolean indicator of whether the token is active.", "Next."]),
    ("The documents say: state: RECOMMENDED.  An opaque value used by the client. Next.",
     ["The documents say: state: RECOMMENDED. An opaque value used by the client.", "Next."]),
    ("Every parameter listed below is REQUIRED. The server checks them.", ["Every parameter listed below is REQUIRED.", "The server checks them."]),
])
def test_sentences(text, expected):
    assert sentences(text) == expected
    assert ledger_sentences(text) == expected and split_sentences(text) == expected  # one splitter behind both names


def test_spans_point_into_the_text_as_given():
    text = "  First line\n  goes on.   Second one!\n"
    spans = sentence_spans(text)
    assert [text[a:b] for a, b in spans] == ["First line\n  goes on.", "Second one!"]
    assert sentences(text) == ["First line goes on.", "Second one!"]


def test_normalise():
    assert normalise(" a\n\tb  c ") == "a b c"
