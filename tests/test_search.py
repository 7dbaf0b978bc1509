"""Fused search: each route, reciprocal-rank fusion, bad input, the build-dir entry point."""

from __future__ import annotations

import pytest

from shelfwise.compiler.errors import SearchError
from shelfwise.compiler.index.indexes import index_shelf, index_stage
from shelfwise.compiler.search.search import ROUTE_WEIGHTS, ShelfSearcher, document_identifiers, rrf_fuse
from shelfwise.compiler.search.search_cli import format_result, run_search
from shelfwise.compiler.store.store import Store

from search_fixtures import HashEmbedder, oauth_like_shelf, searching


@pytest.fixture
def searcher(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    oauth_like_shelf(store)
    embedder = HashEmbedder()
    index_shelf(store, tmp_path / "lexical", embedder, [d["doc_id"] for d in store.documents()], [])
    searcher = ShelfSearcher(store, tmp_path / "lexical", embedder)
    yield searcher
    searcher.close()
    store.close()


def _headings(result):
    return [hit.heading for hit in result.hits]


def test_rrf_is_reciprocal_rank_with_k_60():
    fused = rrf_fuse({"a": ["x", "y"], "b": ["y", "z"]})
    assert [item for item, _ in fused] == ["y", "x", "z"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)
    assert rrf_fuse({"a": ["x"], "b": ["y"]}, weights={"a": 0.5})[0][0] == "y"


def test_identifiers_named_in_text():
    assert document_identifiers("Where does RFC 6750 cite PEP 585 and NIST SP 800-63B?") == {"rfc-6750", "pep-585", "sp-800-63-b"}
    assert document_identifiers("pep-0484.rst sp800-63-3/cover.md rfc7519.txt") == {"pep-484", "sp-800-63-3", "rfc-7519"}
    assert document_identifiers("Python 3.9 and 10 minutes") == set()


def test_fused_hits_carry_each_routes_rank(searcher):
    result = searcher.search("What must expire shortly after it is issued?", k=5)
    top = result.hits[0]
    assert top.heading == "4.1.2. Authorization Response"
    assert set(top.ranks) >= {"bm25", "dense"}
    assert top.path == "rfc6749.txt" and top.chars > 0
    assert result.routes["named"] == 0 and result.routes["numeric"] == 0


def test_named_document_route(searcher):
    result = searcher.search("What does RFC 6750 say about tokens?", k=10)
    assert result.named_documents == ["rfc6750-txt"]
    named = [hit for hit in result.hits if "named" in hit.ranks]
    assert {hit.path for hit in named} == {"rfc6750.txt"}
    by_title = searcher.search("the JSON Web Token (JWT) spec", k=3)
    assert by_title.named_documents == ["rfc7519-txt"]


def test_heading_figure_and_numeric_routes(searcher):
    heading = searcher.route_heading("What is an access token?")
    assert [searcher.sections[sid][1] for sid in heading] == ["1.4. Access Token"]
    figures = searcher.route_figures("the authorization code flow diagram")
    assert [searcher.sections[sid][1] for sid in figures] == ["4.1. Authorization Code Grant"]
    assert searcher.route_figures("flow") == []  # one shared word is not enough
    numeric = searcher.route_numeric("is 10 minutes the limit?")
    assert [searcher.sections[sid][1] for sid in numeric] == ["4.1.2. Authorization Response"]
    assert searcher.route_numeric("what does RFC 6750 say") == []  # an identifier is not a number


def test_bad_input_gives_a_clear_error_or_results(searcher):
    for empty in ("", "   \n\t"):
        with pytest.raises(SearchError, match="empty query: give words to search for"):
            searcher.search(empty)
    with pytest.raises(SearchError, match="unknown search route"):
        searcher.search("token", routes=("bm25", "magic"))
    huge = searcher.search("bearer token " * 1000, k=3)
    assert huge.truncated and len(huge.query) <= 2000 and huge.warnings == [f"query cut to its first {len(huge.query)} characters (limit 2000)"]
    assert huge.hits[0].heading in {"1.2. Terminology", "2.3. URI Query Parameter"}
    stop = searcher.search("the of and to", k=3)
    assert stop.routes["bm25"] == 0  # nothing lexical; dense may still answer
    for text in ("认证令牌的有效期是多久？", "Как долго действует токен?", "🔑🔑", "\x00 NUL"):
        assert isinstance(searcher.search(text, k=3).hits, list)


def test_run_search_on_a_build_dir_and_the_stage(tmp_path):
    build = tmp_path / "build" / "oauth"
    store = Store(build / "store.sqlite")
    oauth_like_shelf(store)
    name, summary = index_stage(HashEmbedder())(store, build, [d["doc_id"] for d in store.documents()], [], None)
    store.close()
    assert name == "indexes" and summary["vectors"]["passages"] == 8
    result = run_search(build, "bearer token in the URI query", k=3, embedder=HashEmbedder())
    assert result.hits[0].heading == "2.3. URI Query Parameter"
    text = format_result(result)
    assert text.splitlines()[0].startswith("  1. s") and "rfc6750.txt  2.3. URI Query Parameter  [" in text
    with pytest.raises(SearchError, match="run 'shelfwise build"):
        run_search(tmp_path / "nothing-here", "token", embedder=HashEmbedder())


def _identifier_shelf(tmp_path):
    """A small shelf written here: a control register, a regulation with articles, a policy with numbered sections."""
    from search_fixtures import h, p, put_doc

    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "controls.md", "Control Register", [
        h("Access controls"), p("CAL-07 requires quarterly access reviews for every privileged account."),
        h("Change controls"), p("CAL-08 requires two approvers for production changes; see CMP-2026-0016 for the audit."),
        h("Audit findings"), p("Finding CMP-2026-0016: access reviews for privileged accounts were late twice."),
        h("Review cadence"), p("Privileged account access reviews happen quarterly and the review of accounts is logged."),
    ])  # fmt: skip
    put_doc(store, "regulation.md", "Data Regulation", [
        h("Article 31 Cooperation with the authority"), p("Controllers cooperate with the supervisory authority."),
        h("Article 32 Security of processing"), p("Controllers implement measures such as encryption of personal data."),
        h("Article 33 Notification of a breach"), p("Controllers notify a breach; measures referred to in Article 32 apply. "
                                                    "Encryption of personal data makes a breach less severe."),
    ])  # fmt: skip
    put_doc(store, "policy.md", "Retention Policy", [
        h("4 Retention"), p("Records are kept as set out below."),
        h("4.1 Retention periods", 2), p("Invoices are kept for 7 years."),
        h("4.2 Deletion", 2), p("Records past their retention period are deleted within 30 days; retention periods of invoices vary."),
    ])  # fmt: skip
    embedder = HashEmbedder()
    index_shelf(store, tmp_path / "lexical", embedder, [d["doc_id"] for d in store.documents()], [])
    return store, ShelfSearcher(store, tmp_path / "lexical", embedder, identifier_max_sections=2)


