"""Headed passages: every section's whole text in pieces an embedder reads without cutting.

Each passage is prefixed with the document title and the section's heading
path (paper §3.3), split at paragraph (a long table at its rows, each piece under
the table's header rows), then sentence, then word boundaries, and overlaps the
previous one by about 12% (a table's piece opens with its header instead). Passages are sized with the
embedder's own token counter so the prefix plus body fits its window
(all-MiniLM-L6-v2 reads 256 tokens, [CLS] and [SEP] included): nothing is
silently truncated. A section with no body text gets no passage.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from pydantic import BaseModel, Field

from shelfwise.compiler.store.records import Section, table_text

__all__ = ["Passage", "PassageSizing", "build_passages", "passage_prefix"]

_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+(?=\S)")
_PARAGRAPH = re.compile(r"\n\s*\n")


class Passage(BaseModel):
    """One embeddable piece of a section: heading prefix plus a run of the section's text."""

    section_id: str = Field(description="Section the passage comes from.")
    doc_id: str = Field(description="Document of that section.")
    ordinal: int = Field(description="Position of the passage within its section (0-based).")
    text: str = Field(description="What is embedded: title and heading path, a blank line, then the body piece.")
    tokens: int = Field(description="Token count of `text` by the embedder's counter, special tokens included.")
    text_hash: str = Field(description="sha256 of `text`; with the model id it keys the embedding cache.")


class PassageSizing(BaseModel):
    """How large passages may be, from the embedder."""

    model_config = {"arbitrary_types_allowed": True}

    window_tokens: int = Field(description="Tokens the embedder reads, special tokens included.")
    count_tokens: Callable[[str], int] = Field(description="The embedder's token counter (special tokens included).")
    max_chars: int | None = Field(default=None, description="Optional cap on a passage's length in characters.")
    overlap: float = Field(default=0.12, description="Share of a passage's body repeated at the start of the next.")


def passage_prefix(title: str, heading_path: list[str]) -> str:
    """'title\\nh1 > h2 > h3' (the title once, even when it is also the first heading)."""
    path = list(heading_path)
    if path and " ".join(path[0].split()).lower() == " ".join(title.split()).lower():
        path = path[1:]
    lines = [" ".join(title.split())]
    if path:
        lines.append(" > ".join(path))
    return "\n".join(line for line in lines if line)


class _Budget:
    """Token (and char) room for a section's bodies once its prefix is counted."""

    def __init__(self, sizing: PassageSizing, prefix: str):
        self.count = sizing.count_tokens
        self.specials = sizing.count_tokens("")
        head = prefix + "\n\n"
        self.tokens = sizing.window_tokens - sizing.count_tokens(head) - 1  # 1 token of slack at the join
        self.chars = (sizing.max_chars - len(head)) if sizing.max_chars else None
        self.overlap_tokens = int(self.tokens * sizing.overlap)
        self.overlap_chars = int(self.chars * sizing.overlap) if self.chars else None

    def size(self, text: str) -> int:
        return self.count(text) - self.specials

    def fits(self, tokens: int, chars: int) -> bool:
        return tokens <= self.tokens and (self.chars is None or chars <= self.chars)


