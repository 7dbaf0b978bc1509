"""Which document or edition brought something in: the edition rule of the false-premise check
(``shelfwise.api.answer.check.premise``).

The premise says A introduced something ("PEP 604 introduced ParamSpec", "SP 800-63-2 introduced the IAL, AAL and FAL
components"), or names A by its place in its series ("the first version of the Digital Identity Guidelines", "the
previous revision of SP 800-63", "the original OAuth 2.0 RFC"). A sentence of a current document says who did: its
introducing verb has the document on one side and what was introduced on the other, read from the verb's voice:

- active ("This PEP proposes typing.ParamSpec", "SP 800-63-3 introduces individual components ..."): the document
  before the verb (a self-reference, "this PEP", names the sentence's own document), what it introduced after it;
- passive ("the ParamSpec variables proposed by this PEP"): what was introduced before the verb in its clause, the
  document after it ("as defined in [RFC2616]" says who defined the user-agent, nothing of a grant type);
- "is a new category": both before it ("A4:2017-XML External Entities (XXE) is a new category").

What was introduced must be mostly held on its side (with the document's title when the sentence names its own
document; a code expression, "X | Y", counts as one word). Then the premise is contradicted when the sentence names
another edition of A's series; or, for an edition named by its place (A is then the family it belongs to, "OAuth 2.0"),
when the sentence's document is the current one and the premise says an earlier one ("previous"), or the named
edition is not the first of its series ("first", "original"): it is a numbered revision (SP 800-63-3 of SP 800-63),
or the shelf holds an earlier one of the series (RFC 6749 before RFC 7662, the 2013 edition before 2017).

Not yet (``not_yet``): the premise says something was removed, dropped or retired in a release or at a time ("PEP 585
removed the typing.List alias in Python 3.9"), a sentence that the same act will come no sooner than that point's end
or later ("Removal will occur no sooner than Python 3.9's end of life").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from shelfwise.api.answer.check.measure import content_words
from shelfwise.api.answer.check.modality import held_with_identity
from shelfwise.api.terms import identifier_key, identifiers
from shelfwise.compiler.language.polarity import INTRODUCES, NEGATED, PASSIVE_AGENT, SELF_REFERENCE
from shelfwise.compiler.language.versions import (EARLIER_EDITION_WORDS, RELATIVE_EDITION, edition_number, editions,
                                                  series)

__all__ = ["introduced_by", "code_terms", "not_yet"]

_CODE = re.compile(r"\w+(?:\s*(?:\||->|&)\s*\w+)+")
"""A code expression written with operators ("X | Y", "int -> str"): one term, whatever its spacing or markup."""
_FOLLOWS_SUBJECT = ("is a new", "are new", "new categor")


def code_terms(text: str) -> set[str]:
    """The code expressions of ``text``, each without spaces, lower-case ("X | Y" and ``X | Y``: "x|y")."""
    return {re.sub(r"\s+", "", m.group(0)).lower() for m in _CODE.finditer(text.replace("`", ""))}


def _sides(sentence: str, said: re.Match) -> tuple[str, str]:
    """(where what was introduced stands, where the document that introduced it is named) around the verb ``said``."""
    after = sentence[said.end():]
    if PASSIVE_AGENT.match(after):
        start = max(sentence.rfind(mark, 0, said.start()) for mark in "(,;") + 1
        ends = [i for i in (after.find(mark) for mark in ",;)") if i >= 0]
        return sentence[start:said.start()], after[:min(ends, default=len(after))]
    if said.group(0).lower().startswith(_FOLLOWS_SUBJECT):
        return sentence[:said.start()], sentence[:said.start()]
    return after, sentence[:said.start()]


def _not_first(key: str, held: frozenset[str]) -> bool:
    """Whether the edition ``key`` is not the first of its series: a numbered revision of a numbered document (SP
    800-63-3), or the shelf holds an earlier edition of its series (RFC 6749 before RFC 7662)."""
    base, number = series(key), edition_number(key)
    if re.search(r"\d", base) and base != key:
        return True
    return number is not None and any(series(h) == base and (edition_number(h) or number) < number for h in held)


def introduced_by(premise: str, sentence: str, about, content: Callable[[str], set[str]]) -> str:
    """Why ``sentence`` contradicts which edition the premise says brought something in ('' when it does not); ``about``
    is the sentence's section (``premise.About``) or None, ``content`` the check's content words."""
    claim, said = INTRODUCES.search(premise), INTRODUCES.search(sentence)
    if not claim or not said:
        return ""
    before = premise[:claim.start()]
    actors, relative = editions(before), RELATIVE_EDITION.search(before)
    introduced = premise[claim.end():]
    subject = content(introduced) | code_terms(introduced)
    if not (actors or relative) or not subject:
        return ""
    side, agent = _sides(sentence, said)
    own = about is not None and bool(SELF_REFERENCE.search(agent))
    held = content(side) | code_terms(side) | (set(about.title) if own else set())
    if 2 * len(subject & held) <= len(subject):  # most of what was introduced
        return ""
    named = editions(agent)
    if own:
        named.update(editions(about.own))
    if not named or actors.keys() & named.keys():
        return ""
    if relative is None:
        others = [named[k] for k in named if any(series(k) == series(a) for a in actors)]
        return f"the documents say {', '.join(others)} brought it in, not {', '.join(actors.values())}" if others else ""
    which = relative.group("which").lower()
    if about is None:
        return ""
    if which in EARLIER_EDITION_WORDS:  # the current document introduced it, not one before it
        others = [named[k] for k in named if k in about.keys]
    else:
        others = [named[k] for k in named if _not_first(k, about.held)]
    return f"the documents say {', '.join(others)} brought it in, not the {which} one" if others else ""


_TAKEN_AWAY = r"remov|drop|delet|retir|withdr[ae]w|eliminat|disabl"
"""The stems of acts that take something away ("removed", "Removal", "dropped", "retired")."""
_DONE = re.compile(rf"\b(?P<act>{_TAKEN_AWAY})\w*\b[^,;:?]*?\b(?:in|with|as of|by|from|since)\s+"
                   r"(?P<when>(?:[A-Z][\w.+-]*\s+)?v?\d+(?:\.\d+)*|[A-Z][\w.+-]*\s+[A-Z]?\d[\w.]*)", re.I)
"""An act of taking something away, dated by a release or an edition: "removed the typing.List alias in Python 3.9"."""
_LATER = re.compile(r"\b(?:no sooner than|not before|no earlier than|not until|only after|at the earliest)\b", re.I)
_ACT_WORD = re.compile(rf"\b(?:{_TAKEN_AWAY})\w*", re.I)


def not_yet(premise: str, sentence: str, about) -> str:
    """Why ``sentence`` contradicts ``premise`` ('' when it does not): the premise says something was taken away in a
    release ("removed ... in Python 3.9"), the sentence that the same act (its word's stem: "Removal", "removed") will come
    no sooner than, not before or not until a point naming that same release ("no sooner than Python 3.9's end of life").
    What the premise names before the act (its subject, "PEP 585": its identifiers and its words) is held by the
    sentence, its document's identity or its section's headings; the premise denies nothing before the act."""
    done = _DONE.search(premise)
    later = _LATER.search(sentence)
    if done is None or later is None or NEGATED.search(premise[:done.end()]):
        return ""
    act = done.group("act").lower()[:5]
    if not any(word.group(0).lower().startswith(act) for word in _ACT_WORD.finditer(sentence[:later.start()])):
        return ""
    when = re.findall(r"[\w.+-]+", done.group("when").lower())
    after = sentence[later.end():].lower()
    before = premise[:done.start()]
    named = {identifier_key(i) for i in identifiers(before)}
    own = (set(about.keys) if about is not None else set()) | {identifier_key(i) for i in identifiers(sentence)}
    if all(re.search(rf"(?<![\w.]){re.escape(w)}(?![\w]|\.\d)", after) for w in when) and named <= own \
            and content_words(before) <= held_with_identity(sentence, about):
        return f"the documents say it comes no sooner than {done.group('when')}"
    return ""
