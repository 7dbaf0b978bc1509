"""Open references in a section's text, kept as hooks for the resolver (shelfwise/compiler/links/links.py).

A hook is a reference the section makes but does not answer: a section of the
same or another document ("see Section 4.2", "Appendix A", "Figure 2",
"Section 3.1 of [RFC6749]"), a document by identifier (RFC 6749, PEP 484,
SP 800-63B) and a section or document by name ("see Phony Targets", "as defined
in the Authorization Framework"). Each hook keeps the verbatim sentence it came
from and the relation its wording implies (cites, depends_on, updates, supersedes).
"""

from __future__ import annotations

import hashlib
import json
import re


from shelfwise.compiler.document_ids import SERIES_WORDS, find_ids, series_ids, whole
from shelfwise.compiler.ledger.rules import normalise, sentences
from shelfwise.compiler.store.records import Section, Hook

__all__ = ["HOOKS_VERSION", "canonical_identifiers", "reference_tags", "relation_in", "find_hooks"]


_SECTION = re.compile(
    r"\b(?P<word>Sections?|Appendix|Appendices|Appendixes|Annex|Figure|Fig\.|Table|Chapter|Step|Clause)\s+"
    r"(?P<nums>(?:[A-Z](?:\.\d+)*|\d+(?:\.\d+)*)(?:\s*(?:,|and|or|to|through|–|-)\s*(?:[A-Z](?:\.\d+)*|\d+(?:\.\d+)*)(?![\w]))*)"
    r"(?![\w-])(?!\.[A-Za-z0-9])"
)
_LABELS = {"Sections": "Section", "Appendices": "Appendix", "Appendixes": "Appendix", "Fig.": "Figure"}
_OF_DOC = re.compile(r"^\.?(?:\s*\([^()]{1,80}\))?\s*(?:of|in)\s+(?:the\s+)?")
_DOC_BEFORE = re.compile(r"\]?(?:\([^()\s]{0,80}\))?\]?,?\s{0,2}")
_NAMED = re.compile(
    r"\b(?P<cue>[Ss]ee(?: also)?|described in|explained in|discussed in|(?:as )?defined in|specified in)\s+"
    r"(?:the\s+)?(?:(?:section|chapter|node)\s+)?[\"“`*]*"
    r"(?P<name>[A-Z][\w'’-]*(?:\s+(?:[A-Z][\w'’-]*|of|and|for|the|in|to|a|with|on|vs\.|by)){0,7})"
)
_NAME_TAIL = re.compile(r"(?:\s+(?:of|and|for|the|in|to|a|with|on|by))+$")
_DEPENDS_CUE = re.compile(
    r"(defined in|definitions?|specified in|relies on|rely on|based on|depends on|depend on|requires?|"
    r"is needed|must implement|terminology)",
    re.I,
)
_UPDATES_CUE = re.compile(r"(\bupdates\b|Updates:|\bupdated by\b)", re.I)
_SUPERSEDES_CUE = re.compile(r"(\bobsoletes\b|Obsoletes:|\bsupersedes\b|\breplaces\b|Replaces:|Superseded-By:)", re.I)
_HEADER_FIELD = re.compile(
    r"^\s*(?P<field>Updates|Obsoletes|Replaces|Requires)\s*:\s*(?P<value>\d+(?:\s*,\s*\d+)*)(?=\s{2,}|\s*$)", re.M
)
HOOKS_VERSION = "hooks-4"  # hooks-3: sentences from shelfwise.compiler.prose; hooks-4: identifiers from shelfwise.compiler.document_ids
"""Keys the stored hooks of a document: a change to how hooks are found re-finds them on the next build."""
_TAG = re.compile(r"\[(?P<tag>[A-Za-z][\w.+/-]{1,40})\]")
_REF_ENTRY = re.compile(r"^\s*\[(?P<tag>[A-Za-z][\w.+/-]{1,40})\]\s+(?P<body>.+)$", re.S)
_QUOTED_TITLE = re.compile(r"[\"“](?P<title>[^\"”]{8,200})[\"”]")
_NAME_STOP = {"Section", "Sections", "Appendix", "Figure", "Table", "Chapter", "Step", *SERIES_WORDS,
              "Also", "Below", "Above", "The", "This", "That", "Note", "Notes", "Example", "Examples", "Here", "There"}


