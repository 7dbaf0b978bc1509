"""The model path of the ledger: sections sent in batches, JSON replies validated by pydantic, quotes verified.

The chat model is ``shelfwise.compiler.models.ChatModel`` (anything with ``model`` and
``complete(messages, json_object=True) -> str``). Each section's verified
result is cached by the section's content hash and ``model:<id>:<prompt version>``,
so an edited document re-extracts only its changed sections.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, Field, ValidationError

from shelfwise.compiler.store.records import Assertion, Extraction, Section
from shelfwise.compiler.ledger.rules import verify
from shelfwise.compiler.prompts import EXTRACT_PROMPT_VERSION, EXTRACT_SECTION, EXTRACT_SYSTEM

__all__ = ["BATCH_CHARS", "ModelReply", "extractor_key", "extract_with_model", "ModelSection"]

BATCH_CHARS = 24_000


class ModelSection(BaseModel):
    key: str = Field(description="The section key given in the prompt.")
    assertions: list[Assertion] = Field(default_factory=list)


class ModelReply(BaseModel):
    """The JSON object the extraction prompt asks for."""

    sections: list[ModelSection]


def extractor_key(model: str) -> str:
    return f"model:{model}:{EXTRACT_PROMPT_VERSION}"


def _batches(items: list[tuple[Section, str]]) -> list[list[tuple[Section, str]]]:
    batches: list[list[tuple[Section, str]]] = []
    size = 0
    for section, title in items:
        length = len(section.text) + 200
        if batches and size + length <= BATCH_CHARS:
            batches[-1].append((section, title))
            size += length
        else:
            batches.append([(section, title)])
            size = length
    return batches


def extract_with_model(chat, items: list[tuple[Section, str]]) -> tuple[dict[str, Extraction], list[str]]:
    """Extract ``items`` ((section, document title) pairs) in batches.

    Returns the verified extraction per section id, and one problem line per batch
    whose reply was not valid JSON of the asked shape (those sections get no
    extraction and are retried on the next build, since nothing is cached for them).
    """
    results: dict[str, Extraction] = {}
    problems: list[str] = []
    for section, _ in items:
        if not section.text.strip():
            results[section.id] = Extraction()
    for batch in _batches([(s, t) for s, t in items if s.text.strip()]):
        keys = {f"S{n + 1}": section for n, (section, _) in enumerate(batch)}
        body = "\n\n".join(
            EXTRACT_SECTION.format(key=key, title=title, heading=" > ".join(section.heading_path) or title, text=section.text)
            for key, (section, title) in zip(keys, batch)
        )
        reply = chat.complete(
            [{"role": "system", "content": EXTRACT_SYSTEM}, {"role": "user", "content": body}], json_object=True
        )
        try:
            parsed = ModelReply.model_validate(json.loads(reply))
        except (json.JSONDecodeError, ValidationError) as exc:
            first = str(exc).splitlines()[0][:160]
            problems.append(f"model {chat.model}: unusable extraction reply for sections "
                            f"{', '.join(s.id for s, _ in batch)} ({first}); they will be retried on the next build")
            continue
        answered = {item.key: item for item in parsed.sections}
        for key, section in keys.items():
            item = answered.get(key)
            extraction = Extraction(assertions=item.assertions if item else [])
            results[section.id] = verify(extraction, section.text)
    return results, problems
