"""Reliability benchmark, the shelf's own files: what a file dropped into a shelf can do to its build (issue 36).

Every case runs the real CLI (``shelfwise build``) on shelves made on the spot (tests/bombs.py):

- a ``shelf.toml`` naming ``../x`` or an absolute path: the exit code, the error line, and any file written outside
  ``--build-dir``;
- a mixed shelf of every bad kind beside good documents (colliding derived ids, names that are not UTF-8 or hold a
  newline, hidden, empty, truncated and broken files, links out of the shelf and broken links), built with its site;
  then its compiled Word file replaced by one that fails to convert and built again (with and without ``--strict``):
  each bad document named, every good one on the site and found by search, the replaced one kept at its last good
  version in store, search, site and original; a third colliding file added: no earlier id renamed;
- a 3,000-page PDF holding one paragraph: seconds and pages per second to convert;
- a first build killed while it embeds, then run again: passages embedded again on resume.

Run through ``shelfwise.eval.bench.reliability`` (section ``shelf``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["bench_shelf_cases", "shelf_toml_cases", "mixed_shelf_case", "long_paragraph_case", "killed_embedding_case"]

ROOT = Path(__file__).resolve().parents[3]
CLI = [sys.executable, "-m", "shelfwise.compiler.cli.main"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "NO_MKDOCS_2_WARNING": "1"}

_SEARCH = """
import json, sys
from pathlib import Path
from shelfwise.compiler.build import current_build
from shelfwise.compiler.index.embedders import embedder_from_settings
from shelfwise.compiler.search.search import ShelfSearcher
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.store.store import Store
generation = current_build(Path(sys.argv[1]))
store = Store(generation / "store.sqlite", create=False)
searcher = ShelfSearcher(store, generation / "lexical", embedder_from_settings(Settings()))
found = {}
for phrase in json.loads(sys.argv[2]):
    found[phrase] = sorted({store.section(h.section_id).doc_id for h in searcher.search(phrase, k=3).hits})
print(json.dumps({"generation": generation.name, "found": found,
                  "documents": {row["path"]: row["doc_id"] for row in store.documents()}}))
