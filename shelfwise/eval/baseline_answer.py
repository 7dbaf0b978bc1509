"""The chunk-RAG baseline answerer (paper §7): the conventional pipeline the engine is measured against.

Documents cut into 2,000-character chunks with 250 overlap, structure ignored
(``shelfwise.eval.baseline.ChunkIndex``, the retrieval evaluation's own index, cached in
``build/<shelf>/eval-chunks``); hybrid retrieval (BM25 and dense fused by
reciprocal rank); the top 16 chunks to ONE call of the writer model
(``models.writer``), told to answer completely from them and cite chunk ids;
no checker. Runs are stored in the same JSON lines as the engine's
(``shelfwise.eval.run.AnswerRecord``) and judged the same way. With no model configured
nothing is run: the baseline is reported n.m., never faked.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.models import ChatModel, ModelError, make_client
from shelfwise.compiler.settings import Settings
from shelfwise.eval.questions import Question, load_questions, map_gold
from shelfwise.eval.run import RUNS_DIR, AnswerRecord, _commit, build_hint, cost_usd, prepare_run_dir, split_of, write_run

__all__ = ["TOP_CHUNKS", "BASELINE_SYSTEM", "BaselineAnswerer", "run_baseline_answers", "baseline_messages"]

TOP_CHUNKS = 16
BASELINE_SYSTEM = (
    "Answer the user's question completely, using only the context chunks given. State every fact the question needs, "
    "with its conditions, numbers and exceptions. After each sentence cite the ids of the chunks it comes from in square "
    "brackets, e.g. [doc-id:3]. If the chunks do not answer the question, say so plainly."
)
_CITE = re.compile(r"\[([^\[\]\s]+:\d+)\]")
_AFTER_STOP = re.compile(r"([.!?])\s*((?:\[[^\[\]\s]+:\d+\]\s*)+)")


def baseline_messages(question: str, chunks) -> list[dict]:
    context = "\n".join(f"<chunk id={quoteattr(c.id)}>\n{escape(c.text)}\n</chunk>" for c in chunks)
    return [{"role": "system", "content": BASELINE_SYSTEM},
            {"role": "user", "content": f"<context>\n{context}\n</context>\n\nQuestion: {question}"}]


class BaselineAnswerer:
    """Chunk indexes per shelf and one chat model."""

    def __init__(self, chat: ChatModel, indexes: dict):
        self.chat = chat
        self.indexes = indexes

    def answer(self, question: Question, gold: list[list[str]]) -> AnswerRecord:
        from shelfwise.compiler.ledger.rules import sentences

        index = self.indexes[question.shelf]
        started = time.perf_counter()
        chunks = index.search(question.question, limit=TOP_CHUNKS)
        before = (self.chat.prompt_tokens, self.chat.completion_tokens)
        try:
            text = self.chat.complete(baseline_messages(question.question, chunks))
        except ModelError as exc:
            return AnswerRecord(id=question.id, shelf=question.shelf, question=question.question, answer={},
                                trace={"gold": gold}, seconds=round(time.perf_counter() - started, 3), error=str(exc))
        seconds = round(time.perf_counter() - started, 3)
        step = {"model": self.chat.model, "calls": 1, "prompt_tokens": self.chat.prompt_tokens - before[0],
                "completion_tokens": self.chat.completion_tokens - before[1]}
        units = []
        for line in text.splitlines():
            # "... sentence. [doc:1] Next" -> "... sentence [doc:1]. Next": marks after the stop belong to the sentence before
            for piece in sentences(_AFTER_STOP.sub(lambda m: f" {m.group(2).strip()}{m.group(1)} ", line)):
                cited = _CITE.findall(piece)
                units.append({"id": f"u{len(units) + 1}", "kind": "sentence", "text": re.sub(r"\s+([.!?,;:])", r"\1", _CITE.sub("", piece)).strip(),
                              "citations": cited, "status": "unchecked"})
        carried = {sid for chunk in chunks for sid in chunk.sections}
        wanted = {sid for item in gold for sid in item}
        answer = {"markdown": text, "label": "n/a", "mode": "chunk RAG", "models": {"writer": self.chat.model},
                  "not_covered": [], "not_shown": 0, "warnings": [],
                  "sentences": [{k: u[k] for k in ("text", "citations", "kind", "status")} for u in units]}
        trace = {"gold": gold, "chunks": [c.id for c in chunks], "candidates_n": len(carried),
                 "candidates_gold": sorted(carried & wanted), "read_n": len(carried), "read_gold": sorted(carried & wanted),
                 "written": units, "removed": [], "checked": 0}
        return AnswerRecord(id=question.id, shelf=question.shelf, question=question.question, answer=answer, trace=trace,
                            cost=cost_usd([step]), seconds=seconds)


def run_baseline_answers(questions_path: Path, *, runs: int = 1, label: str | None = None, settings: Settings,
                         build_dir: Path | None = None, progress: Callable[[str], None] = lambda line: None,
                         runs_dir: Path = RUNS_DIR, http_client=None, embedder=None) -> Path | None:
    """The baseline over every question ``runs`` times -> eval/runs/<label>/; None (n.m.) when no writer model is configured."""
    from shelfwise.compiler.build import current_build
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.store.store import Store
    from shelfwise.eval.baseline import ChunkIndex

    model = settings.models.writer
    if not model or not (settings.models.base_url or http_client is not None):
        progress("chunk RAG baseline: n.m. (no model configured; set models.base_url and models.writer to run it)")
        return None
    questions = load_questions(Path(questions_path))
    build_dir = Path(build_dir or settings.build_dir)
    names = sorted({q.shelf for q in questions})
    built = {n: current_build(build_dir / n) for n in names}  # the one resolver of a shelf's current build
    missing = [n for n in names if not (built[n] / "store.sqlite").exists()]
    if missing:
        raise ShelfwiseError(f"shelf(s) {', '.join(missing)} not compiled under {build_dir}; compile each first: "
                             + "; ".join(build_hint(n) for n in missing))
    chat = ChatModel(make_client(settings.models, http_client=http_client), model)
    label = label or f"chunk-rag-{Path(questions_path).stem}"
    run_dir = Path(runs_dir) / label
    meta = {"questions": str(questions_path), "questions_sha256": _sha(Path(questions_path)), "split": split_of(questions_path),
            "system": "chunk RAG (2000/250, bm25+dense, top 16)", "mode": "chunk RAG", "models": {"writer": model},
            "answer_settings": {"top_chunks": TOP_CHUNKS}, "label": label, "commits": [_commit()]}
    embedder = embedder if embedder is not None else embedder_from_settings(settings)
    stores = {n: Store(built[n] / "store.sqlite", create=False) for n in names}
    indexes = {}
    try:
        for name in names:
            indexes[name] = ChunkIndex(stores[name], embedder, build_dir / name / "eval-chunks")
        answerer = BaselineAnswerer(chat, indexes)
        done = prepare_run_dir(run_dir, meta)
        for number in range(done + 1, done + runs + 1):
            records = []
            for question in questions:
                record = answerer.answer(question, map_gold(question, stores[question.shelf]).items)
                records.append(record)
                progress(f"baseline run {number} {question.id}: {'error: ' + record.error if record.error else 'answered'}")
            write_run(run_dir / f"run-{number}.jsonl", records)
    finally:
        for index in indexes.values():
            index.close()
        for store in stores.values():
            store.close()
    return run_dir


def _sha(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
