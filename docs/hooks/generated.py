"""mkdocs hook: the docs' generated parts. A line ``<!-- generated: NAME -->`` on a page becomes

- ``settings``: every key of shelfwise.toml, from the pydantic settings models (settings_reference.py);
- ``shelf-toml``: every key of a shelf's shelf.toml, from its model;
- ``commands``: every command and option, from the ``shelfwise`` parser (command_reference.py);
- ``benchmark NAME``: a table read from eval/results/*.json (benchmark_tables.py).

An unknown name fails the build, so a page cannot ask for a table that is not made.
"""

from __future__ import annotations

import re

from benchmark_tables import benchmark_table
from command_reference import command_reference
from settings_reference import settings_reference, shelf_reference

MARKER = re.compile(r"^<!-- generated: ([\w-]+)(?: ([\w-]+))? -->$", re.MULTILINE)
_MAKERS = {"settings": settings_reference, "shelf-toml": shelf_reference, "commands": command_reference}


def _generate(match: re.Match) -> str:
    kind, name = match.group(1), match.group(2)
    if kind == "benchmark" and name:
        return benchmark_table(name)
    if kind in _MAKERS and not name:
        return _MAKERS[kind]()
    raise ValueError(f"unknown generated block {match.group(0)!r}; known: {', '.join(_MAKERS)}, benchmark NAME (docs/hooks/generated.py)")


def on_page_markdown(markdown: str, page, config, files) -> str:
    return MARKER.sub(_generate, markdown)
