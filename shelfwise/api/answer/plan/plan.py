"""Plan: the question becomes the fewest obligations a complete answer needs (paper §3.3 "Understanding").

Each obligation has a kind (describe, explain, compare, trace, judge, list,
lookup, propose), its targets in the documents' own terms (aligned with the
ledger's aliases and defined terms) and the documents likely to hold it. With a
planner model configured, one call plans; without, rules do. A follow-up
("and what about refresh tokens?") is resolved against the previous turns:
it inherits the previous question's obligations and cited documents.

A model's plan is validated against the question and the shelf
(``validate_model_plan``): a target stays only when the question, the earlier
turns or the shelf (titles, headings, text, ledger subjects, aliases) hold
it — one that writes an identifier ("PEP 612", "pep-0612-rst") only when the
question or the earlier turns name it, since an identifier binds the answer to a
document — and a document only when the question or the earlier
turns name it or the rule planner chose it. What is dropped is replaced by the
rule planner's targets and documents and named in the plan's warnings; a plan
with no usable obligation gives way to the rule plan.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from shelfwise.api.prompts import PLAN_SYSTEM, PLAN_USER
from shelfwise.api.schemas import Turn
from shelfwise.api.answer.plan.names import NameIndex
from shelfwise.compiler.store.records import DocumentIdentity
from shelfwise.compiler.digests.identity_match import IdentityMatch
from shelfwise.api.answer.question import Asked, Phrase, named_by_identity, question_parts, read_phrase, read_question
from shelfwise.api.terms import document_keys, stems, word_stems

__all__ = ["Obligation", "Plan", "Turn", "plan_by_rules", "plan_with_model", "obligation_kind", "validate_model_plan", "Vocabulary"]

Kind = Literal["describe", "explain", "compare", "trace", "judge", "list", "lookup", "propose"]
KINDS: tuple[str, ...] = ("describe", "explain", "compare", "trace", "judge", "list", "lookup", "propose")


class Obligation(BaseModel):
    """One thing a complete answer must do."""

    kind: Kind = Field(description="What the answer must do for it.")
    ask: str = Field(description="The obligation in words (a part of the question, or the resolved follow-up).")
    targets: list[str] = Field(default_factory=list, description="Terms to find, in the documents' own words (aliases included).")
    documents: list[str] = Field(default_factory=list, description="Document ids likely to hold it.")


class Plan(BaseModel):
    """The planner's output."""

    question: str = Field(description="The question as asked.")
    resolved_question: str = Field(description="The question with a follow-up's referents filled in from earlier turns.")
    follow_up: bool = Field(default=False, description="Whether the question was read as a follow-up of the previous turn.")
    obligations: list[Obligation] = Field(description="The fewest obligations a complete answer needs.")
    planner: str = Field(description="'rules' or the planner model id.")
    warnings: list[str] = Field(default_factory=list, description="What went wrong while planning, in words.")

    @property
    def asked(self) -> Asked:
        """The question read once (``shelfwise.api.answer.question``): what the stages after the planner read of it."""
        return read_question(self.question)


_KIND_RULES: list[tuple[str, re.Pattern]] = [
    ("compare", re.compile(r"\b(compare|comparison|differ|differs|difference|differences|versus|vs\.?|changed?|changes|trends?)\b")),
    ("trace", re.compile(r"(?<![\w-])(steps?|procedure|process(?!\s+(?:their|the|a|an|its|his|her|our|your|my|these|those|such|any|all|"
                         r"each|every|personal|special|sensitive|data)\b)|workflow|sequence|from receipt|in what order|history|evolved?)\b")),
    # "process" with an object after it is the verb ("rely on consent to process their data", "lets a controller process
    # special categories of personal data"): the asker does something to data, and asks for no procedure
    ("propose", re.compile(r"\b(recommend|suggest|propose|what should (we|i))\b")),
    ("explain", re.compile(r"^(why|how does|how do|how is|how are)\b|\b(explain|what happens|reason)\b")),
    ("lookup", re.compile(r"\bhow (often|many|much|long|soon|quickly|fast|frequently)\b|^(when|who|where)\b|\b(deadline|interval|due date|limit|value)\b")),
    ("judge", re.compile(r"^(is|was|were|are|does|did|do|can|could|should|has|have|may|must|shall|will)\b")),
    ("list", re.compile(r"^(which|list|name)\b|\bwhat are the\b|\bwhich\b")),
]
_LEANS = re.compile(r"\b(it|its|they|them|their|this|that|these|those|one|afterwards|then)\b", re.I)
"""A later part that leans on an earlier one ("how does PEP 646 extend it") takes the earlier part's words as targets."""
_ABOUT = re.compile(r"^(?:and\s+|but\s+)?(?:what|how)\s+about\s+(?P<rest>.+)$|^and\s+(?P<rest2>.+)$", re.I)


