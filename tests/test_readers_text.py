"""Text-format readers (Markdown, plain/RFC text, reStructuredText, Texinfo) on inline documents and the corpora."""

from __future__ import annotations

from pathlib import Path

import pytest

from shelfwise.compiler.ingest.convert import ReadOptions, convert_file
from shelfwise.compiler.ingest.sections import build_sections
from conftest import WIDGET_TEXI

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _kinds(converted, kind):
    return [e for e in converted.elements if e.kind == kind]


def test_markdown_headings_tables_code_and_verbatim_text(tmp_path):
    path = _write(tmp_path, "doc.md", """---
title: Guide
---

# <a name="top"></a> Top Title

Intro with ``code`` and *emphasis* and [[ref]](#anchor)
spread over two lines.

#### 4.2 <a name="x"></a>Runtime &mdash; Decisions

|FAL|Requirement|
|:--:|----|
|1|Bearer assertion, signed by IdP.|

```python
# not a heading
x = 1
```

* first item
  continued
* second item

![Figure 1 caption](img/a.png)

Setext Title
------------
""")
    converted = convert_file(path)
    assert converted.title == "Guide"
    headings = [(e.text, e.level) for e in _kinds(converted, "heading")]
    assert headings == [("Top Title", 1), ("4.2 Runtime &mdash; Decisions", 4), ("Setext Title", 2)]
    assert _kinds(converted, "paragraph")[0].text == "Intro with ``code`` and *emphasis* and [[ref]](#anchor) spread over two lines."
    table = _kinds(converted, "table")[0]
    assert table.rows == [["FAL", "Requirement"], ["1", "Bearer assertion, signed by IdP."]] and table.header_rows == 1
    assert _kinds(converted, "code")[0].text == "# not a heading\nx = 1"
    assert [e.text for e in _kinds(converted, "list_item")] == ["first item continued", "second item"]
    assert _kinds(converted, "figure")[0].text == "Figure 1 caption"
    sections, figures = build_sections("doc.md", converted)
    assert [s.heading for s in sections] == ["Guide", "Top Title", "4.2 Runtime &mdash; Decisions", "Setext Title"]
    assert figures[0].caption == "Figure 1 caption"


RFC = """

Internet Engineering Task Force (IETF)                          A. Author
Request for Comments: 9999                                        Example
Category: Standards Track                                    October 2020


                       The Example Protocol

Abstract

   This document defines
   an example.

Table of Contents

   1.  Introduction . . . . . . . . . . . . . . . . . . . . . . . .   2
   2.  Flow . . . . . . . . . . . . . . . . . . . . . . . . . . . .   2

1.  Introduction

   A paragraph that runs over the page
   break and must come back whole



Author                       Standards Track                    [Page 1]
\f
RFC 9999                    Example Protocol                October 2020


   after the break.

1.1.  Terminology and a Heading That Is Long Enough to Wrap onto Next
      Line

   o  first bullet item
   o  second bullet
      item

2.  Flow

     +--------+          +--------+
     | Client |--(A)---->| Server |
     +--------+          +--------+

                     Figure 1: The Flow

Appendix A.  Acknowledgements

   Thanks.
"""


def test_rfc_pages_headings_and_joined_paragraphs(tmp_path):
    converted = convert_file(_write(tmp_path, "rfc9999.txt", RFC))
    assert converted.title == "The Example Protocol" and converted.pages == 2
    headings = [(e.text, e.level, e.page) for e in _kinds(converted, "heading")]
    assert headings == [
        ("Abstract", 1, 1),
        ("Table of Contents", 1, 1),
        ("1.  Introduction", 1, 1),
        ("1.1.  Terminology and a Heading That Is Long Enough to Wrap onto Next Line", 2, 2),
        ("2.  Flow", 1, 2),
        ("Appendix A.  Acknowledgements", 1, 2),
    ]
    texts = [e.text for e in _kinds(converted, "paragraph")]
    assert "A paragraph that runs over the page break and must come back whole after the break." in texts
    assert not any("[Page" in e.text or "RFC 9999 " in e.text for e in converted.elements)
    assert [e.text for e in _kinds(converted, "list_item")] == ["first bullet item", "second bullet item"]
    art = _kinds(converted, "code")
    assert any("| Client |--(A)---->| Server |" in e.text.split("\n")[1] for e in art)
    assert _kinds(converted, "figure")[0].text == "Figure 1: The Flow"
    sections, _ = build_sections("rfc9999.txt", converted)
    by_heading = {s.heading: s for s in sections}
    assert by_heading["1.1. Terminology and a Heading That Is Long Enough to Wrap onto Next Line"].heading_path[0] == "1. Introduction"
    assert "1.  Introduction . ." in by_heading["Table of Contents"].text


