"""One dossier per cross-document topic: a concept that documents of two or more volumes define or rule on.

A topic is what an assertion is about: its ledger subject when that reads as a
noun phrase, else the noun phrase its quote opens with, else its section's
heading (shelfwise/compiler/digests/names.py); keyed by its content words in lower case with the
head noun in the singular ("Complaint" and "Complaints" are one topic), an
acronym and its aligned expansion counted as one. A dossier is named by the
defined term when a document defines it, else by the phrase used most often. The dossier quotes what each document
says about it (definitions first, then rules), each quote with its section id,
and lists where the documents may disagree (contradicts_candidate links between
its quotes). Revisions of one document (joined by supersedes links) count as one work: a topic only they share
is a change between revisions (the "What changed" page), not a cross-document topic, and a candidate conflict
between two revisions is a supersession, not a disagreement. Composed by code from the ledger: verbatim, no model.
"""

from __future__ import annotations

import re
from collections import defaultdict

from shelfwise.compiler.store.records import Alias, Assertion, Link
from shelfwise.compiler.links.links import ShelfIndex, content_words
from shelfwise.compiler.digests.names import plain_heading, singular, subject_phrase

__all__ = ["MAX_TOPICS", "MAX_QUOTES_PER_DOC", "topic_key", "build_dossiers", "dossier_markdown"]

MAX_TOPICS = 300
MAX_QUOTES_PER_DOC = 3
_GENERIC = {"it", "they", "document", "specification", "section", "implementations", "implementation", "this",
            "there", "you", "we", "one", "following", "note", "example", "value", "values", "type", "types"}


def topic_key(subject: str, expansions: dict[str, str]) -> str:
    """Lower-case content words of a subject, the last in the singular; an aligned acronym (also in the plural,
    "CAPAs") becomes its expansion, and "Long Form (LF)" counts as "Long Form"."""
    subject = re.sub(r"\s*\([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*s?\)\s*$", "", subject.strip()) or subject.strip()
    plural_acronym = re.fullmatch(r"([A-Z][A-Za-z0-9]*[A-Z])s", subject)
    subject = expansions.get(subject, expansions.get(plural_acronym.group(1), subject) if plural_acronym else subject)
    words = content_words(subject)
    if not words or all(w in _GENERIC or w.isdigit() for w in words) or len(words) > 5:
        return ""
    return " ".join([*words[:-1], singular(words[-1])])


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def _topic_name(key: str, items: list[tuple[str, str, Assertion, str]], headings: dict[str, str]) -> str:
    """The defined term if a document defines the topic, else the phrase used most often; a lone common noun
    with no definition is named with the heading its sections share ("Procedure (Terms and definitions)")."""
    defined = [phrase for _, _, a, phrase in items if a.kind == "definition"]
    if defined:
        return _capitalised(max(sorted(set(defined)), key=defined.count))
    phrases = [phrase for _, _, _, phrase in items]
    name = _capitalised(max(sorted(set(phrases)), key=phrases.count))
    if len(key.split()) == 1 and name[:1].isupper() and not name[1:2].isupper():
        shared = {plain_heading(headings.get(s, "")) for _, s, _, _ in items}
        if len(shared) == 1 and next(iter(shared)) and next(iter(shared)).lower() != key:
            return f"{name} ({next(iter(shared))})"
    return name


def _works(links: list[Link]) -> dict[str, str]:
    """Document id -> its work: the first (by id) of the documents its supersedes links join it to."""
    parent: dict[str, str] = {}

    def find(doc: str) -> str:
        while parent.get(doc, doc) != doc:
            doc = parent[doc]
        return doc

    for link in sorted(links, key=lambda l: l.id):
        if link.kind == "supersedes" and link.dst_doc and link.src_doc != link.dst_doc:
            a, b = sorted((find(link.src_doc), find(link.dst_doc)))
            parent[b] = a
    return {doc: find(doc) for doc in parent}


def build_dossiers(index: ShelfIndex, assertions: list[tuple[str, str, Assertion]], links: list[Link],
                   aliases: list[Alias]) -> dict[str, dict]:
    """Dossiers keyed by topic, for topics that at least two volumes define or rule on."""
    expansions = {a.short: a.long for a in aliases if a.decision == "aligned"}
    entries: dict[str, list[tuple[str, str, Assertion, str]]] = defaultdict(list)
    headings = {s.id: s.heading for secs in index.sections.values() for s in secs}
    for doc_id, section_id, assertion in assertions:
        if assertion.kind not in {"definition", "rule"}:
            continue
        title = index.docs[doc_id].title if doc_id in index.docs else ""
        phrase = subject_phrase(assertion.subject, assertion.quote, headings.get(section_id, ""), title)
        key = topic_key(phrase, expansions)
        if key:
            entries[key].append((doc_id, section_id, assertion, expansions.get(phrase, phrase)))
    works = _works(links)
    ranked = []
    for key, items in entries.items():
        groups = {index.docs[d].group for d, _, _, _ in items if d in index.docs}
        if len(groups) >= 2 and len({works.get(d, d) for d, _, _, _ in items}) >= 2:
            ranked.append((-len(groups), -len(items), key))
    ranked.sort()
    conflicts = [l for l in links if l.kind == "contradicts_candidate"
                 and works.get(l.src_doc, l.src_doc) != works.get(l.dst_doc or "", l.dst_doc)]
    dossiers = {}
    for _, _, key in ranked[:MAX_TOPICS]:
        items = sorted(entries[key], key=lambda e: (index.docs[e[0]].path, e[2].kind != "definition"))
        per_doc: dict[str, list[dict]] = defaultdict(list)
        for doc_id, section_id, assertion, _ in items:
            if len(per_doc[doc_id]) < MAX_QUOTES_PER_DOC:
                per_doc[doc_id].append({"kind": assertion.kind, "text": assertion.quote, "section_id": section_id})
        sections = {s for _, s, _, _ in items}
        disagreements = [
            {"sections": [l.src_section, l.dst_section], "evidence": l.evidence, "reason": l.reason}
            for l in conflicts if l.src_section in sections and l.dst_section in sections
        ]
        dossiers[key] = {
            "topic": _topic_name(key, items, headings),
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