def canonical_identifiers(text: str) -> list[tuple[str, int, int]]:
    """(label, start, end) of each series identifier in ``text`` (``shelfwise.compiler.document_ids``), in order: the
    references a hook is made of. A code (SOP-014) is left to the resolver's ``code_citations``, which knows the
    shelf's codes."""
    return [(found.label, found.start, found.end) for found in series_ids(text)]


def _is_series(text: str) -> bool:
    """Whether ``text`` is one series identifier as a whole ('[RFC6749]' is; '[JWS]' is not)."""
    return whole(text, codes=False) is not None


def relation_in(sentence: str, start: int, default: str) -> str:
    """The relation the words around ``start`` imply: supersedes, updates, depends_on, else ``default``."""
    before = sentence[max(0, start - 80) : start].rsplit("|", 1)[-1]  # a table cell's cue speaks of that cell only
    if _SUPERSEDES_CUE.search(before):
        return "supersedes"
    if _UPDATES_CUE.search(before):
        return "updates"
    window = sentence[max(0, start - 80) : start + 120]
    if _DEPENDS_CUE.search(window):
        return "depends_on"
    return default


def _numbers(nums: str) -> list[str]:
    return [n for n in re.findall(r"[A-Z](?:\.\d+)*|\d+(?:\.\d+)*", nums)]


def _qualifier(sentence: str, start: int, end: int, idents: list[tuple[str, int, int]], tags: dict[str, str]) -> str | None:
    """The document qualifying a section reference: 'Section 4 of RFC 6749', 'of OAuth 2.0 [RFC6749]', 'of [JWS]',
    'RFC 6749, Section 4'; 'self' for 'of this document'."""
    after = sentence[end:]
    of = _OF_DOC.match(after)
    if of:
        rest = after[of.end() :]
        if re.match(r"(?:this|the present) (?:document|specification|memo|PEP)", rest, re.I):
            return "self"
        window = rest[:70]
        cut = re.search(r"[,;()]|\.\s", window)
        window = window[: cut.start()] if cut else window
        best: tuple[int, str] | None = None
        for ident, i_start, _ in idents:
            offset = i_start - (end + of.end())
            if 0 <= offset < len(window) and (best is None or offset < best[0]):
                best = (offset, ident)
        tag = _TAG.search(window)
        if tag and tag.group("tag") in tags and (best is None or tag.start() < best[0]):
            best = (tag.start(), tags[tag.group("tag")])
        if best:
            return best[1]
    for ident, _, i_end in idents:
        if i_end <= start and _DOC_BEFORE.fullmatch(sentence[i_end:start]):
            return ident
    before = sentence[:start]
    tag = re.search(r"\[(?P<tag>[A-Za-z][\w.+/-]{1,40})\],?\s*$", before)
    if tag and tag.group("tag") in tags:
        return tags[tag.group("tag")]
    return None


def reference_tags(sections: list[Section]) -> dict[str, str]:
    """Citation tags of a document's reference list: '[JWS] ... RFC 7515' -> 'RFC 7515'; else 'title:<quoted title>'."""
    tags: dict[str, str] = {}
    for section in sections:
        for block in section.blocks:
            match = _REF_ENTRY.match(block.text)
            if not match:
                continue
            body = normalise(match.group("body"))
            idents = canonical_identifiers(body)
            title = _QUOTED_TITLE.search(body)
            if idents and not _is_series(f"[{match.group('tag')}]"):
                tags[match.group("tag")] = idents[0][0]
            elif title and not _is_series(f"[{match.group('tag')}]"):
                tags[match.group("tag")] = "title:" + title.group("title").strip(" ,.")
    return tags


def _starts_with_id(name: str) -> bool:
    """Whether a name opens with a document identifier ('RFC 6749 Section 4', 'SOP-014 Complaint Handling')."""
    found = find_ids(name)
    return bool(found) and found[0].start == 0


def _hook_id(section_id: str, kind: str, text: str, ordinal: int) -> str:
    key = "\x1f".join([section_id, kind, text, str(ordinal)])
    return "h" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:11]


