"""Compare versions: small DOCX and Markdown pairs compiled with the real build, the CLI, POST /api/compare, the demo shelf."""

from __future__ import annotations

from pathlib import Path

import pytest
from litestar.testing import TestClient

from answer_shelves import DEMO, HashEmbedder, compile_shelf
from shelfwise.api.server.app import create_app
from shelfwise.compiler.build import build_shelf, links_stage
from shelfwise.compiler.cli.main import main
from shelfwise.compiler.compare import DocView, compare_batch, compare_documents, compare_pair, links_from_store, pair_documents, views_from_store
from shelfwise.compiler.compare.values import difference, parse_value, same_value
from shelfwise.compiler.store.records import Block, Section
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.store.store import Store
from conftest import write_docx, write_pdf

INVOICE_A = [["Supplier", "Harbor Supplies Ltd"], ["ABN", "00 111 222 333"], ["Invoice date", "2024-03-05"], ["Total due", "$676.50"],
             ["Payment terms", "30 days"]]
INVOICE_B = [["Supplier", "Harbor Supplies Ltd"], ["ABN", "00 111 222 333"], ["Invoice date", "2024-06-11"], ["Total due", "$801.07"],
             ["Payment terms", "30 days"]]
ITEMS_A = [["Description", "Quantity", "Unit price"], ["Nitrile gloves", "40", "$8.50"], ["Sharps container", "10", "$12.00"]]
ITEMS_B = [["Description", "Quantity", "Unit price"], ["Nitrile gloves", "60", "$8.50"], ["Swab labels", "12", "$4.75"]]


def _return(name: str, ssn: str, year: int, tax: str) -> str:
    return (f"# Tax Return {year} - {name}\n\n## Return lines\n\n| Line | Value |\n|---|---|\n| Name | {name} |\n| SSN | {ssn} |\n"
            f"| Tax year | {year} |\n| Standard deduction | $13,850.00 |\n| Total tax | {tax} |\n")


SOP_A = ("# SOP-100 Returns Handling, Rev A\n\n## 1 Scope\n\nThis procedure covers returned goods.\n\n## 2 Inspection\n\n"
         "Returned goods are inspected within 10 working days of arrival. The inspector signs the return record.\n\n"
         "### 2.1 Records\n\nReturn records are kept for 3 years.\n")
SOP_B = ("# SOP-100 Returns Handling, Rev B\n\n## 1 Scope\n\nThis procedure covers returned goods.\n\n## 2 Inspection\n\n"
         "Returned goods are inspected within 5 working days of arrival. The inspector signs and dates the return record.\n\n"
         "## 3 Disposal\n\nGoods that fail inspection are scrapped.\n\n### 3.1 Records\n\nReturn records are kept for 3 years.\n")


def _docx_form(path: Path, title: str, fields: list[list[str]], items: list[list[str]]) -> None:
    import docx

    document = docx.Document()
    document.core_properties.title = title
    document.add_heading(title, level=1)
    for rows in (fields, items):
        grid = document.add_table(rows=len(rows), cols=len(rows[0]))
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
    document.save(path)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("compare")
    shelf = root / "pairs"
    shelf.mkdir()
    _docx_form(shelf / "harbor-0117.docx", "Invoice 0117 - Harbor Supplies Ltd", INVOICE_A, ITEMS_A)
    _docx_form(shelf / "harbor-0142.docx", "Invoice 0142 - Harbor Supplies Ltd", INVOICE_B, ITEMS_B)
    (shelf / "ellis-2023.md").write_text(_return("Jordan Ellis", "000-41-4417", 2023, "$5,655.00"), encoding="utf-8")
    (shelf / "ellis-2024.md").write_text(_return("Jordan Ellis", "000-41-4417", 2024, "$3,871.00"), encoding="utf-8")
    (shelf / "ellys-2024.md").write_text(_return("Jordan Ellys", "000-41-4471", 2024, "$4,996.00"), encoding="utf-8")
    lines = ["Name: Ana Ruiz", "Social insurance number (SIN): 000 512 907", "Tax year: 2023", "Net federal tax: $8,843.00", "Refund: $643.00"]
    write_docx(shelf / "ruiz-2023.docx", "Canada Return 2023 - Ana Ruiz", [(1, "Return lines", lines)])
    later = ["Name: Ana Ruiz", "Social insurance number (SIN): 000 512 907", "Tax year: 2024", "Net federal tax: $9,325.00", "Refund: $643.00"]
    write_pdf(shelf / "ruiz-2024.pdf", [[("h1", "Canada Return 2024 - Ana Ruiz"), ("h2", "Return lines"), *(("p", line) for line in later)]])
    (shelf / "sop-100-rev-a.md").write_text(SOP_A, encoding="utf-8")
    (shelf / "sop-100-rev-b.md").write_text(SOP_B, encoding="utf-8")
    return compile_shelf(shelf, root / "build")


