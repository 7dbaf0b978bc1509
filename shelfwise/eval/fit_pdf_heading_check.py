"""Fit the check that keeps or drops each heading line the PDF reader's rules and cue bounds pick.

The rules (larger type, bold, a section number, capitals) and the fitted cue bounds pick more lines than a document's
outline names: a title page's names and dates, a contents page's entries, a table's bold cells, bold lines of
pseudo-code, an index's letters. ``fit_check`` fits a logistic model (scikit-learn, standardised cues, each document's
lines weighted alike) over the cues of every picked line of the training documents, labelled by their outlines (a line
that starts or continues an entry is a heading, every other picked line is not). ``choose_threshold`` sets the
probability a line needs to stay a heading by leave-one-document-out inside the training documents: the threshold with
the highest pooled recall whose pooled precision over every page (title and contents pages included) reaches
``target`` at a pooled recall of at least ``RECALL_FLOOR``; none reaching both, the best pooled F1 (a higher
threshold then buys its precision with real headings: make.pdf's own sections among them).
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Sequence

import numpy as np

from shelfwise.compiler.ingest.convert.pdf_heading_cues import FEATURES, HeadingCheck, HeadingModel
from shelfwise.compiler.ingest.convert.pdf_headings import block_starts

__all__ = ["picked", "joined", "checked", "fit_check", "choose_threshold", "check_model", "CHECK_CUES", "THRESHOLDS", "REGULARISATION", "RECALL_FLOOR", "WEIGHT_POWER"]

CHECK_CUES = (
    "sentence_end", "colon_end", "words", "letters", "letter_share", "starts_lower", "front_matter", "first_page",
    "text_later", "echoed_below", "style_repeats", "contents_page", "same_row", "wraps_on", "width_used",
    "prev_ended", "next_capital", "column_top", "gap_above", "gap_below", "above_text_block",
    "same_place", "ends_page_number", "number_breaks",
)
"""The cues the check weighs: what tells a picked line that is no heading (a contents line, a title page's imprint, a
table cell, a wrapped bold paragraph, a recurring label, a running title whose text changes, a page number after a
title, a list item numbered out of its section's sequence) from one that is. The rule that picked the line and its
style are left out: which styles a document's outline lists is the document's own convention."""
WEIGHT_POWER = 0.5
"""A document's lines weigh 1/sqrt(lines picked) each: a long manual counts more than a short paper, not 30 times more."""
RECALL_FLOOR = 0.8
"""The pooled recall a threshold must keep to count as reaching the precision target."""

THRESHOLDS = tuple(round(0.02 * step, 2) for step in range(1, 50))
"""The probabilities tried as the threshold."""
REGULARISATION = 1.0
"""scikit-learn's C (inverse L2 strength) on standardised cues: its default, not tuned."""


def picked(document, model: HeadingModel | None) -> set[int]:
    """Of a ``fit_pdf_headings.Document``: the lines the rules pick, and with ``model`` those its bounds pick among the rest (before its check)."""
    heads = set(document.rules)
    if model is not None:
        heads |= {i for i, features in document.candidates.items() if model.is_heading(features)}
    return heads


def joined(document, heads: set[int]) -> set[int]:
    """``heads`` less the lines that continue the heading above them (the reader joins those)."""
    start = block_starts(document.lines, heads)
    return {index for index in heads if start[index] == index}


def checked(document, heads: set[int], keeps) -> set[int]:
    """The lines of ``heads`` whose heading's first line ``keeps`` (index -> bool) keeps, as the reader's check does."""
    start = block_starts(document.lines, heads)
    return {index for index in heads if keeps(start[index])}


def _rows(documents: Sequence, model: HeadingModel, indexes: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    features, labels, weights = [], [], []
    for d in indexes:
        document = documents[d]
        lines = sorted(joined(document, picked(document, model)))  # the first line of each heading: the check judges those
        labelled = document.starts | document.continued
        for index in lines:
            features.append(document.features[index])
            labels.append(index in labelled)
            weights.append(len(lines) ** -WEIGHT_POWER)
    return np.array(features, dtype=float), np.array(labels, dtype=bool), np.array(weights, dtype=float)


def fit_check(documents: Sequence, model: HeadingModel, indexes: Sequence[int], threshold: float) -> dict:
    """The logistic check fitted on the picked lines of ``documents[indexes]``: mean, scale, coef (in the order of
    ``FEATURES``), intercept and ``threshold``."""
    from sklearn.linear_model import LogisticRegression  # the fit's own need, as in fit_search: the reader never imports it

    features, labels, weights = _rows(documents, model, indexes)
    used = [FEATURES.index(name) for name in CHECK_CUES]
    mean = np.zeros(len(FEATURES))
    scale = np.ones(len(FEATURES))
    coef = np.zeros(len(FEATURES))
    mean[used] = features[:, used].mean(axis=0)
    scale[used] = features[:, used].std(axis=0)
    scale[scale == 0] = 1.0
    fitted = LogisticRegression(C=REGULARISATION, max_iter=5000).fit((features[:, used] - mean[used]) / scale[used], labels,
                                                                     sample_weight=weights * len(weights) / weights.sum())
    coef[used] = fitted.coef_[0]
    return {"cues": list(CHECK_CUES), "mean": [round(float(v), 6) for v in mean], "scale": [round(float(v), 6) for v in scale],
            "coef": [round(float(v), 6) for v in coef], "intercept": round(float(fitted.intercept_[0]), 6), "threshold": threshold}


def check_model(model: HeadingModel, check: dict) -> HeadingModel:
    """``model`` with this fitted check."""
    return dataclasses.replace(model, check=HeadingCheck(tuple(check["mean"]), tuple(check["scale"]), tuple(check["coef"]),
                                                         float(check["intercept"]), float(check["threshold"])))


def choose_threshold(documents: Sequence, model: HeadingModel, indexes: Sequence[int], target: float) -> float:
    """The threshold with the best pooled recall at pooled strict precision >= ``target`` and recall >= ``RECALL_FLOOR``
    when each of ``documents[indexes]`` is checked by the model fitted on the others (else the best pooled F1)."""
    scored = []
    for held in indexes:
        check = check_model(model, fit_check(documents, model, [d for d in indexes if d != held], 0.5)).check
        document = documents[held]
        lines = picked(document, model)
        scored.append((document, lines, {i: check.probability(document.features[i]) for i in joined(document, lines)}))
    best, best_key = THRESHOLDS[0], None
    for threshold in THRESHOLDS:
        matched = entries = true = heads = 0
        for document, lines, probability in scored:
            kept = joined(document, checked(document, lines, lambda i: probability[i] >= threshold))
            matched += len(kept & document.starts)
            entries += document.entries
            true += len(kept & (document.starts | document.continued))
            heads += len(kept)
        recall = matched / entries if entries else 0.0
        precision = true / heads if heads else 0.0
        f1 = statistics.harmonic_mean([recall, precision]) if recall and precision else 0.0
        feasible = recall >= RECALL_FLOOR and precision >= target
        key = (feasible, recall if feasible else f1, -threshold)
        if best_key is None or key > best_key:
            best, best_key = threshold, key
    return best
