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