def test_exact_identifiers_rank_the_sections_holding_them_first(tmp_path):
    from shelfwise.compiler.search.identifiers import query_identifiers

    assert [(i.text, i.kind) for i in query_identifiers("Does CAL-07 or RFC 6749 §4.1 or Article 32 apply? In 2019, after 30 days")] == [
        ("CAL-07", "code"), ("RFC 6749", "label"), ("§4.1", "section"), ("Article 32", "label")]
    assert query_identifiers("Python 3.10 and v1.2.3 and 42") == [query_identifiers("Python 3.10")[0]]  # a version alone is a number
    store, searcher = _identifier_shelf(tmp_path)
    try:
        result = searcher.search("what do the access reviews of privileged accounts under CAL-07 require?", k=5)
        assert _headings(result)[0] == "Access controls" and result.hits[0].ranks["identifier"] == 1
        finding = searcher.search("what was found in cmp-2026-0016 about access reviews", k=5)
        assert set(_headings(finding)[:2]) == {"Change controls", "Audit findings"} and finding.routes["identifier"] == 2
        article = searcher.search("What does Article 32 say about encryption of personal data?", k=5)
        assert _headings(article)[0] == "Article 32 Security of processing"  # the heading holds it; Article 33 only cites it
        section = searcher.search("How long are invoices kept under Section 4.1?", k=5)
        assert _headings(section)[0] == "4.1 Retention periods"
        plain = searcher.search("access reviews of privileged accounts", k=5)
        assert plain.routes["identifier"] == 0 and "identifier" not in plain.hits[0].ranks
        lifted = {bonus: {h.section_id: h.score for h in searcher.search("What does CAL-07 require?", k=10, weights={
            **ROUTE_WEIGHTS, "identifier_bonus": bonus}).hits} for bonus in (0.0, 0.008, 1.0)}  # a fitted file's bonus is used
        holder = result.hits[0].section_id
        assert lifted[1.0][holder] - lifted[0.0][holder] == pytest.approx(1.0, abs=1e-5)
        assert lifted[0.008][holder] - lifted[0.0][holder] == pytest.approx(0.008, abs=1e-5)
        common = ShelfSearcher(store, tmp_path / "lexical", searcher.embedder, identifier_max_sections=1)
        try:  # held by two sections and the limit is one: too common to single out
            assert common.search("cmp-2026-0016", k=3).routes["identifier"] == 0
        finally:
            common.close()
    finally:
        searcher.close()
        store.close()


