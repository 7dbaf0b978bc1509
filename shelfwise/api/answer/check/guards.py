"""Code guards on top of a checker's verdict, so that a weak or lying checker cannot get a false statement shown.

A "supports" verdict with a verified span still fails when the claim, compared
with the span (and, for names and document codes, the cited sections' titles
and headings):
- holds a number, date, unit or identifier the span does not hold;
- differs from the span's sentence in negation (not, no, never ...) or modality
  (must, may, should, shall, required ...), or widens its scope (all, every, always, only ...);
- uses a content word that stands in none of its cited sections, or too few of the span's words;
- puts the span's terms in another order (a reversed relation);
- moves a value "from A to B" with a direction word that A and B contradict;
- quotes a span so long that it no longer decides one claim.
``change_cell_ok`` decides a table's "Change" cell by computing the row's difference.
"""

from __future__ import annotations

import re

from shelfwise.api.terms import identifiers, normalise, stems
from shelfwise.compiler.language.directions import MOVED_DOWN, MOVED_UP
from shelfwise.compiler.language.force import KEYWORD_WORDS, MODAL_VERBS
from shelfwise.compiler.language.numbers import NUMBER_WORDS

__all__ = ["guard", "numbers", "markers", "change_cell_ok", "parse_number", "fold", "aligned_sentences", "marker_counts", "names"]

NUMBER_WORDS = {word: str(value) for word, value in NUMBER_WORDS.items()} | {"single": "1"}
"""A number word -> the figure it stands for (``shelfwise.compiler.language.numbers``; "a single" is one)."""
UNITS = ("%", "percent", "second", "minute", "hour", "day", "week", "month", "year", "byte", "bit", "character", "octet",
         "mg", "kg", "g", "ml", "l", "km", "m", "cm", "mm", "usd", "eur", "$", "€", "working day", "business day",
         "calendar day", "time", "attempt", "request", "page", "item", "version", "revision")
NEGATIONS = frozenset({"not", "no", "never", "none", "nor", "neither", "cannot", "without", "nothing", "nobody", "nowhere"})
MODALS = frozenset(MODAL_VERBS) | frozenset({"required", "require", "requires",
                    "optional", "need", "needs", "recommended", "forbidden", "prohibited", "mandatory"})
SCOPES = frozenset({"all", "every", "always", "any", "only", "each", "whole", "entire", "whenever", "everything", "everyone"})
CONDITIONS = frozenset({"if", "unless", "except", "provided", "only", "whenever", "until", "otherwise"})
REPORTING = frozenset(stem for word in "document documents state states stated say says section specify specifies "
                      "according describe describes define defines defined note notes also".split() for stem in stems(word))
FROM_TO = re.compile(r"\bfrom\s+(\S+?)\s+to\s+(\S+?)(?=[\s.,;:]|$)", re.I)
_NUM = re.compile(r"(?<![\w.])[-+−]?\$?\d[\d,]*(?:\.\d+)*%?|(?<=\w-)\d+(?:\.\d+)*")
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
MAX_SPAN = 400
SPAN_SHARE = 1.0


def fold(text: str) -> str:
    """Whitespace-normalised text with typographic quotes, dashes and spaces folded to plain ones."""
    table = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "−": "-", "\u00a0": " ", "\u2011": "-"})
    return normalise(text.translate(table))


def parse_number(token: str) -> float | None:
    """The value of a number token ("1,250", "$12.50", "-3", "40%"), or None."""
    cleaned = token.replace(",", "").replace("$", "").replace("€", "").replace("%", "").replace("−", "-").strip()
    try:
        return float(cleaned)
    except ValueError:
        return None


def numbers(text: str) -> list[str]:
    """Numbers written in ``text``, as canonical strings ("007" -> "7", "1,000" -> "1000", "three" -> "3")."""
    found = []
    for match in _NUM.finditer(fold(text)):
        token = match.group(0).lstrip("+-").rstrip(",")
        value = parse_number(token) if token.count(".") <= 1 else None
        if value is not None:
            found.append(f"{value:g}" if value != int(value) else str(int(value)))
        else:
            found.append(token.replace(",", ""))
    for word in _WORD.findall(text.lower()):
        if word in NUMBER_WORDS:
            found.append(NUMBER_WORDS[word])
    return found


