"""Who and when a document is, from everything it says about itself: its cover page, its file name and its title.

A reader's title is often not a name: PDF metadata holds an accession number ("0000320193-23-000006"), a date and a
form code ("04.01.2023 10Q Document") or a file name. The cover page says who issued the document and what period it
covers ("Apple Inc." over "(Exact name of registrant as specified in its charter)", "For the quarterly period ended
July 1, 2023"), and so may the file name ("2023 Q3 AAPL.pdf"). ``identify`` reads them into a ``DocumentIdentity``
that records where each part came from; its ``name`` ("Apple Inc. 10-Q, quarter ended July 1, 2023") is the one
name the site, the answers, search and the planner call the document by.

The rules are general English cover-page conventions, none for one issuer:

- **issuer**: the line a cover labels as the name of the registrant, issuer or company (the label on the next line,
  "(Exact name of registrant ...)", or before a colon, "Issuer: ..."); else, in a document that names a form or a
  period, a part of the title or a cover line that is a company name by itself (it ends in a legal form: Inc.,
  Corporation, Ltd., LLC, plc, GmbH ...).
- **form**: "FORM 10-Q" on the cover (a form code holds a digit).
- **period**: "for the quarterly period / fiscal year / six months ended DATE", else "effective (date) DATE", else
  "as of DATE" on the cover; the file name's or title's fiscal quarter ("2023 Q3", "Q1 FY2024") beside it; a
  revision or version on a short cover line ("Rev D", "Version 2.1"), not a field naming another thing's version
  ("Python-Version: 3.5"); else an edition the front matter states ("Second Edition" on a short line, "This is
  Edition 0.77, last updated ..." in a manual's copying notice). The front matter is a book's first ``FRONT_PAGES``
  pages: half-title, its blank verso, title page and the copyright page behind it, where an edition is stated.
- **title**: the reader's title, unless it is an identifier or a file-system artefact (no words once identifiers,
  dates, form codes and words like "document" or "final" are taken out, or the file's own name when it is not written
  as words: "Q3_report_v2", "Top10Mapping"); then the issuer with
  the form, else the first heading of the cover.
- **name**: "ISSUER FORM, PERIOD" when the issuer and the form are known; else the title, and its revision or edition
  when the title does not say it ("GNU Make Edition 0.77": two editions of one manual keep one title).
- **label**, where space is short: the name when it is "ISSUER FORM, PERIOD", else the title's short name (its code and
  revision, "QM-001 Rev D": ``shelfwise.compiler.digests.names.short_name``), with the edition the title does not say.

Computed from the stored title, path and front-matter sections (``identity_stage``): cheap, and an existing store gets
it on its next build without reconverting or re-embedding anything.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import PurePosixPath


from shelfwise.compiler.digests.names import short_name
from shelfwise.compiler.prose import normalise
from shelfwise.compiler.store.records import IDENTITY_RULES, DocumentIdentity

__all__ = ["identify", "cover_lines", "parse_date", "date_words", "issuer_aliases",
           "bad_title", "fiscal_quarter", "identity_stage", "document_name", "front_lines", "FRONT_PAGES"]


COVER_LINES = 80
"""How many lines of a document's opening (its first page's sections) are read as its cover."""

_MONTHS = {m: n for n, names in enumerate([("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
                                           ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
                                           ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
                                           ("december", "dec")], start=1) for m in names}
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
DATE = rf"(?:{_MONTH}\s+\d{{1,2}},?\s+(?:19|20)\d\d|\d{{1,2}}\s+{_MONTH},?\s+(?:19|20)\d\d|(?:19|20)\d\d-\d\d-\d\d)"
"""A date written out: "July 1, 2023", "1 July 2023", "2023-07-01"."""
_DATE = re.compile(DATE, re.I)

_ENDED = re.compile(rf"\bfor\s+the\s+(?P<what>quarterly\s+period|fiscal\s+quarter|quarter|three\s+months|six\s+months|"
                    rf"nine\s+months|twelve\s+months|fiscal\s+year|year|transition\s+period|period)\s+ended:?\s+(?P<date>{DATE})", re.I)
_EFFECTIVE = re.compile(rf"\beffective(?:\s+date)?\s*:?\s*(?:as\s+of\s+|on\s+|from\s+)?(?P<date>{DATE})", re.I)
_AS_OF = re.compile(rf"\bas\s+(?:of|at)\s+(?P<date>{DATE})", re.I)
_REVISION = re.compile(r"(?<![\w-])(?P<word>Rev(?:ision)?\.?|Version)\s*:?\s*(?P<rev>[A-Z]|\d+(?:\.\d+)*[a-z]?)\b")
_ORDINALS = {w: n for n, w in enumerate("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(), 1)}
_EDITION = re.compile(rf"(?<![\w-])(?:Edition\s+(?P<number>\d+(?:\.\d+)*)\b|(?P<ordinal>{'|'.join(_ORDINALS)}|\d+(?:st|nd|rd|th))\s+Edition\b)", re.I)
_STATES_EDITION = re.compile(r"^This\s+(?:is|document\s+is|manual\s+is)\s+(?:the\s+)?", re.I)
"""A front-matter sentence that says which edition the document itself is ("This is Edition 0.75, last updated ...",
"This is the second edition"), not one mentioning another's."""
FRONT_PAGES = 4
_KINDS = {"quarterly period": "quarter", "fiscal quarter": "quarter", "quarter": "quarter", "three months": "quarter",
          "six months": "six months", "nine months": "nine months", "twelve months": "year", "fiscal year": "fiscal year",
          "year": "fiscal year", "period": "period"}

