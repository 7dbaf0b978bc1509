"""Rank: how well each unit of the read sections establishes each obligation (the extractive writer's scoring).

An obligation becomes a weighted query over stems (and its options, "-k", "$@"): the words of its ask, its targets
(aliases and terms the ask leans on weigh less), each weighted by how rare it is among the read units (idf). An
identifier that names a document ("PEP 484", "RFC 6750", "SOP-014") is not a word to find but a place to look: units of
the documents an obligation names keep their score, units elsewhere lose part of it. Nor are the words that choose among
the bound documents by their identity words to find ("the most recent quarter", "10-Q": ``IdentityMatch.naming_words``).
A unit scores by BM25-style term weighting over its own text, with its document title and heading path as a weaker field
("Type comments" of PEP 484 for its type comments). A unit of a revision the ledger marks as superseded (a 'supersedes'
link from a read document) counts less, unless the obligation asks what changed. Very long units (boilerplate, whole
lists in one line) and fragments count less than sentences. The section's rank in recall (BM25, dense, headings and the
ledger over whole sections) lifts its units. The shape the ask wants is a facet (``FACETS``): a numeric question looks
for numbers with units, a conditions question for if/unless/except, a versions question for what documents say of their
versions, a procedure for steps, a definition for defining sentences and the ledger's definitions.
"""

from __future__ import annotations

import math
import re
from functools import reduce

from shelfwise.api.answer.write.feedback import expansion_terms
from shelfwise.api.answer.write.pool import VERSION_STEMS, Candidate, Pool
from shelfwise.api.answer.write.rank_model import RankModel, load_rank_model
from shelfwise.api.answer.write.definitions import asked_entry, asked_term, defines, opens_entry, spelled_out
from shelfwise.api.answer.write.tables import label_only
from shelfwise.api.answer.write.unit_shape import NUMERIC_RUN, label_row, names_only, shape_factor, value_match
from shelfwise.api.answer.plan.names import names_written
from shelfwise.api.answer.plan.plan import Obligation, Plan
from shelfwise.api.answer.question import FACETS as ASKED_FACETS
from shelfwise.api.answer.question import read_phrase
from shelfwise.api.terms import symbol_terms, word_stems

__all__ = ["changed_rules", "expansion_terms", "named_documents", "obligation_query", "coverage", "relevance", "score_units", "FACETS",
           "FRAMING", "prior"]

K1, B = 1.2, 0.75
"""BM25 term saturation and length normalisation."""
CONTEXT_WEIGHT = 0.6
"""What a query word found only in a unit's title or heading path is worth against one found in its text (a heading is
its author's summary of the sentences under it). Part of the relevance feature the ranking's weights were fitted on."""

PRIOR_DEPTH = 40
"""A section's rank in recall (search over whole sections, headings and the ledger) lifts its units down to this rank."""
PRIOR_FLOOR = 0.6
"""Score factor of a unit whose section recall did not rank (or ranked past PRIOR_DEPTH) for the obligation."""
SHAPE_HELD = frozenset({"@number"})
"""Facets whose naming words a unit of that shape holds when it is weighed for showing (see _shape_words)."""
FACET_WEIGHTS = {"@version": 1.0, "@number": 0.8, "@condition": 0.6, "@step": 1.0, "@definition": 0.6, "@reason": 0.6}
"""Weight of each facet of a question's shape (``shelfwise.api.answer.question.FACETS``) against the ask's strongest word."""
FACETS: dict[str, tuple[re.Pattern, float]] = {facet: (ASKED_FACETS[facet], weight) for facet, weight in FACET_WEIGHTS.items()}
"""Facets of a question's shape: when the ask matches, units of that shape hold the facet, weighted against the ask's
strongest word (see the module text)."""
_WORD = re.compile(r"[^\W\d_]{2,}")
"""A word of two letters or more: a sentence with fewer than two ("A1", "Figure 3") is a fragment, not a statement."""
CITES_ASKED = re.compile(r"\b(cit(e|es|ed|ing|ation|ations)|references?|bibliograph\w*)\b", re.I)
LEAD_SECTIONS = 6
"""An obligation that names a document and asks little else is answered by the document's opening sections."""