def test_narrow_routes_fire_only_on_their_trigger(searcher):
    assert searcher.route_figures("the authorization code flow between client and server") == []  # no figure asked for
    assert searcher.route_figures("which figure shows the authorization code flow") != []
    assert searcher.route_numeric("is 10 the limit?") == []  # a number without a unit is not a quantity
    assert searcher.route_numeric("a 10 minute limit") != []
    assert searcher.route_named("What does RFC 6750 say?", sorted(searcher.documents)) == []  # naming the whole shelf names nothing


def test_a_code_that_names_a_document_is_not_promoted_as_text(tmp_path):
    """'SOP-014' in the question names the document whose title holds it: sections that merely cite it are not put first."""
    from search_fixtures import h, p, put_doc

    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "sop-014.md", "SOP-014 Complaint Handling", [
        h("Closure"), p("Complaints are closed within 30 days of receipt."),
    ])  # fmt: skip
    put_doc(store, "register.md", "Training Register", [
        h("Courses"), p("Staff read SOP-014 before they handle a complaint."),
        h("Audit"), p("CAL-07 was calibrated in May."),
    ])  # fmt: skip
    with searching(store, tmp_path) as searcher:
        named = searcher.search("How fast does SOP-014 say complaints are closed?", k=3)
        assert named.routes["identifier"] == 0 and _headings(named)[0] == "Closure"
        assert searcher.search("When was CAL-07 calibrated?", k=3).routes["identifier"] == 1  # a code in text only: promoted


def test_the_code_route_finds_what_the_lexical_index_cannot_see(tmp_path):
    """':=' and '?=' are no words to BM25: the code route puts the sections writing them first; no token, no route."""
    from search_fixtures import h, p, put_doc

    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "make.md", "Make Notes", [
        h("Flavors"), p("A variable set with := is expanded once, where it is defined."),
        h("Defaults"), p("A variable set with ?= is set only when it has no value yet."),
        h("Assignment"), p("Every assignment operator sets a variable in a makefile; the operators differ."),
        h("Targets"), p("A target names a file to make and the recipe that makes it."),
    ])  # fmt: skip
    with searching(store, tmp_path) as searcher:
        searcher.code_tokens.max_share = 1.0  # four sections: each token is held by one of them
        query = "How do the := and ?= assignment operators differ?"
        assert {searcher.sections[sid][1] for sid in searcher.route_code(query)} == {"Flavors", "Defaults"}
        result = searcher.search(query, k=4)
        words_only = _headings(searcher.search(query, k=4, routes=("bm25", "dense")))
        assert words_only[1] == "Targets"  # BM25 and dense alone: a section with neither operator comes second
        assert result.routes["code"] == 2 and _headings(result)[-1] == "Targets"  # both operators' sections above it
        assert searcher.search("How do the assignment operators differ?", k=4).routes["code"] == 0


