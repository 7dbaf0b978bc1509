"""Tenants: bearer tokens that grant shelves, and a per-token rate limit.

A request names its token in ``Authorization: Bearer TOKEN``. Each token
(settings ``api.tokens``) grants a set of shelves; no request reads a shelf
its token does not grant. Tokens are compared in constant time.

The limits count a client by the address of the socket it connected from. ``X-Forwarded-For`` is read only when
that socket is one of ``api.trusted_proxies``: then the client is the nearest address in the header that is not a
trusted proxy (a client cannot choose it by sending a header of its own, which the proxy appends to). The
servers we start (``shelfwise serve``, ``shelfwise mcp --http``) run uvicorn with ``UVICORN_OPTIONS``, so uvicorn
does not rewrite the socket's address from the header before the app sees it.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import threading
import time
from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from shelfwise.api.errors import Forbidden, RateLimited, Unauthorized
from shelfwise.compiler.errors import SettingsError
from shelfwise.compiler.settings import ApiSettings

__all__ = ["Principal", "Grants", "SlidingWindow", "RateLimiter", "FailedAuthLimiter", "resolve_principal", "client_address",
           "UVICORN_OPTIONS"]

UVICORN_OPTIONS = {"proxy_headers": False}
"""uvicorn options of the servers we start: uvicorn's own X-Forwarded-For handling (on by default, trusting 127.0.0.1)
is off, so the app sees the socket's address and applies ``api.trusted_proxies`` itself (``client_address``)."""


@lru_cache(maxsize=32)
def _networks(trusted: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in trusted)


def _trusted(address: str, networks) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:  # ::ffff:10.0.0.1 on a dual-stack socket is 10.0.0.1
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in networks)


def client_address(scope, trusted: list[str] | tuple[str, ...]) -> str:
    """The address the limits count for an ASGI request ``scope``: its socket's address, unless that is a trusted
    proxy (``api.trusted_proxies``), when it is the nearest X-Forwarded-For hop that is not a trusted proxy."""
    peer = (scope.get("client") or ("unknown",))[0] or "unknown"
    networks = _networks(tuple(trusted))
    if not networks or not _trusted(peer, networks):
        return peer
    hops = [hop.strip() for name, value in scope.get("headers", []) if name.lower() == b"x-forwarded-for"
            for hop in value.decode("latin-1").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, networks):
            return hop
    return hops[0] if hops else peer


@dataclass(frozen=True)
class Principal:
    """Who is asking: the token's name and the shelves it grants."""

    name: str
    shelves: frozenset[str]

    def require(self, shelves: list[str]) -> None:
        """Raise Forbidden naming the first shelf this token does not grant."""
        for shelf in sorted(shelves):
            if shelf not in self.shelves:
                raise Forbidden(
                    f"the token '{self.name}' does not grant shelf '{shelf}'; use a token that grants it "
                    "(api.tokens in the settings)"
                )


class Grants:
    """The configured tokens, resolved once (a token_env is read from the environment at start)."""

    def __init__(self, settings: ApiSettings, served: list[str]):
        self._tokens: list[tuple[bytes, Principal]] = []
        problems = []
        for number, entry in enumerate(settings.tokens):
            secret = entry.token or (os.environ.get(entry.token_env) if entry.token_env else None)
            if not secret:
                where = f"environment variable {entry.token_env} is empty" if entry.token_env else "no token or token_env"
                problems.append(f"api.tokens.{number} ({entry.name}): {where}; set it")
                continue
            self._tokens.append((secret.encode("utf-8"), Principal(entry.name, frozenset(entry.shelves))))
        if problems:
            raise SettingsError("api.tokens", problems)
        self.anonymous = Principal("anonymous", frozenset(served)) if settings.allow_anonymous else None

    def principal(self, authorization: str | None) -> Principal | None:
        """The token's principal; None when no token was given; Unauthorized for a bad or unknown one."""
        if not authorization:
            return None
        scheme, _, value = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise Unauthorized("the Authorization header must read 'Bearer TOKEN'")
        given = value.strip().encode("utf-8")
        found = None
        for secret, principal in self._tokens:
            if hmac.compare_digest(secret, given):
                found = principal
        if found is None:
            raise Unauthorized("unknown API token; use a token listed in api.tokens of the server's settings")
        return found

    def required(self, authorization: str | None) -> Principal:
        """The principal of a request that reads shelf data: a token is needed unless anonymous use is allowed."""
        principal = self.principal(authorization)
        if principal is not None:
            return principal
        if self.anonymous is not None:
            return self.anonymous
        raise Unauthorized("missing API token; send the header 'Authorization: Bearer TOKEN'")


class SlidingWindow:
    """Events per key in the last 60 seconds: ``wait`` says how long a key at ``limit`` must wait, ``add`` counts one."""

    def __init__(self, limit: int):
        self.limit = limit
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _window(self, key: str, now: float) -> deque[float]:
        window = self._events.get(key, deque())
        while window and now - window[0] >= 60:
            window.popleft()
        if window:
            self._events[key] = window
        else:
            self._events.pop(key, None)  # an address seen once is not kept forever
        return window

    def wait(self, key: str, *, add: bool = False) -> int | None:
        """Seconds until ``key`` has room again when it is at the limit (nothing is added then), else None; with
        ``add``, an event is counted when there is room."""
        now = time.monotonic()
        with self._lock:
            window = self._window(key, now)
            if len(window) >= self.limit:
                return max(1, int(60 - (now - window[0])) + 1)
            if add:
                window.append(now)
                self._events[key] = window
            return None

    def add(self, key: str) -> None:
        now = time.monotonic()
        with self._lock:
            window = self._window(key, now)
            window.append(now)
            self._events[key] = window


class RateLimiter:
    """At most ``per_minute`` requests per token in any sliding 60-second window."""

    def __init__(self, per_minute: int):
        self.per_minute = per_minute
        self._window = SlidingWindow(per_minute)

    def hit(self, name: str) -> None:
        wait = self._window.wait(name, add=True)
        if wait is not None:
            raise RateLimited(
                f"token '{name}' made more than {self.per_minute} requests in a minute (api.rate_limit_per_minute); "
                f"retry in {wait} s",
                headers={"Retry-After": str(wait)},
            )


class FailedAuthLimiter:
    """At most ``per_minute`` failed token checks per client address in any sliding 60-second window.

    Past it, every request from that address that presents a token gets 429 until the window has room again,
    so tokens cannot be guessed at speed.
    """

    def __init__(self, per_minute: int):
        self.per_minute = per_minute
        self._window = SlidingWindow(per_minute)

    def check(self, address: str) -> None:
        """RateLimited when ``address`` has used up its failed checks for now."""
        wait = self._window.wait(address)
        if wait is not None:
            raise RateLimited(
                f"too many failed token checks from this address ({self.per_minute} a minute, api.failed_auth_per_minute); "
                f"retry in {wait} s",
                headers={"Retry-After": str(wait)},
            )

    def failed(self, address: str) -> None:
        self._window.add(address)


def resolve_principal(state, address: str, authorization: str | None, *, required: bool) -> Principal | None:
    """The request's principal from its Authorization value, counting a failed check against ``address``."""
    if authorization:
        state.failed_auth.check(address)
    try:
        return state.grants.required(authorization) if required else state.grants.principal(authorization)
    except Unauthorized:
        if authorization:
            state.failed_auth.failed(address)
        raise
