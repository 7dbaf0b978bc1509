"""The resolver: hooks become typed links with evidence, or stay open with their reason.

Rules (paper §6.13-§6.14): a document by identifier (its path, title or header
says which); a section by number in the citing document first, then the other
documents of its volume, or in the document that qualifies it ("Section 4 of
RFC 6749"); a section by name when its heading holds every content word of the
reference and at most three other words (citing document first; ambiguous and
self-references refused); a document whose full title (four words or more,
letters and digits only, whole words) stands in another's text is cited by it.
Series order, shared rare names and candidate contradictions are in
``shelfwise.compiler.links.relations``.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict

from pydantic import BaseModel, Field

from shelfwise.compiler.document_ids import find_ids, label, series_ids, whole
from shelfwise.compiler.store.records import Hook, Section, Link
from shelfwise.compiler.ledger.hooks import relation_in
from shelfwise.compiler.ledger.rules import normalise, sentences

__all__ = ["DocInfo", "ShelfIndex", "document_identifiers", "resolve_hooks", "title_citations", "code_citations",
           "link_id", "content_words", "heading_number", "path_identifiers"]


def link_id(kind: str, src: str | None, dst: str | None, extra: str = "") -> str:
    key = "\x1f".join([kind, src or "", dst or "", extra])
    return "l" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:11]


_HEADER_IDS = [  # a document's header field naming it: the field is the header's, the identifier the one parser's
    re.compile(r"Request for Comments:\s*(?P<id>\d{3,5})"),
    re.compile(r"^\s*PEP:\s*(?P<id>\d{1,4})\s*$", re.M),
]
_HEADER_SERIES = ("RFC", "PEP")


class DocInfo(BaseModel):
    """What the resolver knows about one document."""

    doc_id: str
    path: str
    title: str
    identifiers: list[str] = Field(default_factory=list, description="Canonical identifiers, e.g. 'RFC 6749'.")
    group: str = Field(description="The volume the document belongs to: its first identifier, or its own id.")
    revision: str = Field(default="", description="The revision or edition its identity gives ('Rev D', 'Edition 0.77'), "
                                                   "read from its cover or front matter; '' when none.")


def document_identifiers(path: str, title: str, head_text: str) -> list[str]:
    """Identifiers a document carries in its path, title and header ('Request for Comments: 8725', 'PEP: 585')."""
    found: list[str] = path_identifiers(path)
    found += [i for i in _other_identifiers(title, head_text) if i not in found]
    return found


def path_identifiers(path: str) -> list[str]:
    """Series identifiers in a shelf-relative path ('rfc6749.txt', 'sp800-63b/sec4_aal.md'): they name the volume,
    so its top folder's come first, then its file name's. A code in a file name (sop-014-….docx) is not one: two
    revisions of a code are two documents, never one volume."""
    found: list[str] = []
    top = path.split("/")[0] if "/" in path else path
    for source in (top, path.rsplit("/", 1)[-1]):
        found += [f.label for f in series_ids(source, ignore_case=True) if f.label not in found]
    return found


def _other_identifiers(title: str, head_text: str) -> list[str]:
    found: list[str] = []
    for pattern, series in zip(_HEADER_IDS, _HEADER_SERIES):
        match = pattern.search(head_text[:4000])
        if match:
            found.append(label(f"{series} {match.group('id')}"))
    code = _title_code(title)
    if code:
        found.append(code)
    title_ids = series_ids(title)
    if len({i.label for i in title_ids}) == 1:
        found.append(title_ids[0].label)
    out: list[str] = []
    for ident in found:
        if ident not in out:
            out.append(ident)
    return out


def _title_code(title: str) -> str | None:
    """The code a title opens with ('SOP-014 Complaint Handling' -> 'SOP-014'): the document's own."""
    found = find_ids(title)
    return found[0].label if found and found[0].kind == "code" and found[0].start == 0 else None


_NUMBERED = re.compile(
    r"^(?:(?P<word>Appendix|Annex|Chapter|Part|Section)\s+)?(?P<num>[A-Z]|\d+)(?P<rest>(?:\.\d+)*)\.?(?=[\s:—–&-]|$)"
)
_STOP = set(
    "a an and are as at be by for from how in into is it its of on or the their this to what when where which with"
    " about using use".split()
)


