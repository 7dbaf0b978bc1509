"""Names from the documents, in words a reader expects: noun-phrase subjects, topic keys merged across
singular and plural, relation kinds in words, counts with correct plurals, document short names.

Generic rules over English text (no shelf's names): a ledger subject that does not read as a noun phrase
("It", "and the verification of effectiveness that") is replaced by the noun phrase that opens its quote,
else by the heading of its section, else by the document's title.
"""

from __future__ import annotations

import re

from shelfwise.compiler.prose import normalise
from shelfwise.compiler.written_ids import identifiers

__all__ = ["folder_code", "KIND_WORDS", "relation_words", "plural", "count", "singular", "is_noun_phrase", "subject_phrase",
           "page_count", "page_unit", "short_name", "plain_heading", "reader_label"]

# (src -> dst, dst <- src): how a link reads from either end.
KIND_WORDS: dict[str, tuple[str, str]] = {
    "cites": ("cites", "is cited by"),
    "resolves": ("refers to", "is referred to by"),
    "updates": ("updates", "is updated by"),
    "supersedes": ("supersedes", "is superseded by"),
    "depends_on": ("depends on", "is needed by"),
    "same_series": ("is a later revision in the series of", "is an earlier revision in the series of"),
    "shares_names": ("shares defined names with", "shares defined names with"),
    "contradicts_candidate": ("may conflict with", "may conflict with"),
}


def relation_words(kind: str, direction: str = "out") -> str:
    """A link kind in words, read from its source (``out``) or its destination (``in``)."""
    forward, backward = KIND_WORDS.get(kind, (kind.replace("_", " "), "is linked (" + kind.replace("_", " ") + ") from"))
    return backward if direction == "in" else forward


_IRREGULAR = {"person": "people", "child": "children", "criterion": "criteria", "analysis": "analyses",
              "index": "indexes", "matrix": "matrices", "appendix": "appendices", "datum": "data"}
_IRREGULAR_BACK = {v: k for k, v in _IRREGULAR.items()}


def plural(word: str, n: int = 2) -> str:
    """``word`` in the plural unless ``n`` is 1 (English rules for regular nouns, a few irregular ones)."""
    if n == 1:
        return word
    lower = word.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if re.search(r"[^aeiou]y$", lower):
        return word[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh)$", lower):
        return word + "es"
    return word + "s"


def count(n: int, word: str) -> str:
    """``"1 table"``, ``"3 tables"``."""
    return f"{n} {plural(word, n)}"


def singular(word: str) -> str:
    """The singular of a lower-case English noun ("complaints" -> "complaint", "policies" -> "policy")."""
    if word in _IRREGULAR_BACK:
        return _IRREGULAR_BACK[word]
    if len(word) <= 3 or not word.endswith("s") or re.search(r"(ss|us|is|ics|ous)$", word):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if re.search(r"(ches|shes|xes|zes|sses)$", word):
        return word[:-2]
    return word[:-1]


_DETERMINERS = {"a", "an", "the", "this", "that", "these", "those", "each", "every", "any", "all", "its", "their",
                "our", "such", "some", "no", "both"}
_PRONOUNS = {"it", "they", "this", "these", "those", "he", "she", "we", "you", "one", "there", "that", "which",
             "who", "itself", "them", "this document", "the document", "this procedure", "this manual"}
_FUNCTION = {"and", "or", "but", "nor", "that", "which", "who", "whom", "whose", "when", "where", "whether", "if",
             "unless", "because", "so", "than", "as", "of", "to", "in", "on", "at", "by", "for", "with", "from",
             "into", "before", "after", "they", "it", "its", "their", "is", "are", "was", "were", "be", "been",
             "has", "have", "had", "does", "do", "did", "not", "also", "then", "while", "until"}
_VERBS = {"shall", "must", "may", "should", "will", "would", "can", "cannot", "could", "might", "is", "are", "was",
          "were", "has", "have", "does", "do", "did", "need", "needs", "means", "refers"}
_NOT_S_VERB = re.compile(r"(ss|us|is|ics|ous|'s)$")


