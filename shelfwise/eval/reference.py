"""Reference answers: how much of what a reference answer states an answer, its citations and the documents hold.

A question set with reference answers (``../shared/questions/dev-filings.yaml``: docugami's KG-RAG SEC 10-Q set)
has no gold quotes; what a complete answer must hold are the reference answer's **figures** (amounts, percentages,
per-share values: ``$82,959 million``, ``5.3%``, ``(1,234)``) and **named facts** (names the question does not
give: "Epic Games", "Ninth Circuit"). Per question, from a stored answer run:

- ``source_top10`` / ``source_cited``: share of the question's source documents (its ``source_documents`` glob over
  the shelf's file names) among the documents of the search's top 10 sections, and among the answer's citations;
- ``cited_sources``: share of the documents the answer cites that are source documents (a sentence about "the latest
  10-Q" cited to another quarter's report counts against it);
- ``figures_answer`` / ``figures_cited`` / ``figures_ceiling``: share of the reference figures found in the shown
  answer, in the full text of the sections it cites, and anywhere in the compiled text of the source documents (the
  reading ceiling: what a perfect reader of the compiled text could show);
- ``figures_chunks``: the same for the chunk-RAG baseline's top chunks cut at the answer's character budget;
- ``names_*``: the same shares for named facts.

A figure is found when one of its keys stands among the numbers of the text: the digits without thousands
separators, signs or brackets; a figure given in billions or millions also matches the millions a statement table
writes (``$1.5 billion`` = ``1,500``). Dates and bare years are not figures. The rules are English-language ones.
"""

from __future__ import annotations

import fnmatch
import json
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.eval.questions import Question, load_questions

__all__ = ["ReferenceFacts", "reference_facts", "number_keys", "figure_found", "name_found", "source_documents",
           "score_reference", "run_reference_eval", "reference_table", "summarise", "METRICS"]

_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_NUMBER = re.compile(r"(?<![\w.,])(\$\s?)?\(?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\)?(\s*(?:%|percent\b)|\s+(?:million|billion|thousand)\b)?", re.I)
_DATE_DAY = re.compile(rf"\b(?:{_MONTHS})\.?\s+$", re.I)
_SOURCE_LINE = re.compile(r"\(?\s*SOURCES?(?:\(S\))?\s*:(?:[^\n)]|\n(?!\s*\n))*\)?", re.I)
_NAME = re.compile(r"\b[A-Z](?:[\w&-]|\.(?=[A-Z]))*(?:\s+(?:(?:of|and|for|the|&|de|on)\s+)?[A-Z](?:[\w&-]|\.(?=[A-Z]))*)*")
_NAME_STOP = frozenset((_MONTHS + "|the|a|an|in|on|for|of|and|this|these|that|those|it|its|there|from|as|at|by|to|with|"
                        "however|additionally|overall|based|yes|no|also|while|although|during|further|total|net|source|sources|"
                        "first|second|third|fourth|q1|q2|q3|q4|i|ii|iii|iv|company|inc|corporation|corp").split("|"))

METRICS = ["source_top10", "source_cited", "cited_sources", "figures_answer", "figures_cited", "figures_ceiling", "figures_chunks",
           "names_answer", "names_cited", "names_ceiling"]


@dataclass(frozen=True)
class ReferenceFacts:
    """What a reference answer states: its figures (each a set of number keys) and its named facts."""

    figures: tuple[tuple[str, frozenset[str]], ...]
    names: tuple[str, ...]


def _keys(digits: str, decimals: str, scale: str) -> frozenset[str]:
    base = digits.replace(",", "") + (decimals or "")
    keys = {base.rstrip("0").rstrip(".") if "." in base else base}
    scale = scale.strip().lower()
    try:
        value = float(base)
    except ValueError:
        return frozenset(keys)
    if scale == "billion":  # a statement table in millions writes $1.5 billion as 1,500
        keys.add(_plain(value * 1000))
    elif scale == "thousand":
        keys.add(_plain(value / 1000))
    return frozenset(keys)


