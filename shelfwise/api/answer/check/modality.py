"""What a premise and a sentence say is required or permitted (``premise``'s force checks): the force word, what it
binds, and whether it is denied or disclaimed.

``modalities`` gives, per family (required, permitted), the premise's polarity and the sentence's; ``act`` and
``after_force`` what the premise says is required or permitted; ``forced_object`` whether that comes after the
sentence's force word too. The words are English.
"""

from __future__ import annotations

import re

from shelfwise.api.terms import identifiers, word_stems
from shelfwise.api.answer.check.about import About
from shelfwise.api.answer.check.measure import content_words as _content
from shelfwise.api.answer.read.evidence import asked_names
from shelfwise.compiler.language.force import LABEL_KEYWORDS, MAY_VERB, PERMITS, REQUIRES
from shelfwise.compiler.language.numbers import alternation
from shelfwise.compiler.language.polarity import NEGATION

__all__ = ["CLAUSE_END", "AUXILIARY", "MODALS", "FORBIDS", "DISCLAIMED", "LABELLED", "modality", "modalities", "act", "after_force",
           "forced_object", "labelled", "held_with_identity", "holds_share", "situation_held", "optional_as_unrequired",
           "without_examples", "same_root"]

CLAUSE_END = re.compile(r"[,;:]|\b(?:before|after|when|whenever|while|until|unless|because|since|if|once|so that)\b", re.I)
"""Where what a premise says is done ends and a clause about when or why begins: "prints every recipe | before running
it" is contradicted by "do not print the recipes as they are executed"."""


AUXILIARY = re.compile(r"must|shall|mandatory|obliged|need(?:s|ed)? to|ha(?:s|ve) to", re.I)
"""Force words that bind their subject ("the notice shall be included"), not an object after them."""
_PASSIVE = re.compile(r"\b(?:be|is|are|was|were|been|being)\s+(?:\w+ly\s+)?$", re.I)
"""A force word in the passive ("shall be prohibited", "is permitted") binds its subject too."""


def forced_object(premise: str, text: str, family: str) -> bool:
    """Whether what the premise says is required or permitted comes after the force word of ``text`` too: "requires
    conveying the Corresponding Source" is not what "need not require recipients to copy the Corresponding Source" is
    about (its first word, "conveying", is not after "require")."""
    first = act(premise, family)
    if first is None:
        return True
    if family == "permitted" and any(first in word_stems(m.group("verb")) for m in MAY_VERB.finditer(text)):
        return True  # "You may charge any price": the act follows its modal
    matches = [*MODALS[family].finditer(text), *(FORBIDS.finditer(text) if family == "permitted" else [])]
    acts = set(word_stems(after_force(premise, family)))  # every word: content words leave out direction words
    # a modal's subject is what it binds ("the copyright notice ... shall be included", "Processing of personal data ...
    # shall be prohibited"), and what it binds it to is the participle after it: "SHALL NOT be considered verifier
    # compromise resistant when hashed" says nothing of secrets "to be salted and hashed"; a verb's object follows it
    return any(first in _content(text if AUXILIARY.fullmatch(m.group(0)) or _PASSIVE.search(text[:m.start()]) else text[m.end():])
               and _bound_act(text[m.end():], acts) for m in matches)


_BE_DONE = re.compile(r"\s*(?:not\s+)?(?:also\s+)?be\s+(?:\w+ly\s+)?(?P<done>[a-z]{2,}(?:ed|en|wn|pt|nt|lt))\b", re.I)
"""A modal's passive participle: "SHALL NOT be considered", "shall be included", "must not be sent" (not "be at least")."""


_ACTIVE = re.compile(r"\s*(?:not\s+)?(?:(?:also|always|only|then|\w+ly)\s+)?(?P<verb>(?!be\b)[a-z]{3,})\b(?=\s+(?:the|a|an|all|any|each|its|their|[a-z]+s)\b)",
                     re.I)
"""A modal's active verb and the start of its object ("SHALL protect keys", "MUST NOT issue a refresh token")."""


