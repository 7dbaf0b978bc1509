"""The assertion ledger: each section turned into assertions that keep their verbatim sentence.

Kinds: definition, rule (conditions, exceptions, thresholds), finding, step (of an
ordered procedure), dependency and supersession. ``extract_rules`` is the
model-free extractor (patterns over sentences, definition lists and glossaries,
numbered steps, header fields); ``shelfwise.compiler.ledger.model`` is the model path. Both
go through ``verify``: an assertion whose quote does not stand in the section
text (whitespace-normalised) is rejected and counted, never stored.
"""

from __future__ import annotations

import re


from shelfwise.compiler.language.force import KEYWORDS, RULE_MODALS
from shelfwise.compiler.language.numbers import CARDINALS, alternation
from shelfwise.compiler.prose import normalise, sentences
from shelfwise.compiler.store.records import Section, Threshold, Assertion, Extraction

__all__ = [
    "RULES_VERSION",
    "normalise",
    "sentences",
    "find_thresholds",
    "bound_of",
    "verify",
    "extract_rules",
]

RULES_VERSION = "rules-5"  # rules-5: every cardinal of shelfwise.compiler.language.numbers is a threshold's number ("forty days"); rules-4: definition list items, no split after a run-in "REQUIRED."; a negated bound keeps its negation ("never less than fifteen years"); rules-2: sentences from shelfwise.compiler.prose (no split after "Jan." before a day, "No." before a number)


