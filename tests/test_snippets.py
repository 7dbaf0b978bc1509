"""Search-hit snippets: the stretch of a section holding most of the query's words, cut at word boundaries."""

from __future__ import annotations

from shelfwise.compiler.search.snippets import SNIPPET_CHARS, snippet

LONG = "Intro words here. " * 20 + "Privileged accounts are reviewed quarterly by the security officer. " + "Tail text again. " * 20


def test_the_snippet_holds_the_matching_sentence_with_a_little_context():
    text = snippet(LONG, "how often are privileged account reviews")
    assert "Privileged accounts are reviewed quarterly by the security officer." in text
    assert text.startswith("… Intro") and text.endswith(" …") and len(text) <= SNIPPET_CHARS + 4
    assert text.index("Privileged") < 60  # the match leads, it is not pushed to the window's far end


def test_short_text_is_whole_and_no_match_gives_the_opening():
    assert snippet("A short   section.\n\nTwo lines.", "anything") == "A short section. Two lines."
    opening = snippet(LONG, "zebra")
    assert opening.startswith("Intro words here.") and opening.endswith(" …")

