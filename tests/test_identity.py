"""Document identity: who and when a document is, from its cover page, file name and title, compiled once into the
store and used by the site, the API, answers and the planner; and questions that name an issuer and a period bound to
those documents."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from litestar.testing import TestClient

from shelfwise.api.answer.plan.plan import plan_by_rules
from shelfwise.api.server.app import create_app
from shelfwise.compiler.build import build_shelf
from shelfwise.compiler.store.records import IDENTITY_RULES, DocumentIdentity
from shelfwise.compiler.digests.identity import bad_title
from shelfwise.compiler.digests.identity_match import IdentityMatch
from shelfwise.compiler.index.indexes import index_stage
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.store.store import Store, sqlite3
from tests.answer_shelves import HashEmbedder
from conftest import WIDGET_TEXI

FILINGS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "filings"


def _pdf(path: Path, title: str, pages: list[list[tuple[str, str]]]) -> Path:
    """A real PDF (reportlab) with ``title`` in its metadata; each page a list of (style, text)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(title)
    for page in pages:
        y = 800
        for style, text in page:
            font, size = {"h1": ("Helvetica-Bold", 18), "p": ("Helvetica", 10)}[style]
            c.setFont(font, size)
            c.drawString(60, y, text)
            y -= size * 2
        c.showPage()
    c.save()
    return path


def _annual(year: int) -> list[list[tuple[str, str]]]:
    return [
        [("h1", "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"), ("h1", "FORM 10-K"),
         ("p", "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934"),
         ("p", f"For the fiscal year ended December 31, {year}"), ("h1", "EXAMPLE WIDGETS CORP."),
         ("p", "(Exact name of registrant as specified in its charter)"), ("p", "Common Stock EXW Nasdaq")],
        [("h1", "Item 7. Results of Operations"), ("p", f"Net sales were {1000 + year - 2000} million dollars in {year}.")],
    ]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A shelf of two annual reports whose metadata titles are an accession number and a date with a form code, a
    handbook whose metadata title is a scanner's file name, and a Markdown policy with a good title."""
    root = tmp_path_factory.mktemp("identity")
    shelf = root / "reports"
    shelf.mkdir()
    _pdf(shelf / "2023 Q4 EXW.pdf", "0000999999-24-000012", _annual(2023))
    _pdf(shelf / "2022 Q4 EXW.pdf", "12.31.2022 10K Document", _annual(2022))
    _pdf(shelf / "handbook.pdf", "DOC_20240301_0042", [
        [("h1", "Field Service Handbook"), ("p", "Effective date: March 1, 2024"), ("p", "Prepared for field technicians.")],
        [("h1", "1 Safety"), ("p", "Technicians wear gloves when opening a pump housing.")]])
    (shelf / "policy.md").write_text("# Travel Policy\n\n## Fares\n\nEconomy fares are booked for trips under six hours.\n",
                                     encoding="utf-8")
    settings = Settings(build_dir=root / "build")
    report = build_shelf(shelf, settings, progress=lambda line: None, stages=[index_stage(HashEmbedder())])
    assert not report.failed, report.render()
    assert report.stages["identity"] == {"documents": 4, "named_by_issuer": 2, "rules": IDENTITY_RULES}
    return root / "build" / report.shelf


def _identities(built: Path) -> dict[str, DocumentIdentity]:
    store = Store(built / "store.sqlite", create=False)
    try:
        return store.identities()
    finally:
        store.close()