def obligation_kind(text: str) -> str:
    """The kind a part of a question asks for, by its wording; 'describe' when no rule fires."""
    lowered = text.strip().lower()
    for kind, pattern in _KIND_RULES:
        if pattern.search(lowered):
            return kind
    return "describe"


def _targets(phrase: Phrase, aliases: list[tuple[str, str]], defined: list[str]) -> list[str]:
    """Identifiers, capitalised phrases, defined terms and aliases the text uses, then its content words."""
    text = phrase.text
    found = [*phrase.identifiers, *phrase.names]
    lowered = f" {text.lower()} "
    for term in defined:
        if len(term) > 2 and f" {term.lower()} " in lowered:
            found.append(term)
    codes = [ident for ident in phrase.identifiers if re.search(r"[\s-]", ident)]  # "SP 800-63B": its "SP" names no concept
    for short, long in aliases:
        if any(code.startswith(short) for code in codes) and not re.search(rf"\b{re.escape(short)}\b(?![\s-]?\d)", text):
            continue
        if re.search(rf"\b{re.escape(short)}(?:\b|(?=\d))", text):
            found.append(long)
        elif f" {long.lower()} " in lowered:
            found.append(short)
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z\-]+", text) if word_stems(w)]
    return list(dict.fromkeys([*found, *words]))


def _named_documents(text: str, documents: dict[str, str], names: NameIndex, targets: list[str] = (),
                     by_identity: frozenset[str] = frozenset()) -> list[str]:
    """Documents whose title or id holds an identifier the text writes ("SOP-014", "PEP 484" for pep-0484-rst), that
    the text or one of ``targets`` calls by name ("RAPTOR", "the MIT licence": ``names``, the documents'
    ``NameIndex``), or that the text names by issuer, form and period ("Apple's Q3 2023 10-Q", "the quarter ended April
    1, 2023", "Intel's most recent 10-Q": ``by_identity``, found by their compiled identities)."""
    wanted = set(read_phrase(" ".join([text, *(t for t in targets if read_phrase(t).identifiers)])).keys)
    found = {doc_id for doc_id, title in documents.items() if document_keys(doc_id, title, "") & wanted} if wanted else set()
    for piece in [text, *targets]:
        found |= names.find(piece)
    return sorted(found | by_identity)


def _bound_by_question(part_docs: list[str], whole: frozenset[str], own: frozenset[str]) -> list[str]:
    """A part's documents narrowed by who and when the whole question names: "In the first quarter of 2023, what did
    Apple spend ..., and what was the focus ..." binds both parts to Apple's filing for that quarter, not the second
    part to every company's. ``whole`` and ``own``: what the question and the part name by identity."""
    if whole and (not own or whole < own):
        return sorted((set(part_docs) - own) | whole)
    return part_docs


