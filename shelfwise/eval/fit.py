"""Fit the extractive writer's ranking model on every labelled question set, judged by leave-one-set-out runs.

``make fit`` (``python -m shelfwise.eval.fit --build-dir DIR``) does four things, with the compiled shelves of
every set under ``DIR``:

1. **Collect.** Every question of each set goes through the model-free answering pipeline; for each obligation,
   every unit the ranking scores is recorded with its features (``shelfwise.api.answer.write.rank_model.FEATURES``) and a
   label: 1 when the unit states a must item of the question (its gold quote, part of a quote of several sentences,
   or 80% of the item's content words: the quote-recall rule), or, for a set with reference answers, when it stands
   in a source document and holds a reference figure. Per obligation all positives are kept, with the best
   ``NEGATIVES`` negatives by the current score and as many drawn at random (seeded). What each question's writer
   was given (its plan and reading) is kept too (``shelfwise.eval.fit_show.Case``).
2. **Fit.** The weights are judged by what the answer would show: every training question is written again by the
   extractive writer under the weights tried and scored as its answer is (``shelfwise.eval.fit_show``); one sweep of
   moves of the hand-set weights keeps those that raise the mean over the training sets (each set weighing the same)
   less an L2 pull toward the hand-set weights (``SHOW_STRENGTH``). Reported beside it per held-out set: the same
   figure and the mean reciprocal rank of each obligation's best positive (``ranking_proxy``) for the hand-set
   weights and the pairwise logistic fit (``fit_weights``, pull ``PAIRWISE_STRENGTH``). Neither a pointwise
   logistic regression nor the pairwise fit, judged by that reciprocal rank, beat the hand-set weights in held-out
   answers (eval/results/fit.json).
3. **Cross-validate.** For each set: fit on the others, answer the held-out set with those weights, and score it
   (quote recall; the reference figures shown for a set with reference answers), beside the same set answered
   with the hand-set weights. The fold-by-fold figures go to ``eval/results/fit.json``.
4. **Ship.** The fit on all sets is written to ``shelfwise/api/answer/write/rank_weights.json`` with the hashes of its
   inputs and the cross-validation figures — unless ``--keep-if-worse`` finds the mean over held-out folds did not
   rise, in which case the hand-set weights ship and the file says so. The rules whose removal changes no set's
   figure (``fit_show.unused``) are reported with every set's real answers without them, not dropped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import pickle
import random
import statistics
import sys
import time
from pathlib import Path

from shelfwise.api.answer.write.pool import build_pool
from shelfwise.api.answer.write.rank import score_units
from shelfwise.api.answer.write.rank_model import FEATURES, HAND_SET, WEIGHTS_FILE, RankModel
from shelfwise.api.answer.write.write import ExtractiveWriter, section_units
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.eval.fit_show import FREE, MIN_GAIN, Case, Replay, ascend, unused
from shelfwise.eval.questions import Question, load_questions

__all__ = ["SETS", "SHOW_STRENGTH", "PAIRWISE_STRENGTH", "collect", "fit_weights", "ranking_proxy", "label_unit", "held_out_figure", "captured_sets", "sampled", "code_key", "main", "NEGATIVES",
           "STRENGTHS", "SAMPLE"]

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "questions"
SETS = {
    "dev": SHARED / "dev.yaml",
    "dev-formats": SHARED / "dev-formats.yaml",
    "northwind": ROOT / "shelves" / "northwind" / "questions.yaml",
    "dev-filings": SHARED / "dev-filings.yaml",
    "unseen-formats": ROOT / "eval" / "questions" / "unseen-formats.yaml",
}
"""Every labelled question set: gold quotes (dev, dev-formats, northwind, unseen-formats) or reference answers (dev-filings)."""
NEGATIVES = 100
"""Negatives kept per obligation by the current score, and as many drawn at random."""
STRENGTHS = (0.001, 0.01, 0.1, 1.0)
"""Pulls toward the hand-set weights of the pairwise fit (``fit_weights``)."""
PAIRWISE_STRENGTH = 1.0
"""The pairwise fit's pull reported beside the show fit (the best of ``STRENGTHS`` by the mean reciprocal rank)."""
SHOW_STRENGTH = 0.02
"""The show fit's L2 pull toward the hand-set weights: a move of ``STEP`` costs 0.005, one must item of one question
in one of three sets (choosing it by leave-one-set-out within the training sets costs hours of answers written again)."""
SEED = 7
SAMPLE = 30
"""Questions answered per set at most (evenly spaced): the filings set is sampled, the others are smaller."""


