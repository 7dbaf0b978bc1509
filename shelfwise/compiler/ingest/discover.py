"""Discover a shelf's files: sorted walk, include/exclude globs, content hashes, document ids.

Every name is handled: a file name that is not UTF-8 is compiled under its
escaped form (``caf\\xe9.md``) with a warning. Symbolic links are followed only
inside the shelf: a link resolving outside it is refused with the reason
(``compile.follow_symlinks_outside`` allows it), and a link loop or a broken link
is reported; the build counts each refusal as a failed file (``--strict``).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from shelfwise.compiler.ingest.convert import SUFFIX_FORMATS
from shelfwise.compiler.errors import SettingsError
from shelfwise.compiler.settings import ShelfConfig
from shelfwise.compiler.store.generations import file_sha256

__all__ = ["SourceFile", "Refused", "discover", "doc_id_for", "display_name", "escaped_name"]

_ID_OK = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class SourceFile(BaseModel):
    """One file of a shelf, as found on disk."""

    path: Path = Field(description="Absolute path.")
    relpath: str = Field(description="Shelf-relative POSIX path; the document's identity.")
    doc_id: str = Field(description="Document id: declared in shelf.toml, else derived from relpath.")
    title: str | None = Field(default=None, description="Title declared in shelf.toml, if any.")
    size: int
    content_hash: str = Field(description="sha256 of the file's bytes.")
    supported: bool = Field(description="Whether a reader exists for its suffix.")
    note: str = Field(default="", description="What discovery noticed about the file (an escaped name), for the report.")


class Refused(BaseModel):
    """A shelf entry that is not compiled, with the reason (a link out of the shelf, a link loop, a broken link:
    failed; a hidden file or folder: skipped)."""

    relpath: str = Field(description="Shelf-relative POSIX path, escaped where the name is not UTF-8.")
    reason: str
    status: Literal["failed", "skipped"] = Field(default="failed", description="How the report counts it.")


def display_name(name: str) -> str:
    """``name`` as valid UTF-8 text: bytes that are not UTF-8 (surrogate escapes from the OS) become \\xNN."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", errors="backslashreplace")


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def escaped_name(name: str) -> str:
    """A file name as the shelf's documents carry it: ``display_name``, and control characters (a newline that
    would forge a progress line) written as escapes ('\\n', '\\x1b'), so every stage and log prints one line."""
    return _CONTROL.sub(lambda m: repr(m.group(0))[1:-1], display_name(name))


def doc_id_for(relpath: str) -> str:
    """Document id from a shelf-relative path: lowercase, runs of other characters → '-'."""
    return re.sub(r"[^a-z0-9]+", "-", relpath.lower()).strip("-")


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A shell glob with '**' (any number of folders) as a regex over POSIX relative paths."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def _matches(relpath: str, patterns: list[str]) -> bool:
    """Whether relpath matches a pattern; a pattern without '/' also matches a file name in any folder."""
    name = relpath.rsplit("/", 1)[-1]
    return any(
        _glob_regex(p).match(relpath) or ("/" not in p and _glob_regex(p).match(name)) for p in patterns
    )


def _link_target(path: Path, root: Path, allow_outside: bool) -> tuple[Path | None, str]:
    """(resolved target, '') for a link that may be followed, else (None, the reason it is refused)."""
    try:
        target = path.resolve(strict=True)
    except RuntimeError:
        return None, "symbolic link loop; it is not followed"
    except OSError as exc:
        if exc.errno == 40:  # ELOOP
            return None, "symbolic link loop; it is not followed"
        return None, f"broken symbolic link to {escaped_name(os.readlink(path))}"
    if not target.is_relative_to(root) and not allow_outside:
        return None, ("symbolic link to a file outside the shelf; it is not compiled "
                      "(compile.follow_symlinks_outside = true allows it)")
    return target, ""


