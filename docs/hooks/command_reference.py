"""The command reference, read from the ``shelfwise`` argparse parser (shelfwise.compiler.cli.main.build_parser, with
the commands api/ and eval/ register): each command's usage, what it does and every option, so it cannot drift."""

from __future__ import annotations

import argparse
import html

__all__ = ["commands", "command_reference"]


def _subcommands(parser: argparse.ArgumentParser, prefix: str) -> list[tuple[str, str, argparse.ArgumentParser]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                found.append((f"{prefix} {name}", helps.get(name, ""), sub))
                found += _subcommands(sub, f"{prefix} {name}")
    return found


def commands() -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(command, help, parser) for every command and subcommand, in the parser's order."""
    from shelfwise.compiler.cli.main import build_parser

    return _subcommands(build_parser(), "shelfwise")


def _cell(text: str) -> str:
    """Text for one table cell: on one line, its pipes escaped, and 'build/<shelf>/' shown, not taken for an HTML tag."""
    return html.escape(" ".join((text or "").split()), quote=False).replace("|", "\\|")


def _option_rows(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        name = ", ".join(action.option_strings) or action.dest.upper()
        default = "" if action.default in (None, False, [], argparse.SUPPRESS) or not action.option_strings else f" (default: `{action.default}`)"
        choices = f" (one of: {', '.join(map(str, action.choices))})" if action.choices else ""
        rows.append(f"| `{name}` | {_cell(action.help)}{choices}{default} |")
    return rows


def command_reference() -> str:
    lines = []
    for name, help_text, parser in commands():
        usage = " ".join(parser.format_usage().replace("usage: ", "", 1).split())
        lines += [f"### `{name}`", "", _cell(parser.description or help_text), "", "```", usage, "```", ""]
        rows = _option_rows(parser)
        if rows:
            lines += ["| argument | meaning |", "|---|---|", *rows, ""]
    return "\n".join(lines)
