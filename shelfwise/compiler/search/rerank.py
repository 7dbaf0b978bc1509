"""Listwise reranking of the fused top sections by a chat model (paper §6.1), when ``search.rerank_model`` is set.

The model is shown the query and, for each of the fused top ``depth`` sections,
its document title, heading path and best passage (the passage most similar to
the query, else the section's opening), numbered; it replies with a JSON object
``{"ranking": [numbers, best first]}``. Numbers it leaves out keep their fused
order after the ones it ranked. A reply that fails, or holds no usable number,
keeps the fused order and says so in a warning: a weak reranker never makes the
ranking worse than no reranker.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from shelfwise.compiler.models import ChatModel, ModelError

__all__ = ["Reranker", "RERANK_SYSTEM", "PASSAGE_CHARS", "reranker_from_settings", "rerank_hits"]

PASSAGE_CHARS = 600
"""Characters of each section's best passage shown to the reranker."""

RERANK_SYSTEM = (
    "You rank document sections by how well they answer a search query. You are given the query and numbered "
    "sections, each with its document, heading path and a passage. Reply with a JSON object only: "
    '{"ranking": [section numbers, most useful first]}. Include every section that helps answer the query; '
    "leave out the ones that do not."
)


def _parse(reply: str, n: int) -> list[int]:
    """0-based positions from the reply's ranking, in order, without repeats or out-of-range numbers."""
    match = re.search(r"\{.*\}", reply, re.DOTALL)
    if not match:
        return []
    try:
        data = json.loads(match.group(0))
    except json.JSONDecodeError:
        return []
    ranking = data.get("ranking") if isinstance(data, dict) else None
    if not isinstance(ranking, list):
        return []
    order: list[int] = []
    for item in ranking:
        if isinstance(item, bool) or not isinstance(item, int | str) or not str(item).strip().isdigit():
            continue
        position = int(item) - 1
        if 0 <= position < n and position not in order:
            order.append(position)
    return order


class Reranker:
    """A chat model that orders the fused top sections of a query."""

    def __init__(self, chat: ChatModel, *, depth: int = 50):
        self.chat = chat
        self.depth = depth

    def order(self, query: str, items: list[tuple[str, str]], ) -> tuple[list[int], str | None]:
        """(new order of ``items`` as 0-based positions, warning or None); ``items`` are (label, passage) in fused order."""
        shown = items[: self.depth]
        blocks = [f"[{n}] {label}\n{' '.join(passage.split())[:PASSAGE_CHARS]}" for n, (label, passage) in enumerate(shown, start=1)]
        user = f"Query: {query}\n\nSections:\n\n" + "\n\n".join(blocks) + '\n\nReply with {"ranking": [...]}.'
        try:
            reply = self.chat.complete([{"role": "system", "content": RERANK_SYSTEM}, {"role": "user", "content": user}],
                                       json_object=True, max_tokens=400)
        except ModelError as exc:
            return list(range(len(items))), f"reranker {self.chat.model} failed ({exc}); the fused order is kept"
        ranked = _parse(reply, len(shown))
        if not ranked:
            return list(range(len(items))), f"reranker {self.chat.model} gave no usable ranking ({reply[:80]!r}); the fused order is kept"
        rest = [i for i in range(len(items)) if i not in set(ranked)]
        return ranked + rest, None


def reranker_from_settings(settings, *, http_client=None) -> Reranker | None:
    """The reranker ``search.rerank_model`` names on ``models.base_url``; None when no rerank model is set."""
    if not settings.search.rerank_model:
        return None
    from shelfwise.compiler.models import make_client

    return Reranker(ChatModel(make_client(settings.models, http_client=http_client), settings.search.rerank_model),
                    depth=settings.search.rerank_depth)


def rerank_hits(reranker: Reranker, query: str, hits: list, label: Callable, passage: Callable) -> tuple[list, str | None]:
    """``hits`` (SearchHit, fused order) reordered; the fused scores are handed out again in the new order."""
    order, warning = reranker.order(query, [(label(h), passage(h)) for h in hits])
    if warning:
        return hits, warning
    scores = [h.score for h in hits]
    out = []
    for position, index in enumerate(order):
        hit = hits[index].model_copy(update={"score": scores[position]})
        if index < reranker.depth:
            hit.ranks = {**hit.ranks, "rerank": position + 1}
        out.append(hit)
    return out, None
