"""The benchmark tables, read from the committed results (eval/results/*.json) each time the docs are built, so a
figure on a page is the figure the last run wrote. One function per results file; a file that is missing or lost a
key fails the build with its name (``mkdocs build --strict``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

__all__ = ["TABLES", "benchmark_table"]

RESULTS = Path(__file__).resolve().parents[2] / "eval" / "results"


def _read(name: str) -> dict:
    path = RESULTS / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"benchmark table: cannot read {path}: {exc}") from exc


def _n(value, digits: int = 0) -> str:
    if value is None:
        return "—"
    return f"{value:,.{digits}f}" if isinstance(value, (int, float)) else str(value)


def _table(header: list[str], rows: list[list[str]], source: str) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + f"\n\n_Generated from `eval/results/{source}`._\n"


def scale() -> str:
    data = _read("scale.json")
    rows = []
    for size, s in sorted(data["sizes"].items(), key=lambda item: int(item[0])):
        stages = s["compile"]["stages"]
        edit = s["incremental"]
        rows.append([_n(int(size)), _n(s["sections"]), _n(s["compile"]["seconds"], 1)]
                    + [_n(stages[name]["seconds"], 1) for name in ("convert", "dense", "lexical", "links", "site")]
                    + [f"{_n(s['peak_rss_mb'])} MB", f"{_n(edit['seconds'], 2)} s ({edit['ratio']:.1%})",
                       f"{_n(s['search']['p95_ms'])} ms", f"{_n(s['ask']['p95_ms'] / 1000, 2)} s",
                       f"{_n(s['store_mb'])} / {_n(s['site_mb'])}", _n(s.get("load_average_1m_at_start"), 1)])
    header = ["documents", "sections", "compile s", "convert", "dense", "lexical", "links", "site", "peak RSS",
              "one edit", "search p95", "ask p95", "store / site MB", "load"]
    growth = data["growth"]
    exponents = ", ".join(f"{name} {value}" for name, value in growth["exponent"].items())
    return _table(header, rows, "scale.json") + f"\nGrowth exponents from {growth['from']:,} to {growth['to']:,} documents (seconds ∝ documents^b): {exponents}.\n"


def scale_ray() -> str:
    data = _read("scale-ray.json")
    rows = [[run, _n(data[run]["seconds"], 1), _n(data[run]["cluster_start_seconds"], 1),
             _n(data[run]["stages"]["convert"]["seconds"], 1), _n(data[run]["stages"]["dense"]["seconds"], 1)] for run in ("serial", "ray")]
    projected = ", ".join(f"{workers} workers ≈ {_n(seconds)} s" for workers, seconds in data["projected_seconds_by_workers"].items())
    return (_table(["run", "seconds", "cluster start s", "convert s", "dense s"], rows, "scale-ray.json")
            + f"\n{data['documents']} documents on {data['cpus']} CPUs; ray / serial {data['ratio']}; projected: {projected}.\n")


def compile_shelves() -> str:
    data = _read("compile.json")
    rows = [[shelf, _n(s["documents"]), _n(s["sections"]), _n(s["seconds_full"], 1), s["edited"], _n(s["seconds_incremental"], 2),
             f"{s['incremental_ratio']:.1%}"] for shelf, s in sorted(data.items()) if isinstance(s, dict) and "seconds_full" in s]
    return _table(["shelf", "documents", "sections", "compile s", "edited", "recompile s", "ratio"], rows, "compile.json")


def site() -> str:
    data = _read("site.json")
    rows = [[s["shelf"], _n(s["documents"]), _n(s["pages"]), _n(s["sections"]), _n(s["site_mb"], 1), _n(s["build_seconds"], 2),
             _n(s["mkdocs_seconds"], 2), _n(s["plain_mkdocs_seconds"], 2), _n(s["overhead_ratio"], 2)] for s in data["shelves"]]
    return _table(["shelf", "documents", "pages", "sections", "site MB", "build s", "mkdocs s", "plain mkdocs s", "overhead ×"], rows, "site.json")


def search() -> str:
    data = _read("bench-search.json")
    routes = ["bm25", "dense", "embed_query", "fused"]
    rows = [[shelf, _n(s["documents"])] + [_n(s["latency"][route]["p95_ms"], 1) for route in routes] + [s["dense_knn"]["top10_identical"]]
            for shelf, s in sorted(data["shelves"].items())]
    return (_table(["shelf", "documents"] + [f"{route} p95 ms" for route in routes] + ["dense top 10 = numpy"], rows, "bench-search.json")
            + f"\nTarget: hybrid p95 under {_n(data['hybrid_p95_target_ms'])} ms; all within it: {data['all_within_target']}"
              f" ({data['queries']} queries, {data['cpu_count']} CPUs, load {data['load_average_1m_at_start']}).\n")


def embed() -> str:
    speed = _read("embed.json")["speed"]
    rows = [[backend, _n(speed["passages_per_s"][backend], 2), f"{speed['speedup_vs_torch'][backend]}×",
             _n(speed["query_latency"][backend]["p50_ms"], 1), _n(speed["query_latency"][backend]["p95_ms"], 1)] for backend in speed["passages_per_s"]]
    return _table(["backend", "passages/s", "vs torch", "query p50 ms", "query p95 ms"], rows, "embed.json")


def retrieval() -> str:
    systems = ["bm25 sections", "dense sections", "hybrid sections", "section reading units", "chunk RAG (2000/250, bm25+dense)"]
    rows = []
    for name in ("dev", "dev-formats", "northwind"):
        data = _read(f"retrieval-{name}.json")
        for system in systems:
            m = data["systems"][system]
            rows.append([name, system, _n(m["recall@10"], 3), _n(m["ndcg@10"], 3), _n(m["mrr"], 3), _n(m["budget_16k"], 3)])
    return _table(["set", "system", "recall@10", "nDCG@10", "MRR", "evidence in 16k characters"], rows, "retrieval-*.json")


def reference() -> str:
    rows = []
    for label in ("before", "after"):
        s = _read(f"reference-dev-filings-sample30-{label}.json")["summary"]["all"]
        rows.append([label, _n(s["n"]), _n(s["source_top10"], 3), _n(s["source_cited"], 3), _n(s["figures_answer"], 3),
                     _n(s["figures_cited"], 3), _n(s["figures_ceiling"], 3), _n(s["figures_chunks"], 3)])
    return _table(["run", "questions", "source in top 10", "source cited", "figures in answer", "in cited sections",
                   "in source text", "in chunk-RAG top chunks"], rows, "reference-dev-filings-sample30-*.json")


def research() -> str:
    rows = [[f"{s['questions']} ({s['must_items']} items)", _n(s["reading_budget_chars"]), _n(s["research_max_chars"]),
             _n(s["evidence_read_fixed"], 3), _n(s["evidence_read_expansion"], 3), _n(s["evidence_read_fixed_wider"], 3),
             f"{_n(s['mean_chars_fixed'])} + {_n(s['mean_chars_added'])} ({_n(s['mean_chars_fixed_wider'])})"] for s in _read("research.json")["sets"]]
    return _table(["set", "reading budget", "added at most", "fixed loop", "expansion", "fixed loop + same characters",
                   "characters: fixed + added (control)"], rows, "research.json")


def openai_api() -> str:
    d = _read("openai_api.json")
    stream = d["stream"]
    rows = [["plain reply", _n(d["plain"]["p50_ms"], 1), _n(d["plain"]["p95_ms"], 1)],
            ["streamed: first byte", _n(stream["ttfb_ms"]["p50_ms"], 1), _n(stream["ttfb_ms"]["p95_ms"], 1)],
            ["streamed: first content", _n(stream["first_content_ms"]["p50_ms"], 1), _n(stream["first_content_ms"]["p95_ms"], 1)],
            ["streamed: content after the answer was ready", _n(stream["after_ready_ms"]["p50_ms"], 1), _n(stream["after_ready_ms"]["p95_ms"], 1)]]
    return (_table(["", "p50 ms", "p95 ms"], rows, "openai_api.json")
            + f"\n{d['questions']} questions × {d['runs']} runs on {d['shelf']}, {d['mode']}.\n")


def compare() -> str:
    d = _read("compare.json")
    rows = [[_n(d["pairs"]), _n(d["truth_changes"]), _n(d["found"]), _n(d["recall"], 3), _n(d["wrong_values_or_directions"]),
             _n(d["unchanged_reported"]), _n(d["seconds_per_pair"], 4)]]
    return _table(["pairs", "true changes", "found", "recall", "wrong value or direction", "unchanged reported", "s per pair"], rows, "compare.json")


TABLES: dict[str, Callable[[], str]] = {
    "scale": scale, "scale-ray": scale_ray, "compile": compile_shelves, "site": site, "search": search, "embed": embed,
    "retrieval": retrieval, "reference": reference, "research": research, "openai-api": openai_api, "compare": compare,
}


def benchmark_table(name: str) -> str:
    if name not in TABLES:
        raise ValueError(f"no benchmark table {name!r}; known: {', '.join(TABLES)} (docs/hooks/benchmark_tables.py)")
    return TABLES[name]()