def label_unit(question: Question, text: str, doc_path: str, figures=None) -> int:
    """1 when the unit's ``text`` states a must item (quote-recall rule, or a stretch of a longer gold quote), or holds a
    reference figure in a source document; else 0."""
    from fnmatch import fnmatch

    from shelfwise.eval.judge import _plain, states_item
    from shelfwise.eval.reference import number_keys

    if question.reference_answer:
        if not figures or not fnmatch(Path(doc_path).name, question.source_documents or "*"):
            return 0
        held = number_keys(text)
        return int(any(keys & held for _, keys in figures))
    plain = _plain(text)
    for item in question.must:
        if states_item(item, text)[0]:
            return 1
        if len(plain) >= 40 and any(e.quote and plain in _plain(e.quote) for e in item.evidence):
            return 1
    return 0


class _Recorder(ExtractiveWriter):
    """The model-free writer, recording each scored unit's features and label before it writes."""

    def __init__(self, base: ExtractiveWriter, rows: list, rng: random.Random, cases: list | None = None):
        super().__init__(base.max_units, base.budget_chars, base.answer_chars, base.model)
        self.rows, self.rng, self.cases = rows, rng, cases
        self.question: Question | None = None
        self.set_name = ""
        self.figures = None

    def write(self, plan, reading, shelves):
        if self.cases is not None:  # what the writer was given, to be written again under other weights (fit_show)
            self.cases.append(Case(self.set_name, self.question, self.figures, plan, reading, shelves))
        pool = build_pool(reading, shelves, section_units)
        explain: list = []
        score_units(plan, pool, self.model, explain)
        by_obligation: dict[int, list] = {}
        for o_index, u_index, features in explain:
            if features["relevance"] == -math.inf:
                continue
            unit = pool.units[u_index]
            path = shelves[unit.shelf].documents[unit.doc_id].get("path", "")
            label = label_unit(self.question, unit.text, path, self.figures)
            by_obligation.setdefault(o_index, []).append((self.model.score(features), label, features))
        for o_index, entries in by_obligation.items():
            positives = [e for e in entries if e[1]]
            negatives = sorted((e for e in entries if not e[1]), key=lambda e: -e[0])
            kept = negatives[:NEGATIVES]
            rest = negatives[NEGATIVES:]
            kept += self.rng.sample(rest, min(NEGATIVES, len(rest)))
            for score, label, features in positives + kept:
                self.rows.append({"set": self.set_name, "question": self.question.id, "obligation": o_index, "label": label,
                                  "features": {k: round(v, 6) for k, v in features.items()}})
        return super().write(plan, reading, shelves)


def collect(set_name: str, questions_path: Path, settings, shelves, progress, cases: list | None = None) -> list[dict]:
    """Feature rows of every question of one set (see the module docstring); ``cases``, when given, gets each
    question's plan and reading as the writer was given them (``shelfwise.eval.fit_show.Case``)."""
    from shelfwise.api.answer import build_pipeline
    from shelfwise.api.schemas import AskRequest
    from shelfwise.api.answer import answer_question
    from shelfwise.eval.reference import reference_facts

    rows: list[dict] = []
    pipeline = build_pipeline(settings, {})
    recorder = _Recorder(pipeline.writer, rows, random.Random(SEED), cases)
    pipeline.writer = recorder
    recorder.set_name = set_name
    for question in load_questions(questions_path):
        if question.expect == "not_in_documents":
            continue
        recorder.question = question
        recorder.figures = reference_facts(question.reference_answer, question.question).figures if question.reference_answer else None
        if question.reference_answer and not recorder.figures:
            continue  # a text question of a reference set: no figure to label by
        try:
            answer_question(pipeline, AskRequest(question=question.question, shelves=[question.shelf]), shelves, token="fit", traces=None)
        except ShelfwiseError as exc:  # a question that cannot be answered is left out of the fit, and said
            progress(f"fit: {question.id} left out: {exc}")
            continue
        progress(f"fit: collected {question.id} ({sum(1 for r in rows if r['question'] == question.id)} rows)")
    return rows


