"""Answer runs: every question of a questions file through the answering pipeline, stored as small JSON lines.

``run_answers`` answers each question in whatever mode the settings configure
(model-free, or with planner/writer/checker models) and writes
``eval/runs/<label>/run-<n>.jsonl``: one line per question with the answer as
displayed, a summary of its trace (``shelfwise.eval.waterfall.trace_summary``: the gold
sections among candidates and reads, the units written and removed), the model
tokens and dollars, and the seconds. ``meta.json`` beside it names the questions
file, split, mode and models; a label holds one configuration, so later runs
under it must match (else the error names the label to change).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.settings import Settings
from shelfwise.eval.questions import Question, load_questions, map_gold

__all__ = ["AnswerRecord", "run_answers", "read_run", "run_files", "read_meta", "cost_usd", "split_of", "build_hint", "PRICES_PER_MTOK",
           "grade_runs", "grades_path", "judge_slug", "prepare_run_dir", "write_run"]

ROOT = Path(__file__).resolve().parents[2]
RUNS_DIR = ROOT / "eval" / "runs"

PRICES_PER_MTOK = {
    "gpt-4o": (2.50, 10.00), "gpt-4o-mini": (0.15, 0.60), "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60), "gpt-4.1-nano": (0.10, 0.40),
}  # fmt: skip
"""Dollars per million prompt / completion tokens for the models we know a price of; others are n.m."""


class AnswerRecord(BaseModel):
    """One question answered once: one line of a run file."""

    id: str = Field(description="Question id.")
    shelf: str
    question: str
    answer: dict = Field(description="markdown, label, mode, models, not_covered, not_shown, warnings, sentences (text, citations, kind, status).")
    trace: dict = Field(default_factory=dict, description="The trace summary the loss waterfall reads (shelfwise.eval.waterfall.trace_summary).")
    cost: dict = Field(default_factory=dict, description="calls, prompt_tokens, completion_tokens, usd (None when a model's price is unknown).")
    seconds: float | None = Field(default=None, description="Seconds the answer took (the pipeline's own clock).")
    error: str = Field(default="", description="Why no answer was produced (the answer is then empty).")


def split_of(path: Path) -> str:
    """'held-out' for a file whose name says held/test/blind, else 'dev'."""
    stem = Path(path).stem.lower()
    return "held-out" if any(word in stem for word in ("held", "test", "blind")) else "dev"


def cost_usd(steps: list[dict]) -> dict:
    """Calls, tokens and dollars over an answer's steps; dollars are None when a model's price is unknown."""
    calls = sum(s.get("calls", 0) for s in steps)
    prompt = sum(s.get("prompt_tokens", 0) for s in steps)
    completion = sum(s.get("completion_tokens", 0) for s in steps)
    usd: float | None = 0.0
    for s in steps:
        if not (s.get("prompt_tokens") or s.get("completion_tokens")):
            continue
        price = PRICES_PER_MTOK.get(s.get("model", ""))
        if price is None:
            usd = None
            break
        usd += (s["prompt_tokens"] * price[0] + s["completion_tokens"] * price[1]) / 1e6
    return {"calls": calls, "prompt_tokens": prompt, "completion_tokens": completion, "usd": None if usd is None else round(usd, 6)}


def build_hint(shelf: str) -> str:
    """The command that compiles ``shelf`` (the demo shelf, or a corpus of ../shared/corpora)."""
    if (ROOT / "shelves" / shelf).is_dir():
        return f"shelfwise build shelves/{shelf} --build-dir build"
    return f"shelfwise build ../shared/corpora/{shelf} --build-dir build --exclude SOURCES.md"


def _open(questions: list[Question], settings: Settings, build_dir: Path, embedder):
    from shelfwise.api.shelves import open_shelves
    from shelfwise.compiler.build import current_build
    from shelfwise.compiler.index.embedders import embedder_from_settings

    names = sorted({q.shelf for q in questions})
    built = {n: current_build(build_dir / n) for n in names}  # the one resolver of a shelf's current build
    missing = [n for n in names if not (built[n] / "store.sqlite").exists() or not (built[n] / "lexical").exists()]
    if missing:
        raise ShelfwiseError(f"shelf(s) {', '.join(missing)} not compiled under {build_dir}; compile each first: "
                             + "; ".join(build_hint(n) for n in missing))
    return open_shelves({n: build_dir / n for n in names}, embedder if embedder is not None else embedder_from_settings(settings))


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        return out.stdout.strip()
    except OSError:
        return ""


def _meta(questions_path: Path, pipeline, settings: Settings) -> dict:
    text = Path(questions_path).read_bytes()
    return {
        "questions": str(questions_path),
        "questions_sha256": hashlib.sha256(text).hexdigest()[:16],
        "split": split_of(questions_path),
        "system": "shelfwise",
        "mode": pipeline.mode,
        "models": pipeline.models,
        "answer_settings": settings.answer.model_dump(mode="json"),
    }


def read_meta(run_dir: Path) -> dict:
    path = Path(run_dir) / "meta.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def run_files(run_dir: Path) -> list[Path]:
    """run-1.jsonl, run-2.jsonl, ... in run order."""
    return sorted(Path(run_dir).glob("run-*.jsonl"), key=lambda p: int(p.stem.split("-")[1]))


def read_run(path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def prepare_run_dir(run_dir: Path, meta: dict) -> int:
    """Write or check meta.json; returns the number of runs already stored."""
    run_dir.mkdir(parents=True, exist_ok=True)
    old = read_meta(run_dir)
    keys = ("questions_sha256", "system", "mode", "models", "answer_settings")
    if old and any(old.get(k) != meta.get(k) for k in keys):
        changed = [k for k in keys if old.get(k) != meta.get(k)]
        raise ShelfwiseError(f"runs under {run_dir} were made with another configuration ({', '.join(changed)} differ); "
                             "give another --label, or delete that folder to start the label again")
    stored = {k: v for k, v in meta.items() if k != "commits"}
    stored["commits"] = sorted({*old.get("commits", []), *meta.get("commits", [])} - {""})
    (run_dir / "meta.json").write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return len(run_files(run_dir))


def write_run(path: Path, records: list[AnswerRecord]) -> None:
    path.write_text("".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")


def _answer_one(pipeline, question: Question, shelves, traces) -> AnswerRecord:
    from shelfwise.api.answer import answer_question
    from shelfwise.api.schemas import AskRequest
    from shelfwise.eval.waterfall import trace_summary

    gold = map_gold(question, shelves[question.shelf].store).items
    started = time.perf_counter()
    try:
        response = answer_question(pipeline, AskRequest(question=question.question, shelves=[question.shelf]), shelves,
                                   token="eval", traces=traces)
    except ShelfwiseError as exc:
        return AnswerRecord(id=question.id, shelf=question.shelf, question=question.question, answer={},
                            trace={"gold": gold}, seconds=round(time.perf_counter() - started, 3), error=str(exc))
    trace = traces.get(response.trace_id)
    answer = {
        "markdown": response.answer_markdown, "label": response.label, "mode": response.mode, "models": response.models,
        "not_covered": response.not_covered, "not_shown": response.not_shown, "warnings": response.warnings,
        "sentences": [{"text": s.text, "citations": s.citations, "kind": s.kind, "status": s.status, "source": s.source,
                       "superseded_by": s.superseded_by} for s in response.sentences],
    }
    return AnswerRecord(id=question.id, shelf=question.shelf, question=question.question, answer=answer,
                        trace=trace_summary(trace, gold), cost=cost_usd([s.model_dump() for s in trace.steps]),
                        seconds=response.seconds)


def run_answers(questions_path: Path, *, runs: int = 1, label: str | None = None, settings: Settings,
                build_dir: Path | None = None, progress: Callable[[str], None] = lambda line: None,
                runs_dir: Path = RUNS_DIR, chat=None, embedder=None) -> Path:
    """Answer every question ``runs`` times; returns eval/runs/<label>/ (label default: '<mode>-<file stem>')."""
    from shelfwise.api.answer import build_pipeline, chat_models
    from shelfwise.api.shelves import close_shelves
    from shelfwise.api.trace import TraceStore

    if runs < 1:
        raise ShelfwiseError(f"--runs {runs}: give at least 1 run")
    questions = load_questions(Path(questions_path))
    build_dir = Path(build_dir or settings.build_dir)
    pipeline = build_pipeline(settings, chat if chat is not None else chat_models(settings))
    label = label or f"{pipeline.mode}-{Path(questions_path).stem}"
    run_dir = Path(runs_dir) / label
    meta = _meta(Path(questions_path), pipeline, settings) | {"label": label, "commits": [_commit()]}
    shelves = _open(questions, settings, build_dir, embedder)
    traces = TraceStore(settings.api.trace_db)
    try:
        done = prepare_run_dir(run_dir, meta)
        for number in range(done + 1, done + runs + 1):
            records = []
            for question in questions:
                record = _answer_one(pipeline, question, shelves, traces)
                records.append(record)
                progress(f"run {number} {question.id}: {record.answer.get('label', 'error: ' + record.error)} "
                         f"{record.seconds or 0:.1f} s")
            write_run(run_dir / f"run-{number}.jsonl", records)
            progress(f"wrote {run_dir / f'run-{number}.jsonl'}")
    finally:
        traces.close()
        close_shelves(shelves)
    return run_dir


def judge_slug(judge: str) -> str:
    """'quote recall' -> 'quote-recall', 'judge:gpt-4o' -> 'judge-gpt-4o' (for file names)."""
    return "".join(c if c.isalnum() or c in ".-" else "-" for c in judge.replace(":", "-").replace(" ", "-"))


def grades_path(run_dir: Path, run_file: Path, judge: str) -> Path:
    return Path(run_dir) / f"grades-{judge_slug(judge)}-{run_file.stem}.jsonl"


def grade_runs(run_dir: Path, questions_path: Path, *, judge=None, progress: Callable[[str], None] = lambda line: None) -> list[Path]:
    """Grade every run of ``run_dir`` with quote recall, and with ``judge`` (a shelfwise.eval.judge.ModelJudge) when given.

    Grades already stored for a run and judge are kept (a model judge is not paid twice); an answer that
    failed is graded with no score and its error."""
    from shelfwise.eval.judge import QUOTE_RECALL, Grade, quote_recall

    questions = {q.id: q for q in load_questions(Path(questions_path))}
    written = []
    for run_file in run_files(run_dir):
        for name, grader in ((QUOTE_RECALL, quote_recall), *(((judge.name, judge.grade),) if judge else ())):
            target = grades_path(run_dir, run_file, name)
            if target.exists() and name != QUOTE_RECALL:
                continue
            grades = []
            for record in read_run(run_file):
                question = questions.get(record["id"])
                if question is None:
                    raise ShelfwiseError(f"{run_file}: question {record['id']} is not in {questions_path}; grade with the questions file the run used")
                if record.get("error"):
                    grades.append(Grade(id=record["id"], judge=name, score=None, error=record["error"]))
                else:
                    grades.append(grader(question, record["answer"]["markdown"], record["answer"].get("sentences")))
            target.write_text("".join(g.model_dump_json() + "\n" for g in grades), encoding="utf-8")
            progress(f"graded {run_file.name} by {name}: {target.name}")
            written.append(target)
    return written
