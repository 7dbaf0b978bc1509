"""What a premise says something has or does without, against what a sentence says there is (``premise``'s presence
checks): "the GPL-3.0 comes with a warranty" against "THERE IS NO WARRANTY FOR THE PROGRAM"; "RAFT trains without any
distractor documents" against "we include four distractor documents". The words are English.
"""

from __future__ import annotations

import re

from shelfwise.api.terms import word_stems
from shelfwise.api.answer.check.about import About
from shelfwise.api.answer.check.measure import content_words as _content
from shelfwise.api.answer.check.modality import CLAUSE_END as _CLAUSE_END, held_with_identity
from shelfwise.compiler.language.numbers import CARDINALS, alternation
from shelfwise.compiler.language.polarity import CONDITIONAL, HEDGED, NEGATED, NEGATION

__all__ = ["absent", "present"]

_HAS = re.compile(r"\b(?:comes? with|came with|has|have|had|includes?|included|provides?|provided|offers?|offered|carries|"
                  r"contains?|gives?)\s+(?:a|an|the|any|some|its|their)?\s*(?P<thing>[^,;:]+)", re.I)
_NONE = re.compile(r"\b(?:there (?:is|are) no|no|without(?:\s+any)?|not\s+(?:\w+\s+)?any)\s+(?P<thing>[\w-]+)", re.I)
_UNLESS = re.compile(r"\b(if|unless|whether|when|whenever|in case|provided that|except)\b", re.I)


def absent(premise: str, sentence: str, about: About | None) -> str:
    """The premise says its subject has, includes or comes with a thing ("the GPL-3.0 comes with a warranty"), the
    sentence that there is none of it ("THERE IS NO WARRANTY FOR THE PROGRAM", "WITHOUT ANY WARRANTY"): the thing's first
    content word follows the sentence's "no" / "without". Everything the premise names before its verb (its subject) is
    held by the sentence, its document's identity or its section's headings; neither states a condition nor a hedge, and
    the premise denies nothing itself. Read before the share of the premise's words a sentence must hold: a denial of
    the thing is short ("no warranty") where the premise says more of it ("from the copyright holders")."""
    match = _HAS.search(premise)
    if match is None or NEGATION.search(premise) or _UNLESS.search(sentence) or HEDGED.search(sentence):
        return ""
    thing = next(iter(word_stems(_CLAUSE_END.split(match.group("thing"), maxsplit=1)[0])), None)
    subject = _content(premise[:match.start()])
    if thing is None or not subject or not subject <= held_with_identity(sentence, about):
        return ""
    if any(thing in word_stems(none.group("thing")) for none in _NONE.finditer(sentence)):
        return "the documents say there is none"
    return ""


_WITHOUT = re.compile(r"\b(?:without|with no)\s+(?:any\s+)?(?P<thing>[^,;:]+)", re.I)
_COUNT = re.compile(rf"\b(?:\d+|{alternation(set(CARDINALS) - {'zero'})}|several|multiple)\s+(?P<rest>(?:[\w-]+\s+){{0,3}}[\w-]+)", re.I)


def present(premise: str, sentence: str, about: About | None) -> str:
    """The premise says something is done without a thing ("RAFT trains without any distractor documents"), the
    sentence gives a count of that thing ("we include four distractor documents"). Everything the premise names before
    "without" (who does it and what: "RAFT trains", not "the baseline trains") is held by the sentence, its document's
    identity or its section's headings; the sentence states no condition and denies nothing."""
    match = _WITHOUT.search(premise)
    if match is None or CONDITIONAL.search(sentence) or NEGATED.search(sentence):
        return ""
    thing = _content(_CLAUSE_END.split(match.group("thing"), maxsplit=1)[0])
    done = _content(premise[:match.start()])
    if not thing or not done <= held_with_identity(sentence, about):
        return ""
    for count in _COUNT.finditer(sentence):
        if thing <= _content(count.group("rest")):
            return "the documents give a number of what the question says is absent"
    return ""
