"""Decoding text files: UTF-8 (with or without BOM), UTF-16 by BOM, else cp1252 with a warning."""

from __future__ import annotations

from pathlib import Path

from compiler.errors import ConversionError


def read_text(path: Path) -> tuple[str, list[str]]:
    """Return the file's text (newlines normalised to \\n) and any decoding warnings."""
    raw = path.read_bytes()
    warnings: list[str] = []
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = raw.decode("utf-16")
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            try:
                text = raw.decode("cp1252")
            except UnicodeDecodeError:
                raise ConversionError(
                    f"not valid UTF-8 (byte {exc.start}) nor Windows-1252 text; re-save the file as UTF-8"
                ) from exc
            warnings.append(f"not valid UTF-8 (first bad byte at offset {exc.start}); read as Windows-1252")
    if "\x00" in text:
        raise ConversionError("holds NUL bytes: binary data, not text")
    return text.replace("\r\n", "\n").replace("\r", "\n"), warnings