def _unit_pairs(text: str) -> set[tuple[str, str]]:
    pairs = set()
    lowered = fold(text).lower()
    for match in _NUM.finditer(lowered):
        value = parse_number(match.group(0).lstrip("+-"))
        if value is None:
            continue
        after = lowered[match.end(): match.end() + 20].lstrip(" -")
        for unit in UNITS:
            if after.startswith(unit) and (len(unit) > 2 or not after[len(unit):len(unit) + 1].isalpha()):
                pairs.add((f"{value:g}", unit))
                break
        if match.group(0).endswith("%"):
            pairs.add((f"{value:g}", "%"))
    return pairs


def marker_counts(text: str, kind: frozenset[str]) -> dict[str, int]:
    """How often each negation, modal, scope or condition word stands in ``text`` ("n't" and "cannot" count as "not")."""
    words = _WORD.findall(fold(text).lower().replace("n't", " not").replace("cannot", "can not"))
    counts: dict[str, int] = {}
    for word in words:
        if word in kind:
            counts[word] = counts.get(word, 0) + 1
    return counts


def markers(text: str, kind: frozenset[str]) -> set[str]:
    """The negation, modal or scope words of ``text`` (lower case; "n't" and "cannot" count as "not")."""
    lowered = fold(text).lower()
    words = set(_WORD.findall(lowered.replace("n't", " not")))
    found = words & kind
    if kind is NEGATIONS and "cannot" in words:
        found |= {"not"}
        found.discard("cannot")
    if kind is MODALS and "cannot" in words:
        found.add("can")
    return found


def names(text: str) -> list[str]:
    """Identifiers and capitalised names in ``text`` (the first word of a sentence and modal capitals excluded)."""
    found = list(identifiers(text))
    tokens = re.findall(r"[A-Za-z][A-Za-z0-9\-]*", text)
    for index, token in enumerate(tokens):
        if index == 0 or token in KEYWORD_WORDS:
            continue
        if token[0].isupper() and token.lower() not in ("i", "a"):
            found.append(token)
    return list(dict.fromkeys(found))


def aligned_sentences(claim: str, span: str) -> str:
    """The sentences of ``span`` that carry the claim: the best match, and any other holding a quarter of its words."""
    from shelfwise.api.answer.claims import split_sentences

    pieces = split_sentences(span) or [span]
    want = set(stems(claim))
    if len(pieces) == 1 or not want:
        return span
    scored = [(len(want & set(stems(p))) / len(want), i) for i, p in enumerate(pieces)]
    best = max(scored)[0]
    return " ".join(pieces[i] for share, i in scored if share == best or share >= 0.25)


def _direction(claim: str) -> str | None:
    for match in FROM_TO.finditer(claim):
        a, b = parse_number(match.group(1)), parse_number(match.group(2))
        if a is None or b is None or a == b:
            continue
        before = claim[max(0, match.start() - 60): match.start()]
        if MOVED_UP.search(before) and a > b:
            return f"it says the value went up from {match.group(1)} to {match.group(2)}"
        if MOVED_DOWN.search(before) and a < b:
            return f"it says the value went down from {match.group(1)} to {match.group(2)}"
    return None


def _order(claim: str, span: str) -> str | None:
    """The claim's words must run in the span's order (a subsequence): a swapped relation reorders them."""
    ours, theirs = [w for w in stems(claim) if w not in REPORTING], list(stems(span))
    if not set(ours) <= set(theirs):
        return None  # words the span lacks are reported by the word guard
    position = 0
    for word in ours:
        found = theirs.index(word, position) if word in theirs[position:] else -1
        if found < 0:
            return f"its words run in another order than the span's (at {word!r})"
        position = found + 1
    return None


