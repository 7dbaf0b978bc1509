"""Decoding text files: a byte-order mark, then a declared charset, then UTF-8, then a guess, with a warning.

Order: a BOM (UTF-8, UTF-16, UTF-32) decides; else a charset the file
declares (HTML ``<meta charset>``, an XML declaration, an Emacs or Vim coding
line, Texinfo's ``@documentencoding``), with the labels ISO-8859-1, Latin-1 and
ASCII read as Windows-1252 as browsers do (WHATWG); else strict UTF-8; else a
guess, reported as a warning. The guess: text whose letters are mostly ASCII
is a Latin-script text, read as Windows-1252 (charset-normalizer alone takes
French Windows-1252 for Central European cp1250, "règles" → "rčgles"); text
mostly of other letters gets charset-normalizer's best match (Cyrillic, Greek,
Arabic...).
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from shelfwise.compiler.errors import ConversionError

__all__ = ["read_text", "decode_text", "declared_charset", "utf8_html"]

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_DECLARED = (
    re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE),
    re.compile(rb"<\?xml[^>]+encoding\s*=\s*[\"']([A-Za-z0-9_.:-]+)", re.IGNORECASE),
    re.compile(rb"-\*-.*?coding:\s*([A-Za-z0-9_.:-]+).*?-\*-"),
    re.compile(rb"(?:vim?|ex):.*?(?:fileencoding|fenc)=([A-Za-z0-9_.:-]+)"),
    re.compile(rb"^@documentencoding\s+([A-Za-z0-9_.:-]+)", re.MULTILINE),
)
_AS_WINDOWS_1252 = {"latin_1", "iso8859_1", "ascii"}  # WHATWG: these labels mean windows-1252
_NAMES = {"cp1252": "Windows-1252", "utf_8": "UTF-8"}


def _codec(label: bytes | str) -> str | None:
    try:
        name = codecs.lookup(label.decode("ascii") if isinstance(label, bytes) else label).name
    except (LookupError, UnicodeDecodeError):
        return None
    name = name.replace("-", "_")
    return "cp1252" if name in _AS_WINDOWS_1252 else name


def declared_charset(raw: bytes) -> str | None:
    """The codec a file's own declaration names (looked for in its first 4 KB), or None."""
    head = raw[:4096]
    for pattern in _DECLARED:
        found = pattern.search(head)
        if found:
            return _codec(found.group(1))
    return None


def _latin_share(raw: bytes) -> float:
    """Of the bytes that are letters in Windows-1252, the share that are ASCII letters."""
    text = raw.decode("cp1252", errors="replace")
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 1.0
    return sum(1 for ch in letters if ch.isascii()) / len(letters)


def _guess(raw: bytes) -> str:
    if _latin_share(raw) >= 0.7:
        return "cp1252"
    from charset_normalizer import from_bytes

    best = from_bytes(raw).best()
    return _codec(best.encoding) or "cp1252" if best is not None else "cp1252"


def decode_text(raw: bytes) -> tuple[str, str, list[str]]:
    """(text, codec used, warnings) for the bytes of a text file; ConversionError when no reading fits."""
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            return raw.decode(codec), codec, []
    warnings: list[str] = []
    declared = declared_charset(raw)
    if declared:
        try:
            return raw.decode(declared), declared, []
        except UnicodeDecodeError as exc:
            warnings.append(f"declares charset {declared} but byte {exc.start} is not valid in it")
    try:
        return raw.decode("utf-8"), "utf_8", warnings
    except UnicodeDecodeError as exc:
        bad = exc.start
    codec = _guess(raw)
    for candidate in dict.fromkeys([codec, "cp1252"]):
        try:
            text = raw.decode(candidate)
        except UnicodeDecodeError:
            continue
        name = _NAMES.get(candidate, candidate)
        warnings.append(f"not valid UTF-8 (first bad byte at offset {bad}) and no charset declared; read as {name} (a guess)")
        return text, candidate, warnings
    raise ConversionError(f"not valid UTF-8 (byte {bad}) nor Windows-1252 text; re-save the file as UTF-8")


def read_text(path: Path) -> tuple[str, list[str]]:
    """Return the file's text (newlines normalised to \\n) and any decoding warnings."""
    text, _, warnings = decode_text(Path(path).read_bytes())
    if "\x00" in text:
        raise ConversionError("holds NUL bytes: binary data, not text")
    return text.replace("\r\n", "\n").replace("\r", "\n"), warnings


_CHARSET_META = re.compile(r"<meta[^>]+charset[^>]*>", re.IGNORECASE)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_HEAD = re.compile(r"<head[^>]*>", re.IGNORECASE)


def utf8_html(raw: bytes) -> tuple[bytes | None, list[str]]:
    """HTML bytes re-encoded as UTF-8 with ``<meta charset="utf-8">`` when they are in another encoding
    (None when they are UTF-8 already), and the decoding warnings."""
    text, codec, warnings = decode_text(raw)
    if codec in {"utf_8", "utf-8-sig"} and not warnings:
        return None, []
    text = _XML_DECL.sub("", _CHARSET_META.sub("", text), count=1)
    meta = '<meta charset="utf-8">'
    head = _HEAD.search(text)
    text = text[: head.end()] + meta + text[head.end():] if head else meta + text
    return text.encode("utf-8"), warnings
