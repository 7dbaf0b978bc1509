"""The layers run one way: compiler/ imports neither api/ nor eval/, and api/ does not import eval/ (issue 15).

Read from every module's import statements (ast, top level and inside functions alike), so a lazy import
inside a function breaks the contract just as a top-level one does.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"compiler": {"api", "eval"}, "api": {"eval"}}


def _imported_packages(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_layers_import_one_way():
    broken = []
    for layer, forbidden in sorted(FORBIDDEN.items()):
        for path in sorted((ROOT / layer).rglob("*.py")):
            for package in sorted(_imported_packages(path) & forbidden):
                broken.append(f"{path.relative_to(ROOT)} imports {package}")
    assert not broken, "layers import upward:\n" + "\n".join(broken)


def test_the_contract_sees_a_lazy_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from api.cli import ask_command\n    return ask_command\n", encoding="utf-8")
    assert _imported_packages(module) == {"api"}