def test_a_report_is_named_by_its_issuer_form_and_period_read_from_its_cover_page(built):
    report = _identities(built)["2023-q4-exw-pdf"]
    assert report.name == "Example Widgets Corp. 10-K, fiscal year ended December 31, 2023"
    assert (report.issuer, report.form, report.period_kind, report.period_end, report.fiscal_quarter) == \
        ("Example Widgets Corp.", "10-K", "fiscal year", "2023-12-31", "Q4 2023")
    assert report.aliases == ["Example Widgets", "EXW"]
    assert report.sources == {"form": "cover page", "period": "cover page", "fiscal_quarter": "file name", "issuer": "cover page",
                              "aliases": "file name and cover page", "title": "cover page", "name": "issuer, form and period"}
    assert report.title == "Example Widgets Corp. 10-K"  # the accession number is no title
    older = _identities(built)["2022-q4-exw-pdf"]
    assert older.name == "Example Widgets Corp. 10-K, fiscal year ended December 31, 2022"


def test_an_artefact_title_gives_way_to_the_cover_heading_and_a_good_title_stays(built):
    identities = _identities(built)
    handbook = identities["handbook-pdf"]
    assert (handbook.name, handbook.title, handbook.sources["title"]) == ("Field Service Handbook", "Field Service Handbook", "cover page")
    assert (handbook.period, handbook.period_end, handbook.issuer) == ("effective March 1, 2024", "2024-03-01", "")
    policy = identities["policy-md"]
    assert (policy.name, policy.issuer, policy.form, policy.period) == ("Travel Policy", "", "", "")


def test_the_stored_title_is_kept_so_nothing_is_reconverted_or_re_embedded(built):
    store = Store(built / "store.sqlite", create=False)
    try:
        rows = {row["doc_id"]: row for row in store.documents()}
    finally:
        store.close()
    assert rows["2023-q4-exw-pdf"]["title"] == "0000999999-24-000012"
    assert rows["2023-q4-exw-pdf"]["name"] == "Example Widgets Corp. 10-K, fiscal year ended December 31, 2023"


def test_a_store_compiled_before_identities_gets_them_on_rebuild_without_reconverting_or_embedding(tmp_path):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    _pdf(shelf / "2023 Q4 EXW.pdf", "0000999999-24-000012", _annual(2023))
    settings = Settings(build_dir=tmp_path / "build")
    stages = [index_stage(HashEmbedder())]
    build_shelf(shelf, settings, progress=lambda line: None, stages=stages)
    old = sqlite3.connect(str((tmp_path / "build" / "shelf" / "store.sqlite").resolve()))  # as schema 4 left it
    old.execute("DROP TABLE identities")
    old.execute("PRAGMA user_version = 4")
    old.commit()
    old.close()
    again = build_shelf(shelf, settings, progress=lambda line: None, stages=stages)
    assert again.migrated == ["identities"] and [d.status for d in again.documents] == ["unchanged"]
    assert again.stages["identity"]["documents"] == 1
    assert again.stages["indexes"]["vectors"]["embedded"] == 0 and again.stages["indexes"]["lexical_documents"] == 0
    assert _identities(tmp_path / "build" / "shelf")["2023-q4-exw-pdf"].name.startswith("Example Widgets Corp. 10-K")
    assert build_shelf(shelf, settings, progress=lambda line: None, stages=stages).stages["identity"]["documents"] == 0


