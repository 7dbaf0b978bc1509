"""``shelfwise serve``: the API (and the compiled static sites) under uvicorn.

Shelves are found under the build dir (``build/<shelf>/store.sqlite``); each
shelf's site (``build/<shelf>/site``) is served under /sites/<shelf>/ when
``api.serve_sites`` is on and the site was built.

Who may read (``serve_access``): with no ``api.tokens`` configured, a server on a loopback address
(127.0.0.1, the default) serves every shelf and site to anyone on this machine without a token, and says so at
start; bound beyond loopback it needs tokens. With tokens configured they are required (``api.allow_anonymous``
aside). The port is bound (``bind_port``) before anything is printed, so a busy port is one line and no URLs.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
from pathlib import Path

from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.settings import Settings

__all__ = ["shelf_build_dirs", "make_app", "serve", "serve_access", "bind_port", "is_loopback"]


def shelf_build_dirs(shelves: list[str], settings: Settings) -> dict[str, Path]:
    """Shelf name -> build folder for the given names (or every compiled shelf under the build dir when none is given).

    A name may also be a shelf folder or a build folder holding store.sqlite.
    """
    from shelfwise.compiler.store.locate import compiled_shelf

    found: dict[str, Path] = {}
    if not shelves:
        root = Path(settings.build_dir)
        for store in sorted(root.glob("*/store.sqlite")):
            found[store.parent.name] = store.parent
        if not found:
            raise ShelfwiseError(f"no compiled shelves under {root}; run 'shelfwise build SHELF' first")
        return found
    for shelf in shelves:
        build = compiled_shelf(shelf, settings)
        found[build.resolve().name] = build
    return found


def make_app(shelves: list[str], settings: Settings, *, embedder=None, http_client=None):
    """The app over ``shelves`` with the configured embedder and role models."""
    from shelfwise.api.answer import chat_models
    from shelfwise.api.server.app import create_app
    from shelfwise.compiler.index.embedders import embedder_from_settings

    build_dirs = shelf_build_dirs(shelves, settings)
    sites = {}
    if settings.api.serve_sites:
        sites = {name: folder / "site" for name, folder in build_dirs.items() if (folder / "site" / "index.html").exists()}
    return create_app(
        settings,
        chat=chat_models(settings, http_client=http_client),
        embedder=embedder if embedder is not None else embedder_from_settings(settings),
        stores=build_dirs,
        sites=sites,
    )


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve_access(settings: Settings, host: str) -> tuple[Settings, str | None]:
    """The settings ``shelfwise serve`` runs under and a line saying who may read without a token (None: only tokens).

    No ``api.tokens`` on a loopback host: anonymous reading of every served shelf, said at start. No tokens beyond
    loopback (and ``api.allow_anonymous`` not set): a ShelfwiseError saying what to configure."""
    from shelfwise.api.server.security import Grants

    api = settings.api
    Grants(api, [])  # a token whose environment variable is empty is named now, before any URL is printed
    if api.tokens and not api.allow_anonymous:
        return settings, None
    if not api.tokens and not api.allow_anonymous and not is_loopback(host):
        raise ShelfwiseError(
            f"serving on {host} reaches beyond this machine, so it needs API tokens: add an [[api.tokens]] entry "
            "(name, token_env, shelves) to the settings file (--config, $SHELFWISE_CONFIG or ./shelfwise.toml), "
            "or serve on 127.0.0.1")
    where = "anyone on this machine" if is_loopback(host) else f"anyone who can reach {host}"
    why = "api.allow_anonymous is on" if api.allow_anonymous else "no API tokens are configured (api.tokens)"
    line = (f"access: {why}, so {where} may read every served shelf and site without a token; "
            "add [[api.tokens]] to the settings to require one")
    if api.allow_anonymous:
        return settings, line
    return settings.model_copy(update={"api": api.model_copy(update={"allow_anonymous": True})}), line


def bind_port(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; a ShelfwiseError of one line when the port is taken or the host unknown."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise ShelfwiseError(f"cannot serve on {host}: {exc.strerror}; give --host an address of this machine (default 127.0.0.1)") from exc
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart while old connections wait in TIME_WAIT
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ShelfwiseError(f"port {port} on {host} is already in use (another 'shelfwise serve'?); stop that "
                                 f"server or choose another port, e.g. --port {port + 1}") from exc
        raise ShelfwiseError(f"cannot serve on {host}:{port}: {exc.strerror}; choose another --host or --port") from exc
    return sock


def serve(shelves: list[str], host: str, port: int, settings: Settings, *, sock: socket.socket | None = None) -> None:
    """Run the API with uvicorn until interrupted, on ``sock`` when given (``bind_port``), else on ``host:port``."""
    import uvicorn

    from shelfwise.api.server.security import UVICORN_OPTIONS

    app = make_app(shelves, settings)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_keep_alive=5, **UVICORN_OPTIONS)
    uvicorn.Server(config).run(sockets=[sock] if sock is not None else None)
