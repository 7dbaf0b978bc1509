"""``shelfwise serve``: the API (and the compiled static sites) under uvicorn.

Shelves are found under the build dir (``build/<shelf>/store.sqlite``); each
shelf's site (``build/<shelf>/site``) is served under /sites/<shelf>/ when
``api.serve_sites`` is on and the site was built.
"""

from __future__ import annotations

from pathlib import Path

from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.settings import Settings

__all__ = ["shelf_build_dirs", "make_app", "serve"]


def shelf_build_dirs(shelves: list[str], settings: Settings) -> dict[str, Path]:
    """Shelf name -> build folder for the given names (or every compiled shelf under the build dir when none is given).

    A name may also be a shelf folder or a build folder holding store.sqlite.
    """
    from shelfwise.compiler.build import shelf_dir_for

    found: dict[str, Path] = {}
    if not shelves:
        root = Path(settings.build_dir)
        for store in sorted(root.glob("*/store.sqlite")):
            found[store.parent.name] = store.parent
        if not found:
            raise ShelfwiseError(f"no compiled shelves under {root}; run 'shelfwise build SHELF' first")
        return found
    for shelf in shelves:
        build = shelf_dir_for(shelf, settings)
        name = build.resolve().name
        found[name] = build
        if not (found[name] / "store.sqlite").exists():
            raise ShelfwiseError(f"shelf '{shelf}' is not compiled (no {found[name] / 'store.sqlite'}); run 'shelfwise build' on it first")
    return found


def make_app(shelves: list[str], settings: Settings, *, embedder=None, http_client=None):
    """The app over ``shelves`` with the configured embedder and role models."""
    from shelfwise.api.answer import chat_models
    from shelfwise.api.server.app import create_app
    from shelfwise.compiler.index.embedders import embedder_from_settings

    build_dirs = shelf_build_dirs(shelves, settings)
    sites = {}
    if settings.api.serve_sites:
        sites = {name: folder / "site" for name, folder in build_dirs.items() if (folder / "site" / "index.html").exists()}
    return create_app(
        settings,
        chat=chat_models(settings, http_client=http_client),
        embedder=embedder if embedder is not None else embedder_from_settings(settings),
        stores=build_dirs,
        sites=sites,
    )


def serve(shelves: list[str], host: str, port: int, settings: Settings) -> None:
    """Run the API with uvicorn until interrupted."""
    import uvicorn

    from shelfwise.api.server.security import UVICORN_OPTIONS

    app = make_app(shelves, settings)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_keep_alive=5, **UVICORN_OPTIONS)
