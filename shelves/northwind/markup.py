"""The small markup the Northwind sources are written in, parsed into format-neutral blocks.

One block per paragraph (blank-line separated); a line's first characters say what it is:

- ``# ``, ``## ``, ``### `` heading of level 1, 2, 3 (a slide title in a deck source);
- ``- `` bullet item; ``7. `` a numbered procedure step (the number is kept: steps continue
  across documents, so no format may renumber them);
- ``| a | b |`` table row (the first row is the header);
- ``!fig NAME | CAPTION`` a figure drawn by ``figures.py``, with its caption;
- ``%% `` comment, dropped.

Revision variants: a line starting ``@C `` or ``@D `` belongs only to that revision, and
``{C:text|D:text}`` inline picks one text per revision. Sources without variants ignore both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_VARIANT = re.compile(r"\{([A-Z]):([^|{}]*)\|([A-Z]):([^|{}]*)\}")
_STEP = re.compile(r"^(\d+)\.\s+(.*)$")


@dataclass
class Block:
    """One item of a source document."""

    kind: str  # heading, para, bullet, step, table, figure
    text: str = ""
    level: int = 0
    number: str = ""
    rows: list[list[str]] = field(default_factory=list)
    figure: str = ""


def _resolve(line: str, revision: str | None) -> str | None:
    prefix = re.match(r"^@([A-Z]) ", line)
    if prefix:
        if revision is None:
            raise ValueError(f"revision-only line in a source without revisions: {line[:60]!r}")
        if prefix.group(1) != revision:
            return None
        line = line[3:]

    def pick(match: re.Match[str]) -> str:
        options = {match.group(1): match.group(2), match.group(3): match.group(4)}
        if revision not in options:
            raise ValueError(f"no text for revision {revision} in {match.group(0)!r}")
        return options[revision]

    return _VARIANT.sub(pick, line)


def _paragraphs(text: str, revision: str | None) -> list[list[str]]:
    groups: list[list[str]] = [[]]
    for raw in text.splitlines():
        if raw.startswith("%%"):
            continue
        line = _resolve(raw.rstrip(), revision)
        if line is None:
            continue
        if not line.strip():
            if groups[-1]:
                groups.append([])
            continue
        groups[-1].append(line.strip())
    return [group for group in groups if group]


def parse(text: str, revision: str | None = None) -> list[Block]:
    """Blocks of a source in document order, with revision variants resolved."""
    blocks: list[Block] = []
    for lines in _paragraphs(text, revision):
        first = lines[0]
        if first.startswith("#"):
            hashes = len(first) - len(first.lstrip("#"))
            blocks.append(Block("heading", first[hashes:].strip(), level=hashes))
            lines = lines[1:]
            if not lines:
                continue
            first = lines[0]
        if first.startswith("|"):
            rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]
            blocks.append(Block("table", rows=rows))
        elif first.startswith("!fig "):
            name, caption = first[5:].split("|", 1)
            blocks.append(Block("figure", caption.strip(), figure=name.strip()))
        elif first.startswith("- "):
            items: list[str] = []
            for line in lines:
                if line.startswith("- "):
                    items.append(line[2:])
                else:
                    items[-1] += " " + line
            blocks.extend(Block("bullet", item) for item in items)
        elif _STEP.match(first):
            steps: list[tuple[str, str]] = []
            for line in lines:
                match = _STEP.match(line)
                if match:
                    steps.append((match.group(1), match.group(2)))
                else:
                    steps[-1] = (steps[-1][0], steps[-1][1] + " " + line)
            blocks.extend(Block("step", body, number=number) for number, body in steps)
        else:
            blocks.append(Block("para", " ".join(lines)))
    return blocks
