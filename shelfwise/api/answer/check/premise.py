"""False premises: what a question takes for granted that a read sentence contradicts (paper §6.6's failure list).

A question's premise is what it presupposes: a "since/given that/because ..."
clause, the content of a "why ..." question, or a statement written as such. A
premise is contradicted by a sentence of a current (not superseded) document that
is about the same thing (shares most of the premise's content words) and states:

- the reverse change: the premise says "from 30 to 45", the sentence "from 45 to 30";
- the opposite direction: extended/increased/added/before/more against
  shortened/reduced/removed/after/less;
- another figure for the same unit: the premise says 60 days, the sentence 30 days and never 60;
- a condition against "always"/"every"/"all": the sentence says "without", "unless", "except",
  "in some instances", "does not apply".

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

from shelfwise.api.currency import same_rule, superseded_documents
from shelfwise.api.terms import normalise, word_stems
from shelfwise.api.answer.write.write import section_units
from shelfwise.api.answer.question import read_question
from shelfwise.api.answer.records import Unit
from shelfwise.compiler.language.directions import CLAIMED_DOWN, CLAIMED_UP, OPPOSITES
from shelfwise.compiler.language.force import PERMITS, REQUIRES
from shelfwise.compiler.language.numbers import CARDINALS, MULTIPLES, NUMBER_WORDS, alternation
from shelfwise.compiler.ledger.rules import sentences
from shelfwise.compiler.tuning import DEFAULT_TUNING, AnswerTuning

__all__ = ["Premise", "find_false_premise", "correction_unit", "CORRECTION_LABEL"]

CORRECTION_LABEL = "Contrary to what the question assumes, the documents say:"

_FROM_TO = re.compile(r"\bfrom\s+(\d+(?:\.\d+)?)\s*(?:[a-z]+\s+){0,2}?to\s+(\d+(?:\.\d+)?)\b", re.I)
_FIGURE = re.compile(r"\b(\d+(?:\.\d+)?)[\s-]*(calendar days?|working days?|business days?|days?|weeks?|months?|years?|hours?|minutes?|%|per ?cent|characters?|times)\b", re.I)
_ALWAYS = re.compile(r"\b(always|every|all|each|in every case|without exception)\b", re.I)
_QUALIFIED = re.compile(r"\b(not always|some (?:instances|cases)|without (?:the|a|an)|unless|except|does not apply|do not apply|"
                        r"only (?:if|when|where)|a portion|part of the|not every|not all|removing)\b", re.I)
_UNIT_STEMS = frozenset(word_stems("day days calendar working business week weeks month months year years hour hours minute minutes"))


@dataclass
class Premise:
    """A premise of the question and the read sentence that contradicts it."""

    premise: str
    sentence: str
    shelf: str
    section_id: str
    why: str


def _content(text: str) -> set[str]:
    text = re.sub(r"\bRev\b\.?", "Revision", text)
    words = set(word_stems(re.sub(r"\d+(?:\.\d+)?", " ", text)))
    for up, down in OPPOSITES:
        words -= {w for w in words if re.fullmatch(up, w) or re.fullmatch(down, w)}
    return words - _UNIT_STEMS - {"alwai", "everi", "all", "each"}


def _direction(text: str) -> list[int]:
    """Per direction pair, +1 (extended, added, before), -1 (the opposite) or 0."""
    out = []
    for up, down in OPPOSITES:
        has_up, has_down = bool(re.search(up, text, re.I)), bool(re.search(down, text, re.I))
        out.append(1 if has_up and not has_down else -1 if has_down and not has_up else 0)
    return out


_PER = {"year": 1, "month": 12, "week": 52}
_FREQUENCY = re.compile(rf"\b((?:{alternation(MULTIPLES)})|(?:{alternation(CARDINALS)}) times) (?:a|per|each) (year|month|week)\b|\bevery (\d+) (months?|weeks?)\b", re.I)


def _per_year(text: str) -> set[str]:
    """How often a sentence says something happens, per year ("twice a year", "every 6 months": 2)."""
    out = set()
    for times, per, every, unit in _FREQUENCY.findall(text):
        if times:
            out.add(f"{NUMBER_WORDS[times.lower().split()[0]] * _PER[per.lower()]:g}")
        elif int(every):
            out.add(f"{(12 if unit.lower().startswith('month') else 52) / int(every):g}")
    return out


def _clause(premise_words: set[str], sentence: str) -> str:
    """The clause of ``sentence`` that holds most of the premise's words (a sentence may list several changes)."""
    clauses = [c for c in re.split(r",\s*|;\s*|\s+and\s+", sentence) if c.strip()]
    return max(clauses, key=lambda c: len(premise_words & _content(c)), default=sentence)


