"""Embedding benchmark: every local backend of all-MiniLM-L6-v2 side by side, in one run.

    .venv/bin/python -m shelfwise.eval.bench.embed --build-dir /work/bf [--work /tmp/embed-bf] [--per-shelf 48]

- passages/s of each backend (shelfwise.compiler.index.backends: torch as configured today, onnx, onnx-int8) on
  the real headed passages of the compiled shelves under ``--build-dir`` (the same sample for every backend), each
  embedded as the build embeds them (``embed_batch`` on ``batch_size`` texts at a time); the backends take turns,
  round after round, so a busy machine slows them alike;
- query latency (p50/p95) of each: one question at a time, the dev, dev-formats and northwind questions;
- how far each backend's vectors are from torch's (cosine, min and mean over the sample);
- retrieval (``shelfwise eval retrieval`` machinery, chunk baseline left out) on dev.yaml, dev-formats.yaml and
  shelves/northwind/questions.yaml for each backend in ``--retrieval``: the shelves are copied from ``--build-dir``
  (never written there) to ``--work/<backend>/`` and re-indexed with that backend (conversion is not redone: only
  the passages are embedded again), then scored.

Figures print and go to eval/results/embed.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from shelfwise.compiler.index.backends import LOCAL_MODEL_IDS, local_embedder, stored_model_id
from shelfwise.compiler.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
QUESTION_FILES = [ROOT.parent / "shared" / "questions" / "dev.yaml", ROOT.parent / "shared" / "questions" / "dev-formats.yaml",
                  ROOT / "shelves" / "northwind" / "questions.yaml"]
HEADLINE = {"hybrid sections": ("ndcg@10", "budget_16k"), "dense sections": ("ndcg@10", "budget_16k"),
            "section reading units": ("ndcg@10", "budget_16k")}


def _generation(shelf_dir: Path) -> Path:
    from shelfwise.compiler.store.generations import current_generation

    return current_generation(shelf_dir) or shelf_dir


def sample_passages(build_dir: Path, work: Path, shelves: list[str], per_shelf: int, cache_dir: Path) -> dict[str, list[str]]:
    """Up to ``per_shelf`` passages of each shelf's torch-embedded store, evenly spread over the shelf (read from the
    copy under ``work/torch``: the build dir is never opened for writing)."""
    from shelfwise.compiler.store.store import Store

    root, _ = copy_and_reembed(build_dir, work, shelves, "torch", cache_dir)
    out: dict[str, list[str]] = {}
    for shelf in shelves:
        store = Store(root / shelf / "store.sqlite", create=False)
        try:
            rows = store.vectors.passage_vectors(LOCAL_MODEL_IDS["torch"])
            step = max(1, len(rows) // per_shelf)
            out[shelf] = [store.vectors.passage_text(row.passage_id) or "" for row in rows[::step][:per_shelf]]
        finally:
            store.close()
    return out


def _embed_as_built(embedder, texts: list[str]) -> np.ndarray:
    vectors: list[list[float]] = []
    for start in range(0, len(texts), embedder.batch_size):
        vectors.extend(embedder.embed_batch(texts[start : start + embedder.batch_size]))
    return np.asarray(vectors, dtype=np.float32)


def throughput(embedders: dict, texts: list[str], rounds: int) -> tuple[dict, dict, dict]:
    """Passages/s per backend (turns taken round by round), each round's speedup over torch, and each backend's
    vectors of the last round."""
    seconds = {name: [] for name in embedders}
    vectors: dict[str, np.ndarray] = {}
    for round_number in range(rounds):
        for name, embedder in embedders.items():
            started = time.perf_counter()
            vectors[name] = _embed_as_built(embedder, texts)
            seconds[name].append(time.perf_counter() - started)
        print(f"  round {round_number + 1}/{rounds}: " + ", ".join(f"{n} {len(texts) / seconds[n][-1]:.1f}/s" for n in embedders), flush=True)
    rates = {name: round(len(texts) * rounds / sum(values), 2) for name, values in seconds.items()}
    per_round = {name: [round(torch_s / s, 2) for torch_s, s in zip(seconds["torch"], values)] for name, values in seconds.items()}
    return rates, per_round, vectors


def query_latency(embedders: dict, queries: list[str], rounds: int) -> dict:
    samples: dict[str, list[float]] = {name: [] for name in embedders}
    for _ in range(rounds):
        for query in queries:
            for name, embedder in embedders.items():
                started = time.perf_counter()
                embedder.embed_batch([query])
                samples[name].append(time.perf_counter() - started)
    out = {}
    for name, values in samples.items():
        ordered = sorted(values)
        out[name] = {"p50_ms": round(statistics.median(ordered) * 1000, 2),
                     "p95_ms": round(ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))] * 1000, 2), "n": len(ordered)}
    return out


def questions_of(paths: list[Path]) -> list[tuple[str, str]]:
    from shelfwise.eval.questions import load_questions

    return [(q.shelf, q.question) for path in paths for q in load_questions(path)]


def copy_and_reembed(build_dir: Path, work: Path, shelves: list[str], backend: str, cache_dir: Path) -> tuple[Path, dict]:
    """``work/<backend>/<shelf>`` (store.sqlite and lexical/ of the shelf's current generation), indexed with ``backend``."""
    from shelfwise.compiler.index.indexes import index_shelf
    from shelfwise.compiler.store.store import Store

    target_root = work / backend
    embedder = local_embedder(backend, cache_dir=cache_dir)
    timings = {}
    for shelf in shelves:
        source, target = _generation(build_dir / shelf), target_root / shelf
        if not (target / "store.sqlite").exists():
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            for name in ("store.sqlite", "store.sqlite-wal"):
                if (source / name).exists():
                    shutil.copy2(source / name, target / name)
            shutil.copytree(source / "lexical", target / "lexical")
        store = Store(target / "store.sqlite", create=False)
        try:
            started = time.perf_counter()
            stats = index_shelf(store, target / "lexical", embedder, [], [], progress=lambda line: print(f"  {shelf}: {line}", flush=True))
            timings[shelf] = {"seconds": round(time.perf_counter() - started, 1), "embedded": stats.vectors.embedded,
                              "passages": stats.vectors.passages, "model": stored_model_id(store)}
        finally:
            store.close()
    return target_root, timings


def _set_name(path: Path) -> str:
    return path.stem if path.stem != "questions" else path.parent.name


def retrieval(build_dir: Path, work: Path, backend: str, cache_dir: Path, sets: list[str]) -> dict:
    from shelfwise.eval.questions import load_questions
    from shelfwise.eval.retrieval import run_retrieval_eval

    paths = [path for path in QUESTION_FILES if not sets or _set_name(path) in sets]
    shelves = sorted({q.shelf for path in paths for q in load_questions(path)})
    root, reembedded = copy_and_reembed(build_dir, work, shelves, backend, cache_dir)
    embedder = local_embedder(backend, cache_dir=cache_dir)
    out: dict = {"reindexed": reembedded, "sets": {}}
    for path in paths:
        result = run_retrieval_eval(path, build_dir=root, embedder=embedder, results_path=root / f"retrieval-{path.stem}.json",
                                    baseline=False)
        out["sets"][_set_name(path)] = {
            system: {metric: result["systems"][system][metric] for metric in metrics} for system, metrics in HEADLINE.items()
        }
    return out


def speed(build_dir: Path, work: Path, cache_dir: Path, per_shelf: int, rounds: int, only: list[str]) -> dict:
    """passages/s, query latency and agreement with torch of every backend, in turns."""
    shelves = sorted(p.name for p in build_dir.iterdir() if (_generation(p) / "store.sqlite").exists()) if build_dir.is_dir() else []
    shelves = [shelf for shelf in shelves if not only or shelf in only]
    if not shelves:
        raise SystemExit(f"no compiled shelves under {build_dir}: compile them first, e.g. "
                         f"'shelfwise build ../shared/corpora/oauth --build-dir {build_dir}' for each corpus and shelves/northwind")
    passages = sample_passages(build_dir, work, shelves, per_shelf, cache_dir)
    texts = sorted((t for shelf in shelves for t in passages[shelf]), key=lambda t: hashlib.sha256(t.encode()).hexdigest())  # the build's order
    threads = Settings().embeddings.threads
    embedders = {backend: local_embedder(backend, cache_dir=cache_dir, threads=threads) for backend in LOCAL_MODEL_IDS}
    started = time.perf_counter()
    for embedder in embedders.values():
        embedder.embed_batch(texts[:2])  # load (and, the first time, export) every model before timing
    print(f"models loaded in {time.perf_counter() - started:.1f} s; {len(texts)} passages of {len(shelves)} shelves", flush=True)
    load = os.getloadavg()[0]
    rates, per_round, vectors = throughput(embedders, texts, rounds)
    latency = query_latency(embedders, [question for _, question in questions_of(QUESTION_FILES)], rounds)
    query_ratio = {name: {q: round(figures[q] / latency["torch"][q], 2) for q in ("p50_ms", "p95_ms")} for name, figures in latency.items()}
    reference = vectors["torch"]
    agreement = {name: {"cosine_min": round(float((v * reference).sum(axis=1).min()), 5),
                        "cosine_mean": round(float((v * reference).sum(axis=1).mean()), 5)} for name, v in vectors.items()}
    return {
        "machine": platform.platform(), "cores": os.cpu_count(), "load_average_1m_at_start": round(load, 2),
        "load_average_1m_at_end": round(os.getloadavg()[0], 2),
        "model_ids": {name: embedder.model_id for name, embedder in embedders.items()},
        "torch_threads": threads, "onnx_batch_threads": embedders["onnx"].batch_threads, "onnx_run_tokens": embedders["onnx"].run_tokens,
        "texts_per_embed_batch_call": {name: embedder.batch_size for name, embedder in embedders.items()},
        "passages": {shelf: len(passages[shelf]) for shelf in shelves},
        "passages_per_s": rates, "speedup_vs_torch": {name: round(rate / rates["torch"], 2) for name, rate in rates.items()},
        "speedup_vs_torch_per_round": per_round,
        "speedup_vs_torch_median_round": {name: statistics.median(values) for name, values in per_round.items()},
        "query_latency": latency, "query_latency_vs_torch": query_ratio, "agreement_with_torch": agreement,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build", help="shelves compiled with the torch backend (read only)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "bench-embed", help="where shelves are copied and re-embedded")
    parser.add_argument("--per-shelf", type=int, default=48, help="passages sampled from each shelf for passages/s")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--shelves", default="", help="shelves sampled for passages/s (default: every compiled shelf)")
    parser.add_argument("--retrieval", default="torch,onnx-int8", help="backends scored on the question sets ('' for none)")
    parser.add_argument("--sets", default="", help="question sets scored: dev, dev-formats, northwind (default: all three)")
    parser.add_argument("--no-speed", action="store_true", help="only the retrieval figures (the speed figures already in --out are kept)")
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results" / "embed.json")
    args = parser.parse_args()
    cache_dir = args.work / ".embedders"
    result = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not args.no_speed:
        result["speed"] = {"command": "python -m shelfwise.eval.bench.embed " + " ".join(sys.argv[1:]),
                           **speed(args.build_dir, args.work, cache_dir, args.per_shelf, args.rounds, [x for x in args.shelves.split(',') if x])}
        print(json.dumps({k: result["speed"][k] for k in ("passages_per_s", "speedup_vs_torch", "speedup_vs_torch_per_round", "query_latency",
                                                           "query_latency_vs_torch", "agreement_with_torch")}, indent=1), flush=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    for backend in [b for b in args.retrieval.split(",") if b]:
        figures = retrieval(args.build_dir, args.work, backend, cache_dir, [x for x in args.sets.split(",") if x])
        entry = result.setdefault("retrieval", {}).get(backend)
        if not entry or entry.get("model") != LOCAL_MODEL_IDS[backend]:  # figures of an earlier recipe of this backend: start anew
            entry = result["retrieval"][backend] = {"model": LOCAL_MODEL_IDS[backend], "commands": [], "reindexed": {}, "sets": {}}
        entry["commands"].append("python -m shelfwise.eval.bench.embed " + " ".join(sys.argv[1:]))
        entry["reindexed"].update(figures["reindexed"])
        entry["sets"].update(figures["sets"])
        print(backend, json.dumps(figures["sets"], indent=1), flush=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