def test_the_api_and_answers_name_the_document_and_the_question_binds_the_newest_report(built, tmp_path):
    settings = Settings.model_validate({"api": {"trace_db": str(tmp_path / "traces.sqlite"),
                                                "tokens": [{"name": "reader", "token": "reader-secret", "shelves": ["reports"]}]}})
    with TestClient(create_app(settings, chat=None, embedder=HashEmbedder(), stores={"reports": built})) as client:
        client.headers["Authorization"] = "Bearer reader-secret"
        hits = client.get("/api/search?shelf=reports&q=net+sales").json()["hits"]
        assert {h["title"] for h in hits if h["doc_id"].endswith("exw-pdf")} == {
            "Example Widgets Corp. 10-K, fiscal year ended December 31, 2023", "Example Widgets Corp. 10-K, fiscal year ended December 31, 2022"}
        body = client.post("/api/ask", json={"question": "What were Example Widgets' net sales in the most recent 10-K?",
                                             "shelf": "reports"}).json()
        plan = client.get(f"/api/answers/{body['trace_id']}").json()["plan"]
        assert [o["documents"] for o in plan["obligations"]] == [["2023-q4-exw-pdf"]]  # bound as an identifier binds
        first = body["sentences"][0]
        assert (first["text"], first["source"]) == ("Net sales were 1023 million dollars in 2023.",
                                                    "Example Widgets Corp. 10-K, fiscal year ended December 31, 2023")
        assert body["answer_markdown"].startswith("**Example Widgets Corp. 10-K, fiscal year ended December 31, 2023:** Net sales were 1023")
        assert body["sources"][0]["title"] == "Example Widgets Corp. 10-K, fiscal year ended December 31, 2023"
        assert "0000999999" not in json.dumps(body)
        section = client.get(f"/api/sections/{body['sources'][0]['section_id']}?shelf=reports").json()
        assert section["title"] == "Example Widgets Corp. 10-K, fiscal year ended December 31, 2023"


def test_a_real_filings_cover_page_names_it(tmp_path):
    """The first page of a real 10-Q (its metadata title an SEC accession number, lost with the other pages)."""
    source = FILINGS / "2023 Q3 AAPL.pdf"
    if not source.exists():
        pytest.skip("the filings corpus is not checked out beside the repository")
    import pypdfium2 as pdfium

    shelf = tmp_path / "filings"
    shelf.mkdir()
    whole = pdfium.PdfDocument(str(source))
    first = pdfium.PdfDocument.new()
    first.import_pages(whole, [0])
    first.save(str(shelf / source.name))
    report = build_shelf(shelf, Settings(build_dir=tmp_path / "build"), progress=lambda line: None, stages=[])
    identity = _identities(tmp_path / "build" / report.shelf)["2023-q3-aapl-pdf"]
    assert identity.name == "Apple Inc. 10-Q, quarter ended July 1, 2023"
    assert (identity.fiscal_quarter, identity.aliases) == ("Q3 2023", ["Apple", "AAPL"])


def _filing(doc_id: str, issuer: str, aliases: list[str], end: str, quarter: str) -> DocumentIdentity:
    return DocumentIdentity(doc_id=doc_id, name=f"{issuer} 10-Q", title=f"{issuer} 10-Q", issuer=issuer, form="10-Q",
                            period_kind="quarter", period_end=end, fiscal_quarter=quarter, aliases=aliases)


FILED = {
    "2023-q2-aapl": _filing("2023-q2-aapl", "Apple Inc.", ["Apple", "AAPL"], "2023-04-01", "Q2 2023"),
    "2023-q3-aapl": _filing("2023-q3-aapl", "Apple Inc.", ["Apple", "AAPL"], "2023-07-01", "Q3 2023"),
    "2023-q1-intc": _filing("2023-q1-intc", "Intel Corporation", ["Intel", "INTC"], "2023-04-01", "Q1 2023"),
    "2023-q3-intc": _filing("2023-q3-intc", "Intel Corporation", ["Intel", "INTC"], "2023-09-30", "Q3 2023"),
    "handbook": DocumentIdentity(doc_id="handbook", name="Field Service Handbook", title="Field Service Handbook",
                                 period_kind="effective", period_end="2024-03-01", period="effective March 1, 2024"),
}


