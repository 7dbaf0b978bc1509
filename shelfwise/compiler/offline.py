"""Process set-up shared by every entry point: no model hub, and no broken torchvision.

FACTS.md: torchvision 0.28 beside the CPU torch 2.13 fails on import
(``operator torchvision::nms does not exist``); once docling or transformers
has tried it, transformers refuses to load any model. Nothing shelfwise runs
needs torchvision, so it is hidden before either library is imported.
"""

from __future__ import annotations

import os
import sys

__all__ = ["offline", "prepare"]


def offline() -> None:
    """Force offline model loading (environment variables only: imports nothing, so the CLI sets it at once)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def prepare() -> None:
    """Force offline model loading and hide a torchvision that cannot import. Idempotent.

    Importing torchvision imports torch (seconds), so only the code about to load docling or transformers calls this
    (docling_reader, pdf_docling, the local embedder); the CLI entry calls ``offline`` alone."""
    offline()
    if "torchvision" in sys.modules and sys.modules["torchvision"] is None:
        return
    try:
        import torchvision  # noqa: F401
        import torchvision.transforms  # noqa: F401
    except Exception:  # any import failure means the same: hide it
        for name in [n for n in sys.modules if n == "torchvision" or n.startswith("torchvision.")]:
            del sys.modules[name]
        sys.modules["torchvision"] = None  # type: ignore[assignment]
        _forget_torchvision_in_transformers()


def _forget_torchvision_in_transformers() -> None:
    """If transformers already decided torchvision was available, make it ask again (it now finds none)."""
    utils = sys.modules.get("transformers.utils.import_utils")
    if utils is None:
        return
    for name in ("is_torchvision_available", "is_torchvision_v2_available"):
        check = getattr(utils, name, None)
        if check is not None and hasattr(check, "cache_clear"):
            check.cache_clear()
