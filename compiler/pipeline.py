"""Which later stages a build runs, in order (indexes, ledger and links, site), from settings."""

from __future__ import annotations

from collections.abc import Callable

from compiler.settings import Settings

__all__ = ["default_stages"]


def default_stages(settings: Settings) -> list[Callable]:
    """Stages run after documents are stored: each is ``stage(store, out, changed, removed, progress) -> (name, summary)``."""
    stages: list[Callable] = []
    return stages
