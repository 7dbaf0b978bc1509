"""Beside a pick: the units the extractive writer keeps with the ones it picked for a part of the question.

A rule keeps its if/unless/except sentence, a sentence introducing a list its items and one introducing code its
block, a best sentence the ones that continue it in its paragraph (and the one before it that it points back to), a
procedure all its steps in order, a best section the sentences after its best unit, and a part naming several documents
the best units of each. Each takes the pool, the picks so far and the part's budget, and returns the picks with what it
keeps beside them (``whole_procedure``: the whole procedures and the other picks); the budgets and caps are ``tuning``.
"""

from __future__ import annotations

import re

from shelfwise.api.answer.write.pool import Pool
from shelfwise.api.answer.write.rank import named_documents
from shelfwise.compiler.tuning import AnswerTuning

__all__ = ["introduces_code", "each_named_document", "with_conditions", "whole_lists", "best_sections", "introduced_code",
           "with_continuations", "whole_procedure"]

_CONDITION = re.compile(r"\b(if|unless|except|excepting|provided|only when|only if|otherwise|however|in which case|does not apply)\b", re.I)
_OPENS_CONDITION = re.compile(r"^(if|unless|except|provided|otherwise|however|but|in that case|in this case|this does not|where)\b", re.I)


def introduces_code(text: str) -> bool:
    """Whether a sentence introduces what follows it ("you would write:", "the definition::")."""
    return text.rstrip().endswith(":")


def each_named_document(pool: Pool, query: dict[str, float], obligation, picked: list[tuple[float, int]],
                         eligible: list[tuple[float, int]], budget: int, tuning: AnswerTuning) -> list[tuple[float, int]]:
    """An obligation over several named documents ("what does each licence require") is answered from each of them:
    a named document nothing was picked from gives its own best units (up to ``per_named_document``), within the budget."""
    docs = named_documents(obligation, pool)[0]
    if len(docs) < 2:
        return picked
    have = {p for _, p in picked}
    used = sum(len(pool.units[p].text) for p in have)
    extra = []
    for doc in sorted(docs):
        if any(pool.units[p].doc_id == doc for p in have):
            continue
        own = [(s, i) for s, i in eligible if pool.units[i].doc_id == doc and i not in have][:tuning.per_named_document]
        for score, index in own:
            if used + len(pool.units[index].text) > budget * tuning.overrun:
                break
            extra.append((score, index))
            have.add(index)
            used += len(pool.units[index].text)
    return picked + extra


def with_conditions(pool: Pool, query: dict[str, float], picked: list[tuple[float, int]], budget: int, tuning: AnswerTuning):
    """A picked rule keeps the if/unless/except sentence right before or after it in its section."""
    have = {p for _, p in picked}
    used = sum(len(pool.units[p].text) for p in have)
    extra = []
    for score, p_index in picked:
        unit = pool.units[p_index]
        if unit.kind not in ("sentence", "list_item"):
            continue
        for n_index in (p_index + 1, p_index - 1):
            if not 0 <= n_index < len(pool.units) or n_index in have:
                continue
            near = pool.units[n_index]
            if near.section_id != unit.section_id or near.kind != unit.kind:
                continue
            after = n_index > p_index
            opens = bool(_OPENS_CONDITION.match(near.text)) if after else bool(_CONDITION.search(near.text)) and near.words & query.keys()
            if opens and used + len(near.text) <= budget * tuning.overrun:
                extra.append((round(score * 0.9, 4), n_index))
                have.add(n_index)
                used += len(near.text)
    return picked + extra


