"""Trace: every answer's plan, candidates, reading, writing, removals, cost and latency, stored in SQLite.

``GET /api/answers/{trace_id}`` and ``shelfwise trace ID`` read it back. The
trace records the shelves it was given on, so only a token granting all of
them can read it. A reader's feedback on an answer (``POST /api/answers/{trace_id}/feedback``,
the ask widget's "Helpful" / "Not helpful") is kept beside its trace, in the same file.
"""

from __future__ import annotations

import json
import threading
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pydantic import BaseModel, Field

from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.store.store import connect_shared, immediate

__all__ = ["StepCost", "Trace", "TraceStore", "new_trace_id", "format_trace", "shown_lines", "unit_fates", "now_iso", "TRACE_SCHEMA",
           "FEEDBACK_RATINGS", "research_lines"]


class StepCost(BaseModel):
    """One pipeline step's latency and model cost."""

    step: str
    seconds: float
    model: str = Field(default="model-free", description="The model id, or 'model-free'.")
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Trace(BaseModel):
    """What one answer did, and why."""

    trace_id: str
    created: str = Field(description="UTC time, ISO 8601.")
    token: str = Field(description="Name of the API token that asked ('cli' in-process).")
    shelves: list[str]
    question: str
    history: list[str] = Field(default_factory=list, description="Earlier questions the request carried.")
    mode: str = Field(description="'model-free' or 'model'.")
    models: dict[str, str] = Field(description="Model id (or 'model-free', 'rules', 'extractive') per role.")
    plan: dict
    recall: list[dict] = Field(description="Per obligation: query, route counts, top candidates with route ranks.")
    read: list[dict] = Field(description="Sections read, in document order, with why.")
    not_opened: list[dict] = Field(description="Candidates not read, with the reason.")
    reading: dict = Field(description="Budget, scope characters, characters read, whole scope or not.")
    written: list[dict] = Field(description="Every unit the writer produced.")
    removed: list[dict] = Field(description="Units removed by the checker or the gate, with the reason.")
    shown_steps: list[dict] = Field(default_factory=list, description="Each step of what is shown (``shelfwise.api.answer.show.show.STEPS``, "
                                    "and 'compare' for a computed comparison), in order: step, kept (unit ids), removed (per unit: "
                                    "unit id, stage, reason, cell).")
    shown: list[str] = Field(default_factory=list, description="Ids of the units the answer shows.")
    checked: list[dict] = Field(default_factory=list, description="Every claim the checker saw: verdict, verified span, reason.")
    warnings: list[str] = Field(default_factory=list, description="What went wrong while answering (a model failure), in words.")
    invented_citations: list[dict] = Field(default_factory=list, description="Section ids the model writer cited without being "
                                           "given them, per unit: unit, text, ids (dropped from it), kept (its other citations; "
                                           "none: not shown). The warnings say the same in words.")
    completion: dict
    steps: list[StepCost]
    seconds: float
    answer: dict = Field(description="The answer as returned.")
    research: dict = Field(default_factory=dict, description="Research mode: which ran (agent, expansion or the fixed loop as fallback), "
                                                             "its budget, every agent step (tool, arguments, result size, cost) and the fixed loop's reading beside.")


def new_trace_id() -> str:
    return "a" + uuid.uuid4().hex[:20]


def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


TRACE_SCHEMA = 2
"""The traces file's schema number (SQLite's user_version); a file of a newer one is refused, never misread. A trace's
fields live in its JSON ``body``: a field added with a default (``invented_citations``) reads older bodies as they are
and changes no table, so it is not a schema change. 2 added the feedback table (``_migrate_2``)."""

FEEDBACK_RATINGS = ("helpful", "not_helpful")
"""What a reader may say of an answer."""


def _migrate_1(db) -> None:
    """The traces table (schema 1 is the first numbered one: an unnumbered file of this table is schema 1)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS traces (trace_id TEXT PRIMARY KEY, created TEXT NOT NULL, token TEXT NOT NULL, "
        "shelves TEXT NOT NULL, question TEXT NOT NULL, label TEXT NOT NULL, body TEXT NOT NULL)"
    )
    db.execute("CREATE INDEX IF NOT EXISTS traces_created ON traces(created)")


def _migrate_2(db) -> None:
    """Readers' feedback on answers, kept with their traces (pruned with them)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS feedback (id INTEGER PRIMARY KEY, trace_id TEXT NOT NULL, created TEXT NOT NULL, "
        "token TEXT NOT NULL, rating TEXT NOT NULL, comment TEXT NOT NULL)"
    )
    db.execute("CREATE INDEX IF NOT EXISTS feedback_trace ON feedback(trace_id)")


_MIGRATIONS = [_migrate_1, _migrate_2]


