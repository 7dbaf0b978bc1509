"""Text and HTML readers find the encoding (BOM, declared charset, UTF-8, then a guess) and warn when they guess."""

from __future__ import annotations

from pathlib import Path

import pytest

from shelfwise.compiler.ingest.convert import convert_file
from shelfwise.compiler.ingest.convert.textio import decode_text

PAGE = "<html><head><title>Règles</title></head><body><h1>Les règles</h1><p>Une approche naïve coûte cher.</p></body></html>"


def test_windows_1252_html_is_not_read_as_latin_2_and_the_guess_is_warned(tmp_path: Path):
    path = tmp_path / "regles.html"
    path.write_bytes(PAGE.encode("cp1252"))
    converted = convert_file(path)
    text = " ".join(e.text for e in converted.elements) + " " + converted.title
    assert "naïve coûte" in text and "règles" in text.lower() and "rčgles" not in text
    assert converted.warnings == ["not valid UTF-8 (first bad byte at offset 20) and no charset declared; read as Windows-1252 (a guess)"]


def test_a_declared_charset_is_used_without_a_warning(tmp_path: Path):
    path = tmp_path / "polski.html"
    path.write_bytes('<html><head><meta charset="iso-8859-2"></head><body><p>Zażółć gęślą jaźń</p></body></html>'.encode("iso-8859-2"))
    converted = convert_file(path)
    assert [e.text for e in converted.elements] == ["Zażółć gęślą jaźń"] and converted.warnings == []


@pytest.mark.parametrize(
    ("raw", "text", "codec", "warned"),
    [
        ("Привет, как дела? Это тест кодировки текста.".encode("cp1251"), "Привет, как дела? Это тест кодировки текста.", "cp1251", True),
        ("Grüße aus München".encode("utf-16"), "Grüße aus München", "utf-16", False),
        ("\ufeffsécurité".encode("utf-8"), "sécurité", "utf-8-sig", False),
        ("# -*- coding: latin-1 -*-\nCafé".encode("cp1252"), "# -*- coding: latin-1 -*-\nCafé", "cp1252", False),
        ("@documentencoding ISO-8859-15\nCoût: 5 €".encode("iso-8859-15"), "@documentencoding ISO-8859-15\nCoût: 5 €", "iso8859_15", False),
    ],
)
def test_decode_text_order(raw, text, codec, warned):
    decoded, used, warnings = decode_text(raw)
    assert (decoded, used, bool(warnings)) == (text, codec, warned)
