"""Fit the search's route weights on every labelled question set, judged by leave-one-set-out nDCG@10.

``make fit`` runs this after the ranking fit (``python -m shelfwise.eval.fit_search --build-dir DIR``). Per question
of each set, the hybrid search's top ``DEPTH`` sections are taken with every route's rank of each
(``SearchHit.ranks``); a section is relevant when it holds a gold quote's item (``map_gold``), or, for a set with
reference answers, when it stands in a source document and holds a reference figure. A logistic regression over
the routes' reciprocal ranks (``RRF_K / (RRF_K + rank)``, 0 where a route did not find the section) gives each
route's weight, scaled so that BM25 weighs 1; a route whose weight comes out at or below 0 is dropped (weight 0).
The exact-identifier rule (holders first), the catalogue and repeat rules stay rules: they are not fusion weights.

For each set: fit on the others, search the held-out set with those weights, and report nDCG@10 beside the
shipped weights and plain BM25 + dense (``eval/results/fit-search.json``). The fit on every set is written to
``shelfwise/compiler/search/route_weights.json`` when its held-out mean is at least the shipped weights', and no
fold falls below BM25 + dense by more than the shipped weights do; otherwise the shipped weights stay.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from shelfwise.compiler.search.search import ROUTE_WEIGHTS, ROUTE_WEIGHTS_FILE, ROUTES, RRF_K
from shelfwise.eval.fit import SETS, _sha
from shelfwise.eval.questions import GoldQuestion, load_questions, map_gold
from shelfwise.eval.retrieval import Unit, question_metrics

__all__ = ["FUSED", "DEPTH", "golds", "collect_search", "fit_routes", "ndcg", "main"]

ROOT = Path(__file__).resolve().parents[2]
FUSED = tuple(r for r in ROUTES if r != "identifier")
"""The routes fused by weight (the identifier route puts exact holders first by rule)."""
DEPTH = 100


def golds(questions_path: Path, shelves) -> list[GoldQuestion]:
    """Every question with evidence as a GoldQuestion: gold sections, or for a reference set the source documents'
    sections holding each reference figure."""
    from fnmatch import fnmatch

    from shelfwise.eval.reference import number_keys, reference_facts

    out = []
    for question in load_questions(questions_path):
        shelf = shelves[question.shelf]
        if question.reference_answer:
            figures = reference_facts(question.reference_answer, question.question).figures
            docs = [d for d, row in shelf.documents.items() if fnmatch(Path(str(row["path"])).name, question.source_documents or "*")]
            items = []
            for _, keys in figures:
                held = sorted(sid for d in docs for sid in shelf.doc_sections[d] if keys & number_keys(shelf.sections[sid].text))
                if held:
                    items.append(held)
            if items:
                out.append(GoldQuestion(question=question, items=items))
        elif question.must:
            gold = map_gold(question, shelf.store)
            if gold.relevant:
                out.append(gold)
    return out


def _features(ranks: dict[str, int]) -> dict[str, float]:
    return {route: RRF_K / (RRF_K + ranks[route]) for route in FUSED if route in ranks}


def collect_search(set_name: str, gold_questions: list[GoldQuestion], shelves) -> list[dict]:
    """Rows of (set, question, features, label) over each question's top DEPTH sections (every route weighing 1)."""
    rows = []
    for gold in gold_questions:
        searcher = shelves[gold.question.shelf].searcher
        hits = searcher.search(gold.question.question, k=DEPTH, weights={r: 1.0 for r in FUSED}).hits
        for hit in hits:
            rows.append({"set": set_name, "question": gold.question.id, "label": int(hit.section_id in gold.relevant),
                         "features": _features(hit.ranks)})
    return rows


