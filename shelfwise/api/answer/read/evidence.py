"""Whether the read sections state what an obligation asks for at all (the "not in these documents" decision).

An obligation is decided not stated from evidence, never from a failed writer: when
what it asks for — the head of its question ("the *warranty period* of the pump",
"what does a set *cost*", "how many *employees*"), a code it names ("ISO 27001") or a name it gives its subject
("*CCTV* footage", ``unheld_names``) — stands in no read section (text, headings or titles), nothing read can state it,
whatever other words of the question the sections share. Such an obligation gets
no quotes: sentences that share only its generic words ("pump", "set") would be
padding. Everything else is decided by the writer's ranking and the completion step.
"""

from __future__ import annotations

import re

from shelfwise.api.answer.question import read_phrase, read_question
from shelfwise.api.answer.read.read import Reading
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import OPTION, QUESTION_WORDS, document_keys, identifier_key, identifiers, version_key, word_stems
from shelfwise.compiler.document_ids import find_ids
from shelfwise.compiler.language.numbers import CARDINALS
from shelfwise.compiler.ledger.rules import sentences

__all__ = ["unheld_names", "on_shelves", "read_shelves", "referring_back", "asked_head", "unstated_obligations", "read_vocabulary", "asked_names", "code_names", "setting_names", "unheld_subjects", "identity_text", "identity_terms",
           "holds_name", "path_words", "scheme", "asked_subject"]

_AUX = r"(?:is|are|was|were|does|do|did|has|have|can|could|must|should|will|would|shall|may|might)"
_HEADS = [
    # "What is the warranty period of the pump?" -> "warranty period"
    re.compile(r"^(?:what|which)\s+(?:is|are|was|were)\s+(?:the|a|an)\s+(?P<head>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){0,2}?)"
               r"\s+(?:of|for|on|in|at|to|from|with|by|that|which|when|under|per)\b"),
    # "How many employees does ...", "Which cloud provider does ..." -> "employees", "cloud provider"
    re.compile(rf"^(?:what|which|how\s+many|how\s+much)\s+(?P<head>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){{0,2}}?)\s+{_AUX}\b"),
    # "What does SP 800-63B require for synchronizing passkeys between ...?", "What does the MIT License say about patent
    # retaliation when ...?" -> "synchronizing passkeys", "patent retaliation" (the topic a document is asked about)
    re.compile(r"^what\s+(?:does|do|did)\s+.+?\s+(?:say|require|recommend|state|specify|mandate|prescribe)\s+"
               r"(?:about|for|of|on|regarding)\s+(?:the\s+|a\s+|an\s+)?(?P<head>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){0,2}?)"
               r"\s*(?:\b(?:between|with|in|of|for|when|by|to|from|on|that|which|and)\b|$)"),
    # "How does RAPTOR handle images and figures embedded in ...?" -> "images" (what a thing is asked to deal with)
    re.compile(r"^how\s+(?:does|do|did|should|can|would)\s+.+?\s+(?:handle|treat|deal\s+with|cope\s+with)\s+"
               r"(?:the\s+|a\s+|an\s+)?(?P<head>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){0,2}?)"
               r"\s*(?:\b(?:between|with|in|of|for|when|by|to|from|on|that|which|and|or)\b|$)"),
    # "What does an NW-AS 210 set cost?" -> "cost" (the asked verb ends the question)
    re.compile(r"^what\s+(?:does|do|did|will|would)\s+.+\s+(?P<head>[a-z]{3,})$"),
    # "Which cloud provider hosts the database?" -> "cloud provider"
    re.compile(r"^which\s+(?P<head>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)\s+[a-z]+s\s+(?:the|a|an|our|its|their)\b"),
    # "How are synced passkeys treated by ...?" -> "synced passkeys" (what a passive question asks about)
    re.compile(r"^how\s+(?:is|are|was|were)\s+(?:the\s+|a\s+|an\s+)?(?P<head>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){0,2})"
               r"\s+[a-z]+(?:ed|en|wn)\b"),
    # "How do you set a breakpoint in gdb?" -> "breakpoint" (the object of what the asker wants to do)
    re.compile(r"^how\s+(?:do|does|can|should|would)\s+(?:you|i|we|one|users?)\s+[a-z]+\s+(?:a|an|the)\s+"
               r"(?P<head>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){0,2}?)\s+(?:in|of|for|with|on|to|from|by|at|under|using)\b"),
]
GENERIC = frozenset(word_stems("part parts section sections rule rules requirement requirements value values number numbers "
                               "detail details information way ways thing things step steps item items kind kinds") )
