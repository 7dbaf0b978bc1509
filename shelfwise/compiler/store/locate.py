"""Where a compiled shelf lives: the one resolver of a shelf's build folder from what a user types.

A shelf is named by its build folder, its shelf folder (the folder of documents) or its name under the build dir.
``compiled_shelf`` is what the commands call: the build root of a compiled shelf, or an error of one line that
says what to run, with "did you mean" when the name is close to a compiled shelf's. Nothing here imports more than
the settings and the generations, so a mistyped name is answered at once.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from shelfwise.compiler.errors import SettingsError, ShelfwiseError
from shelfwise.compiler.settings import ShelfConfig, load_shelf_config, plain_name_problem
from shelfwise.compiler.store.generations import current_generation

__all__ = ["shelf_name", "shelf_build_dir", "shelf_dir_for", "current_build", "compiled_names", "compiled_shelf"]


def shelf_name(shelf_dir: Path, config: ShelfConfig) -> str:
    """The shelf's name: shelf.toml's ``name`` (checked plain when it was loaded), else the folder's name."""
    name = config.name or shelf_dir.resolve().name
    problem = plain_name_problem(name)
    if problem:
        raise SettingsError(str(shelf_dir), [f"the folder's name {problem}; set name in its shelf.toml"])
    return name


def shelf_build_dir(shelf_dir: Path, settings, config: ShelfConfig | None = None) -> Path:
    """``<build_dir>/<name>``; refused when, links resolved, it is not a folder inside the build folder (a link
    at ``<build_dir>/<name>`` pointing elsewhere), so a build never writes outside --build-dir."""
    config = config or load_shelf_config(shelf_dir)
    name = shelf_name(shelf_dir, config)
    build_dir = Path(settings.build_dir)
    root = build_dir / name
    inside = build_dir.resolve()
    if root.resolve() == inside or not root.resolve().is_relative_to(inside):
        raise SettingsError(str(shelf_dir / "shelf.toml"), [
            f"name: {name!r} leads to {root.resolve()}, outside the build folder {inside}; "
            f"remove the link {root} or give another name"])
    return root


def shelf_dir_for(shelf: str, settings) -> Path:
    """A compiled shelf's build folder (its root, holding ``current`` and ``generations/``) from its build
    folder, its shelf folder or its name under the build dir: the one resolver of a shelf's build folder
    (``current_build``, ``compiled_shelf``, ``shelfwise.api.server.serve``, ``shelfwise.compiler.search.search_cli``,
    ``shelfwise.compiler.cli.inspection`` and the eval runs go through it)."""
    path = Path(shelf)
    build_dir = Path(settings.build_dir)
    if (path / "store.sqlite").exists():
        return path
    if path.is_dir() and not (build_dir / shelf / "store.sqlite").exists():
        return shelf_build_dir(path, settings)
    if path.resolve().is_relative_to(build_dir.resolve()) and path.resolve() != build_dir.resolve():
        return path  # already under the build dir ('build/northwind'): never 'build/build/northwind'
    return build_dir / shelf


def current_build(shelf: str | Path, settings=None) -> Path:
    """The folder of a shelf's current build generation (store.sqlite, lexical/, site/ of one build, never a mix).

    ``shelf`` is what ``shelf_dir_for`` takes, or a build root or generation folder; when nothing is compiled
    there the root is returned (its store.sqlite is then missing, for the caller's own message).
    """
    root = Path(shelf) if settings is None else shelf_dir_for(str(shelf), settings)
    return current_generation(root) or root


def compiled_names(settings) -> list[str]:
    """The names of the shelves compiled under the build dir, sorted."""
    root = Path(settings.build_dir)
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and current_generation(p) is not None)


def compiled_shelf(shelf: str, settings) -> Path:
    """The build root of the compiled shelf ``shelf`` names (see ``shelf_dir_for``); ShelfwiseError naming what to run
    when nothing is compiled there, with the closest compiled shelf's name when one is close."""
    root = shelf_dir_for(shelf, settings)
    if current_generation(root) is not None:
        return root
    folder = Path(shelf)
    if folder.is_dir() and not folder.resolve().is_relative_to(Path(settings.build_dir).resolve()):
        raise ShelfwiseError(f"the shelf folder '{shelf}' is not compiled yet (no {root}/current); run 'shelfwise build {shelf}' first")
    names = compiled_names(settings)
    close = difflib.get_close_matches(folder.name, names, n=1, cutoff=0.6)
    if close:
        raise ShelfwiseError(f"no compiled shelf '{shelf}' under {settings.build_dir}/; did you mean '{close[0]}'?")
    known = f"the compiled shelves are: {', '.join(names)}" if names else "none is compiled yet"
    raise ShelfwiseError(f"no compiled shelf '{shelf}' under {settings.build_dir}/ ({known}); "
                         "run 'shelfwise build FOLDER' on a folder of documents first")