def heading_number(heading: str) -> tuple[str | None, str | None]:
    """(label word or '', number) of a numbered heading: 'Appendix A—Defs' -> ('Appendix', 'A'); '4.2. X' -> ('', '4.2')."""
    match = _NUMBERED.match(heading.strip())
    if not match:
        return None, None
    number = match.group("num") + match.group("rest")
    if number.isalpha() and not match.group("word") and not re.match(r"^[A-Z]\.\s|^[A-Z]\s+[A-Z]", heading.strip()):
        return None, None
    return match.group("word") or "", number


def content_words(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return [w for w in words if w not in _STOP]


class ShelfIndex:
    """Documents, sections and lookups the resolver and relations share."""

    def __init__(self, docs: list[DocInfo], sections: dict[str, list[Section]]):
        self.docs = {d.doc_id: d for d in docs}
        self.sections = sections
        self.section_doc = {s.id: s.doc_id for secs in sections.values() for s in secs}
        self.by_identifier: dict[str, list[str]] = defaultdict(list)
        self.groups: dict[str, list[str]] = defaultdict(list)
        for doc in docs:
            for ident in doc.identifiers:
                self.by_identifier[ident].append(doc.doc_id)
            self.groups[doc.group].append(doc.doc_id)
        self._titles: dict[tuple[str, ...], list[str]] = defaultdict(list)
        self._title_words: dict[str, list[str]] = defaultdict(list)
        for doc_id in sorted(self.docs):
            self._titles[tuple(re.findall(r"[a-z0-9]+", self.docs[doc_id].title.lower()))].append(doc_id)
            self._title_words[" ".join(content_words(self.docs[doc_id].title))].append(doc_id)
        self._revisions: dict[str, list[str]] = defaultdict(list)
        for ident in self.by_identifier:
            base, _, tail = ident.rpartition("-")
            if base and tail.isdigit():
                self._revisions[base].append(ident)
        self._headings: dict[str, list[tuple[Section, frozenset[str]]]] | None = None

    def heading_postings(self) -> dict[str, list[tuple[Section, frozenset[str]]]]:
        """Content word of a heading -> the sections below a title (level > 0) whose heading holds it, with the
        heading's words, in document (id) then section order: a reference by name is looked up by its rarest word
        instead of against every heading of the shelf."""
        if self._headings is None:
            self._headings = defaultdict(list)
            for doc_id in sorted(self.docs):
                for section in self.sections.get(doc_id, []):
                    if section.level == 0:
                        continue
                    words = frozenset(content_words(re.sub(r"^[A-Z]?[\d.]+\s*", "", section.heading)))
                    for word in words:
                        self._headings[word].append((section, words))
        return self._headings

    def titled(self, words: list[str]) -> list[str]:
        """Documents whose title's content words are ``words`` (in order), by id."""
        return list(self._title_words.get(" ".join(words), []))

    def lookup(self, ident: str) -> tuple[list[str], str]:
        """Documents carrying ``ident`` (a bare 'SP 800-63' also finds the one revision 'SP 800-63-3')."""
        if ident in self.by_identifier:
            return self._volumes(self.by_identifier[ident]), "identifier"
        revisions = sorted(self._revisions.get(ident, []))
        if revisions:
            return self._volumes(self.by_identifier[revisions[-1]]), f"identifier, latest revision {revisions[-1]}"
        return [], ""

    def _volumes(self, doc_ids: list[str]) -> list[str]:
        """Every document of the volumes ``doc_ids`` belong to (a volume may be one file per section)."""
        return sorted({d for doc_id in doc_ids for d in self.groups[self.docs[doc_id].group]})

    def by_title(self, title: str) -> list[str]:
        """Documents whose title equals ``title`` compared as letters and digits only."""
        return list(self._titles.get(tuple(re.findall(r"[a-z0-9]+", title.lower())), []))

    def head(self, doc_ids: list[str]) -> str:
        """The document that stands for a volume: its cover or introduction, else the first by path."""
        ranked = sorted(doc_ids, key=lambda d: (not re.search(r"cover|index|readme|intro", self.docs[d].path, re.I),
                                                 self.docs[d].path))
        return ranked[0]


def _section_matches(index: ShelfIndex, doc_ids: list[str], label: str, number: str) -> list[Section]:
    out = []
    for doc_id in doc_ids:
        for section in index.sections.get(doc_id, []):
            if label in {"Figure", "Table"}:
                for block in section.blocks:
                    caption = normalise(f"{block.name or ''} {block.text[:80]}")
                    if re.match(rf"{label}\s+{re.escape(number)}(?:[.:]?\s|[.:]?$)", caption):
                        out.append(section)
                        break
                continue
            word, found = heading_number(section.heading)
            if found != number or word is None:
                continue
            if label == "Appendix" and number[0].isdigit():
                continue
            out.append(section)
    roots = {s.doc_id: s for s in out if s.level == 0}
    return [s for s in out if not (s.level == 0 and any(o.doc_id == s.doc_id and o.level > 0 for o in out))] if roots else out


def _resolve_section(index: ShelfIndex, hook: Hook) -> tuple[list[Section], str, str]:
    """(matches, scope description, open reason) for a numbered section/figure/table reference."""
    label, number = hook.target["label"], hook.target["section"]
    if hook.target.get("title"):
        titled = index.by_title(hook.target["title"])
        if not titled:
            return [], "", f"no document matches '{hook.target['title']}'"
        scopes = [(titled, f"'{hook.target['title']}'")]
    elif hook.target.get("doc"):
        doc_ids, how = index.lookup(hook.target["doc"])
        if not doc_ids:
            return [], "", f"no document matches {hook.target['doc']}"
        scopes = [(doc_ids, hook.target["doc"])]
    else:
        group = index.groups[index.docs[hook.doc_id].group]
        scopes = [([hook.doc_id], "the citing document"), ([d for d in group if d != hook.doc_id], "its volume")]
    for doc_ids, scope in scopes:
        matches = [s for s in _section_matches(index, doc_ids, label, number)]
        if len(matches) > 1:
            return matches, scope, f"ambiguous: {len(matches)} sections match {label} {number} in {scope}"
        if matches:
            if matches[0].id == hook.section_id:
                return [], scope, "self-reference"
            return matches, scope, ""
    where = hook.target.get("doc") or "the citing document"
    return [], "", f"no {label.lower()} {number} in {where}"


def _resolve_named(index: ShelfIndex, hook: Hook) -> tuple[str | None, str | None, str, str]:
    """(dst doc, dst section, reason, open reason) for a reference by name: headings, then titles."""
    words = content_words(hook.target["name"])
    if not words:
        return None, None, "", "no content words"
    if hook.target.get("title_only"):
        titled = [d for d in index.by_title(hook.target["name"]) if d != hook.doc_id]
        if titled:
            return index.head(titled), None, "full title of the cited work", ""
        return None, None, "", f"no document matches '{hook.target['name']}'"
    group = set(index.groups[index.docs[hook.doc_id].group])
    wanted = set(words)
    postings = index.heading_postings()
    rarest = min(wanted, key=lambda w: (len(postings.get(w, ())), w))
    candidates = [(s, heading) for s, heading in postings.get(rarest, ()) if wanted <= heading and len(heading - wanted) <= 3]
    for scope, inside in (("citing document", lambda d: d == hook.doc_id), ("its volume", lambda d: d in group and d != hook.doc_id),
                          ("shelf", lambda d: d not in group)):
        if scope == "shelf" and len(words) < 2:
            break
        matches = [s for s, _ in candidates if inside(s.doc_id)]
        if len(matches) > 1:
            return None, None, "", f"ambiguous: {len(matches)} sections match '{hook.target['name']}' in the {scope}"
        if matches:
            if matches[0].id == hook.section_id:
                return None, None, "", "self-reference"
            return matches[0].doc_id, matches[0].id, f"heading names it ({scope})", ""
    titled = [d for d in index.titled(words) if d != hook.doc_id]
    if len(titled) == 1:
        return titled[0], None, "document title names it", ""
    if len(titled) > 1:
        return None, None, "", f"ambiguous: {len(titled)} documents are titled '{hook.target['name']}'"
    return None, None, "", "no document matches"


def resolve_hooks(index: ShelfIndex, hooks: list[Hook]) -> tuple[list[Hook], list[Link]]:
    """Resolve every hook: each becomes a link (status 'resolved') or stays open with its reason."""
    out_hooks, links = [], []
    for hook in hooks:
        dst_doc = dst_section = None
        reason = open_reason = ""
        if hook.kind == "document":
            doc_ids, how = index.lookup(hook.target["doc"])
            doc_ids = [d for d in doc_ids if index.docs[d].group != index.docs[hook.doc_id].group]
            if doc_ids:
                dst_doc, reason = index.head(doc_ids), f"{how} {hook.target['doc']}"
            elif index.lookup(hook.target["doc"])[0]:
                open_reason = "self-reference"
            else:
                open_reason = f"no document matches {hook.target['doc']}"
        elif hook.kind == "section":
            matches, scope, open_reason = _resolve_section(index, hook)
            if matches and not open_reason:
                dst_doc, dst_section = matches[0].doc_id, matches[0].id
                reason = f"{hook.target['label'].lower()} {hook.target['section']} in {scope}"
        else:
            dst_doc, dst_section, reason, open_reason = _resolve_named(index, hook)
        if dst_doc is None:
            out_hooks.append(hook.model_copy(update={"status": "open", "reason": open_reason}))
            continue
        kind = hook.relation
        if kind == "resolves" and dst_doc != hook.doc_id and index.docs[dst_doc].group != index.docs[hook.doc_id].group:
            kind = "cites"
        out_hooks.append(hook.model_copy(update={"status": "resolved", "reason": reason}))
        links.append(
            Link(
                id=link_id(kind, hook.section_id, dst_section or dst_doc, hook.id),
                kind=kind,
                src_doc=hook.doc_id,
                src_section=hook.section_id,
                dst_doc=dst_doc,
                dst_section=dst_section,
                evidence=hook.quote,
                reason=reason,
                hook_id=hook.id,
            )
        )
    return out_hooks, links


def _letters_digits(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0).lower(), m.start(), m.end()) for m in re.finditer(r"[A-Za-z0-9]+", text)]


