"""The question, read once: what every stage of the answer reads of its words (issue 33: "a question is read once").

``read_question(text)`` gives an ``Asked``: the question's parts (``question_parts``), whether it leans on the
conversation and reads as a follow-up when there is one, and what it presupposes (its premises); each part, and every
obligation's ask a stage reads, is a ``Phrase`` (``read_phrase``): its identifiers and their keys, its capitalised
names, its stems, the facets of its shape (a number, a condition, a version ...) with the words that name them, the
words it sets its subject against ("instead of ..."), and whether it asks about versions. The planner, the ranking,
the premise check and the compare router read these records; none parses the question again. A text is read once per
process (the readers are cached by text), so the plan's parts and the obligations' asks are the same records.

The rules are English (``shelfwise.compiler.language``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from shelfwise.api.terms import QUESTION_WORDS, SYMBOL_NAME, capitalised_phrases, identifier_key, identifiers, stems, word_stems
from shelfwise.compiler.language.versions import ASKS_VERSIONS, asks_about_versions

if TYPE_CHECKING:
    from shelfwise.compiler.digests.identity_match import IdentityMatch

__all__ = ["Asked", "Phrase", "NamedByIdentity", "read_question", "read_phrase", "named_by_identity", "question_parts", "standalone", "premises_of",
           "opens_question", "FACETS", "CONTRAST", "BREAKDOWN"]

FACETS: dict[str, re.Pattern] = {
    "@version": ASKS_VERSIONS,
    "@number": re.compile(r"\bhow (often|long|quickly|soon|many|much|frequently|large|big|fast)\b|\b(lifetimes?|time limits?|"
                          r"lengths?|deadlines?|intervals?|thresholds?|minimum|maximum|limits?|durations?|within|rates?)\b|"
                          r"\btrends?\b|\bfluctuat\w*|\bvariations?\b|\b(?:over|across)\s+(?:the\s+)?(?:reported\s+|last\s+|past\s+)?"
                          r"(?:periods|quarters|years)\b", re.I),
    "@condition": re.compile(r"\bwhen (may|must|can|should|is|are|does|do)\b|\bconditions?\b|\bexceptions?\b|\bunless\b|"
                             r"\bonly (if|when)\b|\b(allowed|permitted)\b|^(may|must|can)\b", re.I),
    "@step": re.compile(r"(?<![\w-])(steps?|procedures?|process|workflow|in what order)\b", re.I),
    "@definition": re.compile(r"^what (is|are) (a|an)\s|\bdefin\w*|\bmean(s|ing)?\b|\bwhat distinguishes\b", re.I),
    "@reason": re.compile(r"\bwhy\b|\breasons?\b|\brationale\b", re.I),
}
"""Facets of a question's shape: when the ask matches, units of that shape hold the facet (the ranking,
``shelfwise.api.answer.write.rank.FACETS``, weighs each against the ask's strongest word) (a version question looks for what documents say of versions, a numeric one for numbers with units,
a conditions one for if/unless/except, a definition one for defining sentences and the ledger's definitions)."""
BREAKDOWN = re.compile(r"\bbreak\s?downs?\b|\bbroken\s+down\b|\b(?:distribution|split|composition|mix)\s+(?:of|among|across|between)\b|"
                       r"\b(?:by|per|across\s+(?:its|the|their|all|each|various|different|diverse)(?:\s+[\w-]+){0,2}?)\s+(?:segments?|"
                       r"products?|product\s+lines?|categor(?:y|ies)|regions?|geograph(?:y|ies|ic\s+areas?)|offerings?|businesses|business\s+"
                       r"(?:lines?|units?|segments?)|lines\s+of\s+business|sources?|markets?)\b", re.I)
