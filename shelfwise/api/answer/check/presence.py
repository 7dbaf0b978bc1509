"""What a premise says something has or does without, against what a sentence says there is (``premise``'s presence
checks): "the GPL-3.0 comes with a warranty" against "THERE IS NO WARRANTY FOR THE PROGRAM"; "RAFT trains without any
distractor documents" against "we include four distractor documents"; "make -t runs the recipes" against "Touch files
... instead of running their recipes". The words are English.
"""

from __future__ import annotations

import re

from shelfwise.api.terms import word_stems
from shelfwise.api.answer.check.about import About
from shelfwise.api.answer.check.measure import content_words as _content
from shelfwise.api.answer.check.modality import CLAUSE_END as _CLAUSE_END, held_with_identity, same_root
from shelfwise.compiler.language.numbers import CARDINALS, alternation
from shelfwise.compiler.language.polarity import CONDITIONAL, HEDGED, NEGATED, NEGATION

__all__ = ["absent", "present", "instead", "required", "free", "answered_otherwise"]

_HAS = re.compile(r"\b(?:comes? with|came with|has|have|had|includes?|included|provides?|provided|offers?|offered|carries|"
                  r"contains?|gives?)\s+(?:a|an|the|any|some|its|their)?\s*(?P<thing>[^,;:]+)", re.I)
_NONE = re.compile(r"\b(?:there (?:is|are) no|no|without(?:\s+any)?|not\s+(?:\w+\s+)?any)\s+(?P<thing>[\w-]+(?:\s+[\w-]+){0,2})", re.I)
_USES = re.compile(r"\b(?:uses?|used|rel(?:y|ies|ied) on|requires?|required|needs?|needed|depends? on|depended on|"
                   r"(?:is\s+|are\s+|was\s+|were\s+)?train(?:s|ed)?\b(?:\s+[\w-]+){0,3}?\s+(?:on|with|from)|learn(?:s|ed|t)? from)"
                   r"\s+(?P<thing>[^,;:]+)", re.I)
"""What a premise says its subject works from: "HyDE trains its dense retriever on relevance labels", "relies on a
shared secret"."""
_STOP = frozenset("a an the any of for to in on at by with from and or that which is are be".split())
_UNLESS = re.compile(r"\b(if|unless|whether|when|whenever|in case|provided that|except)\b", re.I)


def _phrase(text: str) -> list[str]:
    """The stems of the words of ``text`` up to its first function word ("relevance labels" of "relevance labels is")."""
    words = []
    for word in text.split():
        if word.lower() in _STOP:
            break
        words.append(word)
    return [stem for word in words for stem in word_stems(word)]


def absent(premise: str, sentence: str, about: About | None) -> str:
    """The premise says its subject has, includes or comes with a thing ("the GPL-3.0 comes with a warranty"), the
    sentence that there is none of it ("THERE IS NO WARRANTY FOR THE PROGRAM", "WITHOUT ANY WARRANTY"): the thing's first
    content word follows the sentence's "no" / "without". Or the premise says its subject uses, needs or is trained on a
    thing ("HyDE trains its dense retriever on relevance labels"), the sentence that it does without it ("building
    effective dense retrieval systems without relevance labels"): the sentence names the thing by two words or more, all
    of them in what the premise says it uses (one word, "no labels", may be other labels). Everything the premise names before its verb (its subject) is
    held by the sentence, its document's identity or its section's headings; neither states a condition nor a hedge, and
    the premise denies nothing itself. Read before the share of the premise's words a sentence must hold: a denial of
    the thing is short ("no warranty") where the premise says more of it ("from the copyright holders")."""
    if NEGATION.search(premise) or _UNLESS.search(sentence) or HEDGED.search(sentence):
        return ""
    match = _HAS.search(premise)
    if match is not None:
        thing = next(iter(word_stems(_CLAUSE_END.split(match.group("thing"), maxsplit=1)[0])), None)
        subject = _content(premise[:match.start()])
        if thing is not None and subject and subject <= held_with_identity(sentence, about) \
                and any(thing in word_stems(none.group("thing").split()[0]) for none in _NONE.finditer(sentence)):
            return "the documents say there is none"
    match = _USES.search(premise)
    if match is not None:
        used = set(word_stems(_CLAUSE_END.split(match.group("thing"), maxsplit=1)[0]))
        subject = _content(premise[:match.start()])
        if subject and subject <= held_with_identity(sentence, about) and any(
                len(phrase) >= 2 and set(phrase) <= used for phrase in (_phrase(none.group("thing")) for none in _NONE.finditer(sentence))):
            return "the documents say it does without it"
    return ""


_WITHOUT = re.compile(r"\b(?:without|with no)\s+(?:any\s+)?(?P<thing>[^,;:]+)", re.I)
_BOTH = re.compile(r"\bboth\s+(?P<one>[^,;:.()]+?)\s+and\s+(?P<other>[^,;:.()]+)", re.I)
"""Two things said of one subject together: "generate both reasoning traces and task-specific actions"."""
_COUNT = re.compile(rf"\b(?:\d+|{alternation(set(CARDINALS) - {'zero'})}|several|multiple)\s+(?P<rest>(?:[\w-]+\s+){{0,3}}[\w-]+)", re.I)