def _pairs(rows: list[dict]):
    """Per obligation with a positive and a negative: (positive - negative) feature differences and each pair's weight
    (every set weighs the same, every question the same within its set, every obligation the same within its question)."""
    import numpy as np

    names = list(FEATURES)
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault((row["set"], row["question"], row["obligation"]), []).append(row)
    usable = {key: members for key, members in groups.items()
              if any(r["label"] for r in members) and not all(r["label"] for r in members)}
    questions: dict[str, set] = {}
    obligations: dict[tuple, int] = {}
    for set_name, question, _ in usable:
        questions.setdefault(set_name, set()).add(question)
        obligations[(set_name, question)] = obligations.get((set_name, question), 0) + 1
    diffs, weights = [], []
    for (set_name, question, _), members in usable.items():
        vectors = np.array([[r["features"].get(n, 0.0) for n in names] for r in members])
        labels = np.array([r["label"] for r in members], dtype=bool)
        pos, neg = vectors[labels], vectors[~labels]
        d = (pos[:, None, :] - neg[None, :, :]).reshape(-1, len(names))
        diffs.append(d)
        share = 1.0 / len(questions) / len(questions[set_name]) / obligations[(set_name, question)]
        weights.append(np.full(len(d), share / len(d)))
    if not diffs:
        return np.zeros((0, len(names))), np.zeros(0)
    return np.vstack(diffs), np.concatenate(weights)


def fit_weights(rows: list[dict], strength: float, prior: dict[str, float] | None = None) -> dict[str, float]:
    """Pairwise logistic weights (a positive unit above a negative one of the same obligation) with an L2 pull of
    ``strength`` toward ``prior`` (the hand-set weights): with little evidence a weight stays where it was."""
    import numpy as np
    from scipy.optimize import minimize

    names = list(FEATURES)
    base = np.array([(prior if prior is not None else HAND_SET).get(n, 0.0) for n in names])
    d, w = _pairs(rows)
    if not len(d):
        return {n: round(float(v), 6) for n, v in zip(names, base)}

    def loss(theta):
        margin = d @ theta
        value = float(np.sum(w * np.logaddexp(0.0, -margin))) + strength * float(np.sum((theta - base) ** 2))
        grad = -(d.T @ (w * (1.0 - 1.0 / (1.0 + np.exp(-margin))))) + 2 * strength * (theta - base)
        return value, grad

    result = minimize(loss, base.copy(), jac=True, method="L-BFGS-B")
    return {n: round(float(v), 6) for n, v in zip(names, result.x)}


def ranking_proxy(rows: list[dict], weights: dict[str, float]) -> float:
    """Mean over obligations of the reciprocal rank of their best positive among their recorded units (the fit's
    cheap held-out check, before any answer is run)."""
    groups: dict[tuple, list[tuple[float, int]]] = {}
    for row in rows:
        score = sum(weights.get(k, 0.0) * v for k, v in row["features"].items())
        groups.setdefault((row["set"], row["question"], row["obligation"]), []).append((score, row["label"]))
    ranks = []
    for members in groups.values():
        if not any(label for _, label in members):
            continue
        ordered = sorted(members, key=lambda m: -m[0])
        ranks.append(1.0 / next(i for i, (_, label) in enumerate(ordered, start=1) if label))
    return round(statistics.fmean(ranks), 4) if ranks else 0.0


