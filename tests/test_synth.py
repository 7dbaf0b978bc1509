"""The synthetic shelf generator (shelfwise/eval/synth): deterministic bytes, every format readable with its numbered tree."""

from __future__ import annotations

import hashlib
from pathlib import Path

from shelfwise.compiler.ingest.convert import ReadOptions, convert_file
from shelfwise.compiler.ingest.sections import build_sections
from shelfwise.eval.synth import COMPANY, generate_shelf, parse_mix


def _digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_same_size_and_seed_give_the_same_bytes(tmp_path):
    generate_shelf(tmp_path / "one" / "s", 12, seed=5)
    generate_shelf(tmp_path / "two" / "s", 12, seed=5)
    generate_shelf(tmp_path / "other" / "s", 12, seed=6)
    one, two = _digests(tmp_path / "one" / "s"), _digests(tmp_path / "two" / "s")
    assert one == two and len(one) == 13  # 12 documents and shelf.toml
    assert one != _digests(tmp_path / "other" / "s")


def test_every_format_reads_back_with_its_numbered_sections(tmp_path):
    specs = generate_shelf(tmp_path / "s", 12, seed=1)
    assert sorted({s.fmt for s in specs}) == ["docx", "html", "markdown", "pdf", "xlsx"]
    for spec in specs:
        converted = convert_file(tmp_path / "s" / spec.relpath, ReadOptions(checkpoint_dir=None))
        sections, _ = build_sections(spec.relpath, converted)
        headings = [s.heading for s in sections]
        text = "\n".join(s.text for s in sections)
        assert {"1 Purpose", "4 Requirements", "6 Revision history"} <= set(headings), (spec.fmt, headings)
        if spec.fmt != "xlsx":  # a workbook's sheets are its top-level sections; the rest stands in their cells
            assert {"4.1 General", "5.1 Forms"} <= set(headings), (spec.fmt, headings)
        assert COMPANY in text and "Section 5.2" in text
        assert (f"supersedes {spec.code} Rev A" in text) == (spec.revision == "B")


def test_revisions_reference_each_other_and_names_are_shared():
    from shelfwise.eval.synth.content import plan_shelf

    specs = plan_shelf(60, 0, parse_mix("markdown=1"))
    codes = {s.code for s in specs}
    assert sum(1 for s in specs if s.revision == "B") == 15  # every third family: 4 documents in 3 families
    body = [" ".join(p for sec in s.sections for p in sec.paragraphs) for s in specs]
    cited = {word.rstrip(".,") for text in body for word in text.split() if word.rstrip(".,") in codes}
    assert len(cited) > 30  # documents cite each other by code and full title
    owners = [s.sections[0].paragraphs[1] for s in specs]
    assert len(set(owners)) < len(owners) / 3  # a cluster of documents shares its people
