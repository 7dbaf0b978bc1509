"""Document identifiers in text, and their one canonical key: the parser the hooks, the resolver, search and the
answering side share (so "PEP 484", ":pep:`484`" and ``pep-0484.rst`` are one document everywhere).

Two shapes (nothing here knows a shelf's documents):

    series  a published series and its number, always a document: RFC 6749 ([RFC6749], rfc6749.txt), PEP 484
            (:pep:`484`, :pep:`484#a-section`, pep-0484), BCP 225, STD 68, (NIST) SP 800-63B (Special Publication 800-63-3), FIPS 140-3
            (FIPS PUB 186-4), NISTIR 8062, ISO 9001 (ISO/IEC 27001, ISO 13485:2016), IEC 62304, IEEE 754
    code    an organization's code: two to six capitals (or two such groups, NW-AS), a hyphen, then two to five
            digits, perhaps a capital and further '-digits': QM-001, WI-022, SOP-014, NW-300A, CMP-2026-0016; a
            space stands for the hyphen only after a two-group prefix (NW-AS 210). The shape alone does not make a
            document (SHA-256 has it too): a code names one when a document of the shelf carries it

Not identifiers: a bare number or year (2017), a version (2.7.4, Python 3.9), a revision letter (Rev C), a formula
(H2O), a term written solid (AAL2, HS256), one digit after a hyphen (UTF-8, GPT-4).

``key`` is how they compare: lower case, the family's one name ('Special Publication' and 'NIST SP' are 'sp',
'FIPS PUB' is 'fips', 'ISO/IEC' is 'iso-iec'), then each run of letters or digits, digits without leading zeros,
joined by '-': 'RFC 6749', '[RFC6749]' and 'rfc6749' -> 'rfc-6749'; 'pep-0484' -> 'pep-484'; 'SP 800-63B' ->
'sp-800-63-b'; 'NW-AS 210' -> 'nw-as-210'. An ISO edition year is not part of it ('ISO 13485:2016' -> 'iso-13485').
``label`` is how a page writes one: 'RFC 6749', 'SP 800-63B', 'FIPS 140-3', 'SOP-014'.

Prose is read case-sensitively (an RFC is written 'RFC'; 'pep-0484' is the one lower-case form); paths and
lower-cased queries with ``ignore_case`` ('rfc6749.txt', 'sp800-63b/', 'sop-014-complaint-handling.docx').
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelfwise.compiler.prose import normalise

__all__ = ["DocumentId", "find_ids", "series_ids", "whole", "key", "label", "SERIES_WORDS"]

_START = r"(?<![A-Za-z0-9])"
_END = r"(?![A-Za-z0-9])"


def _pattern(sep: str) -> str:
    """The one pattern, with ``sep`` between a family and its number: '[\\s-]' in prose (an underscore there joins
    an anchor's words, 'ISO_IEC_10646'), '[\\s_-]' in paths ('nist_sp_800-63-3.pdf')."""
    series = (
        r"\[(?P<tag>RFC)(?P<tag_n>\d{1,5})\]"
        r"|:pep:`(?:[^`<]*<)?(?P<role_n>\d{1,4})(?:#[^`>]*)?>?`"
        rf"|{_START}(?P<rfc>RFC){sep}?0*(?P<rfc_n>\d{{2,5}}){_END}"
        rf"|{_START}(?P<pep>PEP|pep(?=[-_])){sep}?0*(?P<pep_n>\d{{1,4}}){_END}"
        rf"|{_START}(?P<bcp>BCP|STD)\s?0*(?P<bcp_n>\d{{1,4}}){_END}"
        rf"|{_START}(?P<sp>(?:NIST{sep}?)?(?:SP|Special\s+Publication)){sep}?(?P<sp_n>\d{{3,4}}-\d+[A-Za-z]?(?:-\d+)?(?:r\d+)?)(?![A-Za-z0-9]|-\d)"
        rf"|{_START}(?P<fips>FIPS(?:{sep}?PUB)?){sep}?(?P<fips_n>\d{{2,3}}(?:-\d+)?){_END}"
        rf"|{_START}(?P<nistir>NISTIR){sep}?(?P<nistir_n>\d{{3,5}}(?:-\d+)?){_END}"
        rf"|{_START}(?P<iso>ISO/IEC|ISO|IEC|IEEE){sep}?(?P<iso_n>\d{{3,5}}(?:[-.]\d+)*)(?::\d{{4}})?(?![A-Za-z0-9]|[-.:]\d)"
    )
    code = rf"{_START}(?<!-)(?P<code>(?:[A-Z]{{2,6}}-[A-Z]{{2,6}}[-\s]|[A-Z]{{2,6}}-)\d{{2,5}}[A-Z]?(?:-\d+)*)(?![A-Za-z0-9]|-\d)"
    return f"{series}|{code}"


_PROSE = re.compile(_pattern(r"[\s-]"))
_ANY_CASE = re.compile(_pattern(r"[\s_-]"), re.IGNORECASE)
_PEP_LIST = re.compile(r"\bPEPs\s+(?P<list>\d{1,4}(?:\s*(?:,|,?\s*and|,?\s*or)\s*\d{1,4})+)")
_FAMILIES = {"rfc": "RFC", "tag": "RFC", "pep": "PEP", "role": "PEP", "bcp": None, "sp": "SP", "fips": "FIPS",
             "nistir": "NISTIR", "iso": None}
"""Match group -> the family's label (None: as written, upper-cased: BCP or STD, ISO, ISO/IEC, IEC or IEEE)."""
SERIES_WORDS = frozenset({"RFC", "PEP", "BCP", "STD", "SP", "FIPS", "NISTIR", "ISO", "IEC", "IEEE"})
"""The series' words: a capitalised word that starts a series identifier, never a name's."""


@dataclass(frozen=True)
class DocumentId:
    """One document identifier found in a text."""

    kind: str
    """'series' (always a document) or 'code' (a document when one of the shelf carries it)."""
    label: str
    """How a page writes it: 'RFC 6749', 'SP 800-63B', 'SOP-014'."""
    text: str
    """As written ('[RFC6749]', 'pep-0484', 'Special Publication 800-63-3')."""
    start: int
    end: int

    @property
    def key(self) -> str:
        return key(self.label)


def _family_label(group: str, written: str, number: str) -> str:
    family = _FAMILIES[group] or written.upper()
    if group in ("rfc", "tag", "pep", "role", "bcp"):
        return f"{family} {int(number)}"
    if group == "sp":
        return f"SP {number.upper()}"
    return f"{family} {number}"


def _of(match: re.Match) -> DocumentId:
    if match.group("code"):
        return DocumentId("code", normalise(match.group("code").upper()), match.group(0), match.start(), match.end())
    group = next(g for g in _FAMILIES if match.group(f"{g}_n"))
    written = match.group(group) if group != "role" else "PEP"
    return DocumentId("series", _family_label(group, written, match.group(f"{group}_n")), match.group(0), match.start(), match.end())


def find_ids(text: str, *, ignore_case: bool = False, codes: bool = True) -> list[DocumentId]:
    """The document identifiers in ``text``, in order (``codes=False``: the series only); 'PEPs 484 and 526'
    gives both PEPs, each with the whole list's span."""
    pattern = _ANY_CASE if ignore_case else _PROSE
    found = [_of(m) for m in pattern.finditer(text)]
    if not codes:
        found = [f for f in found if f.kind == "series"]
    for match in _PEP_LIST.finditer(text):
        found += [DocumentId("series", f"PEP {int(n)}", match.group(0), match.start(), match.end())
                  for n in re.findall(r"\d{1,4}", match.group("list"))]
    return sorted(set(found), key=lambda f: (f.start, f.label, f.end))


def series_ids(text: str, *, ignore_case: bool = False) -> list[DocumentId]:
    """``find_ids`` without the codes: the identifiers that always name a document."""
    return find_ids(text, ignore_case=ignore_case, codes=False)


def whole(text: str, *, ignore_case: bool = False, codes: bool = True) -> DocumentId | None:
    """The identifier ``text`` is, when the whole of it (stripped) is one ('[RFC6749]', 'SOP-014'), else None."""
    stripped = text.strip()
    match = (_ANY_CASE if ignore_case else _PROSE).fullmatch(stripped)
    found = _of(match) if match else None
    return found if found and (codes or found.kind == "series") else None


def label(text: str) -> str | None:
    """The label of ``text`` when the whole of it is one identifier, in any case ('rfc6749' -> 'RFC 6749'), else None."""
    found = whole(text) or whole(text, ignore_case=True)
    return found.label if found else None


_ALIASES = (("special publication", "sp"), ("nist sp", "sp"), ("fips pub", "fips"))


def key(text: str) -> str:
    """The canonical key of an identifier as any of its forms writes it (see the module text); any other text
    keys the same way without the family aliases ('HS256' -> 'hs-256', 'T1078.003' -> 't-1078-3')."""
    named = label(text)
    plain = normalise((named or text).lower().replace("_", " "))
    for alias, family in _ALIASES:
        if plain.startswith(alias):
            plain = family + plain[len(alias):]
    parts = re.findall(r"[a-z]+|\d+", plain)
    return "-".join((p.lstrip("0") or "0") if p.isdigit() else p for p in parts)