def guard(claim: str, span: str, cited: list[str], labels: str = "") -> list[str]:
    """Why a "supports" verdict with this verified span cannot stand (empty when it can)."""
    failures: list[str] = []
    if len(span) > max(MAX_SPAN, 3 * len(claim)):
        failures.append(f"the span is {len(span)} characters, too long to decide one claim")
        return failures
    aligned = aligned_sentences(claim, span)
    span_numbers = set(numbers(span))
    low_labels = fold(labels).lower()
    own_ids = [i for i in identifiers(claim) if re.search(rf"(?<![\w.]){re.escape(i.lower())}(?!\w|\.\d)", low_labels)]
    bare = claim
    for ident in own_ids:
        bare = bare.replace(ident, " ")
    missing = [n for n in numbers(bare) if n not in span_numbers]
    if missing:
        failures.append(f"number {', '.join(missing)} is not in the span")
    span_pairs = _unit_pairs(span)
    wrong_units = [f"{n} {u}" for n, u in _unit_pairs(claim) if (n, u) not in span_pairs and n in span_numbers and u != "%"]
    if wrong_units:
        failures.append(f"{', '.join(wrong_units)} is not what the span says")
    low_span = fold(span).lower()
    absent = [n for n in names(claim) if n.lower() not in low_span and not (n in own_ids or any(n in i for i in own_ids))]
    if absent:
        failures.append(f"name {', '.join(absent)} is not in the span")
    for kind, what in ((NEGATIONS, "negation"), (MODALS, "modal"), (SCOPES, "scope"), (CONDITIONS, "condition")):
        ours, theirs = marker_counts(claim, kind), marker_counts(aligned, kind)
        if ours != theirs:
            failures.append(f"{what} differs: claim {sorted(ours.items()) or 'none'}, span {sorted(theirs.items()) or 'none'}")
    own = [w for w in dict.fromkeys(stems(claim)) if w not in REPORTING and not w.isdigit()]
    source = set(stems(" ".join(cited))) | set(stems(labels)) | set(stems(span))
    foreign = [w for w in own if w not in source]
    if foreign:
        failures.append(f"word {', '.join(foreign[:4])} stands in no cited section")
    in_span = set(stems(span))
    if own and sum(1 for w in own if w in in_span) / len(own) < SPAN_SHARE:
        failures.append("the span holds too few of the claim's words")
    for problem in (_direction(claim), _order(claim, aligned)):
        if problem:
            failures.append(problem)
    span_moves = {(m.group(1), m.group(2)) for m in FROM_TO.finditer(span)}
    for m in FROM_TO.finditer(claim):
        if (m.group(2), m.group(1)) in span_moves and (m.group(1), m.group(2)) not in span_moves:
            failures.append(f"the span goes from {m.group(2)} to {m.group(1)}, not the other way")
    return failures


def change_cell_ok(cells: list[str], index: int) -> tuple[bool, str]:
    """Whether a "Change" cell equals what code computes from its row: last value minus first, or added/removed/unchanged."""
    cell = cells[index].strip().lower()
    values = [c for i, c in enumerate(cells) if i not in (0, index)]
    if not values:
        return False, "its row has no values to compare"
    first, last = values[0].strip(), values[-1].strip()
    empty = {"", "-", "—", "–", "n/a", "none"}
    if first.lower() in empty and last.lower() not in empty:
        return cell == "added", f"the row's first side is empty, so the change is 'added', not {cells[index]!r}"
    if last.lower() in empty and first.lower() not in empty:
        return cell == "removed", f"the row's last side is empty, so the change is 'removed', not {cells[index]!r}"
    a, b = (numbers(first) or [None])[0], (numbers(last) or [None])[0]
    if a is None or b is None or len(numbers(first)) != 1 or len(numbers(last)) != 1:
        same = fold(first).lower() == fold(last).lower()
        expected = "unchanged" if same else "changed"
        return cell in (expected, "no change" if same else "changed"), f"code finds the row {expected}, not {cells[index]!r}"
    diff = float(b) - float(a)
    if diff == 0:
        return cell in ("0", "unchanged", "no change", "+0", "0.00"), f"the row did not change, not {cells[index]!r}"
    got = numbers(cells[index])
    sign = -1 if re.search(r"^\s*[-−]|\bdecreas|\bdown\b", cells[index], re.I) else 1
    if len(got) != 1:
        return False, f"code computes {diff:+g}; the cell {cells[index]!r} is not one number"
    value = sign * float(got[0])
    ok = abs(value - diff) <= 0.005 * max(1.0, abs(diff))
    return ok, "" if ok else f"code computes {diff:+g} from {first!r} and {last!r}, the cell says {cells[index]!r}"
