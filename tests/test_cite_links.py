"""Where citations link (site.url, the served site, the built site's files, the API) and how an answer's
section ids become numbered links with a source list and the trace id."""

from __future__ import annotations

from shelfwise.api.cite_links import SiteLinks, linked_answer, site_root
from shelfwise.api.schemas import AskResponse, Source


def test_the_site_root_is_site_url_then_the_served_site_then_the_built_files(tmp_path):
    build = tmp_path / "alpha"
    assert site_root("alpha", build, template="https://docs.example.org/{shelf}") == "https://docs.example.org/alpha/"
    assert site_root("alpha", build, template=None, server_base="http://127.0.0.1:8000/", served=True) == "http://127.0.0.1:8000/sites/alpha/"
    assert site_root("alpha", build, template=None) is None  # no site built
    (build / "site").mkdir(parents=True)
    (build / "site" / "index.html").write_text("<html></html>", encoding="utf-8")
    assert site_root("alpha", build, template=None) == (build / "site").resolve().as_uri() + "/"
    links = SiteLinks({"alpha": None}, api_base="http://127.0.0.1:8000")
    assert links.section("alpha", "d", "s0123456789a") == "http://127.0.0.1:8000/api/sections/s0123456789a?shelf=alpha"
    assert SiteLinks({"alpha": None}).section("alpha", "d", "s0123456789a") is None


def _response(markdown: str, sources: list[Source]) -> AskResponse:
    return AskResponse(answer_markdown=markdown, sentences=[], not_covered=[], label="complete", trace_id="a" + "1" * 20, mode="model-free",
                       models={}, shelves=["alpha"], resolved_question="q", obligations=[], sources=sources, not_shown=0, seconds=0.1)


def test_citations_are_numbered_in_first_cited_order_and_listed_with_pages():
    first = Source(section_id="s00000000001", shelf="alpha", doc_id="policy-md", title="Policy [v2]", path="policy.md",
                   heading_path=["Tokens"], page_start=3, page_end=4)
    second = Source(section_id="s00000000002", shelf="alpha", doc_id="backup-md", title="Backup", path="backup.md", heading_path=["Backup", "Retention"])
    markdown = "One. [s00000000002] Two. [s00000000001] Three. [s00000000002] Kept: [s0000000000f]"
    text, citations = linked_answer(_response(markdown, [first, second]), SiteLinks({"alpha": "https://d.example/alpha/"}))
    assert [c.section_id for c in citations] == ["s00000000002", "s00000000001"]
    assert text.startswith("One. [[1]](https://d.example/alpha/documents/backup-md.html#s00000000002) Two. "
                           "[[2]](https://d.example/alpha/documents/policy-md.html#s00000000001) Three. [[1]](")
    assert "Kept: [s0000000000f]" in text  # a section the answer's sources do not hold stays as it was
    assert "1. [Backup › Retention](https://d.example/alpha/documents/backup-md.html#s00000000002)\n" in text
    assert "2. [Policy \\[v2\\] › Tokens](https://d.example/alpha/documents/policy-md.html#s00000000001), pp. 3–4" in text
    assert text.endswith("_Trace: a11111111111111111111_")
    plain, _ = linked_answer(_response(markdown, [first, second]), SiteLinks())
    assert plain.startswith("One. [1] Two. [2]") and "1. Backup › Retention (s00000000002)" in plain


def test_built_site_links_go_through_the_build_folders_site_link_never_a_generation(tmp_path):
    """``shelfwise ask`` and ``shelfwise mcp`` link a built site by ``build/<shelf>/site`` (which follows ``current``),
    so a citation printed today still opens after the next build deletes today's generation."""
    from shelfwise.compiler.store.generations import current_generation

    root = tmp_path / "build" / "alpha"
    generation = root / "generations" / "1"
    (generation / "site").mkdir(parents=True)
    (generation / "site" / "index.html").write_text("<html></html>", encoding="utf-8")
    (generation / "store.sqlite").write_bytes(b"")
    (root / "current").symlink_to("generations/1")
    (root / "site").symlink_to("current/site")
    assert current_generation(root) == generation.resolve()
    url = site_root("alpha", root, template=None)
    assert url == (tmp_path / "build" / "alpha" / "site").as_uri() + "/"
    assert "generations" not in url
