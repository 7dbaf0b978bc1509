"""One brief per document, composed from the ledger and the text: verbatim, every line cited by section id.

A brief says what the document is (its title, identifiers and opening
sentence), its scope, its key definitions and rules, its outline, what it links
to and what links to it. No model is involved: every sentence shown is a quote
of the section it cites, so it needs no further checking.
"""

from __future__ import annotations

import re
from collections import defaultdict

from shelfwise.compiler.language.force import MODAL_KEYWORDS, STRONG_KEYWORDS
from shelfwise.compiler.store.records import Assertion, Link
from shelfwise.compiler.ledger.rules import sentences
from shelfwise.compiler.links.links import ShelfIndex
from shelfwise.compiler.digests.names import count, relation_words

__all__ = ["MAX_DEFINITIONS", "MAX_RULES", "build_briefs", "brief_markdown"]

MAX_DEFINITIONS = 8
MAX_RULES = 8
_SCOPE = re.compile(r"\b(scope|purpose|abstract|summary|overview|introduction|applicability|motivation)\b", re.I)
_STRONG = set(STRONG_KEYWORDS) | {keyword.lower() for keyword in STRONG_KEYWORDS if keyword in MODAL_KEYWORDS}


def _first_sentence(index: ShelfIndex, doc_id: str, pattern: re.Pattern | None) -> dict | None:
    for section in index.sections.get(doc_id, []):
        if pattern is not None and not pattern.search(section.heading):
            continue
        for block in section.blocks:
            if block.kind not in {"paragraph", "list_item"}:
                continue
            for sentence in sentences(block.text):
                if len(sentence.split()) >= 6 and sentence[-1] in ".!?:":
                    return {"text": sentence, "section_id": section.id}
    return None


def _rule_rank(assertion: Assertion) -> tuple:
    return (assertion.modality not in _STRONG, not assertion.thresholds, not assertion.conditions)


def _link_summary(links: list[Link], index: ShelfIndex, outgoing: bool) -> list[dict]:
    grouped: dict[tuple[str, str], list[Link]] = defaultdict(list)
    for link in links:
        other = link.dst_doc if outgoing else link.src_doc
        grouped[(link.kind, other)].append(link)
    out = []
    for (kind, other), items in sorted(grouped.items()):
        first = items[0]
        out.append({
            "kind": kind,
            "doc_id": other,
            "title": index.docs[other].title if other in index.docs else other,
            "count": len(items),
            "section_id": first.src_section if outgoing else first.dst_section,
            "evidence": first.evidence,
            "reason": first.reason,
        })
    return out


def build_briefs(index: ShelfIndex, assertions: list[tuple[str, str, Assertion]], links: list[Link]) -> dict[str, dict]:
    """A brief (a JSON-ready dict) per document, keyed by document id."""
    by_doc: dict[str, list[tuple[str, Assertion]]] = defaultdict(list)
    for doc_id, section_id, assertion in assertions:
        by_doc[doc_id].append((section_id, assertion))
    cross = [l for l in links if l.src_doc != l.dst_doc]
    outgoing: dict[str, list[Link]] = defaultdict(list)
    incoming: dict[str, list[Link]] = defaultdict(list)
    for link in cross:  # grouped once: scanning every link for every document grew with the square of the shelf
        outgoing[link.src_doc].append(link)
        incoming[link.dst_doc].append(link)
    briefs = {}
    for doc_id, doc in sorted(index.docs.items()):
        entries = by_doc.get(doc_id, [])
        definitions = [{"term": a.subject, "text": a.quote, "section_id": s} for s, a in entries if a.kind == "definition"]
        rules = sorted(((s, a) for s, a in entries if a.kind == "rule"), key=lambda item: _rule_rank(item[1]))
        outline = [
            {"heading": s.heading, "level": s.level, "section_id": s.id}
            for s in index.sections.get(doc_id, [])
            if 1 <= s.level <= 2
        ]
        briefs[doc_id] = {
            "doc_id": doc_id,
            "mode": "extractive",
            "title": doc.title,
            "path": doc.path,
            "identifiers": doc.identifiers,
            "opening": _first_sentence(index, doc_id, None),
            "scope": _first_sentence(index, doc_id, _SCOPE),
            "definitions": definitions[:MAX_DEFINITIONS],
            "definitions_total": len(definitions),
            "rules": [
                {"subject": a.subject, "text": a.quote, "modality": a.modality, "conditions": a.conditions,
                 "exceptions": a.exceptions, "thresholds": [t.text for t in a.thresholds], "section_id": s}
                for s, a in rules[:MAX_RULES]
            ],
            "rules_total": len(rules),
            "outline": outline,
            "links_out": _link_summary(outgoing.get(doc_id, []), index, outgoing=True),
            "links_in": _link_summary(incoming.get(doc_id, []), index, outgoing=False),
        }
    return briefs


def brief_markdown(brief: dict) -> str:
    """The brief as Markdown; every quoted sentence ends with its section id in brackets."""
    lines = [f"## {brief['title']}", ""]
    if brief["identifiers"]:
        lines.append("Identifiers: " + ", ".join(brief["identifiers"]) + f" · `{brief['path']}`")
        lines.append("")
    for label in ("opening", "scope"):
        item = brief.get(label)
        if item and (label == "opening" or item != brief.get("opening")):
            lines.append(f"**{label.capitalize()}.** {item['text']} [{item['section_id']}]")
            lines.append("")
    if brief["definitions"]:
        lines.append(f"**Key definitions** ({len(brief['definitions'])} of {brief['definitions_total']})")
        lines += [f"- *{d['term']}*: {d['text']} [{d['section_id']}]" for d in brief["definitions"]]
        lines.append("")
    if brief["rules"]:
        lines.append(f"**Key rules** ({len(brief['rules'])} of {brief['rules_total']})")
        lines += [f"- {r['text']} [{r['section_id']}]" for r in brief["rules"]]
        lines.append("")
    if brief["outline"]:
        lines.append("**Outline**")
        lines += [f"{'  ' * (o['level'] - 1)}- {o['heading']} [{o['section_id']}]" for o in brief["outline"]]
        lines.append("")
    for key, label in (("links_out", "Links to"), ("links_in", "Linked from")):
        if brief[key]:
            lines.append(f"**{label}**")
            direction = "out" if key == "links_out" else "in"
            lines += [f"- {relation_words(item['kind'], direction).capitalize()}: {item['title']} ({count(item['count'], 'link')})"
                      f" — {item['reason']}" for item in brief[key]]
            lines.append("")
    lines.append("_Composed from the ledger and the text (no model): every sentence is a quote of the cited section._")
    return "\n".join(lines).rstrip() + "\n"