@pytest.fixture(scope="module")
def docs(built):
    store = Store(built / "store.sqlite", create=False)
    try:
        return views_from_store(store), links_from_store(store)
    finally:
        store.close()


def _rows(result) -> dict[str, tuple]:
    return {c.what: (c.kind, c.old, c.new, c.difference) for c in result.pairs[0].changes.changes}


def test_values_and_signed_differences_are_computed_by_code():
    assert difference(parse_value("45 calendar days"), parse_value("30 calendar days")) == "−15 calendar days"
    assert difference(parse_value("2025-03-14"), parse_value("2026-01-15")) == "+307 days"
    assert difference(parse_value("$1,250.00"), parse_value("$1,100.50")) == "−$149.50"
    assert difference(parse_value("13%"), parse_value("15%")) == "+2 percentage points"
    assert same_value(parse_value("1,000"), parse_value("1000.00"))
    assert difference(parse_value("30 days"), parse_value("30 working days")) is None


def test_docx_invoices_every_changed_field_and_line_item_with_its_difference(docs):
    views, _ = docs
    rows = _rows(compare_pair(views, "harbor-0117-docx", "harbor-0142-docx"))
    assert rows["Invoice date"] == ("changed", "2024-03-05", "2024-06-11", "+98 days")
    assert rows["Total due"] == ("changed", "$676.50", "$801.07", "+$124.57")
    assert rows["Nitrile gloves › Quantity"] == ("changed", "40", "60", "+20")
    assert rows["Swab labels"] == ("added", None, "Quantity: 12; Unit price: $4.75", None)
    assert rows["Sharps container"] == ("removed", "Quantity: 10; Unit price: $12.00", None, None)
    for unchanged in ("Supplier", "ABN", "Payment terms", "Nitrile gloves › Unit price"):
        assert unchanged not in rows


def test_markdown_revision_value_in_a_sentence_reworded_sentence_and_added_section(docs):
    views, _ = docs
    result = compare_pair(views, "sop-100-rev-a-md", "sop-100-rev-b-md")
    changes = result.pairs[0].changes.changes
    value = next(c for c in changes if c.scope == "value")
    assert (value.what, value.old, value.new, value.difference) == (
        "Returned goods are inspected within", "10 working days", "5 working days", "−5 working days")
    assert value.heading_a == value.heading_b == "2 Inspection" and value.section_a and value.section_b
    reworded = next(c for c in changes if c.kind == "reworded")
    assert reworded.words == "The inspector signs {+and dates+} the return record."
    assert [(c.kind, c.what, c.old, c.new) for c in changes if c.scope == "section"] == [
        ("added", "3 Disposal", None, None),
        ("moved", "3.1 Records", "2 Inspection › 2.1 Records", "3 Disposal › 3.1 Records"),
    ]
    assert not any(c.scope == "sentence" and "3 years" in (c.old or c.new or "") for c in changes)
    assert not any("Scope" in c.what or c.what == "1 Scope" for c in changes)
    assert "| changed | Returned goods are inspected within | 10 working days | 5 working days | −5 working days |" in result.markdown


def test_label_lines_in_docx_against_the_same_lines_run_together_in_a_pdf(docs):
    views, _ = docs
    result = compare_pair(views, "ruiz-2023-docx", "ruiz-2024-pdf")
    assert [(c.what, c.old, c.new, c.difference) for c in result.pairs[0].changes.changes if c.scope == "field"] == [
        ("Tax year", "2023", "2024", "+1"), ("Net federal tax", "$8,843.00", "$9,325.00", "+$482.00")]
    assert result.pairs[0].name == "Ana Ruiz (SIN 000 512 907)"


