"""Site benchmark: build time and size of the knowledge site for every ../shared/corpora shelf, and our overhead.

    python -m shelfwise.eval.bench.site [--corpora DIR] [--shelves a,b] [--work build/bench-site] [--out eval/results/site.json]

Each shelf is compiled (documents and ledger; not timed, cached in --work), then, in this one run and
side by side: (1) our full site build from nothing: pages rendered from the store plus a clean, strict
mkdocs build and the originals copied in; (2) a plain `mkdocs build` of the very same Markdown and config. Overhead = (1) - (2),
i.e. the time our rendering adds. Site size is the built folder's bytes and files.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from shelfwise.compiler.build import build_shelf, links_stage
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.publish.site import build_site, directory_size, run_mkdocs
from shelfwise.compiler.store.store import Store

ROOT = Path(__file__).resolve().parents[3]


def bench_shelf(source: Path, work: Path) -> dict:
    settings = Settings(build_dir=work)
    compiled = build_shelf(source, settings, progress=lambda line: None, stages=[links_stage()],
                           exclude=["SOURCES.md"])
    out = (work / compiled.shelf / "current").resolve()  # the generation the build made, where `build --site` puts its site
    for stale in ("docs", "site", "pages.json", "site-manifest.json"):  # a full render and build, not an incremental one
        path = out / stale
        shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(missing_ok=True)
    store = Store(out / "store.sqlite", create=False)
    try:
        started = time.perf_counter()
        summary = build_site(store, out, shelf_dir=source, full=True)  # as `shelfwise build --site`: originals copied and linked
        total = time.perf_counter() - started
    finally:
        store.close()
    plain_dir = Path(tempfile.mkdtemp(prefix="plain-", dir=out))
    try:
        plain, _ = run_mkdocs(out / "mkdocs.yml", plain_dir)
    finally:
        shutil.rmtree(plain_dir, ignore_errors=True)
    files, size = directory_size(out / "site")
    _, docs_size = directory_size(out / "docs")
    return {
        "shelf": source.name,
        "documents": len(compiled.documents),
        "pages": summary["pages"],
        "sections": summary["sections"],
        "figures": summary["figures"],
        "markdown_mb": round(docs_size / 1e6, 2),
        "site_files": files,
        "site_mb": round(size / 1e6, 2),
        "build_seconds": round(total, 2),
        "render_seconds": summary["pages_seconds"],
        "mkdocs_seconds": summary["mkdocs_seconds"],
        "plain_mkdocs_seconds": round(plain, 2),
        "overhead_seconds": round(total - plain, 2),
        "overhead_ratio": round(total / plain, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--shelves", default="", help="comma-separated shelf names (default: all)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "bench-site", help="compiled stores are cached here")
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results" / "site.json")
    args = parser.parse_args(argv)
    names = [n for n in args.shelves.split(",") if n] or sorted(p.name for p in args.corpora.iterdir() if p.is_dir())
    rows = []
    for name in names:
        row = bench_shelf(args.corpora / name, args.work)
        rows.append(row)
        print(f"{name:<10} {row['documents']:>3} docs {row['pages']:>4} pages {row['sections']:>6} sections "
              f"{row['site_mb']:>7.2f} MB  build {row['build_seconds']:>6.2f} s (render {row['render_seconds']:.2f} s) "
              f"plain mkdocs {row['plain_mkdocs_seconds']:>6.2f} s  overhead {row['overhead_seconds']:+.2f} s", flush=True)
    totals = {key: round(sum(r[key] for r in rows), 2) for key in ("build_seconds", "plain_mkdocs_seconds", "site_mb", "pages", "sections")}
    totals["overhead_ratio"] = round(totals["build_seconds"] / totals["plain_mkdocs_seconds"], 3) if rows else None
    print("total", json.dumps(totals))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"shelves": rows, "totals": totals}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