@pytest.mark.parametrize("question, bound", [
    ("What did Apple's Q3 2023 10-Q say about services revenue?", {"2023-q3-aapl"}),
    ("What was Apple's revenue in the third quarter of 2023?", {"2023-q3-aapl"}),
    ("What was Intel's gross margin in its most recent 10-Q?", {"2023-q3-intc"}),
    ("What was reported for the quarter ended April 1, 2023?", {"2023-q2-aapl", "2023-q1-intc"}),
    ("What does the most recent filing say about risk factors?", {"2023-q3-aapl", "2023-q3-intc"}),
    ("How has Apple's net income changed over time?", {"2023-q2-aapl", "2023-q3-aapl"}),
    ("How do Apple's R&D costs in the most recent quarter compare to previous quarters?", {"2023-q2-aapl", "2023-q3-aapl"}),
    ("What changed in the latest revision of the handbook?", set()),  # a recency word binds only issued forms
    ("What are the current liabilities?", set()),
    ("Which apple varieties grow in cold climates?", set()),  # the name is written with its capital
    # the named issuer compared with the others: every issuer's documents of that period
    ("How does Apple's revenue in Q3 2023 compare with its peers?", {"2023-q3-aapl", "2023-q3-intc"}),
    ("How does Apple's gross margin in its most recent 10-Q compare with the other companies' margins?", {"2023-q3-aapl", "2023-q3-intc"}),
])
def test_questions_that_name_an_issuer_and_a_period_bind_those_documents(question, bound):
    assert IdentityMatch(FILED).find(question) == bound


@pytest.mark.parametrize("question, pool", [
    ("What were Apple's total net sales in the quarter ended September 30, 2023?", {"2023-q2-aapl", "2023-q3-aapl"}),
    ("What was Intel's revenue in the fourth quarter of 2022?", {"2023-q1-intc", "2023-q3-intc"}),
    ("What was Apple's revenue in the third quarter of 2023?", set()),  # held
    ("Is the analyzer still within its calibration interval on 1 August 2026?", {"2023-q2-aapl", "2023-q3-aapl", "2023-q1-intc",
                                                                              "2023-q3-intc"}),
    ("How has Apple's net income changed over time?", set()),  # no period asked
])
def test_a_period_no_document_reports_gives_the_documents_that_report_periods(question, pool):
    """The documents a question would have named had the shelf held the period it asks about: the named issuer's, or
    every one reporting a period; never the handbook, which takes effect on a day and reports no period."""
    assert IdentityMatch(FILED).without_period(question) == pool


@pytest.mark.parametrize("question, naming", [
    ("What revenue did Intel report from its semiconductor sales in the most recent quarter?", ["most recent quarter"]),
    # the longest first: the form taken out first left "latest" of "latest 10-Q" a word to find
    ("In Intel's latest 10-Q, how does revenue compare with costs?", ["latest 10-Q", "10-Q"]),
    # the issuer and a period the question writes stay words to find: a filing's sentences name them beside their figures
    ("What cash flows from operations were disclosed by Apple in the Q3 2023 10-Q?", ["10-Q"]),
    # the newest compared with the ones before it binds them all: the recency word chooses none
    ("How do Apple's R&D costs in the most recent quarter compare to previous quarters?", []),
    ("What are the current liabilities?", []),  # binds nothing: its words are all to find
    ("What is the most recent revision of the handbook?", []),
])
def test_the_words_choosing_among_documents_are_told_from_what_is_asked(question, naming):
    """What ``rank`` leaves out of a part's words: the form and "the most recent quarter" say which filing to read."""
    assert IdentityMatch(FILED).naming_words(question) == naming


def test_a_part_bound_by_the_question_says_which_documents_by_its_form():
    """"What legal proceedings or contingencies are disclosed in these 10-Qs" (of "..., and how might they impact
    Apple?") binds nothing alone, but the question bound it to Apple's filings: its "10-Qs" says which documents, and
    left as words to find, "10" and the rare "qs" ranked a certification ("I have reviewed this quarterly report on Form
    10-Q of Apple Inc.") as the best unit of a report nothing else was picked from."""
    part = "What legal proceedings or contingencies are disclosed in these 10-Qs"
    assert IdentityMatch(FILED).naming_words(part) == []
    assert IdentityMatch(FILED).naming_words(part, bound=True) == ["10-Qs"]
    assert IdentityMatch(FILED).naming_words("What are the current liabilities?", bound=True) == []