def title_citations(index: ShelfIndex) -> list[Link]:
    """A document whose text carries another's full title (4+ words, letters and digits, whole words) cites it."""
    titles = {}
    for doc_id, doc in index.docs.items():
        words = [w for w, _, _ in _letters_digits(re.sub(r"^[A-Z]?[\d.]+\s+", "", doc.title))]
        if len(words) >= 4:
            titles.setdefault(tuple(words), []).append(doc_id)
    by_start: dict[tuple[str, str], list[tuple[str, ...]]] = defaultdict(list)
    for words in titles:  # titles by their first two words: a section is scanned once, not once per title
        by_start[words[:2]].append(words)
    links: list[Link] = []
    for doc_id in sorted(index.docs):
        for section in index.sections.get(doc_id, []):
            tokens = _letters_digits(section.text)
            if not tokens:
                continue
            plain = [w for w, _, _ in tokens]
            first_at: dict[tuple[str, ...], int] = {}
            for i in range(len(plain) - 1):
                for words in by_start.get((plain[i], plain[i + 1]), ()):
                    if words not in first_at and tuple(plain[i : i + len(words)]) == words:
                        first_at[words] = i
            for words in sorted(first_at):
                targets, first = titles[words], first_at[words]
                start, end = tokens[first][1], tokens[first + len(words) - 1][2]
                for target in targets:
                    if index.docs[target].group == index.docs[doc_id].group:
                        continue
                    evidence = normalise(section.text[start:end])
                    links.append(
                        Link(
                            id=link_id("cites", section.id, target, "title"),
                            kind="cites",
                            src_doc=doc_id,
                            src_section=section.id,
                            dst_doc=target,
                            evidence=evidence,
                            reason=f"full title '{index.docs[target].title}' in the text",
                        )
                    )
    return links