"""An ask for the parts a whole is made of ("the revenue breakdown across its service offerings", "the revenue
distribution among its product lines", "net sales by segment"): the table that breaks the whole down answers it whole,
each row as much as the one the ranking picked (``shelfwise.api.answer.write.tables.with_table_rows``)."""
CONTRAST = re.compile(r"\b(?:instead of|rather than|other than|as opposed to|in place of)\s+((?:[\w./-]+\s*){1,4})", re.I)
"""What a question sets its subject against ("index instead of plain fixed-size passages"): those words say what the
answer is not about."""

_SPLIT = re.compile(
    r"\s*[;?](?=\s|$)\s*|,?\s+and\s+(?=(?:what|how|which|who|when|where|why|is|are|does|do|can|must|should)\b)"
    r"|,\s+(?=(?:what|how|which|who|when|where|why)\b)",
    re.I,
)
_FOLLOW_UP = re.compile(
    r"^(and|but|also|what about|how about|what of|and what|and how|same for|then)\b|\b(the other one|the other|that one|"
    r"this one|the same|the former|the latter|those|them|it)\b",
    re.I,
)
_CONJUNCTION = re.compile(r"^(?:and|but|also|plus|then|so)\b[\s,]*", re.I)
"""The word a follow-up opens with ("and who approves ..."): it joins the question to the conversation, and asks nothing."""
_REFERS = re.compile(r"\b(?:it|its|they|them|their|theirs|this|that|these|those|there|which one|that one|this one|the other one|"
                     r"the other|the others|the same|the former|the latter|the previous|the above|above|afterwards|then)\b", re.I)
"""Words that point into the conversation ("does it apply", "the other one"): a question holding one leans on it."""
_ELLIPTIC = re.compile(r"^(?:what|how)\s+about\b|^what\s+of\b|^same\s+for\b", re.I)
OWN_WORDS = 2
"""Content words a question without a referent needs to stand alone ("who approves the quality manual": approves,
quality, manual); "and how often?" or "and why?" has none and leans on what was asked before."""
_CLAUSE = re.compile(r"\b(?:since|given that|now that|because|as we know)\b(?P<p>[^;?]+?)(?=,\s*(?:how|what|which|why|when|where|who|"
                     r"can|could|does|do|did|is|are|was|were|should|must|may|will|would|shall|has|have|i|we|you|then)\b|[;?]|$)", re.I)
"""The premise of a "since ..." question runs to the comma before its main clause ("Since A, B and C were added, how
...": the list is part of it)."""
_WHY = re.compile(r"^\s*(?:why|how come|for what reason)\s+(?:did|does|do|is|are|was|were|has|have|had|must|should|can|will)?\s*(?P<p>[^?]+)", re.I)


