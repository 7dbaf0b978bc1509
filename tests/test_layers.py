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
