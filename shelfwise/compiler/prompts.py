"""Prompt constants for the model-written parts of the compile (ledger extraction, alias judgement, figure descriptions).

A prompt's version is part of every cache key built from it: editing a prompt
means bumping its version, so cached outputs of the old wording are not reused.
"""

from __future__ import annotations

__all__ = [
    "EXTRACT_PROMPT_VERSION",
    "EXTRACT_SYSTEM",
    "EXTRACT_SECTION",
    "ALIAS_PROMPT_VERSION",
    "ALIAS_SYSTEM",
    "ALIAS_PAIR",
    "DESCRIBE_FIGURE",
]

EXTRACT_PROMPT_VERSION = "extract-1"

EXTRACT_SYSTEM = """You turn sections of a document into assertions for a ledger.
For every section you are given, list its assertions. Kinds:
- definition: a term and what it means
- rule: an obligation, prohibition or permission (must, shall, should, may, required), with its conditions
  (if / when clauses), exceptions (unless / except clauses) and thresholds (a number with its unit and comparator)
- finding: a result or observation the document reports
- step: one step of an ordered procedure; give its position in "step" (1, 2, ...)
- dependency: the section relies on another document or section
- supersession: one document or feature updates, obsoletes, replaces or deprecates another
Every assertion MUST carry "quote": one sentence copied character for character from the section text.
An assertion whose quote is not in the section is discarded. Do not invent assertions; an empty list is fine.
Answer with one JSON object only:
{"sections": [{"key": "<section key>", "assertions": [{"kind": "...", "subject": "...", "statement": "...",
  "quote": "...", "conditions": [], "exceptions": [], "thresholds": [{"value": "8", "unit": "characters",
  "comparator": "at least"}], "modality": "must", "step": null}]}]}"""

EXTRACT_SECTION = """<section key="{key}" document="{title}" heading="{heading}">
{text}
</section>"""

ALIAS_PROMPT_VERSION = "alias-1"

ALIAS_SYSTEM = """You judge whether two names used in a shelf of documents name the same concept.
Answer with one JSON object only: {"same": true or false, "reason": "<one sentence>"}"""

ALIAS_PAIR = """Name A: {short}
Name B: {long}
Where A and B were found together:
{quote}"""

# Figures: the vision model's description is input for the writer, never shown as fact.
DESCRIBE_FIGURE = (
    "Describe this figure from a document for a reader who cannot see it. "
    "State what it shows (chart type, axes, labelled values, steps, components and their connections) "
    "using only what is visible; do not guess at anything not shown. Caption: {caption}"
)
