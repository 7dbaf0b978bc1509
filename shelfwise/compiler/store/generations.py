"""Build generations: a compile writes ``build/<shelf>/generations/<n>/`` beside the last one and flips ``current`` last.

Layout of a shelf's build folder (its *root*)::

    build/<shelf>/
        current            -> generations/<n>   (a relative symlink, replaced atomically by os.replace)
        generations/<n>/   store.sqlite, lexical/, docs/, site/, report.json, originals/ (by content hash), ...
        store.sqlite       -> current/store.sqlite   (stable paths for tools that open the root)
        lexical, site, report.json -> current/...
        checkpoints/       finished PDF windows, shared by every generation (keyed by document and content hash);
                           unfinished/: the store of a build that was stopped, whose caches the next build takes

A new generation starts as a copy of the current one (the store through
SQLite's backup API, the rest file by file), so an incremental build only
redoes what changed; the pointer is flipped only after every stage
succeeded, so a killed or failed build is never seen and the next build
starts again from the last complete generation. Readers hold a shared
``flock`` on ``<generation>/.readers`` while they use it; pruning keeps the
last two generations and never deletes one a reader still holds.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.store.store import sqlite3

__all__ = [
    "GENERATIONS", "POINTER", "LINKED", "KEEP", "current_generation", "pointer_target", "begin_generation",
    "flip_generation", "prune_generations", "ReaderHold", "BuildLock", "UNFINISHED", "KEPT", "keep_original", "prune_kept", "file_sha256",
]

GENERATIONS = "generations"
POINTER = "current"
LINKED = ("store.sqlite", "lexical", "site", "report.json")
KEEP = 2
_LEGACY_SKIP = {GENERATIONS, POINTER, "checkpoints", ".build.lock"}
UNFINISHED = "checkpoints/unfinished"  # the store of a build that was stopped (begin_generation sets it aside)
KEPT = "originals"  # a generation's kept originals, one file per content hash (read by shelfwise/compiler/publish/originals.py)


def pointer_target(root: Path) -> str | None:
    """What ``root/current`` points at (one readlink: cheap enough to call on every request), or None."""
    try:
        return os.readlink(Path(root) / POINTER)
    except OSError:
        return None


def current_generation(root: Path) -> Path | None:
    """The folder holding the current build of ``root``: its current generation, the root itself for a
    build compiled before generations (a real store.sqlite there), or None when nothing is compiled."""
    root = Path(root)
    target = pointer_target(root)
    if target is not None:
        folder = (root / target).resolve()
        if (folder / "store.sqlite").exists():
            return folder
    store = root / "store.sqlite"
    if store.is_file() and not store.is_symlink():
        return root
    return None


def _numbers(root: Path) -> list[int]:
    folder = Path(root) / GENERATIONS
    if not folder.is_dir():
        return []
    return sorted(int(p.name) for p in folder.iterdir() if p.is_dir() and p.name.isdigit())


def _current_number(root: Path) -> int | None:
    target = pointer_target(root)
    name = Path(target).name if target else ""
    return int(name) if name.isdigit() else None


def _set_pointer(root: Path, number: int) -> None:
    tmp = root / f".{POINTER}.{os.getpid()}"
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(f"{GENERATIONS}/{number}", tmp)
    os.replace(tmp, root / POINTER)
    for name in LINKED:
        link = root / name
        if link.is_symlink():
            continue
        if link.is_file():  # a stray file made while this build ran (a reader opening the path too early): the build wins
            tmp_link = root / f".{name}.{os.getpid()}"
            if tmp_link.is_symlink() or tmp_link.exists():
                tmp_link.unlink()
            os.symlink(f"{POINTER}/{name}", tmp_link)
            os.replace(tmp_link, link)
        else:
            os.symlink(f"{POINTER}/{name}", link)


def _migrate_legacy(root: Path) -> None:
    """Move a build compiled before generations (store.sqlite directly in the root) into generation 1."""
    store = root / "store.sqlite"
    if not store.is_file() or store.is_symlink():
        return
    if _numbers(root):  # generations exist: a plain store beside them is a stray a reader made, set aside (never deleted)
        store.rename(root / f"store.sqlite.stray-{int(time.time())}")
        return
    first = root / GENERATIONS / "1"
    first.mkdir(parents=True, exist_ok=False)
    for item in sorted(root.iterdir()):
        if item.name not in _LEGACY_SKIP and not item.name.startswith(f".{POINTER}."):
            item.rename(first / item.name)
    _set_pointer(root, 1)


def _copy_store(src: Path, dst: Path) -> None:
    source = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    target = sqlite3.connect(str(dst))
    try:
        source.backup(target)
    finally:
        target.close()
        source.close()


def keep_original(generation: Path, source: Path, content_hash: str) -> bool:
    """Keep ``source`` as ``<generation>/originals/<content_hash>`` (once): the original a document was compiled
    from, for the site to publish whatever the shelf's file becomes; False when its bytes no longer hash to
    ``content_hash`` (changed since it was read: nothing is kept)."""
    target = Path(generation) / KEPT / content_hash
    if target.is_file():
        return True
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{content_hash}.partial")
    shutil.copyfile(source, partial)
    if file_sha256(partial) != content_hash:
        partial.unlink()
        return False
    partial.replace(target)
    return True


def prune_kept(generation: Path, used: set[str]) -> int:
    """Delete the kept originals no document of the store uses (content hashes ``used``); how many were deleted."""
    folder = Path(generation) / KEPT
    if not folder.is_dir():
        return 0
    gone = [path for path in folder.iterdir() if path.name not in used]
    for path in gone:
        path.unlink()
    return len(gone)


def file_sha256(path: Path) -> str:
    """A file's sha256 (hex), read a megabyte at a time."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _set_aside_store(root: Path, unfinished: Path) -> None:
    """Move an unfinished generation's store (with its write-ahead log) to ``checkpoints/unfinished/``, so the next
    build takes what it cached (embedded passages, figure descriptions) instead of paying for it again."""
    if not (unfinished / "store.sqlite").is_file():
        return
    aside = root / UNFINISHED
    shutil.rmtree(aside, ignore_errors=True)
    aside.mkdir(parents=True)
    for name in ("store.sqlite", "store.sqlite-wal", "store.sqlite-shm"):
        if (unfinished / name).is_file():
            (unfinished / name).rename(aside / name)


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def begin_generation(root: Path, progress: Callable[[str], None] | None = None) -> Path:
    """Create the next generation folder of ``root`` as a copy of the current one (or empty) and return it.

    Generations newer than the current one are what a killed or failed build left: they are deleted first.
    """
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    _migrate_legacy(root)
    current = _current_number(root)
    for number in _numbers(root):
        if current is None or number > current:
            _set_aside_store(root, root / GENERATIONS / str(number))
            shutil.rmtree(root / GENERATIONS / str(number), ignore_errors=True)
            if progress:
                progress(f"generation {number} was left unfinished by an earlier build: deleted")
    number = (current or 0) + 1
    new = root / GENERATIONS / str(number)
    new.mkdir(parents=True)
    if current is not None:
        old = root / GENERATIONS / str(current)
        for item in sorted(old.iterdir()):
            if item.name in {".readers"} or item.name.startswith("store.sqlite"):
                continue
            if item.name == KEPT and item.is_dir() and not item.is_symlink():
                shutil.copytree(item, new / item.name, copy_function=_link_or_copy)  # kept originals never change: linked
            elif item.is_dir() and not item.is_symlink():
                shutil.copytree(item, new / item.name, symlinks=True)
            else:
                shutil.copy2(item, new / item.name, follow_symlinks=False)
        if (old / "store.sqlite").exists():
            _copy_store(old / "store.sqlite", new / "store.sqlite")
    return new