def _bound_act(after: str, acts: set[str]) -> bool:
    """Whether what a modal binds its subject to (the participle right after "be", or the active verb right after the
    modal, before its object) is one of the premise's ``acts``, or a force word itself ("shall be prohibited"), or there is
    neither (or none the stems keep); "be considered" is not "be salted", "SHALL protect keys used for signing" is not
    "to sign its assertions"."""
    done = _BE_DONE.match(after)
    if done is None:  # an active verb: "SHALL protect keys used for signing" binds its subject to protecting, not signing
        verb = _ACTIVE.match(after)
        return verb is None or bool(set(word_stems(verb.group("verb"))) & acts) or bool(
            REQUIRES.search(verb.group("verb")) or PERMITS.search(verb.group("verb")) or FORBIDS.search(verb.group("verb")))
    if REQUIRES.search(done.group("done")) or PERMITS.search(done.group("done")) or FORBIDS.search(done.group("done")):
        return True
    stems = set(word_stems(done.group("done")))
    return not stems or bool(stems & acts)  # a word the stems leave out ("included", a question's frame word): unknown


def act(premise: str, family: str) -> str | None:
    """The stem of the first content word of what the premise says is required or permitted ("charg" of "forbids
    charging a fee"), or None."""
    rest = after_force(premise, family)
    return next((stem for stem in word_stems(rest) if stem in _content(rest)), None)


def after_force(premise: str, family: str) -> str:
    """The premise after its first word of ``family``'s force ("requires", "grants", "forbids"); when nothing follows it
    ("PEP 484 makes type hints mandatory"), what it binds is before it, the names of the premise's subject left out
    ("makes type hints")."""
    matches = [*MODALS[family].finditer(premise), *(FORBIDS.finditer(premise) if family == "permitted" else [])]
    if not matches:
        return premise
    first = min(matches, key=lambda m: m.start())
    rest = premise[first.end():]
    if _LET.fullmatch(first.group(0)):  # "lets a controller process ...": what is permitted follows whom it is permitted
        rest = _BENEFICIARY.sub("", rest, count=1)
    rest = _CAUSED.sub("", _WHOM_TO.sub("", rest, count=1), count=1)  # "requires verifiers to make subscribers change ..."
    if _content(CLAUSE_END.split(rest, maxsplit=1)[0]):
        return rest
    head = re.split(r"[,;:]", premise[:first.start()])[-1]
    for name in [*identifiers(head), *asked_names(head)]:
        head = head.replace(name, " ")
    return head


_LET = re.compile(r"lets?|letting", re.I)
"""The premise's word for a permission ("requires verifiers to let subscribers store a hint"), one of ``MODALS``'s."""
_BENEFICIARY = re.compile(r"^\s*(?:(?:a|an|the|its|their|any|every|each)\s+)?[\w-]+(?=\s+[\w-]+)")
"""Whom "lets" permits ("a controller", "subscribers", "me"), before what it permits them."""
_WHOM_TO = re.compile(r"^\s*(?:(?:a|an|the|its|their|any|every|each|all)\s+)?[\w-]+\s+to\s+(?!be\b)(?=[a-z])")
"""Whom a force binds, before "to" and what it binds them to do: "requires verifiers to make ..." ("requires the notice
to be included" keeps its subject: what is required of it is said by the passive)."""
_CAUSED = re.compile(r"^\s*(?:make|have|let|get)\s+(?:(?:a|an|the|its|their|any|every|each|all)\s+)?[\w-]+\s+(?=[a-z])")
"""A causative before what is done: "make subscribers change their memorized secrets" is changing them."""
MODALS = {"required": REQUIRES, "permitted": re.compile(rf"{PERMITS.pattern}|\b(?:{_LET.pattern})\b", re.I)}
"""The force families a premise and a sentence are compared in, with the words that state each; a premise says "lets"
for what a standard permits ("requires verifiers to let subscribers store a hint")."""
FORBIDS = re.compile(r"\b(prohibit\w*|forbid\w*)\b", re.I)
"""Words that forbid: a permission denied."""