def test_the_rule_planner_binds_every_part_to_what_the_whole_question_names():
    documents = {d: i.name for d, i in FILED.items()}
    plan = plan_by_rules("In the first quarter of 2023, how much did Intel spend on research, and what was the focus of it?",
                         [], documents, [], [], [], FILED)
    assert [o.documents for o in plan.obligations] == [["2023-q1-intc"], ["2023-q1-intc"]]
    assert plan_by_rules("What did Apple's Q3 2023 10-Q say?", [], documents, [], [], []).obligations[0].documents == []


@pytest.mark.parametrize("title, path, bad", [
    ("0000320193-23-000006", "2023 Q1 AAPL.pdf", True), ("04.01.2023 10Q Document", "2023 Q1 INTC.pdf", True),
    ("report_final_v2.docx", "report.docx", True), ("Top10Mapping", "Top10Mapping.xlsx", True),
    ("10-Q - 10/27/2023 - Intel Corporation", "2023 Q3 INTC.pdf", False), ("RAFT", "RAFT.pdf", False),
    ("OWASP Top 10 2020 Data Analysis Plan", "OWASP Top 10 2020 Data Analysis Plan.docx", False), ("GNU Make", "make.pdf", False),
])
def test_identifier_and_artefact_titles_are_told_from_names(title, path, bad):
    assert bad_title(title, path) is bad


def test_the_site_names_the_document_by_its_identity(tmp_path):
    from shelfwise.compiler.publish.site import site_stage

    shelf = tmp_path / "reports"
    shelf.mkdir()
    _pdf(shelf / "2023 Q4 EXW.pdf", "0000999999-24-000012", _annual(2023))
    settings = Settings(build_dir=tmp_path / "build")
    report = build_shelf(shelf, settings, progress=lambda line: None, stages=[site_stage(settings, shelf)])
    assert not report.failed, report.render()
    site = tmp_path / "build" / "reports" / "site"
    name = "Example Widgets Corp. 10-K, fiscal year ended December 31, 2023"
    page = (site / "documents" / "2023-q4-exw-pdf.html").read_text(encoding="utf-8")
    assert f"<title>{name} - reports</title>" in page and re.search(rf'<h1 id="s[0-9a-f]+">{re.escape(name)}\b', page)
    assert "0000999999" not in page
    assert f"- [{name}](documents/2023-q4-exw-pdf.html): 2023 Q4 EXW.pdf" in (site / "llms.txt").read_text(encoding="utf-8")


def _identify(title: str, path: str, lines: list[tuple[str, str]]) -> DocumentIdentity:
    from shelfwise.compiler.digests.identity import identify
    from shelfwise.compiler.ingest.sections import build_sections
    from shelfwise.compiler.store.records import Converted, Element

    elements = [Element(kind="heading" if kind == "h" else "paragraph", text=text, level=1 if kind == "h" else None, page=1)
                for kind, text in lines]
    sections, _ = build_sections("doc", Converted(title=title, elements=elements, pages=1, reader="test", reader_version="1"))
    return identify("doc", title, path, sections)


def test_a_company_on_a_cover_is_its_issuer_only_in_a_document_that_names_a_form_or_a_period():
    paper = _identify("Dense Passage Retrieval", "dpr.pdf", [("h", "Dense Passage Retrieval"), ("p", "Jane Roe"), ("p", "Example Labs Inc."),
                                                              ("p", "We show that retrieval can be learned.")])
    assert (paper.name, paper.issuer, paper.form, paper.period) == ("Dense Passage Retrieval", "", "", "")
    statement = _identify("Q2 statement", "statement.pdf", [("h", "ACME HOLDINGS AG"), ("p", "Interim statement"),
                                                            ("p", "For the six months ended 30 June 2024")])
    assert (statement.issuer, statement.period, statement.sources["issuer"]) == ("Acme Holdings AG", "six months ended June 30, 2024", "cover page")
    assert statement.name == "Q2 statement"  # no form: the title stays the name


