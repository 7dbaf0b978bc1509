"""The answer tables of the scoreboard, regenerated from the stored runs under eval/runs/ (paper §4.2, §4.3, §6.2).

``answer_tables(results_dir)`` reads every ``eval/runs/<label>/`` (meta.json, run-<n>.jsonl and
grades-<judge>-run-<n>.jsonl; the runs folder is ``results_dir.parent / "runs"`` unless given) and prints:
answers per run (coverage by the model judge, quote recall by the model-free judge, wrong, verified share of
displayed sentences, label against grade, dollars and seconds per answer), answers per question, the loss
waterfall, and run-to-run noise with comparisons between configurations on the same questions.
Development and held-out question files are shown apart. A metric not measured prints n.m.; the chunk-RAG
baseline prints a row of n.m. for a question set it was not run on.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

from shelfwise.compiler.errors import SettingsError
from shelfwise.compiler.store.records import table_line
from shelfwise.eval.answer_metrics import label_agrees, verified_share
from shelfwise.eval.judge import QUOTE_RECALL
from shelfwise.eval.noise import compare, run_spread
from shelfwise.eval.questions import load_questions
from shelfwise.eval.run import ROOT, read_meta, read_run, run_files
from shelfwise.eval.waterfall import LOSSES, STAGES, item_paths, waterfall_counts

__all__ = ["answer_tables", "load_runs", "BASELINE_SYSTEM_NAME"]

NM = "n.m."
BASELINE_SYSTEM_NAME = "chunk RAG (2000/250, bm25+dense, top 16)"
SPLITS = ["dev", "held-out"]


def _f(value, digits: int = 3) -> str:
    return NM if value is None else f"{value:.{digits}f}"


def _mean(values) -> float | None:
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def _grades(path: Path) -> dict[str, dict]:
    return {g["id"]: g for g in read_run(path)} if path.exists() else {}


def load_runs(runs_dir: Path) -> list[dict]:
    """Every label: its meta, and per run the records and the grades by judge name."""
    labels = []
    for folder in sorted(p for p in Path(runs_dir).glob("*") if p.is_dir()):
        meta = read_meta(folder)
        runs = []
        for run_file in run_files(folder):
            grades = {}
            for path in sorted(folder.glob(f"grades-*-{run_file.stem}.jsonl")):
                by_id = _grades(path)
                if by_id:
                    grades[next(iter(by_id.values()))["judge"]] = by_id
            runs.append({"name": run_file.stem, "records": read_run(run_file), "grades": grades})
        if runs:
            labels.append({"label": folder.name, "meta": meta, "runs": runs})
    return labels


def _judge_of(run: dict) -> str | None:
    return next((name for name in sorted(run["grades"]) if name != QUOTE_RECALL), None)


def _primary(run: dict) -> tuple[str | None, dict]:
    """The grade the label check and noise use: the model judge's when there is one, else quote recall."""
    judge = _judge_of(run)
    name = judge or (QUOTE_RECALL if QUOTE_RECALL in run["grades"] else None)
    return name, run["grades"].get(name, {}) if name else {}


def _scores(run: dict) -> dict[str, float | None]:
    _, grades = _primary(run)
    return {r["id"]: (grades.get(r["id"]) or {}).get("score") for r in run["records"]}


