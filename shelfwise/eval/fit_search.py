"""Fit the search's route weights on every labelled question set, judged by leave-one-set-out nDCG@10.

``make fit`` runs this after the ranking fit (``python -m shelfwise.eval.fit_search --build-dir DIR``). Per question
of each set, the hybrid search's top ``DEPTH`` sections are taken with every route's rank of each
(``SearchHit.ranks``); a section is relevant when it holds a gold quote's item (``map_gold``), or, for a set with
reference answers, when it stands in a source document and holds a reference figure. A logistic regression over
the routes' reciprocal ranks (``RRF_K / (RRF_K + rank)``, 0 where a route did not find the section) gives each
route's weight; BM25 and dense are tied at 1 (reciprocal-rank fusion's own 1:1: fitted apart, dense came out at
1.3-1.6 and lost on every question set written later), the other routes relative to them, a route at or below 0
dropped. Which routes are fused is chosen by cross-validation too: for every subset of the routes the fit on all
sets keeps, each set is searched with the weights fitted on the others, and the subset whose held-out folds fall
below plain BM25 + dense least often wins (the issue's floor first), then the best held-out mean
(``choose_routes``). The exact-identifier bonus (added per identifier a section holds; at 1 its holders come first)
is fitted the same way over ``BONUS_GRID`` with the chosen routes: per fold the best mean on the other sets, the
smallest bonus among ties (``fit_bonus``). The catalogue and repeat rules stay rules: they are not fusion weights.

For each set of ``SEARCH_SETS`` (every labelled set of ``make fit``, and the two question sets written later by
someone who never saw an answer: their search figures were measured once, then they joined the folds), the
held-out nDCG@10 is reported beside the shipped weights' and plain BM25 + dense's (``eval/results/fit-search.json``,
every subset's folds included). The shipped weights' figures are no held-out figures where they were chosen on that
set (the hand-set ones on dev, dev-formats and northwind, a fitted file on its inputs); the fit on every set, over
the chosen routes, is written to ``shelfwise/compiler/search/route_weights.json`` when its held-out folds fall below
BM25 + dense no more often than the shipped weights' do and its held-out mean is at least theirs on the sets they never
saw (``should_ship``: neither the floor nor the fair mean gets worse); otherwise the shipped weights stay. A
fitted file has no ``named_handover``, and with the named route unfused the dense route embeds the whole query (what
is scored is what ships).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from shelfwise.compiler.search.search import ROUTE_WEIGHTS, ROUTE_WEIGHTS_FILE, ROUTES, RRF_K
from shelfwise.eval.fit import SETS, _sha
from shelfwise.eval.questions import GoldQuestion, load_questions, map_gold
from shelfwise.eval.retrieval import Unit, ndcg_at_10, question_metrics

__all__ = ["SEARCH_SETS", "BASE", "below_plain", "choose_routes", "fit_bonus", "BONUS_GRID", "should_ship", "shipped_seen", "FUSED", "DEPTH", "golds", "collect_search", "fit_routes", "ndcg", "main"]

ROOT = Path(__file__).resolve().parents[2]
SEARCH_SETS = {**SETS, "unseen-formats-2": ROOT / "eval" / "questions" / "unseen-formats-2.yaml",
               "unseen-cross": ROOT / "eval" / "questions" / "unseen-cross.yaml"}
"""The search's labelled sets: ``make fit``'s, and the two written last (format questions; cross-document questions over
typing, oauth and identity), which the writer's fits leave out."""
FUSED = tuple(r for r in ROUTES if r != "identifier")
"""The routes fused by weight (the identifier route is not fused: its holders get the identifier bonus)."""
BASE = ("bm25", "dense")
"""The two routes every query runs, tied at weight 1."""
DEPTH = 100
BONUS_GRID = (0.0, 0.002, 0.004, 0.008, 0.016, 0.032, 1.0)
"""Identifier bonuses tried (``search.IDENTIFIER_BONUS``): none, a lift of a few fused ranks to dozens, holders first (1)."""
HAND_SET_ON = ("dev", "dev-formats", "northwind")
"""The sets the hand-set route weights were chosen on (``search.HAND_SET_ROUTE_WEIGHTS``)."""


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
                         "features": _features(hit.ranks), "section": hit.section_id})
    return rows