def present(premise: str, sentence: str, about: About | None) -> str:
    """The premise says something is done without a thing ("RAFT trains without any distractor documents"), the
    sentence gives a count of that thing ("we include four distractor documents"), or says it is done with both another
    thing and that one ("generates reasoning traces without taking any actions" against "generate both reasoning traces
    and task-specific actions"). Everything the premise names before "without" (who does it and what: "RAFT trains",
    not "the baseline trains") is held by the sentence, its document's identity or its section's headings; the sentence
    states no condition and denies nothing."""
    match = _WITHOUT.search(premise)
    if match is None or CONDITIONAL.search(sentence) or NEGATED.search(sentence):
        return ""
    said = _CLAUSE_END.split(match.group("thing"), maxsplit=1)[0]
    thing = _content(said)
    done = _content(premise[:match.start()])
    if not thing or not done <= held_with_identity(sentence, about):
        return ""
    for count in _COUNT.finditer(sentence):
        if thing <= _content(count.group("rest")):
            return "the documents give a number of what the question says is absent"
    head = word_stems(said.split()[-1])  # "actions" of "taking any actions"
    for both in _BOTH.finditer(sentence):
        if head and set(head) <= _content(both.group("other")) and not set(head) <= _content(both.group("one")):
            return "the documents say it does both"
    return ""


def _root(verb: str) -> str:
    """A verb's "-ing" form without its ending ("running": "run", "making": "mak", "telling": "tell")."""
    root = verb.lower()[:-3]
    return root[:-1] if len(root) > 2 and root[-1] == root[-2] and root[-1] not in "lsz" else root


_INSTEAD = re.compile(r"\binstead of\s+(?P<verb>[A-Za-z]+ing)\s+(?P<thing>[^,;:.()]+)", re.I)


def instead(premise: str, sentence: str, about: About | None) -> str:
    """The premise says its subject does a thing ("make -t runs the recipes of out-of-date targets"), the sentence that
    it does something else instead ("Touch files (mark them up to date ...) instead of running their recipes"): the
    verb after "instead of" is the premise's (stem for stem), every content word of its object is in the premise after
    that verb, and everything the premise names before the verb is held by the sentence, its document's identity or its
    section's headings. A premise denying it itself ("does not run") is left alone."""
    if NEGATION.search(premise) or HEDGED.search(sentence):
        return ""
    for other in _INSTEAD.finditer(sentence):
        verb = _root(other.group("verb"))
        for token in re.finditer(r"[A-Za-z]+", premise):
            if len(verb) >= 3 and any(stem.startswith(verb) for stem in word_stems(token.group(0))):
                done, rest = _content(premise[:token.start()]), _content(premise[token.end():])
                if done and done <= held_with_identity(sentence, about) and _content(other.group("thing")) <= rest:
                    return "the documents say it does something else instead"
                break
    return ""


_WITHOUT_ANY = re.compile(r"\b(?:without|with no)\s+(?:any\s+)?(?P<thing>[A-Za-z][\w-]*)|\b(?P<un>unrestricted|unauthenticated|unauthori[sz]ed)\b",
                          re.I)
_REQUIRES = re.compile(r"\b(?:must|shall|is required to|are required to)\s+(?:also\s+|always\s+)?(?:require|have|use|perform|obtain)\s+"
                       r"(?:some\s+(?:form|kind)\s+of\s+|an?\s+|the\s+|its\s+)?(?P<thing>[A-Za-z][\w-]*)"
                       r"|\b(?P<subject>[A-Za-z][\w-]*)\s+(?:is|are)\s+(?:required|mandatory)\b|\b(?:is|are)\s+(?P<status>restricted)\b"
                       r"|\b(?:must|shall)\s+(?:also\s+|always\s+)?be\s+(?P<done>[A-Za-z]{3,}ed)\b", re.I)
"""What a sentence says is needed: "MUST also require some form of authorization", "MUST always use TLS",
"authentication is required", "is RESTRICTED", or done: "SHALL be salted" (what "without any salt" leaves out)."""
_UN = {"unrestricted": "restriction", "unauthenticated": "authentication", "unauthorised": "authorization", "unauthorized": "authorization"}


def _plain(premise: str, sentence: str) -> bool:
    """Whether the premise denies nothing and the sentence states no condition (its own "without ..." aside) and denies
    nothing: what ``required`` and ``free`` ask of both."""
    return not (NEGATED.search(premise) or CONDITIONAL.search(_WITHOUT.sub("", sentence)) or NEGATED.search(sentence))


