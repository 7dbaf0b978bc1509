"""A model explains computed changes; code keeps only what matches the change set (values, direction, sign).

``explain_changes`` sends the computed change set of each pair (numbered
changes with their old and new values, the difference code computed and the
section ids on both sides) to the writer model and parses its Markdown reply
into units (``shelfwise.api.answer.claims.parse_answer``). ``check_statement`` then decides each
sentence, list item or table row by code alone:

- it cites no section of the change set: refused;
- a value moved "from A to B" (or "A → B", a table row's first and last value)
  must be one change's old and new value; stated the other way round it is a
  wrong direction;
- a direction word (increased, shortened, extended, reduced ...) must agree with
  the sign of the difference code computed;
- a difference it states ("by 15 days", "+$124.57") must be the computed one;
- every value it writes must be a changed value (old, new or difference) of the
  changes it cites: a value that reads the same in both documents is not a change;
- without a value, it must share half its words with one change it cites.

Every refused statement is a ``Removal`` with the reason; nothing is dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from shelfwise.api.answer.claims import parse_answer, strip_citations
from shelfwise.api.answer.compare.compare_resolve import ComparePair
from shelfwise.api.prompts import CANNOT_ANSWER, COMPARE_SYSTEM, COMPARE_USER
from shelfwise.api.terms import stems, unit_cells
from shelfwise.api.answer.records import Removal, Unit
from shelfwise.compiler.compare import Change, ChangeSet
from shelfwise.compiler.compare.values import Value, values_in
from shelfwise.compiler.store.records import table_line
from shelfwise.compiler.language.directions import CHANGED_DOWN, CHANGED_UP
from shelfwise.compiler.models import ChatModel, ModelError

__all__ = ["Explained", "explain_changes", "check_statement", "change_listing"]

_ARROW = re.compile(r"^\s*(?:(?:calendar |working |business )?(?:days?|months?|years?|weeks?|hours?)\s+)?(?:to|→|->|into|became|becomes)\s*$", re.I)
_BY = re.compile(r"\bby\s*$", re.I)
_NAMES = re.compile(r"(?i:\brev(?:ision)?s?\.?|\bversions?|\bv\.)\s*(?:[A-Z]{1,2}|\d{1,3})\b")
"""A revision named in a statement ("Revision 2", "Rev D") is the document's name, not a value of it."""


@dataclass
class Explained:
    """The model's explanation as checked: shown units, their Markdown, every unit written and every refusal."""

    shown: list[Unit] = field(default_factory=list)
    markdown: str = ""
    written: list[Unit] = field(default_factory=list)
    removed: list[Removal] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def change_listing(computed: list[tuple[ComparePair, ChangeSet]], texts: dict[str, str] | None = None) -> str:
    """The change sets as the model reads them: one line per change, numbered across pairs; an added or removed
    section with the start of its text (``texts``: section id -> text)."""
    lines, number = [], 0
    for pair, changes in computed:
        lines.append(f"Pair: {changes.title_a} (older) -> {changes.title_b} (newer){f' — {pair.identity.label}' if pair.identity.label else ''}")
        for change in changes.changes:
            number += 1
            sides = " ".join(f"[{sid}]" for sid in dict.fromkeys(s for s in (change.section_a, change.section_b) if s))
            detail = f"; difference {change.difference}" if change.difference else ""
            if change.scope == "section" and change.kind in ("added", "removed") and texts:
                body = " ".join(texts.get(change.section_b or change.section_a or "", "").split())
                detail += f"; its text: {body[:400]!r}" if body else ""
            lines.append(f"{number}. {change.kind} {change.scope} — {change.what}: old {change.old or '(none)'!r}, "
                         f"new {change.new or '(none)'!r}{detail}; sections {sides}")
    return "\n".join(lines)