def test_batch_pairs_by_id_number_and_keeps_the_near_identical_name_apart(docs):
    views, links = docs
    batch = compare_batch(views, links)
    pairs = {(p.changes.doc_a, p.changes.doc_b): p.name for p in batch.pairs}
    assert pairs == {
        ("ellis-2023-md", "ellis-2024-md"): "Jordan Ellis (SSN 000-41-4417)",
        ("harbor-0117-docx", "harbor-0142-docx"): "Harbor Supplies Ltd (ABN 00 111 222 333)",
        ("ruiz-2023-docx", "ruiz-2024-pdf"): "Ana Ruiz (SIN 000 512 907)",
        ("sop-100-rev-a-md", "sop-100-rev-b-md"): "SOP-100",
    }
    assert [a["doc_id"] for a in batch.alone] == ["ellys-2024-md"]
    ellis = next(p for p in batch.pairs if p.changes.doc_a == "ellis-2023-md")
    assert {c.what: c.difference for c in ellis.changes.changes if c.scope == "field"} == {"Tax year": "+1", "Total tax": "−$1,784.00"}
    assert "### Jordan Ellis (SSN 000-41-4417):" in batch.markdown and "- Jordan Ellys (SSN 000-41-4471): `ellys-2024-md`" in batch.markdown


def test_batch_answer_names_every_person_and_supplier_once_each(client):
    batch = client.post("/api/compare", json={"shelf": "pairs", "batch": True}, headers=READER).json()
    headings = [line for line in batch["markdown"].splitlines() if line.startswith("### ")]
    names = ["Jordan Ellis (SSN 000-41-4417)", "Harbor Supplies Ltd (ABN 00 111 222 333)", "Ana Ruiz (SIN 000 512 907)", "SOP-100"]
    assert sorted(p["name"] for p in batch["pairs"]) == sorted(names)
    for pair in batch["pairs"]:
        title = f"### {pair['name']}: {pair['changes']['title_a']} → {pair['changes']['title_b']}"
        assert headings.count(title) == 1, title
    assert headings[-1] == "### Not compared" and "- Jordan Ellys (SSN 000-41-4471): `ellys-2024-md`" in batch["markdown"]
    assert all(line.startswith("### Jordan Ellis (") for line in headings if "Ellis" in line)  # the trap kept apart


def _form(doc_id: str, title: str, lines: list[str]) -> DocView:
    root = Section(id=f"{doc_id}-root", doc_id=doc_id, parent_id=None, seq=0, level=0, heading=title, heading_path=[],
                   blocks=[Block(kind="paragraph", text=line) for line in lines])
    return DocView(doc_id, title, f"{doc_id}.md", [root])


def test_without_id_numbers_names_pair_only_when_equal_after_case_and_spacing():
    docs = [_form("a", "Return 2023", ["Name: Jordan Ellis", "Tax year: 2023"]),
            _form("b", "Return 2024", ["Name: JORDAN  ELLIS", "Tax year: 2024"]),
            _form("c", "Return 2024", ["Name: Jordan Ellys", "Tax year: 2024"])]
    pairing = pair_documents(docs, [])
    assert [(older.doc_id, newer.doc_id, identity.label) for older, newer, identity, _ in pairing.pairs] == [("a", "b", "JORDAN ELLIS")]
    assert [(doc.doc_id, identity.label) for doc, identity in pairing.alone] == [("c", "Jordan Ellys")]


def test_a_supersedes_link_pairs_versions_of_one_series_only():
    docs = [_form("qm-c", "QM-001 Quality Manual, Rev C", ["Owner: Quality"]), _form("qm-d", "QM-001 Quality Manual, Rev D", ["Owner: QA"]),
            _form("notes", "Shelf sources", ["Source: RFC 6750"]), _form("rfc", "Bearer Token Usage", ["Status: standard"])]
    links = [("supersedes", "qm-d", "qm-c"), ("supersedes", "notes", "rfc")]
    pairing = pair_documents(docs, links)
    assert [(older.doc_id, newer.doc_id, reason) for older, newer, _, reason in pairing.pairs] == [("qm-c", "qm-d", "supersedes link")]
    assert sorted(doc.doc_id for doc, _ in pairing.alone) == ["notes", "rfc"]


def test_cli_compare_prints_the_table_and_errors_in_one_line(built, capsys):
    build_dir = str(built.parent)
    assert main(["compare", "pairs", "ellis-2023-md", "ellis-2024-md", "--build-dir", build_dir]) == 0
    out = capsys.readouterr().out
    assert "| 2 | changed | Total tax | $5,655.00 | $3,871.00 | −$1,784.00 |" in out
    assert main(["compare", "pairs", "ellis-2023-md", "ellis-2023-md", "--build-dir", build_dir]) == 1
    assert capsys.readouterr().err == "error: document 'ellis-2023-md' given twice; name two different documents (the older first)\n"
    assert main(["compare", "pairs", "ellis-2023", "ellis-2024-md", "--build-dir", build_dir]) == 1
    assert capsys.readouterr().err == "error: no document 'ellis-2023' in this shelf; did you mean ellis-2023-md?\n"


