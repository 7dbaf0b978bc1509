"""Which later stages a build runs, in order (indexes, ledger and links, site), from settings."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from shelfwise.compiler.models import ChatModel, make_client
from shelfwise.compiler.settings import Settings

__all__ = ["default_stages", "role_model"]


def role_model(settings: Settings, role: str, *, http_client=None) -> ChatModel | None:
    """The ChatModel configured for ``role`` (e.g. 'extractor'), or None when the role is model-free."""
    model = getattr(settings.models, role)
    if not model:
        return None
    return ChatModel(make_client(settings.models, http_client=http_client), model)


def default_stages(settings: Settings, *, site: bool = False, shelf_dir: Path | None = None, executor=None) -> list[Callable]:
    """Stages run after documents are stored: each is ``stage(store, out, changed, removed, progress) -> (name, summary)``.

    Indexes, then the ledger and links; with ``site`` the static site last (templates from ``shelf_dir`` override ours).
    With ``executor`` (shelfwise.compiler.executors.RayExecutor) the passages are embedded by its workers.
    """
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.index.indexes import index_stage
    from shelfwise.compiler.links.linking import links_stage

    embedder = embedder_from_settings(settings)
    if executor is not None:
        from shelfwise.compiler.executors import RayEmbedder

        embedder = RayEmbedder(embedder, executor, settings.model_dump_json())
    stages = [index_stage(embedder), links_stage(role_model(settings, "extractor"))]
    if site:
        from shelfwise.compiler.publish.site import site_stage

        stages.append(site_stage(settings, shelf_dir=shelf_dir))
    return stages