FRAMING = {kind: set(word_stems(words)) for kind, words in {
    "compare": "change changed changes compare comparison differ difference differences trend trends",
    "trace": "step steps procedure process",
    "list": "list"}.items()}
"""Words that say what shape of answer is wanted; the documents seldom write them."""


_FUNCTION = frozenset(word_stems("me my myself our ours ourselves yours yourself yourselves he him his himself she her hers herself "
                                "theirs themselves both such very just"))
"""Function words of the standard English stop list (NLTK's) that neither the analyzer's stop list nor the question
words leave out: the asker's pronouns ("our build", "give me"), "both", "such", "very", "just". A manual seldom writes
them, so their idf made them a question's heaviest words ("our" outweighed "colon" in "if I list both files in front of
the colon"); they point at the asker or back into the question, and name nothing to find. Left out of the ranking query
only (the documents' words and every other reading of the question keep them). A closed class of words, not a weight.
Measured on every set: held-out folds dev =, dev-formats 0.492 -> 0.475, northwind =, dev-filings figures =,
unseen-formats 0.528 -> 0.553 (mean +0.002); unseen-formats-2 0.572 -> 0.584, unseen-formats-3 0.369 -> 0.381,
unseen-cross =; false premises and not-in-documents unchanged."""


def named_documents(obligation: Obligation, pool: Pool) -> tuple[set[str], set[str], set[str]]:
    """(documents the obligation is bound to, those named by identifier, the stems of the identifiers and names that
    name them, but a word the ask also uses apart from the name) among the read documents; a follow-up is bound to the
    documents the earlier turns cited without naming them."""
    named, naming = set(), set()
    for text in [obligation.ask, *obligation.targets]:
        phrase = read_phrase(text)
        for ident, key in zip(phrase.identifiers, phrase.keys):
            hits = {doc for doc, keys in pool.doc_keys.items() if key in keys}
            if hits:
                named |= hits
                naming |= set(word_stems(ident)) | {key} | _name_prefix(text, ident, hits, pool)
    for doc in obligation.documents:  # "the OWASP Top 10 2017" names a document: its words are not what is asked
        for name in names_written(obligation.ask, pool.titles.get(doc, ""), pool.files.get(doc, "")):
            rest = re.sub(r"\b" + r"\W+".join(map(re.escape, name.split())) + r"\b", " ", obligation.ask)
            naming |= set(word_stems(name)) - set(word_stems(rest))
            acronyms = {w.lower() for w in re.findall(r"[A-Za-z]+", name) if len(w) >= 2 and w.isupper()}
            for target in obligation.targets:  # the long form of an acronym in the name ("Open Web Application Security Project")
                initials = "".join(w[0] for w in target.split() if w[:1].isupper()).lower()
                if len(target.split()) >= 2 and initials in acronyms:
                    naming |= set(word_stems(target)) - set(word_stems(rest))
    if obligation.documents and pool.identity is not None:  # "Intel's most recent 10-Q": which of its filings, not what
        spans = pool.identity.naming_words(obligation.ask, bound=True)
        rest = reduce(lambda text, span: text.replace(span, " "), spans, obligation.ask)
        naming |= set(word_stems(" ".join(spans))) - set(word_stems(rest))
    return set(obligation.documents) | named, named, naming


def _name_prefix(text: str, ident: str, docs: set[str], pool: Pool) -> set[str]:
    """Stems of the words of two capitals or more (acronyms: "CC", "GNU") written just before an identifier that named
    ``docs`` when a named document's file or title holds them too: "CC BY 4.0" names cc-by-4.0_legalcode.html by its
    identifier "BY 4.0", and "CC" is part of that name, not a word the answer must hold. An acronym neither holds
    ("the ASF Apache-2.0") stays a word to find."""
    written = [word for match in re.finditer(r"((?:\b[A-Z][A-Za-z]*[A-Z][A-Za-z]*\s+)+)" + re.escape(ident), text)
               for word in match.group(1).split()]
    if not written:
        return set()
    named = {word for doc in docs for word in re.split(r"[^a-z0-9]+", f"{pool.files.get(doc, '')} {pool.titles.get(doc, '')}".lower())}
    return {stem for word in written if word.lower() in named for stem in word_stems(word)}