def _same(a: Value, b: Value) -> bool:
    """One value: equal dates, or equal numbers where the units agree or one side writes none ("45" and "45 days")."""
    if a.kind == "date" or b.kind == "date":
        return a.kind == b.kind and a.day == b.day
    if a.number is None or b.number is None or abs(a.number) != abs(b.number):
        return False
    plain = "number" in (a.kind, b.kind)
    return plain or (a.kind == b.kind and a.unit == b.unit)


def _values(text: str | None) -> list[Value]:
    return [v for _, _, v in values_in(text or "")]


def _sign(change: Change) -> int:
    diff = (change.difference or "").strip()
    return 1 if diff.startswith("+") else -1 if diff.startswith(("−", "-")) else 0


def _transitions(text: str, spans: list[tuple[int, int, Value]], row: bool) -> list[tuple[Value, Value]]:
    """Values the statement moves: "from A to B", "A → B"; in a table row its first and second value."""
    if row and len(spans) >= 2:
        return [(spans[0][2], spans[1][2])]
    return [(a, b) for (_, end, a), (start, _, b) in zip(spans, spans[1:]) if _ARROW.match(text[end:start])]


def _differences(text: str, spans: list[tuple[int, int, Value]], row: bool) -> list[tuple[Value, int]]:
    """Differences the statement states, with their sign (0 when unsigned): "by 15 days", "+$124.57", "−15 days";
    in a table row its third value."""
    out = []
    for index, (start, _, value) in enumerate(spans):
        before = text[start - 1:start] if start else ""
        sign = 1 if before == "+" else -1 if (value.number is not None and value.number < 0) else 0
        if _BY.search(text[:start]) or sign or (row and index == 2):
            out.append((value, sign))
    return out


def _words(change: Change, texts: dict[str, str]) -> set[str]:
    whole = [texts.get(sid or "", "") for sid in (change.section_a, change.section_b)] if change.scope == "section" else []
    return set(stems(" ".join(filter(None, [change.what, change.old, change.new, change.heading_a, change.heading_b, change.words, *whole]))))


def check_statement(text: str, citations: list[str], changes: list[Change], row: bool = False, *,
                    names: tuple[str, ...] = (), texts: dict[str, str] | None = None) -> tuple[bool, str]:
    """(kept, reason) for one written statement against the computed changes (see the module text).

    ``names``: words naming the documents (their years, "2025 return"), not values of them; ``texts``: section id -> text,
    so that a statement about an added or removed section is matched on that section's words."""
    cited = [c for c in changes if {c.section_a, c.section_b} & set(citations)]
    if not cited:
        return False, "cites no section of the computed change set"
    plain = _NAMES.sub(" ", strip_citations(text))
    for name in names:
        plain = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", plain)
    spans = values_in(plain)
    if not spans:
        words = set(stems(plain))
        if words and any(len(words & _words(c, texts or {})) * 2 >= len(words) for c in cited):
            return True, "names a computed change"
        return False, "matches no computed change it cites"
    moved = _transitions(plain, spans, row)
    for old, new in moved:
        if any(_same(old, a) and _same(new, b) for c in cited for a in _values(c.old) for b in _values(c.new)):
            continue
        if any(_same(old, b) and _same(new, a) for c in cited for a in _values(c.old) for b in _values(c.new)):
            return False, f"wrong direction: it moves {old.text} to {new.text}, the documents change {new.text} to {old.text}"
        return False, f"wrong values: no computed change goes from {old.text} to {new.text}"
    matched = [c for c in cited if any(_same(v, w) for _, _, v in spans for w in [*_values(c.old), *_values(c.new)])] or cited
    for stated, sign in _differences(plain, spans, row):
        if not any(_same(stated, d) and sign in (0, _sign(c)) for c in matched if c.difference for d in _values(c.difference)):
            computed = ", ".join(c.difference for c in matched if c.difference) or "none"
            return False, f"wrong difference: it states {'+' if sign > 0 else ''}{stated.text}, code computes {computed}"
    up, down = bool(CHANGED_UP.search(plain)), bool(CHANGED_DOWN.search(plain))
    signs = {_sign(c) for c in matched if _sign(c)}
    if up != down and signs and len(signs) == 1:
        sign = signs.pop()
        if (up and sign < 0) or (down and sign > 0):
            computed = ", ".join(c.difference for c in matched if c.difference)
            return False, f"wrong direction: it says {'up' if up else 'down'}, code computes {computed}"
    changed = [w for c in matched for w in [*_values(c.old), *_values(c.new), *_values(c.difference)]]
    for _, _, value in spans:
        if not any(_same(value, w) for w in changed):
            return False, f"{value.text} is not a changed value of the changes it cites (unchanged, or in neither document)"
    return True, "matches the computed change set"