def _plain(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def number_keys(text: str) -> set[str]:
    """Every number of ``text`` as a key (digits without separators, signs or brackets; trailing decimal zeros cut)."""
    out: set[str] = set()
    for match in _NUMBER.finditer(text):
        out |= _keys(match.group(2), match.group(3) or "", "")
    return out


def reference_facts(reference: str, question: str = "") -> ReferenceFacts:
    """The figures and named facts of a reference answer (its SOURCE lines left out); names the question already
    gives are not facts to find."""
    text = re.sub(r"['’]s\b", "", _SOURCE_LINE.sub(" ", reference).replace("’", "'"))
    figures: dict[str, frozenset[str]] = {}
    for match in _NUMBER.finditer(text):
        dollar, digits, decimals, scale = match.group(1), match.group(2), match.group(3) or "", match.group(4) or ""
        marked = bool(dollar or scale or decimals or "," in digits)
        if not marked:
            continue  # a bare integer: a count in words' place, a day, a section number
        if _DATE_DAY.search(text[max(0, match.start() - 12):match.start()]):
            continue  # "June 25, 2022": a date, not a figure
        keys = _keys(digits, decimals, scale)
        figures.setdefault(match.group(0).strip(), keys)
    asked = re.sub(r"['’]s\b", "", question.replace("’", "'")).lower()
    names: dict[str, None] = {}
    for match in _NAME.finditer(text):
        words = [w for w in re.split(r"\s+", match.group(0).strip(" .'")) if w]
        while words and words[0].lower().strip(".,") in _NAME_STOP:
            words = words[1:]
        while words and words[-1].lower().strip(".,") in _NAME_STOP:
            words = words[:-1]
        name = " ".join(words).strip(" .,")
        if not name or len(name) < 3 or name.lower() in asked or name.lower().endswith(".pdf"):
            continue
        if len(words) == 1 and not (name.isupper() and len(name) >= 2) and _sentence_start(text, match.start()):
            continue  # one capitalised word opening a sentence is no name
        names.setdefault(name, None)
    return ReferenceFacts(tuple(figures.items()), tuple(names))


def _sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in ".:;!?\n-•*" or before.endswith(("1.", "2.", "3."))


def figure_found(keys: frozenset[str], held: set[str]) -> bool:
    return bool(keys & held)


def name_found(name: str, text_lower: str) -> bool:
    return name.lower() in text_lower


def source_documents(question: Question, documents: dict[str, dict]) -> set[str]:
    """Document ids whose file name matches the question's ``source_documents`` glob."""
    pattern = question.source_documents
    if not pattern:
        return set()
    return {doc_id for doc_id, row in documents.items()
            if fnmatch.fnmatch(Path(str(row["path"])).name, pattern) or fnmatch.fnmatch(str(row["path"]), pattern)}


def _share(facts, found: Callable[[object], bool]) -> float | None:
    return sum(1 for fact in facts if found(fact)) / len(facts) if facts else None


def _section_text(shelf, section_id: str) -> str:
    resolved = shelf.resolve(section_id)
    if resolved is None:
        return ""
    section = resolved[0]
    return f"{' '.join(section.heading_path)}\n{section.text}"


def score_reference(question: Question, record: dict, shelf, chunks=None, budget: int = 4000) -> dict:
    """One question's row: the shares of METRICS (None where a question has nothing to count) and the counts."""
    facts = reference_facts(question.reference_answer, question.question)
    sources = source_documents(question, shelf.documents)
    answer = record.get("answer") or {}
    markdown = answer.get("markdown", "")
    cited = list(dict.fromkeys(c for s in answer.get("sentences", []) for c in s.get("citations", [])))
    cited_docs = {shelf.resolve(c)[0].doc_id for c in cited if shelf.resolve(c) is not None}
    top = shelf.searcher.search(question.question, k=10).hits
    top_docs = {hit.doc_id for hit in top}
    cited_text = "\n".join(_section_text(shelf, c) for c in cited)
    source_text = "\n".join(f"{' '.join(s.heading_path)}\n{s.text}" for d in sorted(sources) for s in shelf.store.sections(d))
    chunk_text = ""
    if chunks is not None:
        for chunk in chunks.search(question.question, 50):
            if len(chunk_text) >= budget:
                break
            chunk_text += chunk.text[: budget - len(chunk_text)] + "\n"
    texts = {"answer": markdown, "cited": cited_text, "ceiling": source_text, "chunks": chunk_text}
    numbers = {k: number_keys(v) for k, v in texts.items()}
    lowered = {k: v.lower() for k, v in texts.items()}
    row = {
        "id": question.id, "kind": question.kind, "evidence_kind": question.evidence_kind,
        "figures": len(facts.figures), "names": len(facts.names), "sources": sorted(sources),
        "source_top10": len(sources & top_docs) / len(sources) if sources else None,
        "source_cited": len(sources & cited_docs) / len(sources) if sources else None,
        "cited_sources": len(sources & cited_docs) / len(cited_docs) if sources and cited_docs else None,
        "answer_chars": len(markdown), "label": answer.get("label", ""),
    }
    for where in ("answer", "cited", "ceiling", "chunks"):
        row[f"figures_{where}"] = _share(facts.figures, lambda f, w=where: figure_found(f[1], numbers[w]))
        if where != "chunks":
            row[f"names_{where}"] = _share(facts.names, lambda n, w=where: name_found(n, lowered[w]))
    if chunks is None:
        row["figures_chunks"] = None
    row["missing_figures"] = [text for text, keys in facts.figures if not figure_found(keys, numbers["answer"])]
    return row


def _mean(rows: list[dict], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return round(statistics.fmean(values), 3) if values else None


def summarise(rows: list[dict]) -> dict:
    """Means of METRICS over all rows and per question kind and evidence kind."""
    groups: dict[str, list[dict]] = {"all": rows}
    for row in rows:
        groups.setdefault(f"kind: {row['kind']}", []).append(row)
        groups.setdefault(f"evidence: {row['evidence_kind']}", []).append(row)
    return {name: {"n": len(members), **{m: _mean(members, m) for m in METRICS}} for name, members in groups.items()}


def run_reference_eval(questions_path: Path, run_dir: Path, *, settings, embedder=None, results_path: Path | None = None,
                       budget: int = 4000, chunks: bool = True, progress: Callable[[str], None] = lambda line: None) -> dict:
    """Score the first run stored in ``run_dir`` against the reference answers of ``questions_path``; writes
    ``results_path`` (default eval/results/reference-<questions stem>.json) and returns the result."""
    from shelfwise.api.shelves import close_shelves, open_shelves
    from shelfwise.eval.baseline import ChunkIndex
    from shelfwise.eval.run import ROOT, read_run, run_files

    questions = [q for q in load_questions(Path(questions_path)) if q.reference_answer]
    if not questions:
        raise ShelfwiseError(f"{questions_path}: no question has a reference_answer; 'eval reference' scores sets like dev-filings.yaml")
    files = run_files(run_dir)
    if not files:
        raise ShelfwiseError(f"{run_dir}: no stored run; run 'shelfwise eval answers --questions {questions_path} --label NAME' first")
    records = {r["id"]: r for r in read_run(files[0])}
    names = sorted({q.shelf for q in questions})
    if embedder is None:
        from shelfwise.compiler.index.embedders import embedder_from_settings

        embedder = embedder_from_settings(settings)
    shelves = open_shelves({n: Path(settings.build_dir) / n for n in names}, embedder, settings=settings)
    rows = []
    try:
        for name in names:
            shelf = shelves[name]
            index = None
            if chunks:
                progress(f"reference: {name}: building the chunk baseline")
                index = ChunkIndex(shelf.store, embedder, shelf.generation / "eval-chunks", progress)
            try:
                for question in (q for q in questions if q.shelf == name):
                    record = records.get(question.id)
                    if record is None:
                        progress(f"reference: {question.id}: not in {files[0].name}, skipped")
                        continue
                    rows.append(score_reference(question, record, shelf, index, budget))
                    progress(f"reference: {question.id}: figures {rows[-1]['figures_answer']} (ceiling {rows[-1]['figures_ceiling']})")
            finally:
                if index is not None:
                    index.close()
    finally:
        close_shelves(shelves)
    result = {"kind": "reference", "questions": str(questions_path), "run": str(run_dir), "budget_chars": budget,
              "summary": summarise(rows), "rows": rows}
    target = Path(results_path) if results_path else ROOT / "eval" / "results" / f"reference-{Path(questions_path).stem}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return result


_COLUMNS = [("source_top10", "source docs in top 10"), ("source_cited", "source docs cited"), ("cited_sources", "cited docs that are sources"),
            ("figures_answer", "figures in answer"),
            ("figures_cited", "in cited sections"), ("figures_ceiling", "in source text (ceiling)"),
            ("figures_chunks", "chunk RAG at budget"), ("names_answer", "names in answer"), ("names_ceiling", "names in source text")]


def reference_table(result: dict) -> str:
    """One Markdown table: a row per group (all, per kind, per evidence kind), a column per metric."""
    from shelfwise.compiler.store.records import table_line

    def cell(value):
        return "n.m." if value is None else f"{value:.3f}"

    lines = [f"### Reference answers: {result.get('questions', '?')} (run {Path(result.get('run', '?')).name}, "
             f"chunk baseline at {result.get('budget_chars')} characters)", "",
             table_line(["questions", "n", *(label for _, label in _COLUMNS)]), "|---|---:|" + "---:|" * len(_COLUMNS)]
    for name, figures in result.get("summary", {}).items():
        lines.append(table_line([name, str(figures["n"]), *(cell(figures.get(key)) for key, _ in _COLUMNS)]))
    return "\n".join(lines)