def sampled(path: Path, limit: int, work: Path, offset: int = 0) -> Path:
    """``path`` itself, or, for a set of more than ``limit`` questions, a file in ``work`` holding ``limit`` of them evenly
    spaced (every answer of a 10-Q filings set reads four 100-page filings: all 119 take hours on two cores).
    ``offset`` shifts every pick by that many questions: offset 2 of 30 of the 119 filings questions is a second sample
    disjoint from the first (a validation sample nobody tuned on)."""
    import yaml

    questions = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    if not limit or len(questions) <= limit:
        return Path(path)
    step = len(questions) / limit
    name = f"{Path(path).stem}-sample{limit}" if not offset else f"{Path(path).stem}-sample{limit}-offset{offset}"
    target = work / f"{name}.yaml"
    picked = [questions[(int(i * step) + offset) % len(questions)] for i in range(limit)]
    target.write_text(f"# {limit} of the {len(questions)} questions of {path}, evenly spaced, offset {offset} (shelfwise.eval.fit --sample)\n"
                      + yaml.safe_dump(picked, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return target


def _sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def code_key(package: Path = ROOT / "shelfwise") -> str:
    """A digest of the answering code: every ``.py`` and ``.json`` file of the package but its ``eval`` folder and the
    shipped ranking weights (the fit gives every run its weights file). The work folder's cached cases and held-out runs
    are kept under it: a run after a change of the pipeline answers again instead of reading the answers of the code
    before it (held-out figures had been read from the previous code's runs)."""
    digest = hashlib.sha256()
    for path in sorted([*package.rglob("*.py"), *package.rglob("*.json")]):
        relative = path.relative_to(package)
        if relative.parts[0] == "eval" or path.name == WEIGHTS_FILE.name:
            continue
        digest.update(relative.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def captured_sets(sets: dict[str, Path], build_dir: Path, work: Path, settings, embedder, progress, shelves_by_set: dict
                  ) -> tuple[dict[str, list[dict]], dict[str, list[Case]]]:
    """Per set: its feature rows and its captured cases (``collect``), read from ``work`` when a run before cached them
    for the same questions (``work`` is the code's own folder, ``code_key``), else answered and cached there. Each set's
    shelves are opened under ``build_dir`` into ``shelves_by_set`` (the caller closes them) and its cases attached to them."""
    from shelfwise.api.shelves import open_shelves

    rows_by_set: dict[str, list[dict]] = {}
    cases_by_set: dict[str, list[Case]] = {}
    for name, path in sets.items():
        shelf_names = sorted({q.shelf for q in load_questions(path)})
        shelves_by_set[name] = open_shelves({n: build_dir / n for n in shelf_names}, embedder, settings=settings)
        cache = work / f"features-{name}-{_sha(path)}.jsonl"
        captured = work / f"cases-{name}-{_sha(path)}.pickle"
        if cache.exists() and captured.exists():
            rows_by_set[name] = [json.loads(line) for line in cache.read_text(encoding="utf-8").splitlines()]
            cases_by_set[name] = [c.attach(shelves_by_set[name]) for c in pickle.loads(captured.read_bytes())]
        else:
            cases_by_set[name] = []
            rows_by_set[name] = collect(name, path, settings, shelves_by_set[name], progress, cases_by_set[name])
            cache.write_text("".join(json.dumps(r) + "\n" for r in rows_by_set[name]), encoding="utf-8")
            captured.write_bytes(pickle.dumps(cases_by_set[name]))
        positives = sum(r["label"] for r in rows_by_set[name])
        progress(f"fit: {name}: {len(rows_by_set[name])} rows, {positives} positive")
    return rows_by_set, cases_by_set


def held_out_figure(set_name: str, questions_path: Path, weights_path: Path, settings, shelves, runs_dir: Path) -> tuple[float, dict]:
    """Answer one set with the weights in ``weights_path``; (its figure, per question): quote recall, or the share of
    reference figures in the answer for a set with reference answers."""
    from shelfwise.eval.judge import quote_recall
    from shelfwise.eval.reference import score_reference
    from shelfwise.eval.run import read_run, run_answers, run_files

    tuned = settings.model_copy(update={"answer": settings.answer.model_copy(update={"rank_weights": weights_path})})
    label = f"{set_name}-{weights_path.stem}"
    run_dir = runs_dir / label
    if not run_files(run_dir):
        run_answers(questions_path, label=label, settings=tuned, runs_dir=runs_dir, embedder=_embedder_of(shelves))
    records = read_run(run_files(run_dir)[0])
    questions = {q.id: q for q in load_questions(questions_path)}
    per: dict[str, float] = {}
    for record in records:
        question = questions[record["id"]]
        if record.get("error"):
            per[question.id] = 0.0
        elif question.reference_answer:
            value = score_reference(question, record, shelves[question.shelf])["figures_answer"]
            if value is not None:
                per[question.id] = value
        else:
            grade = quote_recall(question, record["answer"]["markdown"], record["answer"].get("sentences"))
            if grade.score is not None:
                per[question.id] = grade.score
    return (round(statistics.fmean(per.values()), 3) if per else 0.0), per


def _proxy_table(rows_by_set: dict[str, list[dict]], replay: Replay, progress) -> dict[str, dict]:
    """Per held-out set: what the writer shows (``Replay``) and the mean reciprocal rank of the best positive
    (``ranking_proxy``) for the hand-set weights, the pairwise fit and the show fit on the other sets, and the show fit's weights."""
    table = {}
    for name, held in rows_by_set.items():
        train_sets = [other for other in rows_by_set if other != name]
        train = [r for other in train_sets for r in rows_by_set[other]]
        fitted = ascend(replay, train_sets, SHOW_STRENGTH, progress=progress)
        tried = {"hand_set": dict(HAND_SET), "pairwise": fit_weights(train, PAIRWISE_STRENGTH), "fitted": fitted}
        table[name] = {"weights": fitted, **{f"shown_{k}": replay.figure(name, w) for k, w in tried.items()},
                       **{f"mrr_{k}": ranking_proxy(held, w) for k, w in tried.items()}}
        progress(f"fit: held-out proxy {name}: {({k: v for k, v in table[name].items() if k != 'weights'})}")
    return table


def _unused_rules(replay: Replay, sets: dict[str, Path], weights: dict[str, float], folds: dict, settings, shelves_by_set: dict,
                  work: Path, progress) -> tuple[list[str], dict[str, float]]:
    """The rules of ``weights`` whose removal changes no set's figure in the answers written again (``unused``), and
    every set's real answers without them (with leave-one-set-out runs). Reported, not dropped: a rule the labelled
    sets never exercise (a superseded revision, a run of bare figures) is kept for what its tests show it does;
    removing one is a change of the ranking's code, with its tests. Returns (the rules, the figures)."""
    idle = unused(replay, list(sets), weights)
    if not idle or not folds:
        return idle, {}
    lean = work / "without-unused.json"
    lean.write_text(RankModel(weights={n: v for n, v in weights.items() if n not in idle}).model_dump_json(indent=1), encoding="utf-8")
    figures = {name: held_out_figure(name, path, lean, settings, shelves_by_set[name], work / "runs")[0] for name, path in sets.items()}
    progress(f"fit: without {', '.join(idle)}: {figures}")
    return idle, figures


def _embedder_of(shelves) -> object:
    return next(iter(shelves.values())).searcher.embedder


def main(argv: list[str] | None = None) -> int:
    from shelfwise.api.answer import build_pipeline
    from shelfwise.api.shelves import close_shelves
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.settings import Settings

    parser = argparse.ArgumentParser(prog="python -m shelfwise.eval.fit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path, required=True, help="where every set's shelves are compiled")
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated sets (default: {','.join(SETS)})")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "fit", help="where features, fold weights and runs go")
    parser.add_argument("--no-cv", action="store_true", help="fit on every set and ship, without the leave-one-set-out runs")
    parser.add_argument("--keep-if-worse", action="store_true", help="ship the hand-set weights when the held-out mean did not rise")
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE, help="weights file to write (default: the shipped one)")
    parser.add_argument("--sample", type=int, default=SAMPLE, help=f"answer at most this many questions of a set, evenly spaced (default {SAMPLE}; 0: all)")
    parser.add_argument("--sample-offset", type=int, default=0, help="shift every sampled question by this many (2: the filings validation sample)")
    args = parser.parse_args(argv)

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    args.work = args.work / code_key()  # the cached cases and runs of this code only
    args.work.mkdir(parents=True, exist_ok=True)
    sets = {name: sampled(SETS[name], args.sample, args.work, args.sample_offset) for name in args.sets.split(",")}
    # the fit answers on a loaded machine: the endpoint's time limit is no limit of the method
    settings = Settings.model_validate({"build_dir": str(args.build_dir), "api": {"answer_timeout_s": 3600}})
    hand = args.work / "hand-set.json"
    hand.write_text(RankModel(weights=dict(HAND_SET)).model_dump_json(indent=1), encoding="utf-8")
    settings = settings.model_copy(update={"answer": settings.answer.model_copy(update={"rank_weights": hand})})
    embedder = embedder_from_settings(settings)
    started = time.perf_counter()
    shelves_by_set: dict = {}
    try:
        rows_by_set, cases_by_set = captured_sets(sets, args.build_dir, args.work, settings, embedder, progress, shelves_by_set)
        replay = Replay([c for cases in cases_by_set.values() for c in cases], build_pipeline(settings, {}))
        folds: dict[str, dict] = {}
        proxy = _proxy_table(rows_by_set, replay, progress)
        if not args.no_cv and len(sets) > 1:
            for name, path in sets.items():
                weights = proxy[name]["weights"]
                fold_file = args.work / f"without-{name}.json"
                fold_file.write_text(RankModel(weights=weights, source=f"fit without {name}").model_dump_json(indent=1), encoding="utf-8")
                before, before_per = held_out_figure(name, path, hand, settings, shelves_by_set[name], args.work / "runs")
                if weights == {n: HAND_SET.get(n, 0.0) for n in FEATURES}:  # nothing moved: the same answers
                    after, after_per = before, before_per
                else:
                    after, after_per = held_out_figure(name, path, fold_file, settings, shelves_by_set[name], args.work / "runs")
                moved = {q: [before_per.get(q), after_per.get(q)] for q in sorted(set(before_per) | set(after_per))
                         if before_per.get(q) != after_per.get(q)}
                folds[name] = {"hand_set": before, "fitted_without": after, "questions": len(after_per), "moved": moved}
                progress(f"fit: held out {name}: hand-set {before} -> fitted on the others {after}")
        weights = ascend(replay, list(sets), SHOW_STRENGTH, progress=progress)
        mean_before = statistics.fmean(f["hand_set"] for f in folds.values()) if folds else None
        mean_after = statistics.fmean(f["fitted_without"] for f in folds.values()) if folds else None
        ship = not (args.keep_if_worse and folds and mean_after <= mean_before)
        inputs = {os.path.relpath(SETS[name], ROOT) + (f" ({args.sample} questions, fit --sample {args.sample} --sample-offset {args.sample_offset})"
                                                     if path != SETS[name] else ""): _sha(path) for name, path in sets.items()}
        shipped = weights if ship else dict(HAND_SET)
        idle, idle_figures = _unused_rules(replay, sets, shipped, folds, settings, shelves_by_set, args.work, progress)
        source = (f"python -m shelfwise.eval.fit (one sweep of moves of the hand-set weights judged by the answers written again, "
                  f"pull {SHOW_STRENGTH}, sets {', '.join(sets)})") if ship else "hand-set (the fit's held-out mean did not rise)"
        model = RankModel(
            weights=shipped, source=source, inputs=inputs,
            cross_validation={"folds": folds, "mean_hand_set": mean_before, "mean_fitted": mean_after, "strength": SHOW_STRENGTH,
                              "unused": idle, "answers_without_unused": idle_figures,
                              "proxy": {name: {k: v for k, v in fold.items() if k != "weights"} for name, fold in proxy.items()}},
        )
        args.out.write_text(model.model_dump_json(indent=1) + "\n", encoding="utf-8")
        result = {"kind": "fit", "sets": list(sets), "rows": {n: len(r) for n, r in rows_by_set.items()},
                  "positives": {n: sum(x["label"] for x in r) for n, r in rows_by_set.items()}, "weights": weights,
                  "shipped": ship, "unused": idle, "answers_without_unused": idle_figures, "strength": SHOW_STRENGTH, "free": list(FREE), "min_gain": MIN_GAIN, "proxy": proxy,
                  "folds": folds, "mean_hand_set": mean_before, "mean_fitted": mean_after,
                  "seconds": round(time.perf_counter() - started, 1)}
        (ROOT / "eval" / "results" / "fit.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        print(json.dumps({k: v for k, v in result.items() if k != "folds"}, indent=1))
        for name, fold in folds.items():
            print(f"held out {name}: hand-set {fold['hand_set']:.3f} -> fitted on the others {fold['fitted_without']:.3f} "
                  f"({len(fold['moved'])} questions moved)")
    finally:
        for shelves in shelves_by_set.values():
            close_shelves(shelves)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
