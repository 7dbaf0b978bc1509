"""Fit the search's route weights on every labelled question set, judged by leave-one-set-out nDCG@10.

``make fit`` runs this after the ranking fit (``python -m shelfwise.eval.fit_search --build-dir DIR``). Per question
of each set, the hybrid search's top ``DEPTH`` sections are taken with every route's rank of each
(``SearchHit.ranks``); a section is relevant when it holds a gold quote's item (``map_gold``), or, for a set with
reference answers, when it stands in a source document and holds a reference figure. A logistic regression over
the routes' reciprocal ranks (``RRF_K / (RRF_K + rank)``, 0 where a route did not find the section) gives each
route's weight, scaled so that BM25 weighs 1; a route whose weight comes out at or below 0 is dropped (weight 0).
A second fit maximises the metric itself (``fit_routes_direct``): coordinate ascent over each route's weight (BM25
fixed at 1) on ``GRID``, scoring a weighting by the mean nDCG@10 of the training sets (each set weighing the same)
with the collected sections re-fused offline; the held-out folds judge both fits with the real search.
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
from shelfwise.eval.retrieval import Unit, ndcg_at_10, question_metrics

__all__ = ["FUSED", "DEPTH", "GRID", "golds", "collect_search", "fit_routes", "fit_routes_direct", "offline_ndcg", "ndcg", "main"]

ROOT = Path(__file__).resolve().parents[2]
FUSED = tuple(r for r in ROUTES if r != "identifier")
"""The routes fused by weight (the identifier route puts exact holders first by rule)."""
DEPTH = 100
GRID = (0.0, 0.125, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
"""The weights a route may take relative to BM25's 1 in the direct fit (a coarse grid: the sets are small)."""


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
                         "features": _features(hit.ranks), "section": hit.section_id, "relevant": len(gold.relevant)})
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


def offline_ndcg(rows: list[dict], weights: dict[str, float]) -> float:
    """Mean over sets of the mean nDCG@10 per question when the collected sections are ranked by
    ``sum(weight * reciprocal rank)`` (binary relevance; the search's rules and repeats left out)."""
    per_question: dict[tuple[str, str], list[tuple[float, int, int]]] = {}
    for row in rows:
        score = sum(weights.get(route, 0.0) * value for route, value in row["features"].items())
        per_question.setdefault((row["set"], row["question"]), []).append((score, row["label"], row["relevant"]))
    per_set: dict[str, list[float]] = {}
    for (set_name, _), scored in per_question.items():
        scored.sort(key=lambda item: -item[0])
        per_set.setdefault(set_name, []).append(ndcg_at_10([bool(label) for _, label, _ in scored[:10]], scored[0][2]))
    return statistics.fmean(statistics.fmean(values) for values in per_set.values())


def fit_routes_direct(rows: list[dict], start: dict[str, float] | None = None, passes: int = 3) -> dict[str, float]:
    """Route weights maximising ``offline_ndcg`` on ``rows``: coordinate ascent over ``GRID`` from ``start`` (default:
    every route 1), BM25 fixed at 1; ties keep the smaller weight."""
    weights = {route: 1.0 for route in FUSED} | dict(start or {})
    weights["bm25"] = 1.0
    best = offline_ndcg(rows, weights)
    for _ in range(passes):
        moved = False
        for route in (r for r in FUSED if r != "bm25"):
            for value in GRID:
                trial = weights | {route: value}
                figure = offline_ndcg(rows, trial)
                if figure > best + 1e-9 or (abs(figure - best) <= 1e-9 and value < weights[route]):
                    moved = moved or value != weights[route]
                    weights, best = trial, figure
        if not moved:
            break
    return {route: weights[route] for route in FUSED}


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
            training = [r for other, rs in rows.items() if other != name for r in rs]
            weights = fit_routes(training)
            direct = fit_routes_direct(training)
            shipped, _ = ndcg(gold_sets[name], opened[name], None)
            fitted, _ = ndcg(gold_sets[name], opened[name], weights)
            fitted_direct, _ = ndcg(gold_sets[name], opened[name], direct)
            plain, _ = ndcg(gold_sets[name], opened[name], {"bm25": 1.0, "dense": 1.0}, routes=("bm25", "dense"))
            folds[name] = {"shipped": shipped, "fitted_without": fitted, "direct_without": fitted_direct, "bm25+dense": plain,
                           "weights": weights, "direct_weights": direct, "questions": len(gold_sets[name])}
            print(f"fit-search: held out {name}: shipped {shipped} fitted-on-the-others {fitted} direct {fitted_direct} "
                  f"bm25+dense {plain}", file=sys.stderr, flush=True)
        everything = [r for rs in rows.values() for r in rs]
        fits = {"fitted_without": fit_routes(everything), "direct_without": fit_routes_direct(everything)}
        means = {key: round(statistics.fmean(f[key] for f in folds.values()), 4) for key in ("shipped", "fitted_without", "direct_without")}
        worst = lambda key: min(f[key] - f["bm25+dense"] for f in folds.values())  # noqa: E731
        method = max(fits, key=lambda key: means[key])
        weights = fits[method]
        mean_shipped, mean_fitted = means["shipped"], means[method]
        ship = mean_fitted >= mean_shipped and worst(method) >= min(worst("shipped"), 0.0)
        result = {"kind": "fit-search", "sets": list(sets), "folds": folds, "mean_shipped": mean_shipped, "mean_fitted": mean_fitted,
                  "means": means, "method": {"fitted_without": "logistic regression", "direct_without": "direct nDCG@10"}[method],
                  "weights": weights, "all_fits": fits, "shipped_before": dict(ROUTE_WEIGHTS), "written": ship,
                  "inputs": {str(p): _sha(p) for p in sets.values()}, "seconds": round(time.perf_counter() - started, 1)}
        (ROOT / "eval" / "results" / "fit-search.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        if ship:
            args.out.write_text(json.dumps({"weights": weights, "source": f"python -m shelfwise.eval.fit_search ({result['method']} "
                                            "over the routes' reciprocal ranks)", "inputs": result["inputs"],
                                            "cross_validation": {"folds": folds, "mean_shipped_before": mean_shipped,
                                                                 "mean_fitted": mean_fitted}}, indent=1) + "\n", encoding="utf-8")
        print(json.dumps({k: v for k, v in result.items() if k != "folds"}, indent=1))
        for name, fold in folds.items():
            print(f"held out {name}: shipped {fold['shipped']:.3f}, fitted on the others {fold['fitted_without']:.3f}, "
                  f"direct {fold['direct_without']:.3f}, bm25+dense {fold['bm25+dense']:.3f}")
    finally:
        for shelves in opened.values():
            close_shelves(shelves)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
