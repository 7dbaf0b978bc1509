"""The layers import one way: compiler/ imports neither api/ nor eval/, and api/ does not import eval/ (issue 15).

The contract is import-linter's ``layers`` contract in pyproject.toml ([tool.importlinter]); grimp reads every
import statement, inside functions too, so a lazy import breaks the contract just as a top-level one does.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
CONTRACTS = (ROOT / "pyproject.toml").read_text(encoding="utf-8").count("[[tool.importlinter.contracts]]")


def test_layers_import_one_way(capsys):
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    out = capsys.readouterr().out
    assert code == 0, "layers import upward (pyproject.toml [tool.importlinter]):\n" + out
    assert f"{CONTRACTS} kept, 0 broken" in out


def test_the_contract_fails_on_a_lazy_upward_import(tmp_path):
    """The same pyproject.toml over three small packages whose compiler imports api inside a function: broken."""
    (tmp_path / "shelfwise").mkdir()
    (tmp_path / "shelfwise" / "__init__.py").write_text("", encoding="utf-8")
    for package, text in {"compiler": "def f():\n    from shelfwise.api.y import g\n    return g\n", "api": "def g():\n    return 1\n",
                          "eval": ""}.items():
        (tmp_path / "shelfwise" / package).mkdir()
        (tmp_path / "shelfwise" / package / "__init__.py").write_text("", encoding="utf-8")
        (tmp_path / "shelfwise" / package / ("x.py" if package == "compiler" else "y.py")).write_text(text, encoding="utf-8")
    # the eval -> api -> compiler contract alone: the stage contracts after it name subpackages these three lack
    contract = (ROOT / "pyproject.toml").read_text(encoding="utf-8").split("\n# The stages keep their shape")[0]
    (tmp_path / "pyproject.toml").write_text(contract, encoding="utf-8")
    run = "from importlinter.cli import lint_imports; raise SystemExit(lint_imports(no_cache=True, no_logo=True))"
    result = subprocess.run([sys.executable, "-c", run], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "0 kept, 1 broken" in result.stdout and "shelfwise.compiler.x -> shelfwise.api.y" in result.stdout, result.stdout


# -- No package cycle (issue 33): inside every package, its subpackages (each with all it holds) import without a
# cycle. A cycle among plain sibling modules is a module cycle: only the two listed here are known (each closed by
# an import inside a function, in code other work owns); a new one fails, and so does an entry that no longer holds.

KNOWN_MODULE_CYCLES = {
    frozenset({"backends", "embedders", "indexes", "onnx_minilm", "vectors"}): "shelfwise.compiler.index",
    frozenset({"ocr", "pdf_layout"}): "shelfwise.compiler.ingest.convert",
}


def _cycles(graph) -> list[tuple[str, frozenset[str], bool]]:
    """Every cycle among the children of each package of ``graph``: (package, child names, whether a subpackage is in it).

    The children of a package are its modules and subpackages, each standing for everything under it; the cycles are
    the strongly connected components of more than one child (Tarjan's algorithm, iterative)."""
    found = []
    for package in sorted(m for m in graph.modules if graph.find_children(m)):
        children = sorted(graph.find_children(package))
        owner = {}
        for child in children:
            owner[child] = child
            for module in graph.find_descendants(child):
                owner[module] = child
        edges = {child: set() for child in children}
        for module, child in owner.items():
            for imported in graph.find_modules_directly_imported_by(module):
                if imported in owner and owner[imported] != child:
                    edges[child].add(owner[imported])
        index, low, stack, on_stack, counter = {}, {}, [], set(), [0]
        for root in children:
            if root in index:
                continue
            work = [(root, iter(sorted(edges[root])))]
            index[root] = low[root] = counter[0]; counter[0] += 1; stack.append(root); on_stack.add(root)
            while work:
                node, successors = work[-1]
                step = next(successors, None)
                if step is not None:
                    if step not in index:
                        index[step] = low[step] = counter[0]; counter[0] += 1; stack.append(step); on_stack.add(step)
                        work.append((step, iter(sorted(edges[step]))))
                    elif step in on_stack:
                        low[node] = min(low[node], index[step])
                    continue
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop(); on_stack.discard(member); component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append((package, frozenset(c.rsplit(".", 1)[1] for c in component),
                                      any(graph.find_children(c) for c in component)))
    return found


def test_no_package_cycle():
    import grimp

    cycles = _cycles(grimp.build_graph("shelfwise"))
    packages = [f"{package}: {sorted(names)}" for package, names, has_package in cycles if has_package]
    assert not packages, "packages import each other (a cycle; move what both need below both):\n" + "\n".join(packages)
    modules = {names: package for package, names, has_package in cycles if not has_package}
    new = [f"{package}: {sorted(names)}" for names, package in modules.items() if KNOWN_MODULE_CYCLES.get(names) != package]
    assert not new, "modules import each other (a cycle):\n" + "\n".join(new)
    gone = [f"{package}: {sorted(names)}" for names, package in KNOWN_MODULE_CYCLES.items() if modules.get(names) != package]
    assert not gone, "a known module cycle no longer holds; take it off KNOWN_MODULE_CYCLES:\n" + "\n".join(gone)


def test_the_cycle_check_finds_a_package_cycle_and_a_module_cycle():
    """Two packages where store imports links and links imports store, and two modules of ingest
    that import each other: both cycles are found, the first as a package cycle."""
    import grimp

    graph = grimp.ImportGraph()
    for module in ["s", "s.c", "s.c.store", "s.c.store.db", "s.c.links", "s.c.links.resolve", "s.c.ingest", "s.c.ingest.a",
                   "s.c.ingest.b", "s.c.build"]:
        graph.add_module(module)
    for importer, imported in [("s.c.store.db", "s.c.links.resolve"), ("s.c.links.resolve", "s.c.store.db"),
                               ("s.c.ingest.a", "s.c.ingest.b"), ("s.c.ingest.b", "s.c.ingest.a"), ("s.c.build", "s.c.store.db")]:
        graph.add_import(importer=importer, imported=imported)
    assert sorted(_cycles(graph), key=str) == [("s.c", frozenset({"links", "store"}), True),
                                                ("s.c.ingest", frozenset({"a", "b"}), False)]


# -- Small modules and functions (STYLE.md, issue 33's floors): no module over 500 lines, no function over 100. The
# exceptions are the answer driver and the extractive writer, which issue 33's answer-side work splits; an exception
# that no longer holds fails too, so the list only shrinks.

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 100
KNOWN_LONG: set[tuple[str, str | None]] = set()  # (module, function or None for the module itself): none left


def _long_parts(root: Path) -> set[tuple[str, str | None]]:
    import ast

    found = set()
    for path in sorted((root / "shelfwise").rglob("*.py")):
        name = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            found.add((name, None))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if node.end_lineno - first + 1 > MAX_FUNCTION_LINES:
                    found.add((name, node.name))
    return found


def test_modules_and_functions_are_small():
    found = _long_parts(ROOT)
    new = sorted(found - KNOWN_LONG, key=str)
    assert not new, (f"over {MAX_MODULE_LINES} lines (module, None) or {MAX_FUNCTION_LINES} lines (function); split it:\n"
                     + "\n".join(map(str, new)))
    gone = sorted(KNOWN_LONG - found, key=str)
    assert not gone, "no longer long; take it off KNOWN_LONG:\n" + "\n".join(map(str, gone))


def test_the_size_check_finds_a_long_function(tmp_path):
    (tmp_path / "shelfwise").mkdir()
    body = "".join(f"    x{n} = {n}\n" for n in range(MAX_FUNCTION_LINES))
    (tmp_path / "shelfwise" / "long.py").write_text("def long():\n" + body + "\n\ndef short():\n    return 1\n", encoding="utf-8")
    assert _long_parts(tmp_path) == {("shelfwise/long.py", "long")}

