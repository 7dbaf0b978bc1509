"""The store is the boundary (issue 15): SQL runs only in store modules; stage modules call their named methods."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STORE_MODULES = {"compiler/store.py", "compiler/ledger_store.py", "compiler/vector_store.py", "api/trace.py"}
"""The modules that hold SQL: the compiled store (documents, sections, aliases), the ledger's tables, the dense
index's tables, and the answer traces' database."""
SQL_CALLS = {"execute", "executemany", "executescript"}


def _sql_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS]


def test_only_store_modules_run_sql():
    found = {}
    for package in ("compiler", "api"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name not in STORE_MODULES and (lines := _sql_calls(path)):
                found[name] = lines
    assert found == {}, f"SQL outside the store modules (move it into a named store method): {found}"


def test_every_store_module_still_holds_sql():
    assert all(_sql_calls(ROOT / name) for name in sorted(STORE_MODULES))
