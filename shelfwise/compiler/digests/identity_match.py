"""Which documents a question names by who and when they are: "Apple's Q3 2023 10-Q", "Intel's most recent 10-Q",
"for the quarter ended April 1, 2023", "the most recent filing".

A question names documents by their identity (``shelfwise.compiler.digests.identity``) the way it names them by an
identifier: its issuer (the company's name or a shorter form of it, "Apple" for Apple Inc., or the ticker the file
name and cover give, "AAPL"; written with its capitals, as whole words), its form ("10-Q"), and its period: a date
the period ends on or takes effect ("the quarter ended April 1, 2023", "as of July 1, 2023"), a fiscal quarter ("Q3
2023", "the third quarter of 2023", "fiscal 2023 Q3"), or the newest or oldest of them ("the most recent", "latest",
"earliest"; but not when it is compared with the ones before it, "the most recent quarter compared to previous
quarters"). ``IdentityMatch.find`` returns the documents that agree with everything the text gives; a text that
gives only a period or a recency word binds among the documents that have a period (a recency word alone: among those that also have an issuer or a
form, so "the latest revision" of a shelf of dated procedures binds nothing here), and one that gives only an issuer
binds all of that issuer's documents. A text that gives none of these binds nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelfwise.compiler.digests.identity import DATE, fiscal_quarter, parse_date
from shelfwise.compiler.store.records import DocumentIdentity

__all__ = ["IdentityMatch", "bound_by_identity", "periods_named", "reports_period"]

_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_QUARTER_WORDS = re.compile(r"\b(?P<n>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?)?(?P<y>(?:19|20)\d\d)\b", re.I)
_FISCAL_Q = re.compile(r"\b(?:fiscal\s+(?:year\s+)?|FY\s*)(?P<y>(?:19|20)\d\d)\s+Q(?P<n>[1-4])\b|\bQ(?P<n2>[1-4])\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?|FY\s*)(?P<y2>(?:19|20)\d\d)\b", re.I)
_NEWEST = re.compile(r"\b(?:most\s+recent|latest|newest)\b", re.I)
_OLDEST = re.compile(r"\b(?:earliest|oldest)\b", re.I)
_AND_EARLIER = re.compile(r"\b(?:previous|prior|earlier|preceding|past|other)\s+(?:\w+\s+)?(?:quarters|periods|filings|reports|years|10-?[QK]s)\b", re.I)
"""The newest compared with the ones before it ("the most recent 10-Q compared to the previous quarters"): all of them."""
_AND_OTHERS = re.compile(r"\b(?:other|peer|rival|competing)\s+(?:\w+\s+)?(?:companies|company's|companies'|issuers|firms|filers|registrants)\b|"
                         r"\b(?:peers|competitors|rivals)\b", re.I)
"""A named issuer compared with the others ("How does Apple's R&D compare with its peers?"): every issuer's documents."""
_FILED = r"filings?|reports?|quarters?|quarterly|annual|statements?|periods?"
_FILED_WORDS = re.compile(rf"\b(?:{_FILED}|filed)\b", re.I)
"""What a recency word must be said of to bind issued documents without a named issuer or form ("the most recent
filing"); "the latest revision of the handbook" is another document's version, not a filing."""
_RECENT_OF = re.compile(rf"(?:{_NEWEST.pattern}|{_OLDEST.pattern})(?:\s+(?:fiscal\s+)?(?:{_FILED}|10-?[QK]s?)){{0,2}}\b", re.I)
"""A recency word with the words naming what it is said of ("most recent quarter", "latest quarterly report")."""
_DATES = re.compile(DATE, re.I)


def _form(form: str) -> str:
    """A form as a text may write it: "10-Q", "10Q", "10-Qs"."""
    return rf"(?<![\w-]){re.escape(form).replace('-', '-?')}s?(?![\w-])"

_POINTS = ("effective", "as of")
"""Period kinds that are a day, not a period a document reports figures for."""


def periods_named(text: str) -> dict[str, str]:
    """The periods ``text`` names, as written -> their key: a date ("September 30, 2023" -> "2023-09-30") or a fiscal
    quarter ("Q3 2023", "the third quarter of 2023", "fiscal 2023 Q3" -> "Q3 2023")."""
    out = {}
    for match in _DATES.finditer(text):
        day = parse_date(match.group(0))
        if day:
            out[match.group(0)] = day.isoformat()
    for match in re.finditer(r"\b(?:(?:19|20)\d\d\s*Q[1-4]|Q[1-4]\s*(?:19|20)\d\d)\b", text, re.I):
        out[match.group(0)] = fiscal_quarter(match.group(0))
    for match in _QUARTER_WORDS.finditer(text):
        out[match.group(0)] = f"Q{_ORDINAL[match.group('n').lower()]} {match.group('y')}"
    for match in _FISCAL_Q.finditer(text):
        out[match.group(0)] = f"Q{match.group('n') or match.group('n2')} {match.group('y') or match.group('y2')}"
    return out


@dataclass(frozen=True)
class _Asked:
    issuers: frozenset[str]  # ids of documents of the issuers the text names
    form: str
    dates: frozenset[str]
    quarters: frozenset[str]
    recency: str  # "newest", "oldest" or ""