def is_noun_phrase(text: str) -> bool:
    """Whether ``text`` reads as a noun phrase: not a pronoun, no clause words at its ends or inside, 1-6 words."""
    words = text.split()
    if not words or len(words) > 6 or text.strip().lower() in _PRONOUNS:
        return False
    lower = [w.lower().strip(",;:.") for w in words]
    if lower[0] in _FUNCTION or lower[-1] in _FUNCTION or lower[-1] in _DETERMINERS:
        return False
    if any(w in {"whether", "that", "which", "who", "before", "because", "so"} or w in _VERBS for w in lower):
        return False
    # a lower-case verb form before a determiner ("lists the ...") opens a clause, not a noun phrase
    if not words[0][0].isupper() and len(words) > 2 and lower[0].endswith("s") and not _NOT_S_VERB.search(lower[0]) \
            and lower[1] in _DETERMINERS:
        return False
    return True


def _strip_determiners(words: list[str]) -> list[str]:
    while words and words[0].lower() in _DETERMINERS:
        words = words[1:]
    while words and words[-1].lower().strip(",;:.") in _FUNCTION | _DETERMINERS:
        words = words[:-1]
    return words


def _opening_phrase(quote: str) -> str:
    """The noun phrase a sentence opens with: "Term: ..." gives the term; else the words before its verb."""
    text = normalise(quote)
    term = re.match(r"^([A-Z][\w/-]*(?: [\w/-]+){0,4}):\s", text)
    if term:
        return term.group(1)
    words = text.split()[:8]
    cut = None
    for i, word in enumerate(words):
        w = word.lower().strip(",;:.()")
        if i > 0 and (w in _VERBS or w in {"that", "which", "who"}):
            cut = i
            break
        if i > 0 and word[0].islower() and w.endswith("s") and not _NOT_S_VERB.search(w) and i >= 2:
            cut = i  # "The CAPA procedure states ...": a third-person verb after the noun
            break
        if word.endswith((",", ";", ":")) or "(" in word:
            cut = i + 1 if i else None
            break
    if cut is None:
        return ""
    phrase = _strip_determiners([w.strip(",;:.()") for w in words[:cut]])
    return " ".join(phrase)


_NUMBERING = re.compile(r"^(?:(?:section|chapter|part|appendix|annex)\s+)?(?:\d+(?:\.\d+)*\.?|[A-Z]\.(?:\d+\.?)*|[A-Z](?:\.\d+)+)\)?\s+(?=\S)", re.I)


def plain_heading(heading: str) -> str:
    """A heading without its numbering ("4.2 Complaint intake" -> "Complaint intake"): ``shelfwise.compiler.prose.normalise``,
    then the numbering dropped."""
    return _NUMBERING.sub("", normalise(heading))


def _balanced(text: str) -> str:
    """Without a stray bracket or quote left by a cut ("Home page URI)" -> "Home page URI")."""
    for left, right in ("()", "[]"):
        if text.count(left) != text.count(right):
            text = text.replace(left, "").replace(right, "")
    return text.strip(' "\'“”') or text


def subject_phrase(subject: str, quote: str = "", heading: str = "", title: str = "") -> str:
    """A noun phrase naming what an assertion is about (see the module docstring for the order tried)."""
    subject = normalise(str(subject))
    if re.match(r"^\d{1,2}(?:\.\d+)*\.?\s+[A-Z]", subject):  # a numbered heading ("10 Usability"), not "12 months"
        subject = plain_heading(subject)
    subject = _balanced(subject)
    if subject.lower() in {"it", "this", "this document", "the document"} and title:
        return title
    if is_noun_phrase(subject):
        return subject
    opening = _opening_phrase(quote)
    if opening and is_noun_phrase(opening):
        return opening[0].upper() + opening[1:] if opening[0].islower() else opening
    heading = plain_heading(heading)
    if heading and len(heading.split()) <= 8:
        return heading
    return title or subject


_PAGED = {"pdf": "page", "pptx": "slide", "ppt": "slide", "odp": "slide", "xlsx": "sheet", "xls": "sheet",
          "ods": "sheet", "csv": "sheet"}


