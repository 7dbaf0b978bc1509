"""A period the shelf does not hold: "Apple's total net sales in the quarter ended September 30, 2023" of a shelf whose
Apple filings end on July 1, 2023.

The documents' compiled identities (``shelfwise.compiler.digests.identity``: issuer, form, period) say which periods a
shelf holds. An obligation whose ask names a period (a date, a fiscal quarter) that no document of the issuer it names
has (``IdentityMatch.without_period``) is answered from what would be shown: when every unit shown for it comes from
documents that report periods (filings, not a handbook effective on a day) and none of the named issuer's names that
period, neither in its text nor in the header of its table nor in its section's headings (a filing holds the same
quarter of the year before as a comparative column: "Three Months Ended December 25, 2021"), the units are about
other periods, and the obligation is not in the documents. The answer then says which periods the documents hold,
instead of quoting another period's figure as if it answered.
"""

from __future__ import annotations

from dataclasses import dataclass

from shelfwise.api.shelves import OpenShelf
from shelfwise.compiler.digests.identity_match import IdentityMatch, periods_named

__all__ = ["UnheldPeriod", "unheld_periods", "report_periods", "identity_matcher"]


@dataclass(frozen=True)
class UnheldPeriod:
    """An obligation's period the shelf does not hold: the period as asked, and which periods the documents hold."""

    asked: list[str]
    held: str


def identity_matcher(shelf: OpenShelf) -> IdentityMatch:
    """The shelf's documents' identities, ready to match texts against; made once per open shelf."""
    return shelf.memo(("identity_match",), lambda: IdentityMatch(shelf.identities))


def _held_line(shelf: OpenShelf, docs: set[str]) -> str:
    """'These documents cover Apple Inc.'s quarter ended June 25, 2022, ... and quarter ended July 1, 2023.'"""
    by_issuer: dict[str, list[tuple[str, str]]] = {}
    for doc in docs:
        identity = shelf.identities[doc]
        by_issuer.setdefault(identity.issuer, []).append((identity.period_end or identity.fiscal_quarter, identity.period or identity.fiscal_quarter))
    parts = []
    for issuer in sorted(by_issuer):
        periods = [p for _, p in sorted(set(by_issuer[issuer]))]
        listed = periods[0] if len(periods) == 1 else f"{', '.join(periods[:-1])} and {periods[-1]}"
        parts.append(f"{issuer}'s {listed}" if issuer else listed)
    return f"These documents cover {'; '.join(parts)}."


def _documents(unit, shelves: dict[str, OpenShelf]) -> set[str]:
    shelf = shelves.get(unit.shelf)
    return {shelf.sections[sid].doc_id for sid in unit.citations if sid in shelf.sections} if shelf else set()


def report_periods(shelves: dict[str, OpenShelf], documents: set[tuple[str, str]]) -> bool:
    """Whether ``documents`` ((shelf, doc id) pairs) are periodic reports: every one with a compiled identity reports
    figures for a period (a filing, not a handbook effective on a day: ``IdentityMatch.reports_period``), at least one
    does; a file that says nothing of who and when it is (a shelf's catalogue, SOURCES.md) decides nothing. What such
    documents say changed is a change between periods (a figure against the year before), not between versions."""
    known = [(name, doc) for name, doc in documents if name in shelves and doc in shelves[name].identities]
    return bool(known) and all(identity_matcher(shelves[name]).reports_period(doc) for name, doc in known)


def _reports_periods(unit, shelves: dict[str, OpenShelf]) -> bool:
    """Whether every document a unit cites reports figures for a period (a filing, not a handbook or a catalogue)."""
    shelf = shelves.get(unit.shelf)
    docs = _documents(unit, shelves)
    return bool(docs) and shelf is not None and bool(shelf.identities) and all(identity_matcher(shelf).reports_period(d) for d in docs)


def _names_period(unit, keys: set[str], headers: dict[str, str], shelves: dict[str, OpenShelf]) -> bool:
    """Whether a unit names one of the periods ``keys``: in its text, its table's header, or its section's headings."""
    shelf = shelves.get(unit.shelf)
    headings = [" ".join(shelf.sections[sid].heading_path) for sid in unit.citations if shelf and sid in shelf.sections]
    text = " ".join([unit.text, headers.get(unit.group, "") if unit.group else "", *headings])
    return bool(keys & set(periods_named(text).values()))


def unheld_periods(plan, units, shelves: dict[str, OpenShelf]) -> dict[int, UnheldPeriod]:
    """Obligation index -> the period it asks about, when its ask names a period no document of the named issuer has
    and no unit that would be shown for it names that period (see the module text)."""
    asked_periods = periods_named(f"{plan.question} {plan.resolved_question}")
    headers = {u.group: u.text for u in units if u.kind == "table_header" and u.group}
    out: dict[int, UnheldPeriod] = {}
    for index, obligation in enumerate(plan.obligations):
        named = {text: key for text, key in periods_named(obligation.ask).items() if key in asked_periods.values()}
        shown = [u for u in units if (u.obligation == index or index in u.also) and u.kind not in ("heading", "table_header")]
        if not named or not shown:
            continue
        pools, held = {}, False
        for name in sorted({u.shelf for u in shown}):
            shelf = shelves.get(name)
            if shelf is not None and shelf.identities:
                pool = identity_matcher(shelf).without_period(obligation.ask)
                held = held or bool(identity_matcher(shelf).find(obligation.ask))  # another shelf's document has the period
                if pool:
                    pools[name] = pool
        if not pools or held or not all(_reports_periods(u, shelves) for u in shown):
            continue  # a handbook's sentence about "1 August 2026" is no figure of another period
        keys = set(named.values())
        if any(_names_period(u, keys, headers, shelves) for u in shown if _documents(u, shelves) & pools.get(u.shelf, set())):
            continue
        out[index] = UnheldPeriod(asked=list(named), held=" ".join(_held_line(shelves[n], pools[n]) for n in sorted(pools)))
    return out
