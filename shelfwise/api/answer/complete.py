"""Complete: each obligation covered or not, one plain line per gap, and the answer's label (paper §3.3 "Completeness").

An obligation nothing was shown for gets "The documents do not say ..."; one whose shown
sentences do not establish it (the writer's ``covered`` below the threshold) gets "The
sentences shown may not fully answer ...": it is never presented as complete.

Labels: ``complete`` (every obligation covered), ``partial`` (some obligation
not covered, while something the documents say about the question is shown),
``not_in_documents`` (nothing shown for any obligation: the answer says so and
cites nothing; never when a read section establishes part of it) and
``conditional`` (every obligation covered, but a verdict or value holds only
under a condition the documents state: "unless", "except", "provided that").
"""

from __future__ import annotations

import os
import re
from typing import Literal

from pydantic import BaseModel, Field

from shelfwise.api.answer.read.evidence import asked_head
from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.answer.question import opens_question
from shelfwise.api.answer.records import Unit
from shelfwise.api.terms import normalise, word_stems

__all__ = ["ObligationStatus", "Completion", "complete_answer", "names_what_was_asked", "gap_line", "part_line", "unstated_line", "without_setting",
           "NOT_IN_DOCUMENTS"]

Label = Literal["complete", "partial", "conditional", "not_in_documents"]
NOT_IN_DOCUMENTS = "This is not in these documents"
_CONDITION = re.compile(r"\b(unless|except|provided that|only if|only when|subject to)\b", re.I)


class ObligationStatus(BaseModel):
    """Whether the shown answer covers one obligation."""

    index: int
    kind: str
    ask: str
    covered: bool
    units: list[str] = Field(description="Ids of the shown units that serve it.")


class Completion(BaseModel):
    """The acceptance step's result."""

    label: Label
    obligations: list[ObligationStatus]
    gaps: list[str] = Field(description="One plain line per obligation not covered.")


_IMPERATIVE = re.compile(r"^(list|name|give|describe|explain|compare|show|summari[sz]e|outline|define|identify|state|trace)\b\s*(?P<rest>.*)$", re.I)
_WH = re.compile(r"^(?P<wh>what|which|who|whom|whose|where|when|why|how(?:\s+(?:often|long|many|much|soon|quickly|far|frequently|large|big|fast)"
                 r"(?:\s+[a-z\-]+)?)?)\s+(?P<rest>.*)$", re.I)
_BE = re.compile(r"^(?P<be>is|are|was|were)\s+(?P<np>.+)$", re.I)
_AUX = re.compile(r"^(?:is|are|was|were|does|do|did|has|have|had|can|could|must|should|will|would|shall|may|might)\b", re.I)
_AUX_ANY = re.compile(r"\b(?:is|are|was|were|does|do|did|has|have|had|can|could|must|should|will|would|shall|may|might)\b", re.I)
_PARTICIPLE = re.compile(r"^(?:[a-z]+ed|known|made|built|done|given|taken|set|kept|shown|written|chosen|held|found|paid|sent|run|"
                         r"read|seen|drawn|grown|meant|put|spent|told|understood|won|begun|broken|driven|forgotten|hidden|sold)$", re.I)
"""The last word of a passive question's subject phrase ("how are they produced"): the verb moves after the subject,
not after the participle ("how they are produced", never "how they produced are")."""
_DETERMINERS = frozenset("a an the this that these those its their his her our your my each every any some".split())


def _participle(word: str) -> bool:
    """A past participle ending a passive question's subject ("produced", "used"), not a noun in -eed ("seed", "need")."""
    return bool(_PARTICIPLE.match(word)) and len(word) > 4 and not word.lower().endswith("eed")


_SUBJECT_END = re.compile(r"\b(?:of|for|in|on|to|from|with|by|under|at|when|if|that|which|after|before)$", re.I)


def _plain(ask: str) -> str:
    """An obligation's ask as a gap line quotes it: ``shelfwise.compiler.prose.normalise`` without its end mark, the
    first letter lower-cased."""
    text = normalise(ask.strip().rstrip("?.! "))
    return text[:1].lower() + text[1:] if text else ""


def _quoted(ask: str) -> str:
    text = normalise(ask.strip()).rstrip(".! ")
    text = text[:1].upper() + text[1:]
    return f"\u201c{text if text.endswith('?') else text + '?'}\u201d"


def _topic(ask: str, kind: str) -> str:
    """The obligation as the object of a sentence: "what a Reportable Event is", "which revision is in force",
    "how to ...", or the question quoted where its words cannot be turned without guessing."""
    text = _plain(ask)
    match = _WH.match(text)
    if match:
        wh, rest = match.group("wh"), match.group("rest")
        if not _AUX_ANY.search(rest) and wh.split()[0] in ("what", "which", "who", "whose") and len(wh.split()) == 1:
            return f"{wh} {rest}"  # "which revision is in force", "what happens when ...": already indirect
        be = _BE.match(rest)
        if be and len(be.group("np").split()) <= 10 and "," not in be.group("np") and not _AUX.search(be.group("np").split(" ", 1)[-1]) \
                and not _SUBJECT_END.search(be.group("np")):
            words, verb = be.group("np").split(), be.group("be").lower()
            if len(words) == 1 and _participle(words[0]):  # "what is required"
                return f"{wh} {verb} {words[0]}"
            at = next((i for i in range(1, len(words)) if _participle(words[i]) and words[i - 1].lower() not in _DETERMINERS), 0)
            if at:  # "how are they produced", "why was the closure time shortened"
                return f"{wh} {' '.join(words[:at])} {verb} {' '.join(words[at:])}"
            return f"{wh} {be.group('np')} {verb}"  # "what a Reportable Event is"
    return _quoted(ask)