def page_unit(fmt: str) -> str:
    """What a format's numbered parts are called: "page" (PDF), "slide", "sheet"; empty when it has none."""
    return _PAGED.get((fmt or "").lower(), "")


def page_count(fmt: str, pages: int | None) -> str:
    """"12 pages" for a PDF, "9 slides", "2 sheets"; empty for formats without pages (DOCX, HTML, Markdown)."""
    unit = page_unit(fmt)
    return count(int(pages), unit) if unit and pages else ""


def reader_label(reader: str, version: str) -> str:
    """"docling 2.143.0", not "docling docling 2.143.0"."""
    reader, version = (reader or "").strip(), (version or "").strip()
    if not version or version == reader:
        return reader
    return version if version.lower().startswith(reader.lower()) else f"{reader} {version}"


_REVISION = re.compile(r"\b(?:Rev(?:ision)?\.?\s*|Edition\s+|Version\s+|v)([A-Z]|\d+(?:\.\d+)*[a-z]?)\b", re.I)
_PATH_REVISION = re.compile(r"(?:^|[-_/])rev[-_]?([a-z0-9]{1,3})(?=[-_.]|$)", re.I)
_PATH_CODE = re.compile(r"^([a-z]{2,5})[-_ ]?(\d{2,5})$", re.I)
_FOLDER_CODE = re.compile(r"^([a-z]{1,5})[-_ ]?(\d{2,5}(?:[-.]\d{1,4})*[a-z]?)$", re.I)
"""A folder named as a publication ("sp800-63b", "rfc-6749"): the documents in it are its chapters."""
SHORT_CHARS = 48
"""A title longer than this is cut at a word boundary (with "…") for a short name."""


def folder_code(path: str) -> str:
    """The publication a document is a chapter of, when its folder is named as one ("sp800-63b/sec5_authenticators.md":
    "SP 800-63B"), else ""."""
    path = (path or "").replace("\\", "/")
    folder = _FOLDER_CODE.match(path.rsplit("/", 2)[-2]) if "/" in path else None
    return f"{folder.group(1).upper()} {folder.group(2).upper()}" if folder else ""


_ACRONYM = re.compile(r"[A-Z][A-Z0-9]{1,9}")
"""A file name that is an acronym ("GDPR", "CCPA", "HIPAA"): what its readers call the document."""


def short_name(title: str, path: str = "") -> str:
    """A document's short name, the one the site's link map and widget and the answers' labels show: a code in its
    file name ("rfc6749.txt" -> "RFC 6749"), else its title's first identifier ("QM-001"), else its title cut at a
    comma or bracket and to ``SHORT_CHARS`` (a chapter in a folder named as a publication: "SP 800-63B › 5
    Authenticator and …"); with the revision its title or file name gives ("QM-001 Rev D")."""
    path = (path or "").replace("\\", "/")
    title = title or path.rsplit("/", 1)[-1]
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    codes = [c for c in identifiers(title) if not _REVISION.fullmatch(c)]
    revision = _REVISION.search(title) or _PATH_REVISION.search(stem)
    path_code = _PATH_CODE.match(stem)
    if path_code:
        label = f"{path_code.group(1).upper()} {path_code.group(2).lstrip('0') or '0'}"
    elif codes:
        label = codes[0]
    else:
        label = re.split(r"\s*[,(]\s*", title)[0].strip() or title
        if " " not in label and label != title.strip() and _ACRONYM.fullmatch(stem):
            label = stem  # "REGULATION (EU) 2016/679 OF THE ...", file "GDPR.pdf": the cut names a kind, the file which one
        folder = folder_code(path)
        if folder:  # a chapter of a publication kept one file per chapter: "SP 800-63B › 5 Authenticator and ..."
            label = f"{folder} › {label}"
        label = label if len(label) <= SHORT_CHARS else label[:SHORT_CHARS - 3].rsplit(" ", 1)[0] + "…"
    named = label.lower()
    if revision and f"rev {revision.group(1).lower()}" not in named and " ".join(revision.group(0).lower().split()) not in named:
        label = f"{label} Rev {revision.group(1).upper()}"
    return label