def _walk(shelf_dir: Path, allow_outside: bool, refused: list[Refused]) -> list[tuple[Path, str, Path]]:
    """(path in the shelf, shelf-relative POSIX path, real file) for every file, links resolved by the rules above."""
    root = shelf_dir.resolve()
    found: list[tuple[Path, str, Path]] = []
    seen_dirs = {root}
    pending = [shelf_dir]
    while pending:
        folder = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            refused.append(Refused(relpath=escaped_name(Path(folder).relative_to(shelf_dir).as_posix()), reason=f"folder cannot be read ({exc.strerror})"))
            continue
        for entry in entries:
            path = Path(entry.path)
            relpath = path.relative_to(shelf_dir).as_posix()
            if entry.name.startswith("."):
                kind = "folder" if entry.is_dir(follow_symlinks=False) else "file"
                refused.append(Refused(relpath=escaped_name(relpath), status="skipped",
                                       reason=f"hidden {kind} (its name starts with '.'); not compiled"))
                continue
            if entry.is_symlink():
                target, reason = _link_target(path, root, allow_outside)
                if target is None:
                    refused.append(Refused(relpath=escaped_name(relpath), reason=reason))
                    continue
                if target.is_dir():
                    if target in seen_dirs or any(target.is_relative_to(d) for d in seen_dirs if d != root) or target.is_relative_to(root):
                        refused.append(Refused(relpath=escaped_name(relpath),
                                               reason="symbolic link to a folder already in the shelf; its files are compiled under their own path"))
                        continue
                    seen_dirs.add(target)
                    pending.append(path)
                elif target.is_file():
                    found.append((path, relpath, target))
                continue
            if entry.is_dir(follow_symlinks=False):
                pending.append(path)
            elif entry.is_file(follow_symlinks=False):
                found.append((path, relpath, path.resolve()))
    return sorted(found, key=lambda item: item[1])


def discover(shelf_dir: Path, config: ShelfConfig, refused: list[Refused] | None = None, *,
             allow_outside: bool = False) -> list[SourceFile]:
    """Every file of the shelf in sorted order (hidden files and shelf.toml left out); entries that are not
    compiled (links out of the shelf, link loops, broken links) are appended to ``refused``."""
    refused = refused if refused is not None else []
    declared = {decl.path: decl for decl in config.documents}
    problems = [f"documents: id {d.id!r} for {d.path}: use lowercase letters, digits and '-'" for d in config.documents if d.id and not _ID_OK.match(d.id)]
    files: list[SourceFile] = []
    for path, raw_relpath, real in _walk(Path(shelf_dir), allow_outside, refused):
        relpath = escaped_name(raw_relpath)
        if relpath == "shelf.toml":
            continue
        if not _matches(relpath, config.include) or _matches(relpath, config.exclude):
            continue
        decl = declared.pop(relpath, None)
        note = ("" if relpath == raw_relpath else f"the file name is not UTF-8; compiled as {relpath!r}"
                if _CONTROL.search(raw_relpath) is None
                else f"the file name holds control characters; compiled as {relpath!r}")
        files.append(
            SourceFile(
                path=real,
                relpath=relpath,
                doc_id=(decl.id if decl and decl.id else doc_id_for(relpath)),
                title=decl.title if decl else None,
                size=real.stat().st_size,
                content_hash=file_sha256(real),
                supported=path.suffix.lower() in SUFFIX_FORMATS,
                note=note,
            )
        )
    refused[:] = [r for r in refused if _matches(r.relpath, config.include) and not _matches(r.relpath, config.exclude)]
    problems += [f"documents: {path!r} is declared but no such file is in the shelf (or it is excluded)" for path in sorted(declared)]
    problems += _tell_apart(files, {d.path for d in config.documents if d.id})
    if problems:
        raise SettingsError(str(shelf_dir / "shelf.toml"), problems)
    return files


def _tell_apart(files: list[SourceFile], declared: set[str]) -> list[str]:
    """Give files whose derived ids collide ('Q1 report.md', 'q1-report.md') each its own id, in place: the id with
    the first hex digits of its own path's sha256 added ('q1-report-md-6f0c2a'), so the id depends on that file's path
    alone (a third such file renames neither earlier one); a declared id keeps its id. Each gets a warning naming
    the files. Two declared ids that collide are the shelf.toml's mistake: returned as problems."""
    groups: dict[str, list[SourceFile]] = {}
    for f in files:
        groups.setdefault(f.doc_id, []).append(f)
    taken = set(groups)
    problems = []
    for doc_id, group in groups.items():
        if len(group) < 2:
            continue
        mine = [f for f in group if f.relpath in declared]
        if len(mine) > 1:
            problems += [f"documents: {b.relpath} and {a.relpath} both get id {doc_id!r}; declare a distinct id for one"
                         for a, b in zip(mine, mine[1:])]
            continue
        names = " and ".join(repr(f.relpath) for f in group)
        for f in group:
            if f in mine:
                continue
            digest = hashlib.sha256(f.relpath.encode("utf-8", "surrogateescape")).hexdigest()
            size = 6
            while f"{doc_id}-{digest[:size]}" in taken:
                size += 2
            f.doc_id = f"{doc_id}-{digest[:size]}"
            taken.add(f.doc_id)
            told = (f"{names} {'both' if len(group) == 2 else 'all'} derive the id {doc_id!r}; this one is compiled as {f.doc_id!r} "
                    "(declare an id in shelf.toml [[documents]] to choose one)")
            f.note = "; ".join(filter(None, [f.note, told]))
    return problems
