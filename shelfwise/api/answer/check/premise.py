"""False premises: what a question takes for granted that a read sentence contradicts (paper §6.6's failure list).

A question's premise is what it presupposes: a "since/given that/because ..."
clause, the content of a "why ..." question, or a statement written as such. A
premise is contradicted by a sentence of a current (not superseded) document that
is about the same thing (shares most of the premise's content words) and states:

- the reverse change: the premise says "from 30 to 45", the sentence "from 45 to 30";
- the opposite direction: extended/increased/added/before/more against
  shortened/reduced/removed/after/less; a figure that rose against one that fell ("was down $6.6 billion"), said of
  the same measure (``check.measure``: named before the word that moves it, not a part of it, "total net sales" is not
  "Accessories net sales") as a fact, not as what may happen or is expected ("which may reduce our net sales");
- the opposite action of a command, option or method: continues/stops, bottom up/top down, survives/terminates; what it does instead ("instead of running their recipes");
- another figure for the same unit: the premise says 60 days, the sentence 30 days and never 60 (in digits or in words:
  "three years" against "six years": ``check.figures``);
- a limit the premise goes past: "as short as 4 characters" against "at least 8 characters", "up to 20 consecutive failed
  authentication attempts" against "no more than 5", "within a month" against "not later than 72 hours" (``check.limits``);
- one for all against one for each: "runs all lines of a recipe in a single shell" against "a new sub-shell for each
  line of the recipe"; "only the targets" against "all targets"; several at once against "only one ... at a time"; one thing
  first and only then another against both "in an interleaved manner" (``check.each``);
- a condition against "always"/"every"/"all": the sentence says "without", "unless", "except",
  "in some instances", "does not apply";
- the other force for the same object: required/not required, permitted/forbidden ("grants a patent license"
  against "hereby grants ... patent license", never against "does not grant permission to use the trade names";
  "forbids charging a fee" against "You may charge any price");
- a denial: the premise says it does something ("make -n executes the recipes"), the sentence that it does not
  ("does not execute it", "MUST NOT issue a refresh token"), or the other way round; a force the sentence disclaims
  ("the authors have no desire to ever make type hints mandatory") against the premise's "makes type hints mandatory";
- the label of a definition item: "the state parameter is required" against "state: RECOMMENDED. An opaque value ..."
  (``check.modality.labelled``);
- a count of what the premise says is absent: "trains without any distractor documents" against "we include four
  distractor documents", or both ("without taking any actions" against "both reasoning traces and ... actions"), said of who the premise says does without it;
  or that it is required ("without authorization" against "MUST also require some form of authorization", "without any restriction" against "is RESTRICTED");
- another kind of the same thing: the premise says its subject is a "recursively expanded variable", a sentence holding
  the subject's names says "simply expanded variables" and never the premise's word (``check.kinds``);
- another edition: the premise says A introduced something ("PEP 604 introduced ParamSpec", "the first version of
  the guidelines introduced ...", "the original OAuth 2.0 RFC defined ..."), a sentence holding it says another
  did; or that A removed it in a release the sentence says the removal comes no sooner than (``check.editions``).

When unsure, nothing is corrected (a wrong correction is worse than none): the sentence, or its document's identity
and headings, must hold every name, identifier and option the premise gives its subject ("the Apache License",
"-k"), name no other year than the premise's for its figures, and state no condition ("if -k was not given,
make aborts") for a denial or an opposite action. A premise naming documents by their compiled identity ("Intel's
revenue ... in Q1 2023": issuer and period) is read only against those documents' sentences.

The direction of a change between two revisions is also computed by code: when a
current sentence and a sentence of a revision its document superseded state the
same rule with different figures of one unit (30 days in Rev D, 45 in Rev C), the
figure went down (or up) whatever the question says, so a premise that it was
extended (or "from 30 to 45") is contradicted by the current sentence even when no
document describes the change.
The finding is one verbatim sentence, shown first with the correction label.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from shelfwise.api.currency import same_rule
from shelfwise.api.terms import identifier_key, identifiers, normalise, word_stems
from shelfwise.api.answer.question import read_question
from shelfwise.api.answer.check.about import About, earlier_sentences as _earlier_sentences
from shelfwise.api.answer.check.about import about_sections as _about, named_documents as _named
from shelfwise.api.answer.check.candidates import paragraph_before, premise_candidates
from shelfwise.api.answer.check.editions import introduced_by
from shelfwise.api.answer.check.kinds import kind_attested, other_kind, premise_kind
from shelfwise.api.answer.check.figures import STATUS as _STATUS, figures as _figures
from shelfwise.api.answer.check.forms import by_form, by_words
from shelfwise.api.answer.check.presence import present as _present
from shelfwise.api.answer.check.swapped import TERM, entry_terms
from shelfwise.api.answer.check.modality import CLAUSE_END as _CLAUSE_END, FORBIDS as _FORBIDS, MODALS as _MODALS, act as _act
from shelfwise.api.answer.check.modality import after_force as _after_force
from shelfwise.api.answer.check.modality import forced_object as _forced_object, held_with_identity, holds_share
from shelfwise.api.answer.check.modality import without_examples
from shelfwise.api.answer.check.modality import modalities as _modalities, optional_as_unrequired, situation_held
from shelfwise.api.answer.check.measure import DOTTED, content_words as _content, measure_words, moved_measure, named_only, whole_moved
from shelfwise.api.answer.read.evidence import asked_names, holds_name, scheme as _scheme
from shelfwise.api.answer.records import Unit
from shelfwise.compiler.language.directions import ACTION_OPPOSITES, CLAIMED_DOWN, CLAIMED_UP, MOVED_PAIR, OPPOSITES
from shelfwise.compiler.language.polarity import CONDITIONAL, HEDGED, NEGATED, NEGATION, denials
from shelfwise.compiler.language.versions import claimed_years, years_named
from shelfwise.compiler.ledger.rules import sentences
from shelfwise.compiler.prose import unmarked
from shelfwise.compiler.tuning import DEFAULT_TUNING, AnswerTuning

__all__ = ["Premise", "About", "find_false_premise", "correction_unit", "CORRECTION_LABEL"]

CORRECTION_LABEL = "Contrary to what the question assumes, the documents say:"

_FROM_TO = re.compile(r"\bfrom\s+(\d+(?:\.\d+)?)\s*(?:[a-z]+\s+){0,2}?to\s+(\d+(?:\.\d+)?)\b", re.I)
_ALWAYS = re.compile(r"\b(always|every|(?<!\bat )(?<!\bafter )all|each|in every case|without exception)\b", re.I)  # not "at all"
_QUALIFIED = re.compile(r"\b(not always|some (?:instances|cases)|without (?:the|a|an)|unless|except|does not apply|do not apply|"
                        r"only (?:if|when|where)|a portion|part of the|not every|not all|removing)\b", re.I)


@dataclass
class Premise:
    """A premise of the question and the read sentence that contradicts it."""

    premise: str
    sentence: str
    shelf: str
    section_id: str
    why: str


def _direction(text: str) -> list[int]:
    """Per direction pair, +1 (extended, added, before), -1 (the opposite) or 0."""
    out = []
    for up, down in OPPOSITES:
        has_up, has_down = bool(re.search(up, text, re.I)), bool(re.search(down, text, re.I))
        out.append(1 if has_up and not has_down else -1 if has_down and not has_up else 0)
    return out


def _clause(premise_words: set[str], sentence: str) -> str:
    """The clause of ``sentence`` that holds most of the premise's words (a sentence may list several changes)."""
    clauses = [c for c in re.split(r",\s*|;\s*|\s+and\s+", sentence) if c.strip()]
    return max(clauses, key=lambda c: len(premise_words & _content(c)), default=sentence)