def whole_lists(pool: Pool, picked: list[tuple[float, int]], budget: int, tuning: AnswerTuning) -> list[tuple[float, int]]:
    """A picked sentence that introduces a list ("The client MUST NOT use this method unless all of the following
    conditions are met:") keeps the whole list after it: its items are the rule's conditions, all of them. Up to
    ``whole_list_items`` items, within the budget."""
    have = {p for _, p in picked}
    used = sum(len(pool.units[p].text) for p in have)
    extra = []
    for score, p_index in sorted(picked, key=lambda e: e[1]):
        items = pool.lists.get(p_index, [])
        missing = [i for i in items if i not in have]
        wanted = used + sum(len(pool.units[i].text) for i in missing)
        if not items or len(items) > tuning.whole_list_items or wanted > budget * tuning.overrun:
            continue
        for n_index in missing:
            extra.append((round(score * 0.9, 4), n_index))
            have.add(n_index)
            used += len(pool.units[n_index].text)
    return picked + extra


def best_sections(pool: Pool, query: dict[str, float], picked: list[tuple[float, int]], eligible: list[tuple[float, int]],
                   budget: int, tuning: AnswerTuning):
    """The sections that hold most of the obligation's evidence (the sum of their best units' scores) are read on
    around their best unit: the sentences after it in the section, in order (``best_section_window_chars``), since an
    explanation is written across a passage, not in one sentence that repeats the question's words. A unit past
    the best unit's own paragraph must itself hold a word of the obligation (no padding)."""
    by_section: dict[str, list[tuple[float, int]]] = {}
    for score, index in eligible:
        by_section.setdefault(pool.units[index].section_id, []).append((score, index))
    weight = {sid: sum(sc for sc, _ in sorted(units, reverse=True)[:3]) for sid, units in by_section.items()}
    have = {p for _, p in picked}
    used = sum(len(pool.units[p].text) for p in have)
    extra = []
    for sid in sorted(weight, key=lambda k: -weight[k])[:tuning.best_sections]:
        anchor_score, anchor = max(by_section[sid])
        window = 0
        for n_index in range(anchor, len(pool.units)):
            near = pool.units[n_index]
            if (near.section_id != sid or window > tuning.best_section_window_chars
                    or used + len(near.text) > budget * tuning.overrun):
                break
            if near.kind not in ("sentence", "list_item", "step") or n_index in have:
                continue
            same_paragraph = near.kind == "sentence" and near.order[1] == pool.units[anchor].order[1]
            if not (same_paragraph and _coheres(near, pool.units[n_index - 1], pool.units[anchor])) and not near.words & query.keys():
                continue
            extra.append((round(anchor_score * 0.7, 4), n_index))
            have.add(n_index)
            window += len(near.text)
            used += len(near.text)
    return picked + extra


def introduced_code(pool: Pool, picked: list[tuple[float, int]], budget: int, tuning: AnswerTuning) -> list[tuple[float, int]]:
    """The code block a picked sentence introduces ("Here is the pattern rule ...:", "you would write:") follows it:
    without it the sentence points at nothing. Within the budget; a block longer than ``write.CODE_CHARS`` is never a unit."""
    have = {p for _, p in picked}
    used = sum(len(pool.units[p].text) for p in have)
    extra = []
    for score, p_index in sorted(picked, key=lambda e: e[1]):
        unit = pool.units[p_index]
        after = p_index + 1
        if (unit.kind in ("sentence", "list_item", "step") and introduces_code(unit.text) and after < len(pool.units)
                and after not in have and pool.units[after].kind == "code"
                and pool.units[after].section_id == unit.section_id and pool.units[after].order[1] == unit.order[1] + 1):
            if used + len(pool.units[after].text) > budget * tuning.overrun:
                continue
            extra.append((round(score * 0.9, 4), after))
            have.add(after)
            used += len(pool.units[after].text)
    return extra


