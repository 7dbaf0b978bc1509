"""Benchmark of the answering endpoint (model-free) against a real uvicorn server on 127.0.0.1.

    .venv/bin/python -m shelfwise.eval.bench.api [--shelves northwind typing ...] [--seconds 60] [--embedder local|hash]

Measures: /api/ask latency p50/p95 per shelf; requests/s held by 8 concurrent
clients for --seconds with the error count; the server's memory with every
shelf loaded; per dev.yaml (and the demo truth file) question, the share of
must items whose evidence sections were read. Shelves missing from the build
dir are compiled first (index and ledger stages). Writes eval/results/api.json.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[3]
CORPORA = ROOT.parent / "shared" / "corpora"
DEV = ROOT.parent / "shared" / "questions" / "dev.yaml"
DEMO = ROOT / "shelves" / "northwind"
ALL_SHELVES = ["northwind", "identity", "licenses", "make", "oauth", "office", "papers", "typing"]
TOKEN = "bench-token"


def _embedder(kind: str, build_dir: Path):
    if kind == "local":  # the configured local backend (embeddings.backend), as 'shelfwise serve' embeds queries
        from shelfwise.compiler.index.embedders import embedder_from_settings
        from shelfwise.compiler.settings import Settings

        return embedder_from_settings(Settings(build_dir=build_dir))
    sys.path.insert(0, str(ROOT / "tests"))
    from answer_shelves import HashEmbedder

    return HashEmbedder()


def _shelf_dir(name: str) -> Path:
    return DEMO if name == "northwind" else CORPORA / name


def ensure_built(names: list[str], build_dir: Path, embedder_kind: str) -> dict[str, Path]:
    from shelfwise.compiler.build import build_shelf
    from shelfwise.compiler.index.indexes import index_stage
    from shelfwise.compiler.build import links_stage
    from shelfwise.compiler.settings import Settings

    built = {}
    for name in names:
        out = build_dir / name
        if not (out / "store.sqlite").exists() or not (out / "lexical").exists():
            started = time.perf_counter()
            exclude = ["source/**", "*.py", "*.yaml"] if name == "northwind" else ["SOURCES.md"]
            build_shelf(_shelf_dir(name), Settings(build_dir=build_dir), progress=lambda line: None,
                        stages=[index_stage(_embedder(embedder_kind, build_dir)), links_stage()], exclude=exclude)
            print(f"compiled {name} in {time.perf_counter() - started:.1f} s", flush=True)
        built[name] = out
    return built


def child(build_dir: Path, names: list[str], port: int, embedder_kind: str, trace_db: Path) -> None:
    """The server process: every shelf loaded, one token granting them all, no rate limit in the way."""
    import uvicorn

    from shelfwise.api.server.app import create_app
    from shelfwise.compiler.settings import Settings

    settings = Settings.model_validate({
        "build_dir": str(build_dir),
        "api": {"tokens": [{"name": "bench", "token": TOKEN, "shelves": names}], "rate_limit_per_minute": 1_000_000,
                "trace_db": str(trace_db)},
    })
    app = create_app(settings, chat=None, embedder=_embedder(embedder_kind, build_dir), stores={n: build_dir / n for n in names})
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def _questions(names: list[str]) -> dict[str, list[dict]]:
    items = yaml.safe_load(DEV.read_text()) + yaml.safe_load((DEMO / "questions.yaml").read_text())
    by_shelf: dict[str, list[dict]] = {n: [] for n in names}
    for item in items:
        if item["shelf"] in by_shelf:
            by_shelf[item["shelf"]].append(item)
    return by_shelf


def _generic(build_dir: Path, name: str, n: int = 6) -> list[dict]:
    """Questions from a shelf's own headings, for shelves without a truth file."""
    from shelfwise.compiler.store.store import Store

    store = Store(build_dir / name / "store.sqlite", create=False)
    try:
        headings = store.long_section_headings(200, n)
    finally:
        store.close()
    return [{"question": f"What do the documents say about {heading}?", "must": []} for heading in headings]


def _evidence_read(build_dir: Path, item: dict, read: set[str]) -> float | None:
    from shelfwise.compiler.store.store import Store

    if not item.get("must"):
        return None
    store = Store(build_dir / item["shelf"] / "store.sqlite", create=False)
    try:
        docs = {row["path"]: row["doc_id"] for row in store.documents()}
        hits = 0
        for must in item["must"]:
            ok = False
            for ev in must["evidence"]:
                path = ev["doc"]
                doc = docs.get(path)
                if doc is None:
                    continue
                quote = " ".join(ev["quote"].split())
                sections = {s.id for s in store.sections(doc) if quote in " ".join(s.text.split())}
                ok = ok or bool(sections & read)
            hits += ok
        return round(hits / len(item["must"]), 3)
    finally:
        store.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_up(base: str, server: subprocess.Popen) -> float:
    """Seconds until the server at ``base`` answers its health check (it must within 300 s)."""
    started = time.perf_counter()
    while True:
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if server.poll() is not None or time.perf_counter() - started > 300:
            raise SystemExit("the server did not start")
        time.sleep(0.5)
    return round(time.perf_counter() - started, 2)


