"""The documentation: a README of one screen, and the docs site (docs/, mkdocs.yml) built with ``mkdocs build
--strict`` as ``make docs`` builds it. Every setting and every command is on it, every make target is documented,
every page is in the nav, every link of the README lands on a page, the settings examples validate, and every
example of a command's output on the demo shelf is what the command prints today."""

from __future__ import annotations

import argparse
import contextlib
import html
import importlib
import io
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from shelfwise.compiler.settings import Settings, ShelfConfig

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
README_MAX_LINES = 150
FENCE = re.compile(r"^```[\w-]*\n(.*?)^```$", re.MULTILINE | re.DOTALL)
NOT_DOCUMENTED_TARGETS = {"help"}  # the Makefile's own list of targets


def _hooks():
    """The generators the docs site runs (docs/hooks/), imported the way mkdocs imports its hook."""
    sys.path.insert(0, str(DOCS / "hooks"))
    try:
        return importlib.import_module("settings_reference"), importlib.import_module("command_reference")
    finally:
        sys.path.remove(str(DOCS / "hooks"))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The docs site, built strictly (any warning fails) from this checkout, offline."""
    out = tmp_path_factory.mktemp("docs-site")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _page(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


def _all_docs_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(DOCS.glob("*.md"))) + README.read_text(encoding="utf-8")


def test_the_readme_is_one_screen():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; keep it under {README_MAX_LINES} and move the rest to docs/"


def test_every_page_is_in_the_nav_and_every_readme_link_lands_on_a_page():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    in_nav = {next(iter(entry.values())) for entry in config["nav"]}
    pages = {path.name for path in DOCS.glob("*.md")}
    assert pages == in_nav, (sorted(pages - in_nav), sorted(in_nav - pages))
    links = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    assert links
    assert [link for link in links if not (ROOT / link).is_file()] == []
    assert {f"docs/{page}" for page in pages} <= set(links), "the README links every docs page"


def test_the_site_builds_strictly_and_loads_nothing_from_another_host(site):
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<(?:link|script)[^>]+(?:href|src)="(?:https?:)?//', text), page


def test_every_setting_is_on_the_settings_page_with_its_description(site):
    settings_reference, _ = _hooks()
    page = _page(site, "settings")
    fields = settings_reference.settings_fields()
    assert {"api.tokens.token_env", "embeddings.backend", 'cost.prices."KEY".input_usd_per_million'} <= {key for key, _ in fields}
    assert len(fields) == len(settings_reference.settings_keys()) > 60
    for key, field in fields:
        row = page.split(f"<td><code>{html.escape(key, quote=False)}</code></td>", 1)
        assert len(row) == 2, f"{key} is not on the settings page"
        assert html.escape(" ".join(field.description.split())[:50], quote=False) in row[1].split("</tr>", 1)[0], key
    shelf_keys = [key for key, _ in settings_reference.settings_fields(ShelfConfig)]
    assert {"name", "examples", "documents.id", "options.pdf_window_pages"} <= set(shelf_keys)
    assert [key for key in shelf_keys if f"<td><code>{key}</code></td>" not in page] == []


def test_the_settings_examples_validate():
    toml_fences = re.findall(r"^```toml\n(.*?)^```$", (DOCS / "settings.md").read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    assert len(toml_fences) == 1
    Settings.model_validate(tomllib.loads(toml_fences[0]))
    shelf_fences = re.findall(r"^```toml\n(.*?)^```$", (DOCS / "compiling.md").read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    assert len(shelf_fences) == 1
    ShelfConfig.model_validate(tomllib.loads(shelf_fences[0]))


def test_every_command_and_option_is_documented(site):
    _, command_reference = _hooks()
    commands = command_reference.commands()
    names = [name for name, _, _ in commands]
    assert {"shelfwise build", "shelfwise ask", "shelfwise serve", "shelfwise eval reference"} <= set(names)
    page = _page(site, "commands")
    assert [name for name in names if f"<code>{name}</code>" not in page] == []
    for name, _, parser in commands:  # each option in its own command's section
        section = page.split(f"<code>{name}</code><a class=\"headerlink\"", 1)[1].split("<h3", 1)[0]
        for action in parser._actions:
            if not isinstance(action, argparse._HelpAction):
                for option in action.option_strings:
                    assert f"<code>{option}" in section or f" {option}</code>" in section, (name, option)
    readme = README.read_text(encoding="utf-8")
    topics = "\n".join(path.read_text(encoding="utf-8") for path in DOCS.glob("*.md") if path.name != "commands.md")
    for name in names:  # the README's command map names each command; a topic page explains it
        last = name.split()[-1]
        assert re.search(rf"\b{re.escape(last)}\b", readme.split("## Commands", 1)[1].split("## Layout", 1)[0]), name
        assert name in topics or f"shelfwise {last}" in topics or f"`{last}`" in topics, name


def test_every_make_target_is_documented():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.search(r"^\.PHONY: (.*)$", makefile, re.MULTILINE).group(1).split()) | set(re.findall(r"^([\w-]+):", makefile, re.MULTILINE))
    text = _all_docs_text()
    missing = sorted(target for target in targets - NOT_DOCUMENTED_TARGETS if f"make {target}" not in text)
    assert missing == []


def _examples() -> list[tuple[str, str, str]]:
    """(file, command, output) for each fence whose first line runs a read-only command on the demo shelf."""
    found = []
    for path in [README, *sorted(DOCS.glob("*.md"))]:
        for fence in FENCE.findall(path.read_text(encoding="utf-8")):
            first, _, output = fence.partition("\n")
            if not first.startswith("$ shelfwise "):
                continue
            argv = shlex.split(first[2:])
            if argv[1] in {"ask", "compare", "search", "links", "ledger", "documents", "sections"} and argv[2] == "northwind" \
                    and "--config" not in argv:
                found.append((path.name, first[2:], output))
    return found


def _normal(text: str) -> str:
    """Output with what differs between checkouts and runs made alike: the trace id and the build folder's path."""
    text = re.sub(r"trace: a[0-9a-f]{20}", "trace: …", text)
    text = re.sub(r"file://\S*?/northwind/site/", "file://…/northwind/site/", text)
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


@pytest.fixture(scope="module")
def demo_config(tmp_path_factory) -> Path:
    """The demo shelf compiled with its site as `make demo` compiles it (`shelfwise build shelves/northwind --site`)."""
    from shelfwise.compiler.cli.main import main

    folder = tmp_path_factory.mktemp("demo-docs")
    config = folder / "shelfwise.toml"
    config.write_text(f'build_dir = "{folder / "build"}"\n[api]\ntrace_db = "{folder / "traces.sqlite"}"\n', encoding="utf-8")
    assert main(["build", str(ROOT / "shelves" / "northwind"), "--site", "--quiet", "--config", str(config)]) == 0
    return config


def test_every_example_on_the_demo_shelf_is_real_output(demo_config):
    from shelfwise.compiler.cli.main import main

    examples = _examples()
    assert {name for name, _, _ in examples} >= {"README.md", "getting-started.md", "comparing.md"}
    for name, command, documented in examples:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):  # as a terminal shows them
            assert main([*shlex.split(command)[1:], "--config", str(demo_config)]) == 0, command
        assert _normal(printed.getvalue()) == _normal(documented), (
            f"{name}: the example of `{command}` is not what it prints today; paste the real output:\n{printed.getvalue()}")
