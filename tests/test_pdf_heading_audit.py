"""The hand audit of PDF heading lines no outline names (shelfwise.eval.pdf_heading_audit): drawing a sample,
scoring the corrected precision, and the committed judgements against the committed fit."""

import json

from shelfwise.eval.pdf_heading_audit import AUDIT_FILE, FIT_RESULTS, _load, draw, score, wilson


def _results() -> dict:
    def fold(name, source, true, heads, unlisted):
        return {"document": name, "source": source,
                "checked": {"strict_true": true, "strict_headings": heads, "matched": true, "entries": true + 1},
                "unlisted": [{"page": page, "text": text, "above": "", "below": ""} for page, text in unlisted]}

    return {"folds": [fold("a.pdf", "public", 8, 12, [(1, "Title page"), (3, "Subheading"), (4, "Another subheading"), (5, "Q1 2023")]),
                      fold("gen", "generated", 5, 9, [(1, "never drawn")])]}


def test_wilson_interval_brackets_the_share_and_narrows_with_more_judgements():
    low, high = wilson(30, 40)
    assert low < 0.75 < high
    wide = wilson(3, 4)
    assert wide[0] < low and wide[1] > high
    assert wilson(0, 0) == (0.0, 1.0)


def test_draw_samples_only_unjudged_public_lines_and_is_seeded():
    results = _results()
    judged = [{"document": "a.pdf", "page": 1, "text": "Title  page", "heading": False}]
    first = draw(results, judged, 2, seed=3)
    assert first[:1] == judged and len(first) == 3
    drawn = {line["text"] for line in first[1:]}
    assert "Title page" not in drawn and "never drawn" not in drawn  # judged already (spaces aside); generated fold left out
    assert all(line["heading"] is None for line in first[1:])
    assert draw(results, judged, 2, seed=3) == first


def test_score_corrects_strict_precision_by_the_judged_share():
    judged = [{"document": "a.pdf", "page": 1, "text": "Title page", "heading": False},
              {"document": "a.pdf", "page": 3, "text": "Subheading", "heading": True},
              {"document": "a.pdf", "page": 4, "text": "Another subheading", "heading": True},
              {"document": "a.pdf", "page": 9, "text": "a line the fit no longer finds", "heading": False},
              {"document": "a.pdf", "page": 5, "text": "Q1 2023", "heading": None}]
    report = score(_results(), judged)
    assert report["strict_precision"] == round(8 / 12, 3)
    assert report["unlisted"] == 4 and report["judged"] == 3 and report["judged_headings"] == 2
    assert report["audited_precision"] == round((8 + 4 * 2 / 3) / 12, 3)
    low, high = report["audited_precision_interval"]
    assert low < report["audited_precision"] < high


def test_committed_judgements_cover_the_committed_fit():
    results = json.loads(FIT_RESULTS.read_text(encoding="utf-8"))
    judged = _load(AUDIT_FILE)
    assert judged and all(isinstance(line["heading"], bool) for line in judged)
    report = score(results, judged)
    assert report["judged"] >= 100  # the committed fit's unlisted lines still hold most of the judged sample
    assert report["strict_precision"] <= report["audited_precision"] <= 1.0

