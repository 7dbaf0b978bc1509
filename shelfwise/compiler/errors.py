"""Errors shelfwise raises on purpose.

    ShelfwiseError            base: the CLI prints its message as one line and exits 1
    ├── SettingsError         settings or shelf.toml invalid (raised by settings.load_*)
    ├── ConversionError       one file could not be read (raised by convert.*; the build records it and goes on)
    ├── StoreError            the compiled store is missing or from a newer version (raised by store.Store)
    ├── SearchError           a query cannot be run: empty, or no index built yet (raised by shelfwise.compiler.search.search)
    ├── EmbeddingError        the embedding model cannot load or its endpoint fails (raised by shelfwise.compiler.index.embedders)
    └── SiteError             pages or the mkdocs build failed; the last good site is kept (raised by shelfwise.compiler.publish.pages, shelfwise.compiler.publish.site)
"""

from __future__ import annotations


class ShelfwiseError(Exception):
    """Base of every expected error; anything else is a bug and keeps its traceback."""


class SettingsError(ShelfwiseError):
    """Raised by settings loaders with every problem found, each naming the key and the fix."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = problems
        if len(problems) == 1:  # one problem: one line, as the CLI prints expected errors
            super().__init__(f"{source}: {problems[0]}")
        else:
            super().__init__(f"{source}: {len(problems)} problem(s):\n" + "\n".join(f"  - {p}" for p in problems))


class ConversionError(ShelfwiseError):
    """Raised by a reader when a file cannot be converted; the message names the reason, the build adds the path.

    ``traceback`` carries the traceback of a bug in a reader that crashed in the conversion worker's process
    (empty for an expected failure), so the build's report keeps it.
    """

    def __init__(self, message: str, *, traceback: str = ""):
        super().__init__(message)
        self.traceback = traceback


class StoreError(ShelfwiseError):
    """Raised by store.Store when a store is missing, unreadable or newer than this code."""


class SearchError(ShelfwiseError):
    """Raised by shelfwise.compiler.search.search for a query it cannot run (empty) or an index that is missing; the message says the fix."""


class EmbeddingError(ShelfwiseError):
    """Raised by shelfwise.compiler.index.embedders when the local model cannot load or an embeddings endpoint fails."""


class SiteError(ShelfwiseError):
    """Raised by shelfwise.compiler.publish.pages and shelfwise.compiler.publish.site when a page template or the mkdocs build fails; the old site stays."""