_FORM = re.compile(r"^(?:\W*)form\s+(?P<form>[0-9A-Z]{1,4}(?:-[0-9A-Z]{1,4})?)\s*$", re.I)
_QUARTER = re.compile(r"(?<![A-Za-z0-9])(?:(?P<y1>(?:19|20)\d\d)[\s_-]*Q(?P<q1>[1-4])|Q(?P<q2>[1-4])[\s_-]*(?:FY[\s_-]*)?(?P<y2>(?:19|20)\d\d))(?![0-9])", re.I)
_LEGAL = (r"(?:Inc\.?|Incorporated|Corp\.?|Corporation|Co\.|Company|Ltd\.?|Limited|LLC|L\.L\.C\.|LLP|LP|L\.P\.|plc|Plc|PLC|"
          r"GmbH|AG|S\.A\.|SA|N\.V\.|NV|B\.V\.|SE|S\.p\.A\.|Pty\.? Ltd\.?|Holdings)")
_ENTITY = re.compile(rf"^[A-Z0-9][\w&.,'’ -]{{1,60}}?,?\s+{_LEGAL}$")
"""A company's name by itself, as a sentence writes it (``_entity_case``): "Example Widgets Corp.", "Acme Holdings AG"."""
_ISSUER_LABEL = re.compile(r"^\(?\s*(?:exact\s+)?name\s+of\s+(?:the\s+)?(?:registrant|issuer|company|guarantor)\b", re.I)
_ISSUER_FIELD = re.compile(r"^(?:issuer|registrant|company|publisher|issued\s+by|published\s+by)\s*:\s*(?P<name>.+)$", re.I)
_ARTEFACT_WORDS = frozenset("""document doc file scan scanned copy final draft version rev untitled report filing form pdf
docx print printed page pages attachment exhibit""".split())
_FILE_SUFFIX = re.compile(r"\.(?:pdf|docx?|pptx?|xlsx?|odt|txt|md|rst|html?|tex|dvi)$", re.I)


