"""The store is the boundary (issue 15): SQL runs only in store modules; stages, readers and benches call their named methods."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STORE_MODULES = {"shelfwise/compiler/store/store.py", "shelfwise/compiler/store/migrations.py", "shelfwise/compiler/store/ledger_store.py", "shelfwise/compiler/store/vector_store.py", "shelfwise/api/trace.py"}
"""The modules that hold SQL: the compiled store (documents, sections, aliases) and its schema's numbered migrations, the ledger's tables, the dense
index's tables, and the answer traces' database."""
SQL_CALLS = {"execute", "executemany", "executescript"}


def _sql_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS]


def test_only_store_modules_run_sql():
    found = {}
    for package in ("shelfwise",):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name not in STORE_MODULES and (lines := _sql_calls(path)):
                found[name] = lines
    assert found == {}, f"SQL outside the store modules (move it into a named store method): {found}"


def test_every_store_module_still_holds_sql():
    assert all(_sql_calls(ROOT / name) for name in sorted(STORE_MODULES))


def test_the_named_reads_of_a_compiled_store(tmp_path):
    """The reads the benches and searchers make, against what the store's sections and passages hold."""
    from answer_shelves import HashEmbedder, compile_shelf
    from shelfwise.compiler.store.store import Store

    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "guide.md").write_text("# Guide\n\n## Setup\n\n" + "Install the pump driver first. " * 10 + "\n\n## Empty\n\n## Use\n\nPress start.\n",
                                    encoding="utf-8")
    store = Store(compile_shelf(shelf, tmp_path / "build") / "store.sqlite", create=False)
    try:
        sections = store.sections()
        assert store.section_count() == len(sections) == 5  # the root, the title and its three sections
        assert store.section_count(with_text=True) == 2
        assert store.long_section_headings(200, 5) == ["Setup"]
        assert store.text_section_ids(["guide-md"]) == [s.id for s in sections if s.heading in ("Setup", "Use")]
        model = HashEmbedder.model_id
        passages = store.vectors.passage_sections()
        assert passages == sorted(passages) and len(passages) == store.vectors.passage_count(model) > 0
        assert {v.section_id for v in store.vectors.passage_vectors(model)} == set(passages)
        assert store.vectors.passage_doc_ids(model) == {"guide-md"}
    finally:
        store.close()
