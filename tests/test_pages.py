"""Pages: document text rendered inert, section anchors, panels, templates a shelf overrides, incremental renders."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import markdown

from shelfwise.compiler.publish.inert import code_block, escape_inline, table
from shelfwise.compiler.build import link_shelf
from shelfwise.compiler.publish.linkmap import link_map_html, link_map_svg
from shelfwise.compiler.publish.page_tables import table_html
from shelfwise.compiler.publish.pages import render_pages
from shelfwise.compiler.store.records import Converted, Element
from shelfwise.compiler.ingest.sections import build_sections
from shelfwise.compiler.store.store import Store

HOSTILE = "<script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3)) *emph* ``code`` {#evil}"


def png(width: int = 4, height: int = 3) -> bytes:
    """A real PNG image (grey pixels)."""
    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def put(store: Store, doc_id: str, title: str, elements: list[Element], path: str, version: str = "1") -> None:
    sections, figures = build_sections(doc_id, Converted(title=title, elements=elements, reader="test", reader_version="1"))
    row = {
        "doc_id": doc_id, "path": path, "title": title, "format": Path(path).suffix.lstrip("."),
        "content_hash": f"{doc_id}-{version}", "size": 1, "reader": "test", "reader_version": "1", "settings_hash": "s",
        "pages": 2, "n_sections": len(sections), "n_tables": sum(1 for e in elements if e.kind == "table"),
        "n_figures": len(figures), "seconds": 0.0,
    }
    store.put_document(row, sections, figures)


def H(text: str, level: int = 1, page: int | None = None) -> Element:
    return Element(kind="heading", text=text, level=level, page=page)


def P(text: str, page: int | None = None) -> Element:
    return Element(kind="paragraph", text=text, page=page)


def make_store(folder: Path, hostile: bool = True) -> Store:
    """A small shelf in a real store: two RFC-like documents that link, a figure, a table, and a hostile document."""
    store = Store(folder / "store.sqlite")
    store.set_meta("shelf_title", "Widget <Shelf>")
    store.set_meta("shelf_description", "Widget specifications for the site tests.")
    put(store, "rfc9001-txt", "The Example Widget Protocol", [
        Element(kind="code", text="Request for Comments: 9001"),
        H("1. Introduction", page=1), P("This document defines widgets and their grants.", page=1),
        H("4. Grants", page=2), H("4.2. Authorization Code Grant", 2, page=2),
        P("The client MUST send the authorization code exactly once.", page=2),
        Element(kind="table", text="", rows=[["Grant", "Lifetime | limit"], ["code", "10 minutes"]], header_rows=1, page=2),
        Element(kind="figure", text="Figure 1: The grant flow", image=png(), page=2),
    ], "rfc9001.txt")
    put(store, "rfc9002-txt", "Widget Token Revocation", [
        Element(kind="code", text="Request for Comments: 9002"),
        H("1. Introduction"), P("The revocation endpoint is defined in Section 4.2 of [RFC9001]. See Section 7 for more."),
        H("2. Revocation"), P("A client revokes a token by sending it to the revocation endpoint."),
        Element(kind="table", text="", header_rows=1, rows=[
            ["Token No.", "Client", "Issued", "Revoked", "Reason", "Status", "Back-up", "Review"],
            *[[f"TOK-2025-{n:04d}", "Example client of the widget service", f"2025-10-{n + 10:02d}", f"2025-11-{n + 2:02d}",
               "The client asked for revocation after the device holding the token was reported lost", "Closed",
               "none", f"REV-2025-{n + 16:03d}"] for n in range(1, 4)]]),
    ], "rfc9002.txt")
    if hostile:
        put(store, "hostile-md", "Hostile <script>alert('title')</script> notes", [
            H("<script>alert('heading')</script> Heading {#evil}"),
            P(HOSTILE),
            P("# not a heading"), P("1. not a list"), P("- not a list"), P("> not a quote"), P("~~~ not a fence"),
            Element(kind="list_item", text="<b>bold?</b> | pipe | [x](javascript:alert(4))"),
            Element(kind="table", text="", rows=[["<script>alert(5)</script>", "a | b"], ["[l](javascript:alert(6))", "`x`"]]),
            Element(kind="code", text="```\n</code></pre><script>alert(7)</script>\n```"),
            Element(kind="figure", text="<script>alert(8)</script> caption](javascript:alert(9))", image=png(2, 2)),
        ], "hostile.md")
    link_shelf(store, [row["doc_id"] for row in store.documents()], [])
    return store


def test_escape_inline_neutralises_html_and_markdown():
    assert escape_inline("<b>x</b> & y") == "&lt;b&gt;x&lt;/b&gt; &amp; y"
    assert escape_inline("*a* _b_ `c` [d](e) {#f} |g| !h") == r"\*a\* \_b\_ \`c\` \[d\](e) \{\#f\} \|g\| \!h"
    assert escape_inline("# heading") == r"\# heading"
    assert escape_inline("12. item") == r"12\. item"
    assert escape_inline("- item") == r"\- item"
    assert escape_inline("~~~") == "&#126;~~"
    assert escape_inline("two\n\nparagraphs") == "two paragraphs"


def test_table_escapes_pipes_and_pads_rows():
    assert table([["a|b", "c"], ["d"]], header_rows=1) == "| a\\|b | c |\n|---|---|\n| d |  |"
    assert table([["x", "y"]]).splitlines()[0] == "|   |   |"


def test_table_html_keeps_ids_and_dates_whole_and_anchors_rows():
    markup, rows = table_html([["No.", "Instrument", "Due"], ["CAL-01", "Digital gauge DPG-200 <b>", "14 Oct 2025"]], 1, "s1", 5, "Register")
    assert rows == 2 and '<caption>Register</caption>' in markup
    assert '<tr id="s1-r5"><th scope="col" class="sw-nw">No.</th>' in markup
    assert ('<tr id="s1-r6"><th scope="row" class="sw-nw">CAL-01</th><td>Digital gauge <span class="sw-nw">DPG-200</span> '
            '&lt;b&gt;</td><td class="sw-nw">14 Oct 2025</td></tr>') in markup
    assert "\n\n" not in markup  # one HTML block: Markdown passes it through


def test_code_block_fence_cannot_be_closed_by_the_text():
    block = code_block("```\nbreak out\n````")
    assert block.startswith("`````text\n") and block.endswith("\n`````")


def test_pages_anchor_every_section_and_write_figures(tmp_path):
    store = make_store(tmp_path, hostile=False)
    result = render_pages(store, tmp_path)
    docs = tmp_path / "docs"
    for row in store.documents():
        page = (docs / f"documents/{row['doc_id']}.md").read_text(encoding="utf-8")
        for section in store.sections(row["doc_id"]):
            assert "{#" + section.id + "}" in page
    page = (docs / "documents/rfc9001-txt.md").read_text(encoding="utf-8")
    grant = next(s for s in store.sections("rfc9001-txt") if s.heading.startswith("4.2"))
    assert (f'<tr id="{grant.id}-r1"><th scope="col" class="sw-nw">Grant</th><th scope="col">Lifetime | limit</th></tr>' in page)
    assert f'<tr id="{grant.id}-r2"><th scope="row" class="sw-nw">code</th><td>10 minutes</td></tr>' in page
    assert "*pp. 2–2*" not in page and "*p. 2*" in page
    figure = store.figures("rfc9001-txt")[0]
    assert (docs / f"documents/rfc9001-txt/{figure.id}.png").read_bytes() == figure.image
    assert "*Undescribed: no vision model described this figure.*" in page
    citing = (docs / "documents/rfc9002-txt.md").read_text(encoding="utf-8")
    target = next(s for s in store.sections("rfc9001-txt") if s.heading.startswith("4.2"))
    assert f"(../documents/rfc9001-txt.md#{target.id})" in citing
    assert "Open reference “Section 7”: no section 7 in the citing document" in citing
    assert '??? info "Ledger and links: 1 assertion · refers to 2 sections · 1 open reference"' in citing
    assert "`rfc9002.txt` · txt · " in citing and "read by" not in citing.split("??? note")[0]  # no "2 page(s)": a text file has no pages
    assert "??? note \"How this page was made\"\n    Read by test 1." in citing  # internals collapsed
    shelf = (docs / "shelf.md").read_text(encoding="utf-8")
    assert "· 1 table · 1 figure" in shelf and '<svg class="sw-linkmap-svg"' in shelf
    assert '<a class="sw-node" href="documents/rfc9001-txt.html"' in shelf and ">depends on<" in shelf
    assert "Section 7" in (docs / "open-references.md").read_text(encoding="utf-8")
    sections_map = json.loads((docs / "assets/shelfwise/sections.json").read_text(encoding="utf-8"))
    assert sections_map["sections"][target.id][0] == f"documents/rfc9001-txt.html#{target.id}"
    assert result.sections == sum(row["n_sections"] for row in store.documents())
    assert result.nav[2]["Documents"][0] == {"The Example Widget Protocol": "documents/rfc9001-txt.md"}


def test_hostile_document_renders_inert_markdown(tmp_path):
    store = make_store(tmp_path)
    render_pages(store, tmp_path)
    text = (tmp_path / "docs/documents/hostile-md.md").read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["attr_list", "tables", "admonition", "pymdownx.details", "fenced_code", "toc"])
    assert "<script" not in html and "<img src=\"x\"" not in html and "<b>" not in html
    assert "javascript:" not in "".join(part.split('"')[0] for part in html.split('href="')[1:])
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'id="evil"' not in html
    assert "<h1" in html and html.count("<h1") == 1 and "<ol>" not in html and "<blockquote>" not in html
    assert "*emph* ``code``" in html and "| pipe |" in html and "# not a heading" in html


def test_unchanged_pages_are_not_rendered_again(tmp_path):
    store = make_store(tmp_path, hostile=False)
    first = render_pages(store, tmp_path)
    again = render_pages(store, tmp_path)
    assert first.rendered > 0 and again.rendered == 0 and again.unchanged == first.rendered
    put(store, "rfc9002-txt", "Widget Token Revocation", [H("1. Introduction"), P("Revocation, rewritten.")], "rfc9002.txt", "2")
    link_shelf(store, ["rfc9002-txt"], [])
    edited = render_pages(store, tmp_path)
    rendered = {p for p, _ in json.loads((tmp_path / "pages.json").read_text()).items()}
    assert "documents/rfc9002-txt.md" in rendered
    assert 0 < edited.rendered < first.rendered
    assert "rewritten" in (tmp_path / "docs/documents/rfc9002-txt.md").read_text(encoding="utf-8")
    store.remove_document("rfc9002-txt")
    link_shelf(store, [], ["rfc9002-txt"])
    removed = render_pages(store, tmp_path)
    assert removed.removed >= 2 and not (tmp_path / "docs/documents/rfc9002-txt.md").exists()


def test_a_shelf_template_overrides_and_stays_escaped(tmp_path):
    store = make_store(tmp_path)
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "coverage.md.j2").write_text("# Our coverage\n\n{% for doc in documents %}- {{ doc.title }}\n{% endfor %}", encoding="utf-8")
    render_pages(store, tmp_path, templates_dir=templates)
    coverage = (tmp_path / "docs/coverage.md").read_text(encoding="utf-8")
    assert coverage.startswith("# Our coverage")
    assert "- Hostile &lt;script&gt;alert('title')&lt;/script&gt; notes" in coverage


def test_link_map_svg_is_deterministic_escaped_and_links_each_node():
    docs = [{"doc_id": "a-md", "title": "<script>alert(1)</script> A"}, {"doc_id": "b-md", "title": "B & co"},
            {"doc_id": "c-md", "title": "Alone"}]
    links = [{"src_doc": "a-md", "dst_doc": "b-md", "kind": "supersedes"}, {"src_doc": "a-md", "dst_doc": "b-md", "kind": "cites"},
             {"src_doc": "b-md", "dst_doc": "a-md", "kind": "contradicts_candidate"}, {"src_doc": "a-md", "dst_doc": "a-md", "kind": "resolves"}]
    names = {"a-md": "<b>A</b>", "b-md": "B & co", "c-md": "Alone"}
    svg = link_map_svg(docs, links, names)
    assert svg == link_map_svg(docs, links, names) and "<script" not in svg and "<b>" not in svg
    assert svg.count('<a class="sw-node"') == 2 and 'href="documents/b-md.html"' in svg and "c-md" not in svg
    assert svg.count('<path class="sw-edge') == 3  # a link inside one document is not drawn
    block = link_map_html(docs, links, names, {d["doc_id"]: d["title"] for d in docs})
    assert ">supersedes</span>" in block and ">may conflict with</span>" in block and "contradicts_candidate<" not in block
    assert "1 document without links to another document is not drawn." in block


def test_a_long_nav_list_is_grouped_so_each_page_carries_a_bounded_nav():
    from shelfwise.compiler.publish.pages import NAV_GROUP, _grouped

    entries = [{f"SOP-{n:04d} Calibration of gauges": f"documents/d{n}.md"} for n in range(1, 101)]
    groups = _grouped(entries)
    assert [next(iter(g)) for g in groups] == [
        "SOP-0001 Calibration of … – SOP-0040 Calibration of …", "SOP-0041 Calibration of … – SOP-0080 Calibration of …",
        "SOP-0081 Calibration of … – SOP-0100 Calibration of …"]
    assert [e for g in groups for e in next(iter(g.values()))] == entries
    assert _grouped(entries[:NAV_GROUP]) == entries[:NAV_GROUP]
    deep = _grouped([{f"D{n}": f"d{n}.md"} for n in range(NAV_GROUP * NAV_GROUP + 1)])
    assert len(deep) == 2 and len(next(iter(deep[0].values()))) == NAV_GROUP  # groups of groups past 40 x 40
