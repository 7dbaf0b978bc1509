"""Words that deny a statement, make it conditional, or say a document introduced something.

Read by the false-premise check (``shelfwise.api.answer.check.premise``): a sentence that says "does not execute" or "MUST NOT
issue" denies a premise that says it does; a sentence whose claim holds only under a condition ("if", "unless", "when")
states no rule a premise can be measured against; "introduces", "proposes", "is a new category" say which document
or edition added something, and "this PEP", "this document" name the sentence's own document. The words are English.
"""

from __future__ import annotations

import re

__all__ = ["NEGATION", "NEGATED", "NEGATION_SKIPS", "denials", "OR_OBJECT", "OBJECT_PRONOUNS",
           "CONDITIONAL", "HEDGED", "INTRODUCES", "PASSIVE_AGENT", "SELF_REFERENCE"]

NEGATION = re.compile(r"\b(not|no|never|neither|nor|without|cannot)\b|n't\b", re.I)
"""A word that denies what follows it (also "without", "no": a premise's polarity of a modal word)."""
NEGATED = re.compile(r"\b(?:not|never|cannot|no longer)\s+(?P<rest>(?:[\w'-]+\s+){0,3}[\w'-]+)|n't\s+(?P<rest2>(?:[\w'-]+\s+){0,3}[\w'-]+)", re.I)
"""A denied verb: the words after "not", "never", "cannot" ("do not execute", "MUST NOT issue", "does not grant")."""
NEGATION_SKIPS = frozenset("""be been being have has had do does did get got always also only actually necessarily ever
yet even really just to""".split())
"""Words between the negation and the verb it denies ("not actually execute", "does not always stop")."""
CONDITIONAL = re.compile(r"\b(if|unless|whether|when|whenever|in case|provided that|without)\b", re.I)
"""A sentence holding one of these states what happens under a condition, not what something always does."""
HEDGED = re.compile(r"\b(may|might|could|would|expect(?:s|ed|ing)?|anticipat\w*|forecast\w*|projected|guidance|outlook|"
                    r"likely|potentially|possibly)\b", re.I)
"""A sentence holding one of these says what may happen or is expected ("which may reduce our net sales", "net sales are
expected to grow"), not which way a figure moved."""
INTRODUCES = re.compile(r"\b(introduc\w*|propos\w*|add(?:s|ed|ing)?|defin(?:e|es|ed|ing)|creat\w*|is a new|are new|new categor\w*|"
                        r"first appear\w*)\b", re.I)
"""A sentence (or premise) saying which document, edition or version brought something in."""
PASSIVE_AGENT = re.compile(r"\s*(?:in|by)\b", re.I)
"""What follows an introducing verb written in the passive ("as defined in [RFC2616]", "proposed by this PEP"): the
document that introduced something comes after the verb, and what it introduced before it."""
SELF_REFERENCE = re.compile(r"\b(this|the present)\s+(PEP|document|specification|memo|RFC|guideline|publication|edition|version|"
                            r"revision|release|standard|paper|manual)\b|\b(we|our)\b", re.I)
"""A sentence naming its own document as the one that does something ("This PEP proposes", "we introduce")."""


_CONTRAST = re.compile(r"\b(?:but|and|yet)\s*$", re.I)
"""What opens a contrast ("includes online attacks, but not offline attacks"): the "not" after it may deny a verb ("but not
actually execute them") or only name what the clause's own verb leaves out (a noun phrase)."""
_DETERMINER = frozenset("a an the any its their this these those that some each every all".split())
OBJECT_PRONOUNS = frozenset("it them this that these those anything everything something nothing itself themselves".split())
"""Words that stand for an object already named ("do not execute them")."""


def denials(text: str) -> list[tuple[str, str]]:
    """The verbs ``text`` denies, as written ("do not execute it", "MUST NOT issue", "but not actually execute"), and the
    verbs "or" adds to a denial in its clause ("Do not run any recipes, or print anything": print is denied too), each
    with the first word after it that is no determiner (its object's head; "" at the clause's end): "cannot use export
    and unexport" denies using export, not anything else the sentence names.
    After a contrast ("…, but not offline attacks") the word counts only when an object follows it ("but not actually
    execute them"): else the contrast names what the clause's verb leaves out, and denies no verb. "not necessarily"
    denies that a thing must be so, not the thing ("tasks which are not necessarily carried out for ...")."""
    out: list[tuple[str, str]] = []
    for match in NEGATED.finditer(text):
        words = (match.group("rest") or match.group("rest2") or "").split()
        contrast = bool(_CONTRAST.search(text[:match.start()]))
        start = match.start("rest") if match.group("rest") is not None else match.start("rest2")
        tokens = [w.strip("\"'()") for w in re.split(r"[;:.,]", text[start:], maxsplit=1)[0].split()]  # the words to its clause's end
        for index, word in enumerate(words):
            if word.lower() in NEGATION_SKIPS or word.lower().endswith("ly"):
                continue
            after = tokens[index + 1:]
            head = next((w for w in after if w.lower() not in _DETERMINER), "")
            necessity = any(w.lower() == "necessarily" for w in words[:index])
            has_object = bool(after) and after[0].lower() in _DETERMINER | OBJECT_PRONOUNS
            if not necessity and (not contrast or has_object):
                out.append((word.strip(",;:."), head))
            break
        clause = re.split(r"[;:.]", text[match.end():], maxsplit=1)[0]
        out += [(verb, obj) for verb, _, obj in OR_OBJECT.findall(clause)]
    return out


OR_OBJECT = re.compile(r",?\s+(?:or|nor)\s+(?!any\b|an?\b|the\b|to\b)([a-z][\w'-]*)\s+(?:anything\b()|(?:any|the|a|an|its|their)\b\s*([\w'-]*))")
"""A verb joined to a denied one by "or" ("or print anything", "or run the recipes"): a verb, as its object follows it,
with the word after its determiner ("print" and "" of "or print anything", "run" and "recipes")."""