def _load_test(base: str, headers: dict, all_q: list[tuple[str, str]], clients: int, seconds: float) -> tuple[dict, float]:
    """``clients`` threads asking the questions ``all_q`` in turn for ``seconds``: the answers that came back (ok) and
    those that failed (errors), and the seconds the test took."""
    counts = {"ok": 0, "errors": 0}
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def worker(offset: int) -> None:
        with httpx.Client(base_url=base, headers=headers, timeout=120) as own:
            n = offset
            while time.perf_counter() < stop:
                name, question = all_q[n % len(all_q)]
                n += 1
                try:
                    ok = own.post("/api/ask", json={"question": question, "shelf": name}).status_code == 200
                except httpx.HTTPError:
                    ok = False
                with lock:
                    counts["ok" if ok else "errors"] += 1

    threads = [threading.Thread(target=worker, args=(i * 7,)) for i in range(clients)]
    load_started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return counts, time.perf_counter() - load_started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shelves", nargs="*", default=ALL_SHELVES)
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "bench-api")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the 8-client load test")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--embedder", choices=["local", "hash"], default="local", help="local: the configured embeddings.backend")
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results" / "api.json")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--trace-db", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.build_dir, args.shelves, args.port, args.embedder, args.trace_db)
        return 0
    names = [n for n in args.shelves if _shelf_dir(n).is_dir()]
    ensure_built(names, args.build_dir, args.embedder)
    port = _free_port()
    trace_db = args.build_dir / "bench-traces.sqlite"
    command = [sys.executable, "-m", "shelfwise.eval.bench.api", "--child", "--build-dir", str(args.build_dir), "--port", str(port),
               "--embedder", args.embedder, "--trace-db", str(trace_db), "--shelves", *names]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    headers = {"Authorization": f"Bearer {TOKEN}"}
    result: dict = {"shelves": names, "embedder": args.embedder, "embedder_model": _embedder(args.embedder, args.build_dir).model_id,
                    "clients": args.clients, "seconds": args.seconds}
    try:
        result["startup_s"] = _wait_until_up(base, server)
        questions = _questions(names)
        client = httpx.Client(base_url=base, headers=headers, timeout=120)
        latency, coverage, all_q = {}, {}, []
        for name in names:
            items = questions[name] or _generic(args.build_dir, name)
            times = []
            for item in items:
                t = time.perf_counter()
                response = client.post("/api/ask", json={"question": item["question"], "shelf": name})
                times.append(time.perf_counter() - t)
                response.raise_for_status()
                body = response.json()
                all_q.append((name, item["question"]))
                if item.get("must"):
                    trace = client.get(f"/api/answers/{body['trace_id']}").json()
                    share = _evidence_read(args.build_dir, {**item, "shelf": name}, {r["section_id"] for r in trace["read"]})
                    coverage[item["id"]] = {"evidence_read": share, "label": body["label"], "read_chars": trace["reading"]["chars_read"],
                                            "whole_scope": trace["reading"]["whole_scope"]}
            times.sort()
            latency[name] = {"n": len(times), "p50_ms": round(1000 * statistics.median(times), 1),
                             "p95_ms": round(1000 * times[min(len(times) - 1, int(0.95 * len(times)))], 1)}
            print(f"{name:<10} ask p50 {latency[name]['p50_ms']:8.1f} ms  p95 {latency[name]['p95_ms']:8.1f} ms  (n={len(times)})", flush=True)
        result["latency"] = latency
        result["evidence_read"] = coverage
        shares = [v["evidence_read"] for v in coverage.values() if v["evidence_read"] is not None]
        result["evidence_read_mean"] = round(sum(shares) / len(shares), 3) if shares else None
        counts, elapsed = _load_test(base, headers, all_q, args.clients, args.seconds)
        result["load"] = {**counts, "requests_per_s": round(counts["ok"] / elapsed, 2), "elapsed_s": round(elapsed, 1)}
        print(f"load: {args.clients} clients {elapsed:.0f} s: {counts['ok']} ok, {counts['errors']} errors, "
              f"{result['load']['requests_per_s']} requests/s", flush=True)
        status = Path(f"/proc/{server.pid}/status").read_text()
        memory = {line.split(":")[0]: int(line.split()[1]) // 1024 for line in status.splitlines() if line.startswith(("VmRSS", "VmHWM"))}
        result["server_memory_mb"] = {"rss": memory.get("VmRSS"), "peak": memory.get("VmHWM")}
        print(f"server memory with {len(names)} shelves: RSS {memory.get('VmRSS')} MB, peak {memory.get('VmHWM')} MB")
        for qid, value in coverage.items():
            print(f"  {qid:<12} evidence read {value['evidence_read']}  label {value['label']}")
        print(f"mean share of must items whose evidence was read: {result['evidence_read_mean']}")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
