"""Compare benchmark: changes found against the generated truth, false changes stated, seconds per pair, batch naming.

    .venv/bin/python -m shelfwise.eval.bench.compare [--work build/compare-bench]

Writes the synthetic shelf (shelfwise/eval/compare_shelf) under --work, compiles it with
the real build, runs the batch and every pair through shelfwise/compiler/compare, scores
each change set against truth.json and writes eval/results/compare.json.

Scoring. A truth change is found when a reported change of its kind names the
same field (or line item, or the words before a value, or the sentence) with
the same old and new values; when the truth has a difference, the reported
one must equal it in sign and size, or the change counts as a wrong value or
direction. A reported field, item or value change that matches no truth change
is an unchanged value reported (when the truth lists it as unchanged), a wrong
value (when the truth has the field with other values), or else listed for a
hand check.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import time
from decimal import Decimal, InvalidOperation
from pathlib import Path

from shelfwise.compiler.build import build_shelf, default_stages
from shelfwise.compiler.compare import compare_batch, compare_pair, links_from_store, views_from_store
from shelfwise.compiler.compare.fields import label_key
from shelfwise.compiler.compare.values import parse_value, same_value
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.store.store import Store
from shelfwise.eval.compare_shelf.generate import write_shelf

ROOT = Path(__file__).resolve().parents[3]
RESULTS = ROOT / "eval" / "results" / "compare.json"


def _signed(text: str | None) -> Decimal | None:
    if not text:
        return None
    match = re.search(r"([+−±-]?)\D*?([\d,]+(?:\.\d+)?)", text)
    if not match:
        return None
    try:
        number = Decimal(match.group(2).replace(",", ""))
    except InvalidOperation:
        return None
    return -number if match.group(1) in ("−", "-") else number


def _same(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and same_value(parse_value(a), parse_value(b))


def _truth_label(entry: dict) -> str:
    if "field" in entry:
        return label_key(entry["field"])
    if "column" in entry:
        return label_key(f"{entry['item']} › {entry['column']}")
    return label_key(entry.get("item") or entry.get("value") or entry.get("sentence") or entry.get("section", ""))


def _matches(entry: dict, change: dict) -> bool:
    """Does a reported change state this truth change (same place, kind and values)?"""
    if change["kind"] != entry["kind"]:
        return False
    what = label_key(change["what"])
    if "sentence" in entry:
        text = change["new"] if entry["kind"] != "removed" else change["old"]
        return change["scope"] == "sentence" and text == entry["sentence"]
    if "section" in entry:
        return change["scope"] == "section" and what.endswith(label_key(entry["section"]))
    if "value" in entry:
        context = label_key(entry["value"])
        place = change["scope"] == "value" and (context.endswith(what) or what.endswith(context))
        return place and _same(change["old"], entry["old"]) and _same(change["new"], entry["new"])
    if what != _truth_label(entry):
        return False
    if entry["kind"] in ("added", "removed"):
        return True
    return _same(change["old"], entry["old"]) and _same(change["new"], entry["new"])


def score_pair(truth: dict, changes: list[dict]) -> dict:
    found, missed, wrong = [], [], []
    used: set[int] = set()
    for entry in truth["changes"]:
        hit = next((n for n, c in enumerate(changes) if n not in used and _matches(entry, c)), None)
        if hit is None:
            missed.append(entry)
            continue
        used.add(hit)
        if "difference" in entry and _signed(changes[hit]["difference"]) != Decimal(entry["difference"]):
            wrong.append({"truth": entry, "stated": changes[hit]["difference"]})
        else:
            found.append(entry)
    unchanged = {label_key(label) for label in truth["unchanged"]}
    labels = {_truth_label(e) for e in truth["changes"]}
    unchanged_reported, other = [], []
    for n, change in enumerate(changes):
        if n in used or change["scope"] not in ("field", "item", "value"):
            continue
        key = label_key(change["what"])
        if key in unchanged:
            unchanged_reported.append(change)
        elif key in labels:
            wrong.append({"truth": next(e for e in truth["changes"] if _truth_label(e) == key), "stated": change})
        elif any(_same(change["old"], e.get("old")) and _same(change["new"], e.get("new")) for e in truth["changes"]):
            continue  # the same true change stated again in a sentence ("Return of … for the tax year 2023")
        else:
            other.append(change)
    return {"truth": len(truth["changes"]), "found": len(found), "missed": missed, "wrong": wrong,
            "unchanged_reported": unchanged_reported, "unmatched": other,
            "sentence_or_section_changes": sum(1 for c in changes if c["scope"] in ("sentence", "section"))}


def run(work: Path) -> dict:
    if work.exists():
        shutil.rmtree(work)
    shelf = work / "shelf"
    truth = write_shelf(shelf)
    settings = Settings(build_dir=work / "build")
    started = time.perf_counter()
    report = build_shelf(shelf, settings, progress=lambda line: None, stages=default_stages(settings, site=False, shelf_dir=shelf))
    build_seconds = time.perf_counter() - started
    if report.failed:
        raise SystemExit(report.render())
    store = Store(work / "build" / report.shelf / "store.sqlite", create=False)
    docs, links = views_from_store(store), links_from_store(store)
    store.close()
    started = time.perf_counter()
    batch = compare_batch(docs, links)
    batch_seconds = time.perf_counter() - started
    pairs = []
    for expected in truth["pairs"]:
        started = time.perf_counter()
        result = compare_pair(docs, expected["doc_a"], expected["doc_b"])
        seconds = time.perf_counter() - started
        scored = score_pair(expected, [c.model_dump() for c in result.pairs[0].changes.changes])
        in_batch = any(p.changes.doc_a == expected["doc_a"] and p.changes.doc_b == expected["doc_b"] for p in batch.pairs)
        person = expected["name"].split(" (")[0]
        pairs.append({"name": expected["name"], "doc_a": expected["doc_a"], "doc_b": expected["doc_b"], "seconds": round(seconds, 4),
                      "paired_in_batch": in_batch, "named_in_batch": person in batch.markdown, **scored})
    trap_docs = {a["doc"] for a in truth["alone"]}
    trap_apart = all(d in {a["doc_id"] for a in batch.alone} for d in trap_docs) and not any(
        p.changes.doc_a in trap_docs or p.changes.doc_b in trap_docs for p in batch.pairs)
    total = sum(p["truth"] for p in pairs)
    found = sum(p["found"] for p in pairs)
    return {
        "pairs": len(pairs), "documents": len(docs), "build_seconds": round(build_seconds, 2),
        "truth_changes": total, "found": found, "recall": round(found / total, 4) if total else None,
        "wrong_values_or_directions": sum(len(p["wrong"]) for p in pairs),
        "unchanged_reported": sum(len(p["unchanged_reported"]) for p in pairs),
        "unmatched_value_changes": sum(len(p["unmatched"]) for p in pairs),
        "trap_kept_apart": trap_apart,
        "batch": {"seconds": round(batch_seconds, 4), "pairs": len(batch.pairs), "every_pair_found": all(p["paired_in_batch"] for p in pairs),
                  "every_name_named": all(p["named_in_batch"] for p in pairs) and all(a["name"].split(" (")[0] in batch.markdown for a in truth["alone"])},
        "seconds_per_pair": round(sum(p["seconds"] for p in pairs) / len(pairs), 4),
        "per_pair": pairs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "compare-bench")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    result = run(args.work)
    for pair in result["per_pair"]:
        print(f"{pair['name'][:48]:<48} {pair['found']:>3}/{pair['truth']:<3} wrong {len(pair['wrong'])}  unchanged {len(pair['unchanged_reported'])}"
              f"  unmatched {len(pair['unmatched'])}  {pair['seconds']:.3f} s  batch: paired {pair['paired_in_batch']}, named {pair['named_in_batch']}")
    print(f"found {result['found']}/{result['truth_changes']} ({result['recall']:.1%}); wrong values/directions {result['wrong_values_or_directions']}; "
          f"unchanged reported {result['unchanged_reported']}; trap kept apart {result['trap_kept_apart']}; "
          f"batch {result['batch']['pairs']} pairs in {result['batch']['seconds']:.3f} s, every name named {result['batch']['every_name_named']}; "
          f"{result['seconds_per_pair']:.3f} s per pair; build {result['build_seconds']} s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
