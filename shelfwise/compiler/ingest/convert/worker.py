"""Conversion in a separate, long-lived process with a memory and a time limit.

The build hands each document to one worker process (a fresh interpreter,
``python -m shelfwise.compiler.ingest.convert.worker``, so it shares nothing with the build's
threads and memory and never re-runs the caller's main module) and reuses it
for the next, so docling is imported once per build, not per
document. The worker caps its own address space (``RLIMIT_AS``,
``compile.convert_memory_mb``); the build waits at most
``compile.convert_timeout_s`` for a document, then kills the worker. Either
way the document is reported by name with the limit it went past, a fresh
worker is started for the next document, and the rest of the shelf compiles.
Progress lines of a reader (PDF windows) come back through the same pipe.
"""

from __future__ import annotations

import ctypes
import os
import resource
import socket
import subprocess
import sys
import time
import traceback
from multiprocessing.connection import Connection
from pathlib import Path

from shelfwise.compiler.errors import ConversionError
from shelfwise.compiler.store.records import Converted

__all__ = ["ConvertWorker", "peak_mb", "reached_limit"]


def peak_mb() -> float:
    """This process's peak resident memory in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _limit_arenas() -> None:
    """glibc reserves 64 MB of address space per thread arena: two arenas keep RLIMIT_AS about real use."""
    try:
        ctypes.CDLL("libc.so.6").mallopt(-8, 2)  # M_ARENA_MAX
    except (OSError, AttributeError):
        pass  # not glibc: nothing to tune


def _vm_peak_mb() -> float:
    """This process's peak address space (what RLIMIT_AS limits) in MB."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmPeak:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def reached_limit(peak_before_mb: float, peak_after_mb: float, memory_mb: int | None) -> bool:
    """Whether converting one document took the worker's address space to its limit: its peak rose during that document
    (``VmPeak`` is the process's peak since it started: a reused worker that came near its limit on an earlier document
    must not blame every later failure on memory, drop its traceback and stop) and ended within a tenth of the limit."""
    return bool(memory_mb) and peak_after_mb > peak_before_mb and peak_after_mb >= 0.9 * memory_mb


def _reason(exc: BaseException, memory_mb: int | None) -> str:
    """The failure in words; running out of the memory limit anywhere in the chain of causes is named as such
    (readers such as docling wrap a MemoryError in their own 'could not load')."""
    seen, cause = set(), exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, MemoryError):
            return f"needs more than {memory_mb or 0:,} MB of memory to convert (compile.convert_memory_mb); it is not converted"
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    if isinstance(exc, ConversionError):
        return str(exc)
    return f"reader error {type(exc).__name__}: {exc}"


def _serve(conn, memory_mb: int | None) -> None:
    _limit_arenas()
    if memory_mb:
        limit = int(memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from shelfwise.compiler.ingest.convert import ReadOptions, convert_file

    while True:
        try:
            path, fields = conn.recv()
        except (EOFError, OSError):
            return  # the build ended (or was killed): so does the worker
        options = ReadOptions(**fields, progress=lambda line: conn.send(("progress", line)))
        before = _vm_peak_mb()
        try:
            converted = convert_file(Path(path), options)
        except Exception as exc:  # noqa: BLE001 - a reader library failed on this file: the build reports it
            reason = _reason(exc, memory_mb)
            if reached_limit(before, _vm_peak_mb(), memory_mb) and "convert_memory_mb" not in reason:
                reason += f"; the reader reached its {memory_mb:,} MB memory limit (compile.convert_memory_mb)"
            bug = "" if isinstance(exc, ConversionError) or "convert_memory_mb" in reason else traceback.format_exc()
            conn.send(("failed", reason, peak_mb(), bug))
            if "convert_memory_mb" in reason:
                return  # its address space is spent: the next document gets a fresh worker
        else:
            conn.send(("done", converted, peak_mb()))


class ConvertWorker:
    """One reusable conversion process; ``convert`` raises ConversionError naming a limit a document went past."""

    def __init__(self, memory_mb: int | None, timeout_s: float):
        self.memory_mb = memory_mb
        self.timeout_s = timeout_s
        self.last_peak_mb = 0.0
        self._process = None
        self._conn = None

    def _start(self) -> None:
        mine, theirs = socket.socketpair()
        package_root = str(Path(__file__).resolve().parents[4])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
        self._process = subprocess.Popen(
            [sys.executable, "-m", "shelfwise.compiler.ingest.convert.worker", str(theirs.fileno()), str(self.memory_mb or 0)],
            pass_fds=[theirs.fileno()], env=env, stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self._conn = Connection(mine.detach())

    def _alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def _stop(self) -> int | None:
        process, self._process = self._process, None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if process is None:
            return None
        if process.poll() is None:
            process.kill()
        try:
            return process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        self._stop()

    def convert(self, path: Path, options) -> Converted:
        if not self._alive():
            self._stop()
            self._start()
        progress = options.progress
        self._conn.send((str(path), options.model_dump(exclude={"progress"})))
        deadline = time.monotonic() + self.timeout_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._stop()
                raise ConversionError(f"took longer than {self.timeout_s:g} s to convert (compile.convert_timeout_s); it is not converted")
            try:
                if not self._conn.poll(min(left, 1.0)):
                    continue
                message = self._conn.recv()
            except (EOFError, OSError):
                code = self._stop()
                how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exited with {code}"
                raise ConversionError(
                    f"the reader process {how} while converting it (out of memory? the limit is "
                    f"{self.memory_mb or 0:,} MB, compile.convert_memory_mb); it is not converted"
                ) from None
            if message[0] == "progress":
                if progress is not None:
                    progress(message[1])
                continue
            self.last_peak_mb = max(self.last_peak_mb, message[2])
            if message[0] == "failed":
                if "convert_memory_mb" in message[1]:
                    self._stop()  # the worker ends after reaching its limit; the next document starts a fresh one
                raise ConversionError(message[1], traceback=message[3])
            return message[1]


if __name__ == "__main__":
    _serve(Connection(int(sys.argv[1])), int(sys.argv[2]) or None)
