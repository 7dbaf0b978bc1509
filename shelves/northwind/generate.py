"""Generate the Northwind Medical demo shelf: ten quality-system documents in six formats.

Run as ``.venv/bin/python shelves/northwind/generate.py [--out DIR]`` (default: the
``documents/`` folder next to this script). The text lives in ``source/`` as a small
markup (see ``markup.py``); this script renders each source into its format. Output is
byte-identical from run to run: reportlab runs with ``invariant=1``, every OOXML package
is rewritten with fixed timestamps and sorted entries, and figures are drawn by code.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from figures import complaints_per_month_png, triage_png  # noqa: E402
from markup import parse  # noqa: E402
from writers import Meta, write_docx, write_html, write_markdown, write_pdf, write_pptx, write_xlsx  # noqa: E402

SOURCE = HERE / "source"

DOCUMENTS: list[tuple[str, str, Meta, str | None]] = [
    (
        "quality-manual-rev-d.pdf",
        "quality-manual.txt",
        Meta(number="QM-001", title="Quality Manual", revision="D", effective="2026-01-15", status="Effective",
             owner="Director of Quality Assurance", approver="Chief Executive Officer"),
        "D",
    ),
    (
        "quality-manual-rev-c.docx",
        "quality-manual.txt",
        Meta(number="QM-001", title="Quality Manual", revision="C", effective="2025-03-14",
             status="SUPERSEDED by Rev D (effective 2026-01-15)",
             owner="Director of Quality Assurance", approver="Chief Executive Officer"),
        "C",
    ),
    (
        "sop-014-complaint-handling.docx",
        "sop-014.txt",
        Meta(number="SOP-014", title="Complaint Handling", revision="F", effective="2026-02-01", status="Effective",
             owner="Complaint Handling Unit Lead", approver="Director of Quality Assurance"),
        None,
    ),
    (
        "wi-022-complaint-investigation.md",
        "wi-022.txt",
        Meta(number="WI-022", title="Complaint Investigation and Closure", revision="C", effective="2026-02-01",
             status="Effective", owner="Complaint Handling Unit Lead", approver="Director of Quality Assurance"),
        None,
    ),
    (
        "sop-021-capa.md",
        "sop-021.txt",
        Meta(number="SOP-021", title="Corrective and Preventive Action", revision="E", effective="2025-11-03",
             status="Effective", owner="CAPA Program Manager", approver="Director of Quality Assurance"),
        None,
    ),
    (
        "sop-030-supplier-control.docx",
        "sop-030.txt",
        Meta(number="SOP-030", title="Supplier Control", revision="B", effective="2025-09-22", status="Effective",
             owner="Supplier Quality Manager", approver="Director of Quality Assurance"),
        None,
    ),
    (
        "rmf-003-risk-management-file.html",
        "rmf-003.txt",
        Meta(number="RMF-003", title="Risk Management File: NW-300 Infusion Pump", revision="G",
             effective="2026-01-20", status="Effective", owner="Risk Management Lead",
             approver="Director of Quality Assurance"),
        None,
    ),
    (
        "trn-031-complaint-handling-training.pptx",
        "trn-031.txt",
        Meta(number="TRN-031", title="Complaint Handling Training", revision="B", effective="2026-02-10",
             status="Effective", owner="Training Coordinator", approver="Complaint Handling Unit Lead"),
        None,
    ),
]

WORKBOOKS: list[tuple[str, Meta, list[tuple[str, str]]]] = [
    (
        "complaint-log-2026.xlsx",
        Meta(number="LOG-014", title="Complaint Log 2026", revision="-", effective="2026-06-30", status="Record",
             owner="Complaint Handling Unit Lead", approver="-"),
        [("Complaints 2026", "complaints-2026.csv"), ("Failure Codes", "failure-codes.csv")],
    ),
    (
        "calibration-register.xlsx",
        Meta(number="REG-007", title="Calibration Register", revision="-", effective="2026-06-30", status="Record",
             owner="Metrology Technician", approver="-"),
        [("Calibration", "calibration.csv")],
    ),
]


def read_csv(name: str) -> list[list[str]]:
    with (SOURCE / name).open(encoding="utf-8", newline="") as handle:
        return [row for row in csv.reader(handle)]


def figure_images() -> dict[str, bytes]:
    """Figure name -> PNG bytes, drawn deterministically from the source data."""
    complaints = read_csv("complaints-2026.csv")
    return {"triage": triage_png(), "per-month": complaints_per_month_png(complaints)}


def generate(out: Path) -> list[Path]:
    """Write every document into ``out``; returns the written paths in name order."""
    out.mkdir(parents=True, exist_ok=True)
    images = figure_images()
    writers = {".pdf": write_pdf, ".docx": write_docx, ".md": write_markdown, ".html": write_html, ".pptx": write_pptx}
    written = []
    for name, source, meta, revision in DOCUMENTS:
        blocks = parse((SOURCE / source).read_text(encoding="utf-8"), revision=revision)
        target = out / name
        target.write_bytes(writers[target.suffix](blocks, meta, images))
        written.append(target)
    for name, meta, sheets in WORKBOOKS:
        target = out / name
        target.write_bytes(write_xlsx([(sheet, read_csv(csv_name)) for sheet, csv_name in sheets], meta))
        written.append(target)
    return sorted(written)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate the Northwind Medical demo shelf documents.")
    parser.add_argument("--out", type=Path, default=HERE / "documents", help="output folder (default: %(default)s)")
    args = parser.parse_args(argv)
    for path in generate(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