def find_hooks(section: Section, self_identifiers: set[str], start_seq: int = 0, tags: dict[str, str] | None = None) -> list[Hook]:
    """The open references of ``section``; identifiers in ``self_identifiers`` (the document's own) are skipped.

    ``tags`` maps the document's citation tags to identifiers or titles (see ``reference_tags``).
    """
    tags = tags or {}
    found: list[tuple[str, str, str, dict, str]] = []  # kind, relation, text, target, quote
    for block in section.blocks:
        if block.kind == "figure":
            continue
        for match in _HEADER_FIELD.finditer(block.text):
            relation = {"Updates": "updates", "Obsoletes": "supersedes", "Replaces": "supersedes", "Requires": "depends_on"}[
                match.group("field")
            ]
            scheme = "PEP" if match.group("field") in {"Replaces", "Requires"} else "RFC"
            for number in re.findall(r"\d+", match.group("value")):
                found.append(("document", relation, normalise(match.group(0)), {"doc": f"{scheme} {int(number)}"},
                              normalise(match.group(0))))
        if block.kind == "code":
            continue
        table = block.kind == "table"
        # a table is read row by row, and a row of a listing ("rfc6749.txt | ... | Obsoletes RFC 5849") speaks of the
        # document it names, not of the document holding the table: it cites, it never supersedes or updates
        for sentence in (block.text.split("\n") if table else sentences(block.text)):
            idents = canonical_identifiers(sentence)
            qualified: set[tuple[int, int]] = set()
            for match in _SECTION.finditer(sentence):
                doc = _qualifier(sentence, match.start(), match.end(), idents, tags)
                word = _LABELS.get(match.group("word"), match.group("word"))
                for number in _numbers(match.group("nums")):
                    target = {"label": word, "section": number}
                    if doc and doc.startswith("title:"):
                        target["title"] = doc[6:]
                    elif doc and doc != "self" and doc not in self_identifiers:
                        target["doc"] = doc
                    found.append(("section", relation_in(sentence, match.start(), "resolves"), match.group(0), target, sentence))
                if doc and doc != "self":
                    for ident, i_start, i_end in idents:
                        if ident == doc:
                            qualified.add((i_start, i_end))
            for ident, i_start, i_end in idents:
                if ident in self_identifiers:
                    continue
                relation = relation_in(sentence, i_start, "cites")
                if table and relation in ("supersedes", "updates"):
                    relation = "cites"
                found.append(("document", relation, sentence[i_start:i_end], {"doc": ident}, sentence))
            for match in _TAG.finditer(sentence):
                mapped = tags.get(match.group("tag"))
                if not mapped or _is_series(match.group(0)):
                    continue
                if mapped.startswith("title:"):
                    found.append(("named", relation_in(sentence, match.start(), "cites"), match.group(0),
                                  {"name": mapped[6:], "title_only": True}, sentence))
                elif mapped not in self_identifiers:
                    found.append(("document", relation_in(sentence, match.start(), "cites"), match.group(0),
                                  {"doc": mapped}, sentence))
            for match in _NAMED.finditer(sentence):
                follow = sentence[match.end() : match.end() + 16]
                if re.match(r"[\"”`*]*\s*(?:[\d.]+\s*)?(?:\[|\(?(?:RFC|PEP|SP|FIPS)\b)|\.\d", follow):
                    continue
                name = _NAME_TAIL.sub("", match.group("name")).strip(" .,:;\"”`*")
                if not name or name.split()[0] in _NAME_STOP or _starts_with_id(name):
                    continue
                if len(name) < 4:
                    continue
                relation = "depends_on" if "defined" in match.group("cue") else "resolves"
                found.append(("named", relation, name, {"name": name}, sentence))
    hooks: list[Hook] = []
    seen: set[str] = set()
    for kind, relation, text, target, quote in found:
        key = json.dumps([kind, relation, target], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        hooks.append(
            Hook(
                id=_hook_id(section.id, kind, key, len(hooks)),
                doc_id=section.doc_id,
                section_id=section.id,
                seq=start_seq + len(hooks),
                kind=kind,
                relation=relation,
                text=text,
                target=target,
                quote=quote,
            )
        )
    return hooks
