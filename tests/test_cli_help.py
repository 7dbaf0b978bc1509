"""Every command and sub-command of `shelfwise` answers --help (issue 15 part 6).

The commands are read from the real argparse tree, so a command added later is checked without
editing this file; one subprocess runs them all to keep the suite fast.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from compiler.cli import build_parser


def _command_paths(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in sorted(action.choices.items()):
                paths.append((*prefix, name))
                paths.extend(_command_paths(sub, (*prefix, name)))
    return paths


_RUN_ALL = """
import contextlib, io, json, sys
from compiler.cli import main
out = {}
for path in json.loads(sys.argv[1]):
    buffer = io.StringIO()
    code = None
    with contextlib.redirect_stdout(buffer):
        try:
            main([*path, "--help"])
        except SystemExit as exc:
            code = exc.code
    out[" ".join(path)] = [code, buffer.getvalue()]
print(json.dumps(out))
"""


def test_every_command_and_subcommand_has_help():
    paths = _command_paths(build_parser())
    names = {" ".join(p) for p in paths}
    assert {"build", "search", "ask", "serve", "eval", "eval retrieval", "eval scoreboard"} <= names
    result = subprocess.run([sys.executable, "-c", _RUN_ALL, json.dumps(paths)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    helps = json.loads(result.stdout.strip().splitlines()[-1])
    for name, (code, text) in sorted(helps.items()):
        assert code == 0, f"shelfwise {name} --help exited {code}"
        assert text.startswith(f"usage: shelfwise {name}"), f"shelfwise {name} --help printed: {text[:200]!r}"
        assert "options:" in text, f"shelfwise {name} --help lists no options"