@pytest.fixture(scope="module")
def client(built, tmp_path_factory):
    settings = Settings.model_validate({"api": {
        "tokens": [{"name": "reader", "token": "reader-secret", "shelves": ["pairs"]}, {"name": "other", "token": "other-secret", "shelves": []}],
        "trace_db": str(tmp_path_factory.mktemp("traces") / "traces.sqlite")}})
    with TestClient(create_app(settings, chat=None, embedder=HashEmbedder(), stores={"pairs": built})) as test_client:
        yield test_client


READER = {"Authorization": "Bearer reader-secret"}


def test_api_compare_answers_a_pair_and_a_batch(client):
    response = client.post("/api/compare", json={"shelf": "pairs", "doc_a": "ellis-2023-md", "doc_b": "ellis-2024-md"}, headers=READER)
    assert response.status_code == 200
    body = response.json()
    assert body["mode"] == "model-free"
    assert [(c["what"], c["difference"]) for c in body["pairs"][0]["changes"]["changes"] if c["scope"] == "field"] == [
        ("Tax year", "+1"), ("Total tax", "−$1,784.00")]
    batch = client.post("/api/compare", json={"shelf": "pairs", "batch": True}, headers=READER).json()
    assert len(batch["pairs"]) == 4 and batch["alone"][0]["name"] == "Jordan Ellys (SSN 000-41-4471)"


@pytest.mark.parametrize(("body", "headers", "status", "message"), [
    ({"shelf": "pairs", "doc_a": "nope", "doc_b": "ellis-2024-md"}, READER, 404,
     "no document 'nope' in this shelf; 'shelfwise documents SHELF' lists the document ids (shelf 'pairs')"),
    ({"shelf": "pairs", "doc_a": "ellis-2024-md", "doc_b": "ellis-2024-md"}, READER, 400,
     "document 'ellis-2024-md' given twice; name two different documents (the older first)"),
    ({"shelf": "pairs", "doc_a": "ellis-2024-md"}, READER, 400,
     "give 'doc_a' and 'doc_b' (two document ids, the older first), or 'batch': true for every pair of versions"),
    ({"shelf": "pairs", "doc_a": "ellis-2023-md", "doc_b": "ellis-2024-md", "batch": True}, READER, 400,
     "give either 'doc_a' and 'doc_b' or 'batch': true, not both"),
    ({"shelf": "pairs", "batch": True}, {"Authorization": "Bearer other-secret"}, 403,
     "the token 'other' does not grant shelf 'pairs'; use a token that grants it (api.tokens in the settings)"),
    ({"shelf": "pairs", "batch": True}, {}, 401, "missing API token; send the header 'Authorization: Bearer TOKEN'"),
])
def test_api_compare_errors_are_4xx_with_the_reason(client, body, headers, status, message):
    response = client.post("/api/compare", json=body, headers=headers)
    assert (response.status_code, response.json()["error"]) == (status, message)


def test_demo_quality_manual_rev_c_to_rev_d_lists_45_to_30_days_with_both_section_ids(tmp_path):
    others = [p.name for p in (DEMO / "documents").iterdir() if not p.name.startswith("quality-manual")]
    report = build_shelf(DEMO, Settings(build_dir=tmp_path), progress=lambda line: None, stages=[links_stage()],
                         exclude=["source/**", "*.py", "*.yaml", *(f"documents/{name}" for name in others)])
    assert not report.failed, report.render()
    store = Store(tmp_path / "northwind" / "store.sqlite", create=False)
    try:
        views, links = views_from_store(store), links_from_store(store)
        sections = {s.id: s for s in store.sections()}
    finally:
        store.close()
    batch = compare_batch(views, links)
    assert [(p.changes.doc_a, p.reason) for p in batch.pairs] == [("documents-quality-manual-rev-c-docx", "same_series link")]
    changes = batch.pairs[0].changes.changes
    closure = [c for c in changes if c.old == "45 calendar days"]
    assert [(c.new, c.difference) for c in closure] == [("30 calendar days", "−15 calendar days")]
    assert sections[closure[0].section_a].doc_id == "documents-quality-manual-rev-c-docx"
    assert sections[closure[0].section_b].doc_id == "documents-quality-manual-rev-d-pdf"
    assert sections[closure[0].section_a].heading == sections[closure[0].section_b].heading == "8.2.2 Complaint handling"
    row = f"| changed | Complaints shall be closed within | 45 calendar days | 30 calendar days | −15 calendar days | 8.2.2 Complaint handling (`{closure[0].section_a}`) | 8.2.2 Complaint handling (`{closure[0].section_b}`) |"
    assert row in batch.markdown
    assert not any(c.scope == "value" and c.old == c.new for c in changes)