def _line(lead: str, ask: str, kind: str) -> str:
    """'<lead> <verb> <what was asked>.', shaped by the obligation's wording (imperative, wh-question, quoted)."""
    text = _plain(ask)
    imperative = _IMPERATIVE.match(text)
    if imperative and imperative.group("rest"):
        return f"{lead} {imperative.group(1).lower()} {imperative.group('rest')}."
    topic = _topic(ask, kind)
    if topic.startswith("\u201c"):
        return f"{lead} answer {topic}"
    return f"{lead} say {topic}."


def gap_line(ask: str, kind: str = "describe") -> str:
    """One grammatical line saying the documents do not answer the obligation, shaped by its wording."""
    return _line("The documents do not", ask, kind)


def part_line(ask: str, kind: str = "describe") -> str:
    """One grammatical line saying what is shown may not fully answer the obligation."""
    return _line("The sentences shown may not fully", ask, kind)


def without_setting(asks: list[str]) -> list[str]:
    """The parts' asks without the setting every one of them opens with ("If I break the terms of GPL-3.0 or of CC BY
    4.0, "; "We run FedRAMP. In an OSCAL-based SSP, "): the question states it once, and a line per part that repeated
    it made each line as long as the question. A part whose rest is no question from its first word ("which I want to
    keep for debugging. Why does it delete them": the shared words end inside its clause), a single part, and parts
    sharing no setting up to a comma keep their asks."""
    if len(asks) < 2:
        return asks
    shared = os.path.commonprefix(asks)
    cut = shared.rfind(", ")
    if cut <= 0:
        return asks
    return [rest[:1].upper() + rest[1:] if opens_question(rest) and word_stems(rest) else ask
            for ask, rest in ((ask, ask[cut + 2:]) for ask in asks)]


def unstated_line(words: list[str], about: bool = False) -> str:
    """The gap of an obligation whose asked words stand in no read section, or (``about``) whose asked subject no
    section that would answer it is about."""
    quoted = ", ".join(f"\u201c{w}\u201d" for w in words)
    if about:
        return f"No section that would answer it is about {' or '.join(f'“{w}”' for w in words)}."
    return f"No section of these documents mentions {quoted}."


_WHICH = re.compile(r"^\s*which\b", re.I)


def names_what_was_asked(ask: str, own: list[Unit], shown: list[Unit], share: float) -> bool:
    """Whether a "which <things> ..." obligation ("which suppliers are approved for sterile packaging") is stated: one
    shown sentence, item or table row (its header row counted) holds the asked head ("supplier") and ``share`` of
    the ask's words together. Sentences that hold the head and the restriction apart ("approved suppliers are listed
    in the approved supplier list"; "the packaging of sterile sets") name none of the things asked for. Other asks:
    True (the writer's share decides)."""
    head = set(asked_head(ask)) if _WHICH.match(ask) else set()
    if not head:
        return True
    words = set(word_stems(ask))
    headers = {u.group: u.text for u in shown if u.kind == "table_header" and u.group}
    for unit in own:
        held = set(word_stems(f"{unit.text} {headers.get(unit.group, '')}" if unit.kind == "table_row" else unit.text))
        if head <= held and len(words & held) >= share * len(words):
            return True
    return False


def complete_answer(plan: Plan, shown: list[Unit], covered: dict[int, float], threshold: float, *,
                    unstated: dict[int, list[str]] | None = None, short: set[int] | None = None, about: set[int] | None = None,
                    false_premise: bool = False, held: dict[int, str] | None = None) -> Completion:
    """Compare the shown units with the plan's obligations; an obligation is covered at ``threshold``
    (``answer.tuning.covered_share``) of the writer's ``covered``.

    ``unstated``: obligations whose asked words no read section holds (``shelfwise.api.answer.read.evidence``), never covered;
    ``short``: obligations that lost units to the answer's size limit, never covered;
    ``false_premise``: the question's premise is contradicted, so the answer is never complete; ``held``: per obligation
    asking about a period the shelf does not hold, the line saying which periods it holds (after its gap line). A "which ..."
    obligation no shown unit names the asked things for is not covered (``names_what_was_asked``)."""
    unstated, short = unstated or {}, short or set()
    statuses, gaps = [], []
    asks = without_setting([o.ask for o in plan.obligations])
    for index, obligation in enumerate(plan.obligations):
        own = [u.id for u in shown if (u.obligation == index or index in u.also) and u.kind not in ("table_header", "figure", "code")
               and u.group != "correction"]
        is_covered = (bool(own) and covered.get(index, 0.0) >= threshold and index not in unstated and index not in short
                      and names_what_was_asked(obligation.ask, [u for u in shown if u.id in own], shown, threshold))
        statuses.append(ObligationStatus(index=index, kind=obligation.kind, ask=obligation.ask, covered=is_covered, units=own))
        if index in unstated and not own:
            gap = " ".join(filter(None, [unstated_line(unstated[index], index in (about or set())), (held or {}).get(index, "")]))
        else:
            gap = "" if is_covered else part_line(asks[index], obligation.kind) if own else gap_line(asks[index], obligation.kind)
        if gap and gap not in gaps:  # two parts about one subject the documents lack say it once
            gaps.append(gap)
    n_covered = sum(1 for s in statuses if s.covered)
    if not any(s.units for s in statuses) and not false_premise:
        label: Label = "not_in_documents"
    elif n_covered < len(statuses) or false_premise:
        label = "partial"
    else:
        verdicts = {s.index for s in statuses if s.kind in ("judge", "lookup")}
        conditional = any(u.obligation in verdicts and _CONDITION.search(u.text) for u in shown)
        label = "conditional" if conditional else "complete"
    return Completion(label=label, obligations=statuses, gaps=gaps)