"""Heads that name no content of their own ("what is the rule for ...")."""


def asked_head(ask: str) -> list[str]:
    """The stems of what a question asks for (its head), or [] when the question has no such head."""
    text = " ".join(ask.strip().rstrip("?.! ").split()).lower()
    for pattern in _HEADS:
        match = pattern.match(text)
        if match:
            words = [w for w in match.group("head").split() if w not in QUESTION_WORDS]
            return [s for s in word_stems(" ".join(words)) if s not in GENERIC]
    return []


def read_vocabulary(reading: Reading, shelves: dict[str, OpenShelf]) -> tuple[set[str], set[str]]:
    """(stems, identifier keys) of everything read: section texts, headings and document titles."""
    words: set[str] = set()
    keys: set[str] = set()
    for read in reading.sections:
        shelf = shelves[read.shelf]
        cached = shelf.memo(("vocabulary", read.section_id), lambda: _section_vocabulary(shelf, read.section_id))
        words |= cached[0]
        keys |= cached[1]
    return words, keys


def _section_vocabulary(shelf: OpenShelf, section_id: str) -> tuple[set[str], set[str]]:
    section = shelf.sections[section_id]
    text = " ".join([shelf.doc_name(section.doc_id), *section.heading_path, section.text])
    return set(word_stems(text)), {identifier_key(i) for i in identifiers(text)}


def _shelf_document_keys(shelf: OpenShelf) -> set[str]:
    """The identifier keys of every document of the shelf (made once per open shelf: it grew with the shelf per ask)."""

    def make() -> frozenset[str]:
        keys: set[str] = set()
        for doc_id, row in shelf.documents.items():
            keys |= document_keys(doc_id, row.get("title", ""), row.get("path", ""))
        return frozenset(keys)

    return shelf.memo(("document_keys",), make)


def _asked(plan) -> str:
    """The asker's own words: the question, and its resolved form when the rules resolved it or it is a follow-up (a model
    planner's rewrite of a question that stands alone adds words the asker never used, "the changes" for "what does ...
    require": they decide no "not in these documents")."""
    if plan.planner == "rules" or plan.follow_up:
        return f"{plan.question} {plan.resolved_question}"
    return plan.question


def unstated_obligations(plan, reading: Reading, shelves: dict[str, OpenShelf]) -> dict[int, list[str]]:
    """Obligation index -> the words it asks for that no read section holds (only obligations nothing read can state)."""
    words, keys = read_vocabulary(reading, shelves)
    for name in {r.shelf for r in reading.sections}:
        keys |= _shelf_document_keys(shelves[name])
    # only the asker's own words decide: a model planner's paraphrase ("the frequency of calibration" for "how often")
    # adds words no document needs to hold; a model plan's head words count only as the question's own head
    asked = _asked(plan)
    asked_stems = set(word_stems(asked))
    if plan.planner != "rules":
        asked_stems = set(asked_head(plan.question)) | (set(asked_head(plan.resolved_question)) if plan.follow_up else set())
    asked_keys = set(read_phrase(asked).keys)
    schemes = {scheme(key) for key in keys} - {""}
    versions = {version_key(key) for key in keys}
    premises = read_question(plan.question).premises
    scope = read_shelves(reading, shelves)
    out: dict[int, list[str]] = {}
    for index, obligation in enumerate(plan.obligations):
        asking = read_phrase(obligation.ask)
        # a code of a series the sections hold that only the premise names ("answers HTTP 404" where the RFC says 200) is
        # a figure the asker assumes, which the premise check reads, not a subject the documents lack
        outside = _outside_premises(obligation.ask, premises)
        assumed = {key for ident, key in zip(asking.identifiers, asking.keys) if scheme(key) in schemes and ident not in outside}
        missing = [ident for ident, key in zip(asking.identifiers, asking.keys)  # "GPLv3" is the "GPL-3.0" the shelf holds
                   if key not in keys and version_key(key) not in versions and key in asked_keys and key not in assumed]
        head = [stem for stem in asked_head(obligation.ask) if stem in asked_stems]
        if head and not set(head) <= words:
            text = " ".join(obligation.ask.split()).lower()
            missing += [w for w in re.findall(r"[a-z][a-z\-]*", text) if set(word_stems(w)) & (set(head) - words)]
        missing += unheld_names(obligation.ask, asked, premises, words, keys, lambda name: on_shelves(name, scope))
        if missing:
            out[index] = list(dict.fromkeys(missing))
    return out


