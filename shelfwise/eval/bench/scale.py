"""Scale benchmark: how compile, incremental rebuild, search, answering and the site grow with the shelf.

    python -m shelfwise.eval.bench.scale [--sizes 100,1000,5000] [--work DIR] [--out eval/results/scale.json] [--plot-only]

For each size a synthetic shelf (shelfwise/eval/synth, deterministic, written under --work, never committed) is compiled
from nothing in a fresh child process, with the site, so its peak RSS is its own. Per stage it records seconds
and the process's peak RSS after the stage (convert: discovery, conversion and storing; indexes split into
lexical (whoosh) and dense (passages and embeddings); links: ledger, hooks, links, briefs, dossiers; site: pages
and mkdocs). Then one Markdown document is edited and the shelf rebuilt (the incremental ratio; ``site_build`` says whether
the site was rebuilt incrementally and how many pages mkdocs built), 60 hybrid
searches (again with no decoded postings kept, "search_cold_postings") and 20 model-free answers are timed (p50/p95), and the store, lexical index and site are measured on
disk. Sizes are merged into --out one by one, so a long size can run alone in the background; the plot
(seconds against documents per stage, log-log with a linear guide) is redrawn from --out each time.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "eval" / "results" / "scale.json"
RAY_OUT = ROOT / "eval" / "results" / "scale-ray.json"
STAGES = ("convert", "lexical", "dense", "links", "site")
FLOORS = {"peak_rss_mb_at_1000": 4096, "incremental_ratio": 0.05, "search_p95_ms": 150, "ask_p95_ms": 2000}


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _dir_mb(path: Path) -> float:
    if not path.exists():
        return 0.0
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file() and not p.is_symlink()]
    return round(sum(p.stat().st_size for p in files) / 1e6, 2)


def _percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 1), "p95_ms": round(p95 * 1000, 1), "n": len(ordered)}


def _timed_stages(stages: list, marks: dict) -> list:
    """Each stage wrapped to record its seconds and the peak RSS after it under its summary's name."""

    def wrap(stage):
        def run(store, out, changed, removed, progress):
            marks.setdefault("first_stage_at", time.perf_counter())
            started, cpu = time.perf_counter(), time.process_time()
            name, summary = stage(store, out, changed, removed, progress)
            marks[name] = {"seconds": round(time.perf_counter() - started, 2), "peak_rss_mb": round(_rss_mb(), 1),
                           "cpu_seconds": round(time.process_time() - cpu, 2)}  # this process only (mkdocs runs in a child)
            return name, summary

        return run

    return [wrap(stage) for stage in stages]


def _build(shelf: Path, settings, executor=None, site: bool = True) -> tuple[dict, object]:
    from shelfwise.compiler.build import build_shelf, conversion_peak_mb
    from shelfwise.compiler.build import default_stages

    marks: dict = {"site": {"seconds": 0.0}}
    stages = _timed_stages(default_stages(settings, site=site, shelf_dir=shelf, executor=executor), marks)
    started = time.perf_counter()
    report = build_shelf(shelf, settings, progress=lambda _l: None, stages=stages, executor=executor)
    total = time.perf_counter() - started
    per = {"convert": {"seconds": round(marks["first_stage_at"] - started, 2), "peak_rss_mb": None}}
    indexes = report.stages["indexes"]
    per["lexical"] = {"seconds": indexes["lexical_seconds"]}
    per["dense"] = {"seconds": indexes["dense_seconds"], "peak_rss_mb": marks["indexes"]["peak_rss_mb"]}
    per["links"], per["site"] = marks["links"], marks["site"]
    return {"seconds": round(total, 2), "stages": per, "conversion_worker_peak_mb": round(conversion_peak_mb(), 1),
            "load_at_end": round(os.getloadavg()[0], 2),
            "failed": [f"{d.path}: {d.reason}" for d in report.failed]}, report


def _edit_one(shelf: Path) -> str:
    path = sorted(shelf.rglob("*.md"))[0]
    text = path.read_text(encoding="utf-8")
    path.write_text(text.rstrip() + "\n\nThis paragraph was added by the scale benchmark's incremental rebuild.\n", encoding="utf-8")
    return path.relative_to(shelf).as_posix()