def obligation_query(obligation: Obligation, pool: Pool, naming: set[str]) -> dict[str, float]:
    """Stem -> weight (idf times how the obligation holds the word); words that name documents left out."""
    query: dict[str, float] = {}
    framing = FRAMING.get(obligation.kind, set())
    asked = obligation.ask.lower()
    weighted = [(obligation.ask, 1.0), *((t, 1.2 if t.lower() in asked else 0.5) for t in obligation.targets)]
    asking = read_phrase(obligation.ask)
    versions = asking.versions
    for text, weight in weighted:
        phrase = read_phrase(text)
        for word in [*phrase.word_stems, *phrase.keys, *symbol_terms(text)]:  # "-k": an option has no stem
            if word in naming or (versions and word in VERSION_STEMS) or word in _FUNCTION:
                continue
            if word in framing:
                continue
            query[word] = max(query.get(word, 0.0), weight * pool.idf.get(word, pool.unseen))
    for long in spelled_out(obligation.ask, (unit.text for unit in pool.units)):  # "R&D": what the documents spell it
        for word in word_stems(long):
            if word not in naming and word not in framing:
                query[word] = max(query.get(word, 0.0), pool.idf.get(word, pool.unseen))
    for word in asking.contrasted & query.keys():
        query[word] *= pool.tuning.contrast_weight  # a word only in a contrast phrase says what the answer is not about
    strongest = max(query.values(), default=pool.unseen)
    for facet, (_, weight) in FACETS.items():
        if facet in asking.facets and not (facet == "@version" and pool.periodic):  # a filing's change is between periods
            query[facet] = weight * strongest
    return query


def coverage(query: dict[str, float], words: set[str]) -> float:
    """Share of the query's weight whose words stand in ``words``."""
    total = sum(query.values())
    return sum(w for term, w in query.items() if term in words) / total if total else 0.0


def relevance(query: dict[str, float], unit: Candidate, avg_length: float) -> float:
    """BM25 over the unit's text plus its title and heading path as a weaker field, scaled to the query's weight."""
    total = sum(query.values())
    if not total:
        return 0.0
    norm = K1 * (1 - B + B * unit.length / avg_length)
    score = 0.0
    for term, weight in query.items():
        tf = unit.tf.get(term, 0)
        if tf:
            score += weight * tf * (K1 + 1) / (tf + norm)
        elif term in unit.context:
            score += CONTEXT_WEIGHT * weight
    return score / total


def prior(rank: int | None) -> float:
    """The lift a unit's section gets from its rank in recall for the obligation."""
    if rank is None or rank > PRIOR_DEPTH:
        return PRIOR_FLOOR
    return PRIOR_FLOOR + (1 - PRIOR_FLOOR) * (1 - (rank - 1) / PRIOR_DEPTH)