_OWNED = re.compile(r"\b(?:our|my|your|their)\s+$", re.I)
"""A possessive before a name ("Our API takes the bearer token ..."): the asker's own thing, not what is asked about."""
_OPENS = re.compile(r"(?:^|[.!?;:]\s+)$")
_EITHER = re.compile(r"\b(?:or|and/or|nor)\s+(?:the\s+|an?\s+)?$|^\s*(?:[\w-]+\s+)?(?:or|and/or|nor)\b", re.I)
"""A name one of two alternatives ("Intel's Data Center Group or IoT segment revenues", "IoT segment or DCG"): the ask
is answered by either."""


def on_shelves(name: str, shelves: dict[str, OpenShelf]) -> bool:
    """Whether some section of the shelves holds every word of ``name`` in its text, headings, title or captions (their
    lexical indexes): a name the reading left out but the shelf holds ("Incident Log" when research stopped after the
    Port Rules) is one the documents mention."""
    for shelf in shelves.values():
        lexical = getattr(shelf.searcher, "lexical", None)  # a shelf held in memory has no index: its reading is all of it
        if lexical is None:
            continue
        stems = lexical.terms(name)
        if stems and all(any(lexical.doc_frequency(stem, field) for field in _NAME_FIELDS) for stem in stems):
            return True
    return False


_NAME_FIELDS = ("text", "heading_path", "title", "captions")


def read_shelves(reading: Reading, shelves: dict[str, OpenShelf]) -> dict[str, OpenShelf]:
    """The shelves the reading read from (the question's scope; every open shelf when it read nothing): a word another
    shelf of the server holds is no word of these documents."""
    names = {r.shelf for r in reading.sections}
    return {n: shelves[n] for n in sorted(names) if n in shelves} or shelves


def unheld_names(ask: str, asked: str, premises, words: set[str], keys: set[str], on_shelf=lambda name: False) -> list[str]:
    """The names the ask gives what it is about (``asked_names``: "CCTV" of "How long does GDPR allow a company to keep
    CCTV footage?") that nothing read holds in its text, headings or document names (``words``, ``keys``): the documents
    never say them, whatever else the ask names that they do hold. Left out: an identifier (read against the documents'
    keys above), a name of the asker's scene ("In a CI script ...") or own things ("Our API ..."), one only a premise
    gives (the premise check reads it), a capitalised word that only opens a sentence, one of two alternatives when
    another name of the ask is held ("Data Center Group or IoT": either answers), and one the shelf holds though the
    reading left it out (``on_shelf``: "No section of these documents mentions" it would be untrue); only the asker's
    own words count."""
    text = " ".join(ask.split())
    setting, names = setting_names(text), asked_names(text)
    premised = {n for n in names if any(n in " ".join(p.split()) for p in premises)}
    held = [n for n in names if holds_name(n, words, keys)]
    out = []
    for name in names:
        at = text.find(name)
        if (name in held or read_phrase(name).identifiers or name in setting or name in premised or name not in asked
                or _OWNED.search(text[:at]) or (" " not in name and _OPENS.search(text[:at]))):
            continue
        if held and (_EITHER.search(text[:at]) or _EITHER.search(text[at + len(name):])):
            continue
        if on_shelf(name):
            continue
        out.append(name)
    return out