def test_every_section_is_searched_by_its_documents_identity(built):
    """The lexical title field holds the identity (name, fiscal quarter, aliases): "EXW Q4 2023" finds the 2023
    report's sections though no section text says so, and not the 2022 report's first."""
    from shelfwise.compiler.index.indexes import search_title
    from shelfwise.compiler.index.lexical import LexicalIndex

    report = _identities(built)["2023-q4-exw-pdf"]
    assert search_title("0000999999-24-000012", report) == (
        "0000999999-24-000012 Example Widgets Corp. 10-K, fiscal year ended December 31, 2023 Example Widgets Corp. 10-K "
        "Q4 2023 Example Widgets EXW")
    assert search_title("Travel Policy", None) == "Travel Policy"
    index = LexicalIndex(sorted(built.glob("generations/*/lexical"))[-1])
    try:
        hits = index.search("EXW Q4 2023", fields={"title": 1.0})
    finally:
        index.close()
    assert hits and all(sid for sid, _ in hits)
    store = Store(built / "store.sqlite", create=False)
    try:
        assert store.section(hits[0][0]).doc_id == "2023-q4-exw-pdf"
    finally:
        store.close()


def _quarterly(issuer: str, ticker: str, initiative: str) -> list[list[tuple[str, str]]]:
    return [
        [("h1", "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"), ("h1", "FORM 10-Q"),
         ("p", "QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934"),
         ("p", "For the quarterly period ended April 1, 2023"), ("h1", issuer),
         ("p", "(Exact name of registrant as specified in its charter)"), ("p", f"Common Stock {ticker} Nasdaq")],
        [("h1", "Item 2. Management's Discussion and Analysis"),
         ("p", f"Research and development spending in Q1 2023 prioritized our {initiative} initiatives."),
         ("p", "Our sustainability initiatives may be unsuccessful for a variety of reasons.")],
    ]


def test_a_question_naming_an_issuer_is_answered_from_that_issuers_documents_only(tmp_path):
    """Two companies' 10-Qs say the same words about their own initiatives: a question naming one company ("Example
    Widgets") shows none of the other's sentences; a question naming neither may show both, and so may one comparing the
    company it names with its peers."""
    shelf = tmp_path / "filings"
    shelf.mkdir()
    _pdf(shelf / "2023 Q1 EXW.pdf", "0000999999-23-000001", _quarterly("EXAMPLE WIDGETS CORP.", "EXW", "foundry"))
    _pdf(shelf / "2023 Q1 NWG.pdf", "0000888888-23-000001", _quarterly("NORTHWIND GADGETS INC.", "NWG", "retail"))
    settings = Settings.model_validate({"build_dir": str(tmp_path / "build"), "api": {
        "trace_db": str(tmp_path / "traces.sqlite"), "tokens": [{"name": "reader", "token": "reader-secret", "shelves": ["filings"]}]}})
    report = build_shelf(shelf, settings, progress=lambda line: None, stages=[index_stage(HashEmbedder())])
    assert not report.failed and report.stages["identity"]["named_by_issuer"] == 2, report.render()
    with TestClient(create_app(settings, chat=None, embedder=HashEmbedder(), stores={"filings": tmp_path / "build" / "filings"})) as client:
        client.headers["Authorization"] = "Bearer reader-secret"

        def sources(question: str) -> set[str]:
            body = client.post("/api/ask", json={"question": question, "shelf": "filings"}).json()
            return {s["source"] for s in body["sentences"] if s["citations"]}

        named = sources("Which initiatives did Example Widgets' research and development spending prioritize in Q1 2023?")
        assert named and all(s.startswith("Example Widgets Corp.") for s in named), named
        both = sources("Which initiatives did research and development spending prioritize in Q1 2023?")
        assert any(s.startswith("Northwind Gadgets") for s in both) and any(s.startswith("Example Widgets") for s in both), both
        peers = sources("Which initiatives did Example Widgets' research and development spending prioritize in Q1 2023, against its peers?")
        assert any(s.startswith("Northwind Gadgets") for s in peers) and any(s.startswith("Example Widgets") for s in peers), peers


