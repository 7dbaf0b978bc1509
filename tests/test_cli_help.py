"""Every command and sub-command of `shelfwise` answers --help (issue 15 part 6).

The commands are read from the real argparse tree, so a command added later is checked without
editing this file; each runs in-process through ``shelfwise.compiler.cli.main.main`` (under a second for all; a subprocess took 4.6 s).
"""

from __future__ import annotations

import argparse
import contextlib
import io

from shelfwise.compiler.cli.main import build_parser, main


def _command_paths(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in sorted(action.choices.items()):
                paths.append((*prefix, name))
                paths.extend(_command_paths(sub, (*prefix, name)))
    return paths


def _help(path: tuple[str, ...]) -> tuple[object, str]:
    """(exit code, printed text) of ``shelfwise PATH --help``, in-process through ``shelfwise.compiler.cli.main.main``."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        try:
            main([*path, "--help"])
        except SystemExit as exc:
            return exc.code, buffer.getvalue()
    return None, buffer.getvalue()


def test_every_command_and_subcommand_has_help():
    paths = _command_paths(build_parser())
    names = {" ".join(p) for p in paths}
    assert {"build", "search", "ask", "serve", "eval", "eval retrieval", "eval scoreboard"} <= names
    for path in paths:
        name = " ".join(path)
        code, text = _help(path)
        assert code == 0, f"shelfwise {name} --help exited {code}"
        assert text.startswith(f"usage: shelfwise {name}"), f"shelfwise {name} --help printed: {text[:200]!r}"
        assert "options:" in text, f"shelfwise {name} --help lists no options"


HEAVY = ("torch", "torchvision", "transformers", "docling", "litestar", "uvicorn", "mkdocs", "openai", "shelfwise.api.answer")


def _imported_by(args: list[str], cwd) -> tuple[int, list[str], str]:
    """(exit code, the heavy modules imported, stderr) of ``shelfwise ARGS`` in a fresh interpreter."""
    import os
    import subprocess
    import sys

    code = ("import sys\nfrom shelfwise.compiler.cli.main import main\ntry:\n    rc = main(sys.argv[1:])\nexcept SystemExit as exc:\n"
            "    rc = exc.code\nprint('HEAVY', ' '.join(m for m in %r if m in sys.modules))\nsys.exit(rc)\n" % (HEAVY,))
    env = {k: v for k, v in os.environ.items() if k != "SHELFWISE_CONFIG"}
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    heavy = next(line for line in done.stdout.splitlines() if line.startswith("HEAVY")).split()[1:]
    return done.returncode, heavy, done.stderr


def _compiled(build_dir, name: str) -> None:
    """A shelf compiled before build generations (a real store.sqlite in its build folder) is a compiled shelf."""
    (build_dir / name).mkdir(parents=True)
    (build_dir / name / "store.sqlite").write_bytes(b"")


def test_help_and_a_mistyped_shelf_answer_without_loading_models_or_the_server(tmp_path):
    _compiled(tmp_path / "build", "northwind")
    code, heavy, _ = _imported_by(["--help"], tmp_path)
    assert (code, heavy) == (0, [])
    code, heavy, err = _imported_by(["search", "northwnd", "calibration"], tmp_path)
    assert (code, heavy) == (1, [])
    assert err == "error: no compiled shelf 'northwnd' under build/; did you mean 'northwind'?\n"
    code, heavy, err = _imported_by(["ask", "northwnd", "Who approves the manual?"], tmp_path)
    assert (code, heavy, err.count("\n")) == (1, [], 1) and "did you mean 'northwind'?" in err


def test_a_shelf_error_names_the_build_dir_once_and_lists_what_is_compiled(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SHELFWISE_CONFIG", raising=False)
    _compiled(tmp_path / "build", "northwind")
    assert main(["search", "build/zzz", "q"]) == 1
    err = capsys.readouterr().err
    assert err == ("error: no compiled shelf 'build/zzz' under build/ (the compiled shelves are: northwind); "
                   "run 'shelfwise build FOLDER' on a folder of documents first\n")
    (tmp_path / "docs").mkdir()
    assert main(["documents", "docs"]) == 1
    assert capsys.readouterr().err == "error: the shelf folder 'docs' is not compiled yet (no build/docs/current); run 'shelfwise build docs' first\n"


def test_an_empty_question_is_one_line_with_an_example(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SHELFWISE_CONFIG", raising=False)
    assert main(["ask", "northwind", ""]) == 1
    assert capsys.readouterr().err == 'error: the question is empty; ask it in quotes, e.g. shelfwise ask northwind "Who approves the quality manual?"\n'
    assert main(["ask", "northwind", "   "]) == 1