def scheme(key: str) -> str:
    """An identifier key's series, its leading letters ("http" of "http-404", "sp" of "sp-800-63-b")."""
    return re.match(r"[a-z]*", key).group(0)


def _outside_premises(ask: str, premises) -> str:
    """``ask`` without the premises the question states ("Since ..., how do I raise that limit?": "how do I raise that
    limit?")."""
    for premise in premises:
        ask = ask.replace(premise, " ")
    return ask


_SETTING = re.compile(r"(?:^|(?<=[.;!?]\s))(?:in|inside|within|for|on|from|with|using|at)\s+(?:a|an)\s+(?:[\w.+/-]+\s+){0,4}?[\w.+/-]+"
                      r"(?=\s*,|\s+(?:I|we|you|one)\b)", re.I)
"""A fronted phrase that sets the asker's scene with an indefinite article ("In a CI script I want ...", "For an
internal tool, ..."): the kind of place the asker works in, not the subject asked about."""
_NAME = re.compile(r"(?<![\w-])(?:[A-Z][\w-]*[A-Z0-9][\w-]*|[A-Z][a-z][\w-]*)(?:\s+(?:[A-Z][\w-]*|\d[\w.-]*))*")
_PERIOD = re.compile(r"^(?:Q[1-4]|H[12]|FY\s?\d{2,4}|\d{4}|(?:January|February|March|April|May|June|July|August|September|October|"
                     r"November|December))$")


def setting_names(question: str) -> set[str]:
    """The names ``asked_names`` finds only inside a fronted scene-setting phrase (``_SETTING``): "CI" in "In a CI script
    I want to ask make whether ..."."""
    text = " ".join(question.split())
    spans = [m.span() for m in _SETTING.finditer(text)]
    if not spans:
        return set()
    outside = text
    for start, end in reversed(spans):
        outside = outside[:start] + " " * (end - start) + outside[end:]
    inside = " ".join(text[start:end] for start, end in spans)
    return set(asked_names(inside)) - set(asked_names(outside))


def asked_names(question: str) -> list[str]:
    """The names a question gives its subject by: identifiers ("NW-500", "RFC 6749") and capitalised words past its
    first word ("Orion", "Dense X Retrieval"); a period ("Q3", "FY2023", "July") scopes, it names no subject."""
    text = " ".join(question.split())
    names = list(read_phrase(text).identifiers)
    first = re.match(r"\W*\w+", text)
    for match in _NAME.finditer(text):
        words = match.group(0).split()
        if match.start() < (first.end() if first else 0) and words[0][1:].islower():
            words = words[1:]  # the question's own first word ("Which", "Since", "Explain") is capitalised as any first word is
        words = [w for w in words if not _PERIOD.match(w) and w.lower() not in QUESTION_WORDS]
        if words:
            names.append(" ".join(words))
    return list(dict.fromkeys(n for n in names if re.search(r"[^\W\d_]", n)))  # "31" of "March 31" names nothing


_CODE = re.compile(r"(?<![\w.-])(?:[A-Za-z]\w*\.)*(?P<name>[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w-])")
"""A name written as code, words joined by underscores ("authorization_details", "cc_library", "code_verifier"), also
as the last part of a dotted path ("assert_type" of "typing.assert_type")."""


def code_names(question: str) -> list[str]:
    """The names a question writes as code ("How does the authorization_details parameter ...", "How does
    typing.assert_type ..."): lower-case, so not a capitalised name, yet as much the subject's name as "TypedDict" is; a
    parameter, field or function the shelf never writes is one it does not describe."""
    return list(dict.fromkeys(match.group("name") for match in _CODE.finditer(question)))