def _queries(specs) -> tuple[list[str], list[str]]:
    """60 search queries and 20 questions about the generated documents (codes, topics, names, rules)."""
    step = max(1, len(specs) // 20)
    chosen = specs[::step][:20]
    searches, questions = [], []
    for spec in chosen:
        topic = spec.subject.split(" of ")[-1].split(" for ")[-1].split(" in ")[-1].lower()
        owner = spec.sections[0].paragraphs[1].split("owned by ")[1].split(" and ")[0]
        searches += [f"{spec.code} exceptions", f"retention of {topic} records", f"{owner} responsibilities"]
        questions.append(f"How long must records of each {topic} activity be retained under {spec.code}?")
    return searches, questions


def _serve_figures(build_root: Path, specs, settings) -> dict:
    from shelfwise.api.answer import answer_question, build_pipeline
    from shelfwise.api.schemas import AskRequest
    from shelfwise.api.shelves import close_shelves, open_shelves
    from shelfwise.compiler.index.embedders import embedder_from_settings

    name = build_root.name
    started = time.perf_counter()
    shelves = open_shelves({name: build_root}, embedder_from_settings(settings), settings=settings)
    open_s = time.perf_counter() - started
    searcher = shelves[name].searcher
    searches, questions = _queries(specs)
    searcher.search("warm up", k=10)
    timings = []
    for query in searches:
        searcher.forget_queries()
        started = time.perf_counter()
        searcher.search(query, k=20)
        timings.append(time.perf_counter() - started)
    cold = []
    for query in searches:  # every word's postings read from the index again (none kept from earlier queries)
        searcher.forget_queries()
        searcher.lexical.forget_postings()
        started = time.perf_counter()
        searcher.search(query, k=20)
        cold.append(time.perf_counter() - started)
    pipeline = build_pipeline(settings, {})
    asks, labels = [], []
    answer_question(pipeline, AskRequest(question=questions[0], shelves=[name]), shelves, token="bench", traces=None)
    for question in questions:
        searcher.forget_queries()
        started = time.perf_counter()
        response = answer_question(pipeline, AskRequest(question=question, shelves=[name]), shelves, token="bench", traces=None)
        asks.append(time.perf_counter() - started)
        labels.append(response.label)
    close_shelves(shelves)
    return {"open_seconds": round(open_s, 2), "search": _percentiles(timings),
            "search_cold_postings": _percentiles(cold), "ask": _percentiles(asks),
            "ask_labels": {label: labels.count(label) for label in sorted(set(labels))}}


def _site_build(report) -> dict:
    """Which site build ran (full or incremental, shelfwise/compiler/publish/site_incremental.py), its pages built and mkdocs seconds."""
    site = report.stages.get("site", {})
    return {key: site[key] for key in ("build", "full_reason", "pages_built", "pages", "mkdocs_seconds") if key in site}


def child(size: int, work: Path, seed: int) -> dict:
    """One size, start to end, in this (fresh) process; returns its figures."""
    from shelfwise.compiler.settings import Settings
    from shelfwise.eval.synth import DEFAULT_MIX, generate_shelf

    shelf = work / f"synth{size}"
    load = round(os.getloadavg()[0], 2)
    started = time.perf_counter()
    if shelf.exists():
        import shutil

        shutil.rmtree(shelf)
    specs = generate_shelf(shelf, size, seed)
    generate_s = time.perf_counter() - started
    settings = Settings(build_dir=work / "build")
    build_root = settings.build_dir / shelf.name
    if build_root.exists():
        import shutil

        shutil.rmtree(build_root)
    full, report = _build(shelf, settings)
    edited = _edit_one(shelf)
    incremental, second = _build(shelf, settings)
    current = build_root / "current"
    out = {
        "documents": size,
        "load_average_1m_at_start": load,
        "load_average_1m_at_end_of_compile": full.pop("load_at_end"),
        "formats": {fmt: sum(1 for s in specs if s.fmt == fmt) for fmt in DEFAULT_MIX},
        "sections": sum(d.sections for d in report.documents),
        "passages": report.stages["indexes"]["vectors"]["passages"],
        "links": report.stages["links"]["links"],
        "links_by_kind": report.stages["links"]["links_by_kind"],
        "hooks_resolved": report.stages["links"]["hooks_resolved"],
        "hooks_open": report.stages["links"]["hooks_open"],
        "generate_seconds": round(generate_s, 2),
        "compile": {**full, "site_build": _site_build(report)},
        "peak_rss_mb": round(max(_rss_mb(), full["conversion_worker_peak_mb"]), 1),
        "incremental": {"edited": edited, "reconverted": second.count("converted"), **incremental,
                        "site_build": _site_build(second), "ratio": round(incremental["seconds"] / full["seconds"], 4)},
        "store_mb": _dir_mb(current / "store.sqlite"),
        "lexical_mb": _dir_mb(current / "lexical"),
        "site_mb": _dir_mb(current / "site"),
        "shelf_mb": _dir_mb(shelf / "documents"),
    }
    out.update(_serve_figures(build_root, specs, settings))
    out["peak_rss_mb"] = round(max(_rss_mb(), full["conversion_worker_peak_mb"]), 1)
    return out


def ray_child(size: int, work: Path, seed: int, cpus: int) -> dict:
    """The same shelf compiled serially and on a local Ray cluster of ``cpus`` CPUs, back to back (no site)."""
    import shutil

    from shelfwise.compiler.executors import RayExecutor
    from shelfwise.compiler.settings import Settings
    from shelfwise.eval.synth import generate_shelf

    shelf = work / f"raysynth{size}"
    shutil.rmtree(shelf, ignore_errors=True)
    generate_shelf(shelf, size, seed)
    out = {"documents": size, "cpus": cpus, "load_average_1m_at_start": round(os.getloadavg()[0], 2)}
    for name in ("serial", "ray"):
        settings = Settings(build_dir=work / f"build-{name}")
        shutil.rmtree(settings.build_dir, ignore_errors=True)
        started = time.perf_counter()
        executor = RayExecutor(num_cpus=cpus) if name == "ray" else None
        startup = time.perf_counter() - started
        try:
            figures, _ = _build(shelf, settings, executor, site=False)
        finally:
            if executor is not None:
                executor.shutdown()
        out[name] = {"seconds": round(time.perf_counter() - started, 2), "cluster_start_seconds": round(startup, 2),
                     "stages": figures["stages"]}
    serial, ray = out["serial"], out["ray"]
    out["ratio"] = round(ray["seconds"] / serial["seconds"], 3)
    parallel = sum(serial["stages"][s]["seconds"] for s in ("convert", "dense"))
    rest = serial["seconds"] - parallel
    out["serial_parallel_part_seconds"] = round(parallel, 2)
    out["serial_remainder_seconds"] = round(rest, 2)
    out["projected_seconds_by_workers"] = {str(n): round(rest + parallel / n + ray["cluster_start_seconds"], 1) for n in (2, 8, 32)}
    return out


def growth(results: dict) -> dict:
    """Per stage, the exponent b in seconds ∝ documents^b between the smallest and the largest size measured."""
    sizes = sorted(int(n) for n in results)
    if len(sizes) < 2:
        return {}
    low, high = results[str(sizes[0])], results[str(sizes[-1])]
    out = {}
    for stage in (*STAGES, "total"):
        a = low["compile"]["seconds"] if stage == "total" else low["compile"]["stages"][stage]["seconds"]
        b = high["compile"]["seconds"] if stage == "total" else high["compile"]["stages"][stage]["seconds"]
        out[stage] = round(math.log(max(b, 1e-3) / max(a, 1e-3)) / math.log(sizes[-1] / sizes[0]), 2)
    return {"from": sizes[0], "to": sizes[-1], "exponent": out}


def plot(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = sorted(int(n) for n in results)
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    for stage in (*STAGES, "total"):
        ys = [results[str(n)]["compile"]["seconds"] if stage == "total" else results[str(n)]["compile"]["stages"][stage]["seconds"]
              for n in sizes]
        ax.plot(sizes, [max(y, 0.01) for y in ys], marker="o", label=stage, linewidth=2.5 if stage == "total" else 1.5)
    if sizes:
        base = results[str(sizes[0])]["compile"]["seconds"]
        ax.plot(sizes, [base * n / sizes[0] for n in sizes], linestyle=":", color="grey", label="linear (from total)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("documents")
    ax.set_ylabel("seconds (compile from nothing)")
    ax.set_title("shelfwise compile seconds per stage against shelf size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _summary(size: str, r: dict) -> str:
    stages = ", ".join(f"{s} {r['compile']['stages'][s]['seconds']:g} s" for s in STAGES)
    return (f"{size} documents ({r['sections']} sections, {r['passages']} passages, {r['links']} links): compile "
            f"{r['compile']['seconds']:g} s ({stages}), peak RSS {r['peak_rss_mb']:g} MB; one edit rebuilds in "
            f"{r['incremental']['seconds']:g} s ({r['incremental']['ratio']:.1%}); search p50/p95 "
            f"{r['search']['p50_ms']:g}/{r['search']['p95_ms']:g} ms; ask p50/p95 {r['ask']['p50_ms']:g}/{r['ask']['p95_ms']:g} ms; "
            f"store {r['store_mb']:g} MB, lexical {r['lexical_mb']:g} MB, site {r['site_mb']:g} MB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--work", type=Path, default=Path("/tmp/shelfwise-scale"), help="where shelves and builds are written")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--plot-only", action="store_true", help="redraw the PNG from --out")
    parser.add_argument("--ray", type=int, default=None, metavar="N", help="only compare a serial and a local-Ray compile of N documents (eval/results/scale-ray.json)")
    parser.add_argument("--ray-cpus", type=int, default=2)
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        print(json.dumps(ray_child(args.child, args.work, args.seed, args.ray_cpus) if args.ray else child(args.child, args.work, args.seed)))
        return 0
    if args.ray:
        args.work.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([sys.executable, "-m", "shelfwise.eval.bench.scale", "--child", str(args.ray), "--ray", str(args.ray),
                               "--ray-cpus", str(args.ray_cpus), "--work", str(args.work), "--seed", str(args.seed)],
                              capture_output=True, text=True, cwd=ROOT, env=os.environ)
        if proc.returncode != 0:
            print(proc.stderr[-4000:], file=sys.stderr)
            return 1
        r = json.loads(proc.stdout.strip().splitlines()[-1])
        RAY_OUT.write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
        print(f"{r['documents']} documents without the site: serial {r['serial']['seconds']} s, Ray on {r['cpus']} CPUs "
              f"{r['ray']['seconds']} s (ratio {r['ratio']}); projected with more workers: {r['projected_seconds_by_workers']}")
        return 0
    data = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    results = data.get("sizes", {})
    if not args.plot_only:
        args.work.mkdir(parents=True, exist_ok=True)
        for size in (int(s) for s in args.sizes.split(",") if s):
            print(f"compiling a synthetic shelf of {size} documents ...", flush=True)
            proc = subprocess.run([sys.executable, "-m", "shelfwise.eval.bench.scale", "--child", str(size), "--work", str(args.work),
                                   "--seed", str(args.seed)], capture_output=True, text=True, cwd=ROOT, env=os.environ)
            if proc.returncode != 0:
                print(proc.stderr[-4000:], file=sys.stderr)
                return 1
            results[str(size)] = json.loads(proc.stdout.strip().splitlines()[-1])
            print(_summary(str(size), results[str(size)]), flush=True)
            data = {**data, "machine": f"{platform.node()} {os.cpu_count()} CPUs, Python {platform.python_version()}",
                    "load_average_1m": round(os.getloadavg()[0], 2), "floors": FLOORS,
                    "sizes": dict(sorted(results.items(), key=lambda kv: int(kv[0]))), "growth": growth(results)}
            args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            plot(data["sizes"], args.out.with_suffix(".png"))
    if args.plot_only and results:
        plot(results, args.out.with_suffix(".png"))
    if data.get("growth"):
        print("growth exponents (seconds ∝ documents^b):", data["growth"]["exponent"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
