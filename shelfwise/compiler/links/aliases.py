"""Aligning a concept's names: an acronym and its expansion ("AAL" / "Authenticator Assurance Level").

Code proposes pairs from "Long Form (LF)", "LF (Long Form)", glossary
entries whose term is an acronym, and the lines or two-column rows of a list of
terms ("R&D Research and development", "ABAC | Attribute Based Access Control"),
and vetoes a pair whose expansion's initials do not spell the acronym. With a model configured, the pairs code lets through
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

__all__ = ["initials_match", "find_aliases", "judge_aliases", "glossary_entries", "GLOSSARY_ENTRIES"]

_MINOR = {"of", "and", "the", "for", "to", "in", "on", "a", "an", "by", "with", "&"}
_ACRONYM = r"[A-Z][A-Za-z0-9&]*[A-Z][A-Za-z0-9]*s?"
"""An acronym: two capitals or more, with lower case, digits or "&" between ("OAuth", "JWTs", "R&D", "MG&A")."""
_LONG_SHORT = re.compile(rf"(?P<long>(?:[A-Za-z][\w-]*\s+){{1,9}}?[A-Za-z][\w-]*)\s+\((?P<short>{_ACRONYM})\)")
_SHORT_LONG = re.compile(rf"\b(?P<short>{_ACRONYM})\s+\((?P<long>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){{1,9}})\)")


def _letters(short: str) -> str:
    short = short.replace("&", "")  # "R&D": R and D, the "and" a minor word
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
    found += glossary_entries(section)
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


GLOSSARY_ENTRIES = 3
"""A section holding this many entries or more lists terms (a glossary, a table of abbreviations); fewer are lines that
happen to open on an acronym."""
_ENTRY = re.compile(rf"^(?P<short>{_ACRONYM})\s+(?P<long>[A-Za-z].*)$")
"""An entry's line: an acronym, then what it stands for. A sentence opening on an acronym ("DCAI revenue decreased 39%
...") is no entry: its first words do not spell it."""


def glossary_entries(section: Section) -> list[tuple[str, str, str]]:
    """(acronym, expansion, entry) of a list of terms: a line "ASP Average selling price" (a 10-Q's key terms) or a
    two-column row "ABAC | Attribute Based Access Control" (a guideline's abbreviations), whose first words after the
    acronym spell it, the longest such run ("R&D Research and development"; "CPU Processor or central processing unit"
    spells nothing first, and is left out). Only when the section holds ``GLOSSARY_ENTRIES`` or more."""
    found: list[tuple[str, str, str]] = []
    for block in section.blocks:
        if block.kind == "table" and block.rows:
            pairs = [(row[0].strip(), row[1].strip()) for row in block.rows if len(row) >= 2]
        elif block.kind in ("paragraph", "list_item"):
            pairs = [(m.group("short"), m.group("long")) for line in block.text.splitlines() if (m := _ENTRY.match(line.strip()))]
        else:
            continue
        for short, long in pairs:
            words = long.split()
            if not re.fullmatch(_ACRONYM, short) or len(words) < 2:
                continue
            letters = _letters(short).lower()
            for count in range(len(words), 1, -1):  # the longest run of first words that spells it ("Field-programmable gate array")
                head = [w.strip(",;:.") for w in words[:count]]
                if head[-1].lower() not in _MINOR and _spells(letters, [w.lower() for w in head]):
                    found.append((short, " ".join(head), f"{short} {long}"))
                    break
    return found if len(found) >= GLOSSARY_ENTRIES else []


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