def test_plain_text_license_headings(tmp_path):
    path = _write(tmp_path, "LICENSE.txt", """---
title: Sample License
---

                     SAMPLE PUBLIC LICENSE

                            Preamble

  Some words about freedom.

                       TERMS AND CONDITIONS

  0. Definitions.

  "This License" refers to this text.

   2. Grant of Copyright License. Subject to the terms of this
      License, each Contributor grants You a license.
""")
    converted = convert_file(path)
    assert converted.title == "Sample License"
    headings = [(e.text, e.level) for e in _kinds(converted, "heading")]
    assert headings == [
        ("SAMPLE PUBLIC LICENSE", 1),
        ("Preamble", 1),
        ("TERMS AND CONDITIONS", 1),
        ("0. Definitions.", 2),
        ("2. Grant of Copyright License.", 2),
    ]
    assert _kinds(converted, "paragraph")[-1].text == "Subject to the terms of this License, each Contributor grants You a license."


def test_plain_text_numbered_headings_in_sentence_case_start_sections_and_spaced_lists_stay_items(tmp_path):
    path = _write(tmp_path, "onboarding.txt", """Onboarding notes

1. First day

Collect your badge at reception before nine.

2. First week

Meet your mentor every morning at ten.

2.1 Safety walk

Walk the floor with the safety officer.

Before you leave each day:

1. Lock your screen

2. Return the visitor badge

Thank you.
""")
    converted = convert_file(path)
    assert [(e.text, e.level) for e in _kinds(converted, "heading")] == [("1. First day", 1), ("2. First week", 1), ("2.1 Safety walk", 2)]
    sections, _ = build_sections("onboarding.txt", converted)
    week = next(s for s in sections if s.heading == "2. First week")
    assert "2. First week" not in next(s for s in sections if s.heading == "1. First day").text
    assert week.text.startswith("Meet your mentor every morning at ten.")
    walk = next(s for s in sections if s.heading == "2.1 Safety walk")
    assert "1. Lock your screen" in walk.text and "2. Return the visitor badge" in walk.text  # items of a list, not headings


def test_rst_levels_literal_blocks_lists_and_tables(tmp_path):
    path = _write(tmp_path, "pep-9999.rst", """PEP: 9999
Title: Sample PEP
Author: A. Author <a@example.org>,
        B. Author

Abstract
========

The ``typing`` Module
=====================

It uses :pep:`484` and *emphasis*
across lines.  Example::

    def f(x: int) -> int:
        return x

* List, used as ``List[element_type]``
* Dict, used as
  ``Dict[k, v]``

Subsection
----------

.. code-block:: python

   x: int = 1

.. note::

   A note paragraph.

=====  =====
Name   Value
=====  =====
a      1
b      2
=====  =====

>>> list[str]
list[str]
""")
    converted = convert_file(path)
    assert converted.title == "Sample PEP"
    header = converted.elements[0]
    assert header.kind == "table" and header.rows[2] == ["Author", "A. Author <a@example.org>, B. Author"]
    headings = [(e.text, e.level) for e in _kinds(converted, "heading")]
    assert headings == [("Abstract", 1), ("The ``typing`` Module", 1), ("Subsection", 2)]
    paragraphs = [e.text for e in _kinds(converted, "paragraph")]
    assert "It uses :pep:`484` and *emphasis* across lines.  Example::" in paragraphs
    assert "A note paragraph." in paragraphs
    codes = [e.text for e in _kinds(converted, "code")]
    assert codes == ["def f(x: int) -> int:\n    return x", "x: int = 1", ">>> list[str]\nlist[str]"]
    assert [e.text for e in _kinds(converted, "list_item")] == ["List, used as ``List[element_type]``", "Dict, used as ``Dict[k, v]``"]
    table = _kinds(converted, "table")[1]
    assert table.rows == [["Name", "Value"], ["a", "1"], ["b", "2"]] and table.header_rows == 1
    sections, _ = build_sections("pep-9999.rst", converted)
    assert sections[-1].heading_path == ["The ``typing`` Module", "Subsection"]


def test_texinfo_structure_inline_commands_and_missing_include(tmp_path):
    path = _write(tmp_path, "manual.texi", """\\input texinfo
@include version.texi
@settitle Sample Manual
@set EDITION 1.0
@iftex
TeX only text.
@end iftex
@node Top
@top Sample

This is edition @value{EDITION}.

@node Intro
@chapter Overview of @code{make}
@cindex overview

The @code{make} utility@footnote{A note.} reads @emph{makefiles}; @xref{Rules}.

@section Options
@table @code
@item -k
@itemx --keep-going
Continue after an error.
@end table

@itemize @bullet
@item
First point.
@end itemize

@example
cc -o edit main.o @@all
@end example

@multitable @columnfractions .5 .5
@headitem Flag @tab Meaning
@item -n @tab dry run
@end multitable
@bye
""")
    converted = convert_file(path, ReadOptions())
    assert converted.title == "Sample Manual"
    assert converted.warnings == ["manual.texi:2: @include version.texi not found next to manual.texi; its content is skipped"]
    assert [(e.text, e.level) for e in _kinds(converted, "heading")] == [("Overview of `make`", 1), ("Options", 2)]
    paragraphs = [e.text for e in _kinds(converted, "paragraph")]
    assert paragraphs == ["This is edition 1.0.", "The `make` utility (A note.) reads *makefiles*; See Rules."]
    assert [e.text for e in _kinds(converted, "list_item")] == ["`-k`, `--keep-going`: Continue after an error.", "First point."]
    assert _kinds(converted, "code")[0].text == "cc -o edit main.o @all"
    table = _kinds(converted, "table")[0]
    assert table.rows == [["Flag", "Meaning"], ["-n", "dry run"]] and table.header_rows == 1