class IdentityMatch:
    """The identities of a set of documents, ready to match texts against (built once per plan)."""

    def __init__(self, identities: dict[str, DocumentIdentity]):
        self.identities = identities
        self.names: dict[str, set[str]] = {}
        for doc_id, identity in identities.items():
            for name in [identity.issuer, *identity.aliases] if identity.issuer else []:
                self.names.setdefault(name, set()).add(doc_id)
        self.forms = {i.form for i in identities.values() if i.form}

    def issuer_documents(self, text: str) -> set[str]:
        """Ids of the documents whose issuer ``text`` names, by its name or another name of it ("Intel", "INTC"); every
        issuer's when it compares the one it names with the others ("... compare with its peers", ``_AND_OTHERS``)."""
        issuers: set[str] = set()
        for name, docs in self.names.items():
            if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w-])", text):
                issuers |= docs
        if issuers and _AND_OTHERS.search(text):
            return set().union(*self.names.values())
        return issuers

    def _asked(self, text: str) -> _Asked:
        issuers = self.issuer_documents(text)
        form = next((f for f in sorted(self.forms) if re.search(_form(f), text, re.I)), "")
        periods = set(periods_named(text).values())
        dates = {p for p in periods if not p.startswith("Q")}
        quarters = periods - dates
        recency = ""
        if (_FILED_WORDS.search(text) or issuers or form) and not _AND_EARLIER.search(text):
            recency = "newest" if _NEWEST.search(text) else "oldest" if _OLDEST.search(text) else ""
        return _Asked(frozenset(issuers), form, frozenset(dates), frozenset(quarters), recency)

    def find(self, text: str) -> set[str]:
        """Ids of the documents ``text`` names by issuer, form and period (see the module text)."""
        return self._bound(self._asked(text))

    def _bound(self, asked: _Asked) -> set[str]:
        if not (asked.issuers or asked.dates or asked.quarters or asked.recency):
            return set()
        if asked.issuers:
            pool = set(asked.issuers)
        elif asked.dates or asked.quarters:
            pool = {d for d, i in self.identities.items() if i.period_end or i.fiscal_quarter}
        else:  # "the most recent filing": among the documents an issuer filed on a form, not every dated one
            pool = {d for d, i in self.identities.items() if i.period_end and (i.issuer or i.form)}
        if asked.form:
            pool = {d for d in pool if self.identities[d].form == asked.form}
        if asked.dates:
            pool = {d for d in pool if self.identities[d].period_end in asked.dates}
        if asked.quarters:
            pool = {d for d in pool if self.identities[d].fiscal_quarter in asked.quarters}
        if asked.recency and pool:
            pool = self._extreme(pool, asked.recency)
        return pool

    def naming_words(self, text: str, bound: bool = False) -> list[str]:
        """The stretches of ``text`` that say which of the documents it binds (``find``) to read without saying what to
        find in them: the form ("10-Q") and a recency word with what it is said of ("most recent quarter", "latest
        10-Q"). "What revenue did Intel report in the most recent quarter?" is about revenue; a certification's "based on
        our most recent evaluation ... this quarterly report" is not. The issuer's names and a period the text writes
        ("Q3 2022") stay words to find: a filing's sentences name the company and the periods of their figures ("$7.3
        billion and $11.4 billion for Q3 2021 and Q3 2022"), and leaving them out lost more answers than it gained.
        ``bound``: the text is already bound to documents (a part of a question that named them: "What legal proceedings
        ... are disclosed in these 10-Qs" of "... how might they impact Apple?"), so its form says which, whatever it
        names itself."""
        asked = self._asked(text)
        if not bound and not self._bound(asked):
            return []
        spans = [m.group(0) for form in self.forms for m in re.finditer(_form(form), text, re.I)]
        if asked.recency:  # none when the newest is compared with the ones before it (``_AND_EARLIER``)
            spans += [m.group(0) for m in _RECENT_OF.finditer(text)]
        # the longest first: taken out of the text in this order, "10-Q" taken first left "most recent" of "most recent
        # 10-Q" behind as words to find (and a certification's "our most recent evaluation" answered for it)
        return sorted(set(spans), key=lambda span: (-len(span), text.find(span)))

    def without_period(self, text: str) -> set[str]:
        """When ``text`` names a period (a date or a quarter) that no document has, the documents reporting a period it
        would have named otherwise: those of the issuer (and form) it names, or every one when it names none; else
        empty. A document that takes effect or is stated as of a date reports no period ("on 15 September 2026" asks
        about a day, not about a procedure effective January 15, 2026)."""
        asked = self._asked(text)
        if not (asked.dates or asked.quarters) or self._bound(asked):
            return set()
        pool = set(asked.issuers) if asked.issuers else set(self.identities)
        return {d for d in pool if self.reports_period(d) and (not asked.form or self.identities[d].form == asked.form)}

    def reports_period(self, doc_id: str) -> bool:
        """Whether the document reports figures for a period (a quarter, a fiscal year), not a day it takes effect on."""
        identity = self.identities.get(doc_id)
        return identity is not None and reports_period(identity)

    def _extreme(self, pool: set[str], recency: str) -> set[str]:
        """The newest (oldest) dated documents of ``pool``, per issuer: "the most recent filing" of a shelf of three
        companies' filings is each company's latest."""
        by_issuer: dict[str, list[str]] = {}
        for doc in pool:
            if self.identities[doc].period_end:
                by_issuer.setdefault(self.identities[doc].issuer, []).append(doc)
        out = set()
        for docs in by_issuer.values():
            pick = max if recency == "newest" else min
            edge = pick(self.identities[d].period_end for d in docs)
            out |= {d for d in docs if self.identities[d].period_end == edge}
        return out


def reports_period(identity: DocumentIdentity) -> bool:
    """Whether a document of this identity reports figures for a period (a quarter, a fiscal year), not a day it takes
    effect on or is stated as of (``_POINTS``)."""
    return bool(identity.period_end or identity.fiscal_quarter) and identity.period_kind not in _POINTS


def bound_by_identity(text: str, identities: dict[str, DocumentIdentity]) -> set[str]:
    """``IdentityMatch(identities).find(text)``, for one text."""
    return IdentityMatch(identities).find(text)