def test_a_question_naming_the_most_recent_quarter_is_answered_by_what_it_asks_not_by_its_naming_words(tmp_path):
    """"What revenue did Example Widgets report in the most recent quarter?": "the most recent quarter" says which 10-Q to
    read; a certification's "based on our most recent evaluation" and "during the most recent quarter" share those words
    and say nothing of revenue. The revenue sentence ranks above both (below them when those words counted)."""
    from shelfwise.api.answer.read.read import ReadSection, Reading
    from shelfwise.api.answer.write.pool import build_pool
    from shelfwise.api.answer.write.rank import score_units
    from shelfwise.api.answer.write.write import section_units
    from shelfwise.api.shelves import open_shelves

    shelf = tmp_path / "filings"
    shelf.mkdir()
    pages = _quarterly("EXAMPLE WIDGETS CORP.", "EXW", "foundry")
    pages[1] += [("p", "Example Widgets designs and sells widgets to distributors."),
                 ("p", "Total revenue was $14.2 billion, down $1.2 billion from Q1 2022."),
                 ("p", "Example Widgets expects demand to recover in the second half.")]
    pages.append([("h1", "Certification"), ("p", "1. I have reviewed this quarterly report on Form 10-Q of Example Widgets Corp.;"),
                  ("p", "2. The other certifying officers and I have disclosed, based on our most recent evaluation, any fraud;"),
                  ("p", "3. Any change in internal control over financial reporting during the most recent quarter was disclosed.")])
    _pdf(shelf / "2023 Q1 EXW.pdf", "0000999999-23-000001", pages)
    settings = Settings(build_dir=tmp_path / "build")
    report = build_shelf(shelf, settings, progress=lambda line: None, stages=[index_stage(HashEmbedder())])
    assert not report.failed and report.stages["identity"]["named_by_issuer"] == 1, report.render()
    opened = open_shelves({"filings": tmp_path / "build" / "filings"}, HashEmbedder())["filings"]
    sections = [ReadSection(shelf="filings", section_id=sid, doc_id=opened.sections[sid].doc_id, chars=opened.chars(sid), why="whole scope")
                for doc in opened.doc_order() for sid in opened.doc_sections[doc]]
    reading = Reading(budget=400_000, scope_chars=1, whole_scope=True, chars_read=1, sections=sections, not_opened=[])
    documents = {d: i.name for d, i in opened.identities.items()}
    plan = plan_by_rules("What revenue did Example Widgets report in the most recent quarter?", [], documents, [], [], [], opened.identities)
    assert plan.obligations[0].documents == ["2023-q1-exw-pdf"]
    pool = build_pool(reading, {"filings": opened}, section_units)
    ((query, scored),) = score_units(plan, pool)
    assert "revenu" in query and not {"most", "recent", "quarter"} & query.keys(), query
    ranked = [pool.units[i].text for _, _, _, i in scored]
    revenue = ranked.index("Total revenue was $14.2 billion, down $1.2 billion from Q1 2022.")
    assert all(revenue < i for i, text in enumerate(ranked) if "most recent" in text), ranked
    # named with the form ("its most recent 10-Q"), the recency words are no words to find either
    plan = plan_by_rules("What revenue did Example Widgets report in its most recent 10-Q?", [], documents, [], [], [], opened.identities)
    ((query, scored),) = score_units(plan, build_pool(reading, {"filings": opened}, section_units))
    assert "revenu" in query and not {"most", "recent"} & query.keys(), query


