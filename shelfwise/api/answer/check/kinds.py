"""Another kind: the premise calls what it names one kind of a thing, the documents call it another.

"Since the := operator defines a recursively expanded variable" against "Simply expanded variables are defined by
lines using ':='": the premise ends on a kind ("is a", "defines a", then a word and the thing of two words or more:
"recursively expanded variable"), and a sentence that holds every name the premise gives its subject (":=") gives the
same thing another word ("simply expanded variables") and never the premise's.

When unsure, nothing is corrected. The kind must be said of the subject, after every name the premise gives it (a
premise whose subject is the kind, "Since recursively expanded variables ...", names nothing and is never read
this way); the premise's kind must stand in the documents (a kind they name, said of something else) and never in a
sentence that also holds the subject's names (a subject of two kinds is of both); the sentence names neither the
premise's word for the kind nor a negation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelfwise.api.answer.check.measure import content_words
from shelfwise.compiler.language.polarity import NEGATED
from shelfwise.compiler.search.code_tokens import holds_token

__all__ = ["Kind", "premise_kind", "holds_kind", "kind_attested", "other_kind"]

_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")
_SAID_OF = re.compile(r"\b(?:is|are|was|were|defines?|declares?|creates?)\s+(?:an?\s+|the\s+)?(?P<kind>[A-Za-z-]+(?:\s+[A-Za-z-]+){2,})\s*$",
                      re.I)
"""A kind said of the subject: "is a", "defines a", "creates", then the kind's word and the thing it qualifies, which
end the premise. The thing has two words or more ("expanded variable"): a one-word thing ("license", "syntax") is too
often another thing with a word before it ("grants a patent license" is no kind of the licence)."""


@dataclass(frozen=True)
class Kind:
    """The kind a premise ends on: its word (``word``, a stem) and the thing it qualifies (``head``, stems)."""

    word: str
    head: tuple[str, ...]


def _stems(text: str) -> list[tuple[str, str | None]]:
    """Each word with its content stem (None for a word that is not a content word)."""
    out = []
    for word in _WORD.findall(text):
        stems = content_words(word)
        out.append((word, next(iter(stems)) if len(stems) == 1 else None))
    return out


def premise_kind(premise: str, marks: list[str]) -> Kind | None:
    """The kind ``premise`` ends on ("defines a recursively expanded variable"), said of the subject its ``marks`` name
    before it; None otherwise."""
    ends = [premise.find(mark) + len(mark) for mark in marks if mark in premise]
    said = _SAID_OF.search(premise[max(ends):]) if ends else None
    if said is None:
        return None
    run = [stem for _, stem in _stems(said.group("kind"))]
    if None in run:
        return None
    return Kind(word=run[0], head=tuple(run[1:]))


def _words_before(kind: Kind, words: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """The word before each place ``words`` (``_stems`` of a text) hold the kind's thing (stem by stem), with the words
    of that thing."""
    stems = [stem for _, stem in words]
    size = len(kind.head)
    return [(" ".join(w for w, _ in words[i - 1:i + size]), stems[i - 1])
            for i in range(1, len(stems) - size + 1) if tuple(stems[i:i + size]) == kind.head]


def holds_kind(kind: Kind, text: str) -> bool:
    """Whether ``text`` holds the premise's kind, its word right before its thing."""
    return any(stem == kind.word for _, stem in _words_before(kind, _stems(text)))


def kind_attested(kind: Kind, marks: list[str], texts: list[str]) -> bool:
    """Whether the documents name the premise's kind (some sentence of ``texts`` holds it) and never say it of the
    subject (no sentence holding it holds every mark too: a subject of two kinds is of both)."""
    holding = [text for text in texts if holds_kind(kind, text)]
    return bool(holding) and not any(all(_holds_mark(mark, text) for mark in marks) for text in holding)


def _holds_mark(mark: str, text: str) -> bool:
    """Whether ``text`` names ``mark``; an operator only as a whole token (``code_tokens.holds_token``: "`:::=` creates
    a recursively expanded variable" does not name ":=")."""
    return mark.lower() in text.lower() if re.search(r"\w", mark) else holds_token(mark, text)


def other_kind(kind: Kind, sentence: str) -> str:
    """Why ``sentence`` contradicts the kind (''): it gives the thing another word and never the premise's."""
    words = _stems(sentence)
    if NEGATED.search(sentence) or any(stem == kind.word for _, stem in words):
        return ""
    others = [phrase for phrase, stem in _words_before(kind, words) if stem is not None]
    return f"the documents call it another kind ({others[0]!r})" if others else ""