def test_documents_named_by_a_short_name_and_read_in_turn(tmp_path):
    """'RAPTOR' and 'Dense X Retrieval' name their papers (file name, title before the colon); the named route then
    takes each document's best section in turn, so the document with weaker words is not left below the fold.
    A lower-case file name ('make.md' and the verb) or a name two documents share names nothing."""
    from search_fixtures import h, p, put_doc

    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "RAPTOR.md", "RAPTOR: Recursive Abstractive Processing", [
        h("Method"), p("Clusters of chunks are summarised into a tree."), h("Results"), p("The tree helps long questions."),
    ])  # fmt: skip
    put_doc(store, "Dense X Retrieval.md", "Dense X Retrieval: What Retrieval Granularity Should We Use?", [
        h("Propositions"), p("Retrieval units are propositions: atomic retrieval units, each a retrieval fact."),
        h("Retrieval units"), p("Passages, sentences and propositions are compared as retrieval units."),
    ])  # fmt: skip
    put_doc(store, "make.md", "Make Notes", [h("Rules"), p("A rule says how to make a target.")])
    put_doc(store, "Guide.md", "Records Retention Guide Notes", [h("Targets"), p("The guide says how to name a target.")])
    put_doc(store, "Guide.txt", "Records Retention Guide Notes", [h("Targets"), p("The older guide says how to name a target.")])
    with searching(store, tmp_path) as searcher:
        query = "Which retrieval units do Dense X Retrieval and RAPTOR index?"
        named = searcher.named_documents(query)
        assert sorted(searcher.documents[d]["path"] for d in named) == ["Dense X Retrieval.md", "RAPTOR.md"]
        ranked = searcher.route_named(query, named)
        paths = [searcher.documents[searcher.sections[sid][0]]["path"] for sid in ranked]
        assert sorted(paths[:2]) == ["Dense X Retrieval.md", "RAPTOR.md"]  # one of each first, then the next of each
        assert searcher.named_documents("How do I make a target, as the Guide says?") == []
        assert searcher.named_documents("What do the Records Retention Guide Notes say?") == []  # full title, two documents


def test_a_heading_that_is_its_documents_title_names_no_section(tmp_path):
    from search_fixtures import h, p, put_doc

    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "top10-2017.md", "OWASP Top 10 2017", [
        h("OWASP Top 10 2017"), p("Cover."), h("Release Notes"), p("What changed from 2013 to 2017."),
    ])  # fmt: skip
    put_doc(store, "other.md", "Other", [h("Data Call Notes"), p("How the data call ran.")])
    with searching(store, tmp_path) as searcher:
        assert searcher.route_heading("What changed in the OWASP Top 10 2017 release notes?") == [
            sid for sid, row in searcher.sections.items() if row[1] == "Release Notes"
        ]
        assert [searcher.sections[s][1] for s in searcher.route_heading("the data call notes")] == ["Data Call Notes"]


def test_a_heading_that_is_a_phrase_of_its_documents_title_names_no_section(tmp_path):
    """"Under the HIPAA Security Rule, what is the difference between ...": the guide's section "2.1. HIPAA Security Rule"
    names the guide's subject, as its title does; the heading route put it first over the section that answers. A
    heading whose words are a phrase of its own document's title is skipped, the same heading in another document is not."""
    from search_fixtures import h, p, put_doc

    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "guide.md", "An Introductory Resource Guide for Implementing the HIPAA Security Rule", [
        h("2.1. HIPAA Security Rule"), p("The rule protects electronic health information."),
        h("2.1.2. Security Rule Organization"), p("Each standard is required; specifications are required or addressable."),
    ])  # fmt: skip
    put_doc(store, "faq.md", "Compliance FAQ", [h("HIPAA Security Rule"), p("Questions about the rule.")])
    with searching(store, tmp_path) as searcher:
        found = searcher.route_heading("Under the HIPAA Security Rule, what does the security rule organization say?")
        assert [(searcher.documents[searcher.sections[s][0]]["path"], searcher.sections[s][1]) for s in found] == [
            ("guide.md", "2.1.2. Security Rule Organization"), ("faq.md", "HIPAA Security Rule")]


def test_a_table_number_counts_within_the_document_the_query_names(tmp_path):
    """Every paper has its own Table 1: 'Table 1' alone singles out nothing; 'RAPTOR's Table 1' is RAPTOR's."""
    from shelfwise.compiler.search.identifiers import query_identifiers
    from search_fixtures import h, p, put_doc

    assert [(i.text, i.kind) for i in query_identifiers("What does Table 1 of RAPTOR show, and Fig. 2?")] == [("Table 1", "float"), ("Fig 2", "float")]
    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "RAPTOR.md", "RAPTOR: Tree Retrieval", [h("Results"), p("Table 1 compares tree retrieval with flat retrieval.")])
    put_doc(store, "HyDE.md", "HyDE: Hypothetical Documents", [h("Results"), p("Table 1 lists the zero-shot scores.")])
    with searching(store, tmp_path) as searcher:
        assert searcher.search("What does Table 1 show about scores?", k=2).routes["identifier"] == 0
        named = searcher.search("What does the Table 1 of RAPTOR show about scores?", k=2)
        assert named.routes["identifier"] == 1 and named.hits[0].path == "RAPTOR.md"