def with_continuations(pool: Pool, picked: list[tuple[float, int]], budget: int, tuning: AnswerTuning) -> list[tuple[float, int]]:
    """The sentences that continue a best picked sentence in its paragraph ("Such complaints ...", "The supplier
    shall respond ...") follow it: what a rule or an event leads to is said right after it, in the source's words. A
    following sentence must go on with what came before it (``_coheres``). A best sentence that points back ("this
    acquisition", "These changes": ``_POINTS_BACK``) brings the sentence before it in its paragraph, its referent."""
    have = {p for _, p in picked}
    used = sum(len(pool.units[p].text) for p in have)
    extra = []
    for score, p_index in sorted(picked, reverse=True)[:tuning.continued_sentences]:
        unit = pool.units[p_index]
        if unit.kind != "sentence":
            continue
        for n_index in range(p_index + 1, min(p_index + 1 + tuning.continuation_sentences, len(pool.units))):
            near = pool.units[n_index]
            if not _same_paragraph(near, unit):
                break
            if n_index in have:
                continue
            if used + len(near.text) > budget * tuning.overrun or not _coheres(near, pool.units[n_index - 1], unit):
                break
            extra.append((round(score * 0.8, 4), n_index))
            have.add(n_index)
            used += len(near.text)
    for score, p_index in sorted(picked, reverse=True):
        unit, before = pool.units[p_index], p_index - 1
        if unit.kind != "sentence" or before < 0 or before in have or not _POINTS_BACK.search(unit.text):
            continue
        near = pool.units[before]  # "We expect to fund this acquisition ...": the sentence that says which one
        if _same_paragraph(near, unit) and used + len(near.text) <= budget * tuning.overrun:
            extra.append((round(score, 4), before))  # the same score: the size limit keeps or drops them together
            have.add(before)
            used += len(near.text)
    return picked + extra


def whole_procedure(pool: Pool, picked, eligible, tuning: AnswerTuning, answer_chars: int):
    """Every step, in order, of each procedure a picked step or a strong eligible step belongs to (a procedure
    may continue in another document: each of its lists is kept whole); a list longer than the answer's room is
    none (a regulation's 173 recitals): its picked items stay as picked."""
    top = eligible[0][0] if eligible else 0.0
    groups = [pool.units[p].group for _, p in picked if pool.units[p].kind == "step"]
    groups += [pool.units[p].group for s, p in eligible if pool.units[p].kind == "step" and s >= tuning.strong_share * top]
    sizes = {g: sum(len(u.text) for u in pool.units if u.group == g) for g in set(groups)}
    groups = [g for g in dict.fromkeys(groups) if sizes[g] <= answer_chars]
    if not groups:
        return picked
    scores = {p: s for s, p in eligible}
    whole = [(scores.get(p, 0.0), p) for p, unit in enumerate(pool.units) if unit.group in groups]
    rest = [(s, p) for s, p in picked if pool.units[p].group not in groups]
    return whole + rest


_ANAPHOR = re.compile(r"^(this|these|that|those|such|it|they|their|its|the same|in that case|in this case|then)\b", re.I)
_ENTRY = re.compile(r"^[A-Z][\w'\-/ ]{0,48}:\s")
_POINTS_BACK = re.compile(r"^(?i:it|they|such|in that case|in this case)\b|\b(?:[Tt]his|[Tt]hese|[Tt]hose|[Ss]uch)\s+[a-z]|^(?i:that)\s+[a-z]")
"""A sentence that points back to the one before it: it opens with a referring word, or a lower-case noun follows
"this"/"these"/"such" ("this acquisition"; "this License", "this PEP" name their own document and do not)."""


def _same_paragraph(near, unit) -> bool:
    """Whether ``near`` is a sentence of ``unit``'s paragraph (same section, same block)."""
    return near.section_id == unit.section_id and near.kind == "sentence" and near.order[1] == unit.order[1]


def _coheres(unit, previous, anchor) -> bool:
    """Whether a following sentence goes on with what came before it: it shares a word with the sentence before it
    or with the one it continues, or it opens by pointing back ("Such complaints ..."); a glossary's next entry
    ("Serious injury: ...") never continues the one before it."""
    words = {w for w in unit.words if not w.startswith("@")}  # "Serious injury: an injury ...": a glossary's next entry
    return not _ENTRY.match(unit.text) and (bool(_ANAPHOR.match(unit.text)) or bool(words & (previous.words | anchor.words)))
