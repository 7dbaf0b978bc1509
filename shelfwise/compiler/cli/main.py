"""The `shelfwise` command. Commands are thin: parse, load settings, call one function.

Exit codes: 0 success; 1 an expected error (its message on one line);
2 bad usage; 3 the build finished but some documents failed and --strict was given.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path

from shelfwise.compiler import __version__
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.settings import Settings, load_settings

__all__ = ["main", "build_parser", "cmd_build", "configure_logging"]

EXIT_STRICT_FAILURES = 3


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None, help="settings TOML (default: $SHELFWISE_CONFIG or ./shelfwise.toml)")
    parser.add_argument("--build-dir", type=Path, default=None, help="where compiled shelves live (default: build/)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log shelfwise's debug lines to stderr too (a reader's "
                        "unexpected exception with its traceback, as it happens); default: warnings only")


class _Stderr(logging.StreamHandler):
    """A handler writing to whatever ``sys.stderr`` is when a line is logged (not the stream of when it was made)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:  # StreamHandler.__init__ assigns it; the property above always wins
        del value


class _Lines(logging.Formatter):
    """``warning: shelfwise.store: <message>``, as the CLI writes its other lines (``error: ...``); a traceback follows."""

    def format(self, record: logging.LogRecord) -> str:
        return f"{record.levelname.lower()}: {record.name}: {super().format(record)}"


def configure_logging(verbose: bool = False) -> None:
    """Configure the process's logging, once, here at the CLI entry (a library module never does): the ``shelfwise``
    loggers write to stderr at WARNING, or DEBUG with ``-v``. Called again it only sets the level. Other libraries'
    loggers keep their own configuration (uvicorn's; the MCP SDK's handlers, which
    ``shelfwise.api.server.mcp_server.build_mcp_server`` takes off the root logger)."""
    logger = logging.getLogger("shelfwise")
    if not any(isinstance(h, _Stderr) for h in logger.handlers):
        handler = _Stderr()
        handler.setFormatter(_Lines())
        logger.addHandler(handler)
        logger.propagate = False  # one line per record, whatever handlers the root logger has been given
    logger.setLevel(logging.DEBUG if verbose else logging.WARNING)


def _settings(args: argparse.Namespace, **extra) -> Settings:
    overrides = {"build_dir": str(args.build_dir) if args.build_dir else None, **extra}
    return load_settings(args.config, overrides)


def _bind(func: Callable[[argparse.Namespace, Settings], int]) -> Callable[[argparse.Namespace], int]:
    """A command group's ``func(args, settings)`` as the parser's handler: settings loaded from the parsed options."""
    return lambda args: func(args, _settings(args))


def cmd_build(args: argparse.Namespace) -> int:
    settings = _settings(args, **{"pdf.use_outline": False if args.no_outline else None,
                                  "site.incremental": False if args.full_site else None})
    shelf = Path(args.shelf)
    if not shelf.is_dir():
        raise ShelfwiseError(f"{shelf} is not a folder; give the path of a shelf (a folder of documents)")
    from shelfwise.compiler.build import build_shelf
    from shelfwise.compiler.build import default_stages
    progress = (lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    if args.estimate or settings.models.vision or settings.models.extractor:
        from shelfwise.compiler.estimate import confirm_spend

        if confirm_spend(shelf, settings, estimate_only=args.estimate, yes=args.yes, exclude=args.exclude):
            return 0
    from shelfwise.compiler.executors import make_executor

    executor = make_executor(args.executor, args.address)
    try:
        stages = default_stages(settings, site=args.site, shelf_dir=shelf, executor=executor)
        report = build_shelf(shelf, settings, progress=progress, stages=stages, exclude=args.exclude, executor=executor)
    finally:
        if executor is not None:
            executor.shutdown()
    print(report.to_json() if args.json else report.render())
    if report.failed and args.strict:
        print(f"error: {len(report.failed)} document(s) failed (--strict)", file=sys.stderr)
        return EXIT_STRICT_FAILURES
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="shelfwise", description="Compile shelves of documents into a structured store, a knowledge site and checked answers.")
    parser.add_argument("--version", action="version", version=f"shelfwise {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    build = commands.add_parser("build", help="compile a shelf (a folder of documents) into build/<shelf>/", description="Compile a shelf: convert changed documents, rebuild the section tree, indexes and ledger, and print the compile report.")
    build.add_argument("shelf", help="the shelf folder (with or without a shelf.toml)")
    _common(build)
    build.add_argument("--strict", action="store_true", help=f"exit {EXIT_STRICT_FAILURES} when any document failed")
    build.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="leave out files matching GLOB (repeatable), on top of shelf.toml's exclude")
    build.add_argument("--no-outline", action="store_true", help="take PDF headings from the text layer only, ignoring bookmarks")
    build.add_argument("--site", action="store_true", help="also render the pages and build the static site into build/<shelf>/site (a failed site build exits 1 and keeps the last good site)")
    build.add_argument("--full-site", action="store_true", help="with --site: a full clean mkdocs build even when only some pages changed (site.incremental = false)")
    build.add_argument("--json", action="store_true", help="print the report as JSON")
    build.add_argument("--quiet", action="store_true", help="no progress lines")
    build.add_argument("--executor", choices=["serial", "ray"], default="serial", help="where conversion and embedding run: here, or on a Ray cluster (pip install 'shelfwise[ray]')")
    build.add_argument("--address", default=None, help="the Ray cluster to use (e.g. ray://head:10001 or auto); default: a local cluster of this machine's CPUs")
    build.add_argument("--estimate", action="store_true", help="print the model calls, tokens and price a compile would spend, then stop (no model is called)")
    build.add_argument("--yes", action="store_true", help="compile with models even when the estimated price is over cost.confirm_above_usd")
    build.set_defaults(func=cmd_build)

    from shelfwise.compiler.cli import compare, inspection, search

    inspection.add_commands(commands, _common, _bind)
    search.add_commands(commands, _common, _bind)
    compare.add_commands(commands, _common, _bind)
    for group in _command_groups():
        group(commands, _common, _bind)
    return parser


COMMAND_GROUP = "shelfwise.commands"
"""Entry-point group of the layers above compiler/ (api: ask, trace, serve; eval: eval …), so compiler/ never imports them."""


def _command_groups() -> list[Callable]:
    """The registered command groups in name order; a project installed without them is a broken install, said plainly."""
    found = sorted(entry_points(group=COMMAND_GROUP), key=lambda entry: entry.name)
    if not found:
        raise ShelfwiseError(f"no '{COMMAND_GROUP}' entry points: shelfwise is not installed; run 'make install' "
                             "(pip install -e .) so ask, serve and eval register")
    return [entry.load() for entry in found]


def main(argv: list[str] | None = None) -> int:
    from shelfwise.compiler.offline import offline

    offline()  # the torchvision check (which imports torch) waits for the command that loads a model
    parser = build_parser()
    args = parser.parse_args(argv)
    configure_logging(getattr(args, "verbose", False))
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return func(args)
    except ShelfwiseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: finished documents and PDF windows are kept; run the same command to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