def required(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise says a thing is done without something
    ("called by anyone without authorization", "over the PSTN without any restriction", "unauthenticated"), the
    sentence that the same something is required ("MUST also require some form of authorization", "authentication is
    required") or that the thing is restricted ("Use of the PSTN ... is RESTRICTED"), stem for stem, stating no
    condition and denying nothing. The caller reads it only in a sentence holding enough of the premise's words
    (``modality.holds_share``)."""
    if not _plain(premise, sentence):
        return ""
    for without in _WITHOUT_ANY.finditer(premise):
        thing = set(word_stems(without.group("thing") or _UN[without.group("un").lower()]))
        for needed in _REQUIRES.finditer(sentence):
            if thing and thing == set(word_stems(needed.group("thing") or needed.group("subject") or needed.group("status")
                                                 or needed.group("done"))):
                return "the documents say it is restricted" if needed.group("status") else "the documents say it is required"
    return ""


_CHARGED = re.compile(r"\b(?:charg(?:e|es|ed|ing)|bill(?:s|ed|ing)?|pay(?:s|ing)?|paid)\b[^.;:]{0,40}?\bfor\s+(?:every|each|all|any|the|a|an|its|their)?"
                      r"\s*(?P<thing>[A-Za-z][\w-]*)", re.I)
"""A premise saying something is paid for: "charge a fee for every communication", "pay for the copies"."""
_FREE = re.compile(r"\b(?:is|are|be|been)\s+(?:[\w-]+,?\s+){0,2}(?:free of charge|without (?:any\s+)?(?:charge|fee|payment)|at no (?:cost|charge))\b",
                   re.I)
"""A sentence saying something is free: "shall be provided free of charge", "is hereby granted, free of charge" (not a
thing it names in passing, "from a network server at no charge")."""


def free(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise says something is charged or paid for
    ("lets a controller charge a fee for every communication"), the sentence holds the same thing (stem for stem) and
    says something is free of charge ("any communication ... shall be provided free of charge", "Permission is hereby
    granted, free of charge"), stating no condition; the premise denies nothing itself. A thing the sentence names in
    passing as at no charge ("access to copy the Corresponding Source from a network server at no charge") says nothing
    of what the premise says is charged for. The caller reads it only in a sentence holding enough of the premise's
    words (``modality.holds_share``)."""
    charged = _CHARGED.search(premise)
    if charged is None or not _plain(premise, sentence):
        return ""
    thing = set(word_stems(charged.group("thing")))
    if thing and thing <= set(word_stems(sentence)) and _FREE.search(sentence):
        return "the documents say it is free of charge"
    return ""


_ANSWERS = {"ignor": "ignored", "reject": "rejected", "refus": "rejected", "deni": "rejected", "deny": "rejected", "declin": "rejected",
            "accept": "accepted"}
"""What a party does with what it receives, by stem: ignoring it, rejecting it (refusing, denying, declining) or accepting
it; each excludes the others."""
_ANSWER_VERB = r"(?P<verb>ignor\w*|reject\w*|refus\w*|den(?:y|ies|ied|ying)|declin\w*|accept(?!abl)\w*)"
_PRESCRIBED = re.compile(rf"\b(?:MUST|SHALL|SHOULD|must|shall|should)\s+(?:(?:always|simply|silently)\s+)?{_ANSWER_VERB}\s+(?P<thing>[^.;:,()]+)")
"""A sentence prescribing what is done with something: "The authorization server MUST ignore unrecognized request
parameters"."""
_DONE = re.compile(rf"\b{_ANSWER_VERB}\s+(?P<thing>[^.;:?]+)", re.I)


def _answer(verb: str) -> str:
    return next((kind for stem, kind in _ANSWERS.items() if verb.lower().startswith(stem)), "")


def answered_otherwise(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the sentence prescribes what a party does with
    something it receives ("MUST ignore unrecognized request parameters"), the premise says it does another thing with
    it ("reject any request that carries a parameter it does not recognize"): ignoring or accepting against rejecting.
    Every content word of the sentence's thing is the premise's, a word the sentence writes with "un-" ("unrecognized")
    the premise's denied ("does not recognize"); the premise's verb is not itself denied ("does not reject"), and the
    sentence states no condition. The caller reads it only in a sentence holding enough of the premise's words."""
    if CONDITIONAL.search(sentence):
        return ""
    done = [(match, _answer(match.group("verb"))) for match in _DONE.finditer(premise)
            if not NEGATION.search(" ".join(premise[:match.start()].split()[-2:]))]
    for prescribed in _PRESCRIBED.finditer(sentence):
        kind = _answer(prescribed.group("verb"))
        thing = _content(prescribed.group("thing"))
        for match, said in done:
            if not said or said == kind or "rejected" not in (said, kind) or len(thing) < 2:
                continue
            theirs = _content(match.group("thing"))
            negated = bool(NEGATION.search(match.group("thing")))
            if all(word in theirs or (negated and word.startswith("un") and any(same_root(word[2:], t, 5) for t in theirs)) for word in thing):
                return f"the documents say it is {kind}"
    return ""
