"""Figure descriptions by a vision model, cached by image hash; without one, figures stay undescribed."""

from __future__ import annotations

import base64
from collections.abc import Callable

from shelfwise.compiler.models import ChatModel, ModelError
from shelfwise.compiler.prompts import DESCRIBE_FIGURE
from shelfwise.compiler.store.records import Figure
from shelfwise.compiler.store.store import Store

__all__ = ["describe_figures"]


def describe_figures(
    figures: list[Figure], store: Store, vision: ChatModel | None, progress: Callable[[str], None] | None = None
) -> tuple[int, list[str]]:
    """Fill ``description``/``described_by`` in place. Returns (described count, warnings).

    With no vision model the figures keep their caption and ``described_by`` stays None (undescribed).
    A figure without an image crop cannot be described and is left as it is.
    """
    if vision is None:
        return 0, []
    described, warnings = 0, []
    for figure in figures:
        if not figure.image or not figure.image_hash:
            continue
        cached = store.vision_description(figure.image_hash, vision.model)
        if cached is None:
            data_url = "data:image/png;base64," + base64.b64encode(figure.image).decode("ascii")
            messages = [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": DESCRIBE_FIGURE.format(caption=figure.caption or "(no caption)")},
                        {"type": "image_url", "image_url": {"url": data_url}},
                    ],
                }
            ]
            try:
                cached = vision.complete(messages, max_tokens=400).strip()
            except ModelError as exc:
                warnings.append(f"figure {figure.id}: not described: {exc}")
                continue
            store.put_vision_description(figure.image_hash, vision.model, cached)
            if progress:
                progress(f"described figure {figure.id}")
        figure.description = cached
        figure.described_by = vision.model
        described += 1
    return described, warnings
