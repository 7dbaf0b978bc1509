"""Definition lists read as items, term and description together, in RFC text, reStructuredText and Markdown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.markdown import parse_markdown
from shelfwise.compiler.ingest.convert.rst import parse_rst
from shelfwise.compiler.ingest.convert.text import parse_rfc, read
from shelfwise.compiler.ingest.sections import build_sections
from shelfwise.compiler.ledger.rules import extract_rules
from shelfwise.compiler.prose import sentences
from shelfwise.compiler.store.records import Converted

OAUTH = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "oauth"


def _items(elements) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for element in elements:
        if element.kind == "list_item" and element.name:
            found.setdefault(element.name, []).append(element.text)
    return found


def _source_terms(text: str) -> list[str]:
    """Every definition list term of an RFC's text, found without the reader: a short line after a blank line with
    its description indented deeper on the next line, or a parameter and "REQUIRED." / "OPTIONAL." on one line."""
    lines = text.split("\n")
    terms = []
    for index in range(1, len(lines) - 1):
        line, following = lines[index], lines[index + 1]
        indent = len(line) - len(line.lstrip())
        if lines[index - 1].strip() or not line.strip() or indent == 0:
            continue
        same_line = re.match(r"^\s+([a-z_]+) {2,}(REQUIRED|OPTIONAL)\b", line)
        if same_line:
            terms.append(same_line.group(1))
        elif following.strip() and len(following) - len(following.lstrip()) > indent and len(line.strip()) <= 40 \
                and re.match(r"[A-Za-z]", line.strip()) and not line.strip().startswith("o ") and not re.search(r"[=|+]|\S {3,}\S", line) and not line.rstrip().endswith("."):
            terms.append(line.strip())
    return terms


@pytest.mark.skipif(not OAUTH.is_dir(), reason="../shared/corpora/oauth is not present")
@pytest.mark.parametrize("name", ["rfc6749.txt", "rfc6750.txt", "rfc7009.txt", "rfc7519.txt", "rfc7662.txt"])
def test_every_definition_list_of_the_oauth_shelf_keeps_its_terms(name: str) -> None:
    path = OAUTH / name
    converted = read(path, ReadOptions())
    items = _items(converted.elements)
    terms = _source_terms(path.read_text(encoding="utf-8"))
    assert terms
    missing = [term for term in terms if term not in items]
    assert missing == []
    for term, texts in items.items():
        assert all(text.startswith(term) for text in texts)


@pytest.mark.skipif(not OAUTH.is_dir(), reason="../shared/corpora/oauth is not present")
def test_introspection_members_are_items_the_sentence_split_and_ledger_keep_whole() -> None:
    converted = read(OAUTH / "rfc7662.txt", ReadOptions())
    items = _items(converted.elements)
    assert set(items) >= {"active", "scope", "client_id", "username", "token_type", "exp", "iat", "nbf", "sub", "aud", "iss", "jti"}
    active = items["active"][0]
    assert active.startswith("active: REQUIRED.  Boolean indicator of whether or not the presented token is currently active.")
    assert sentences(active)[0] == "active: REQUIRED. Boolean indicator of whether or not the presented token is currently active."
    sections, _ = build_sections("rfc7662-txt", converted)
    section = next(s for s in sections if any(b.name == "active" for b in s.blocks))
    definitions = {a.subject: a.statement for a in extract_rules(section).assertions if a.kind == "definition"}
    assert definitions["active"] == "active: REQUIRED. Boolean indicator of whether or not the presented token is currently active."
    assert definitions["token_type"].startswith("token_type: OPTIONAL. Type of the token")


def test_rfc_definition_list_forms(tmp_path: Path) -> None:
    text = """Request for Comments: 9999                                    June 2030

1.  Parameters

   The request has these parameters:

   token   REQUIRED.  The token that the client wants to get revoked.

   token_type_hint  OPTIONAL.  A hint about the type of the token
           submitted for revocation.

   Type name:
      The name requested.

   grant_type
         REQUIRED.  Value MUST be set to "refresh_token".
   scope
         OPTIONAL.  The scope of the access request.

   A paragraph with a hanging
      indent is still a paragraph.
"""
    elements, _title, _pages = parse_rfc(text)
    listed = [(e.name, e.text) for e in elements if e.kind == "list_item"]
    assert listed == [
        ("token", "token: REQUIRED.  The token that the client wants to get revoked."),
        ("token_type_hint", "token_type_hint: OPTIONAL.  A hint about the type of the token submitted for revocation."),
        ("Type name:", "Type name: The name requested."),
        ("grant_type", 'grant_type: REQUIRED.  Value MUST be set to "refresh_token".'),
        ("scope", "scope: OPTIONAL.  The scope of the access request."),
    ]
    assert [e.text for e in elements if e.kind == "paragraph"] == [
        "The request has these parameters:", "A paragraph with a hanging indent is still a paragraph."]


def test_rst_definition_list_items() -> None:
    text = """Parameters