def test_two_editions_of_one_manual_are_named_by_edition_and_two_revisions_of_a_policy_by_revision(tmp_path):
    """A manual kept as two files of one title (an older PDF, a newer Texinfo source) says which edition each is in
    its front matter: the PDF on its copyright page (its third page, after a blank first page), the Texinfo source in
    its @copying notice. Each is named by its edition and the two are one series, the later edition after the earlier,
    both current (a manual's editions stand side by side). Two revisions of a policy of one title, each saying its
    revision on its cover, are one series too, and the newer revision supersedes the older: an answer quoting the older
    says what superseded it. A field naming another thing's version ("Python-Version: 3.5") is no revision."""
    from shelfwise.api.currency import doc_label, superseded_documents, superseded_prefix
    from shelfwise.api.shelves import open_shelves
    from shelfwise.compiler.build import links_stage
    from shelfwise.compiler.links.linking import link_rows

    shelf = tmp_path / "manuals"
    shelf.mkdir()
    _pdf(shelf / "widget.pdf", "Widget Manual", [
        [("h1", "Widget Manual")], [],
        [("p", "This is Edition 2.1, last updated 3 May 2021, of The Widget Manual, for Widget version 4.0.")],
        [("h1", "1 Overview"), ("p", "Widgets turn when the crank is wound.")]])
    (shelf / "widget.texi").write_text(WIDGET_TEXI, encoding="utf-8")
    for name, rev, fare in (("travel-2024.md", "B", "Economy"), ("travel-2025.md", "C", "Premium economy")):
        (shelf / name).write_text(f"# Travel Policy\n\nRev {rev}\n\n## Fares\n\n{fare} fares are booked for long trips.\n",
                                  encoding="utf-8")
    (shelf / "hints.md").write_text("# Type Hints\n\nPython-Version: 3.5\n\n## Rationale\n\nHints are optional.\n", encoding="utf-8")
    settings = Settings(build_dir=tmp_path / "build")
    report = build_shelf(shelf, settings, progress=lambda line: None, stages=[index_stage(HashEmbedder()), links_stage()])
    assert not report.failed, report.render()
    built = tmp_path / "build" / "manuals"
    found = _identities(built)
    assert {d: (i.name, i.label, i.revision, i.sources.get("revision")) for d, i in found.items()} == {
        "widget-pdf": ("Widget Manual Edition 2.1", "Widget Manual Edition 2.1", "Edition 2.1", "front matter"),
        "widget-texi": ("Widget Manual Edition 2.3", "Widget Manual Edition 2.3", "Edition 2.3", "front matter"),
        "travel-2024-md": ("Travel Policy Rev B", "Travel Policy Rev B", "Rev B", "cover page"),
        "travel-2025-md": ("Travel Policy Rev C", "Travel Policy Rev C", "Rev C", "cover page"),
        "hints-md": ("Type Hints", "Type Hints", "", None)}
    store = Store(built / "store.sqlite", create=False)
    try:
        series = sorted((l["src_doc"], l["dst_doc"], l["reason"]) for l in link_rows(store) if l["kind"] == "same_series")
    finally:
        store.close()
    assert series == [("travel-2025-md", "travel-2024-md", "Rev C is newer than Rev B"),
                      ("widget-texi", "widget-pdf", "Edition 2.3 is a later edition than Edition 2.1")]
    opened = open_shelves({"manuals": built}, HashEmbedder())["manuals"]
    assert superseded_documents(opened) == {"travel-2024-md": "travel-2025-md"}
    assert superseded_prefix(doc_label(opened, "travel-2024-md"), doc_label(opened, "travel-2025-md")) == (
        "Travel Policy Rev B (superseded by Rev C) said:")
    assert superseded_prefix(doc_label(opened, "widget-pdf"), doc_label(opened, "widget-texi")) == (
        "Widget Manual Edition 2.1 (superseded by Edition 2.3) said:")  # where a later edition says it supersedes one