def flip_generation(root: Path, generation: Path) -> None:
    """Make ``generation`` the current one of ``root`` (one atomic rename), then prune old generations."""
    for path in (generation / "store.sqlite", generation):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    _set_pointer(Path(root), int(generation.name))
    prune_generations(Path(root))


def prune_generations(root: Path, keep: int = KEEP) -> list[int]:
    """Delete generations older than the last ``keep`` (the current one included) that no reader holds; returns those deleted."""
    current = _current_number(root)
    if current is None:
        return []
    kept = {n for n in _numbers(root) if n <= current}
    kept = set(sorted(kept)[-keep:])
    deleted = []
    for number in _numbers(root):
        if number in kept or number > current:
            continue
        folder = root / GENERATIONS / str(number)
        with open(folder / ".readers", "a+b") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a reader still uses it: the next build prunes it
            shutil.rmtree(folder, ignore_errors=True)
            deleted.append(number)
    return deleted


class ReaderHold:
    """A shared lock on a generation while a reader uses it, so pruning leaves it alone."""

    def __init__(self, folder: Path):
        self._handle = None
        if Path(folder, "store.sqlite").exists() and Path(folder).parent.name == GENERATIONS:
            self._handle = open(Path(folder) / ".readers", "a+b")
            fcntl.flock(self._handle, fcntl.LOCK_SH)

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


class BuildLock:
    """One build of a shelf at a time: an exclusive flock on ``root/.build.lock``."""

    def __init__(self, root: Path, shelf: str):
        Path(root).mkdir(parents=True, exist_ok=True)
        self._handle = open(Path(root) / ".build.lock", "a+b")
        try:
            fcntl.flock(self._handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._handle.close()
            raise ShelfwiseError(f"shelf '{shelf}': another build of it is running (lock {Path(root) / '.build.lock'}); wait for it to finish") from None

    def release(self) -> None:
        self._handle.close()
