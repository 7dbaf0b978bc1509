"""Benchmark of the OpenAI-compatible chat endpoint (model-free) on the demo shelf, against uvicorn on 127.0.0.1.

    .venv/bin/python -m shelfwise.eval.bench.openai_api [--build-dir build] [--runs 2] [--embedder local|hash]

Serves the compiled demo shelf (<build dir>/northwind, read as it is: nothing is compiled or written there)
from a child process, then asks each question of shelves/northwind/questions.yaml through the real
``openai`` client: plain ``/v1/chat/completions`` latency p50/p95, and streamed, the time to the first byte
(the role chunk), to the first content and from the answer being ready (its ``seconds``, as the server
timed it) to its first content. One warm-up question is timed apart (cold). Writes eval/results/openai_api.json.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import yaml

from shelfwise.eval.bench.api import _embedder, _free_port

ROOT = Path(__file__).resolve().parents[3]
QUESTIONS = ROOT / "shelves" / "northwind" / "questions.yaml"
TOKEN = "bench-token"


def child(build_dir: Path, port: int, embedder_kind: str, trace_db: Path) -> None:
    """The server process: the demo shelf, one token, no rate limit in the way."""
    import uvicorn

    from shelfwise.api.server.app import create_app
    from shelfwise.compiler.settings import Settings

    settings = Settings.model_validate({"build_dir": str(build_dir), "api": {
        "tokens": [{"name": "bench", "token": TOKEN, "shelves": ["northwind"]}], "rate_limit_per_minute": 1_000_000,
        "trace_db": str(trace_db)}})
    app = create_app(settings, chat=None, embedder=_embedder(embedder_kind), stores={"northwind": build_dir / "northwind"})
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, int(round(share * len(ordered) + 0.5)) - 1))], 1)


def _summary(values: list[float]) -> dict:
    return {"n": len(values), "p50_ms": round(statistics.median(values), 1), "p95_ms": _percentile(values, 0.95), "max_ms": round(max(values), 1)}


def _streamed(client, question: str) -> dict:
    started = time.perf_counter()
    first = content = None
    extra = {}
    for chunk in client.chat.completions.create(model="northwind", messages=[{"role": "user", "content": question}], stream=True):
        now = time.perf_counter()
        first = first or now
        if content is None and chunk.choices[0].delta.content:
            content = now
        extra = (chunk.model_extra or {}).get("shelfwise") or extra
    ready = extra.get("seconds", 0.0)
    return {"ttfb_ms": (first - started) * 1000, "first_content_ms": (content - started) * 1000, "total_ms": (time.perf_counter() - started) * 1000,
            "after_ready_ms": max(0.0, (content - started) - ready) * 1000}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build", help="holds the compiled northwind shelf (default build/)")
    parser.add_argument("--runs", type=int, default=2, help="times each question is asked, plain and streamed")
    parser.add_argument("--embedder", choices=["local", "hash"], default="local", help="the query embedder (the shelf's own: local)")
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results" / "openai_api.json")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--trace-db", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.build_dir, args.port, args.embedder, args.trace_db)
        return 0
    import openai

    if not (args.build_dir / "northwind" / "store.sqlite").exists():
        print(f"no compiled demo shelf at {args.build_dir / 'northwind'}; run 'shelfwise build shelves/northwind' first", file=sys.stderr)
        return 1
    questions = [item["question"] for item in yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))]
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="bench-openai-") as scratch:
        started = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-m", "shelfwise.eval.bench.openai_api", "--child", "--port", str(port), "--build-dir", str(args.build_dir),
                                   "--embedder", args.embedder, "--trace-db", str(Path(scratch) / "traces.sqlite")], cwd=ROOT, env=os.environ.copy())
        try:
            while True:
                try:
                    httpx.get(base + "/api/health", timeout=2)
                    break
                except httpx.HTTPError:
                    if server.poll() is not None or time.perf_counter() - started > 180:
                        raise RuntimeError("the benchmark server did not start") from None
                    time.sleep(0.1)
            startup = time.perf_counter() - started
            client = openai.OpenAI(base_url=base + "/v1", api_key=TOKEN, max_retries=0, timeout=600)
            t = time.perf_counter()
            client.chat.completions.create(model="northwind", messages=[{"role": "user", "content": questions[0]}])
            cold = (time.perf_counter() - t) * 1000
            plain, streamed, labels = [], [], {}
            for _ in range(args.runs):
                for question in questions:
                    t = time.perf_counter()
                    reply = client.chat.completions.create(model="northwind", messages=[{"role": "user", "content": question}])
                    plain.append((time.perf_counter() - t) * 1000)
                    label = reply.model_extra["shelfwise"]["label"]
                    labels[label] = labels.get(label, 0) + 1
                    streamed.append(_streamed(client, question))
        finally:
            os.kill(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    result = {
        "shelf": "northwind", "build_dir": str(args.build_dir), "questions": len(questions), "runs": args.runs, "embedder": args.embedder,
        "mode": "model-free", "startup_s": round(startup, 2), "cold_ms": round(cold, 1),
        "plain": _summary(plain),
        "stream": {key: _summary([s[key] for s in streamed]) for key in ("ttfb_ms", "first_content_ms", "after_ready_ms", "total_ms")},
        "labels": dict(sorted(labels.items())),
        "targets": {"plain_p95_ms": 1500, "first_content_after_ready_ms": 1000},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
