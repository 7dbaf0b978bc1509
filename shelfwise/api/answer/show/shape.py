"""Shape the shown answer: labelled, without repeats or question sentences, current first, most relevant first, sized.

The parts below run after the gate, on what will be displayed, for every writer; the answer driver runs them as the
repeats, order and fit steps of what is shown (``shelfwise.api.answer.show.show``, which records what each removed and why;
question sentences go in its evidence step), and ``shape_answer`` runs them in one call:

1. each unit gets its document's short name and, for a superseded document, what superseded it
   (``shelfwise.api.currency.label_units``);
2. question sentences (quiz items, headings ending in "?") are never answers: dropped;
3. a statement shown twice (same words once whitespace, case and citation marks are set aside, or nearly the same
   sentence from another copy of the text, as one manual's Texinfo and PDF) shows once;
4. the extractive writer's units stay on the question: an obligation that names the documents it is about by their
   own identifiers ("Which section of the Quality Manual does SOP-014 implement") is served by those documents and by
   the sentences of others that name one of them; "It implements section 7.3 of the Quality Manual." of SOP-030
   serves no obligation and is not shown (``about_named``);
5. per obligation, current documents first and superseded ones only where they matter (``shelfwise.api.currency.current_first``);
6. the extractive writer's units: per obligation the section (or table, or procedure) holding the best unit leads,
   its units in document order, so the direct answer comes first and a rule keeps its exception after it; a list a
   sentence of the section introduces ("... all of the following conditions are met:") is of the section's block;
7. the answer fits ``max_chars``: the least relevant units go first (never a procedure's steps, never the last
   unit of an obligation, never a list's lead-in while an item of the list is shown, a list of conditions or
   requirements whole or not at all, a table's announcing sentence with its table's last row (``leads``), and the last
   unit of a document the answer quotes only once nothing else can go); a
   question's parts share the room: a part whose best unit scores ``strong_share`` of the best part's best or more is
   compared on that part's scale, a weaker part gives way first. Obligations that lost strong evidence this way (a unit scoring ``strong_share`` of their
   best) are returned, so their label is not complete.

The thresholds are ``answer.tuning``'s (``shelfwise.compiler.tuning.AnswerTuning``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from shelfwise.api.answer.question import read_phrase
from shelfwise.api.currency import current_first, label_units
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.answer.write.unit_shape import label_row
from shelfwise.api.answer.show.leads import all_or_none, list_runs, table_runs
from shelfwise.api.answer.write.beside import introduces_code
from shelfwise.api.answer.write.write import is_question
from shelfwise.api.answer.records import Removal, Unit
from shelfwise.api.terms import identifier_key, identifiers, normalise, word_stems
from shelfwise.compiler.digests.names import folder_code
from shelfwise.compiler.digests.identity_match import reports_period
from shelfwise.compiler.language.force import LABEL_KEYWORDS, MODAL_VERBS
from shelfwise.compiler.language.numbers import alternation
from shelfwise.compiler.tuning import DEFAULT_TUNING, AnswerTuning

__all__ = ["shape_answer", "is_question", "statement_key", "distinct", "about_named", "on_bound_reports", "most_relevant_first", "fit_units",
           "FIXED"]

_CITE = re.compile(r"\[[^\]]*\]")
FIXED = ("table_header", "heading", "connective", "figure")
"""Unit kinds that are never compared as statements, nor dropped as questions."""


def statement_key(text: str) -> str:
    """What two shown statements are compared on: ``shelfwise.compiler.prose.normalise`` after citation marks and
    anything but words and '%' are dropped, case folded."""
    return normalise(re.sub(r"[^\w%]+", " ", _CITE.sub(" ", text)).lower())


_FIGURES = re.compile(r"\d+(?:[.,]\d+)*")


_FORCE = re.compile(rf"\b({alternation(MODAL_VERBS)}|cannot|will|would|{alternation(w.lower() for w in LABEL_KEYWORDS if ' ' not in w)}|"
                    r"not|never|no|none|nor|without|unless|except|only|\w+n't)\b", re.I)
"""Words that give a sentence its force, stop words to the ranking: "SHALL NOT store" and "SHALL store" are not one statement."""


def _force(text: str) -> list[str]:
    return sorted(m.lower() for m in _FORCE.findall(text))


def _restates(unit: Unit, seen: tuple, kept: list[tuple[Unit, tuple]], tuning: AnswerTuning) -> Unit | None:
    """The kept sentence ``unit`` restates: nearly the same words (``same_statement_share`` of the shorter one's: one
    manual in two formats, "(see Special Built-in Target Names)" in the Texinfo, "(see Section 4.8 [...], page 34)" in
    the PDF), the same modal and negating words, no figure against another, the same currency. Sentences of fewer than
    ``same_statement_words`` words are compared whole only (``statement_key``: "Use of this claim is OPTIONAL." under
    two claims). ``seen`` is ``_marks(unit)``; ``kept`` holds each kept unit with its marks."""
    words, force, figures = seen
    fewest = tuning.same_statement_words
    if unit.kind not in ("sentence", "list_item") or len(words) < fewest:
        return None
    for other, (other_words, other_force, theirs) in kept:
        if (other.kind == unit.kind and other.superseded_by == unit.superseded_by and len(other_words) >= fewest
                and len(words & other_words) >= tuning.same_statement_share * min(len(words), len(other_words))
                and other_force == force):
            # a figure only one states ("page 34") is fine, two figures not ("45 days", "30 days": a rule that changed)
            if figures <= theirs or theirs <= figures:
                return other
    return None


def _marks(unit: Unit) -> tuple[set[str], list[str], set[str]]:
    """What ``_restates`` compares a unit on, made once per unit: its words, its force, its figures."""
    return set(word_stems(unit.text)), _force(unit.text), set(_FIGURES.findall(unit.text))


def distinct(units: list[Unit], tuning: AnswerTuning = DEFAULT_TUNING) -> tuple[list[Unit], list[Removal]]:
    """Each statement once: the same words (``statement_key``), or nearly the same sentence from another copy of a text
    (``_restates``); the one kept also serves the obligations of those left out. A table's label row ("North America" over
    its segment's rows) states nothing: each table it labels shows it. Returns (kept, removed with the reason: the unit it
    repeats)."""
    seen: dict[str, Unit] = {}
    kept: list[tuple[Unit, tuple]] = []
    out: list[Unit] = []
    removed: list[Removal] = []
    for unit in units:
        if unit.kind in FIXED or unit.group in ("verdict", "correction") or label_row(unit):
            out.append(unit)
            if unit.group == "correction":
                seen.setdefault(statement_key(unit.text), unit)
            continue
        key = statement_key(unit.text)
        if key and key in seen:
            removed.append(Removal(unit=unit, stage="repeats", reason=f"the same statement as {seen[key].id}, shown"))
            continue
        marks = _marks(unit)
        same = _restates(unit, marks, kept, tuning)
        if same is not None:
            for index in (unit.obligation, *unit.also):
                if index != same.obligation and index not in same.also:
                    same.also.append(index)
            removed.append(Removal(unit=unit, stage="repeats", reason=f"nearly the same sentence as {same.id}, shown (another copy of the text)"))
            continue
        seen.setdefault(key, unit)
        kept.append((unit, marks))
        out.append(unit)
    return out, removed


def _own_keys(shelf: OpenShelf) -> dict[str, set[str]]:
    """Per document, the identifier keys that name the document itself: its path's and its title's first identifier
    ("RMF-003", not the "NW-300" its title is about), and the publication its folder is named as when it is one of its
    chapters ("sp800-63b/sec5_authenticators.md" is SP 800-63B: a question naming SP 800-63B is answered from it)."""
    def make() -> dict[str, set[str]]:
        out = {}
        for doc, row in shelf.documents.items():
            full = str(row.get("path", ""))
            path = full.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            title = identifiers(str(row.get("title", "")))
            out[doc] = {identifier_key(i) for i in [*identifiers(path), *title[:1], *identifiers(folder_code(full))]}
        return out
    return shelf.memo(("own-document-keys",), make)


_REVISION = re.compile(r"\((?:[^)]*)\)|\b(?:rev(?:ision)?|version|edition)\.?\s*[\w.]+", re.I)


def _title_words(title: str) -> str:
    """A title without its identifiers and its revision ("QM-001 Quality Manual, Rev D" -> "Quality Manual")."""
    for ident in identifiers(title):
        title = title.replace(ident, " ")
    return _REVISION.sub(" ", title)


def about_named(units: list[Unit], asks: list[str], shelves: dict[str, OpenShelf]) -> list[Unit]:
    """Units of an obligation whose ask names documents by their own identifiers, kept only when they come from one of
    those documents, from a document whose title words the ask holds ("the Quality Manual"), or name one of the named
    documents themselves. Headings, connectives, verdicts and corrections always stay."""
    allowed: dict[int, tuple[set[str], set[str]]] = {}  # obligation -> (documents it may quote, keys a sentence may name)
    for index, ask in enumerate(asks):
        asking = read_phrase(ask)
        keys, stems = set(asking.keys), set(asking.word_stems)
        docs, named_keys = set(), set()
        for name, shelf in shelves.items():
            for doc, own in _own_keys(shelf).items():
                title = set(word_stems(_title_words(str(shelf.documents[doc].get("title", "")))))
                if own & keys:
                    docs.add((name, doc))
                    named_keys |= own
                elif len(title) >= 2 and title <= stems:
                    docs.add((name, doc))
        if named_keys:
            allowed[index] = ({d for d in docs}, named_keys)

    # the question's named documents together: "how does PEP 646 extend PEP 484's *args" is served by both, whichever
    # of its parts the writer filed a unit under
    docs = {d for named, _ in allowed.values() for d in named}
    keys = {k for _, named in allowed.values() for k in named}

    def serves(unit: Unit) -> bool:
        return (any(o not in allowed for o in [unit.obligation, *unit.also]) or _always_shown(unit)
                or bool(_cited_documents(unit, shelves) & docs) or bool({identifier_key(i) for i in identifiers(unit.text)} & keys))

    kept = [u for u in units if serves(u)]
    groups = {u.group for u in kept if u.kind == "table_row"}
    return [u for u in kept if u.kind != "table_header" or u.group in groups]


def on_bound_reports(units: list[Unit], plan, shelves: dict[str, OpenShelf]) -> list[Unit]:
    """Units of an obligation the plan binds to some of an issuer's periodic reports by compiled identity ("Intel's latest
    10-Q", "the quarter ended April 1, 2023"; a report whose issuer was not found is of the series its name gives),
    kept only when they come from those reports: another period's report states another period's figures. An
    obligation bound to every report of its issuer ("compared to previous quarters"), or to none, keeps every unit; so
    does a follow-up. A sentence every quarter's report repeats cites the bound report only: it is shown under that
    report's name, not under the first of the other quarters' that say it too."""
    reports = {name: {d: i for d, i in (getattr(shelf, "identities", None) or {}).items()
                      if i.period_end and (i.issuer or i.name) and reports_period(i)}
               for name, shelf in shelves.items()}  # per shelf, its periodic reports' identities (not a day a document takes effect on)
    others: dict[int, set[tuple[str, str]]] = {}  # obligation -> (shelf, doc) of its series' reports it is not bound to
    for index, obligation in enumerate([] if plan.follow_up else plan.obligations):
        bound = set(obligation.documents)
        for name, ids in reports.items():
            if bound and bound <= ids.keys():
                series = {_series(ids[d]) for d in bound}
                others.setdefault(index, set()).update((name, d) for d, i in ids.items() if _series(i) in series and d not in bound)

    def kept(unit: Unit) -> bool:
        docs = _cited_documents(unit, shelves)
        return _always_shown(unit) or not docs or any(not docs <= others.get(o, set()) for o in [unit.obligation, *unit.also])

    def narrowed(unit: Unit) -> Unit:
        off = set.intersection(*(others.get(o, set()) for o in [unit.obligation, *unit.also]))
        sections = shelves[unit.shelf].sections if unit.shelf in shelves else {}
        citations = [c for c in unit.citations if c not in sections or (unit.shelf, sections[c].doc_id) not in off]
        if not (off and citations and citations != unit.citations):
            return unit
        return label_units([unit.model_copy(update={"citations": citations})], shelves)[0]  # named by the report it now cites

    return [narrowed(u) for u in units if kept(u)]


def _series(identity) -> str:
    """The series a periodic report belongs to: its issuer's, or where no issuer was found, its name's ("ACME Corp
    quarterly report" for each quarter's)."""
    return f"issuer:{identity.issuer}" if identity.issuer else f"name:{identity.name}"


def _always_shown(unit: Unit) -> bool:
    """A heading, a connective, a verdict or a correction: kept whatever documents a part is kept to."""
    return unit.kind in ("heading", "connective") or unit.group in ("verdict", "correction")


def _cited_documents(unit: Unit, shelves: dict[str, OpenShelf]) -> set[tuple[str, str]]:
    """(shelf, document id) of the sections ``unit`` cites."""
    sections = shelves[unit.shelf].sections if unit.shelf in shelves else {}
    return {(unit.shelf, sections[c].doc_id) for c in unit.citations if c in sections}


def _block(unit: Unit) -> str:
    return unit.group or (unit.citations[0] if unit.citations else unit.id)


def _with_lead_ins(units: list[Unit]) -> dict[int, str]:
    """Per unit index, the block of a list item or step that follows the sentence introducing its list in the same
    section: its section's block, so the list shows under its lead-in, in document order."""
    return {i: _block(units[lead]) for lead, items in list_runs(units) if lead is not None for i in items}


def most_relevant_first(units: list[Unit]) -> list[Unit]:
    """Per obligation: blocks (a section's sentences, a table, a procedure) by their best score, units kept in order;
    a list the section's sentence introduces ("... all of the following conditions are met:") is of the section's block."""
    out = []
    for obligation in dict.fromkeys(u.obligation for u in units):
        part = [u for u in units if u.obligation == obligation]
        lead = [u for u in part if u.group in ("verdict", "correction")]
        rest = [u for u in part if u.group not in ("verdict", "correction")]
        joined = _with_lead_ins(rest)
        blocks = [(u.superseded_by, joined.get(i, _block(u))) for i, u in enumerate(rest)]
        best: dict[str, float] = {}
        first: dict[str, int] = {}
        for position, unit in enumerate(rest):
            key = blocks[position]
            best[key] = max(best.get(key, 0.0), unit.score)
            first.setdefault(key, position)
        order = _procedures_in_sequence(sorted(best, key=lambda k: (k[0] != "", -best[k], first[k])), rest, blocks)
        out += lead + [u for key in order for u, block in zip(rest, blocks) if block == key]
    return out


_STEP_NUMBER = re.compile(r"^\s*(?:step\s+)?(\d{1,3})[.):]?\s", re.I)


def _procedures_in_sequence(order: list[tuple], units: list[Unit], blocks: list[tuple]) -> list[tuple]:
    """Procedure blocks that continue one another across documents (SOP-014's steps 1-6, then WI-022's 7-12) are
    shown in step order: a block whose first step number follows another block's last comes right after it; other
    blocks keep their places. ``blocks``: each unit's block."""
    numbers: dict[tuple, list[int]] = {}
    for key in order:
        steps = [u for u, block in zip(units, blocks) if block == key and u.kind == "step"]  # a lead-in's sentences aside
        found = [_STEP_NUMBER.match(u.text) for u in steps]
        if steps and all(found):
            numbers[key] = [int(m.group(1)) for m in found]
    if len(numbers) < 2:
        return order
    follows = {}  # block -> the block it continues (the best-ranked one whose last step precedes its first)
    for key in numbers:
        follows[key] = next((k for k in order if k in numbers and k != key and numbers[k][-1] + 1 == numbers[key][0]), None)

    def chain(key: tuple, seen: list[tuple]) -> list[tuple]:
        seen.append(key)
        for k in order:
            if k in numbers and follows.get(k) == key and k not in seen:
                chain(k, seen)
        return seen

    starts = [k for k in order if k in numbers and follows[k] is None]
    chains = sorted((chain(k, []) for k in starts), key=lambda c: min(order.index(k) for k in c))  # a chain ranks by its best block
    sequence = [k for c in chains for k in c]
    sequence = list(dict.fromkeys(sequence + [k for k in order if k in numbers]))  # a cycle of numbers: left in rank order
    slots = iter(sequence)
    return [next(slots) if key in numbers else key for key in order]


FOOTER = 250
"""Characters kept for what follows the quotes: gap lines, the not-shown line and the mode line."""


def _with_their_rows(units: list[Unit]) -> list[Unit]:
    """A table's header stays only with a row of its table that states something, and a row that only labels the rows
    under it only with the first of them ("AWS" right before its "Net sales" row, not before "Consolidated")."""
    groups = {u.group for u in units if u.kind == "table_row" and not label_row(u)}

    def labels_a_row(index: int) -> bool:
        under = next((u for u in units[index + 1:] if u.kind == "table_row" and u.group == units[index].group), None)
        return under is not None and not label_row(under)

    return [u for i, u in enumerate(units) if not (u.kind == "table_header" or label_row(u))
            or (u.group in groups and (u.kind == "table_header" or labels_a_row(i)))]


def _part_weights(best: dict[int, float], tuning: AnswerTuning) -> dict[int, float]:
    """Per obligation, what its units' scores are multiplied by when the size limit compares them across parts. A part
    whose best unit is strong evidence beside the best part's (``strong_share`` of its best score or more) shares the
    room as an equal: its scores are put on the best part's scale, so its own strong units do not give way to the other
    part's weaker ones because its questions' words rank lower. A part whose best unit is weaker than that (the
    documents barely answer it) keeps its scores and gives way first."""
    top = max(best.values(), default=0.0)
    return {o: top / b if b > 0 and b >= tuning.strong_share * top else 1.0 for o, b in best.items()}


def fit_units(units: list[Unit], max_chars: int, quoted: bool, tuning: AnswerTuning = DEFAULT_TUNING,
              procedures: set[int] | None = None) -> tuple[list[Unit], set[int]]:
    """Drop the least relevant units until the rendered answer (``shelfwise.api.answer.render.markdown_chars``) fits
    ``max_chars``. Steps go last, a list at a time (the least relevant first, never the last of their obligation), and
    only when the answer is still too long without its other units; then the items of the lists left, one at a time. For the obligations in ``procedures`` (None:
    every obligation) the best procedure stays whole with the lists that continue its numbering ("6. ... continue with
    step 7 in WI-022" then "7. Review ..."); a regulation's numbered paragraphs ("1. ... 2. ...", article by article)
    are lists, not one procedure."""
    from shelfwise.api.answer.render import markdown_chars

    limit = max(max_chars - FOOTER, max_chars // 2)
    units = _with_their_rows(units)
    if markdown_chars(units, quoted) <= limit:
        return units, set()
    best: dict[int, float] = {}
    for unit in units:
        best[unit.obligation] = max(best.get(unit.obligation, 0.0), unit.score)
    droppable = ("table_header", "heading", "connective", "step")  # a figure caption may go; a procedure's steps stay whole
    weight = _part_weights(best, tuning)
    # a list the answer quotes from keeps its lead-in while any of its items shows, and a list its lead-in makes one
    # whole (``all_or_none``) gives way whole or not at all, as a procedure's steps stay whole
    runs = [(lead, items) for lead, items in list_runs(units) if lead is not None]
    items_of = {lead: items for lead, items in runs}
    tables = table_runs(units)
    # a whole list goes with its lead-in: "... unless all of the following conditions are met:" never stands alone
    together = {i: (lead, *items) for lead, items in runs  # a procedure's steps stay, and their lead-in with them
                if all_or_none(units[lead]) and units[items[0]].kind not in droppable for i in (lead, *items)}
    candidates = [together.get(i, (i,)) for i, u in enumerate(units)
                  if u.kind not in droppable and u.group not in ("verdict", "correction") and together.get(i, (i,))[0] == i]

    def rank(group: tuple[int, ...]) -> tuple:  # code shows what a sentence says: it goes first
        members = group[1:] if len(group) > 1 else group  # a whole list ranks by its best item, not by its lead-in
        return (any(units[i].kind != "code" for i in group), max(units[i].score * weight[units[i].obligation] for i in members), -group[0])

    dropped: set[int] = set()
    lost: set[int] = set()

    def kept() -> list[Unit]:
        keep = _with_their_rows([u for i, u in enumerate(units) if i not in dropped])
        # a code block stays only after the sentence introducing it
        return [u for i, u in enumerate(keep) if u.kind != "code" or (i and keep[i - 1].citations[:1] == u.citations[:1]
                                                                      and introduces_code(keep[i - 1].text))]

    def last_of_its_documents(group: tuple[int, ...]) -> bool:
        """Whether dropping ``group`` leaves a document the answer quotes (among several) without a unit."""
        left = [u.source for i, u in enumerate(units) if i not in dropped and u.kind not in FIXED]
        going = [units[i].source for i in group]
        return len(set(left)) > 1 and any(s and left.count(s) <= going.count(s) for s in going)

    def last_of_its_obligations(group: tuple[int, ...]) -> bool:
        """Whether dropping ``group`` leaves an obligation without a unit (a lone unit: its obligation's last)."""
        for obligation in {units[i].obligation for i in group}:
            same = [i for i, u in enumerate(units) if u.obligation == obligation and i not in dropped and u.kind not in FIXED]
            if len(same) <= len([i for i in group if units[i].obligation == obligation]):
                return True
        return False

    def leads_shown_items(group: tuple[int, ...]) -> bool:
        return any(i not in dropped and i not in group for index in group for i in items_of.get(index, ()))

    for keep_documents in (True, False):  # a document the answer quotes gives way only once nothing else can
        tried: set[tuple[int, ...]] = set()
        while True:
            # a lead-in waits while its list shows; the other conditions only tighten as units go, so a group that
            # fails them once is not tried again in this pass
            open_groups = [g for g in candidates if g not in tried and g[0] not in dropped and not leads_shown_items(g)]
            if not open_groups:
                break
            group = min(open_groups, key=rank)
            tried.add(group)
            if last_of_its_obligations(group) or (keep_documents and last_of_its_documents(group)):
                continue
            dropped.update(group)
            for lead, items in [*runs, *tables]:  # a lead-in whose list's items (or table's rows) are all gone introduces
                if (lead not in dropped and set(items) <= dropped and not last_of_its_obligations((lead,))  # nothing: it goes
                        and not leads_shown_items((lead,))):  # too, unless a list of its own still shows under it
                    dropped.add(lead)
            for index in group:
                unit = units[index]
                if unit.kind != "code" and unit.score >= tuning.strong_share * best[unit.obligation]:  # strong evidence left out: what is shown is not the whole answer
                    lost.add(unit.obligation)
            if markdown_chars(kept(), quoted) <= limit:
                return kept(), lost
    if procedures is not None:
        strength = {i: units[i].score * weight[units[i].obligation] for i in range(len(units))}
        strong = {i for i in range(len(units)) if units[i].score >= tuning.strong_share * best[units[i].obligation]}
        _steps_give_way(units, dropped, lost, procedures, strength, strong, lambda: markdown_chars(kept(), quoted) <= limit,
                        last_of_its_obligations)
    return kept(), lost


def _steps_give_way(units: list[Unit], dropped: set[int], lost: set[int], procedures: set[int], strength: dict[int, float],
                    strong: set[int], fits: Callable[[], bool], last_of_its_obligations: Callable[[tuple[int, ...]], bool]) -> None:
    """``fit_units``'s last passes, on an answer still too long without its other units: whole lists of steps give way,
    the least relevant first (never the last of their obligation, nor a procedure ``_procedures_kept`` keeps whole),
    then the items of the lists left, one at a time, down to one unit of each part. ``dropped`` and ``lost`` (the
    obligations that lost strong evidence) grow in place."""
    lists: dict[str, list[int]] = {}
    for i, unit in enumerate(units):
        if unit.kind == "step" and i not in dropped:
            lists.setdefault(unit.group or unit.id, []).append(i)
    kept_whole = _procedures_kept(units, list(lists.values()), procedures)
    for items in sorted(lists.values(), key=lambda group: (max(strength[i] for i in group), -group[0])):
        if last_of_its_obligations(tuple(items)) or items[0] in kept_whole:
            continue
        dropped.update(items)
        lost |= {units[i].obligation for i in items if i in strong}
        if fits():
            return
    whole = {i for items in lists.values() if items[0] in kept_whole for i in items}
    for index in sorted((i for items in lists.values() for i in items if i not in dropped and i not in whole),
                        key=lambda i: (strength[i], -i)):
        if fits():
            return
        if not last_of_its_obligations((index,)):
            dropped.add(index)
            lost |= {units[index].obligation} if index in strong else set()


def _procedures_kept(units: list[Unit], lists: list[list[int]], procedures: set[int]) -> set[int]:
    """The first unit of each list kept whole: per obligation of ``procedures``, its most relevant list and the lists
    whose numbering continues it, before or after ("1." to "6.", then "7." to "12.")."""
    def number(index: int) -> int | None:
        match = _STEP_NUMBER.match(units[index].text)
        return int(match.group(1)) if match else None

    kept: set[int] = set()
    for obligation in procedures:
        own = [items for items in lists if units[items[0]].obligation == obligation]
        if not own:
            continue
        chain = [max(own, key=lambda items: max(units[i].score for i in items))]
        grew = True
        while grew:
            grew = False
            for items in own:
                if items in chain or number(items[0]) is None or number(items[-1]) is None:
                    continue
                if any(number(c[-1]) is not None and number(items[0]) == number(c[-1]) + 1 or
                       number(c[0]) is not None and number(items[-1]) + 1 == number(c[0]) for c in chain):
                    chain.append(items)
                    grew = True
        kept |= {items[0] for items in chain}
    return kept


def shape_answer(units: list[Unit], asks: list[str], shelves: dict[str, OpenShelf], *, max_chars: int,
                 extractive: bool, tuning: AnswerTuning = DEFAULT_TUNING) -> tuple[list[Unit], set[int]]:
    """(the units to display, the obligations that lost units to the size limit); see the module text. The answer
    driver runs the same parts as steps that record what each removed (``shelfwise.api.answer.show.show``)."""
    units = label_units(units, shelves)
    units = [u for u in units if u.kind in FIXED or u.group in ("verdict", "correction") or not is_question(u.text)]
    units, _ = distinct(units, tuning)
    if extractive:
        units = about_named(units, asks, shelves)
    units = current_first(units, asks, tuning)
    if extractive:
        units = most_relevant_first(units)
    return fit_units(units, max_chars, extractive, tuning)