def identity_text(shelf: OpenShelf, doc_id: str, cover: bool = True) -> str:
    """What a document says it is: its title, path, identity (name, label, revision, issuer and the issuer's other names)
    and, with ``cover``, its first section (its cover)."""
    row = shelf.documents[doc_id]
    first = next((shelf.sections[s] for s in shelf.doc_sections.get(doc_id, []) if shelf.sections[s].text.strip()), None) if cover else None
    identity = shelf.identities.get(doc_id)
    named = [identity.name, identity.label, identity.revision, identity.issuer, *identity.aliases] if identity is not None else []
    return " ".join([row.get("title", ""), row.get("path", ""), path_words(row.get("path", "")), *named, first.text[:3000] if first else ""])


def path_words(path: str) -> str:
    """A document's file name as words ("GDPR.pdf": "GDPR"; "OWASP-Top-10-2017-en.docx": "OWASP Top 10 2017 en"): a
    file name is one token to the stemmer ("gdpr.pdf"), so a question naming the document by it matched nothing."""
    name = re.split(r"[\\/]", path)[-1]
    return re.sub(r"[._\s-]+", " ", name.rsplit(".", 1)[0] if "." in name else name).strip()


def identity_terms(shelf: OpenShelf, doc_id: str, cover: bool = True) -> tuple[set[str], set[str]]:
    """(stems, identifier keys) of ``identity_text`` and of the document's keys (made once per document)."""

    def make():
        row = shelf.documents[doc_id]
        text = identity_text(shelf, doc_id, cover)
        return set(word_stems(text)), {identifier_key(i) for i in identifiers(text)} | document_keys(doc_id, row.get("title", ""), row.get("path", ""))

    return shelf.memo(("identity", doc_id, cover), make)


def unheld_subjects(plan, units, shelves: dict[str, OpenShelf]) -> dict[int, list[str]]:
    """Obligation index -> the names its ask gives its subject when no unit that would be shown for it is about any of them
    (names one in its text, headings, or its document's title, identity and cover, and says something the ask wants said:
    ``_unit_holds``). A question about a system the shelf does not hold ("the Orion CRM"), named only in a catalogue, a
    reference list or in passing, gets units about other systems: none of them is about Orion, so the obligation is not
    in the documents. A catalogue's units hold nothing here."""
    asked = _asked(plan)
    asked_stems = set(word_stems(asked))
    by_obligation: dict[int, list] = {}
    for unit in units:
        for index in [unit.obligation, *unit.also]:
            by_obligation.setdefault(index, []).append(unit)
    premises = read_question(plan.question).premises
    premised = set(asked_names(" ".join(premises)))
    premised_codes = set(code_names(" ".join(premises)))
    out: dict[int, list[str]] = {}
    for index, obligation in enumerate(plan.obligations):
        setting = setting_names(obligation.ask)  # "In a CI script I want ...": where the asker works, not what is asked
        names = [n for n in [*asked_names(obligation.ask), *code_names(obligation.ask)]
                 if (n in asked or set(word_stems(n)) <= asked_stems) and n not in setting]
        shown = [u for u in by_obligation.get(index, []) if u.kind != "heading"]
        details = _premise_details(premises, obligation.ask, shown, shelves) if names and shown else set()
        names = [n for n in names if n not in details]
        if not names or not shown:
            continue
        named = set().union(*(word_stems(n) for n in names))
        asks = set(word_stems(obligation.ask)) - named - GENERIC  # what the ask wants said of its subject
        if len(asks) < 2:  # one word is the ask's verb ("what distinguishes FAL1, FAL2 and FAL3"): naming the subject is enough
            asks = set()
        if not any(_unit_holds(unit, names, asks, shelves) for unit in shown):
            out[index] = names
            continue
        # the name the ask's grammatical subject is ("How does Toolformer decide which of the API calls ..."): the part is
        # about that thing, whatever other names its predicate gives; no shown unit about it, the documents do not say
        subject = asked_subject(obligation.ask, names)
        if subject and not any(_unit_holds(unit, [subject], set(), shelves) for unit in shown):
            out[index] = [subject]
            continue
        # a name written as code is exact ("write a compile_commands.json compilation database"): one no shown unit writes
        # is a thing the documents do not describe, whatever else the ask names ("GNU make"); an example is the asker's own,
        # and so is a code a premise gives ("Given that RFC 7009 answers ... with an invalid_token error"): the premise
        # check reads it against what the documents say instead
        coded = [n for n in code_names(_EXAMPLES.sub(" ", obligation.ask)) if n in names and n not in premised_codes and not any(
            _unit_holds(unit, [n], set(), shelves) for unit in shown)]
        if coded:
            out[index] = coded
            continue
        # a numbered name ("FIPS 201", "RFC 9449") is the subject however generic its other names ("PIV card"): when no
        # shown unit holds it but as a reference, the part is about a document the shelf only cites (not one a premise
        # names: "Since SP 800-63-2 introduced ..." is corrected, and the rest is answered from what the shelf holds); a term
        # written solid is no document ("if we swap BM25 for a dense retriever": an algorithm the asker names)
        cited = [n for n in names if find_ids(n) and n not in premised and not any(_unit_holds(unit, [n], set(), shelves) for unit in shown)]
        if cited:
            out[index] = cited
    return out


