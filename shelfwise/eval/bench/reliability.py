"""Reliability benchmark: a served shelf rebuilt under load, sites under tenants, hostile documents, kills at
stage boundaries, and schemathesis against the running server. Everything runs through the real CLI
(`shelfwise build`, `shelfwise serve` on 127.0.0.1) on a copy of the licenses corpus. The ``shelf`` section
(shelfwise/eval/bench/reliability_shelf.py) runs what a shelf's own files can do to its build: shelf.toml names out
of the build folder, a mixed shelf of every bad kind, a 3,000-page one-paragraph PDF, a build killed while it embeds.

    .venv/bin/python -m shelfwise.eval.bench.reliability [--clients 4] [--seconds 20] [--boundaries convert,lexical,...]
        [--skip rebuild,sites,hostile,kill,schemathesis,shelf] [--pdf-pages 3000] [--work /tmp/shelfwise-reliability]
        [--out eval/results/reliability.json]

Writes eval/results/reliability.json; a skipped section keeps its result from the file's last run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT.parent / "shared" / "corpora" / "licenses"
CLI = [sys.executable, "-m", "shelfwise.compiler.cli.main"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "NO_MKDOCS_2_WARNING": "1"}
READER, OTHER = "reader-secret", "other-secret"
# progress lines that mark each stage boundary: the build is killed when its output reaches one
BOUNDARIES = {"convert": "[", "lexical": "lexical: indexed", "embeddings": "dense: embedded", "indexes": "indexes:",
              "ledger": "ledger 1/", "site": "site:"}
QUERIES = ["permission to use copy modify", "warranty disclaimer", "patent license grant", "attribution notice", "zebrafish clause"]
NEW_TEXT = "\n\nThe zebrafish clause: a licensee keeps a copy of this notice in every aquarium.\n"


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _config(work: Path) -> Path:
    config = work / "shelfwise.toml"
    config.write_text(
        f'build_dir = "{work / "build"}"\n[api]\nrate_limit_per_minute = 1000000\ntrace_db = "{work / "traces.sqlite"}"\n'
        f'[[api.tokens]]\nname = "reader"\ntoken = "{READER}"\nshelves = ["licenses"]\n'
        f'[[api.tokens]]\nname = "other"\ntoken = "{OTHER}"\nshelves = ["other"]\n', encoding="utf-8")
    return config


def _build(shelf: Path, config: Path, *extra: str) -> float:
    started = time.perf_counter()
    done = subprocess.run([*CLI, "build", str(shelf), "--site", "--config", str(config), "--quiet", *extra], env=ENV,
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"build of {shelf} failed ({done.returncode}): {done.stderr[-2000:]}")
    return time.perf_counter() - started


def _setup(work: Path) -> tuple[Path, Path]:
    shutil.rmtree(work, ignore_errors=True)
    (work / "shelves").mkdir(parents=True)
    shelf = work / "shelves" / "licenses"
    shutil.copytree(CORPUS, shelf)
    other = work / "shelves" / "other"
    other.mkdir()
    (other / "notes.md").write_text("# Other tenant\n\n## Secret\n\nThe other tenant's code word is marmalade.\n", encoding="utf-8")
    config = _config(work)
    _build(shelf, config)
    _build(other, config)
    return shelf, config


class Server:
    def __init__(self, config: Path):
        self.port = _port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([*CLI, "serve", "licenses", "other", "--config", str(config), "--port", str(self.port)],
                                        env=ENV, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                httpx.get(self.base + "/api/health", timeout=2)
                return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("the server did not come up")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
        return 0.0

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def bench_sites(server: Server, build: Path) -> dict:
    site = (build / "licenses" / "site").resolve()
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))[:20]
    urls = ["/sites/licenses", "/sites/licenses/", "/sites/licenses/search/search_index.json",
            "/sites/licenses/assets/shelfwise/sections.json", *[f"/sites/licenses/{p}" for p in pages]]
    callers = {"no token": {}, "unknown token": {"Authorization": "Bearer guess"}, "other tenant": {"Authorization": f"Bearer {OTHER}"}}
    readable, tried, leaks = 0, 0, []
    with httpx.Client(base_url=server.base, timeout=30) as client:
        granted = sum(client.get(u, headers={"Authorization": f"Bearer {READER}"}).status_code == 200 for u in urls)
        for url in urls:
            for caller, headers in callers.items():
                response = client.get(url, headers=headers, follow_redirects=False)
                tried += 1
                if response.status_code == 200:
                    readable += 1
                    leaks.append(f"{caller} {url}")
            client.cookies.clear()
        unserved = client.get("/api/search", params={"shelf": "nowhere", "q": "x"}, headers={"Authorization": f"Bearer {OTHER}"})
    return {"urls": len(urls), "url_caller_pairs": tried, "readable_without_grant": readable, "leak_examples": leaks[:5],
            "readable_with_granting_token": granted, "unserved_404_names_other_shelves": "licenses" in unserved.text}


def bench_failed_auth(server: Server, attempts: int = 500) -> dict:
    """Wrong tokens from one address: how many are refused 429 (api.failed_auth_per_minute), and whether the right token is then too."""
    started = time.perf_counter()
    with httpx.Client(base_url=server.base, timeout=30) as client:
        codes = [client.get("/api/health", headers={"Authorization": f"Bearer guess-{n}"}).status_code for n in range(attempts)]
        after = client.get("/api/search", params={"shelf": "licenses", "q": "x"}, headers={"Authorization": f"Bearer {READER}"}).status_code
    return {"attempts": attempts, "401": codes.count(401), "429": codes.count(429), "seconds": round(time.perf_counter() - started, 2),
            "right_token_from_the_same_address_then": after}


def _load(base: str, stop: threading.Event, outcomes: list, section_id: str) -> None:
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {READER}"}, timeout=60) as client:
        while not stop.is_set():
            for method, url, body in (("POST", "/api/ask", {"question": "What does the MIT license permit?", "shelf": "licenses"}),
                                      ("GET", "/api/search?shelf=licenses&q=warranty+disclaimer", None),
                                      ("GET", f"/api/sections/{section_id}", None)):
                started = time.perf_counter()
                try:
                    code = client.request(method, url, json=body).status_code
                except httpx.HTTPError as exc:
                    code = type(exc).__name__
                outcomes.append((code, url.split("?")[0], time.perf_counter() - started))


def bench_rebuild(server: Server, shelf: Path, config: Path, clients: int, seconds: float) -> dict:
    auth = {"Authorization": f"Bearer {READER}"}
    with httpx.Client(base_url=server.base, headers=auth, timeout=60) as client:
        hits = client.get("/api/search", params={"shelf": "licenses", "q": "apache license version 2.0", "k": 20}).json()["hits"]
        apache = next(h["section_id"] for h in hits if h["path"].startswith("apache"))
        mit = next(h["section_id"] for h in client.get("/api/search", params={"shelf": "licenses", "q": "MIT permission"}).json()["hits"]
                   if h["path"] == "mit.txt")
    rss_before = server.rss_mb()
    outcomes: list = []
    stop = threading.Event()
    threads = [threading.Thread(target=_load, args=(server.base, stop, outcomes, mit)) for _ in range(clients)]
    seen: dict = {}

    def poll() -> None:
        with httpx.Client(base_url=server.base, headers=auth, timeout=60) as client:
            while not stop.is_set() and "at" not in seen:
                hits = client.get("/api/search", params={"shelf": "licenses", "q": "zebrafish aquarium"}).json()["hits"]
                if any(h["path"] == "mit.txt" and "zebrafish" in client.get(f"/api/sections/{h['section_id']}").json()["text"] for h in hits[:3]):
                    seen["at"], seen["wall"] = time.perf_counter(), time.time()
                time.sleep(0.05)

    started = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(seconds / 4)
    with (shelf / "mit.txt").open("a", encoding="utf-8") as handle:
        handle.write(NEW_TEXT)
    (shelf / "apache-2.0.txt").unlink()
    poller = threading.Thread(target=poll)
    poller.start()
    build_started = time.perf_counter()
    _build(shelf, config)
    build_ended = time.perf_counter()
    time.sleep(max(0.0, seconds - (build_ended - started)))
    poller.join(timeout=30)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    with httpx.Client(base_url=server.base, headers=auth, timeout=60) as client:
        removed = client.get(f"/api/sections/{apache}").status_code
        answer = client.post("/api/ask", json={"question": "What does the Apache License say about patents?", "shelf": "licenses"}).json()
        site_index = client.get("/sites/licenses/search/search_index.json").text
    errors = [o for o in outcomes if o[0] != 200]
    latencies = sorted(o[2] for o in outcomes)
    return {
        "clients": clients, "seconds": seconds, "requests": len(outcomes), "errors": len(errors),
        "error_examples": [f"{c} {u}" for c, u, _ in errors[:5]],
        "build_seconds": round(build_ended - build_started, 2),
        "new_content_visible_after_build_end_s": round(seen["at"] - build_ended, 3) if "at" in seen else None,
        "new_content_visible_after_flip_s": round(seen["wall"] - os.lstat(shelf.parent.parent / "build" / "licenses" / "current").st_mtime, 3)
        if "wall" in seen else None,
        "removed_section_status": removed,
        "removed_document_cited": any(s.get("path", "").startswith("apache") for s in answer.get("sources", [])),
        "site_search_index_has_new_text": "zebrafish" in site_index,
        "p95_ms": round(latencies[int(len(latencies) * 0.95)] * 1000, 1) if latencies else None,
        "server_rss_mb": {"before": rss_before, "after": server.rss_mb()},
    }


def bench_schemathesis(server: Server, examples: int) -> dict:
    import schemathesis
    from hypothesis import HealthCheck, given, settings as hypothesis_settings
    from schemathesis.specs.openapi.checks import positive_data_acceptance

    schema = schemathesis.openapi.from_url(server.base + "/api/schema/openapi.json")
    calls, failures, server_errors = [0], [], [0]
    started = time.perf_counter()
    for result in schema.get_all_operations():
        operation = result.ok()

        @hypothesis_settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def check(case):
            calls[0] += 1
            try:
                response = case.call(base_url=server.base, headers={"Authorization": f"Bearer {READER}"})
                server_errors[0] += response.status_code >= 500
                case.validate_response(response, excluded_checks=[positive_data_acceptance])
            except BaseException as exc:  # noqa: BLE001 - a FailureGroup: counted with its case
                if isinstance(exc, KeyboardInterrupt):
                    raise
                failures.append(f"{case.method} {case.formatted_path}: {str(exc)[:300]}")

        check()
    return {"examples_per_operation": examples, "calls": calls[0], "server_errors": server_errors[0], "failures": len(failures),
            "failure_examples": failures[:5], "seconds": round(time.perf_counter() - started, 1),
            "excluded_checks": ["positive_data_acceptance (ST202): cross-field and setting-dependent rules the schema does not state"]}


HOSTILE_RUNNER = """
import json, resource, sys, time
from pathlib import Path
from shelfwise.compiler.build import build_shelf, conversion_peak_mb
from shelfwise.compiler.settings import Settings
started = time.perf_counter()
report = build_shelf(Path(sys.argv[1]), Settings(build_dir=Path(sys.argv[2]), compile=json.loads(sys.argv[3])),
                     progress=lambda line: None, stages=[])
