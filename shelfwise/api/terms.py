"""The words of questions and of document text as the answering stages compare them.

``stems`` gives Porter stems without stop words (whoosh's analyzer, the one the
lexical index uses), so a question's "closing" meets a sentence's "closed".
Question words ("what", "must", "describe") are dropped as well: they say what
kind of answer is wanted, not what it is about.
"""

from __future__ import annotations

import re
from functools import lru_cache

from whoosh.analysis import StemmingAnalyzer

from shelfwise.compiler.document_ids import key as identifier_key
from shelfwise.compiler.language.questions import QUESTION_WORDS
from shelfwise.compiler.written_ids import identifiers, written
from shelfwise.compiler.prose import normalise

__all__ = ["stems", "word_stems", "QUESTION_WORDS", "normalise", "table_cells", "unit_cells", "CELL_SEPARATOR", "identifiers", "capitalised_phrases", "identifier_key",
           "document_keys", "version_key", "SYMBOL_NAME", "OPTION", "symbol_terms"]

_ANALYZER = StemmingAnalyzer()
_QUESTION_STEMS = frozenset({token.text for word in QUESTION_WORDS for token in _ANALYZER(word)} | QUESTION_WORDS)
_OPTION = r"--?[A-Za-z][\w-]*"
_AUTOMATIC = r"\$[@<^*?%+|]"
_ASSIGNMENT = r"(?<![\w:?+!=<>])[:?+]{1,3}=(?![=\w])"
SYMBOL_NAME = re.compile(rf"(?<![\w$.-])(?:{_OPTION}|{_AUTOMATIC}|\$\(\w+\)|\.[A-Z][A-Z_]+\b)|{_ASSIGNMENT}")
"""A name written with symbols: an option ("-k", "--jobs"), an automatic variable ("$@", "$(CC)"), a special target
(".PHONY"), an assignment operator ("?=")."""
OPTION = re.compile(rf"(?<![\w$.-]){_OPTION}")
"""A command-line option as written ("-k", "--keep-going"), not a hyphen inside a word or a figure ("x-y", "$-1")."""
_SYMBOL_TERM = re.compile(rf"(?<![\w$.-])(?:{_OPTION}|{_AUTOMATIC})|{_ASSIGNMENT}")
"""The symbol names no stem stands for: an option ("-k", "--keep-going"), an automatic variable ("$@", "$^") and an
assignment operator (":=", "::=", "?=", "+="). Not a plain "=" (code in nearly every sentence of a PEP's examples: its
length alone moved their ranking) nor a file's suffix (".d" of "name.d": it moved answers over URLs and file names and
cost unseen-formats and unseen-formats-3 an item each, gaining none)."""
_CAPS = re.compile(r"\b[A-Z][A-Za-z\-]*(?:\s+(?:of|and|for|the|to|in)?\s*[A-Z][A-Za-z\-]*)+\b")


def version_key(key: str) -> str:
    """An identifier key (``identifier_key``) with its version written one way: a "v" glued to a name before its
    version names the version ("GPLv3": "gplv-3" -> "gpl-3"), and a version's trailing zero parts add nothing ("GPL-3.0":
    "gpl-3-0" -> "gpl-3"). One identifier written both ways compares equal; another version stays another ("TLS 1.2" is
    not "TLS 1.3", "HTTP/1.0" not "HTTP/1.1")."""
    return re.sub(r"(?<=\d)(?:-0)+$", "", re.sub(r"^([a-z]{2,})v(?=-\d)", r"\1", key))


CELL_SEPARATOR = re.compile(r" ?\| ?")
"""Between the cells of a table row's text ("a | b | c"); once whitespace is collapsed an empty cell reads "a | | c"."""


def table_cells(row: str) -> list[str]:
    """The cells of a table row's text, empty cells kept ("a | | c" -> ["a", "", "c"]): the one place rows are split.

    A cell holding " | " is split in two here; a unit that carries its cells is read with ``unit_cells`` instead."""
    return [cell.strip() for cell in CELL_SEPARATOR.split(row.strip())]


def unit_cells(unit) -> list[str]:
    """The cells of a table row or header unit (a ``Unit`` or a ``Candidate``): those it carries, as its table holds
    them; its text split by ``table_cells`` only when it carries none (a row a model wrote, an RST field list's)."""
    return list(unit.cells) if unit.cells else table_cells(unit.text)


@lru_cache(maxsize=200_000)
def _stems_cached(text: str) -> tuple[str, ...]:
    return tuple(token.text for token in _ANALYZER(text) if token.text not in _QUESTION_STEMS)


def stems(text: str) -> tuple[str, ...]:
    """Stems of ``text`` in order, stop words and question words removed (repeats kept)."""
    return _stems_cached(text)


_KEPT = frozenset({"list", "type", "name"})
"""Question words that are also what documents are about ("a list of ints", "the type of"): the extractive writer keeps them."""
_NOISE = frozenset(
    token.text for word in """under after before afterwards been being including without new give gives given apply applies
    whether main these those specification specifications""".split() for token in _ANALYZER(word)
)
"""Words of a question's frame that carry nothing to find ("what changed under ...", "which new ...")."""


@lru_cache(maxsize=200_000)
def word_stems(text: str) -> tuple[str, ...]:
    """Like ``stems``, for ranking sentences: 'list', 'type' and 'name' kept, a question's frame words dropped."""
    return tuple(t.text for t in _ANALYZER(text) if t.text not in _NOISE and (t.text in _KEPT or t.text not in _QUESTION_STEMS))


def symbol_terms(text: str) -> tuple[str, ...]:
    """The options, automatic variables and assignment operators ``text`` names, as written ("-k", "--jobs", "$^", "?=";
    case kept: "-B" is not "-b"), in order, repeats kept. The analyzer drops them (``word_stems("make -k")`` is only
    "make"), so without them a question about "-k" and the sentence saying what "-k" does share nothing but "make"."""
    return tuple(_SYMBOL_TERM.findall(text))


def capitalised_phrases(text: str) -> list[str]:
    """Runs of two or more capitalised words ("Complaint Handling Unit"), in order, distinct."""
    found = []
    for match in _CAPS.finditer(text):
        phrase = match.group(0).strip()
        words = phrase.split()
        if words and words[0].lower() in QUESTION_WORDS:
            phrase = " ".join(words[1:])
        if len(phrase.split()) >= 2:
            found.append(phrase)
    return list(dict.fromkeys(found))


DOCUMENT_KEYS_KEPT = 65_536
"""Documents whose identifier keys are kept worked out (a shelf of 5,000 documents holds them all)."""


def document_keys(doc_id: str, title: str, path: str) -> set[str]:
    """The identifier keys a question may name a document by: those in its title, and its path's ("rfc6750.txt")."""
    return set(_document_keys(doc_id, title, path))


@lru_cache(maxsize=DOCUMENT_KEYS_KEPT)
def _document_keys(doc_id: str, title: str, path: str) -> frozenset[str]:
    """``document_keys``, worked out once per document (every ask compares the question with every document's)."""
    keys = {identifier_key(ident) for ident in identifiers(title)}
    for piece in [doc_id.lower(), *re.split(r"[/\\]", path.lower())]:
        stem = piece.rsplit(".", 1)[0] if "." in piece else piece
        keys |= {identifier_key(ident) for ident in written(stem, ignore_case=True)}
    return frozenset(keys)