def _run_row(entry: dict, run: dict) -> list[str]:
    records = run["records"]
    judge = _judge_of(run)
    coverage = _mean(g.get("score") for g in run["grades"][judge].values()) if judge else None
    wrong = sum(g.get("wrong_n") or 0 for g in run["grades"][judge].values()) if judge else None
    recall = _mean(g.get("score") for g in run["grades"].get(QUOTE_RECALL, {}).values()) if QUOTE_RECALL in run["grades"] else None
    shares = [verified_share(r) for r in records if not r.get("error")]
    displayed = sum(d for _, d in shares)
    verified = sum(v for v, _ in shares) / displayed if displayed else None
    name, grades = _primary(run)
    agree = [label_agrees((r.get("answer") or {}).get("label"), [i["score"] for i in (grades.get(r["id"]) or {}).get("items", [])],
                          ((grades.get(r["id"]) or {}).get("expected") or {}).get("expect", "")) for r in records]
    agree = [a for a in agree if a is not None]
    costs = [(r.get("cost") or {}).get("usd") for r in records if not r.get("error")]
    usd = None if not costs or any(c is None for c in costs) else sum(costs) / len(costs)
    seconds = _mean(r.get("seconds") for r in records if not r.get("error"))
    errors = sum(1 for r in records if r.get("error"))
    meta = entry["meta"]
    agree_cell = f"{sum(agree) / len(agree):.2f} ({'judge' if judge else 'qr'})" if agree else NM
    expected = [(g.get("expected") or {}) for g in grades.values()]
    ooc = [e for e in expected if e.get("expect") == "not_in_documents"]
    premise = [e for e in expected if e.get("expect") == "false_premise"]
    lengths = sorted(len((r.get("answer") or {}).get("markdown", "")) for r in records if not r.get("error"))
    p95 = lengths[min(len(lengths) - 1, int(0.95 * len(lengths)))] if lengths else None
    superseded = sum(1 for r in records if ((r.get("answer") or {}).get("sentences") or [{}])[0].get("superseded_by"))
    return [entry["label"], run["name"], meta.get("mode", NM), str(len(records)), _f(coverage), str(wrong) if wrong is not None else NM,
            _f(recall), f"{_f(verified, 2)} ({displayed})" if verified is not None else NM, agree_cell,
            f"{sum(e.get('quoted', 0) for e in ooc)} ({len(ooc)})" if ooc else NM,
            f"{sum(1 for e in premise if e.get('met'))}/{len(premise)}" if premise else NM,
            str(superseded), str(p95) if p95 is not None else NM, _f(usd, 4), _f(seconds, 1), str(errors)]


RUN_HEADER = ["label", "run", "mode", "questions", "coverage (judge)", "wrong", "quote recall", "verified / displayed (n)",
              "label = grade", "quoted on not-in-docs (n)", "correction first", "superseded lead", "chars p95", "$ / answer",
              "s / answer", "errors"]


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = [table_line(header), "|" + "---|" * len(header)]
    lines += [table_line(row) for row in rows]
    return "\n".join(lines)


def _questions_of(meta: dict):
    path = Path(meta.get("questions", ""))
    for candidate in (path, ROOT / path):
        if candidate.is_file():
            try:
                return load_questions(candidate)
            except SettingsError:
                return None
    return None


def _per_question(entry: dict) -> str:
    runs = entry["runs"]
    scores = [_scores(run) for run in runs]
    ids = sorted({r["id"] for run in runs for r in run["records"]})
    header = ["question", *[f"{run['name']} ({_primary(run)[0] or NM})" for run in runs], "swing", "labels", "s (mean)"]
    rows = []
    for qid in ids:
        values = [s.get(qid) for s in scores]
        present = [v for v in values if v is not None]
        swing = max(present) - min(present) if len(present) > 1 else None
        records = [next((r for r in run["records"] if r["id"] == qid), {}) for run in runs]
        labels = "/".join((r.get("answer") or {}).get("label", "error") if r else NM for r in records)
        rows.append([qid, *[_f(v, 2) for v in values], _f(swing, 2), labels, _f(_mean(r.get("seconds") for r in records), 1)])
    return _table(header, rows)


def _waterfall_rows(entry: dict) -> list[list[str]]:
    questions = _questions_of(entry["meta"])
    if questions is None:
        return [[entry["label"], "all", *[NM] * (len(STAGES) + len(LOSSES) - 1)]]
    by_id = {q.id: q for q in questions}
    rows = []
    for run in entry["runs"]:
        paths = [p for r in run["records"] if r["id"] in by_id and not r.get("error") for p in item_paths(by_id[r["id"]], r)]
        counts = waterfall_counts(paths)
        rows.append([entry["label"], run["name"], *[str(counts[s]) for s in STAGES], *[str(counts[f"lost: {x}"]) for x in LOSSES[:-1]]])
    return rows