def changed_rules(pool: Pool, picked: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """Units of superseded revisions that state a picked current unit's rule with other figures (a rule that changed):
    shown after the current one, marked superseded (``shelfwise.api.currency``)."""
    from shelfwise.api.currency import changed_rule

    have = {p for _, p in picked}
    old = [i for i, u in enumerate(pool.units) if u.superseded_by and i not in have and u.kind in ("sentence", "list_item")]
    extra = []
    for score, p_index in picked:
        unit = pool.units[p_index]
        if unit.superseded_by or unit.kind not in ("sentence", "list_item"):
            continue
        for o_index in old:
            if o_index not in have and changed_rule(pool.units[o_index].text, [unit.text], pool.tuning.same_rule_share):
                extra.append((round(score * 0.5, 4), o_index))
                have.add(o_index)
    return extra


def score_units(plan: Plan, pool: Pool, model: RankModel | None = None, explain: list | None = None
                ) -> list[tuple[dict[str, float], list[tuple[float, float, int]]]]:
    """Per obligation: its query and (score, own coverage, whether it may be shown, unit index) for every unit holding
    one of its words. A unit may be shown when it, read with its headings, holds ``min_shown`` of the obligation's words,
    or when it stands in a document the obligation names. ``model``: the ranking weights (default the shipped ones);
    ``explain``: a list that gets every scored unit's features (the final pass's)."""
    model = model or load_rank_model()
    question_docs: set[str] = set()
    named = []
    for obligation in plan.obligations:
        docs, explicit, naming = named_documents(obligation, pool)
        named.append((docs, explicit, naming))
        question_docs |= docs
    out = []
    for o_index, (obligation, (docs, explicit, naming)) in enumerate(zip(plan.obligations, named)):
        query = obligation_query(obligation, pool, naming | set().union(*(n for _, _, n in named)))
        wanted = docs or question_docs
        changes = obligation.kind == "compare" or read_phrase(obligation.ask).versions
        lead = bool(docs) and len([t for t in query if not t.startswith("@")]) <= 1
        words_only = {t: w for t, w in query.items() if not t.startswith("@")}
        cites = bool(CITES_ASKED.search(obligation.ask))
        first: list | None = [] if explain is not None else None
        scored = _score_all(obligation, o_index, pool, query, query, words_only, docs, explicit, wanted, changes, lead, cites,
                            model, first)
        feedback = expansion_terms(query, pool, scored)
        if feedback:  # the second pass ranks by the query and its feedback words; coverage still counts the query's own
            first = [] if explain is not None else None
            scored = _score_all(obligation, o_index, pool, query, {**query, **feedback}, words_only, docs, explicit, wanted,
                                changes, lead, cites, model, first)
        if explain is not None:
            explain.extend(first)
        out.append((query, scored))
    return out


def _shape_words(ask: str, query: dict[str, float]) -> dict[str, set[str]]:
    """Per facet of the query: the ask's words that name it ("lifetimes", "time limits" for @number). A unit of that
    shape holds them: "one hour or less" is the lifetime the ask calls for."""
    out: dict[str, set[str]] = {}
    held = read_phrase(ask).facet_words
    for facet in FACETS:
        if facet in query and facet in SHAPE_HELD:
            words = set(held.get(facet, frozenset())) & query.keys()
            if words:
                out[facet] = words
    return out


def _score_all(obligation: Obligation, o_index: int, pool: Pool, query: dict[str, float], ranking: dict[str, float],
               words_only: dict[str, float], docs: set[str], explicit: set[str], wanted: set[str], changes: bool, lead: bool,
               cites: bool, model: RankModel, explain: list | None = None) -> list[tuple[float, float, bool, int]]:
    """Every unit holding a word of the obligation, scored by ``model`` over its features against ``ranking`` (the
    query, or the query with feedback); ``explain``, when given, gets (obligation, unit index, features) per unit."""
    scored = []
    facets = [f for f in query if f.startswith("@")]
    shaped = _shape_words(obligation.ask, query)
    term = asked_term(obligation.ask)
    entry = asked_entry(obligation.ask)
    headers: dict[str, tuple[float, set[str]]] = {}  # table group -> (its header's score, the header's words)
    for index, unit in enumerate(pool.units):
        if (unit.reference_list and not cites) or unit.kind == "code":  # code follows the sentence introducing it, never alone
            continue
        if names_only(unit.text) or unit.group in pool.contents or (unit.kind == "sentence" and len(_WORD.findall(unit.text)) < 2) \
                or (unit.kind == "figure" and label_only(unit.text)):
            continue  # a table of contents' line ("A1:2017 - Injection ……… | 7"), a fragment of a slide ("A1"), a caption
            # that is its label alone ("Exhibit 31.1": a filing's exhibit; a part naming it gets it as a named caption)
        # a step or an item of an asked-for list means what its heading says it is part of
        item = unit.kind == "step" or (unit.kind == "list_item" and obligation.kind in ("trace", "list"))
        item = item or opens_entry(entry, unit)  # a glossary entry: its heading is the term
        named_here = bool(docs) and unit.doc_id in docs
        if label_row(unit) or index in pool.repeated:  # "North America", "Operating expenses:": never an answer alone, it
            continue  # comes with its rows; nor a running header row repeated on each page of a table
        if unit.kind == "table_header":  # never an answer alone; a header that matches lends its rows its score
            if unit.words & words_only.keys() or (unit.doc_id in explicit and unit.words & query.keys()):
                headers[unit.group] = (relevance(ranking, unit, pool.avg_length) * prior(unit.ranks.get(o_index)), unit.words)
            continue
        header = headers.get(unit.group) if unit.kind == "table_row" and unit.doc_id in docs else None
        # a sentence of the asked-for shape means what its heading says it is about ("a few minutes" under "exp" claim)
        framed = item or any(facet in unit.tf for facet in shaped)
        if not ((unit.words | (unit.context if framed else set())) & words_only.keys()):
            if header is not None:
                own = max(coverage(words_only, unit.words | header[1]) * 0.8, 0.01 if named_here else 0.0)
                shown = coverage(words_only, unit.words | header[1] | unit.context)
                # a named document's row under a matching header ("Revision | Effective date | Summary of change")
                scored.append((header[0] * pool.tuning.header_share, own, -1.0 if named_here else shown, index))
                continue
            if not (unit.doc_id in explicit and unit.words & query.keys()):  # "what changed with PEP 585": a facet will do
                continue
        own = coverage(words_only, unit.words)
        if item:
            own = max(own, 0.8 * coverage(words_only, unit.words | unit.context))
        held = unit.words | unit.context
        unvalued = 0
        for facet, words in shaped.items():
            if facet in unit.tf:
                held = held | words
            elif not (words & held):  # "lifetimes of authorization codes": a sentence of codes with no time in it
                unvalued += 1
        shown = coverage(words_only, held)
        rank = unit.ranks.get(o_index)
        rel = relevance(ranking, unit, pool.avg_length)
        outside = bool(wanted) and unit.doc_id not in wanted
        features = {
            "relevance": math.log(rel) if rel > 0 else -math.inf,
            "shape": math.log(shape_factor(unit)),
            "prior": math.log(prior(rank)),
            "figures_only": float(unit.kind in ("sentence", "list_item") and "@number" not in query
                                  and unit.numeric >= NUMERIC_RUN),
            # a list/lookup ask names values in any cell; any other ask names the row by its label, in a document it asks about
            "value_match": float(value_match(obligation.ask, unit) if obligation.kind in ("list", "lookup", "judge")
                                 else not outside and value_match(obligation.ask, unit, label_only=True)),
            "defines": float(defines(term, unit, entry)),
            "elsewhere_named": float(outside and bool(docs)),
            "elsewhere_question": float(outside and not docs),
            "lead": math.log(1 + max(0, LEAD_SECTIONS - unit.doc_position) / LEAD_SECTIONS) if lead and not outside else 0.0,
            "superseded": float(bool(unit.superseded_by) and not changes),
            "unvalued": float(unvalued),
            "own": own, "held": shown, "named": float(named_here), "row": float(unit.kind == "table_row"),
            "item": float(unit.kind in ("list_item", "step")), "chars": math.log1p(len(unit.text)) / 6,
            "position": min(unit.doc_position, 20) / 20, "recalled": float(rank is not None and rank <= PRIOR_DEPTH),
            "numeric": unit.numeric,
            "facets": (sum(1 for f in facets if f in unit.tf) / len(facets)) if facets else 0.0,
        }
        score = model.score(features)
        if explain is not None:
            explain.append((o_index, index, features))
        scored.append((score, max(own, 0.01 if named_here else 0.0), -1.0 if named_here else shown, index))
    # a long ask ("... so that errors, -k and parallel builds behave properly") is stated across several sentences,
    # none holding min_shown of its words: the bar is then a share (relative_shown) of what the best unit holds
    bar = min(pool.tuning.min_shown, pool.tuning.relative_shown * max((c for *_, c, _ in scored), default=0.0))  # -1: named document
    scored = [(score, own, held < 0 or held >= bar, index) for score, own, held, index in scored]
    scored.sort(key=lambda item: (-item[0], pool.units[item[3]].order))
    return scored