def test_benchmark_generator_is_deterministic_and_uses_never_issued_ids(tmp_path):
    from shelfwise.eval.compare_shelf.generate import write_shelf

    truth = write_shelf(tmp_path / "one")
    write_shelf(tmp_path / "two")
    files = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert all((tmp_path / "one" / f).read_bytes() == (tmp_path / "two" / f).read_bytes() for f in files)
    assert len(truth["pairs"]) >= 8 and {f.suffix for f in files} >= {".pdf", ".docx", ".xlsx"}
    people = [p["name"] for p in truth["pairs"] if p["kind"] == "person"] + [a["name"] for a in truth["alone"]]
    assert all(name.split(" (")[1].split(" ", 1)[1].startswith("000") for name in people)


def test_a_label_repeated_on_one_side_only_is_matched_by_its_section_then_reported():
    def doc(doc_id: str, parts: list[tuple[str, str]]) -> DocView:
        root = Section(id=f"{doc_id}-0", doc_id=doc_id, parent_id=None, seq=0, level=0, heading="Report", heading_path=[])
        sections = [root] + [
            Section(id=f"{doc_id}-{n}", doc_id=doc_id, parent_id=root.id, seq=n, level=1, heading=heading, heading_path=[heading],
                    blocks=[Block(kind="paragraph", text=line)])
            for n, (heading, line) in enumerate(parts, start=1)
        ]
        return DocView(doc_id, "Report", f"{doc_id}.md", sections)

    older = doc("old", [("Spring", "Total: $100.00"), ("Autumn", "Total: $250.00")])
    newer = doc("new", [("Spring", "Total: $120.00")])
    changes = compare_documents(older, newer).changes
    assert [(c.kind, c.what, c.old, c.new, c.difference) for c in changes if c.scope == "field"] == [
        ("changed", "Total", "$100.00", "$120.00", "+$20.00"), ("removed", "Total", "$250.00", None, None)]


def test_a_sentence_in_code_marks_and_the_same_in_typography_is_no_change():
    """A manual's PDF edition prints ‘make’ and *emphasis* in type; its Texinfo source is read with `code` and *emphasis*
    marks: the same sentence either way is no change, and a word that did change is still reworded."""
    def doc(doc_id: str, lines: list[str]) -> DocView:
        root = Section(id=f"{doc_id}-0", doc_id=doc_id, parent_id=None, seq=0, level=0, heading="GNU Make", heading_path=[])
        part = Section(id=f"{doc_id}-1", doc_id=doc_id, parent_id=root.id, seq=1, level=1, heading="How the MAKE Variable Works",
                       heading_path=["How the MAKE Variable Works"], blocks=[Block(kind="paragraph", text=" ".join(lines))])
        return DocView(doc_id, "GNU Make", f"{doc_id}.txt", [root, part])

    older = doc("pdf", ["Recursive make commands should always use the variable MAKE, not the explicit command name ‘make’.",
                        "Simply expanded variables are defined by lines using ‘:=’ or ‘::=’.",
                        "The value is expanded once."])
    newer = doc("texi", ["Recursive `make` commands should always use the variable `MAKE`, not the explicit command name `make`.",
                         "*Simply expanded variables* are defined by lines using `:=` or `::=`.",
                         "The value is expanded twice."])
    changes = compare_documents(older, newer).changes
    assert [(c.kind, c.old, c.new) for c in changes] == [("reworded", "The value is expanded once.", "The value is expanded twice.")]


def test_the_compare_benchmark_finds_every_change_across_formats_with_no_wrong_value(tmp_path):
    """The generated shelf of `make bench-compare` (returns and invoices as PDF, DOCX and XLSX; a procedure's
    revisions), compiled by the real readers: every true change found, none stated wrongly, every pair paired in the
    batch. A reader change broke this twice unnoticed (a PDF form's "Name  Jordan Ellis" rows taken for a statement's
    column header; a sheet's field rows, line items and totals read as one table of four columns)."""
    from shelfwise.eval.bench.compare import run

    result = run(tmp_path / "bench")
    missed = {p["name"]: p["missed"] for p in result["per_pair"] if p["missed"] or p["wrong"]}
    assert (result["found"], result["wrong_values_or_directions"], result["unchanged_reported"]) == (result["truth_changes"], 0, 0), missed
    assert result["batch"]["every_pair_found"] and result["batch"]["every_name_named"] and result["trap_kept_apart"]