def code_citations(index: ShelfIndex) -> list[Link]:
    """Documents named by their code ('SOP-014', taken from the start of a title) in another document's text."""
    codes = {}
    for doc_id, doc in index.docs.items():
        for ident in doc.identifiers:
            found = whole(ident)
            if found and found.kind == "code":
                codes.setdefault(ident, []).append(doc_id)
    links: list[Link] = []
    if not codes:
        return links
    for doc_id in sorted(index.docs):
        for section in index.sections.get(doc_id, []):
            seen: set[str] = set()
            for sentence in sentences(section.text):
                for found in find_ids(sentence):  # any code-shaped identifier, then a dict lookup (one
                    code = found.label                 # regex of every code of the shelf grew with the shelf)
                    if found.kind != "code" or code not in codes:
                        continue
                    targets = [t for t in codes[code] if index.docs[t].group != index.docs[doc_id].group]
                    if not targets or code in seen or code in index.docs[doc_id].identifiers:
                        continue
                    seen.add(code)
                    kind = relation_in(sentence, found.start, "cites")
                    target = sorted(targets, key=lambda t: (bool(re.search(r"supersed|withdrawn|obsolete", index.docs[t].title, re.I)),
                                                            [-ord(c) for c in index.docs[t].title]))[0]
                    links.append(Link(id=link_id(kind, section.id, target, "code"), kind=kind, src_doc=doc_id,
                                      src_section=section.id, dst_doc=target, evidence=sentence,
                                      reason=f"document code {code} in the text"))
    return links
