"""Which read sentences the false-premise check reads (``shelfwise.api.answer.check.premise``), in what order, and how
many: every sentence, list item or step of a current read document, and every statement a table's cell holds (a
guide's "Key Activities" table: "Retain required documentation ... for six years ..."), that holds two of the premises'
content words (its document's title counting), or is an entry of a term a premise names. The sentences of a document a premise names by
identifier come first ("PEP 585": however many other PEPs hold its words), then those holding most of the premises'
words, up to ``CANDIDATES_READ``. Of the rest, the ``RARE_READ`` holding the premises' rarest words are read after
them: a word weighs the log of the number of candidates over the number holding it, so a sentence holding the
premise's one rare word ("salt") is read though more than 400 hold more of its common ones ("verifiers", "memorized
secrets"). The first contradiction found is shown, so the sentences read first decide as before. On the fourteen
premise sets no correction comes from these extras (99 corrections, each among the first 361 candidates): they
matter only when a question reads more than 400 sentences holding more of its words."""

from __future__ import annotations

import math
import re

from shelfwise.api.answer.check.about import document_title
from shelfwise.api.answer.check.measure import content_words
from shelfwise.api.answer.check.swapped import TERM, entry
from shelfwise.api.answer.write.write import section_units
from shelfwise.api.currency import superseded_documents
from shelfwise.api.terms import identifier_key, identifiers, unit_cells, word_stems

__all__ = ["premise_candidates", "paragraph_before", "cell_statements", "CANDIDATES_READ", "RARE_READ"]

CANDIDATES_READ = 400
"""How many candidate sentences one question's premise check reads first, those holding most of the premises' words."""
RARE_READ = 100
"""How many more it reads after those, of the rest: those holding the premises' rarest words."""


def premise_candidates(premises, reading, shelves: dict, about) -> list[tuple[str, str, str]]:
    """(shelf, section id, sentence) of the read sentences the premise check reads, in the order it reads them (module
    docstring); ``about(shelf, section_id)`` is ``about.about_sections``'s."""
    words = set().union(*(content_words(p) for p in premises))
    terms = [term for p in premises for term in TERM.findall(p)]  # an entry of the premise's term ("`$@`: The file name ...")
    ids = {identifier_key(i) for p in premises for i in identifiers(p)}
    found = []
    for read in reading.sections:
        shelf = shelves[read.shelf]
        if shelf.sections[read.section_id].doc_id in superseded_documents(shelf):
            continue
        title = document_title(shelf, shelf.sections[read.section_id].doc_id)  # "Intel's revenue": Intel is its document's name
        elsewhere = not (ids and ids & about(read.shelf, read.section_id).keys)
        for unit in section_units(shelf, read.section_id):
            if unit.kind in ("sentence", "list_item", "step"):
                texts = [unit.text]
            elif unit.kind == "table_row":
                texts = [piece for cell in unit_cells(unit) for piece in cell_statements(cell)]
            else:
                continue
            for text in texts:
                stems = set(word_stems(text))
                own = words & stems
                if len(words & (stems | title)) >= 2 or any(entry(term, text) for term in terms):
                    found.append((elsewhere, own, len(found), read.shelf, read.section_id, text))
    found.sort(key=lambda one: (one[0], -len(one[1]), one[2]))
    held = {word: sum(1 for one in found if word in one[1]) for word in words}
    weight = {word: math.log((len(found) + 1) / (count + 1)) for word, count in held.items()}
    rare = sorted(found[CANDIDATES_READ:], key=lambda one: (one[0], -sum(weight[w] for w in one[1]), one[2]))
    return [(shelf, sid, text) for *_, shelf, sid, text in found[:CANDIDATES_READ] + rare[:RARE_READ]]


_BULLET = re.compile(r"(?:^|\s)[\u2022\u25aa\u25cf\u2023\u25e6]\s+")
"""A bullet inside a table's cell: "• Retain required documentation ... • Have documentation retention requirements ..."."""


def cell_statements(cell: str) -> list[str]:
    """The statements a table's cell holds: its bulleted pieces (or the cell) that end as a sentence does and run to four
    words or more ("Retain required documentation of policies ... for six years from the date of its creation ..."); a
    label, a figure or a heading's words state nothing a premise could be checked against."""
    pieces = [p.strip() for p in _BULLET.split(cell) if p.strip()]
    return [p for p in pieces if len(p.split()) >= 4 and p.endswith((".", ";"))]


def paragraph_before(shelves: dict):
    """(shelf, section id, sentence) -> the sentences of its paragraph before it ('' for a list item, a step or a first
    sentence): what the sentence goes on about. "The collapsed tree approach consistently performs better." compares the
    two approaches "on 20 stories from the QASPER dataset", which the paragraph said two sentences before."""

    def before(shelf: str, section_id: str, text: str) -> str:
        return shelves[shelf].memo(("paragraph_before", section_id), lambda: _paragraphs_before(shelves[shelf], section_id)).get(text, "")

    return before


def _paragraphs_before(shelf, section_id: str) -> dict[str, str]:
    """Each sentence of a section (its first occurrence) -> the sentences of its paragraph before it, made once per
    section: the premise check asks it of every candidate sentence."""
    out: dict[str, str] = {}
    earlier: dict[int, list[str]] = {}  # block index -> its sentences so far
    for unit in section_units(shelf, section_id):
        if unit.kind == "sentence":
            out.setdefault(unit.text, " ".join(earlier.get(unit.position[0], [])))
            earlier.setdefault(unit.position[0], []).append(unit.text)
    return out