def fit_routes(rows: list[dict]) -> dict[str, float]:
    """Route weights from a logistic regression over the routes' reciprocal ranks (each set and question weighing the
    same), scaled so BM25 weighs 1; a weight at or below 0 drops its route."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    x = np.array([[row["features"].get(r, 0.0) for r in FUSED] for row in rows])
    y = np.array([row["label"] for row in rows])
    count: dict[tuple[str, str], int] = {}
    per_set: dict[str, set[str]] = {}
    for row in rows:
        count[(row["set"], row["question"])] = count.get((row["set"], row["question"]), 0) + 1
        per_set.setdefault(row["set"], set()).add(row["question"])
    weight = np.array([1.0 / count[(r["set"], r["question"])] / len(per_set[r["set"]]) for r in rows])
    model = LogisticRegression(C=1.0, max_iter=5000)
    model.fit(x, y, sample_weight=weight * len(rows) / weight.sum())
    coef = dict(zip(FUSED, model.coef_[0]))
    scale = coef["bm25"] if coef["bm25"] > 0 else max(coef.values())
    return {route: round(max(float(value / scale), 0.0), 4) for route, value in coef.items()}


def ndcg(gold_questions: list[GoldQuestion], shelves, weights: dict[str, float] | None, routes=ROUTES) -> tuple[float, dict]:
    """Mean nDCG@10 of ``gold_questions`` searched with ``weights`` over ``routes``; and per question."""
    per = {}
    for gold in gold_questions:
        searcher = shelves[gold.question.shelf].searcher
        hits = searcher.search(gold.question.question, k=20, routes=routes, weights=weights).hits
        units = [Unit(chars=h.chars, sections=[h.section_id], repeats=h.repeats, read_text_key="") for h in hits]  # nDCG only: no budget read
        per[gold.question.id] = round(question_metrics(gold, units)["ndcg@10"], 4)
    return (round(statistics.fmean(per.values()), 4) if per else 0.0), per


def main(argv: list[str] | None = None) -> int:
    from shelfwise.api.shelves import close_shelves, open_shelves
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.settings import Settings

    parser = argparse.ArgumentParser(prog="python -m shelfwise.eval.fit_search", description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path, required=True, help="where every set's shelves are compiled")
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated sets (default: {','.join(SETS)})")
    parser.add_argument("--out", type=Path, default=ROUTE_WEIGHTS_FILE, help="route weights file to write (default: the shipped one)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    sets = {name: SETS[name] for name in args.sets.split(",")}
    embedder = embedder_from_settings(Settings(build_dir=args.build_dir))
    opened, rows, gold_sets = {}, {}, {}
    try:
        for name, path in sets.items():
            names = sorted({q.shelf for q in load_questions(path)})
            opened[name] = open_shelves({n: args.build_dir / n for n in names}, embedder)
            gold_sets[name] = golds(path, opened[name])
            rows[name] = collect_search(name, gold_sets[name], opened[name])
            print(f"fit-search: {name}: {len(gold_sets[name])} questions, {len(rows[name])} rows", file=sys.stderr, flush=True)
        folds = {}
        for name in sets:
            weights = fit_routes([r for other, rs in rows.items() if other != name for r in rs])
            shipped, _ = ndcg(gold_sets[name], opened[name], None)
            fitted, _ = ndcg(gold_sets[name], opened[name], weights)
            plain, _ = ndcg(gold_sets[name], opened[name], {"bm25": 1.0, "dense": 1.0}, routes=("bm25", "dense"))
            folds[name] = {"shipped": shipped, "fitted_without": fitted, "bm25+dense": plain, "weights": weights,
                           "questions": len(gold_sets[name])}
            print(f"fit-search: held out {name}: shipped {shipped} fitted-on-the-others {fitted} bm25+dense {plain}", file=sys.stderr, flush=True)
        weights = fit_routes([r for rs in rows.values() for r in rs])
        mean_shipped = round(statistics.fmean(f["shipped"] for f in folds.values()), 4)
        mean_fitted = round(statistics.fmean(f["fitted_without"] for f in folds.values()), 4)
        worst = lambda key: min(f[key] - f["bm25+dense"] for f in folds.values())  # noqa: E731
        ship = mean_fitted >= mean_shipped and worst("fitted_without") >= min(worst("shipped"), 0.0)
        result = {"kind": "fit-search", "sets": list(sets), "folds": folds, "mean_shipped": mean_shipped, "mean_fitted": mean_fitted,
                  "weights": weights, "shipped_before": dict(ROUTE_WEIGHTS), "written": ship,
                  "inputs": {str(p): _sha(p) for p in sets.values()}, "seconds": round(time.perf_counter() - started, 1)}
        (ROOT / "eval" / "results" / "fit-search.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        if ship:
            args.out.write_text(json.dumps({"weights": weights, "source": "python -m shelfwise.eval.fit_search (logistic regression "
                                            "over the routes' reciprocal ranks)", "inputs": result["inputs"],
                                            "cross_validation": {"folds": folds, "mean_shipped_before": mean_shipped,
                                                                 "mean_fitted": mean_fitted}}, indent=1) + "\n", encoding="utf-8")
        print(json.dumps({k: v for k, v in result.items() if k != "folds"}, indent=1))
        for name, fold in folds.items():
            print(f"held out {name}: shipped {fold['shipped']:.3f}, fitted on the others {fold['fitted_without']:.3f}, "
                  f"bm25+dense {fold['bm25+dense']:.3f}")
    finally:
        for shelves in opened.values():
            close_shelves(shelves)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
