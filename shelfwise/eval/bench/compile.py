"""Compile benchmark: seconds per shelf for every ../shared/corpora shelf, and an incremental recompile.

    python -m shelfwise.eval.bench.compile [--corpora DIR] [--shelves a,b] [--out eval/results/compile.json]

Each shelf is copied to a temporary folder and compiled from nothing (documents and pages per second),
then one document is edited (a paragraph appended) and the shelf recompiled: the ratio of the two times
is the incremental cost (target: at most 0.15). Both runs happen in this one process, side by side.

It also measures the local embedder's throughput (passages/s) at several batch sizes on real headed passages of
the first shelf (``--embed-only`` measures just that, without compiling anything): the dense index's build cost.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from shelfwise.compiler.build import build_shelf, default_stages
from shelfwise.compiler.settings import Settings

ROOT = Path(__file__).resolve().parents[3]


def _edit_one(shelf: Path) -> str:
    """Append a paragraph to the first text-format document (else touch the smallest file's bytes)."""
    for path in sorted(shelf.rglob("*")):
        if path.suffix in {".md", ".rst", ".txt", ".texi"} and path.name != "SOURCES.md":
            path.write_text(path.read_text(encoding="utf-8", errors="replace") + "\n\nAn added paragraph.\n", encoding="utf-8")
            return path.name
    smallest = min((p for p in shelf.rglob("*") if p.is_file() and p.name != "SOURCES.md"), key=lambda p: p.stat().st_size)
    smallest.write_bytes(smallest.read_bytes() + b"\n")
    return smallest.name


def bench_shelf(source: Path, work: Path, with_stages: bool) -> dict:
    shelf = work / source.name
    shutil.copytree(source, shelf)
    settings = Settings(build_dir=work / "build")
    stages = default_stages(settings) if with_stages else []
    started = time.perf_counter()
    first = build_shelf(shelf, settings, progress=lambda _l: None, stages=stages, exclude=["SOURCES.md"])
    full = time.perf_counter() - started
    edited = _edit_one(shelf)
    started = time.perf_counter()
    second = build_shelf(shelf, settings, progress=lambda _l: None, stages=stages, exclude=["SOURCES.md"])
    incremental = time.perf_counter() - started
    pages = sum(d.pages for d in first.documents)
    return {
        "documents": len(first.documents),
        "failed": [f"{d.path}: {d.reason}" for d in first.failed],
        "pages": pages,
        "sections": sum(d.sections for d in first.documents),
        "seconds_full": round(full, 2),
        "pages_per_s": round(pages / full, 1) if pages else None,
        "edited": edited,
        "reconverted": second.count("converted"),
        "seconds_incremental": round(incremental, 2),
        "incremental_ratio": round(incremental / full, 3),
        "stages": first.stages,
    }


def embedding_throughput(shelf: Path, *, passages: int = 96, batch_sizes: tuple[int, ...] = (1, 8, 32, 64)) -> dict:
    """Passages/s of the local embedder (embeddings.threads as configured) on ``passages`` headed passages of ``shelf``."""
    from shelfwise.compiler.build import build_shelf as _build
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.index.passages import PassageSizing, build_passages

    settings = Settings()
    embedder = embedder_from_settings(settings)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / shelf.name
        shutil.copytree(shelf, work)
        report = _build(work, Settings(build_dir=Path(tmp) / "build"), progress=lambda _l: None, stages=[], exclude=["SOURCES.md"])
        from shelfwise.compiler.store.store import Store

        store = Store(Path(tmp) / "build" / shelf.name / "store.sqlite", create=False)
        sizing = PassageSizing(window_tokens=embedder.window_tokens, count_tokens=embedder.count_tokens, max_chars=embedder.passage_chars)
        texts: list[str] = []
        for row in store.documents():
            texts.extend(p.text for p in build_passages(row["title"], store.sections(row["doc_id"]), sizing))
            if len(texts) >= passages:
                break
        store.close()
    texts = texts[:passages]
    embedder.embed_batch(texts[:2])  # load the model
    import os

    out = {"model": embedder.model_id, "threads": settings.embeddings.threads, "passages": len(texts),
           "load_average_1m_at_start": round(os.getloadavg()[0], 2),
           "documents_read": len(report.documents), "per_batch_size": {}}
    for size in batch_sizes:
        embedder.batch_size = size
        started = time.perf_counter()
        for start in range(0, len(texts), size):
            embedder.embed_batch(texts[start : start + size])
        out["per_batch_size"][str(size)] = round(len(texts) / (time.perf_counter() - started), 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--shelves", default="")
    parser.add_argument("--no-stages", action="store_true", help="time conversion only (no indexes or ledger)")
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results" / "compile.json")
    parser.add_argument("--embed-only", action="store_true", help="only measure embedding throughput (written to --out)")
    args = parser.parse_args()
    names = args.shelves.split(",") if args.shelves else sorted(p.name for p in args.corpora.iterdir() if p.is_dir())
    source = "oauth" if "oauth" in names else names[0]  # plain-text RFCs: converted in seconds
    throughput = embedding_throughput(args.corpora / source)
    rates = ", ".join(f"batch {size}: {rate} passages/s" for size, rate in throughput["per_batch_size"].items())
    print(f"embedding {throughput['model']} ({throughput['threads']} thread(s), {throughput['passages']} passages of {source}): {rates}", flush=True)
    if args.embed_only:
        previous = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({**previous, "embedding_throughput": throughput}, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
        return
    results: dict = {"embedding_throughput": throughput}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            results[name] = bench_shelf(args.corpora / name, Path(tmp), not args.no_stages)
            r = results[name]
            print(
                f"{name:<10} {r['documents']:>3} docs {r['pages']:>5} pages {r['sections']:>5} sections "
                f"{r['seconds_full']:>7.1f} s full  {r['seconds_incremental']:>6.1f} s after editing {r['edited']} "
                f"(ratio {r['incremental_ratio']:.3f})  failed: {len(r['failed'])}",
                flush=True,
            )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
