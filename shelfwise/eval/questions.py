"""Question sets: load a questions file (the format of shared/questions/dev.yaml) and map gold evidence to sections.

A file is a YAML list of questions: ``id, shelf, question, kind, must: [{item,
evidence: [{doc, heading, quote}]}]``. ``doc`` is the shelf-relative path of a
document, ``heading`` a section heading as the source writes it. A piece of
evidence maps to the sections of that document whose heading matches
(compared on letters and digits only, so "1.2.  Terminology" matches
"1.2. Terminology" and "The ``typing`` Module" matches "The typing Module");
among several, those holding the quote win. A heading that matches nothing
falls back to the sections holding the quote, with a note; evidence that maps
to nothing is reported, never dropped silently.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, Field, ValidationError

from shelfwise.compiler.errors import SettingsError
from shelfwise.compiler.prose import normalise

__all__ = ["Evidence", "MustItem", "Question", "GoldQuestion", "load_questions", "map_gold"]


class Evidence(BaseModel):
    """Where one must-have item is stated."""

    doc: str = Field(description="Shelf-relative path of the document.")
    heading: str = Field(description="Heading of the section, as the source writes it.")
    quote: str = Field(default="", description="Verbatim text of the section stating the item.")


class MustItem(BaseModel):
    """A fact a complete answer must state, with the sections that state it."""

    item: str = Field(description="The fact, in words.")
    evidence: list[Evidence] = Field(default_factory=list, description="Sections stating it (empty: it states an absence).")


class Question(BaseModel):
    """One question of a set."""

    id: str = Field(description="Question id, e.g. 'oauth-03'.")
    shelf: str = Field(description="Shelf the question is asked over (a folder name under the corpora).")
    question: str = Field(description="The question, used as the search query.")
    kind: str = Field(default="", description="Question kind (definition, versions, procedure, ...).")
    must: list[MustItem] = Field(default_factory=list, description="Must-have items (empty for a question scored against a reference answer).")
    expect: Literal["", "not_in_documents", "false_premise"] = Field(
        default="", description="not_in_documents: the shelf does not answer it (must is empty); false_premise: the question "
                                "assumes something the documents contradict (the first must item states the correction).")
    reference_answer: str = Field(default="", description="A reference answer (dev-filings.yaml): its figures and named facts are what an answer must find "
                                                          "(shelfwise eval reference).")
    source_documents: str = Field(default="", description="A glob over the shelf's file names naming the documents the reference answer comes from.")
    evidence_kind: str = Field(default="", description="Where the reference answer's evidence stands: 'Table' or 'Text'.")


class GoldQuestion(BaseModel):
    """A question with its evidence mapped to section ids of one compiled store."""

    question: Question
    items: list[list[str]] = Field(description="Per must item, the section ids that state it (sorted).")
    notes: list[str] = Field(default_factory=list, description="Evidence mapped by quote only, or not mapped at all.")

    @property
    def relevant(self) -> set[str]:
        """The union of all items' evidence sections."""
        return {sid for item in self.items for sid in item}


def load_questions(path: Path) -> list[Question]:
    """Questions from a YAML file; every problem is reported at once as a SettingsError naming the file."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise SettingsError(str(path), ["file not found; give the path of a questions YAML file"]) from exc
    except yaml.YAMLError as exc:
        raise SettingsError(str(path), [f"not valid YAML: {exc}"]) from exc
    if not isinstance(raw, list):
        raise SettingsError(str(path), ["expected a YAML list of questions (id, shelf, question, kind, must)"])
    questions, problems = [], []
    for number, entry in enumerate(raw, start=1):
        try:
            questions.append(Question.model_validate(entry))
        except ValidationError as exc:
            label = entry.get("id", f"#{number}") if isinstance(entry, dict) else f"#{number}"
            problems.extend(f"question {label}: {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
    ids = [str(entry.get("id")) for entry in raw if isinstance(entry, dict) and entry.get("id") is not None]
    problems.extend(f"question id {i} appears more than once" for i in sorted({i for i in ids if ids.count(i) > 1}))
    if problems:
        raise SettingsError(str(path), problems)
    return questions


def _key(text: str) -> str:
    """A gold quote's text as it is matched to a section: ``shelfwise.compiler.prose.normalise`` after a search-key
    folding (lower case, entities and anything but letters and digits as spaces)."""
    text = re.sub(r"&[a-z]+;", " ", text.lower())
    return normalise(re.sub(r"[^0-9a-z\u00c0-\uffff]+", " ", text))


def map_gold(question: Question, store) -> GoldQuestion:
    """Map each must item's evidence to section ids of ``store`` (documents matched by shelf-relative path)."""
    by_path = {row["path"]: row["doc_id"] for row in store.documents()}
    cache: dict[str, list] = {}
    items: list[list[str]] = []
    notes: list[str] = []
    for item in question.must:
        found: set[str] = set()
        for evidence in item.evidence:
            doc_id = by_path.get(evidence.doc)
            if doc_id is None:
                notes.append(f"{question.id}: document {evidence.doc} is not in the store")
                continue
            sections = cache.setdefault(doc_id, [s for s in store.sections(doc_id)])
            quote = _key(evidence.quote)
            heading = _key(evidence.heading)
            by_heading = [s for s in sections if _key(s.heading) == heading and s.heading_path]
            holding = [s for s in by_heading if quote and quote in _key(s.text)]
            if holding or by_heading:
                found.update(s.id for s in (holding or by_heading))
                continue
            by_quote = [s for s in sections if quote and quote in _key(s.text)]
            if by_quote:
                found.update(s.id for s in by_quote)
                notes.append(f"{question.id}: heading {evidence.heading!r} not found in {evidence.doc}; mapped by its quote")
            else:
                notes.append(f"{question.id}: evidence {evidence.heading!r} in {evidence.doc} maps to no section")
        items.append(sorted(found))
    return GoldQuestion(question=question, items=items, notes=notes)