def _leans_on_conversation(question: str) -> bool:
    """Whether a question needs the conversation to be understood: it points into it ("it", "those", "the other one"),
    asks elliptically ("what about Rev C?"), is a fragment that asks nothing of its own ("and for Rev C?"), or has
    fewer than ``OWN_WORDS`` content words ("and how often?"). "and who approves the quality manual?" stands alone."""
    rest = _CONJUNCTION.sub("", question.strip()).rstrip(" ?.!")
    if _REFERS.search(rest) or _ELLIPTIC.match(rest) or not _ASKS.match(rest):
        return True
    return len([w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9\-]*", rest) if w.lower() not in QUESTION_WORDS]) < OWN_WORDS


def _opens_as_follow_up(question: str) -> bool:
    """Whether a question reads as a follow-up when there is a previous turn: it opens like one or leans on a referent,
    has few words of its own, and cannot be understood without the conversation (``_leans_on_conversation``); a
    self-contained question that opens with "and" is answered as if asked alone."""
    own = [w for w in re.findall(r"[A-Za-z0-9\-]+", question) if w.lower() not in QUESTION_WORDS]
    return bool(_FOLLOW_UP.search(question.strip())) and len(own) <= 8 and _leans_on_conversation(question)


def standalone(question: str) -> str:
    """The question without the conjunction that joins it to the conversation ("and who approves ...?" -> "Who
    approves ...?"): a self-contained question gets the answer it gets asked alone."""
    rest = _CONJUNCTION.sub("", question.strip())
    if rest == question.strip() or not rest or not _ASKS.match(rest):
        return question
    return rest[:1].upper() + rest[1:]


_ENUMERATION = re.compile(
    r"^(?P<head>.*\b(?:for|of|about|on|in|to|from|under|regarding|concerning)\s+(?:the\s+|a\s+|an\s+)?)"
    r"(?P<items>[^,]+(?:,\s+[^,]+)+?,?\s+(?:and|or)\s+[^,]+)$", re.I)
_COMPARING = re.compile(r"\b(compar\w*|differ\w*|distinguish\w*|between|versus|vs\.?|contrast\w*)\b", re.I)
_PREPOSED = (r"(?:from|in|at|for|by|to|of|on|under|with|within|after|before|until|during)\s+"
             r"(?=(?:what|which|whom|whose|how|when|where)\b)")
"""A preposition before the wh-word a question asks with ("Under what conditions may ...", "from what age can ...")."""
_ASKS = re.compile(rf"^(?:and\s+|but\s+)?(?:{_PREPOSED})?"
                   r"(?:what|whats|how|which|who|whom|whose|when|where|why|is|are|was|were|does|do|did|can|"
                   r"could|should|must|may|might|will|would|shall|has|have|had|list|name|describe|explain|give|show|tell|"
                   r"compare|summari[sz]e|define)\b", re.I)
"""How a part that asks something opens; a leading part that does not ("In an OSCAL-based SSP", "After an applicant is
proofed at IAL2", "Since RAFT trains with ...") is the setting of the part after it."""
MAX_ITEMS = 4
"""At most this many enumerated items become parts of their own (``_enumerated``); a longer list stays one part."""


_HOW_TO = re.compile(r"^(?P<head>(?:.*?[.!:]\s+)?how\s+(?:do|does|can|could|should|would|must|might)\s+(?:i|we|you|one|they)\s+)"
                     r"(?P<items>[^,]+(?:,\s+[^,]+)+?,?\s+(?:and|or)\s+[^,]+)$", re.I)
"""A how-question over three or more actions ("How do I set how many jobs run at once, stop new jobs when the machine is
loaded, force some targets to build in order, and keep their output apart"): one step the asker wants per action."""
_NOT_AN_ACTION = frozenset("""the a an this that these those its their his her my our your some any all each every no
one two three both either neither of in on at to for from with by under over into about as than it they them we you i
he she not""".split())
"""First words of a coordinated item that make it a noun phrase or a clause, not an action ("the queue", "it fails")."""


def _items(text: str) -> list[str]:
    """The items of a coordinated list ("a, b, and c", "a, b or c")."""
    return [i.strip() for i in re.split(r",\s+(?:and\s+|or\s+)?|,?\s+(?:and|or)\s+(?=[^,]+$)", text) if i.strip()]


def _actions(part: str) -> list[str]:
    """A how-question over three to ``MAX_ITEMS`` coordinated actions as one part per action, each with the question's
    head ("How do I stop it starting new jobs when ..."); anything else, or any item that is not an action of two words or
    more opening with a lower-case word (a noun phrase: "the cache"), stays one part."""
    match = _HOW_TO.match(part)
    if not match:
        return [part]
    items = _items(match.group("items"))
    if not 3 <= len(items) <= MAX_ITEMS or any(len(i.split()) < 2 or not i[0].islower() or i.split()[0].lower() in _NOT_AN_ACTION
                                               or not stems(i) for i in items):
        return [part]
    head = match.group("head")
    return [f"{head}{item}" for item in items]


def _enumerated(part: str) -> list[str]:
    """A part that asks the same of three or more short items ("what lifetimes do they give for authorization codes,
    access tokens, and JWTs") as one part per item, each with the shared head: every item gets its own recall, reading
    and share of the answer, as an expert answers each in turn. A comparison ("what distinguishes A, B and C") stays whole."""
    match = _ENUMERATION.match(part)
    if not match or _COMPARING.search(match.group("head")):
        return [part]
    items = _items(match.group("items"))
    if not 3 <= len(items) <= MAX_ITEMS or any(len(i.split()) > 4 or not stems(i) for i in items):
        return [part]
    head = match.group("head")
    return [f"{head}{item}" for item in items]


_CONNECTIVE = re.compile(r"(?:and\s+|but\s+)?if\s+(?:so|not|yes|no|any|applicable)", re.I)
"""A part that only makes the next one conditional ("Has there been a change? If so, what drove it?"): it asks nothing."""


_OPENER = re.compile(r"^(?:(?:and|but|then|also|so|or|plus|please)\b,?\s*)+", re.I)
"""A word that joins a part to the one before it ("then describe ...", "Also, how does ..."): the part still asks."""
_STATEMENT_END = re.compile(r"(?<=[.!])\s+(?=[A-Z])")
_ASKS_AFTER = re.compile(rf",\s+(?:{_PREPOSED})?(?:does|do|did|is|are|was|were|can|could|should|must|will|would|how|what|"
                         r"which|who|when|where|why)\b", re.I)
"""A sentence that asks after a clause ("If I list both files, does make understand ...", "Under the GDPR, from what
age can a user consent ...")."""


def opens_question(text: str) -> bool:
    """Whether ``text`` is one question from its first word ("what are my options ...", "and how do I ..."), not a
    clause or a statement before one ("which I want to keep. Why does it ...")."""
    return bool(_ASKS.match(_OPENER.sub("", text))) and not _STATEMENT_END.search(text)


def _states_then_asks(part: str) -> bool:
    """Whether a leading part states something and then asks ("Our build puts object files into obj/. How do I get make
    to create it first", "One command writes both files. If I list both, does make understand that"): a question of its
    own, read with what it states, whose names the later parts lean on as on any first part's (``plan_by_rules``). Before,
    the whole part was taken for the setting of the parts after it and its question was never asked on its own. A part
    that does not end on a sentence that asks ("In an OSCAL-based SSP") is a setting."""
    *stated, last = _STATEMENT_END.split(part)
    return bool(stated) and bool(_ASKS.match(last) or _ASKS_AFTER.search(last))


def question_parts(question: str) -> list[str]:
    """The parts a question asks, in order (``;``/``?``, "and what ...", a leading setting, an enumeration)."""
    parts = [p.strip(" ,.") for p in _SPLIT.split(question) if p and p.strip(" ,.")]
    for n in range(1, len(parts)):  # "..., and why?": the reasons for the part before it are asked too
        if re.fullmatch(r"(?:and\s+)?why", parts[n], re.I) and stems(parts[n - 1]):
            parts[n - 1], parts[n] = f"{parts[n - 1]}, and why", ""
    parts = [p for p in parts if p and (stems(p) or SYMBOL_NAME.search(p)) and not _CONNECTIVE.fullmatch(p)]  # "What does -k do?"
    for n in range(len(parts) - 2, 0, -1):  # a later part that asks nothing is the setting of the one after it ("...?
        if not (_ASKS.match(_OPENER.sub("", parts[n])) or _ASKS_AFTER.search(parts[n])):  # And if I turn on .ONESHELL
            parts[n:n + 2] = [f"{parts[n]}, {parts[n + 1]}"]  # instead, what changes for the @ prefix?")
    if len(parts) > 1 and not _ASKS.match(parts[0]) and not _states_then_asks(parts[0]):  # "In an OSCAL-based SSP, how
        asked = _ASKS_AFTER.search(parts[0])  # do I ...": a setting, and every part after it is asked in it; "If I break
        if asked is None:  # the terms of GPL-3.0, do I lose my licence, how can I get it back?": a part asked in a setting
            parts = [f"{parts[0]}, {p}" for p in parts[1:]]  # is asked too, and its setting is the later parts'
        else:
            setting = parts[0][:asked.start()]
            parts = [parts[0], *(f"{setting}, {_lower_first(p)}" for p in parts[1:])]
    parts = [piece for p in parts for piece in _enumerated(p)]
    parts = [piece for p in parts for piece in _actions(p)]
    return parts or [question.strip()]


def _lower_first(part: str) -> str:
    """A part set after a clause: its first word in lower case unless it is a name ("Are there" -> "are there")."""
    first = part.split(" ", 1)[0]
    return part[:1].lower() + part[1:] if first[1:].islower() or (len(first) == 1 and first != "I") else part


_THEN_ASKED = re.compile(r"^(?P<p>[^;?]+?)(?:,\s*so|;|\s+[-\u2013\u2014]{1,2})\s+(?:how|what|which|why|when|where|who|can|could|does|do|did|is|"
                        r"are|was|were|should|must|may|will|would|shall|has|have)\b[^;]*\?\s*$", re.I)
"""A statement the question then asks on ("CC BY 4.0 makes me publish any adaptation under CC BY 4.0 as well, so how
should I label ...?", "PEP 484 lets me pass an int where a float is expected; does ...?", "... under RFC 6749 - how do
they ...?"): what it presupposes."""
_MAIN = (r"(?=,\s*(?:how|what|which|why|when|where|who|can|could|does|do|did|is|are|was|were|should|must|may|will|would|"
         r"shall|has|have|i|we|you|then)\b)")
_OPENING = re.compile(r"^\s*(?:as(?!\s+(?:we\s+know|of|for|to|per|in|with|part|well|long|far|soon|much|many|a|an)\b)|"
                      r"with(?!\s+(?:a|an|respect|regard|reference)\b)|given(?:\s+that)?|assuming(?:\s+that)?|knowing(?:\s+that)?|"
                      rf"seeing(?:\s+that|\s+as)?|considering(?:\s+that)?|in light of the fact that)\s+(?P<p>[^;?]+?){_MAIN}", re.I)
"""A sentence opening on what it takes as known, up to the comma before its main clause: "As RFC 6749 lets ...,
how ...", "With RFC 6749 letting public clients ..., how ...", "Assuming make -k stops ..., how ...". Read only at a
sentence's start ("the same as", "with" inside a clause say no premise), not where "as" or "with" frames a time, a role
or a topic ("As of July 1, 2023, ...", "As a developer, ...", "With respect to ..."), and only three words or more."""
_TAGGED = re.compile(r"^(?:(?:is|isn't|is not)\s+it\s+(?:true|right|correct|so)\s+that|am\s+i\s+right\s+(?:in\s+thinking\s+)?that|"
                     r"correct\s+me\s+if\s+i'?m\s+wrong,?\s+but)\s+(?P<p>[^?]+)\?|^(?P<q>[^?]+?),\s*(?:right|correct|true|no|"
                     r"(?:isn't|doesn't|don't|aren't|can't|won't|hasn't|haven't|wasn't|didn't)\s+(?:it|they|he|she|there|that))\s*\?", re.I)
"""A statement the asker asks to have confirmed: "Isn't it true that X?", "X, right?", "X, doesn't it?"."""
_VERB_FORMS = {"allowed": "allows", "permitted": "permits", "required": "requires", "recommended": "recommends",
               "mandated": "mandates", "forbidden": "forbids", "prohibited": "prohibits"}
_SAYS = r"(?:says|states|allows|permits|requires|recommends|mandates|lets|forbids|prohibits|specifies|advises|wants)"
_WHICH = re.compile(rf",\s*(?:which|as)\s+(?:is\s+(?:what\s+|the\s+[a-z]+\s+))?(?P<who>(?:the\s+)?(?-i:[A-Z])[^,;?()]{{0,40}}?)\s+"
                    rf"(?P<verb>{_SAYS})\b[^,;?]*", re.I)
"""A clause saying which document asserts what comes before it: "..., which RFC 6749 permits", "..., which is what
RFC 6749 requires", "If X, as RFC 6749 says, ..." (the document's name begins with a capital)."""
_ALLOWED_BY = re.compile(rf"\((?:(?P<done>{'|'.join(_VERB_FORMS)})\s+(?:by|under|in)\s+(?P<by>(?-i:[A-Z])[^()]{{1,40}})|(?:as|which)\s+"
                         rf"(?P<who>(?-i:[A-Z])[^()]{{1,40}}?)\s+(?P<verb>{_SAYS}))[^()]*\)", re.I)
"""A parenthesis saying which document asserts the clause before it: "(allowed by RFC 6749)", "(as SP 800-63B requires)"."""
_BOUNDARY = re.compile(r"^.*?\b(?:when|whenever|if|while|where|after|before|once|since|because|that|how|what|which|why|who)\s+"
                       r"(?:(?:do|does|did|is|are|was|were|can|could|should|must|may|will|would|shall|has|have)\s+\S+\s+)?", re.I)
"""Where the clause a "which RFC 6749 permits" or "(allowed by RFC 6749)" speaks of begins: after the last
subordinating or question word before it."""


def _asserted(clause: str) -> str:
    """The clause a document is said to assert, without the words that introduce it ("How do public clients
    authenticate when | using the client credentials grant")."""
    rest = clause
    while True:
        cut = _BOUNDARY.match(rest)
        if not cut or not rest[cut.end():].strip():
            return rest.strip(" ,")
        rest = rest[cut.end():]


def _attributed(part: str) -> list[str]:
    """Premises a part attributes to a document: "X, which RFC 6749 permits" -> "RFC 6749 permits X"; "X (allowed by
    RFC 6749)" -> "RFC 6749 allows X"; "If X, as RFC 6749 says, ..." -> "RFC 6749 says X"."""
    found = []
    for match in _WHICH.finditer(part):
        clause = _asserted(re.sub(r"^\s*if\s+", "", part[:match.start()], flags=re.I))
        if len(clause.split()) >= 3:
            found.append(f"{match.group('who').strip()} {match.group('verb')} {clause}")
    for match in _ALLOWED_BY.finditer(part):
        clause = _asserted(part[:match.start()])
        who = (match.group("by") or match.group("who") or "").strip()
        verb = _VERB_FORMS.get((match.group("done") or "").lower()) or match.group("verb")
        if len(clause.split()) >= 3 and who and verb:
            found.append(f"{who} {verb} {clause}")
    return found


def premises_of(question: str) -> list[str]:
    """What the question presupposes (see the module text)."""
    found = [m.group("p").strip() for m in _CLAUSE.finditer(question)]
    for part in re.split(r"(?<=[.?!])\s+", question.strip()):
        match, then, opening, tagged = _WHY.match(part), _THEN_ASKED.match(part), _OPENING.match(part), _TAGGED.match(part)
        if then and len(then.group("p").split()) >= 4 and not _CLAUSE.search(then.group("p")):
            found.append(then.group("p").strip())
        if opening and len(opening.group("p").split()) >= 3:
            found.append(opening.group("p").strip())
        found += _attributed(part)
        if tagged:
            found.append((tagged.group("p") or tagged.group("q")).strip())
        elif match:
            found.append(match.group("p").strip())
        elif part and not part.rstrip().endswith("?") and len(part.split()) >= 4:
            found.append(part.strip())
    return [p for p in dict.fromkeys(found) if p]


@dataclass(frozen=True)
class Phrase:
    """One piece of a question read once: the whole question, one of its parts, or an obligation's ask."""

    text: str
    identifiers: tuple[str, ...]
    """Identifiers it writes ("PEP 484", "SOP-014", "RFC 6750"), in order."""
    keys: tuple[str, ...]
    """Their identifier keys (``shelfwise.api.terms.identifier_key``), in the same order."""
    names: tuple[str, ...]
    """Runs of capitalised words ("Complaint Handling Unit"), in order."""
    word_stems: tuple[str, ...]
    """Its stems as the ranking reads sentences (``shelfwise.api.terms.word_stems``), in order."""
    stems: tuple[str, ...]
    """Its stems without question words (``shelfwise.api.terms.stems``), in order."""
    facets: tuple[str, ...]
    """The facets of its shape (``FACETS``) the text, stripped, matches, in ``FACETS`` order."""
    facet_words: dict[str, frozenset[str]] = field(hash=False)
    """Per facet, the stems of the words that match it ("lifetimes" for @number); a facet no word matches is absent."""
    contrasted: frozenset[str] = frozenset()
    """Stems that stand only in a contrast phrase ("instead of plain fixed-size passages"): what it is not about."""
    versions: bool = False
    """Whether it asks about versions (``shelfwise.compiler.language.versions.asks_about_versions``)."""


@lru_cache(maxsize=4096)
def read_phrase(text: str) -> Phrase:
    """``text`` read once (cached by text: the plan's parts and the obligations' asks are the same records)."""
    found = identifiers(text)
    stripped = text.strip()
    contrasted = {w for m in CONTRAST.finditer(text) for w in word_stems(m.group(1))}
    contrasted -= set(word_stems(CONTRAST.sub(" ", text)))  # a word the ask also uses elsewhere keeps its weight
    facet_words = {}
    for facet, pattern in FACETS.items():
        words = frozenset(w for m in pattern.finditer(text) for w in word_stems(m.group(0)))
        if words:
            facet_words[facet] = words
    return Phrase(text=text, identifiers=tuple(found), keys=tuple(identifier_key(i) for i in found),
                  names=tuple(capitalised_phrases(text)), word_stems=word_stems(text), stems=stems(text),
                  facets=tuple(facet for facet, pattern in FACETS.items() if pattern.search(stripped)), facet_words=facet_words,
                  contrasted=frozenset(contrasted), versions=asks_about_versions(text))


@dataclass(frozen=True)
class Asked:
    """A question read once: its parts, how it stands to the conversation, what it presupposes."""

    text: str
    whole: Phrase
    """The whole question as asked."""
    parts: tuple[Phrase, ...]
    """The parts it asks (``question_parts`` of the question without a joining "and ..."), in order."""
    leans: bool
    """Whether it needs the conversation to be understood ("it", "those", "what about Rev C?", "and how often?")."""
    opens_as_follow_up: bool
    """Whether it reads as a follow-up of the previous turn when there is one (opens like one, few words of its own, leans)."""
    premises: tuple[str, ...]
    """What it presupposes (``premises_of``)."""

    def follow_up(self, history) -> bool:
        """Whether it is read against the previous turn of ``history`` (a list of earlier turns)."""
        return bool(history) and self.opens_as_follow_up

    def phrase(self, text: str) -> Phrase:
        """The reading of one of its parts or of an obligation's ask (a model plan's ask is read here, once)."""
        return read_phrase(text)


@lru_cache(maxsize=1024)
def read_question(text: str) -> Asked:
    """The question ``text`` read once (cached by text)."""
    return Asked(text=text, whole=read_phrase(text), parts=tuple(read_phrase(p) for p in question_parts(standalone(text))),
                 leans=_leans_on_conversation(text), opens_as_follow_up=_opens_as_follow_up(text),
                 premises=tuple(premises_of(text)))


@dataclass(frozen=True)
class NamedByIdentity:
    """The documents a question names by issuer, form and period (``IdentityMatch.find``: "Apple's Q3 2023 10-Q", "the
    quarter ended April 1, 2023"): the whole question's, and each part's."""

    whole: frozenset[str]
    parts: tuple[frozenset[str], ...]


def named_by_identity(asked: Asked, matcher: IdentityMatch | None) -> NamedByIdentity:
    """What ``asked`` names by the compiled identities of a shelf's documents (``matcher``; none: nothing), read once per plan."""
    if matcher is None:
        return NamedByIdentity(frozenset(), tuple(frozenset() for _ in asked.parts))
    return NamedByIdentity(frozenset(matcher.find(asked.text)), tuple(frozenset(matcher.find(p.text)) for p in asked.parts))
