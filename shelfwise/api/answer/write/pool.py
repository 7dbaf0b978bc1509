"""The writer's pool: every displayable unit of the read sections (``Candidate``), with what the ranking needs of it
and of them all (``Pool``): its stems, identifier keys, options and facets, the words of its headings and of a list's
lead-in, its section's rank in recall, whether a read revision supersedes its document; the read units' idf; the tables
a sentence introduces, a table's label rows, notes and running headers, a document's contents; whether the documents
are periodic reports, whose statement rows then hold the everyday names of their lines (``statements``).
``shelfwise.api.answer.write.rank`` scores the pool's units for each obligation.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from shelfwise.api.answer.read.periods import report_periods
from shelfwise.api.answer.read.read import Reading, read_blocks
from shelfwise.api.answer.write.definitions import entry_keys
from shelfwise.api.answer.write.statements import name_statement_lines
from shelfwise.api.answer.write.tables import annotated_rows, captioned_tables, contents_tables, introduced_tables, repeated_rows, row_labels
from shelfwise.api.answer.write.unit_shape import REFERENCE_LIST, numeric_share
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import document_keys, identifier_key, identifiers, symbol_terms, word_stems
from shelfwise.compiler.digests.identity_match import IdentityMatch
from shelfwise.compiler.language.numbers import MULTIPLES, alternation
from shelfwise.compiler.language.versions import VERSION_WORDS
from shelfwise.compiler.ledger.rules import find_thresholds
from shelfwise.compiler.tuning import DEFAULT_TUNING, AnswerTuning

__all__ = ["Candidate", "Pool", "build_pool", "VERSION_STEMS"]

VERSION_STEMS = frozenset(word_stems(VERSION_WORDS))
"""What a unit says of its versions (stemmed ``shelfwise.compiler.language.versions.VERSION_WORDS``)."""

_AMOUNT_IN_WORDS = re.compile(r"\b(?:(?:a few|several|a couple of|a small number of)\s+(?:seconds|minutes|hours|days|weeks|months|"
                              rf"years)|(?:annually|yearly|quarterly|monthly|weekly|daily|hourly)|(?:{alternation(MULTIPLES)}) (?:a|per|every) "
                              r"(?:day|week|month|quarter|year)|every (?:other |second )?(?:day|week|month|quarter|year))\b", re.I)
"""An amount or a frequency a sentence gives without a figure ("usually no more than a few minutes", "reviewed
annually"): still the value a numeric ask wants (``find_thresholds`` finds only figures with units)."""
_UNIT_CONDITION = re.compile(r"\b(if|unless|except|provided|only (if|when)|when|where|must not|may not|shall not|not bound)\b", re.I)
_UNIT_REASON = re.compile(r"\b(because|since|due to|as a result|so that|in order to|therefore|hence|the reason|rationale|as many)\b", re.I)
_UNIT_DEFINITION = re.compile(r"\b(is|are) (a|an|the|any|one)\b|\bmeans?\b|\brefers? to\b|\bdefined (as|in)\b|\bdefinitions?\b", re.I)

@dataclass
class Candidate:
    """One displayable unit of a read section, with what the ranking needs."""

    order: tuple
    shelf: str
    section_id: str
    doc_id: str
    kind: str
    text: str
    group: str
    tf: Counter
    context: set[str]
    superseded_by: str = ""
    ranks: dict[int, int] = field(default_factory=dict)
    doc_position: int = 0
    reference_list: bool = False
    entry: str = ""
    """The keys of the heading of the section this unit opens (its first sentence or item), ``entry_keys``; else empty."""
    cells: tuple[str, ...] = ()
    """A table row's or header's cells (``SectionUnit.cells``); else empty."""
    words: set[str] = field(init=False)
    length: int = field(init=False)
    numeric: float = field(init=False)
    """Share of its tokens that are bare numbers (``numeric_share``), worked out once per ask, not per obligation."""

    def __post_init__(self) -> None:
        self.words = set(self.tf)
        self.length = max(sum(self.tf.values()), 1)
        self.numeric = numeric_share(self.text)


@dataclass
class Pool:
    """Every candidate unit of what was read, with the statistics the ranking uses."""

    units: list[Candidate]
    idf: dict[str, float]
    unseen: float
    avg_length: float
    doc_keys: dict[str, set[str]]
    titles: dict[str, str] = field(default_factory=dict)
    lists: dict[int, list[int]] = field(default_factory=dict)
    """Pool index of a sentence introducing a list ("... include:") -> its items' indexes (``_lead_ins``)."""
    tuning: AnswerTuning = DEFAULT_TUNING
    """The thresholds the ranking, its feedback and its semantic rerank use (``answer.tuning``)."""
    labels: dict[int, int] = field(default_factory=dict)
    """Pool index of a table row -> the label row it stands under ("AWS" over "Net sales | 20,538 | 23,059"; ``row_labels``)."""
    tables: dict[int, list[int]] = field(default_factory=dict)
    """Pool index of a sentence introducing a table ("... were as follows (in millions):", ``introduced_tables``) or of a
    table's caption ("Table 1: Averaged results ...", ``captioned_tables``) -> its rows' indexes."""
    contents: set[str] = field(default_factory=set)
    """The tables that are a document's table of contents (``contents_tables``): never an answer."""
    periodic: bool = False  # every read document reports a period (a filing: report_periods): a change is between periods
    files: dict[str, str] = field(default_factory=dict)
    """Document id -> its file's path (a file may carry the document's name: ``plan.names.file_name``)."""
    repeated: set[int] = field(default_factory=set)
    """Pool indexes of a table's running header rows (``repeated_rows``): never an answer."""
    notes: dict[int, int] = field(default_factory=dict)
    """Pool index of a note under a table ("(1) Includes product sales ...") -> the row it annotates (``annotated_rows``)."""
    identity: IdentityMatch | None = None
    """The read documents' identities: an ask's words choosing among them (``IdentityMatch.naming_words``) are no words to find."""

    @cached_property
    def label_rows(self) -> set[int]:
        """Pool indexes of the label rows (the values of ``labels``)."""
        return set(self.labels.values())


def _facets(text: str, words, defining: bool = False, kind: str = "") -> list[str]:
    """The facets a unit holds (see FACETS)."""
    found = ["@version"] if VERSION_STEMS.intersection(words) else []
    if kind == "step":
        found.append("@step")
    if find_thresholds(text) or _AMOUNT_IN_WORDS.search(text):
        found.append("@number")
    if _UNIT_CONDITION.search(text):
        found.append("@condition")
    if defining or _UNIT_DEFINITION.search(text):
        found.append("@definition")
    if _UNIT_REASON.search(text):
        found.append("@reason")
    return found


@lru_cache(maxsize=100_000)
def _unit_terms(text: str, defining: bool, kind: str) -> Counter:
    """A unit's stems, identifier keys and facets (kept for the next ask over the same sections: stemming every read
    unit again was a third of an answer over four 10-Q filings). Shared: never mutate the Counter."""
    terms = [*word_stems(text), *(identifier_key(i) for i in identifiers(text)), *symbol_terms(text)]
    return Counter([*terms, *_facets(text, terms, defining, kind)])


def _supersedes(shelf: OpenShelf) -> list[tuple[str, str]]:
    """(newer, older) document pairs of the shelf's supersedes links (made once per open shelf)."""
    return shelf.memo(("supersedes",), lambda: [(link.src_doc, link.dst_doc) for link in shelf.links
                                                  if link.kind == "supersedes" and link.src_doc != link.dst_doc])


def _definitions(shelf: OpenShelf) -> dict[str, list[str]]:
    """Section id -> the quotes of the ledger's definitions in it (made once per open shelf)."""

    def make() -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for fact in shelf.facts:
            if fact.kind == "definition":
                out[fact.section_id].append(fact.quote)
        return dict(out)

    return shelf.memo(("definitions",), make)


def build_pool(reading: Reading, shelves: dict[str, OpenShelf], section_units, tuning: AnswerTuning = DEFAULT_TUNING) -> Pool:
    """The candidates of every read section (``section_units(shelf, section_id)`` gives a section's units), ranked with ``tuning``."""
    read_docs = {(r.shelf, r.doc_id) for r in reading.sections}
    superseded: dict[tuple[str, str], str] = {}
    for name in sorted({r.shelf for r in reading.sections}):
        for src, dst in _supersedes(shelves[name]):
            if (name, src) in read_docs:
                superseded[(name, dst)] = src
    definitions: dict[tuple[str, str], list[str]] = {}
    for name in sorted({r.shelf for r in reading.sections}):  # once per open shelf: scanning every fact per ask grew with the shelf
        for sid, quotes in _definitions(shelves[name]).items():
            definitions[(name, sid)] = quotes
    units: list[Candidate] = []
    doc_keys: dict[str, set[str]] = {}
    positions: Counter = Counter()
    for n_read, read in enumerate(reading.sections):
        shelf = shelves[read.shelf]
        section = shelf.sections[read.section_id]
        document = shelf.documents[section.doc_id]
        if section.doc_id not in doc_keys:
            doc_keys[section.doc_id] = document_keys(section.doc_id, document["title"], document.get("path", ""))
        context = set(word_stems(" ".join([shelf.doc_name(section.doc_id), *section.heading_path])))
        context |= {"@version"} & set(_facets("", context))
        defining = definitions.get((read.shelf, read.section_id), [])
        references = any(REFERENCE_LIST.match(h) for h in section.heading_path[-2:])
        doc_position = positions[(read.shelf, section.doc_id)]
        positions[(read.shelf, section.doc_id)] += 1
        blocks = read_blocks(shelf, read)  # a long section read in part: only the blocks that were read
        own = section_units(shelf, read.section_id)
        opening = next((u.position for u in own if u.kind in ("sentence", "list_item")), None)
        heading = entry_keys(section.heading_path[-1]) if section.heading_path else ""
        for kind, text, group, position, cells in own:
            if blocks is not None and position[0] not in blocks:
                continue
            units.append(Candidate((n_read, *position), read.shelf, read.section_id, section.doc_id, kind, text, group,
                                   _unit_terms(text, any(q in text or text in q for q in defining), kind), context, superseded.get((read.shelf, section.doc_id), ""), read.ranks,
                                   doc_position, references, heading if position == opening else "", cells))
    if periodic := report_periods(shelves, {(u.shelf, u.doc_id) for u in units}):
        name_statement_lines(units)  # a filing's "Operating expenses" are the expenditures a question asks about
    lists = _lead_ins(units)
    df: Counter = Counter()
    counted = [u for u in units if u.kind != "code"]  # a code block is never ranked: its tokens do not weigh the words
    for unit in counted:
        df.update(unit.words)
    size = max(len(counted), 1)
    idf = {word: math.log(1 + size / count) for word, count in df.items()}
    avg = sum(u.length for u in counted) / size if counted else 1.0
    titles = {u.doc_id: shelves[u.shelf].doc_name(u.doc_id) for u in units}
    repeated = repeated_rows(units)
    files = {u.doc_id: shelves[u.shelf].documents.get(u.doc_id, {}).get("path", "") for u in units}
    notes = annotated_rows(units)
    for index in notes:  # numbered "(1)", "(4)", a table's notes are a list, not a procedure's steps: the answer's size
        if units[index].kind == "step":  # limit keeps steps whole, and the rows they annotate had gone first; nor do they
            tf = Counter(units[index].tf)  # hold a procedure's facet (the Counter is shared: a copy, never mutated)
            del tf["@step"]
            units[index] = replace(units[index], kind="list_item", tf=tf)
    tables = {**captioned_tables(units, lambda i: _page(shelves[units[i].shelf], units[i])),  # a caption's table,
              **introduced_tables(units)}  # and one a sentence announces
    return Pool(units, idf, math.log(1 + size / 10), avg, doc_keys, titles, lists, tuning, row_labels(units), tables,
                contents_tables(units), periodic, files, repeated, notes,
                IdentityMatch({u.doc_id: shelves[u.shelf].identities[u.doc_id] for u in units if u.doc_id in shelves[u.shelf].identities}))


def _page(shelf: OpenShelf, unit: Candidate) -> int | None:
    """The page of the block a unit comes from (None when unknown)."""
    blocks = shelf.sections[unit.section_id].blocks
    return blocks[unit.order[1]].page if 0 <= unit.order[1] < len(blocks) else None


def _lead_ins(units: list[Candidate]) -> dict[int, list[int]]:
    """A list's items mean what the sentence introducing the list says ("Other areas updated in 800-63-3 include:", "unless
    all of the following conditions are met:"): its words and facets join each item's context. Returns each introducing
    sentence's index -> its items' indexes."""
    lists: dict[int, list[int]] = {}
    lead: int | None = None
    for index, unit in enumerate(units):
        if unit.kind in ("list_item", "step") and lead is not None and units[lead].section_id == unit.section_id:
            unit.context = unit.context | units[lead].words
            lists.setdefault(lead, []).append(index)
        elif unit.kind == "sentence":
            lead = index if unit.text.rstrip().endswith(":") else None
        elif unit.kind not in ("list_item", "step"):
            lead = None
    return lists