def test_a_texinfo_copying_notice_stands_where_insertcopying_places_it(tmp_path):
    """As in the Info output, the @copying block is read at @insertcopying (a manual's Top node says its edition
    there), not lost with the block; a @value whose @set is in a missing include leaves no text, and the punctuation
    it stood before closes up."""
    path = _write(tmp_path, "widget.texi", WIDGET_TEXI)
    converted = convert_file(path, ReadOptions())
    paragraphs = [e.text for e in _kinds(converted, "paragraph")]
    assert paragraphs == ["This is Edition 2.3, last updated, of The Widget Manual, for Widget version.", "Widgets turn."]
    sections, _ = build_sections("widget.texi", converted)
    assert sections[0].level == 0 and "This is Edition 2.3" in sections[0].text  # the root: the document's front matter


def _corpus(pattern: str) -> list[Path]:
    if not CORPORA.is_dir():
        pytest.skip(f"corpora not found at {CORPORA}")
    return sorted(p for p in CORPORA.glob(pattern) if p.name != "SOURCES.md")


@pytest.mark.parametrize(
    ("pattern", "min_sections"),
    [("typing/*.rst", 8), ("oauth/*.txt", 15), ("identity/**/*.md", 2), ("licenses/*.txt", 2), ("make/make.texi", 150)],
)
def test_corpora_files_convert_to_section_trees(pattern, min_sections):
    files = _corpus(pattern)
    assert files, f"no files match {pattern} under {CORPORA}"
    for path in files:
        converted = convert_file(path)
        sections, _ = build_sections(str(path.relative_to(CORPORA)), converted)
        assert converted.title.strip(), path
        assert sum(len(s.text) for s in sections) >= 50, path
        if "identity" not in pattern or path.name.startswith("sec"):
            assert len(sections) >= min_sections or "mit" in path.name, (path, len(sections))


def test_numbered_list_items_keep_their_numbers(tmp_path: Path) -> None:
    markdown = tmp_path / "steps.md"
    markdown.write_text("# Procedure\n\n7. Review the record.\n8. Test the device\n   on the bench.\n\n- a bullet keeps no marker\n")
    assert [e.text for e in _kinds(convert_file(markdown), "list_item")] == ["7. Review the record.", "8. Test the device on the bench.", "a bullet keeps no marker"]
    rst = tmp_path / "steps.rst"
    rst.write_text("Procedure\n=========\n\n3. Open the valve.\n4. Close it.\n\n#. auto item\n")
    assert [e.text for e in _kinds(convert_file(rst), "list_item")] == ["3. Open the valve.", "4. Close it.", "auto item"]
    texi = tmp_path / "steps.texi"
    texi.write_text("\\input texinfo\n@settitle Steps\n@node Top\n@top Steps\n@enumerate 5\n@item\nFirst step.\n@item\nSecond step.\n@end enumerate\n@bye\n")
    assert [e.text for e in _kinds(convert_file(texi), "list_item")] == ["5. First step.", "6. Second step."]


def test_a_texinfo_table_item_keeps_its_description_across_a_blank_line(tmp_path: Path) -> None:
    """GNU Make's option table sets a comment and a blank line between "@itemx --quiet" and its description: the item is
    still one definition, term and description together; a term with no description stays a term of its own."""
    texi = _write(tmp_path, "options.texi", """\\input texinfo
@settitle Options
@node Top
@top Options
@table @samp
@item -s
@cindex @code{-s}
@itemx --silent
@itemx --quiet
@c Extra blank line here makes the table look better.

Silent operation; do not print the recipes as they are executed.
@xref{Echoing, ,Recipe Echoing}.

@item -S
@itemx --no-keep-going
Cancel the effect of the @samp{-k} option.

@item -t
@end table
@bye
""")
    assert [e.text for e in _kinds(convert_file(texi), "list_item")] == [
        "`-s`, `--silent`, `--quiet`: Silent operation; do not print the recipes as they are executed. See Recipe Echoing.",
        "`-S`, `--no-keep-going`: Cancel the effect of the `-k` option.",
        "`-t`"]