def parse_date(text: str) -> date | None:
    """The date ``text`` writes ("July 1, 2023", "1 July 2023", "2023-07-01"), or None."""
    text = normalise(text).strip(" .,")
    iso = re.fullmatch(r"((?:19|20)\d\d)-(\d\d)-(\d\d)", text)
    parts = re.findall(r"[A-Za-z]+|\d+", text)
    try:
        if iso:
            return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
        month = next(_MONTHS[p.lower().rstrip(".")] for p in parts if p.lower() in _MONTHS)
        day, year = [int(p) for p in parts if p.isdigit()][:2]  # "July 1, 2023" and "1 July 2023" alike
        return date(year, month, day)
    except (StopIteration, ValueError):
        return None


def date_words(day: date) -> str:
    """'July 1, 2023'."""
    return f"{day.strftime('%B')} {day.day}, {day.year}"


def cover_lines(sections, pages: int = 1) -> list[str]:
    """The lines of a document's opening: the headings and paragraph lines of the sections on its first ``pages``
    pages (all the sections of a format without pages), the root's title left out, at most ``COVER_LINES``."""
    lines: list[str] = []
    for section in sections:
        if section.level == 0 and not section.blocks:
            continue
        if section.page_start is not None and section.page_start > pages:
            break
        for text in [section.heading if section.level else "", *(b.text for b in section.blocks)]:
            lines += [line for line in (normalise(part) for part in str(text).split("\n")) if line]
        if len(lines) >= COVER_LINES:
            break
    return lines[:COVER_LINES]


def _entity_case(name: str) -> str:
    """A company name as it is written in a sentence: an all-capitals cover line in title case ("AMAZON.COM, INC." ->
    "Amazon.com, Inc."), short all-capital words kept ("AT&T", "IBM"); a mixed-case name as it is."""
    if not name.isupper():
        return name
    words = []
    for word in name.split():
        letters = re.sub(r"[^A-Za-z]", "", word)
        keep = len(letters) <= 3 and letters.lower() not in {"inc", "co", "ltd", "the", "and", "of", "plc"}
        words.append(word if keep else word[:1] + word[1:].lower())
    return " ".join(words)


def _issuer(lines: list[str], title: str, reported: bool) -> tuple[str, str]:
    """(issuer, where it was read) — see the module text."""
    for n, line in enumerate(lines):
        field = _ISSUER_FIELD.match(line)
        if field and len(field.group("name").split()) <= 8:
            return _entity_case(field.group("name").strip(" .")), "cover page"
        if n and _ISSUER_LABEL.match(line) and len(lines[n - 1].split()) <= 8 and not _ISSUER_LABEL.match(lines[n - 1]):
            return _entity_case(lines[n - 1].strip()), "cover page"
    if not reported:
        return "", ""
    for part in re.split(r"\s+[-–—|]\s+|:\s+", title):
        if _ENTITY.match(_entity_case(part.strip())) and len(part.split()) <= 6:
            return _entity_case(part.strip()), "title"
    for line in lines:
        if _ENTITY.match(_entity_case(line)) and len(line.split()) <= 6:
            return _entity_case(line), "cover page"
    return "", ""


def issuer_aliases(issuer: str) -> list[str]:
    """Shorter names of a company a question calls it by: without its legal form ("Apple Inc." -> "Apple") and
    without a web domain ("Amazon.com, Inc." -> "Amazon.com", "Amazon")."""
    if not issuer:
        return []
    bare = re.sub(rf"(?:,?\s+{_LEGAL})+$", "", issuer, flags=re.I).strip(" ,")
    names = [bare] if bare and bare != issuer else []
    domainless = re.sub(r"\.(?:com|net|org|io)$", "", bare, flags=re.I)
    if domainless and domainless != bare:
        names.append(domainless)
    return [n for n in names if len(n) >= 2]


def fiscal_quarter(text: str) -> str:
    """The fiscal quarter ``text`` writes ("2023 Q3", "Q3 2023", "q3_fy2023") as 'Q3 2023', or ''."""
    found = _QUARTER.search(text)
    if not found:
        return ""
    return f"Q{found.group('q1') or found.group('q2')} {found.group('y1') or found.group('y2')}"


