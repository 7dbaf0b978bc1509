"""Aligning a concept's names: an acronym and its expansion ("AAL" / "Authenticator Assurance Level").

Code proposes pairs from "Long Form (LF)", "LF (Long Form)" and glossary
entries whose term is an acronym, and vetoes a pair whose expansion's initials
do not spell the acronym. With a model configured, the pairs code lets through
are judged by the model as well. Every decision is kept with its reason,
rejections included.
"""

from __future__ import annotations

import hashlib
import json
import re

from pydantic import BaseModel, ValidationError

from shelfwise.compiler.store.records import Assertion, Section, Alias
from shelfwise.compiler.ledger.rules import normalise
from shelfwise.compiler.prompts import ALIAS_PAIR, ALIAS_PROMPT_VERSION, ALIAS_SYSTEM

__all__ = ["initials_match", "find_aliases", "judge_aliases"]

_MINOR = {"of", "and", "the", "for", "to", "in", "on", "a", "an", "by", "with", "&"}
_ACRONYM = r"[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*s?"
_LONG_SHORT = re.compile(rf"(?P<long>(?:[A-Za-z][\w-]*\s+){{1,9}}?[A-Za-z][\w-]*)\s+\((?P<short>{_ACRONYM})\)")
_SHORT_LONG = re.compile(rf"\b(?P<short>{_ACRONYM})\s+\((?P<long>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){{1,9}})\)")


def _letters(short: str) -> str:
    return re.sub(r"s$", "", short) if re.search(r"[A-Z]s$", short) else short


def initials_match(short: str, long: str) -> str | None:
    """The shortest tail of ``long`` whose words' initials spell ``short`` (minor words may be skipped), or None."""
    letters = _letters(short).lower()
    words = long.split()
    for start in range(len(words) - 1, -1, -1):
        tail = words[start:]
        if _spells(letters, [w.lower() for w in tail]):
            if tail[0].lower() in _MINOR:
                continue
            return " ".join(tail)
    return None


def _spells(letters: str, words: list[str]) -> bool:
    """Letters consumed by word initials in order; a word may give its first few letters (OAuth, 'Web' -> 'W')."""
    if not letters:
        return not words or all(w in _MINOR for w in words)
    if not words:
        return False
    word, rest = words[0], words[1:]
    parts = [p for p in re.split(r"-", word) if p]
    if word in _MINOR and _spells(letters, rest):
        return True
    if len(parts) > 1 and _spells(letters, parts + rest):
        return True
    for take in range(min(len(word), len(letters)), 0, -1):
        if word[:take] == letters[:take] and _spells(letters[take:], rest):
            return True
    return False


def find_aliases(section: Section, definitions: list[Assertion]) -> list[Alias]:
    """Acronym pairs in a section's text and glossary entries, each aligned or vetoed by code."""
    found: list[tuple[str, str, str]] = []
    text = normalise(section.text)
    for match in _LONG_SHORT.finditer(text):
        found.append((match.group("short"), match.group("long"), match.group(0)))
    for match in _SHORT_LONG.finditer(text):
        found.append((match.group("short"), match.group("long"), match.group(0)))
    for assertion in definitions:
        if assertion.kind == "definition" and re.fullmatch(_ACRONYM, assertion.subject):
            expansion = re.split(r"[.;:(]", assertion.quote)[0]
            if 1 < len(expansion.split()) <= 10:
                found.append((assertion.subject, expansion, assertion.quote))
    out: dict[tuple[str, str], Alias] = {}
    for short, long, quote in found:
        if len(_letters(short)) < 2 or short.lower() == long.lower():
            continue
        matched = initials_match(short, long)
        if matched:
            alias = Alias(short=short, long=matched, decision="aligned", reason=f"initials of '{matched}' spell {short}",
                          doc_id=section.doc_id, section_id=section.id, decided_by="code", quote=quote)
        else:
            tail = " ".join(long.split()[-len(_letters(short)) - 2:])
            alias = Alias(short=short, long=tail, decision="rejected",
                          reason=f"code veto: the initials of '{tail}' do not spell {short}",
                          doc_id=section.doc_id, section_id=section.id, decided_by="code", quote=quote)
        key = (alias.short, alias.long)
        if key not in out or (out[key].decision == "rejected" and alias.decision == "aligned"):
            out[key] = alias
    return [out[k] for k in sorted(out)]


class _Judgement(BaseModel):
    same: bool
    reason: str


def judge_aliases(aliases: list[Alias], chat, cache_get, cache_put) -> tuple[list[Alias], int]:
    """Ask the model about each pair code aligned; its rejections are kept with its reason.

    ``cache_get(key) -> str | None`` and ``cache_put(key, payload)`` store judgements by pair and prompt version.
    Returns the decisions and how many replies were unusable (those pairs keep the code's decision).
    """
    out, failed = [], 0
    for alias in aliases:
        if alias.decision != "aligned":
            out.append(alias)
            continue
        key = hashlib.sha256(f"{alias.short}\x1f{alias.long}\x1f{alias.quote}".encode()).hexdigest()
        extractor = f"alias:{chat.model}:{ALIAS_PROMPT_VERSION}"
        payload = cache_get(key, extractor)
        if payload is None:
            payload = chat.complete(
                [{"role": "system", "content": ALIAS_SYSTEM},
                 {"role": "user", "content": ALIAS_PAIR.format(short=alias.short, long=alias.long, quote=alias.quote)}],
                json_object=True,
            )
        try:
            judgement = _Judgement.model_validate(json.loads(payload))
        except (ValidationError, json.JSONDecodeError):
            failed += 1
            out.append(alias)
            continue
        cache_put(key, extractor, payload)
        out.append(alias.model_copy(update={
            "decision": "aligned" if judgement.same else "rejected",
            "reason": f"model: {judgement.reason}",
            "decided_by": chat.model,
        }))
    return out, failed