class TraceStore:
    """The traces database (one SQLite file), safe to share between request threads."""

    def __init__(self, path: Path, retention_days: float | None = None):
        self.path = Path(path)
        self.retention_days = retention_days
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._stored = 0
        self.db = connect_shared(self.path)  # replicas share this file and may all open it at the same moment
        with immediate(self.db):  # the number read and the migration it decides on, under one write lock
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > TRACE_SCHEMA:
                raise ShelfwiseError(f"{self.path} was written by a newer shelfwise (trace schema {version}); upgrade "
                                     "shelfwise or point api.trace_db at another file")
            for number, migrate in enumerate(_MIGRATIONS, start=1):
                if version < number:  # each step's tables are created IF NOT EXISTS: an unnumbered file of schema 1 passes
                    migrate(self.db)
            self.db.execute(f"PRAGMA user_version = {TRACE_SCHEMA}")
        self.prune()

    def prune(self) -> int:
        """Delete traces older than ``retention_days`` (none when it is None); returns how many went."""
        if self.retention_days is None:
            return 0
        cutoff = (datetime.now(timezone.utc) - timedelta(days=self.retention_days)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        with self._lock, self.db:
            self.db.execute("DELETE FROM feedback WHERE trace_id IN (SELECT trace_id FROM traces WHERE created < ?)", (cutoff,))
            return self.db.execute("DELETE FROM traces WHERE created < ?", (cutoff,)).rowcount

    def put(self, trace: Trace) -> None:
        with self._lock, self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO traces (trace_id, created, token, shelves, question, label, body) VALUES (?,?,?,?,?,?,?)",
                (
                    trace.trace_id,
                    trace.created,
                    trace.token,
                    json.dumps(sorted(trace.shelves)),
                    trace.question,
                    trace.answer.get("label", ""),
                    trace.model_dump_json(),
                ),
            )
        self._stored += 1
        if self._stored % 100 == 1:
            self.prune()

    def get(self, trace_id: str) -> Trace | None:
        with self._lock:
            row = self.db.execute("SELECT body FROM traces WHERE trace_id = ?", (trace_id,)).fetchone()
        return Trace.model_validate_json(row[0]) if row else None

    def shelves_of(self, trace_id: str) -> list[str] | None:
        with self._lock:
            row = self.db.execute("SELECT shelves FROM traces WHERE trace_id = ?", (trace_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def add_feedback(self, trace_id: str, token: str, rating: str, comment: str = "") -> dict:
        """Keep a reader's ``rating`` (one of FEEDBACK_RATINGS) and ``comment`` on the answer ``trace_id``; returns it as stored."""
        if rating not in FEEDBACK_RATINGS:
            raise ValueError(f"rating {rating!r} is not one of {', '.join(FEEDBACK_RATINGS)}")
        entry = {"trace_id": trace_id, "created": now_iso(), "token": token, "rating": rating, "comment": comment}
        with self._lock, self.db:
            self.db.execute("INSERT INTO feedback (trace_id, created, token, rating, comment) VALUES (?,?,?,?,?)",
                            tuple(entry.values()))
        return entry

    def feedback(self, trace_id: str) -> list[dict]:
        """Every feedback given on the answer ``trace_id``, oldest first."""
        with self._lock:
            rows = self.db.execute("SELECT created, token, rating, comment FROM feedback WHERE trace_id = ? ORDER BY id",
                                   (trace_id,)).fetchall()
        return [{"created": c, "token": t, "rating": r, "comment": m} for c, t, r, m in rows]

    def close(self) -> None:
        self.db.close()


def format_trace(trace: Trace) -> str:
    """Plain-text account of a trace for ``shelfwise trace ID``."""
    lines = [
        f"trace {trace.trace_id}  {trace.created}  token {trace.token}  shelves {', '.join(trace.shelves)}",
        f"question: {trace.question}",
        f"mode: {trace.mode}  models: " + ", ".join(f"{k}={v}" for k, v in sorted(trace.models.items())),
        f"label: {trace.answer.get('label')}  {trace.seconds:.3f} s",
        "plan:",
    ]
    for n, o in enumerate(trace.plan.get("obligations", [])):
        lines.append(f"  {n}. [{o['kind']}] {o['ask']}  targets: {', '.join(o['targets'][:8])}")
    for r in trace.recall:
        lines.append(f"recall {r['obligation']}: " + ", ".join(f"{k} {v}" for k, v in r["routes"].items()))
    reading = trace.reading
    lines.append(
        f"read {len(trace.read)} sections, {reading['chars_read']:,} of {reading['budget']:,} characters"
        f" ({'whole scope' if reading['whole_scope'] else 'selection'}); {len(trace.not_opened)} candidates not opened"
    )
    for pair in reading.get("compared", []):
        lines.append(f"compared {pair['older']} → {pair['newer']} ({pair['reason']}): {pair['changes']} changes, {pair['shown']} shown")
    for item in trace.not_opened[:10]:
        lines.append(f"  not opened {item['section_id']}: {item['reason']}")
    if trace.research:
        lines += research_lines(trace.research)
    lines.append(f"written {len(trace.written)} units; removed {len(trace.removed)}")
    if trace.checked:
        verdicts: dict[str, int] = {}
        for claim in trace.checked:
            verdicts[claim["verdict"]] = verdicts.get(claim["verdict"], 0) + 1
        lines.append(f"checked {len(trace.checked)} claims: " + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    for item in trace.removed:
        lines.append(f"  removed {item['unit']['id']} ({item['stage']}): {item['reason']}")
    lines += shown_lines(trace)
    for warning in trace.warnings:
        lines.append(f"  warning: {warning}")
    for step in trace.steps:
        tokens = f"  tokens {step.prompt_tokens}+{step.completion_tokens}" if step.prompt_tokens or step.completion_tokens else ""
        lines.append(f"  step {step.step:<9} {step.seconds:8.4f} s  {step.model}  calls {step.calls}{tokens}")
    return "\n".join(lines)


def unit_fates(trace: Trace) -> list[tuple[dict, bool, list[dict]]]:
    """Per written unit (in the order written): (the unit, whether the answer shows it, the removals recorded for it by
    the steps of what is shown: for a shown unit, its blanked table cells; for one not shown, the step that removed it
    and why). A unit not shown with no removal recorded would be a silent drop (none is: tests/test_shown.py)."""
    removals: dict[str, list[dict]] = {}
    for record in trace.shown_steps:
        for item in record["removed"]:
            removals.setdefault(item["unit"], []).append({**item, "step": record["step"]})
    shown = set(trace.shown)
    return [(unit, unit["id"] in shown, removals.get(unit["id"], [])) for unit in trace.written]


def shown_lines(trace: Trace) -> list[str]:
    """For each written unit, whether it was shown, and if not which step removed it and why."""
    if not trace.shown_steps:
        return []
    fates = unit_fates(trace)
    lines = [f"shown {sum(1 for _, shown, _ in fates if shown)} of {len(fates)} written units; steps: "
             + ", ".join(f"{r['step']} -{len(r['removed'])}" for r in trace.shown_steps)]
    for unit, shown, removals in fates:
        text = " ".join(unit["text"].split())
        text = f"{text[:70]}..." if len(text) > 73 else text
        if shown:
            cells = "".join(f"; cell {r['cell']} blanked by {r['stage']}: {r['reason']}" for r in removals if r["cell"] is not None)
            lines.append(f"  {unit['id']:<6} shown{cells}  {text!r}")
        elif removals:
            first = next((r for r in removals if r["cell"] is None), removals[0])
            what = "not shown" if first["cell"] is None else f"every cell removed, first cell {first['cell']}"
            where = first["step"] if first["stage"] == first["step"] else f"{first['step']} ({first['stage']})"
            lines.append(f"  {unit['id']:<6} {what}: {where}: {first['reason']}  {text!r}")
        else:
            lines.append(f"  {unit['id']:<6} not shown: no step recorded its removal  {text!r}")
    return lines


def research_lines(research: dict) -> list[str]:
    """Plain-text lines of a trace's research entry for ``shelfwise trace ID``: which ran, its budget, each step."""
    budget = research.get("budget", {})
    fixed = research.get("fixed_loop", {})
    lines = [f"research: {research['ran']} ({research.get('model', '')}); budget {budget.get('max_steps')} steps, "
             f"{budget.get('max_chars', 0):,} characters, {budget.get('max_seconds')} s; the fixed loop read "
             f"{len(fixed.get('sections', []))} sections ({fixed.get('chars_read', 0):,} characters) of {', '.join(fixed.get('documents', [])[:6])}"]
    if "steps" in research:
        lines.append(f"  agent read {research['chars_read']:,} characters; stopped: {research['stopped'] or '-'}"
                     + (f"; error: {research['error']}" if research.get("error") else ""))
        for step in research["steps"]:
            arguments = json.dumps(step["arguments"], ensure_ascii=False)[:100] if not isinstance(step["arguments"], str) else step["arguments"][:100]
            lines.append(f"  {step['step']:>2}. {step['tool']} {arguments} -> {step['result_chars']:,} characters, read so far "
                         f"{step.get('chars_read', 0):,}; {step['seconds']:.3f} s, tokens {step['prompt_tokens']}+{step['completion_tokens']}"
                         + (f"; error: {step['error']}" if step.get("error") else ""))
    else:
        lines.append(f"  expansion added {len(research.get('added', []))} sections ({research.get('chars_added', 0):,} characters) from "
                     f"{', '.join(research.get('added_documents', [])[:6]) or 'no new document'}; " + "; ".join(research.get("hops", [])))
    return lines