"""


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], env=ENV, cwd=ROOT, capture_output=True, text=True)


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


def shelf_toml_cases(work: Path) -> dict:
    """``name = '../x'`` and an absolute name: exit code, the error, files written outside the build folder."""
    out = {}
    for case, name in (("name '../x'", "../x"), ("absolute name", str(work / "toml" / "outside" / "escaped"))):
        base = work / "toml"
        shutil.rmtree(base, ignore_errors=True)
        (base / "outside").mkdir(parents=True)
        shelf = base / "shelf"
        shelf.mkdir()
        (shelf / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
        (shelf / "shelf.toml").write_text(f"name = {name!r}\n", encoding="utf-8")
        done = _run("build", str(shelf), "--build-dir", str(base / "build"), "--site", "--quiet")
        made = {"shelf", "shelf/a.md", "shelf/shelf.toml", "outside"}
        outside = [p for p in _files(base) if p not in made and p != "build" and not p.startswith("build/")]
        out[case] = {"exit": done.returncode, "error": done.stderr.strip(), "written_outside_build_dir": outside}
    return out


def _build_json(shelf: Path, build: Path, *extra: str) -> tuple[int, dict, float]:
    started = time.perf_counter()
    done = _run("build", str(shelf), "--build-dir", str(build), "--site", "--quiet", "--json", *extra)
    seconds = round(time.perf_counter() - started, 1)
    try:
        return done.returncode, json.loads(done.stdout), seconds
    except json.JSONDecodeError:
        return done.returncode, {"error": done.stderr[-1500:]}, seconds


def _search(root: Path, phrases: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-c", _SEARCH, str(root), json.dumps(phrases)], env=ENV, cwd=ROOT,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else {"error": done.stderr[-1500:]}


def mixed_shelf_case(work: Path) -> dict:
    """The mixed shelf built, its Word file replaced by a corrupt one, built again (and with --strict), a third
    colliding name added."""
    from shelfwise.compiler.ingest.discover import escaped_name
    from tests.bombs import BAD, GOOD, ODD_NAMES, mixed_shelf

    base = work / "mixed"
    shutil.rmtree(base, ignore_errors=True)
    shelf, build = mixed_shelf(base / "shelf"), base / "build"
    phrases = {**{name: phrase for name, (_t, phrase) in GOOD.items()},
               **{escaped_name(os.fsdecode(raw)): phrase for raw, (_t, phrase) in ODD_NAMES.items()}}
    first_exit, first, first_s = _build_json(shelf, build)
    handbook = (shelf / "handbook.docx").read_bytes()
    (shelf / "handbook.docx").write_bytes(b"PK\x03\x04 a replacement that is not a Word file")
    second_exit, second, second_s = _build_json(shelf, build)
    strict_exit, _strict, _ = _build_json(shelf, build, "--strict")
    root = build / "shelf"
    found = _search(root, sorted(set(phrases.values())))
    documents = found.get("documents", {})
    site = root / "site"
    statuses = {d["path"]: d["status"] for d in second.get("documents", [])}
    reasons = {d["path"]: d["reason"] for d in second.get("documents", [])}
    bad = [*BAD, "outside-link.md", "dangling.md"]
    on_site = {path: (site / "documents" / f"{doc_id}.html").is_file() for path, doc_id in documents.items()}
    searchable = {path: documents.get(path) in found.get("found", {}).get(phrase, []) for path, phrase in phrases.items()}
    page = site / "documents" / f"{documents.get('handbook.docx')}.html"
    (shelf / "Q1_Report.md").write_text("# Q1 again\n\nThe third colliding name.\n", encoding="utf-8")
    third_exit, third, _ = _build_json(shelf, build)
    after = {d["path"]: d["doc_id"] for d in third.get("documents", []) if d["doc_id"]}
    return {
        "exits": {"first": first_exit, "corrupt_replacement": second_exit, "strict": strict_exit, "third_colliding": third_exit},
        "seconds": {"first": first_s, "corrupt_replacement": second_s},
        "bad_named": {name: f"{statuses.get(name)}: {reasons.get(name)}" for name in bad},
        "hidden_reported": statuses.get(".hidden.md"),
        "good_documents": len(phrases),
        "good_on_site": sum(on_site.get(p, False) for p in phrases),
        "good_searchable": sum(searchable.values()),
        "not_searchable": sorted(p for p, ok in searchable.items() if not ok),
        "current_generation": found.get("generation"),
        "kept_in_store_and_search": searchable.get("handbook.docx", False),
        "kept_original_on_site": (site / "_originals" / "handbook.docx").is_file()
                                 and (site / "_originals" / "handbook.docx").read_bytes() == handbook,
        "kept_page_marked": page.is_file() and "Last good version" in page.read_text(encoding="utf-8"),
        "kept_report_reason": reasons.get("handbook.docx"),
        "colliding_ids": {p: documents.get(p) for p in ("Q1 report.md", "q1-report.md", "Report.pdf", "report.pdf")},
        "colliding_ids_stable_with_a_third": all(after.get(p) == documents.get(p) for p in ("Q1 report.md", "q1-report.md")),
        "third_colliding_id": after.get("Q1_Report.md"),
    }


def long_paragraph_case(work: Path, pages: int = 3000) -> dict:
    """A ``pages``-page PDF of one paragraph (made with reportlab here, never kept): seconds and pages per second."""
    from shelfwise.compiler.ingest.convert import ReadOptions
    from shelfwise.compiler.ingest.convert.pdf import read_text_layer
    from tests.bombs import one_paragraph_pdf

    folder = work / "long-pdf"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    path, text = one_paragraph_pdf(folder / "one-paragraph.pdf", pages)
    marks: list[tuple[float, str]] = []
    started = time.perf_counter()
    converted = read_text_layer(path, ReadOptions(progress=lambda line: marks.append((time.perf_counter() - started, line))),
                                use_outline=False)
    seconds = time.perf_counter() - started
    assembling = next((t for t, line in marks if ": assembling pages 1-" in line), seconds)
    result = {"pages": pages, "file_mb": round(path.stat().st_size / 1e6, 2), "seconds": round(seconds, 1),
              "pages_per_second": round(pages / seconds, 1), "assembly_seconds": round(seconds - assembling, 1),
              "elements": len(converted.elements), "one_paragraph_text_exact": [e.text for e in converted.elements] == [text]}
    shutil.rmtree(folder, ignore_errors=True)
    return result


def killed_embedding_case(work: Path) -> dict:
    """A first build killed when it reports embedded passages, then the same build again: passages re-embedded."""
    base = work / "killed-embedding"
    shutil.rmtree(base, ignore_errors=True)
    shelf = base / "shelf"
    shelf.mkdir(parents=True)
    for n in range(40):
        parts = "".join(f"## Part {k}\n\nNote {n}, part {k}: pump {n} and valve {k}.\n\n" for k in range(3))
        (shelf / f"note{n:02d}.md").write_text(f"# Note {n}\n\n{parts}", encoding="utf-8")
    process = subprocess.Popen([*CLI, "build", str(shelf), "--build-dir", str(base / "build")], env=ENV, cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if line.startswith("dense: embedded"):
            os.kill(process.pid, signal.SIGKILL)
            break
    process.wait(timeout=300)
    done = _run("build", str(shelf), "--build-dir", str(base / "build"), "--json", "--quiet")
    vectors = json.loads(done.stdout)["stages"]["indexes"]["vectors"] if done.returncode == 0 else {}
    return {"killed": process.returncode == -signal.SIGKILL, "resume_exit": done.returncode,
            "passages": vectors.get("passages"), "embedded_again": vectors.get("embedded"), "cached": vectors.get("cached")}


def bench_shelf_cases(work: Path, pdf_pages: int = 3000) -> dict:
    sys.path.insert(0, str(ROOT))
    out = {"shelf_toml": shelf_toml_cases(work)}
    print("shelf.toml:", json.dumps(out["shelf_toml"]), flush=True)
    out["mixed_shelf"] = mixed_shelf_case(work)
    print("mixed shelf:", json.dumps(out["mixed_shelf"]), flush=True)
    out["killed_while_embedding"] = killed_embedding_case(work)
    print("killed while embedding:", json.dumps(out["killed_while_embedding"]), flush=True)
    out["one_paragraph_pdf"] = long_paragraph_case(work, pdf_pages)
    print("one-paragraph PDF:", json.dumps(out["one_paragraph_pdf"]), flush=True)
    return out
