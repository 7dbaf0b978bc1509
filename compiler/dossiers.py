"""One dossier per cross-document topic: a concept that documents of two or more volumes define or rule on.

A topic is a ledger subject (content words, lower case), with an acronym and
its aligned expansion counted as one. The dossier quotes what each document
says about it (definitions first, then rules), each quote with its section id,
and lists where the documents may disagree (contradicts_candidate links between
its quotes). Composed by code from the ledger: verbatim, no model.
"""

from __future__ import annotations

from collections import defaultdict

from compiler.aliases import Alias
from compiler.ledger import Assertion
from compiler.links import Link, ShelfIndex, content_words

__all__ = ["MAX_TOPICS", "MAX_QUOTES_PER_DOC", "topic_key", "build_dossiers", "dossier_markdown"]

MAX_TOPICS = 300
MAX_QUOTES_PER_DOC = 3
_GENERIC = {"it", "they", "document", "specification", "section", "implementations", "implementation", "this",
            "there", "you", "we", "one", "following", "note", "example", "value", "values", "type", "types"}


def topic_key(subject: str, expansions: dict[str, str]) -> str:
    """Lower-case content words of a subject; an aligned acronym becomes its expansion."""
    subject = expansions.get(subject.strip(), subject)
    words = content_words(subject)
    if not words or all(w in _GENERIC or w.isdigit() for w in words) or len(words) > 5:
        return ""
    return " ".join(words)


def build_dossiers(index: ShelfIndex, assertions: list[tuple[str, str, Assertion]], links: list[Link],
                   aliases: list[Alias]) -> dict[str, dict]:
    """Dossiers keyed by topic, for topics that at least two volumes define or rule on."""
    expansions = {a.short: a.long for a in aliases if a.decision == "aligned"}
    entries: dict[str, list[tuple[str, str, Assertion]]] = defaultdict(list)
    names: dict[str, str] = {}
    for doc_id, section_id, assertion in assertions:
        if assertion.kind not in {"definition", "rule"}:
            continue
        key = topic_key(assertion.subject, expansions)
        if key:
            entries[key].append((doc_id, section_id, assertion))
            names.setdefault(key, expansions.get(assertion.subject, assertion.subject))
    ranked = []
    for key, items in entries.items():
        groups = {index.docs[d].group for d, _, _ in items if d in index.docs}
        if len(groups) >= 2:
            ranked.append((-len(groups), -len(items), key))
    ranked.sort()
    conflicts = [l for l in links if l.kind == "contradicts_candidate"]
    dossiers = {}
    for _, _, key in ranked[:MAX_TOPICS]:
        items = sorted(entries[key], key=lambda e: (index.docs[e[0]].path, e[2].kind != "definition"))
        per_doc: dict[str, list[dict]] = defaultdict(list)
        for doc_id, section_id, assertion in items:
            if len(per_doc[doc_id]) < MAX_QUOTES_PER_DOC:
                per_doc[doc_id].append({"kind": assertion.kind, "text": assertion.quote, "section_id": section_id})
        sections = {s for _, s, _ in items}
        disagreements = [
            {"sections": [l.src_section, l.dst_section], "evidence": l.evidence, "reason": l.reason}
            for l in conflicts if l.src_section in sections and l.dst_section in sections
        ]
        dossiers[key] = {
            "topic": names[key],
            "key": key,
            "doc_ids": sorted(per_doc),
            "documents": [{"doc_id": d, "title": index.docs[d].title, "says": per_doc[d]} for d in sorted(per_doc)],
            "disagreements": disagreements,
            "mode": "extractive",
        }
    return dossiers


def dossier_markdown(dossier: dict) -> str:
    """The dossier as Markdown: per document its quotes with section ids, then possible disagreements."""
    lines = [f"## {dossier['topic']}", ""]
    for document in dossier["documents"]:
        lines.append(f"**{document['title']}**")
        lines += [f"- ({q['kind']}) {q['text']} [{q['section_id']}]" for q in document["says"]]
        lines.append("")
    if dossier["disagreements"]:
        lines.append("**Where they may disagree** (candidates, not asserted)")
        lines += [f"- {d['reason']} [{', '.join(d['sections'])}]" for d in dossier["disagreements"]]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