def bad_title(title: str, path: str) -> bool:
    """Whether a reader's title is no name: an identifier, a date and a form code, or a file-system artefact (see the
    module text)."""
    title = normalise(title)
    stem = PurePosixPath(path).name.rsplit(".", 1)[0] if path else ""
    if not title or _FILE_SUFFIX.search(title) or (stem and title == stem and " " not in stem and re.search(r"[_\d]|[a-z][A-Z]", stem)):
        return True
    rest = _DATE.sub(" ", title)
    rest = re.sub(r"\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b", " ", rest)
    rest = re.sub(r"\b[0-9A-Z]*\d[0-9A-Z-]*\b", " ", rest)  # identifiers and form codes ("0000320193-23-000006", "10Q")
    words = [w for w in re.findall(r"[A-Za-z]+", rest) if w.lower() not in _ARTEFACT_WORDS]
    return not words


def _period(lines: list[str]) -> tuple[str, str, str]:
    """(kind, ISO end date, words) of the period or date the cover gives, or empty strings."""
    text = " ".join(lines)
    for pattern, given in ((_ENDED, ""), (_EFFECTIVE, "effective"), (_AS_OF, "as of")):
        for found in pattern.finditer(text):
            day = parse_date(found.group("date"))
            kind = given or _KINDS.get(" ".join(found.group("what").lower().split()), "")
            if day is None or not kind:  # "for the transition period ended ...": a box left unticked on a cover
                continue
            words = kind if given else f"{kind} ended"
            return kind, day.isoformat(), f"{words} {date_words(day)}"
    return "", "", ""


def _revision(lines: list[str], title: str, front: list[str] = ()) -> tuple[str, str]:
    """The revision, version or edition the title or a short cover line gives, else the edition the front matter
    states (``_STATES_EDITION``), and where it was read."""
    for text, where in [(title, "title"), *((line, "cover page") for line in lines if len(line.split()) <= 8)]:
        found = _REVISION.search(text)
        if found:
            word = "Rev" if found.group("word").lower().startswith("rev") else "Version"
            return f"{word} {found.group('rev')}", where
        edition = _edition(text)
        if edition:
            return edition, where
    for line in front:
        start = _STATES_EDITION.match(line)
        if start:  # the edition right after "This is (the)"
            edition = _edition(line[start.end():]) if _EDITION.match(line, start.end()) else ""
        else:
            edition = _edition(line) if len(line.split()) <= 8 else ""
        if edition:
            return edition, "front matter"
    return "", ""


def _edition(text: str) -> str:
    """'Edition 0.77' of "Edition 0.77" or "GNU Make, Edition 0.77"; 'Edition 2' of "Second Edition" or "2nd edition"."""
    found = _EDITION.search(text)
    if not found:
        return ""
    if found.group("number"):
        return f"Edition {found.group('number')}"
    ordinal = found.group("ordinal").lower()
    return f"Edition {_ORDINALS.get(ordinal) or int(re.sub(r'[a-z]+$', '', ordinal))}"


def front_lines(sections) -> list[str]:
    """The lines of a document's front matter: its opening's lines on its first ``FRONT_PAGES`` pages."""
    return cover_lines(sections, FRONT_PAGES)


def _cover_title(lines: list[str], sections) -> str:
    """The first heading of the cover that is more than a form label, a date or an address line."""
    for section in sections:
        if section.level == 0 or (section.page_start or 1) > 1:
            continue
        heading = normalise(section.heading)
        if heading and not bad_title(heading, "") and not _FORM.match(heading) and not _DATE.fullmatch(heading):
            return heading
    return ""