def test_a_table_number_is_held_first_by_the_section_its_caption_stands_in(tmp_path):
    """'Table 1' of a named paper: the section holding the table ("Table 1: ..." opening a line) is put first;
    sections that only mention it ("as Table 1 shows") are left to the fusion."""
    from search_fixtures import h, p, put_doc

    store = Store(tmp_path / "store.sqlite")
    put_doc(store, "RAPTOR.md", "RAPTOR: Tree Retrieval", [
        h("Results"), p("As Table 1 shows, tree retrieval beats flat retrieval on every dataset; Table 1 also gives the cost."),
        h("Setup"), p("We index three datasets."), p("Table 1: Accuracy and cost of tree and flat retrieval."),
        h("Appendix"), p("See Table 1.2 for the per-dataset cost of retrieval."),
    ])  # fmt: skip
    with searching(store, tmp_path) as searcher:
        result = searcher.search("What does Table 1 of RAPTOR show about the cost of tree retrieval?", k=3)
        assert result.routes["identifier"] == 1 and result.hits[0].heading == "Setup"


def test_the_dense_route_embeds_the_query_without_the_names_of_its_named_documents(searcher):
    from shelfwise.compiler.search.document_names import strip_document_names

    keys = {"pep-484", "sp-800-63-3"}
    assert strip_document_names("What did PEP 484 say, and what RFC 2119 word does SP 800-63 use?", keys) == (
        "What did say, and what RFC 2119 word does use?"  # RFC 2119 names no document given: it stays
    )
    assert strip_document_names("PEP 484", keys) == "PEP 484"  # nothing would be left: the query stays whole
    query = "What does RFC 6750 say about the URI query parameter?"
    assert searcher.without_names(query, searcher.named_documents(query)) == "What does say about the URI query parameter?"
    assert searcher.without_names(query, []) == query


def test_the_named_route_counts_more_when_the_dense_route_is_not_given_the_documents_identifier(searcher):
    from shelfwise.compiler.search.search import HAND_SET_ROUTE_WEIGHTS

    hand = dict(HAND_SET_ROUTE_WEIGHTS)  # the named route fused, with the hand-set handover (a fitted file may fuse neither)

    def fused(hit, named_weight):
        weights = {**hand, "named": named_weight}
        return sum(weights[route] / (60 + rank) for route, rank in hit.ranks.items() if route in weights and weights[route] > 0)

    query = "What does RFC 6750 say about the URI query parameter?"
    by_number = searcher.search(query, k=3, weights=hand).hits[0]
    assert "named" in by_number.ranks
    assert by_number.score == pytest.approx(fused(by_number, hand["named"] + hand["named_handover"]), abs=1e-6)
    plain = searcher.search(query, k=3, weights={**hand, "named_handover": 0.0}).hits[0]
    assert plain.score == pytest.approx(fused(plain, hand["named"]), abs=1e-6)  # no handover: the named route's own weight
    unfused = searcher.search(query, k=5, weights={**hand, "named": 0.0})
    assert unfused.named_documents and all(h.score == pytest.approx(fused(h, 0.0), abs=1e-6) for h in unfused.hits)
    whole = {h.section_id: h.ranks["dense"] for h in searcher.search(query, k=20, routes=("dense",), weights={"dense": 1.0}).hits}
    dense_ranks = lambda result: {h.section_id: h.ranks["dense"] for h in result.hits if "dense" in h.ranks}  # noqa: E731
    assert dense_ranks(searcher.search(query, k=20, weights={**hand, "named": 0.0})).items() <= whole.items()  # unfused: the whole query
    assert not dense_ranks(searcher.search(query, k=20, weights=hand)).items() <= whole.items()  # fused: the query without its name
    by_title = searcher.search("What does the JSON Web Token (JWT) spec say about the exp claim?", k=3, weights=hand).hits[0]
    assert "named" in by_title.ranks  # named by its title: the dense route still sees the name
    assert by_title.score == pytest.approx(fused(by_title, hand["named"]), abs=1e-6)