_NUMBER_WORDS = alternation(CARDINALS)
_UNITS = (
    r"%|percent|per cent|seconds?|secs?|milliseconds?|ms|minutes?|mins?|hours?|days?|weeks?|months?|years?|"
    r"characters?|chars?|bits?|bytes?|octets?|digits?|attempts?|tries|times|KB|MB|GB|KiB|MiB|GiB|"
    r"requests?|entries|items|words|lines|pages|USD|dollars|euros?|kg|g|mg|km|m|cm|mm"
)
_COMPARISON = r"(?:less|fewer|more|greater|longer|shorter|later|earlier|sooner|lower|higher)\s+than"
_COMPARATOR = (
    # a negated bound first ("never less than", "no later than", "not to exceed", "shall not exceed"): the negation is
    # part of the comparator, or the bound would read as its opposite
    rf"(?:not|never|no|nor)\s+{_COMPARISON}|(?:not|never)\s+(?:to\s+)?exceed(?:ing|s)?|"
    r"(?:does|do|did|shall|must|will|may|should|can|could|would)\s+(?:not|never)\s+exceed|"
    r"(?:not|never)\s+(?:over|under|below|above)|"
    rf"at least|at most|{_COMPARISON}|up to|a minimum of|a maximum of|minimum of|maximum of|exceed(?:ing|s)?|within|"
    r"over|under|below|above"
)
_THRESHOLD = re.compile(
    rf"(?P<cmp>\b(?:{_COMPARATOR})\s+)?"
    rf"(?P<num>\b\d+(?:[.,]\d+)*|\b(?:{_NUMBER_WORDS}))[\s-]?(?:\((?:\d+)\)\s*)?"
    rf"(?P<unit>(?:(?:consecutive|failed|successive|random|decimal|hexadecimal|unsuccessful|calendar|working) ){{0,2}}"
    rf"(?:{_UNITS}))(?![A-Za-z])",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(?:not|never|no|nor)\b", re.I)
_MINIMUM = re.compile(r"\b(?:least|minimum|more|greater|longer|higher|later|exceed\w*|over|above)\b", re.I)
_MAXIMUM = re.compile(r"\b(?:most|maximum|up to|within|less|fewer|shorter|lower|earlier|sooner|under|below)\b", re.I)


def bound_of(comparator: str) -> str:
    """'minimum', 'maximum' or '' (no comparator, or one of neither sense): what a comparator as written says of the
    figure after it. A negation turns the sense over: "never less than fifteen years" is a minimum, "not to exceed 8
    characters" and "no later than 72 hours" are maximums."""
    sense = "minimum" if _MINIMUM.search(comparator) else "maximum" if _MAXIMUM.search(comparator) else ""
    if sense and _NEGATION.search(comparator):
        return "maximum" if sense == "minimum" else "minimum"
    return sense


def find_thresholds(sentence: str) -> list[Threshold]:
    """Numbers with a unit (and their comparator, negation included, when one is written) in ``sentence``."""
    found = []
    for match in _THRESHOLD.finditer(sentence):
        comparator = " ".join((match.group("cmp") or "").lower().split())
        found.append(
            Threshold(
                value=match.group("num"),
                unit=match.group("unit"),
                comparator=comparator,
                bound=bound_of(comparator),
                text=" ".join(match.group(0).split()),
            )
        )
    return found


def _as_written(threshold: Threshold, quote: str) -> Threshold:
    """A model's threshold read again from its quote: the comparator the quote writes for the same figure and unit
    ("never less than", not the model's "less than"), and its bound."""
    same = [t for t in find_thresholds(quote) if t.value.lower() == threshold.value.lower() and t.unit.lower() == threshold.unit.lower()]
    if same:
        return same[0]
    return threshold.model_copy(update={"bound": bound_of(threshold.comparator)})


def verify(extraction: Extraction, section_text: str) -> Extraction:
    """Keep the assertions whose quote stands in ``section_text`` (whitespace-normalised); count the rest."""
    haystack = normalise(section_text)
    kept, rejected = [], list(extraction.rejected_quotes)
    for assertion in extraction.assertions:
        quote = normalise(assertion.quote)
        if quote and quote in haystack:
            thresholds = [_as_written(t, quote) for t in assertion.thresholds]
            kept.append(assertion.model_copy(update={"quote": quote, "thresholds": thresholds}))
        else:
            rejected.append(quote)
    return Extraction(assertions=kept, rejected=extraction.rejected + len(rejected) - len(extraction.rejected_quotes),
                      rejected_quotes=rejected)


# --- the rule-based extractor ----------------------------------------------------

_MODAL = re.compile(
    rf"\b({alternation(KEYWORDS)}|{alternation(RULE_MODALS)}|(?:is|are) required to|(?:is|are) not permitted to|"
    r"(?:is|are) prohibited from)\b"
)
_CONDITION = re.compile(r"\b(?:if|when|whenever|provided that|in case|once|as long as)\b[^,;:]*", re.IGNORECASE)
_EXCEPTION = re.compile(r"\b(?:unless|except(?: when| if| where| that| for| as)?|other than)\b[^,;:]*", re.IGNORECASE)
_DEFINES = re.compile(
    r"^(?:(?:The|the|A|An|a|an) )?(?:(?:term|terms|phrase|word) )?[\"“'`]*(?P<term>[A-Za-z0-9][^,.;:\"”]{0,70}?)[\"”'`]*"
    r"(?:\s*\([^)]{1,30}\))?\s+(?P<verb>means|mean|is defined as|are defined as|refers to|refer to|denotes|is used to mean)\s+(?P<body>.+)$"
)
_GLOSSARY_HEADING = re.compile(
    r"^(?:(?:appendix|annex)\s+)?(?:[A-Z]|\d+)?(?:\.\d+)*\.?\s*(?:&mdash;|[—:–-])?\s*"
    r"(?:key\s+|notational\s+|conventions\s+and\s+)?(definitions?|terminology|glossary|terms|abbreviations|acronyms|roles|notation)\b",
    re.I,
)
_CODE_CHARS = re.compile(r"[()=\[\]{}<>`#]|^(?:from|import|def|class|return)\b")
_TERM_LINE = re.compile(r"^(?P<term>[^\s.:;][^.:;]{0,60}?)\s*(?::|\n)\s*(?P<body>\S.*)$", re.S)
_TERM_RUN_IN = re.compile(
    r"^(?P<term>[A-Za-z\"][^.:;!?\"]{0,60}?[\w)\"])\s+(?P<body>(?:A|An|The|This|These|Any|Used|Indicates|Identifies|Refers|Specifies|Contains)\s.+)$",
    re.S,
)
_STEP = re.compile(r"^\(?(?P<mark>\d{1,2}|[A-H]|[ivx]{1,4})[.)]\s+(?P<body>\S.*)$", re.S)
_PROCEDURE_HEADING = re.compile(r"\b(steps?|procedure|process|flow|how to|workflow|instructions)\b", re.I)
_DEPENDENCY = re.compile(
    r"\b(depends on|depend on|relies on|rely on|is based on|are based on|builds on|build on|"
    r"(?:as )?defined in|specified in|requires the use of|see)\b\s+(?P<target>[^.;]{2,120})"
)
_SUPERSEDES = re.compile(
    r"\b(obsoletes|supersedes|superseded by|replaces|is replaced by|updates|deprecates|is deprecated|are deprecated|"
    r"has been deprecated|have been deprecated)\b(?P<target>[^.;]{0,120})",
    re.IGNORECASE,
)
_HEADER_FIELD = re.compile(
    r"^\s*(?P<field>Updates|Obsoletes|Obsoleted by|Updated by|Replaces|Superseded-By|Requires)\s*:\s*"
    r"(?P<value>\d+(?:\s*,\s*\d+)*)(?=\s{2,}|\s*$)",
    re.MULTILINE,
)
_FINDING = re.compile(
    r"\b(we (?:find|found|observe|observed|show|showed)|results? (?:show|shows|showed|indicate|indicates|suggest|suggests)|"
    r"found that|shows? that|showed that|demonstrates? that|outperforms?|improves? .{0,40} by)\b",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:the|a|an|this|that|these|those|each|every|any|all)\s+", re.I)


def _subject_before(sentence: str, index: int) -> str:
    head = sentence[:index]
    head = re.split(r"[,;:]\s*", head)[-1] if re.search(r"[,;:]", head) else head
    head = re.sub(r"^\s*(?:if|when|whenever|unless|once|then|however|also|otherwise|note that|in addition)\b\s*", "", head, flags=re.I)
    words = head.split()[-8:]
    subject = _ARTICLE.sub("", " ".join(words)).strip(" \"'`*")
    return subject


def _rule(sentence: str) -> Assertion | None:
    match = _MODAL.search(sentence)
    if not match:
        return None
    subject = _subject_before(sentence, match.start())
    if not subject:
        subject = sentence.split()[0]
    conditions = [normalise(c.group(0)) for c in _CONDITION.finditer(sentence)]
    exceptions = [normalise(e.group(0)) for e in _EXCEPTION.finditer(sentence)]
    return Assertion(
        kind="rule",
        subject=subject,
        statement=sentence,
        quote=sentence,
        conditions=conditions,
        exceptions=exceptions,
        thresholds=find_thresholds(sentence),
        modality=match.group(1),
    )


def _definition(sentence: str) -> Assertion | None:
    match = _DEFINES.match(sentence)
    if not match or len(match.group("term").split()) > 8:
        return None
    term = _ARTICLE.sub("", match.group("term").strip())
    if match.group("verb") in {"means", "mean"} and re.match(r"(?:that|of|by|through|for|to|with|in)\b", match.group("body")):
        return None
    if not term or term.lower() in {"the", "this", "that", "it", "which"} or _MODAL.search(term) or " " + term == match.group("term"):
        return None
    if re.search(r"\b(?:different|other|same|such|exact|any)$", match.group("term").strip(), re.I) or term.lower() in {"exact", "means"}:
        return None
    return Assertion(kind="definition", subject=term, statement=sentence, quote=sentence)


def _sentence_assertion(sentence: str) -> Assertion | None:
    """At most one assertion per sentence, by priority: supersession, definition, rule, dependency, finding."""
    if len(sentence) < 12:
        return None
    sup = _SUPERSEDES.search(sentence)
    if sup:
        return Assertion(kind="supersession", subject=_subject_before(sentence, sup.start()) or sentence.split()[0],
                         statement=sentence, quote=sentence, target=normalise(sup.group("target")).strip(" ,"))
    definition = _definition(sentence)
    if definition:
        return definition
    rule = _rule(sentence)
    if rule:
        return rule
    dep = _DEPENDENCY.search(sentence)
    if dep and re.search(r"\b(?:RFC|PEP|SP|FIPS|Section|Appendix|Part|Chapter)\b|\[[A-Z][\w-]*\]", dep.group("target")):
        return Assertion(kind="dependency", subject=_subject_before(sentence, dep.start()) or "this section",
                         statement=sentence, quote=sentence, target=normalise(dep.group("target")))
    if _FINDING.search(sentence):
        return Assertion(kind="finding", subject=_subject_before(sentence, _FINDING.search(sentence).start()) or "",
                         statement=sentence, quote=sentence, thresholds=find_thresholds(sentence))
    return None


def _in_glossary(section: Section) -> bool:
    return any(_GLOSSARY_HEADING.search(h) for h in section.heading_path[:-1]) or bool(
        _GLOSSARY_HEADING.search(section.heading)
    )


def _glossary_entries(section: Section) -> list[Assertion]:
    """Definition lists: a term heading under a Definitions heading, or 'term: body' / 'term\\n body' blocks."""
    out: list[Assertion] = []
    parent_is_glossary = any(_GLOSSARY_HEADING.search(h) for h in section.heading_path[:-1])
    if parent_is_glossary and len(section.heading.split()) <= 8 and section.blocks:
        first = sentences(section.blocks[0].text)
        if first:
            term = re.sub(r"^[A-Z]?\d+(?:\.\d+)*\.?\s+", "", section.heading).strip()
            out.append(Assertion(kind="definition", subject=term, statement=f"{term}: {first[0]}", quote=first[0]))
    if _in_glossary(section):
        for block in section.blocks:
            match = _TERM_LINE.match(block.text.strip())
            run_in = _TERM_RUN_IN.match(normalise(block.text))
            if block.kind == "paragraph" and not match and run_in and len(run_in.group("term").split()) <= 6:
                first = sentences(block.text)[0]
                if not _CODE_CHARS.sub("", run_in.group("term")).strip() == "":
                    term = run_in.group("term").strip('"')
                    out.append(Assertion(kind="definition", subject=term, statement=first, quote=first))
                continue
            if block.kind != "paragraph" or not match or len(match.group("term").split()) > 6:
                continue
            if _CODE_CHARS.search(match.group("term")) or match.group("term").strip().endswith(","):
                continue
            term = normalise(match.group("term"))
            body = sentences(match.group("body"))
            if body and term and term[0].isalnum():
                out.append(Assertion(kind="definition", subject=term, statement=f"{term}: {body[0]}", quote=body[0]))
    return out


def _definition_items(section: Section) -> list[Assertion]:
    """A definition list's items (a reader names a list item by its term): each defines its term, in any section."""
    out = []
    for block in section.blocks:
        if block.kind == "list_item" and block.name:
            first = sentences(block.text)
            if first:
                term = block.name.strip().rstrip(":—-").strip()
                out.append(Assertion(kind="definition", subject=term, statement=first[0], quote=first[0]))
    return out


def _steps(section: Section) -> list[Assertion]:
    """Ordered steps: consecutive numbered items, or list items under a procedure-like heading."""
    out: list[Assertion] = []
    procedure_heading = bool(_PROCEDURE_HEADING.search(section.heading))
    run = 0
    for block in section.blocks:
        text = normalise(block.text)
        match = _STEP.match(text)
        if match or (block.kind == "list_item" and procedure_heading):
            run += 1
            quote = sentences(match.group("body") if match else text)
            if quote:
                out.append(Assertion(kind="step", subject=section.heading, statement=text, quote=quote[0], step=run,
                                     thresholds=find_thresholds(text)))
        elif block.kind not in {"list_item", "code", "table", "figure"}:
            run = 0
    return out if len(out) >= 2 else []


def _header_fields(section: Section) -> list[Assertion]:
    out = []
    for block in section.blocks:
        for match in _HEADER_FIELD.finditer(block.text):
            field, value = match.group("field"), match.group("value").strip(" ,")
            quote = normalise(match.group(0))
            kind = "dependency" if field == "Requires" else "supersession"
            out.append(Assertion(kind=kind, subject="this document", statement=f"{field}: {value}", quote=quote, target=value))
    return out


def extract_rules(section: Section) -> Extraction:
    """The model-free extractor for one section; every quote is verified before it is returned."""
    found: list[Assertion] = []
    found.extend(_header_fields(section))
    glossary = _glossary_entries(section)
    found.extend(glossary)
    found.extend(a for a in _definition_items(section) if a.quote not in {g.quote for g in glossary})
    steps = _steps(section)
    found.extend(steps)
    taken = {a.quote for a in found}
    for block in section.blocks:
        if block.kind in {"code", "figure"}:
            continue
        if block.kind == "table" and block.rows:
            continue
        for sentence in sentences(block.text):
            if sentence in taken:
                continue
            assertion = _sentence_assertion(sentence)
            if assertion:
                found.append(assertion)
                taken.add(sentence)
    return verify(Extraction(assertions=found), section.text)