def identify(doc_id: str, title: str, path: str, sections) -> DocumentIdentity:
    """A document's identity from its stored title, its path and its sections in order (the first page is read)."""
    title = normalise(title or "")
    lines = cover_lines(sections)
    sources: dict[str, str] = {}
    form = next((m.group("form").upper() for m in map(_FORM.match, lines) if m and re.search(r"\d", m.group("form"))), "")
    if form:
        sources["form"] = "cover page"
    kind, end, period = _period(lines)
    if period:
        sources["period"] = "cover page"
    stem = PurePosixPath(path).name.rsplit(".", 1)[0] if path else ""
    quarter, where = (fiscal_quarter(stem), "file name") if fiscal_quarter(stem) else (fiscal_quarter(title), "title")
    if quarter:
        sources["fiscal_quarter"] = where
    issuer, where = _issuer(lines, title, bool(form or period))
    if issuer:
        sources["issuer"] = where
    revision, where = _revision(lines, title, front_lines(sections))
    if revision:
        sources["revision"] = where
    aliases = issuer_aliases(issuer)
    cover = " ".join(lines)
    for token in re.findall(r"(?<![A-Za-z])[A-Z]{2,5}(?![A-Za-z])", stem) if issuer else []:
        if not re.fullmatch(r"Q[1-4]|FY", token) and re.search(rf"(?<![A-Za-z]){token}(?![A-Za-z])", cover):
            aliases.append(token)  # a ticker in the file name that the cover lists ("2023 Q3 AAPL.pdf")
            sources["aliases"] = "file name and cover page"
    shown = title
    if bad_title(title, path):
        shown = f"{issuer} {form}".strip() if issuer and form else (_cover_title(lines, sections) or title)
        sources["title"] = "cover page" if shown != title else "title"
    else:
        sources["title"] = "title"
    name = shown
    if issuer and form:
        name = f"{issuer} {form}" + (f", {period}" if period else f", {quarter}" if quarter else "")
        sources["name"] = "issuer, form and period"
    else:
        sources["name"] = "title"
    label = name if issuer and form else short_name(shown, path)
    if revision and not (issuer and form) and not _says_revision(shown, revision) and not _says_revision(label, revision):
        name, label = f"{name} {revision}", f"{label} {revision}"  # "GNU Make Edition 0.77": editions share a title
        sources["name"] = "title and " + where
    return DocumentIdentity(doc_id=doc_id, name=name, label=label, title=shown, issuer=issuer, form=form, period=period,
                            period_kind=kind, period_end=end, fiscal_quarter=quarter, revision=revision,
                            aliases=list(dict.fromkeys(aliases)), sources=sources)


def _says_revision(text: str, revision: str) -> bool:
    """Whether ``text`` already says ``revision`` ('Apache License 2.0' says 'Version 2.0'; 'QM-001 Rev D' says 'Rev D')."""
    value = revision.split()[-1]
    return bool(re.search(rf"(?<![\w.]){re.escape(value)}(?![\w.])", text))


def document_name(row: dict) -> str:
    """The name to show for a documents row: its identity's (``Store.documents`` joins it in), else its title."""
    return str(row.get("name") or row.get("title") or row.get("doc_id", ""))


def identity_stage(store, changed=(), progress=None) -> dict:
    """Compute the identity of every document that has none, was changed, or was made by other ``IDENTITY_RULES``; returns
    what it did. Reads only the stored title, path and first-page sections."""
    stored, changed = store.identities(), set(changed)
    rows = {d["doc_id"]: d for d in store.documents()}
    todo = sorted(d for d in rows if d in changed or d not in stored or stored[d].rules != IDENTITY_RULES)
    made = [identify(doc_id, rows[doc_id]["title"], rows[doc_id]["path"], store.cover_sections(doc_id, pages=FRONT_PAGES)) for doc_id in todo]
    store.put_identities(made)
    if progress and made:
        progress(f"identity: {len(made)} documents named")
    return {"documents": len(made), "named_by_issuer": sum(1 for m in made if m.issuer and m.form), "rules": IDENTITY_RULES}
