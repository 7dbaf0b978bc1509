"""What a definition ask looks for: a sentence that opens by defining the asked term, or the entry a glossary heads with it.

"What is a Reportable Event" is answered by "Reportable Event: a complaint that ...", and "What is a memorized secret"
by the entry headed "Memorized Secret" in a glossary, whose text ("A type of authenticator comprised of ...") need not
repeat the term. A comparison of named terms ("What distinguishes FAL1, FAL2 and FAL3") asks for what defines each of
them ("**FAL2:** FAL2 adds the requirement that ..."). The extractive writer's ranking (``shelfwise.api.answer.write.rank``)
lifts such units (the ranking model's ``defines`` feature).
"""

from __future__ import annotations

import re

__all__ = ["asked_term", "asked_terms", "defines", "opens_entry", "entry_key", "entry_keys", "asked_entry", "spelled_out"]

_ASKED_TERM = re.compile(r"^(?:what\s+(?:is|are|does)|define|definition\s+of)\s+(?:an?\s+|the\s+)?(?P<term>.+?)(?:\s+mean)?\s*$", re.I)
_DEFINING = r"^(?:an?\s+|the\s+)?{term}s?\s*(?::|\(|,?\s+(?:(?:is|are)\s+(?:an?|the|any|one)\s|means?\b|refers?\s+to\b))"


_DISTINGUISH = re.compile(r"^(?:what\s+(?:distinguishes|differentiates|separates)\s+(?P<a>.+)|(?:what\s+(?:is|are)\s+)?(?:the\s+)?"
                          r"(?:main\s+|key\s+)?differences?\s+between\s+(?P<b>.+)|how\s+(?:do|does)\s+(?P<c>.+?)\s+differ"
                          r"(?:\s+from\s+(?P<d>.+))?)$", re.I)
_ITEM_SPLIT = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or|from|versus|vs\.?)\s+|\s*/\s*", re.I)


def asked_terms(ask: str) -> list[str]:
    """The terms a definition ask names: "What is a bearer token" -> ["bearer token"]; a comparison of named terms
    ("What distinguishes FAL1, FAL2 and FAL3", "the difference between X and Y", "how do X and Y differ") -> each of
    them, since an expert tells them apart by what defines each. Terms of more than five words, or without a letter
    or digit, are left out."""
    text = ask.strip().rstrip("?").strip()
    compared = _DISTINGUISH.match(text)
    if compared:
        found = [piece for group in compared.groups() if group for piece in _ITEM_SPLIT.split(group)]
    else:
        match = _ASKED_TERM.match(text)
        found = [match.group("term")] if match else []
    terms = []
    for term in found:
        term = re.sub(r"^(?:an?|the)\s+", "", term.strip(" ,."), flags=re.I)
        if 0 < len(term.split()) <= 5 and re.search(r"\w", term):
            terms.append(term)
    return list(dict.fromkeys(terms))


def asked_term(ask: str) -> re.Pattern | None:
    """What a unit defining a term of a definition ask (``asked_terms``) opens with ("What is a bearer token" → "bearer
    token", then a colon, a parenthesis, "is a/an/the", "means" or "refers to"; "**FAL2:** FAL2 adds ..." for "what
    distinguishes FAL1, FAL2 and FAL3"); None when the ask is not one. Compiled once per ask."""
    terms = asked_terms(ask)
    if not terms:
        return None
    either = "|".join(r"\s+".join(re.escape(w) for w in term.split()) for term in terms)
    return re.compile(_DEFINING.format(term=f"(?:{either})"), re.I)


def defines(term: re.Pattern | None, unit, entry: str = "") -> bool:
    """Whether ``unit`` opens by defining the asked term (``asked_term``), or opens the section headed by that term
    (``entry``, from ``asked_entry``): a glossary's entry "Memorized Secret" or an RFC's "1.4. Access Token" opens with
    its definition, which need not repeat the term."""
    if term is None or unit.kind not in ("sentence", "list_item", "table_row"):
        return False
    return bool(term.match(unit.text.strip(" *_\"'\u201c"))) or opens_entry(entry, unit)


_NUMBERING = re.compile(r"^\s*(?:(?:[A-Z]|\d+)(?:\.\d+)*\.?|[IVX]+\.)\s+")


def entry_key(heading: str) -> str:
    """A heading as a glossary entry's key: numbering, quotes and emphasis dropped, case folded, a final plural s
    dropped ("1.4.  Access Token" and "access tokens" -> "access token")."""
    words = re.sub(r"[*_`\"'\u201c\u201d]", "", _NUMBERING.sub("", heading)).casefold().split()
    if words and len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)


def entry_keys(heading: str) -> str:
    """A heading's keys as a glossary entry (``entry_key``), joined by \\x1f: the whole heading, and for "Federation
    Assurance Level (FAL)" the name and the abbreviation too."""
    keys = [entry_key(heading)]
    match = re.match(r"^(.+?)\s*\(([^()]+)\)\s*$", _NUMBERING.sub("", heading))
    if match:
        keys += [entry_key(match.group(1)), entry_key(match.group(2))]
    return "\x1f".join(k for k in dict.fromkeys(keys) if k)


def asked_entry(ask: str) -> str:
    """The keys (``entry_key``, joined by \\x1f) of the glossary entries that would define the terms of a definition
    ask (``asked_terms``: "What is a memorized secret" -> "memorized secret"); empty when the ask is not one."""
    return "\x1f".join(dict.fromkeys(k for k in (entry_key(t) for t in asked_terms(ask)) if k))


def opens_entry(entry: str, unit) -> bool:
    """Whether ``unit`` opens the section headed by an asked term (``entry``, from ``asked_entry``; the unit's
    ``entry`` holds its section heading's ``entry_keys`` when it is the section's first sentence or item)."""
    return bool(entry) and bool(unit.entry) and not set(entry.split("\x1f")).isdisjoint(unit.entry.split("\x1f"))


_JOINED = re.compile(r"\b[A-Z]{1,3}(?:&[A-Z]{1,3})+\b")
"""An abbreviation joined by '&' ("R&D", "M&A"): its letters are too short to be words, so the ranking cannot read it."""
_LINKING = frozenset({"and", "of", "the", "for", "&"})


def spelled_out(ask: str, texts) -> list[str]:
    """The long forms that ``texts`` give the '&'-joined abbreviations ``ask`` writes: "research and development" for
    "R&D" from 'The growth in research and development (“R&D”) expense ...'. A document that defines an abbreviation
    writes it in brackets right after its long form, whose words (but linking words) begin with its letters."""
    found: list[str] = []
    for short in dict.fromkeys(_JOINED.findall(ask)):
        letters = [c.lower() for c in short if c.isalpha()]
        pattern = re.compile(r"((?:[A-Za-z][\w-]*\s+){1,8})\(\s*[\"\u201c\u2018']?" + re.escape(short) + r"[\"\u201d\u2019']?\s*\)")
        for text in texts:
            match = pattern.search(text) if short in text else None
            words = match.group(1).split() if match else []
            tails = (words[start:] for start in range(len(words) - 1, -1, -1))
            long = next((tail for tail in tails if [w[0].lower() for w in tail if w.lower() not in _LINKING] == letters), None)
            if long:
                found.append(" ".join(long))
                break
    return found