def modality(text: str, family: str, done: str | None = None) -> int:
    """+1 when ``text`` says something is required (or permitted), -1 when it says it is not ("does not require",
    "is not permitted", "prohibits"), 0 when it says neither or both. A "may" or "can" before the act (the stem of what
    the premise says is permitted or forbidden, ``done``) permits it ("You may charge any price"), "may not" forbids it."""
    signs = set()
    if family == "permitted" and done:
        signs |= {-1 if m.group("neg") else 1 for m in MAY_VERB.finditer(text) if done in word_stems(m.group("verb"))}
    for match in MODALS[family].finditer(text):
        before = " ".join(text[:match.start()].split()[-3:])
        after = " ".join(text[match.end():].split()[:1])
        head = re.split(r"[,;:]", text[:match.start()])[-1]  # the force word's clause up to it
        negated = bool(NEGATION.search(before) or re.match(r"(not|n't)\b", after, re.I) or DISCLAIMED.search(head))
        signs.add(-1 if negated else 1)
    if family == "permitted" and FORBIDS.search(text):
        signs.add(-1)
    return signs.pop() if len(signs) == 1 else 0


DISCLAIMED = re.compile(r"\b(?:no|not any|never (?:had|has|have) any)\s+(?:desire|intention|intent|plans?|wish)\s+(?:to|of)\b|"
                         r"\b(?:not|never|n't)\s+(?:\w+\s+)?(?:intend|aim|plan|want|wish|seek)\w*\s+to\b", re.I)
"""A clause disclaiming what follows it: "the authors have no desire to ever make type hints mandatory", "does not
intend to require" — what comes after is denied, however far its force word is from the negation."""


def modalities(premise: str, sentence: str) -> dict[str, tuple[int, int]]:
    """Per modal family both state (required, permitted): (the premise's polarity, the sentence's)."""
    out = {}
    for family in MODALS:
        done = act(premise, family)
        asserted, stated = modality(premise, family, done), modality(sentence, family, done)
        if asserted and stated:
            out[family] = (asserted, stated)
    return out


LABELLED = re.compile(rf"^\s*[\"'‘“]?(?P<term>[A-Za-z_][\w.-]*)[\"'’”]?\s*:?\s+(?P<label>{alternation(LABEL_KEYWORDS)})\b"
                      r"(?P<rest>.*)$", re.S)
"""A definition item whose BCP 14 label says how far its term is required ("state: RECOMMENDED. An opaque value ...",
"scope: OPTIONAL. The scope of the access request ...")."""
_NOT_REQUIRED = re.compile(r"\b(optional|not required|need not|needn't|may be omitted)\b", re.I)
_KIND_WORDS = frozenset(word_stems("parameter parameters field fields member members claim claims attribute attributes "
                                   "element elements value values required requires require mandatory optional"))
"""What a premise calls the term and its force ("the state parameter is required"): not words the item must hold."""


def labelled(premise: str, sentence: str, about: About | None) -> str:
    """Why a labelled definition item contradicts the premise ('' when it does not): the premise says its term is
    required and the label says OPTIONAL or RECOMMENDED, or the premise says it is optional or not required and the label
    says REQUIRED. The term is a word of the premise; every other content word of the premise ("in the authorization
    request") is held by the item, its document's identity or its section's headings ("4.1.1. Authorization Request");
    a label with a condition ("REQUIRED if the "state" parameter was present") states none."""
    found = _label(sentence, about)
    if found is None or re.match(r"\W*(?:if|unless|when|where|except)\b", found[2], re.I):
        return ""
    term, label, _ = found
    if not re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", premise, re.I):
        return ""
    said = -1 if _NOT_REQUIRED.search(premise) else modality(premise, "required")
    stated = 1 if label == "REQUIRED" else -1
    if not said or said == stated:
        return ""
    others = _content(premise) - set(word_stems(term)) - _KIND_WORDS
    return f"the documents label {term} {label}" if others <= held_with_identity(sentence, about) else ""


_PROSE_LABEL = re.compile(rf"\b(?:use of\s+)?this\s+(?:claim|parameter|field|member|header|attribute|element)\s+(?:is|MUST be)\s+"
                          rf"(?P<label>{alternation(LABEL_KEYWORDS)})\b(?P<rest>.*)$", re.S)


def _label(sentence: str, about: About | None) -> tuple[str, str, str] | None:
    """(term, label, what follows the label) of a labelled definition item ("state: RECOMMENDED. An opaque value ..."),
    or of a label written in prose for the term its section's heading quotes ("Use of this claim is OPTIONAL." under
    '4.1.1. "iss" (Issuer) Claim'); None otherwise."""
    match = LABELLED.match(sentence)
    if match is not None:
        return match.group("term"), match.group("label"), match.group("rest")
    match = _PROSE_LABEL.search(sentence)
    quoted = re.findall(r"[\"“]([A-Za-z_][\w.-]*)[\"”]", about.headings) if about else []
    return (quoted[0], match.group("label"), match.group("rest")) if match is not None and len(quoted) == 1 else None


