"""The built wheel is the whole product: built from this checkout's sources, it holds every module of every subpackage,
the page templates (shelfwise/templates/) and the site's configuration, theme overrides and ask widget
(shelfwise/site/); installed into a clean virtual environment, its own ``shelfwise`` command compiles a small shelf
with its site and serves the site and the answering endpoint.

The clean environment reuses the dependencies already installed beside the running interpreter, but not shelfwise:
its site-packages gets a .pth naming a folder of links to every entry of the running environment's site-packages
except shelfwise's own (the editable install's finder and .pth, and its dist-info). A plain path in a .pth is added to
sys.path without running the .pth files in it, so nothing but the wheel can provide ``shelfwise``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "shelfwise"
TOKEN = "wheel-token"

POLICY = """# Visitor Policy

## 1 Badges

Visitors wear a red badge at all times while on site. Badges are returned at reception on leaving.
"""


def _run(argv: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(part) for part in argv], capture_output=True, text=True, timeout=300, **kwargs)
    assert done.returncode == 0, f"{argv}\n{done.stdout}\n{done.stderr}"
    return done


def _package_files() -> set[str]:
    """The files the wheel must hold: every module, template, theme and widget file and shipped weights under shelfwise/."""
    return {path.relative_to(ROOT).as_posix() for path in PACKAGE.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"}


def _build_wheel(tmp: Path) -> Path:
    """pip wheel from a copy of the sources (an in-tree build would leave build/lib in the checkout), offline."""
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(PACKAGE, source / "shelfwise", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", out, source])
    wheels = sorted(out.glob("shelfwise-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def _clean_venv(tmp: Path) -> Path:
    """A virtual environment without shelfwise that sees the running environment's other packages; its python."""
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    site_packages = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    deps = tmp / "deps"
    deps.mkdir()
    ours = Path(sysconfig.get_paths()["purelib"])
    for entry in sorted(ours.iterdir()):
        if entry.name.startswith(("__editable__", "shelfwise")) or entry.suffix == ".pth":
            continue
        (deps / entry.name).symlink_to(entry)
    (site_packages / "running-environment-deps.pth").write_text(f"{deps}\n", encoding="utf-8")
    return python


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str, data: dict | None = None) -> tuple[int, bytes]:
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, response.read()


def _wait(url: str, server: subprocess.Popen, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert server.poll() is None, server.stderr.read() if server.stderr else "the server exited"
        try:
            _get(url)
            return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.3)
    pytest.fail(f"{url} did not answer within {seconds} s")


def test_the_wheel_holds_the_templates_and_site_and_its_command_compiles_and_serves_a_shelf(tmp_path):
    wheel = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    expected = _package_files()
    assert {"shelfwise/templates/document.md.j2", "shelfwise/site/mkdocs_base.yml", "shelfwise/site/overrides/main.html",
            "shelfwise/site/widget/shelfwise-ask.js", "shelfwise/compiler/publish/site.py"} <= expected
    assert sorted(expected - names) == []
    entry_points = next(name for name in names if name.endswith(".dist-info/entry_points.txt"))
    with zipfile.ZipFile(wheel) as archive:
        assert "shelfwise.commands" in archive.read(entry_points).decode()

    python = _clean_venv(tmp_path)
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel])
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"} | {"WHEEL_TOKEN": TOKEN}
    where = _run([python, "-c", "import shelfwise, shelfwise.compiler.publish.site as s; print(shelfwise.__file__); print(s.SITE_DIR)"],
                 cwd=tmp_path, env=env).stdout.split()
    installed = Path(where[0]).resolve()
    assert installed.is_relative_to((tmp_path / "venv").resolve()), installed
    assert (Path(where[1]) / "widget" / "shelfwise-ask.js").is_file()

    shelf = tmp_path / "visitors"
    shelf.mkdir()
    (shelf / "policy.md").write_text(POLICY, encoding="utf-8")
    config = tmp_path / "shelfwise.toml"
    config.write_text(f'build_dir = "{tmp_path / "build"}"\n[api]\ntrace_db = "{tmp_path / "traces.sqlite"}"\n'
                      '[[api.tokens]]\nname = "wheel"\ntoken_env = "WHEEL_TOKEN"\nshelves = ["visitors"]\n', encoding="utf-8")
    command = python.parent / "shelfwise"
    _run([command, "build", shelf, "--site", "--strict", "--quiet", "--config", config], cwd=tmp_path, env=env)
    site = tmp_path / "build" / "visitors" / "site"
    assert (site / "assets" / "shelfwise" / "shelfwise-ask.js").is_file() and (site / "index.html").is_file()

    port = _free_port()
    server = subprocess.Popen([str(command), "serve", "visitors", "--config", str(config), "--port", str(port)], cwd=tmp_path,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait(base + "/api/health", server)
        status, page = _get(base + "/sites/visitors/")
        assert status == 200 and b"shelfwise-ask.js" in page
        status, body = _get(base + "/api/ask", {"question": "What badge do visitors wear on site?", "shelf": "visitors"})
        answer = json.loads(body)
        assert status in (200, 201) and "red badge" in answer["answer_markdown"], answer
    finally:
        os.kill(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
