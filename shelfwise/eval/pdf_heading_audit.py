"""Judge by hand a sample of the PDF headings no outline names, and correct the heading check's precision by it.

The heading fit (``fit_pdf_headings``) takes a PDF's outline as the truth: a heading line the outline does not name
counts as wrong. Many outlines stop at level 2 or name a section by a short form ("CCG" for "Client Computing"), so
real subheadings count as wrong and strict precision is a lower bound. A layout model's truth (what the issue's
floor is measured on) labels every section header. This module measures that second figure honestly, by sampling:

- ``draw`` adds to ``eval/questions/pdf-heading-audit.yaml`` a seeded random sample of the held-out unlisted lines
  (``unlisted`` of each public fold in ``eval/results/fit_pdf_headings.json``) not judged yet, each with the lines
  above and below it and ``heading: null`` for a person to fill in (``true`` or ``false``, by ``CRITERION``).
- ``score`` takes the lines the latest fit still finds unlisted, the share of the judged ones that are headings
  (with its Wilson 95% interval), and writes the audited precision (strict true + unlisted × share) / strict
  headings, pooled over the public documents, to ``eval/results/pdf_heading_audit.json``.

The judgements are labels, like the question sets' gold quotes: nothing is fitted on them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

import yaml

__all__ = ["draw", "score", "wilson", "main", "CRITERION", "AUDIT_FILE"]

ROOT = Path(__file__).resolve().parents[2]
AUDIT_FILE = ROOT / "eval" / "questions" / "pdf-heading-audit.yaml"
FIT_RESULTS = ROOT / "eval" / "results" / "fit_pdf_headings.json"
RESULTS = ROOT / "eval" / "results" / "pdf_heading_audit.json"

CRITERION = """\
heading: true when a reader takes the line as the title of the text that follows it: a chapter, section,
subsection or appendix title, a numbered or unnumbered subheading, an index's letter group head, a titled box or
form section ("Example", "Overview") set apart in a heading's type. heading: false for a title page's or cover's
names, dates and imprint, a contents or index entry, a table's cell or column header, a chart's or figure's label,
a caption, a line of a paragraph or list item (a bold lead-in sentence included), a running header or footer, a
page number. Judged from the line, the lines above and below it and, where those leave it open, the page itself.
"""


def _key(document: str, page: int, text: str) -> tuple[str, int, str]:
    return (document, int(page), " ".join(text.split()))


def _unlisted(results: dict) -> list[dict]:
    return [{"document": fold["document"], **line} for fold in results["folds"] if fold["source"] != "generated"
            for line in fold.get("unlisted", [])]


def _load(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("lines", [])


def _write(path: Path, lines: list[dict]) -> None:
    header = "".join(f"# {row}\n" for row in CRITERION.splitlines())
    body = yaml.safe_dump({"lines": lines}, allow_unicode=True, sort_keys=False, width=120)
    path.write_text("# Hand judgements of PDF heading lines no outline names (shelfwise.eval.pdf_heading_audit).\n" + header + body,
                    encoding="utf-8")


def draw(results: dict, judged: list[dict], size: int, seed: int) -> list[dict]:
    """``judged`` plus up to ``size`` new lines drawn at random (``seed``) from the unlisted lines not judged yet."""
    done = {_key(j["document"], j["page"], j["text"]) for j in judged}
    pool = [line for line in _unlisted(results) if _key(line["document"], line["page"], line["text"]) not in done]
    sample = random.Random(seed).sample(pool, min(size, len(pool)))
    return judged + [{"document": s["document"], "page": s["page"], "text": s["text"], "above": s["above"], "below": s["below"],
                      "heading": None} for s in sample]


def wilson(successes: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a binomial share (95% by default)."""
    if not total:
        return (0.0, 1.0)
    share = successes / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (max(0.0, centre - half), min(1.0, centre + half))


def score(results: dict, judged: list[dict]) -> dict:
    """The audited precision of the held-out check over the public documents, with its interval."""
    labels = {_key(j["document"], j["page"], j["text"]): j["heading"] for j in judged if j.get("heading") is not None}
    public = [fold for fold in results["folds"] if fold["source"] != "generated"]
    true = sum(fold["checked"]["strict_true"] for fold in public)
    heads = sum(fold["checked"]["strict_headings"] for fold in public)
    matched = sum(fold["checked"]["matched"] for fold in public)
    entries = sum(fold["checked"]["entries"] for fold in public)
    unlisted = _unlisted(results)
    seen = [labels[k] for k in (_key(u["document"], u["page"], u["text"]) for u in unlisted) if k in labels]
    yes = sum(1 for v in seen if v)
    share = yes / len(seen) if seen else 0.0
    low, high = wilson(yes, len(seen))
    per_document = {}
    for fold in public:
        keys = [_key(fold["document"], u["page"], u["text"]) for u in fold.get("unlisted", [])]
        marks = [labels[k] for k in keys if k in labels]
        per_document[fold["document"]] = {"strict_true": fold["checked"]["strict_true"], "strict_headings": fold["checked"]["strict_headings"],
                                          "unlisted": len(keys), "judged": len(marks), "judged_headings": sum(1 for m in marks if m)}

    def precision(part: float) -> float:
        return round((true + len(unlisted) * part) / heads, 3) if heads else 0.0

    return {"documents": len(public), "recall": round(matched / entries, 3) if entries else None,
            "strict_precision": round(true / heads, 3) if heads else None, "unlisted": len(unlisted), "judged": len(seen),
            "judged_headings": yes, "heading_share": round(share, 3), "heading_share_interval": [round(low, 3), round(high, 3)],
            "audited_precision": precision(share), "audited_precision_interval": [precision(low), precision(high)],
            "per_document": per_document}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    drawing = sub.add_parser("draw", help="add a random sample of unjudged unlisted lines to the audit file")
    drawing.add_argument("--size", type=int, default=120)
    drawing.add_argument("--seed", type=int, default=0)
    scoring = sub.add_parser("score", help="the audited precision of the latest fit")
    scoring.add_argument("--out", type=Path, default=RESULTS)
    for command in (drawing, scoring):
        command.add_argument("--results", type=Path, default=FIT_RESULTS, help="fit_pdf_headings' results file")
        command.add_argument("--audit", type=Path, default=AUDIT_FILE, help="the hand judgements")
    args = parser.parse_args(argv)
    results = json.loads(args.results.read_text(encoding="utf-8"))
    if not any("unlisted" in fold for fold in results["folds"]):
        parser.error(f"{args.results} has no unlisted lines: run python -m shelfwise.eval.fit_pdf_headings first")
    judged = _load(args.audit)
    if args.command == "draw":
        lines = draw(results, judged, args.size, args.seed)
        _write(args.audit, lines)
        print(f"{args.audit}: {len(lines) - len(judged)} lines added, {sum(1 for j in lines if j.get('heading') is None)} to judge")
        return 0
    report = score(results, judged)
    if any(j.get("heading") is None for j in judged):
        print(f"warning: {sum(1 for j in judged if j.get('heading') is None)} lines of {args.audit} are not judged yet", file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"public documents {report['documents']}: recall {report['recall']}, strict precision {report['strict_precision']}")
    print(f"unlisted heading lines {report['unlisted']}, judged {report['judged']}, headings among them {report['judged_headings']} "
          f"({report['heading_share']}, 95% {report['heading_share_interval']})")
    print(f"audited precision {report['audited_precision']} (95% {report['audited_precision_interval']})")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
