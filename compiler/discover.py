"""Discover a shelf's files: sorted walk, include/exclude globs, content hashes, document ids."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pydantic import BaseModel, Field

from compiler.convert import SUFFIX_FORMATS
from compiler.errors import SettingsError
from compiler.settings import ShelfConfig

__all__ = ["SourceFile", "discover", "doc_id_for"]

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


def doc_id_for(relpath: str) -> str:
    """Document id from a shelf-relative path: lowercase, runs of other characters → '-'."""
    return re.sub(r"[^a-z0-9]+", "-", relpath.lower()).strip("-")


def _hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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


def discover(shelf_dir: Path, config: ShelfConfig) -> list[SourceFile]:
    """Every file of the shelf in sorted order (hidden files and shelf.toml left out)."""
    declared = {decl.path: decl for decl in config.documents}
    problems = [f"documents: id {d.id!r} for {d.path}: use lowercase letters, digits and '-'" for d in config.documents if d.id and not _ID_OK.match(d.id)]
    files: list[SourceFile] = []
    for path in sorted(shelf_dir.rglob("*")):
        if not path.is_file():
            continue
        relpath = path.relative_to(shelf_dir).as_posix()
        if any(part.startswith(".") for part in Path(relpath).parts) or relpath == "shelf.toml":
            continue
        if not _matches(relpath, config.include) or _matches(relpath, config.exclude):
            continue
        decl = declared.pop(relpath, None)
        files.append(
            SourceFile(
                path=path.resolve(),
                relpath=relpath,
                doc_id=(decl.id if decl and decl.id else doc_id_for(relpath)),
                title=decl.title if decl else None,
                size=path.stat().st_size,
                content_hash=_hash(path),
                supported=path.suffix.lower() in SUFFIX_FORMATS,
            )
        )
    problems += [f"documents: {path!r} is declared but no such file is in the shelf (or it is excluded)" for path in sorted(declared)]
    seen: dict[str, str] = {}
    for f in files:
        if f.doc_id in seen:
            problems.append(f"documents: {f.relpath} and {seen[f.doc_id]} both get id {f.doc_id!r}; declare a distinct id for one")
        seen[f.doc_id] = f.relpath
    if problems:
        raise SettingsError(str(shelf_dir / "shelf.toml"), problems)
    return files