print(json.dumps({"seconds": round(time.perf_counter() - started, 2), "worker_peak_mb": round(conversion_peak_mb(), 1),
                  "build_peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                  "documents": {d.path: [d.status, d.reason] for d in report.documents}}))
"""


def bench_hostile(work: Path, timeout_s: float) -> dict:
    sys.path.insert(0, str(ROOT))
    from tests.bombs import long_sheet_xlsx, many_elements_docx, one_line_markdown, zip_bomb_docx

    no_element_limit = {"max_xml_elements": 10**9}
    cases = {
        "zip bomb, 105 MB of paragraphs": (lambda p: many_elements_docx(p / "bomb.docx", paragraphs=2_900_000), {}),
        "zip bomb, 105 MB of paragraphs, element limit off (memory cap only)":
            (lambda p: many_elements_docx(p / "bomb.docx", paragraphs=2_900_000), no_element_limit),
        "zip bomb, one 105 MB text run": (lambda p: zip_bomb_docx(p / "bomb.docx", expanded_mb=105), {}),
        "20 MB one-line Markdown": (lambda p: one_line_markdown(p / "long.md", chars=20_000_000), {}),
        "20 MB one-line Markdown, character limit off": (lambda p: one_line_markdown(p / "long.md", chars=20_000_000), {"max_text_chars": 10**9}),
        "50,000-row sheet": (lambda p: long_sheet_xlsx(p / "readings.xlsx", rows=50_000), {}),
    }
    out = {}
    for number, (name, (make, overrides)) in enumerate(cases.items()):
        shelf = work / "hostile" / f"case{number}"
        shutil.rmtree(shelf, ignore_errors=True)
        shelf.mkdir(parents=True)
        (shelf / "rules.md").write_text("# Rules\n\n## Gates\n\nGates close at ten.\n", encoding="utf-8")
        path = make(shelf)
        limits = json.dumps({"convert_timeout_s": timeout_s, **overrides})
        done = subprocess.run([sys.executable, "-c", HOSTILE_RUNNER, str(shelf), str(work / "hostile-build" / str(number)), limits],
                              env=ENV, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            out[name] = {"error": done.stderr[-1500:]}
            continue
        result = json.loads(done.stdout.strip().splitlines()[-1])
        documents = result.pop("documents")
        hostile = documents[path.name]
        out[name] = {"file_bytes": path.stat().st_size, "limits": limits, "outcome": hostile[0], "reason": hostile[1],
                     "rest_compiled": documents["rules.md"][0] == "converted", **result}
    return out


def _snapshot(root: Path, embedder) -> dict:
    from shelfwise.api.shelves import open_shelf

    shelf = open_shelf("licenses", root, embedder)
    try:
        site = shelf.generation / "site"
        return {
            "documents": sorted((d, r["content_hash"]) for d, r in shelf.documents.items()),
            "sections": hashlib.sha256(json.dumps(sorted((s.id, s.text) for s in shelf.sections.values())).encode()).hexdigest(),
            "facts": len(shelf.facts), "links": sorted((k.kind, k.src_doc, k.dst_doc) for k in shelf.links),
            "passages": (len(ids := shelf.store.vectors.passage_sections()), ",".join(ids)),
            "search": {q: [h.section_id for h in shelf.searcher.search(q, k=5).hits] for q in QUERIES},
            "site": hashlib.sha256("".join(f"{p.relative_to(site)}:{hashlib.sha256(p.read_bytes()).hexdigest()}"
                                           for p in sorted(site.rglob("*")) if p.is_file() and "sitemap" not in p.name).encode()).hexdigest(),
        }
    finally:
        shelf.close()


def _killed(shelf: Path, config: Path, line: str) -> bool:
    process = subprocess.Popen([*CLI, "build", str(shelf), "--site", "--config", str(config)], env=ENV, cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for output in process.stderr:
        if output.startswith(line):
            os.kill(process.pid, signal.SIGKILL)
            break
    process.wait(timeout=120)
    return process.returncode == -signal.SIGKILL


def bench_kills(work: Path, boundaries: list[str]) -> dict:
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.settings import Settings

    embedder = embedder_from_settings(Settings())
    base = work / "kill-base"
    shutil.rmtree(base, ignore_errors=True)
    shutil.copytree(CORPUS, base / "shelves" / "licenses")
    _build(base / "shelves" / "licenses", _config(base))

    def v2(folder: Path) -> tuple[Path, Path]:
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(base, folder, symlinks=True)
        shelf, config = folder / "shelves" / "licenses", _config(folder)
        with (shelf / "mit.txt").open("a", encoding="utf-8") as handle:
            handle.write(NEW_TEXT)
        (shelf / "SOURCES.md").unlink()
        return shelf, config

    shelf, config = v2(work / "kill-reference")
    _build(shelf, config)
    reference = _snapshot(work / "kill-reference" / "build" / "licenses", embedder)
    out = {}
    for name in boundaries:
        shelf, config = v2(work / f"kill-{name}")
        killed = _killed(shelf, config, BOUNDARIES[name])
        _build(shelf, config)
        snapshot = _snapshot(work / f"kill-{name}" / "build" / "licenses", embedder)
        out[name] = {"killed_at": BOUNDARIES[name], "killed": killed, "equal_to_uninterrupted": snapshot == reference,
                     "differs_in": sorted(k for k in reference if snapshot[k] != reference[k])}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--examples", type=int, default=20, help="schemathesis examples per operation")
    parser.add_argument("--boundaries", default=",".join(BOUNDARIES))
    parser.add_argument("--hostile-timeout", type=float, default=300, help="compile.convert_timeout_s for the hostile documents")
    parser.add_argument("--skip", default="")
    parser.add_argument("--pdf-pages", type=int, default=3000, help="pages of the one-paragraph PDF of the shelf section")
    parser.add_argument("--work", type=Path, default=Path("/tmp/shelfwise-reliability"))
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results" / "reliability.json")
    args = parser.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    kept = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    result: dict = {**kept, "corpus": "licenses", "machine_cpus": os.cpu_count()}
    started = time.perf_counter()
    if not {"rebuild", "sites", "schemathesis"} <= skip:
        shelf, config = _setup(args.work)
        server = Server(config)
        try:
            if "rebuild" not in skip:
                result["rebuild_under_load"] = bench_rebuild(server, shelf, config, args.clients, args.seconds)
                print("rebuild:", json.dumps(result["rebuild_under_load"]), flush=True)
            if "schemathesis" not in skip:
                result["schemathesis"] = bench_schemathesis(server, args.examples)
                print("schemathesis:", json.dumps(result["schemathesis"]), flush=True)
            if "sites" not in skip:  # last: its unknown-token requests use up this address's failed checks
                result["sites"] = bench_sites(server, args.work / "build")
                print("sites:", json.dumps(result["sites"]), flush=True)
                result["failed_auth"] = bench_failed_auth(server)
                print("failed auth:", json.dumps(result["failed_auth"]), flush=True)
        finally:
            server.stop()
    if "hostile" not in skip:
        result["hostile_documents"] = bench_hostile(args.work, args.hostile_timeout)
        print("hostile:", json.dumps(result["hostile_documents"]), flush=True)
    if "kill" not in skip:
        result["kill_at_stage_boundary"] = bench_kills(args.work, [b for b in args.boundaries.split(",") if b])
        print("kills:", json.dumps(result["kill_at_stage_boundary"]), flush=True)
    if "shelf" not in skip:
        from shelfwise.eval.bench.reliability_shelf import bench_shelf_cases

        result["shelf_files"] = bench_shelf_cases(args.work, args.pdf_pages)
    result["seconds"] = round(time.perf_counter() - started, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