def _fit_prefix(title: str, heading_path: list[str], sizing: PassageSizing) -> str:
    """The prefix, shortened (title + last heading, then words) only when it would take over half the window."""
    prefix = passage_prefix(title, heading_path)
    half = sizing.window_tokens // 2
    if sizing.count_tokens(prefix) <= half:
        return prefix
    prefix = passage_prefix(title, heading_path[-1:])
    words = prefix.split(" ")
    while len(words) > 1 and sizing.count_tokens(" ".join(words)) > half:
        words = words[: max(1, len(words) * 3 // 4)]
    return " ".join(words)


def _split_words(text: str, budget: _Budget) -> list[str]:
    """Runs of whole words within the budget; a single word over it is cut by characters (the only cut)."""
    pieces: list[str] = []
    current: list[str] = []
    tokens = chars = 0
    for word in text.split():
        size = budget.size(word)
        if not budget.fits(size, len(word)):
            if current:
                pieces.append(" ".join(current))
                current, tokens, chars = [], 0, 0
            step = max(1, min(len(word) * budget.tokens // max(size, 1), budget.chars or len(word)))
            pieces.extend(word[i : i + step] for i in range(0, len(word), step))
            continue
        if current and not budget.fits(tokens + size + 1, chars + len(word) + 1):
            pieces.append(" ".join(current))
            current, tokens, chars = [], 0, 0
        current.append(word)
        tokens += size
        chars += len(word) + 1
    if current:
        pieces.append(" ".join(current))
    return pieces


def _table_units(table: str, header: str, budget: _Budget) -> list[tuple[str, str]]:
    """A table too long for one passage as runs of whole rows, each under the table's header rows, so a row's
    figures are read with the column headers that say what they are ("Three Months Ended › July 1, 2023")."""
    units: list[tuple[str, str]] = []
    rows = table[len(header):].strip("\n").split("\n")
    current: list[str] = []
    for row in rows:
        candidate = "\n".join([header, *current, row])
        if current and not budget.fits(budget.size(candidate), len(candidate)):
            units.append(("\n".join([header, *current]), "\n\n"))
            current = []
        current.append(row)
    if current:
        units.append(("\n".join([header, *current]), "\n\n"))
    return units


def _units(body: str, budget: _Budget, headers: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(text, joiner) units within the budget: paragraphs (a table's rows under its header), else sentences, else
    word runs. ``headers``: the header rows of the section's tables, as their text."""
    units: list[tuple[str, str]] = []
    for paragraph in _PARAGRAPH.split(body):
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        if budget.fits(budget.size(paragraph), len(paragraph)):
            units.append((paragraph, "\n\n"))
            continue
        header = next((h for h in headers if paragraph.startswith(h + "\n") and 2 * budget.size(h) < budget.tokens), None)
        if header is not None:
            pieces = _table_units(paragraph, header, budget)
            if all(budget.fits(budget.size(text), len(text)) for text, _ in pieces):
                units.extend(pieces)
                continue
        first = True
        for sentence in _SENTENCE_END.split(paragraph):
            pieces = [sentence] if budget.fits(budget.size(sentence), len(sentence)) else _split_words(sentence, budget)
            for piece in pieces:
                units.append((piece, "\n\n" if first else " "))
                first = False
    return units


def _tail(text: str, budget: _Budget) -> str:
    """The last whole words of ``text`` within the overlap share of the budget."""
    words = text.split()
    taken: list[str] = []
    tokens = chars = 0
    for word in reversed(words):
        size = budget.size(word)
        if tokens + size > budget.overlap_tokens or (budget.overlap_chars and chars + len(word) + 1 > budget.overlap_chars):
            break
        taken.append(word)
        tokens += size
        chars += len(word) + 1
    if len(taken) == len(words):
        return ""  # the whole passage is small: nothing to carry over
    return " ".join(reversed(taken))


def _bodies(body: str, budget: _Budget, headers: frozenset[str] = frozenset()) -> list[str]:
    units = _units(body, budget, headers)
    bodies: list[str] = []
    current = ""
    for text, joiner in units:
        candidate = f"{current}{joiner}{text}" if current else text
        if not current or budget.fits(budget.size(candidate), len(candidate)):
            current = candidate
            continue
        bodies.append(current)
        overlap = "" if any(text.startswith(header + "\n") for header in headers) else _tail(current, budget)
        candidate = f"{overlap} {text}" if overlap else text
        current = candidate if budget.fits(budget.size(candidate), len(candidate)) else text
    if current:
        bodies.append(current)
    return bodies


def _section_passages(title: str, section: Section, sizing: PassageSizing) -> list[Passage]:
    body = section.text.strip()
    if not body:
        return []
    prefix = _fit_prefix(title, section.heading_path, sizing)
    budget = _Budget(sizing, prefix)
    passages = []
    headers = frozenset(table_text(b.rows[: b.header_rows]).strip() for b in section.blocks if b.kind == "table" and b.rows and b.header_rows)
    for body_piece in _bodies(body, budget, headers):
        text = f"{prefix}\n\n{body_piece}"
        tokens = sizing.count_tokens(text)
        pieces = [body_piece]
        if tokens > sizing.window_tokens:  # counter not additive at a join: split the piece by words
            pieces = _split_words(body_piece, _Budget(sizing.model_copy(update={"window_tokens": sizing.window_tokens - 8}), prefix))
        for piece in pieces:
            text = f"{prefix}\n\n{piece}"
            passages.append(
                Passage(
                    section_id=section.id,
                    doc_id=section.doc_id,
                    ordinal=len(passages),
                    text=text,
                    tokens=sizing.count_tokens(text),
                    text_hash=hashlib.sha256(text.encode("utf-8")).hexdigest(),
                )
            )
    return passages


def build_passages(title: str, sections: list[Section], sizing: PassageSizing) -> list[Passage]:
    """Headed passages for one document's sections, in document order."""
    passages: list[Passage] = []
    for section in sections:
        passages.extend(_section_passages(title, section, sizing))
    return passages