def referring_back(plan, unheld: set[int]) -> dict[int, int]:
    """Part index -> the earlier part of ``unheld`` it goes on about by a pronoun ("What data center revenue did NVIDIA
    report ..., and how much did it grow year over year?"; "What were Apple's total net sales in the quarter ended
    September 30, 2023, and how did they change from a year earlier?"): a part naming nothing of its own is about what
    the part before it asked, so when the documents do not hold that (its subject, its period), nor this part."""
    out: dict[int, int] = {}
    for index, obligation in enumerate(plan.obligations):
        earlier = [i for i in sorted(unheld) if i < index]
        if index not in unheld and earlier and _REFERS_BACK.search(obligation.ask) and not asked_names(obligation.ask) \
                and not code_names(obligation.ask):
            out[index] = earlier[-1]
    return out


_REFERS_BACK = re.compile(r"^\W*(?:\w+\W+){0,4}?(?:it(?!\s+(?:(?:is|was|be)\s+)?(?:possible|true|necessary|allowed|permitted|required|"
                          r"safe|enough|ok|okay|legal|valid|a\s+good\s+idea)\b)|its|they|their|them|this|these|those)\b", re.I)
"""A part whose subject is a pronoun within its first words ("how much did it grow", "what are their limits"): it goes
on about what an earlier part asked ("is it possible to ...", "is it true that": an "it" that stands for nothing)."""


_EXAMPLES = re.compile(r"\b(?:like|such as|e\.g\.,?|for example,?|for instance,?)\s+[^.;:?!]*", re.I)
"""Examples the asker gives ("a variable named after the target, like main_OBJS for main and lib_OBJS for lib")."""
_SUBJECT = re.compile(r"^\W*(?:how|why|when|where|what|who|which\s+[a-z]+)\s+(?:does|do|did|is|are|was|were|can|could|should|will|would|must)"
                      r"\s+(?:the\s+|a\s+|an\s+)?", re.I)
"""A question opening on its auxiliary ("How does", "What did the"): its subject follows."""


def asked_subject(ask: str, names: list[str]) -> str:
    """The name an ask's grammatical subject begins with ("Toolformer" of "How does Toolformer decide which of the API calls
    ...", "SP 800-63B" of "What does SP 800-63B require ..."), or "" when the subject is no name ("How do I ...")."""
    text = " ".join(ask.split())
    opening = _SUBJECT.match(text)
    if not opening:
        return ""
    rest = text[opening.end():]
    return next((name for name in names if re.match(rf"{re.escape(name)}(?![\w-])", rest)), "")  # not "RAG" of "RAG-Fusion"