def plan_by_rules(
    question: str,
    history: list[Turn],
    documents: dict[str, str],
    aliases: list[tuple[str, str]],
    defined: list[str],
    cited_documents: list[str],
    identities: dict[str, DocumentIdentity] | None = None,
    files: dict[str, str] | None = None,
) -> Plan:
    """Obligations from the question's parts; a follow-up inherits the previous question's parts.

    ``documents`` maps document id to name; ``defined`` holds the ledger's defined terms;
    ``cited_documents`` are the documents the earlier turns cited; ``identities`` (document id -> compiled identity)
    bind the documents a part names by issuer, form and period, narrowed by what the whole question names
    (``_bound_by_question``); ``files`` (document id -> file path) gives the names files carry ("GDPR.pdf").
    """
    names = NameIndex(documents, files)
    matcher = IdentityMatch(identities) if identities else None
    asked = read_question(question)
    if asked.follow_up(history):
        previous = history[-1].question
        match = _ABOUT.match(question.strip().rstrip("?"))
        focus = (match.group("rest") or match.group("rest2")) if match else question.strip().rstrip("?")
        resolved = f"{previous.rstrip('?')} — {focus}?"
        obligations = []
        focused = frozenset(matcher.find(focus)) if matcher else frozenset()  # what the focus names by identity
        for part in question_parts(previous):
            focus_targets = _targets(read_phrase(focus), aliases, defined)
            obligations.append(
                Obligation(
                    kind=obligation_kind(part),
                    ask=f"{part} — {focus}",
                    targets=list(dict.fromkeys([*focus_targets, *_targets(read_phrase(part), aliases, defined)])),
                    documents=sorted(set(_named_documents(focus, documents, names, by_identity=focused)) | set(cited_documents)),
                )
            )
        return Plan(question=question, resolved_question=resolved, follow_up=True, obligations=obligations, planner="rules")
    obligations = []
    first_named: list[str] = []
    previous = ""
    identified = named_by_identity(asked, matcher)
    for number, phrase in enumerate(asked.parts):
        part = phrase.text
        targets = _targets(phrase, aliases, defined)
        if number and first_named and not (phrase.identifiers or phrase.names):
            targets = list(dict.fromkeys([*targets, *first_named]))  # "... when a complaint is one" leans on the first part
        leaned_on = ""
        if number and _LEANS.search(part):
            named_ids = read_phrase(previous).identifiers
            earlier = [w for w in re.findall(r"[A-Za-z_][\w.\-*]*", previous) if word_stems(w) and not any(w in i for i in named_ids)]
            targets = list(dict.fromkeys([*targets, *([] if phrase.identifiers else named_ids), *earlier]))
            leaned_on = previous
        # a part that leans on a part that itself leans ("how are they produced, and how large are they") reaches back
        # to what the chain is about
        previous = f"{part} {leaned_on}".strip()
        if not number:
            first_named = [*phrase.identifiers, *phrase.names]
        own = identified.parts[number]
        bound = _bound_by_question(_named_documents(part, documents, names, targets, own), identified.whole, own)
        obligations.append(Obligation(kind=obligation_kind(part), ask=part, targets=targets, documents=bound))
    return Plan(question=question, resolved_question=question, obligations=obligations, planner="rules")


class _ModelObligation(BaseModel):
    kind: Kind
    ask: str = Field(min_length=1)
    targets: list[str] = Field(default_factory=list)
    documents: list[str] = Field(default_factory=list)


class _ModelPlan(BaseModel):
    resolved_question: str = Field(min_length=1)
    follow_up: bool = False
    obligations: list[_ModelObligation] = Field(min_length=1, max_length=8)


def plan_with_model(
    chat,
    question: str,
    history: list[Turn],
    documents: dict[str, str],
    aliases: list[tuple[str, str]],
    *,
    rules: Plan | None = None,
    vocabulary: "Vocabulary | None" = None,
) -> Plan:
    """One planning call; the reply is JSON validated by pydantic. Raises ModelError when the reply is unusable.

    With ``rules`` (the rule planner's plan) and ``vocabulary`` (the shelf's words), the plan is validated
    (``validate_model_plan``) and may come back as the rule plan; so does a plan that reads a question that stands
    alone (``Asked.leans``) as a follow-up."""
    from shelfwise.compiler.models import ModelError

    listing = "\n".join(f"- {doc_id}: {title}" for doc_id, title in sorted(documents.items()))
    alias_lines = "\n".join(f"- {short} = {long}" for short, long in aliases[:200]) or "(none)"
    turns = "\n".join(f"- {turn.question}" for turn in history[-3:]) or "(none)"
    messages = [
        {"role": "system", "content": PLAN_SYSTEM},
        {
            "role": "user",
            "content": PLAN_USER.format(documents=listing, aliases=alias_lines, history=turns, question=question),
        },
    ]
    reply = chat.complete(messages, json_object=True, max_tokens=1200)
    try:
        parsed = _ModelPlan.model_validate(json.loads(reply))
    except (json.JSONDecodeError, ValidationError) as exc:
        raise ModelError(f"planner model {chat.model} returned an unusable plan: {str(exc).splitlines()[0]}") from exc
    obligations = [
        Obligation(
            kind=o.kind,
            ask=o.ask,
            targets=list(dict.fromkeys(t for t in o.targets if t.strip())),
            documents=sorted(d for d in set(o.documents) if d in documents),
        )
        for o in parsed.obligations
    ]
    plan = Plan(
        question=question,
        resolved_question=parsed.resolved_question,
        follow_up=parsed.follow_up and bool(history),
        obligations=obligations,
        planner=chat.model,
    )
    if rules is None or vocabulary is None:
        return plan
    if plan.follow_up and not read_question(question).leans:  # a question that stands alone is not glued to the last one
        return rules.model_copy(update={"warnings": [*rules.warnings, (
            f"planner model {chat.model} read the question as a follow-up of the previous turn, but it stands alone; "
            "this answer was planned by rules instead")]})
    return validate_model_plan(plan, rules, question, history, documents, vocabulary)