==========

active
    REQUIRED. Boolean indicator of whether
    the token is active.

    A second paragraph of the description.

scope : str
    OPTIONAL. A space-separated list.

:field: a field list keeps its shape
"""
    elements, _title = parse_rst(text)
    assert [(e.kind, e.name, e.text) for e in elements[1:]] == [
        ("list_item", "active", "active: REQUIRED. Boolean indicator of whether the token is active."),
        ("paragraph", None, "A second paragraph of the description."),
        ("list_item", "scope : str", "scope : str: OPTIONAL. A space-separated list."),
        ("list_item", None, ":field: a field list keeps its shape"),
    ]


def test_markdown_definition_lists_and_html_dl() -> None:
    text = """# Members

active
: REQUIRED. Boolean indicator of whether
  the token is active.

scope

: OPTIONAL. A list of scopes.
: A second description of scope.

<dl>
<dt>exp</dt>
<dd>OPTIONAL. Expiry time &amp; date.</dd>
<dt>iat</dt><dt>nbf</dt>
<dd>Times, in seconds.</dd>
</dl>

- an ordinary item
"""
    elements, _title = parse_markdown(text)
    assert [(e.kind, e.name, e.text) for e in elements[1:]] == [
        ("list_item", "active", "active: REQUIRED. Boolean indicator of whether the token is active."),
        ("list_item", "scope", "scope: OPTIONAL. A list of scopes."),
        ("list_item", "scope", "scope: A second description of scope."),
        ("list_item", "exp", "exp: OPTIONAL. Expiry time & date."),
        ("list_item", "iat, nbf", "iat, nbf: Times, in seconds."),
        ("list_item", None, "an ordinary item"),
    ]
    converted = Converted(title="Members", elements=elements, reader="markdown-lines", reader_version="3")
    sections, _ = build_sections("members-md", converted)
    assert "active: REQUIRED. Boolean indicator of whether the token is active." in sections[-1].text


def test_a_centred_title_over_its_version_line_is_no_definition(tmp_path: Path) -> None:
    path = tmp_path / "license.txt"
    path.write_text("                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007\n\n"
                    " Everyone is permitted to copy and distribute verbatim copies\n of this license document.\n", encoding="utf-8")
    converted = read(path, ReadOptions())
    assert not [e for e in converted.elements if e.kind == "list_item"]
    assert converted.title.startswith("GNU GENERAL PUBLIC LICENSE Version 3")


IDENTITY = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "identity"


def test_markdown_html_lists_are_items_nested_ones_after_their_parent() -> None:
    """SP 800-63A writes requirements as HTML lists inside a Markdown file (nested, indented, with anchors and
    entities): each <li> is a list item with its tags removed, not one paragraph quoting "</li> <li>"."""
    text = """# 4.4.1.6 Address Confirmation

<div class="text-left" markdown="0">
<ol type="1" start="1">
\t<li><a name="r1"></a>The CSP SHALL confirm an address of record.</li>
\t<li><strong>If the CSP performs in-person proofing:</strong>
\t\t<ol type="a" start="a">
\t\t\t<li>The CSP MAY provide an enrollment code directly to the subscriber &amp; others.</li>

\t\t\t<li>The enrollment code SHALL be valid for a maximum of 7 days.</li>
\t\t</ol>
\t</li>
</ol>
</div>

After the list.
"""
    elements, _title = parse_markdown(text)
    assert [(e.kind, e.text) for e in elements[1:]] == [
        ("list_item", "The CSP SHALL confirm an address of record."),
        ("list_item", "If the CSP performs in-person proofing:"),
        ("list_item", "The CSP MAY provide an enrollment code directly to the subscriber & others."),
        ("list_item", "The enrollment code SHALL be valid for a maximum of 7 days."),
        ("paragraph", "After the list."),
    ]


@pytest.mark.skipif(not IDENTITY.is_dir(), reason="../shared/corpora/identity is not present")
@pytest.mark.parametrize("name", ["sp800-63a/sec4_ial.md", "sp800-63a/sec5_proofing.md"])
def test_no_element_of_sp_800_63a_keeps_an_html_list_tag(name: str) -> None:
    elements, _title = parse_markdown((IDENTITY / name).read_text(encoding="utf-8"))
    assert not [e.text[:80] for e in elements if re.search(r"</?(?:li|ol|ul)\b", e.text)]
    assert any(e.text == "The enrollment code SHALL be valid for a maximum of 7 days." for e in elements) or name.endswith("proofing.md")


def test_an_html_list_never_closed_loses_none_of_the_text_after_it() -> None:
    """A <ul> with no </ul> is read as the HTML block it starts, up to a blank line: the paragraphs after it stay."""
    elements, _title = parse_markdown("# T\n\n<ul>\n<li>one</li>\n\nA paragraph after it.\n\n## Next\n\nMore text.\n")
    texts = [e.text for e in elements]
    assert "A paragraph after it." in texts and "More text." in texts and "Next" in texts