def _noise_rows(entries: list[dict]) -> tuple[list[list[str]], list[list[str]]]:
    spreads = []
    for entry in entries:
        spread = run_spread([_scores(run) for run in entry["runs"]])
        graded = _primary(entry["runs"][0])[0] or NM
        spreads.append([entry["label"], graded, str(spread.runs), str(spread.questions), ", ".join(_f(m) for m in spread.means) or NM,
                        _f(spread.mean), _f(spread.spread), (f"{spread.max_swing:.2f} ({spread.swing_question})" if spread.max_swing else "0.00") if spread.max_swing is not None else NM])
    comparisons = []
    for a, b in combinations(entries, 2):
        if a["meta"].get("questions_sha256") != b["meta"].get("questions_sha256"):
            continue
        if _primary(a["runs"][0])[0] != _primary(b["runs"][0])[0]:
            continue
        c = compare([_scores(r) for r in a["runs"]], [_scores(r) for r in b["runs"]])
        verdict = NM if c.real is None else ("real" if c.real else "within noise")
        comparisons.append([a["label"], b["label"], _f(c.mean_a), _f(c.mean_b), _f(c.difference), _f(c.spread), verdict])
    return spreads, comparisons


def _split_section(split: str, entries: list[dict]) -> str:
    rows = [_run_row(entry, run) for entry in entries for run in entry["runs"]]
    sets = sorted({e["meta"].get("questions", "") for e in entries})
    for questions in sets:
        if not any(e["meta"].get("system", "").startswith("chunk RAG") and e["meta"].get("questions") == questions for e in entries):
            rows.append([f"{BASELINE_SYSTEM_NAME} on {Path(questions).name}", NM, "chunk RAG", NM, *[NM] * (len(RUN_HEADER) - 4)])
    parts = [f"### Answers per run — {split} ({', '.join(Path(s).name for s in sets)})", "",
             "coverage: blind model judge, each credit quote-checked; quote recall: the model-free judge (gold quote, or a "
             "sentence with 80% of the item's words), not coverage; label = grade: share of answers whose own label matches "
             "the grade named in brackets; quoted on not-in-docs: quoted sentences shown for questions the shelf does not answer "
             "(should be 0); correction first: false-premise answers whose first sentence states the correction; superseded "
             "lead: answers whose first sentence quotes a superseded document; chars p95: answer length.", "", _table(RUN_HEADER, rows)]
    for entry in entries:
        parts += ["", f"#### Per question — {entry['label']}", "", _per_question(entry)]
    water = [row for entry in entries for row in _waterfall_rows(entry)]
    parts += ["", f"### Where answers lose facts — {split}", "",
              "Per must item (stated = quote-recall rule): counts per stage, then the first stage each item was lost at.", "",
              _table(["label", "run", *STAGES, *[f"lost: {x}" for x in LOSSES[:-1]]], water)]
    spreads, comparisons = _noise_rows(entries)
    parts += ["", f"### Run-to-run noise — {split}", "", _table(["label", "graded by", "runs", "questions", "run means", "mean",
                                                                "spread", "max question swing"], spreads)]
    if comparisons:
        parts += ["", "Comparisons on the same questions (real only beyond the larger spread):", "",
                  _table(["A", "B", "mean A", "mean B", "B − A", "spread", "verdict"], comparisons)]
    return "\n".join(parts)


def answer_tables(results_dir: Path = Path("eval/results"), runs_dir: Path | None = None) -> str:
    """Every answer table as Markdown, development and held-out question files apart."""
    runs_dir = Path(runs_dir) if runs_dir is not None else Path(results_dir).parent / "runs"
    entries = load_runs(runs_dir)
    if not entries:
        return f"no answer runs in {runs_dir}; run 'shelfwise eval answers --questions PATH'"
    sections = []
    for split in [*SPLITS, *sorted({e["meta"].get("split", "dev") for e in entries} - set(SPLITS))]:
        chosen = [e for e in entries if e["meta"].get("split", "dev") == split]
        if chosen:
            sections.append(_split_section(split, chosen))
    return "\n\n".join(sections)


if __name__ == "__main__":
    print(answer_tables())