def _figures(text: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    if _per_year(text):
        out["per year"] = _per_year(text)
    for number, unit in _FIGURE.findall(text):
        key = unit.lower().split()[-1].rstrip("s") if unit.strip() not in ("%",) else "%"
        out.setdefault(key, set()).add(number)
    return out


def _contradiction(premise: str, sentence: str) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not)."""
    sentence = _clause(_content(premise), sentence)
    pairs, said = _FROM_TO.findall(premise), _FROM_TO.findall(sentence)
    if any((b, a) in said for a, b in pairs) and not any(p in said for p in pairs):
        return "the documents give the change the other way round"
    mine, theirs = _direction(premise), _direction(sentence)
    if any(m and t and m != t for m, t in zip(mine, theirs)):
        return "the documents state the opposite direction"
    asked, stated = _figures(premise), _figures(sentence)
    for unit, numbers in asked.items():
        if unit in stated and not numbers & stated[unit] and not pairs:
            return f"the documents give another figure ({', '.join(sorted(stated[unit]))} {unit}s)"
    if _ALWAYS.search(premise) and _QUALIFIED.search(sentence):
        return "the documents state a condition or an exception"
    for family, (asserted, stated) in _modalities(premise, sentence).items():
        if asserted != stated:
            return f"the documents say it is {'' if stated > 0 else 'not '}{family}"
    return ""


_MODALS = {"required": REQUIRES, "permitted": PERMITS}
_NEGATION = re.compile(r"\b(not|no|never|neither|nor|without|cannot)\b|n't\b", re.I)
_FORBIDS = re.compile(r"\b(prohibit\w*|forbid\w*)\b", re.I)


def _modality(text: str, family: str) -> int:
    """+1 when ``text`` says something is required (or permitted), -1 when it says it is not ("does not require",
    "is not permitted", "prohibits"), 0 when it says neither or both."""
    signs = set()
    for match in _MODALS[family].finditer(text):
        before = " ".join(text[:match.start()].split()[-3:])
        after = " ".join(text[match.end():].split()[:1])
        negated = bool(_NEGATION.search(before) or re.match(r"(not|n't)\b", after, re.I))
        signs.add(-1 if negated else 1)
    if family == "permitted" and _FORBIDS.search(text):
        signs.add(-1)
    return signs.pop() if len(signs) == 1 else 0


def _modalities(premise: str, sentence: str) -> dict[str, tuple[int, int]]:
    """Per modal family both state (required, permitted): (the premise's polarity, the sentence's)."""
    out = {}
    for family in _MODALS:
        asserted, stated = _modality(premise, family), _modality(sentence, family)
        if asserted and stated:
            out[family] = (asserted, stated)
    return out


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
                       earlier: Callable[[str, str], list[str]] | None = None, tuning: AnswerTuning = DEFAULT_TUNING) -> Premise | None:
    """The first premise of ``question`` a candidate sentence contradicts; ``candidates`` are (shelf, section id, text)
    of current documents' sentences, best first. The sentence must hold ``tuning.premise_share`` of the premise's
    content words.
    ``earlier(shelf, section_id)``: the sentences superseded revisions of that section's document state, against
    which the direction of a change the premise asserts is computed."""
    for premise in read_question(question).premises:
        words = _content(premise)
        if len(words) < 2:
            continue
        for shelf, section_id, text in candidates:
            for sentence in sentences(text) if len(text) > 400 else [text]:
                held = words & _content(sentence)
                if len(held) / len(words) < tuning.premise_share:
                    continue
                why = _contradiction(premise, sentence) or (
                    earlier and _computed_change(premise, sentence, earlier(shelf, section_id), tuning.same_rule_share))
                if why:
                    return Premise(premise=premise, sentence=normalise(sentence), shelf=shelf, section_id=section_id, why=why)
    return None


def _earlier_sentences(shelves: dict) -> Callable[[str, str], list[str]]:
    """(shelf, section id) -> the sentences of the revisions the section's document superseded (cached per shelf)."""

    def earlier(shelf_name: str, section_id: str) -> list[str]:
        shelf = shelves[shelf_name]
        doc = shelf.sections[section_id].doc_id
        return shelf.memo(("earlier_sentences", doc), lambda: [
            text for old, newest in superseded_documents(shelf).items() if newest == doc
            for sid in shelf.text_sections(old) for kind, text, *_ in section_units(shelf, sid)
            if kind in ("sentence", "list_item", "step")])

    return earlier


def correction_unit(question: str, reading, shelves: dict, tuning: AnswerTuning = DEFAULT_TUNING) -> Unit | None:
    """The verbatim sentence of a current read document that contradicts the question's premise, as a unit shown first
    (group 'correction', obligation 0), or None. Its text stands in the section it cites (checked by code); ``tuning``
    is ``answer.tuning``."""
    premises = read_question(question).premises
    if not premises:
        return None
    words = set().union(*(_content(p) for p in premises))
    candidates = []
    for read in reading.sections:
        shelf = shelves[read.shelf]
        if shelf.sections[read.section_id].doc_id in superseded_documents(shelf):
            continue
        for kind, text, *_ in section_units(shelf, read.section_id):
            if kind in ("sentence", "list_item", "step"):
                overlap = len(words & set(word_stems(text)))
                if overlap >= 2:
                    candidates.append((-overlap, len(candidates), read.shelf, read.section_id, text))
    candidates.sort()
    found = find_false_premise(question, [(shelf, sid, text) for _, _, shelf, sid, text in candidates[:400]],
                               _earlier_sentences(shelves), tuning)
    if found is None:
        return None
    section_text = normalise(shelves[found.shelf].sections[found.section_id].text)
    if found.sentence not in section_text:
        return None
    return Unit(id="u0", kind="sentence", text=found.sentence, shelf=found.shelf, citations=[found.section_id], obligation=0,
                score=1.0, status="verbatim", group="correction", origin="correction")