def _premise_details(premises, ask: str, shown: list, shelves: dict[str, OpenShelf]) -> set[str]:
    """The names only a premise gives that come after a first name of it a shown unit holds: "Since make -j with no
    number limits the jobs to the number of CPUs, how do I raise that limit?" is about -j, which the manual holds, and
    "CPUs" is what the asker assumes of it (a premise the documents may contradict), not a subject they lack. A premise
    whose first name no shown unit holds ("Since the Orion CRM stores contacts in SQL ...") keeps every name, but for a
    code of a series the shown units hold ("Since the revocation endpoint answers HTTP 404 ...", beside "HTTP 400"): a
    figure the asker assumes, which the premise check reads."""
    rest = _outside_premises(ask, premises)
    series = {scheme(identifier_key(i)) for unit in shown for i in identifiers(unit.text)} - {""}
    out: set[str] = set()
    for premise in premises:
        marks = sorted([(m.start(), m.group(0)) for m in OPTION.finditer(premise)] + [(premise.find(n), n) for n in asked_names(premise)])
        if marks and any(_unit_holds(unit, [marks[0][1]], set(), shelves) for unit in shown):
            out |= {name for _, name in marks[1:] if name not in rest}
        # a code of a series the shown units hold ("answers HTTP 404" beside "HTTP 400"): a figure the asker assumes
        out |= {name for _, name in marks if name not in rest and any(scheme(identifier_key(i)) in series for i in identifiers(name))}
    return out


def _unit_holds(unit, names: list[str], asks: set[str], shelves: dict[str, OpenShelf]) -> bool:
    """Whether a unit is about the subject: its text, headings or document name one of ``names``, and its text or headings
    hold a word of what the ask wants said of it (``asks``; empty when the ask says only its verb beside the names). A line
    naming the subject in passing ("no copy of MemGPT was found") or as a reference ("are found in [FIPS 201](#FIPS201)")
    says nothing of it; a catalogue's section holds nothing."""
    shelf = shelves.get(unit.shelf)
    if shelf is None:
        return False
    for sid in unit.citations:
        if sid in shelf.searcher.catalogues or sid not in shelf.sections:
            continue
        section = shelf.sections[sid]
        stems, keys = identity_terms(shelf, section.doc_id, cover=False)  # a cover naming it in passing is no sentence about it
        headings = " ".join(section.heading_path)
        stems, keys = stems | set(word_stems(headings)), keys | {identifier_key(i) for i in identifiers(headings)}
        if any(holds_name(n, stems, keys) for n in names):  # a document or section about the subject
            if not asks or set(word_stems(unit.text)) & asks:
                return True
            continue
        for sentence in sentences(unit.text) or [unit.text]:  # else one sentence names it and says what is asked
            own, named = set(word_stems(sentence)), _CITED.sub(" ", sentence)  # "found in [FIPS 201](#FIPS201)" cites it
            if any(holds_name(n, set(word_stems(named)), {identifier_key(i) for i in identifiers(named)}) for n in names) \
                    and (not asks or own & asks):
                return True
    return False


_CITED = re.compile(r"\[[^\]\n]{1,80}\]\([^)\s]*\)|\[[^\]\n]{1,40}\]")
"""A name written as a reference (a link "[FIPS 201](#FIPS201)", a citation "[RFC7519]"): a sentence that sends the
reader to a document says nothing of what it holds."""


def holds_name(name: str, stems: set[str], keys: set[str]) -> bool:
    """Whether units holding ``stems`` and identifier ``keys`` name ``name``: an identifier by its key ("NW-500" is not
    "NW-300"), a name by all its words."""
    own = {identifier_key(i) for i in identifiers(name)}
    if own:  # "GPLv3" is "GPL-3.0"
        return bool(own & keys) or bool({version_key(k) for k in own} & {version_key(k) for k in keys})
    # a number is one whether spelled or written in digits: "the OWASP Top Ten" is the "OWASP Top 10" its documents name
    return all(s in stems or _SPELLED.get(s, s) in stems for s in word_stems(name))


_SPELLED = {word: str(value) for word, value in CARDINALS.items() if value <= 20} | {
    str(value): word for word, value in CARDINALS.items() if value <= 20}
"""A cardinal word up to twenty -> its digits, and the digits -> the word."""
