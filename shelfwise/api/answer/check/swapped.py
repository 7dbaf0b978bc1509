"""Another term's definition: the premise says of a term what the documents define another term of its list as.

"Since the automatic variable $@ holds the names of all the prerequisites" against the table of automatic variables:
"`$@`: The file name of the target of the rule." and "`$^`: The names of all the prerequisites, with spaces between
them." The premise gives its term (``$@``) a description ("the names of all the prerequisites"); the documents' entry
for that term does not hold it, and the entry of another term of the same shape (``$^``: a variable, an option, a
quoted name) holds every content word of it. The entry of the premise's term is the correction.

When unsure, nothing is corrected: the term must have its own entry (a sentence that opens with it, or whose lead-in
ends before it: "Here is a table of automatic variables: $@ The file name ..."), the description must have at least
two content words, all of them held by the other entry, and the term's own entry must not hold them all (a term two
entries describe alike is described rightly).
"""

from __future__ import annotations

import re

from shelfwise.api.answer.check.measure import content_words

__all__ = ["TERM", "described", "entry", "entry_terms", "swapped"]

TERM = re.compile(r"\$[@<^?*%+|]|\$\(\w+\)|(?<![\w-])--?[A-Za-z][\w-]*")
"""A term a list of entries defines: a make automatic variable (``$@``, ``$(@D)``) or a command option (``-k``,
``--keep-going``)."""
_SAYS = re.compile(r"\b(?:holds?|contains?|is|are|means|gives|returns|names|expands? to|stands? for|refers? to)\s+(?P<what>[^,;:]+)",
                   re.I)
_QUOTE = "`‘'\"“’”"


def _shape(term: str) -> str:
    """What kind of term it is: "$" for a variable, "-" for an option."""
    return term[0]


def entry(term: str, sentence: str) -> str | None:
    """The body of ``sentence``'s entry for ``term`` (what follows it when the sentence, or its part after a lead-in
    ending in ":", opens with it; the body may open with a quoted name, "`-q`, `--question`: “Question mode”. ..."), else
    None."""
    quoted = rf"[{_QUOTE}]?{re.escape(term)}[{_QUOTE}]?"
    match = re.search(rf"(?:^|:\s+)\s*{quoted}(?:,\s*[{_QUOTE}]?[^\s,:]+[{_QUOTE}]?)*\s*:?\s+(?P<body>[{_QUOTE}]?[A-Z].*)$", sentence)
    return match.group("body") if match else None


_HEAD = re.compile(rf"^\s*((?:[{_QUOTE}]?(?:{TERM.pattern})[{_QUOTE}]?\s*,?\s*)+):\s")
"""The head of an entry: its terms, quoted or not, separated by commas, then a colon."""


def entry_terms(text: str) -> list[str]:
    """The terms an entry of a list of terms opens on ("`-B`, `--always-make`: Consider all targets out-of-date."): what
    every sentence of the entry is about; [] for any other text."""
    head = _HEAD.match(text)
    return TERM.findall(head.group(1)) if head else []


def described(premise: str, term: str) -> set[str]:
    """The content words of what the premise says ``term`` is or holds ("holds the names of all the prerequisites")."""
    rest = premise[premise.find(term) + len(term):]
    match = _SAYS.search(rest)
    return content_words(match.group("what")) if match else set()


def swapped(premise: str, sentence: str, read: list[str]) -> str:
    """Why ``sentence`` corrects the premise ('' when it does not): it is the entry of the premise's term, it does not
    say what the premise says of it, and another term's entry among ``read`` does."""
    for term in dict.fromkeys(TERM.findall(premise)):
        body = entry(term, sentence)
        said = described(premise, term)
        if body is None or len(said) < 2 or said <= content_words(body):
            continue
        for other in read:
            for found in dict.fromkeys(TERM.findall(other)):
                if found == term or _shape(found) != _shape(term):
                    continue
                theirs = entry(found, other)
                if theirs is not None and said <= content_words(theirs):
                    return f"the documents say that of {found}, not of {term}"
    return ""