def held_with_identity(sentence: str, about: About | None) -> set[str]:
    """The content words of ``sentence`` with its document's identity and title and its section's headings."""
    return _content(sentence) | ((about.stems | about.title | _content(about.headings)) if about else set())


def holds_share(words: set[str], sentence: str, about: About | None, share: float) -> bool:
    """Whether ``sentence``, with its document's identity and its section's headings, holds ``share`` of the premise's
    content ``words`` (the test of what a sentence is about that a limit, one for each and only against all read)."""
    return bool(words) and len(words & held_with_identity(sentence, about)) >= share * len(words)


_SITUATION = re.compile(r"\b(?:when|whenever|while|once)\s+(?P<situation>[^,;:.?]+)", re.I)
"""The situation a premise says its rule holds in: "issue a new refresh token | when the client refreshes an access
token"."""


def situation_held(premise: str, sentence: str, about: About | None) -> bool:
    """Whether the sentence, its document's identity or its section's headings hold every content word of each situation
    the premise says its rule holds in ("lets the authorization server issue a new refresh token when the client
    refreshes an access token"): a rule of another situation ("The authorization server MUST NOT issue a refresh token."
    under "4.2. Implicit Grant") says nothing of it. A word is held when a held stem begins with its stem, or it with the
    held one, four letters or more ("submits" and "submitted" stem to "submit" and "submitt"). True for a premise naming
    none."""
    held = held_with_identity(sentence, about)
    return all(any(stem == one or same_root(stem, one, 4) for one in held) for match in _SITUATION.finditer(premise)
               for stem in _content(match.group("situation")))


def same_root(a: str, b: str, least: int) -> bool:
    """Whether two stems are one word's: one begins the other and both have ``least`` letters or more (the
    stemmer cuts "submits" and "submitted" to "submit" and "submitt", "unrecognized" and "recognize" to "unrecogniz" and
    "recogn" once its "un-" is off)."""
    return min(len(a), len(b)) >= least and (a.startswith(b) or b.startswith(a))


_OPTIONAL = [
    (re.compile(r"\b(?:leaves?|left|leaving) it (?:up )?to (?P<who>[^,;:]+?) (?:whether|if) (?:or not )?to\b", re.I), r"does not require \g<who> to"),
    (re.compile(r"\b(?:lets?|letting|allows?|allowing) (?P<who>[^,;:]+?) (?:decide|choose) (?:whether|if) (?:or not )?to\b", re.I),
     r"does not require \g<who> to"),
    (re.compile(r"\b(?:makes?|made|making) (?P<what>[^,;:]+?) optional\b", re.I), r"does not require \g<what>"),
]
"""A premise saying an act is optional, and how it says so plainly: "leaves it up to the IdP whether to sign its
assertions" is "does not require the IdP to sign its assertions". A thing said to be optional ("the state parameter is
optional") is read against a definition's label as it is (``labelled``: "REQUIRED if ..." is no contradiction)."""


def optional_as_unrequired(premise: str) -> str:
    """``premise`` with what it says is optional written as not required ("leaves it up to the IdP whether to sign",
    "lets the client decide whether to send", "makes signing assertions optional"), so that the force checks read
    it against "Assertions SHALL be cryptographically signed by the issuer (IdP)"."""
    for pattern, plain in _OPTIONAL:
        premise = pattern.sub(plain, premise)
    return premise


_INLINE_EXAMPLE = re.compile(r",?\s*\b(?:such as|e\.g\.,?|for example,?|for instance,?)\s+(?:(?:a|an|the)\s+)?(?:[\w'-]+\s+){0,4}?[\w'-]+"
                             r"(?=\s*(?:[,;)]|\bto\b|\bthat\b|\bwhich\b|\bwho\b))", re.I)
"""An example a premise gives of its subject within it ("a public client such as a single-page browser app to use ...")."""


def without_examples(premise: str) -> str:
    """The premise without the examples it gives within it: "allows a public client such as a single-page browser app to
    use the client credentials grant" says what it says of public clients; the browser app is the asker's case of one, not
    words a sentence about public clients must hold."""
    return _INLINE_EXAMPLE.sub("", premise)
