"""Each package's ``__all__`` matches its public names, and no module's ``__all__`` names what it lacks (STYLE.md; httpx's test)."""

from __future__ import annotations

import importlib
import pkgutil
import types

import pytest

PACKAGES = ["shelfwise"]


def _modules() -> list[types.ModuleType]:
    found = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        found.append(package)
        for info in pkgutil.walk_packages(package.__path__, f"{name}."):
            found.append(importlib.import_module(info.name))
    return found


MODULES = _modules()
PACKAGE_MODULES = [m for m in MODULES if hasattr(m, "__path__")]


def _ours(value: object) -> bool:
    """A name the package itself defines or re-exports (not a module, not a name imported from another library)."""
    if isinstance(value, types.ModuleType) or type(value).__name__ == "_Feature":  # from __future__ import annotations
        return False
    module = getattr(value, "__module__", None)
    if module is None or not isinstance(module, str) or isinstance(value, (dict, list, tuple, set, frozenset, str, int, float)):
        return True
    return module.split(".")[0] in PACKAGES


@pytest.mark.parametrize("package", PACKAGE_MODULES, ids=lambda m: m.__name__)
def test_package_all_matches_its_public_names(package: types.ModuleType):
    assert hasattr(package, "__all__"), f"{package.__name__}/__init__.py declares no __all__"
    public = {name for name, value in vars(package).items() if not name.startswith("_") and _ours(value)}
    assert sorted(set(package.__all__)) == sorted(package.__all__), f"{package.__name__}.__all__ repeats a name"
    assert set(package.__all__) == public | (set(package.__all__) & {"__version__"}), (
        f"{package.__name__}: __all__ {sorted(package.__all__)} but public names {sorted(public)}"
    )


@pytest.mark.parametrize("module", [m for m in MODULES if hasattr(m, "__all__")], ids=lambda m: m.__name__)
def test_every_name_in_all_exists(module: types.ModuleType):
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert not missing, f"{module.__name__}.__all__ names {missing}, which it does not define"


def _defined_here(module: types.ModuleType) -> list[str]:
    """Public functions and classes the module itself defines (not imported, not ``_private``)."""
    return sorted(name for name, value in vars(module).items()
                  if not name.startswith("_") and isinstance(value, (type, types.FunctionType))
                  and getattr(value, "__module__", None) == module.__name__)


@pytest.mark.parametrize("module", [m for m in MODULES if hasattr(m, "__all__")], ids=lambda m: m.__name__)
def test_every_public_function_and_class_is_in_all(module: types.ModuleType):
    left_out = [name for name in _defined_here(module) if name not in module.__all__]
    assert not left_out, f"{module.__name__} defines {left_out} without listing them in __all__ (add them, or make them _private)"