def explain_changes(chat: ChatModel, question: str, ask: str, obligation: int,
                    computed: list[tuple[ComparePair, ChangeSet]]) -> Explained:
    """The model's explanation of the changes, each statement kept only when code finds it in the change set."""
    out = Explained()
    changes = [c for _, cs in computed for c in cs.changes]
    if not changes:
        return out
    texts = {s.id: s.text for pair, _ in computed for view in (pair.older, pair.newer) for s in view.sections}
    messages = [{"role": "system", "content": COMPARE_SYSTEM},
                {"role": "user", "content": COMPARE_USER.format(question=question, ask=ask, changes=change_listing(computed, texts))}]
    try:
        reply = chat.complete(messages, max_tokens=1500)
    except ModelError as exc:
        out.warnings.append(f"{exc}; the changes are shown as computed, without the model's explanation")
        return out
    shelf = computed[0][0].shelf
    names = tuple(sorted({y for pair, _ in computed for y in re.findall(r"\b(?:19|20)\d\d\b", f"{pair.older.title} {pair.newer.title}")}))
    units, _ = parse_answer(reply, shelf=shelf, obligation=obligation, sentinel=CANNOT_ANSWER)
    headers: dict[str, Unit] = {}
    for n, unit in enumerate(units, start=1):
        unit = unit.model_copy(update={"id": f"m{obligation}-{n}", "obligation": obligation, "shelf": shelf})
        out.written.append(unit)
        if unit.kind == "table_header":
            headers[unit.group] = unit
        if unit.kind in ("heading", "connective", "table_header"):
            continue
        kept, reason = check_statement(unit.text, unit.citations, changes, row=unit.kind == "table_row", names=names, texts=texts)
        if not kept:
            out.removed.append(Removal(unit=unit, stage="check", reason=f"not in the computed change set — {reason}"))
            continue
        out.shown.append(unit.model_copy(update={"status": "computed"}))
    out.shown = [*(h.model_copy(update={"status": "label"}) for g, h in headers.items() if any(u.group == g for u in out.shown)),
                 *out.shown]
    out.markdown = _markdown(out.shown)
    return out


def _marks(unit: Unit) -> str:
    return " ".join(f"[{sid}]" for sid in unit.citations)


def _markdown(shown: list[Unit]) -> str:
    """The kept explanation: its sentences as a paragraph, its list items as a list, its table rows under their header."""
    blocks: list[str] = []
    sentences = [f"{u.text} {_marks(u)}" for u in shown if u.kind == "sentence"]
    if sentences:
        blocks.append(" ".join(sentences))
    items = [f"- {u.text} {_marks(u)}" for u in shown if u.kind in ("list_item", "step")]
    if items:
        blocks.append("\n".join(items))
    for header in (u for u in shown if u.kind == "table_header"):
        cells = unit_cells(header)
        rows = [table_line([*unit_cells(u), _marks(u)]) for u in shown if u.kind == "table_row" and u.group == header.group]
        blocks.append("\n".join([table_line([*cells, "Source"]), "|" + " --- |" * (len(cells) + 1), *rows]))
    rows = [f"- {u.text} {_marks(u)}" for u in shown if u.kind == "table_row" and u.group not in {h.group for h in shown if h.kind == "table_header"}]
    if rows:
        blocks.append("\n".join(rows))
    return "\n\n".join(blocks)