_TOKEN = re.compile(r"\w+(?:\.?\w+)*")
"""The tokens whoosh's StemmingAnalyzer splits text into (``shelfwise.api.terms.stems`` stems them)."""


@dataclass(frozen=True)
class Vocabulary:
    """The words a shelf holds (stems of its titles, headings, text, ledger subjects and aliases), and per document
    the stems of its title and headings."""

    stems: frozenset[str] = frozenset()
    documents: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, texts, documents: dict[str, list[str]]) -> "Vocabulary":
        """The vocabulary of ``texts`` (section texts, subjects, aliases) and ``documents`` (id -> title and headings)."""
        tokens: set[str] = set()
        for text in texts:  # the analyzer's own tokens, each distinct one stemmed once (a shelf's text is large)
            tokens.update(_TOKEN.findall(text))
        words = {w for token in tokens for w in word_stems(token)}
        labels = {doc: frozenset(w for label in names for w in word_stems(label)) for doc, names in documents.items()}
        return cls(stems=frozenset(words.union(*labels.values())), documents=labels)

    def merged(self, other: "Vocabulary") -> "Vocabulary":
        return Vocabulary(stems=self.stems | other.stems, documents={**self.documents, **other.documents})


def _keys(text: str) -> set[str]:
    """Identifier keys ``text`` writes, as a title ("PEP 612") or as an id or path ("pep-0612-rst")."""
    return document_keys(text, text, "")


def _said(question: str, history: list[Turn]) -> str:
    return " ".join([question, *(f"{t.question} {t.answer}" for t in history[-3:])])


def _closest(ask: str, rules: Plan) -> Obligation:
    words = set(stems(ask))
    return max(rules.obligations, key=lambda o: (len(words & set(stems(o.ask))), -rules.obligations.index(o)))


def validate_model_plan(plan: Plan, rules: Plan, question: str, history: list[Turn], documents: dict[str, str],
                        vocabulary: Vocabulary) -> Plan:
    """The model's plan with what neither the question, the earlier turns nor the shelf holds dropped (see the module text)."""
    said = _said(question, history)
    said_stems, said_keys = set(word_stems(said)), _keys(said)
    named_docs = {doc for doc, title in documents.items() if document_keys(doc, title, "") & said_keys
                  or (len(title) > 3 and title.lower() in said.lower())}
    rule_docs = {d for o in rules.obligations for d in o.documents}
    kept, dropped, usable = [], [], 0
    for number, obligation in enumerate(plan.obligations, start=1):
        targets, lost = [], []
        for target in obligation.targets:
            keys, words = _keys(target), set(word_stems(target))
            if keys and keys <= said_keys or not keys and words and words <= said_stems | vocabulary.stems:
                targets.append(target)
            else:
                lost.append(f"target {target!r}")
        about = [set(word_stems(t)) for t in targets if word_stems(t)]
        docs = [d for d in obligation.documents if d in named_docs or d in rule_docs
                or any(words <= vocabulary.documents.get(d, frozenset()) for words in about)]
        lost += [f"document {d!r}" for d in obligation.documents if d not in docs]
        own = bool(targets) or bool(set(word_stems(obligation.ask)) & said_stems)
        if not own:
            dropped.append(f"obligation {number} ({obligation.ask!r}: {', '.join(lost) or 'no targets'})")
            continue
        usable += 1
        if lost:
            rule = _closest(obligation.ask, rules)
            dropped.append(f"{', '.join(lost)} (obligation {number})")
            targets = list(dict.fromkeys([*targets, *rule.targets]))
            docs = sorted({*docs, *rule.documents})
        kept.append(obligation.model_copy(update={"targets": targets, "documents": docs}))
    if not usable:
        return rules.model_copy(update={"warnings": [*rules.warnings, (
            f"planner model {plan.planner} planned nothing the question or the shelf names ({'; '.join(dropped)}); "
            "this answer was planned by rules instead")]})
    warnings = list(plan.warnings)
    if dropped:
        warnings.append(f"planner model {plan.planner} named what neither the question, the earlier turns nor the shelf holds, "
                        f"dropped: {'; '.join(dropped)}; the rule planner's targets and documents are used there instead")
    return plan.model_copy(update={"obligations": kept, "warnings": warnings})