def fit_routes(rows: list[dict], routes: tuple[str, ...] | None = None) -> dict[str, float]:
    """Route weights from a logistic regression over the routes' reciprocal ranks (each set and question weighing the
    same), BM25 and dense tied at weight 1 (one feature, their sum: reciprocal-rank fusion's own 1:1, which the untied
    fit's dense 1.3-1.6 lost on every later question set) and each other route of ``routes`` (default: all) relative
    to them; a weight at or below 0 drops its route, and so does a route not in ``routes``."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    aux = [r for r in FUSED if r not in BASE and (routes is None or r in routes)]
    x = np.array([[sum(row["features"].get(r, 0.0) for r in BASE), *(row["features"].get(r, 0.0) for r in aux)] for row in rows])
    y = np.array([row["label"] for row in rows])
    count: dict[tuple[str, str], int] = {}
    per_set: dict[str, set[str]] = {}
    for row in rows:
        count[(row["set"], row["question"])] = count.get((row["set"], row["question"]), 0) + 1
        per_set.setdefault(row["set"], set()).add(row["question"])
    weight = np.array([1.0 / count[(r["set"], r["question"])] / len(per_set[r["set"]]) for r in rows])
    model = LogisticRegression(C=1.0, max_iter=5000)
    model.fit(x, y, sample_weight=weight * len(rows) / weight.sum())
    base, *rest = (float(c) for c in model.coef_[0])
    out = {route: 0.0 for route in FUSED} | {route: 1.0 for route in BASE}
    for route, value in zip(aux, rest):
        out[route] = round(max(value / base, 0.0), 4) if base > 0 else 0.0
    return out


def below_plain(folds: dict[str, float], plain: dict[str, float]) -> list[str]:
    """The held-out sets whose figure in ``folds`` is below plain BM25 + dense's (the issue's floor)."""
    return [name for name in folds if folds[name] < plain[name] - 1e-9]


def should_ship(fitted: dict[str, float], shipped: dict[str, float], plain: dict[str, float], seen: set[str]) -> bool:
    """Whether the fit's held-out folds replace the shipped weights: below plain BM25 + dense on no more folds, and a
    held-out mean at least theirs over the sets the shipped weights never saw (``seen``: where they were chosen or
    fitted, so their figures there are no held-out figures). A shipped fit that saw every set is replaced on the floor
    alone (the same method fitted again)."""
    if len(below_plain(fitted, plain)) > len(below_plain(shipped, plain)):
        return False
    fair = [n for n in fitted if n not in seen]
    return not fair or statistics.fmean(fitted[n] for n in fair) >= statistics.fmean(shipped[n] for n in fair)


def shipped_seen(sets: dict[str, Path]) -> set[str]:
    """The sets the shipped weights were chosen or fitted on: a fitted file's inputs, else the hand-set weights' three."""
    if not ROUTE_WEIGHTS_FILE.exists():
        return set(HAND_SET_ON) & set(sets)
    inputs = json.loads(ROUTE_WEIGHTS_FILE.read_text(encoding="utf-8")).get("inputs", {})
    return {n for n, path in sets.items() if os.path.relpath(path, ROOT) in inputs}


def fit_bonus(figures: dict[float, dict[str, float]], held_out: str) -> float:
    """The identifier bonus for the fold holding ``held_out`` out: of ``figures`` (bonus -> set -> nDCG@10), the one
    with the best mean over the other sets, the smallest of those that tie (no larger a lift than the data supports)."""
    means = {bonus: round(statistics.fmean(v for n, v in sets.items() if n != held_out), 6) for bonus, sets in figures.items()}
    best = max(means.values())
    return min(bonus for bonus, mean in means.items() if mean == best)


def choose_routes(folds_by_subset: dict[str, dict[str, float]], plain: dict[str, float]) -> str:
    """The route subset whose held-out folds fall below plain BM25 + dense least often (the floor comes first), then
    the one with the best held-out mean, then the one with fewer routes."""
    def key(name: str):
        folds = folds_by_subset[name]
        return (len(below_plain(folds, plain)), -statistics.fmean(folds.values()), name.count("+"), name)
    return min(folds_by_subset, key=key)


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
    from itertools import combinations

    from shelfwise.api.shelves import close_shelves, open_shelves
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.settings import Settings

    parser = argparse.ArgumentParser(prog="python -m shelfwise.eval.fit_search", description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path, required=True, help="where every set's shelves are compiled")
    parser.add_argument("--sets", default=",".join(SEARCH_SETS), help=f"comma-separated sets (default: {','.join(SEARCH_SETS)})")
    parser.add_argument("--out", type=Path, default=ROUTE_WEIGHTS_FILE, help="route weights file to write (default: the shipped one)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    sets = {name: SEARCH_SETS[name] for name in args.sets.split(",")}
    if len(sets) < 2:
        parser.error("leave-one-set-out needs two sets or more")
    embedder = embedder_from_settings(Settings(build_dir=args.build_dir))
    opened, rows, gold_sets = {}, {}, {}
    try:
        for name, path in sets.items():
            names = sorted({q.shelf for q in load_questions(path)})
            opened[name] = open_shelves({n: args.build_dir / n for n in names}, embedder)
            gold_sets[name] = golds(path, opened[name])
            rows[name] = collect_search(name, gold_sets[name], opened[name])
            print(f"fit-search: {name}: {len(gold_sets[name])} questions, {len(rows[name])} rows", file=sys.stderr, flush=True)
        held_out = lambda weights_of: {n: ndcg(gold_sets[n], opened[n], weights_of(n))[0] for n in sets}  # noqa: E731
        plain = {n: ndcg(gold_sets[n], opened[n], {"bm25": 1.0, "dense": 1.0}, routes=BASE)[0] for n in sets}
        shipped = held_out(lambda n: None)
        everything = [r for rs in rows.values() for r in rs]
        candidates = [r for r, w in fit_routes(everything).items() if r not in BASE and w > 0]
        subsets: dict[str, dict] = {}
        for size in range(len(candidates) + 1):
            for chosen in combinations(candidates, size):
                name = "+".join(chosen) or "bm25+dense only"
                fitted = {n: fit_routes([r for other, rs in rows.items() if other != n for r in rs], chosen) for n in sets}
                folds = held_out(lambda n: fitted[n])  # noqa: B023
                subsets[name] = {"routes": list(chosen), "folds": folds, "weights": fitted, "mean": round(statistics.fmean(folds.values()), 4),
                                 "below_plain": below_plain(folds, plain)}
                print(f"fit-search: {name}: held-out mean {subsets[name]['mean']}, below bm25+dense on "
                      f"{', '.join(subsets[name]['below_plain']) or 'no set'}", file=sys.stderr, flush=True)
        best = choose_routes({name: sub["folds"] for name, sub in subsets.items()}, plain)
        weights = fit_routes(everything, tuple(subsets[best]["routes"]))
        # the identifier bonus, fitted leave-one-set-out too over the chosen routes (each fold's own weights)
        by_bonus = {b: held_out(lambda n: {**subsets[best]["weights"][n], "identifier_bonus": b}) for b in BONUS_GRID}  # noqa: B023
        bonus_of = {n: fit_bonus(by_bonus, n) for n in sets}
        fitted = {n: by_bonus[bonus_of[n]][n] for n in sets}  # held-out figures of the chosen routes with each fold's bonus
        weights["identifier_bonus"] = fit_bonus(by_bonus, "")
        print(f"fit-search: identifier bonus per fold {bonus_of}, on every set {weights['identifier_bonus']}; "
              f"held-out mean {statistics.fmean(fitted.values()):.4f}", file=sys.stderr, flush=True)
        folds = {n: {"shipped": shipped[n], "fitted_without": fitted[n], "bm25+dense": plain[n],
                     "weights": {**subsets[best]["weights"][n], "identifier_bonus": bonus_of[n]}, "questions": len(gold_sets[n])}
                 for n in sets}
        means = {"shipped": round(statistics.fmean(shipped.values()), 4), "fitted_without": round(statistics.fmean(fitted.values()), 4),
                 "bm25+dense": round(statistics.fmean(plain.values()), 4)}
        seen = shipped_seen(sets)
        fair = [n for n in sets if n not in seen]
        if fair:
            means["shipped_on_unseen"] = round(statistics.fmean(shipped[n] for n in fair), 4)
            means["fitted_without_on_unseen"] = round(statistics.fmean(fitted[n] for n in fair), 4)
        ship = should_ship(fitted, shipped, plain, seen)
        result = {"kind": "fit-search", "sets": list(sets), "folds": folds, "means": means, "routes": subsets[best]["routes"],
                  "method": "logistic regression (bm25 and dense tied at 1), routes chosen by held-out folds below bm25+dense, then mean",
                  "subsets": {name: {k: v for k, v in sub.items() if k != "weights"} for name, sub in subsets.items()},
                  "identifier_bonus": {str(b): figures for b, figures in by_bonus.items()},
                  "weights": weights, "shipped_before": dict(ROUTE_WEIGHTS), "shipped_seen": sorted(seen), "written": ship,
                  "inputs": {os.path.relpath(p, ROOT): _sha(p) for p in sets.values()},
                  "seconds": round(time.perf_counter() - started, 1)}
        (ROOT / "eval" / "results" / "fit-search.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        if ship:
            args.out.write_text(json.dumps({"weights": weights, "source": "python -m shelfwise.eval.fit_search (logistic regression over the "
                                            "routes' reciprocal ranks, bm25 and dense tied; routes chosen by leave-one-set-out)",
                                            "inputs": result["inputs"], "cross_validation": {"folds": folds, "means": means}}, indent=1) + "\n",
                                encoding="utf-8")
        print(json.dumps({k: v for k, v in result.items() if k not in ("folds", "subsets")}, indent=1))
        for name, fold in folds.items():
            print(f"held out {name}: shipped {fold['shipped']:.3f}, fitted on the others {fold['fitted_without']:.3f}, "
                  f"bm25+dense {fold['bm25+dense']:.3f}")
    finally:
        for shelves in opened.values():
            close_shelves(shelves)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
