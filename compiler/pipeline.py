"""Which later stages a build runs, in order (indexes, ledger and links, site), from settings."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from compiler.models import ChatModel, make_client
from compiler.settings import Settings

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
    With ``executor`` (compiler.executors.RayExecutor) the passages are embedded by its workers.
    """
    from compiler.embedders import embedder_from_settings
    from compiler.indexes import index_stage
    from compiler.linking import links_stage

    embedder = embedder_from_settings(settings)
    if executor is not None:
        from compiler.executors import RayEmbedder

        embedder = RayEmbedder(embedder, executor, settings.model_dump_json())
    stages = [index_stage(embedder), links_stage(role_model(settings, "extractor"))]
    if site:
        from compiler.site import site_stage

        stages.append(site_stage(settings, shelf_dir=shelf_dir))
    return stages