def _contradiction(premise: str, sentence: str, about: About | None = None, attested: frozenset[str] = frozenset(),
                   share: float = DEFAULT_TUNING.premise_share, settled: bool = False) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not). The clause of the sentence about the premise is
    read first; the direction, the force and what is denied are read in the whole sentence when its clause says none
    (a sentence puts its subject and its verb in different clauses: "the Company's total net sales, which decreased").
    A sentence not holding the situation the premise says its rule holds in ("when the client refreshes an access
    token") contradicts nothing (``modality.situation_held``)."""
    if not situation_held(premise, sentence, about):
        return ""
    words = _content(premise)
    clause = _clause(words, sentence)
    pairs, said = _FROM_TO.findall(premise), _FROM_TO.findall(clause)
    if any((b, a) in said for a, b in pairs) and not any(p in said for p in pairs):
        return "the documents give the change the other way round"
    for text in dict.fromkeys([clause, sentence]):
        why = _opposed(premise, text, words, about, conditional=bool(CONDITIONAL.search(sentence)), hedged=bool(HEDGED.search(sentence)),
                      settled=settled)
        if why:
            return why
    asked, stated, whole = _figures(premise), _figures(clause), _figures(sentence)
    for unit, numbers in asked.items():  # the sentence's one figure of the unit when its clause gives none ("shall, where
        given = stated.get(unit) or (whole[unit] if len(whole.get(unit, ())) == 1 else None)  # feasible, not later than 72 hours ..., notify")
        if given and not numbers & given and not pairs and unit not in attested:
            return f"the documents give another figure ({', '.join(sorted(given))} {unit}s)"
    quantified = _ALWAYS.search(premise)
    if quantified and _QUALIFIED.search(clause) and _in_scope(quantified, premise, sentence, share):
        return "the documents state a condition or an exception"
    for text in dict.fromkeys([clause, sentence]):
        for family, (asserted, stated_force) in _modalities(premise, text).items():
            if asserted != stated_force and _act(premise, family) is not None and _forced_subject(premise, family, sentence, about) \
                    and _holds_object(_after_force(premise, family), sentence, about, loose=True) and _forced_object(premise, text, family):
                # a force word with nothing after it ("defines the authorization code grant") forces nothing
                return f"the documents say it is {'' if stated_force > 0 else 'not '}{family}"
    return _present(premise, sentence, about) or _denied(premise, sentence, words, about)


def _in_scope(quantified: re.Match, premise: str, sentence: str, share: float) -> bool:
    """Whether the sentence is about what the premise says always holds: every word of the noun phrase of "all", "every",
    "each" ("all copies of the Software": not a definition of copying in another licence), or ``share``
    (``answer.tuning.premise_share``) of the verb phrase
    of "always" ("always trains with the oracle (golden) document in the context")."""
    scope = _content(premise[quantified.end():].split(",")[0])
    if not scope:
        return True
    held = len(scope & _content(sentence)) / len(scope)
    return held == 1 or (quantified.group(0).lower() not in ("all", "every", "each") and held >= share)


def _forced_subject(premise: str, family: str, sentence: str, about: About | None) -> bool:
    """Whether the sentence, its document's identity or its headings hold every content word but its names of what the
    premise puts before its force word: "the iss claim is required in every JWT" is about the iss claim, which "The "exp" claim
    identifies the expiration time on or after which the JWT MUST NOT be accepted" does not name."""
    first = min((m.start() for m in _MODALS[family].finditer(premise)), default=0)
    said = [m.group(0) for m in NEGATION.finditer(premise)] + [m.group(0) for f in _MODALS for m in _MODALS[f].finditer(premise)]
    said += _marks(premise)  # its names ("the Apache License") are read with the document's identity (_holds_marks)
    subject = _content(premise[:first]) - {stem for word in said for stem in word_stems(word)}  # "requires verifiers to let"
    return subject <= held_with_identity(sentence, about)


def _holds_object(rest: str, sentence: str, about: About | None, loose: bool = False) -> bool:
    """Whether the sentence (or its section's headings) holds every content word of what the premise says is required,
    permitted or done (``rest``, the premise after its verb): "grants a patent license" is not contradicted by "does not
    grant permission to use the trade names"; "issues a refresh token in the implicit grant's response" is, by "MUST NOT
    issue a refresh token" under the heading "4.2 Implicit Grant". Only up to the end of its clause (``_CLAUSE_END``).
    A repetition is one thing however it is written ("several times", "more than once": ``_REPEATED``). ``loose``: one
    word between the first and the last may be the asker's own ("let subscribers store a password hint" is what "SHALL
    NOT permit the subscriber to store a "hint"" forbids), and so may a word saying how ("process ... freely"); the first
    and the last are held ("a patent license" is not "the trade names ... of the Licensor"; "process personal data for a
    contract" is not what a prohibition of special categories of personal data forbids)."""
    held = _content(sentence) | (_content(about.headings) if about else set())  # not the document's cover: a licence's holds most words
    rest = _CLAUSE_END.split(rest, maxsplit=1)[0]
    if _REPEATED.search(rest) and _REPEATED.search(sentence):
        rest = _REPEATED.sub(" ", rest)
    if not loose:
        return _content(rest) <= held
    order = [stem for stem in dict.fromkeys(word_stems(rest)) if stem in _content(rest)]
    manner = {stem for word in re.findall(r"\b[A-Za-z]{4,}ly\b", rest) for stem in word_stems(word)}  # "freely": how, not what
    missing = [stem for stem in order if stem not in held and stem not in manner]
    return not missing or (len(order) >= 3 and len(missing) == 1 and missing[0] not in (order[0], order[-1]))


_REPEATED = re.compile(r"\b(?:several|many|multiple|numerous|repeated) times\b|\bmore than once\b|\brepeatedly\b|\bover and over\b", re.I)


def _after_word(premise: str, pair: tuple[str, str]) -> str:
    """The premise after its first word of ``pair`` ("Injection from the list" of "... removed Injection from the
    list"): what it says was added or removed, which the contradicting sentence must name too."""
    ends = [m.end() for pattern in pair for m in re.finditer(pattern, premise, re.I)]
    return premise[min(ends):] if ends else premise


def _after_verb(premise: str, verbs: set[str]) -> str:
    """The premise after the first word whose stem is one of ``verbs``."""
    for match in re.finditer(r"[\w'-]+", premise):
        if set(word_stems(match.group(0))) & verbs:
            return premise[match.end():]
    return premise


def _opposed(premise: str, text: str, words: set[str], about: About | None, conditional: bool, hedged: bool = False,
             settled: bool = False) -> str:
    """A pair of OPPOSITES the premise and ``text`` take opposite sides of. A figure's movement ("rose" / "decreased")
    counts only when ``text`` (with its document's identity and its section's headings) holds every content word of the premise: the
    same measure ("total net sales"), not another one the sentence also names ("Accessories net sales"), and the
    sentence says it moved, not that it may or is expected to (``hedged``: "which may reduce our net sales"), and no
    sentence of the documents read says the whole measure moved the premise's way (``settled``: "Total revenue ... was
    down" settles "revenue decreased" against a segment's "Revenue was $232 million, up $175 million"). What a
    command does ("continues" / "stops") counts only when the sentence states no condition ("if -k was not given, make
    stops")."""
    measure = measure_words(premise)  # "compared with a year earlier" frames the movement
    for pair, mine, theirs in zip(OPPOSITES, _direction(premise), _direction(text)):
        if not (mine and theirs and mine != theirs):
            continue
        if pair == MOVED_PAIR and (hedged or settled or not measure <= _content(text) | (about.stems | _content(about.headings) if about else set())
                                   or not moved_measure(measure - (about.title if about else set()), premise, text, theirs,
                                                        _content(about.headings) if about else set())):
            continue
        if pair in ACTION_OPPOSITES:
            if conditional:
                continue
            return "the documents say it does the opposite"
        if pair == OPPOSITES[1] and not _holds_object(_after_word(premise, pair), text, about):
            continue  # "removed Injection from the list" is not contradicted by "newly introduced injection flaws"
        return "the documents state the opposite direction"
    return ""


def _lemma(word: str) -> str:
    """A verb without its ending ("evaluates", "evaluated", "evaluate": "evaluat"): the stemmer leaves "evalu" of the
    first and "evaluat" of the second, so a premise's "evaluates" missed the sentence's "will not be evaluated". A noun
    keeps its own ending ("authorization" is not "authorized")."""
    low = word.lower()
    for ending in ("ing", "es", "ed", "s", "e"):
        if low.endswith(ending) and len(low) - len(ending) >= 4:
            return low[: -len(ending)]
    return low


def _denied(premise: str, sentence: str, words: set[str], about: About | None = None) -> str:
    """The premise says something does a thing ("make -n executes the recipes"), the sentence that it does not ("do
    not execute it"). Only that way round: a sentence saying a thing without a negation may still deny it ("the need for
    relevance labels is removed"). A premise word after its own negation ("without executing them") asserts nothing; a
    sentence stating a condition ("if", "unless", "when") is not read (it says nothing of what always holds)."""
    if _REPEATED.search(sentence) and not _REPEATED.search(premise):
        return ""  # "MUST NOT use the code more than once" denies using it again, not using it
    # only the clauses that deny are read, and only when they state no condition: "Do not run any recipes, or print
    # anything; just return an exit status that is zero if ..." denies printing whatever the later clause's "if"
    sentence = " ".join(c for c in sentence.split(";") if NEGATED.search(c))
    if not sentence or CONDITIONAL.search(sentence):
        return ""
    negated = {stem for match in [*NEGATION.finditer(premise), *_FORBIDS.finditer(premise)]  # "forbids imposing": denied too
               for stem in word_stems(" ".join(premise[match.end():].split()[:3]))}
    forced = {stem for family in _MODALS for match in _MODALS[family].finditer(premise) for stem in word_stems(match.group(0))}
    denied = [verb for verb, head in denials(sentence) if not _content(head) or _content(head) & words]  # "cannot use export"
    lemmas = {_lemma(word) for word in denied}
    asserted = {stem for token in re.findall(r"[\w'-]+", premise) if _lemma(token) in lemmas for stem in word_stems(token)}
    asserted = ((asserted | {stem for word in denied for stem in word_stems(word)}) & words) - negated - forced - named_only(premise)
    if asserted and _holds_object(_after_verb(premise, asserted), sentence, about):
        return f"the documents say it does not ({', '.join(sorted(asserted))})"
    return ""


_OPERATOR = re.compile(r"(?<![^\s'\"`‘“(])([:+?!]{1,3}=|==|=)(?![^\s'\"`’”),.;:])")
"""An operator written in a premise ("the := operator", "‘?=’", "the = operator"): a token of ``:``, ``+``, ``?``, ``!``
and ``=``."""


_EXAMPLE = re.compile(r",?\s*\b(?:as in|e\.g\.|for example|for instance)\s+[^;]*$", re.I)
"""An example a premise ends on ("..., as in Generic[*Ts1, *Ts2]"): it shows the subject, it does not name it."""


def _marks(premise: str) -> list[str]:
    """The names a premise gives its subject, in order: identifiers, capitalised names, options ("-k"), automatic variables ("$@"),
    operators (":="); after a code it opens on, a capitalised name is what it says of the code ("-j ... the number of CPUs")."""
    premise = _EXAMPLE.sub("", premise)  # "as in Generic[*Ts1, *Ts2]": an example of the subject, not its name
    codes = [*TERM.findall(premise), *_OPERATOR.findall(premise)]
    marks = sorted(dict.fromkeys([*asked_names(premise), *codes]), key=premise.find)
    marks = [m for m in marks if not _STATUS.fullmatch(m)]  # "answers HTTP 404": a figure the premise gives (_figures)
    return [m for m in marks if m in codes or identifiers(m)] if marks and marks[0] in codes else marks


def _names_another(own: set[str], sentence: str) -> bool:
    """The sentence names a document of the scheme the premise names ("SP 800-63-2" for a premise about "SP 800-63B")
    and not the premise's own: it states that document's rule (a guideline quoting the revision it replaced), as a
    sentence naming another year states that year's figures. A citation in brackets ("[RFC6749]") is not whose rule it is."""
    named = {identifier_key(i) for i in identifiers(re.sub(r"\[[^\]]*\]", " ", sentence))}  # not a citation: "[RFC6749]"
    schemes = {_scheme(key) for key in own} - {""}
    return bool(named) and not named & own and any(_scheme(key) in schemes for key in named)


def _holds_marks(marks: list[str], sentence: str, about: About) -> bool:
    """Whether the sentence, or its section's document identity and headings, holds every mark of the premise."""
    text = f"{sentence} {about.headings}"
    stems = set(word_stems(DOTTED.sub(" ", text))) | about.stems
    keys = {identifier_key(i) for i in identifiers(text)} | about.keys
    for mark in marks:
        if mark.startswith("-"):
            if not re.search(rf"(?<![\w-]){re.escape(mark)}(?![\w-])", text):
                return False
        elif _OPERATOR.fullmatch(mark):
            if not re.search(rf"(?<![:+?!=]){re.escape(mark)}(?!=)", text):  # ":=" is not "::=" nor ":::="
                return False
        elif not holds_name(mark, stems, keys):
            return False
    return True


def _numbers(text: str) -> dict[str, float]:
    """Per unit, the one figure a sentence gives for it (units given two figures are left out)."""
    return {unit: float(next(iter(values))) for unit, values in _figures(text).items() if len(values) == 1}


def _stated_direction(premise: str) -> int:
    """+1 when the premise says a figure went up ("from 30 to 45", "extended", "increased"), -1 down, 0 neither."""
    pairs = _FROM_TO.findall(premise)
    if pairs:
        signs = {(float(b) > float(a)) - (float(b) < float(a)) for a, b in pairs}
        return signs.pop() if len(signs) == 1 else 0
    up, down = bool(CLAIMED_UP.search(premise)), bool(CLAIMED_DOWN.search(premise))
    return 1 if up and not down else -1 if down and not up else 0


def _computed_change(premise: str, sentence: str, earlier: list[str], same_rule_share: float) -> str:
    """Why ``sentence`` (current) contradicts the direction the premise gives a change: a superseded revision states
    the same rule (``same_rule_share`` of its words) with another figure of the same unit, and the figure moved the
    other way."""
    stated = _stated_direction(premise)
    now = _numbers(sentence)
    if not stated or not now:
        return ""
    for old in earlier:
        if not same_rule(old, sentence, same_rule_share):
            continue
        before = _numbers(old)
        for unit in now.keys() & before.keys():
            computed = (now[unit] > before[unit]) - (now[unit] < before[unit])
            if computed and computed != stated:
                name = "a year" if unit == "per year" else f"{unit}s"
                return (f"the superseded revision says {before[unit]:g} and the current one {now[unit]:g} {name}: "
                        f"{'up' if computed > 0 else 'down'}, not {'up' if stated > 0 else 'down'}")
    return ""


def find_false_premise(question: str, candidates: list[tuple[str, str, str]],
                       earlier: Callable[[str, str], list[str]] | None = None,
                       about: Callable[[str, str], About] | None = None, tuning: AnswerTuning = DEFAULT_TUNING,
                       named: Callable[[str, str], set[str]] | None = None, before: Callable[[str, str, str], str] | None = None
                       ) -> Premise | None:
    """The first premise of ``question`` a candidate sentence contradicts; ``candidates`` are (shelf, section id, text)
    of current documents' sentences, best first. The sentence must hold ``tuning.premise_share`` of the premise's
    content words.
    ``earlier(shelf, section_id)``: the sentences superseded revisions of that section's document state, against
    which the direction of a change the premise asserts is computed. ``about(shelf, section_id)``: what the section's
    document is; given, a sentence contradicts a premise only when it (or its document and headings) holds every name the
    premise gives its subject ("the Apache License", "-k"), and names no other year than the premise's; the edition that
    introduced something is read against it ("This PEP proposes ..."). ``named(shelf, premise)``: the documents the
    premise names by their compiled identity (issuer, form, period: "Intel's revenue ... in Q1 2023"); when it names
    any, only their sentences are read (another quarter's filing states another quarter's figures). ``before(shelf,
    section_id, sentence)``: its paragraph's sentences before it, which may give the names it goes on about."""
    for premise in map(optional_as_unrequired, read_question(question).premises):  # "leaves it up to X whether to": not required
        premise = without_examples(premise)  # "a public client such as a single-page browser app": the client is named
        words = _content(premise)
        if len(words) < 2:
            continue
        marks, years = _marks(premise), years_named(premise)
        own_ids = {identifier_key(i) for i in identifiers(premise)}
        named_stems = set(word_stems(" ".join(marks)))
        attested = _attested(premise, words, candidates, tuning.premise_share)
        kind = premise_kind(premise, marks)
        read = [one for _, _, text in candidates for one in sentences(text) or [text]]
        kind = kind if kind is not None and kind_attested(kind, marks, read) else None
        bound: dict[str, set[str]] = {}
        read_here = []
        for shelf, section_id, text in candidates:
            known = about(shelf, section_id) if about else None
            if known is not None and named is not None:
                if shelf not in bound:
                    bound[shelf] = named(shelf, premise)
                if bound[shelf] and known.doc not in bound[shelf]:
                    continue
            read_here.append((shelf, section_id, text, known))
        read_here.sort(key=lambda one: one[3] is not None and not _holds_marks(marks, "", one[3]))  # "JWT": RFC 7519's first
        measure = measure_words(premise)
        measured = _figures(premise).keys()  # a rule's figure: its sentence is short ("The enrollment code SHALL be valid for a
        # maximum of 7 days.") where the premise says more of its subject: the share is of the shorter one's words, and
        # two words at least, as every candidate holds (``check.candidates``)
        settled = any(whole_moved(measure - (known.title if known else set()), premise, sentence, _content(known.headings) if known else set())
                      for *_, text, known in read_here for sentence in sentences(text) or [text])
        terms = set(TERM.findall(premise))
        for shelf, section_id, text, known in read_here:
            heads = entry_terms(text)  # an entry's sentences are about its terms ("`-q`, `--question`: ... Do not run ..."),
            if heads and not set(heads) & terms:  # and say nothing of what the premise says of others
                continue
            lead = " ".join([*heads, before(shelf, section_id, text) if before else ""])
            for shown in sentences(text) or [text]:  # one sentence at a time: a list item may hold several
                sentence = unmarked(shown)  # read as words (``prose.unmarked``); shown verbatim
                own = _content(sentence)  # "the GNU General Public License forbids ...": a name the sentence leaves
                rest = words - (known.title & named_stems - own) if known is not None else words  # to its document
                label = by_form(premise, sentence, known, read) or (  # the premise's words: ``check.forms``
                    holds_share(words, sentence, known, tuning.premise_share) and by_words(premise, sentence)) or ""
                if not label and len(rest & own) < (  # is checked with the other marks, not here
                        max(2, tuning.premise_share * min(len(rest), len(own))) if measured and measured & _figures(sentence).keys()
                        else tuning.premise_share * len(rest)):
                    continue
                why = "" if label else introduced_by(premise, sentence, known, _content)
                if not why and known is not None:
                    if not _holds_marks(marks, f"{lead} {sentence}", known) or (years and claimed_years(sentence) and not years & claimed_years(sentence)) \
                            or _names_another(own_ids, sentence):
                        continue
                why = why or label or _contradiction(premise, sentence, known, attested, tuning.premise_share, settled) or (
                    earlier and _computed_change(premise, sentence, earlier(shelf, section_id), tuning.same_rule_share)) or (
                    kind is not None and known is not None and other_kind(kind, sentence))
                if why:
                    return Premise(premise=premise, sentence=normalise(shown), shelf=shelf, section_id=section_id, why=why)
    return None


def _attested(premise: str, words: set[str], candidates: list[tuple[str, str, str]], share: float) -> frozenset[str]:
    """The units whose figure the premise gives ("8 characters") that a sentence about the same thing states too: another
    sentence's other figure for that unit ("at least 64 characters" a verifier should permit) contradicts nothing."""
    asked = _figures(premise)
    found = set()
    for _, _, text in candidates:
        for sentence in sentences(text) or [text]:
            if len(words & _content(sentence)) / len(words) >= share:
                found |= {unit for unit, numbers in _figures(sentence).items() if numbers & asked.get(unit, set())}
    return frozenset(found)


def correction_unit(question: str, reading, shelves: dict, tuning: AnswerTuning = DEFAULT_TUNING) -> Unit | None:
    """The verbatim sentence of a current read document that contradicts the question's premise, as a unit shown first
    (group 'correction', obligation 0), or None. Its text stands in the section it cites (checked by code); ``tuning``
    is ``answer.tuning``."""
    premises = read_question(question).premises
    if not premises:
        return None
    about = _about(shelves)
    found = find_false_premise(question, premise_candidates(premises, reading, shelves, about),
                               _earlier_sentences(shelves), about, tuning, _named(shelves), paragraph_before(shelves))
    if found is None or found.sentence not in normalise(shelves[found.shelf].sections[found.section_id].text):
        return None
    return Unit(id="u0", kind="sentence", text=found.sentence, shelf=found.shelf, citations=[found.section_id], obligation=0,
                score=1.0, status="verbatim", group="correction", origin="correction")
