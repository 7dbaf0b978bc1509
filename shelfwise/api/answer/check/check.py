"""The claim checker: each claim with its cited sections' text to a checker, verified spans, code guards, a second look.

``ClaimChecker(judge)`` is the pipeline's ``Checker``: ``checker(draft, shelves) -> Draft``.
- A claim that stands verbatim in a cited section is confirmed by code, with no model call.
- The rest go to ``judge`` in batches (per cited set; the reply budget scales with the claims);
  the judge answers supports / contradicts / not_found with a span. Code verifies the span
  stands in a cited section (whitespace-normalised); no verified span = not_found.
- A "supports" must also pass ``shelfwise.api.answer.check.guards.guard``; a "Change" cell is computed by code.
- A claim the reply did not reach (truncated, invalid entry) is re-checked in a smaller
  batch, never treated as unsupported; after ``max_rounds`` it is "unchecked".
- Not found: a second look restates it as the cited section's sentence that best covers it
  (verbatim, so code confirms it), or labels it unconfirmed. Contradicted: removed, recorded.
- Confirmed verdicts are carried across re-checks (a cache keyed on shelf, text, context and sources,
  read and written under its own lock: one checker serves concurrent requests).
- A model server failure (timeout, 429, 500 after the client's retries) leaves the remaining
  claims unchecked and says so in ``warnings``: a clear partial answer.
"""

from __future__ import annotations

import json
import re
import threading
from datetime import date
from collections import OrderedDict
from typing import Literal, Protocol

from pydantic import BaseModel, ValidationError

from shelfwise.api.answer.claims import claims_of, split_sentences
from shelfwise.api.answer.check.guards import change_cell_ok, fold, guard
from shelfwise.api.prompts import CHECK_SYSTEM, CHECK_USER
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import stems, unit_cells
from shelfwise.api.answer.records import Claim, Draft, Unit
from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.models import ChatModel, ModelError

__all__ = ["section_sentences", "RawVerdict", "Judge", "ModelJudge", "ClaimChecker", "CONFIRMED", "section_texts",
           "dates_in", "require_checker", "salvage", "with_day_counts"]

CONFIRMED = ("verbatim", "supports", "restated", "carried", "computed")
RESTATE_SHARE = 0.6
"""The second look restates a claim only with a sentence holding this share of its content words."""


class RawVerdict(BaseModel):
    """One entry of the checker's reply, validated."""

    id: str
    verdict: Literal["supports", "contradicts", "not_found"]
    span: str = ""


class Judge(Protocol):
    """Answers, for claims and the text of the sections they cite, a JSON text {"verdicts": [...]}."""

    name: str

    def judge(self, claims: list[Claim], sections: dict[str, str], max_tokens: int) -> str: ...


class ModelJudge:
    """The checker model behind the ``Judge`` interface."""

    def __init__(self, chat: ChatModel):
        self.chat = chat
        self.name = chat.model

    def judge(self, claims: list[Claim], sections: dict[str, str], max_tokens: int) -> str:
        docs = "\n".join(f'<section id="{sid}">\n{text}\n</section>' for sid, text in sections.items())
        lines = "\n".join(
            f'<claim id="{c.id}" cites="{" ".join(c.citations)}">{c.text}</claim>' + (f" ({c.context})" if c.context else "")
            for c in claims
        )
        messages = [{"role": "system", "content": CHECK_SYSTEM},
                    {"role": "user", "content": CHECK_USER.format(sections=docs, claims=lines)}]
        return self.chat.complete(messages, json_object=True, max_tokens=max_tokens)


def section_texts(shelf: OpenShelf | None, citations: list[str]) -> dict[str, str]:
    """The cited sections' text (those the shelf holds), in citation order."""
    if shelf is None:
        return {}
    return {sid: shelf.sections[sid].text for sid in citations if sid in shelf.sections}


def _labels(shelf: OpenShelf | None, citations: list[str]) -> str:
    if shelf is None:
        return ""
    out = []
    for sid in citations:
        if sid in shelf.sections:
            section = shelf.sections[sid]
            out.append(" ".join([shelf.doc_name(section.doc_id) if section.doc_id in shelf.documents else "", *section.heading_path]))
    return " ".join(out)


def salvage(reply: str) -> tuple[list[RawVerdict], list[str]]:
    """Valid verdict entries from a reply, even a truncated one; and what was wrong with the rest."""
    problems: list[str] = []
    entries: list = []
    try:
        data = json.loads(reply)
        entries = data.get("verdicts", []) if isinstance(data, dict) else data if isinstance(data, list) else []
    except json.JSONDecodeError:
        decoder = json.JSONDecoder()
        index = reply.find("{", 1)
        while index != -1:
            try:
                obj, end = decoder.raw_decode(reply, index)
                if isinstance(obj, dict) and "id" in obj:
                    entries.append(obj)
                    index = reply.find("{", end)
                    continue
            except json.JSONDecodeError:
                pass
            index = reply.find("{", index + 1)
        problems.append(f"the reply is not whole JSON ({len(reply)} characters); {len(entries)} entries read from it")
    out = []
    for entry in entries if isinstance(entries, list) else []:
        try:
            out.append(RawVerdict.model_validate(entry))
        except ValidationError as exc:
            problems.append(f"an entry failed validation: {exc.errors()[0]['msg']} ({str(entry)[:80]})")
    return out, problems


class ClaimChecker:
    """Checks every claim of a draft; see the module text."""

    def __init__(self, judge: Judge, *, batch_size: int = 8, max_rounds: int = 3, tokens_per_claim: int = 160,
                 base_tokens: int = 200, cache_size: int = 4096, verbatim_shortcut: bool = True):
        self.judge = judge
        self.name = judge.name
        self.batch_size = batch_size
        self.max_rounds = max_rounds
        self.tokens_per_claim = tokens_per_claim
        self.base_tokens = base_tokens
        self.cache: OrderedDict[tuple, tuple[str, str]] = OrderedDict()
        self.cache_size = cache_size
        self._cache_lock = threading.Lock()
        self.verbatim_shortcut = verbatim_shortcut

    def __call__(self, draft: Draft, shelves: dict[str, OpenShelf]) -> Draft:
        claims = claims_of(draft)
        units = {u.id: u for u in draft.units}
        checked = Draft(**{**draft.model_dump(exclude={"units"}), "checker": self.name}, units=[])
        pending: list[Claim] = []
        for claim in claims:
            shelf = shelves.get(claim.shelf)
            texts = section_texts(shelf, claim.citations)
            if not texts:
                claim.verdict, claim.reason = "unconfirmed", f"it cites no section of shelf {claim.shelf!r} ({', '.join(claim.citations)})"
            elif claim.kind == "change_cell":
                ok, why = change_cell_ok(unit_cells(units[claim.unit_id]), claim.cell or 0)
                claim.verdict, claim.reason = ("computed", "") if ok else ("contradicts", why)
            elif self.verbatim_shortcut and (units[claim.unit_id].status == "verbatim" or any(fold(claim.text) in fold(t) for t in texts.values())):
                claim.verdict, claim.span = "verbatim", claim.text
            elif (carried := self._carried(claim, texts)) is not None:
                claim.verdict, claim.span = "carried", carried
            else:
                pending.append(claim)
        self._rounds(pending, shelves, checked)
        for claim in claims:
            if claim.verdict == "not_found":
                self._second_look(claim, section_texts(shelves.get(claim.shelf), claim.citations))
        checked.claims = claims
        checked.units = with_day_counts(_apply(draft.units, claims))
        return checked

    @staticmethod
    def _key(claim: Claim, texts: dict[str, str]) -> tuple:
        return (claim.shelf, claim.text, claim.context, tuple(sorted(texts)), hash(tuple(texts.values())))

    def _carried(self, claim: Claim, texts: dict[str, str]) -> str | None:
        """The span of an earlier confirmation of this claim on these sections of this shelf, if any."""
        with self._cache_lock:
            found = self.cache.get(self._key(claim, texts))
        return found[1] if found else None

    def _remember(self, claim: Claim, texts: dict[str, str], span: str) -> None:
        with self._cache_lock:
            self.cache[self._key(claim, texts)] = ("supports", span)
            while len(self.cache) > self.cache_size:
                self.cache.popitem(last=False)

    def _rounds(self, pending: list[Claim], shelves: dict[str, OpenShelf], checked: Draft) -> None:
        size = self.batch_size
        for round_no in range(1, self.max_rounds + 1):
            if not pending:
                return
            groups: dict[tuple, list[Claim]] = {}
            for claim in pending:
                groups.setdefault((claim.shelf, tuple(claim.citations)), []).append(claim)
            unreached: list[Claim] = []
            for (shelf_name, _), group in groups.items():
                shelf = shelves.get(shelf_name)
                for start in range(0, len(group), size):
                    batch = group[start: start + size]
                    texts = section_texts(shelf, batch[0].citations)
                    try:
                        reply = self.judge.judge(batch, texts, self.base_tokens + self.tokens_per_claim * len(batch))
                    except ModelError as exc:
                        checked.calls += 1
                        left = [c for c in pending if c.verdict == "pending"]
                        for claim in left:
                            claim.verdict, claim.reason = "unchecked", f"the checker model failed: {exc}"
                        checked.warnings.append(f"{exc}; {len(left)} claim(s) could not be checked and are not shown")
                        return
                    checked.calls += 1
                    got, problems = salvage(reply)
                    checked.warnings.extend(f"checker reply (round {round_no}): {p}" for p in problems)
                    by_id = {v.id: v for v in got}
                    for claim in batch:
                        claim.tries += 1
                        raw = by_id.get(claim.id)
                        if raw is None:
                            unreached.append(claim)
                        else:
                            self._verify(claim, raw, texts, _labels(shelf, claim.citations))
            pending = unreached
            size = max(1, size // 2)
        for claim in pending:
            claim.verdict = "unchecked"
            claim.reason = f"the checker's replies did not reach it in {self.max_rounds} tries"

    def _verify(self, claim: Claim, raw: RawVerdict, texts: dict[str, str], labels: str) -> None:
        span = fold(raw.span)
        if raw.verdict == "not_found":
            claim.verdict, claim.reason = "not_found", "the checker found no support in the cited sections"
            return
        if not span or not any(span in fold(t) for t in texts.values()):
            claim.verdict = "not_found"
            claim.reason = f"the checker's {raw.verdict} verdict quotes a span that is not in the cited section: {raw.span[:120]!r}"
            return
        claim.span = raw.span
        if raw.verdict == "contradicts":
            claim.verdict, claim.reason = "contradicts", f"the cited section says otherwise: {raw.span[:200]!r}"
            return
        failures = guard(claim.text, raw.span, list(texts.values()), labels)
        if failures:
            claim.verdict, claim.reason = "not_found", "supports overruled by code: " + "; ".join(failures)
            return
        claim.verdict = "supports"
        self._remember(claim, texts, raw.span)

    @staticmethod
    def _second_look(claim: Claim, texts: dict[str, str]) -> None:
        """Restate in the document's words (the cited sentence that best covers it) or label it unconfirmed."""
        want = set(stems(claim.text))
        best, best_share = "", 0.0
        for text in texts.values():
            for sentence in section_sentences(text):
                share = len(want & set(stems(sentence))) / len(want) if want else 0.0
                if share > best_share or (share == best_share and best and len(sentence) < len(best)):
                    best, best_share = sentence, share
        if claim.kind in ("sentence", "list_item", "step") and best and best_share >= RESTATE_SHARE and len(best) <= 600:
            claim.restated, claim.verdict, claim.span = best, "restated", best
            claim.reason = f"{claim.reason}; restated in the words of the cited section".lstrip("; ")
        else:
            claim.verdict = "unconfirmed"
            claim.reason = f"{claim.reason}; no sentence of the cited section states it".lstrip("; ")


def section_sentences(text: str) -> list[str]:
    """Sentences of a section's text, never across its blocks (paragraphs, list items, table rows, figures)."""
    return [sentence for block in text.split("\n\n") for sentence in split_sentences(block)]


def _apply(units: list[Unit], claims: list[Claim]) -> list[Unit]:
    """Units with their status from their claims; a restated unit shows the section's sentence."""
    by_unit: dict[str, list[Claim]] = {}
    for claim in claims:
        by_unit.setdefault(claim.unit_id, []).append(claim)
    out = []
    for unit in units:
        own = by_unit.get(unit.id)
        if not own:
            out.append(unit)
        elif unit.kind == "table_row":
            failed = [c for c in own if c.verdict not in CONFIRMED]
            out.append(unit.model_copy(update={"status": "supports" if not failed else "cells-failed"}))
        else:
            claim = own[0]
            update: dict = {"status": claim.verdict}
            if claim.verdict == "restated":
                update["text"] = claim.restated
            out.append(unit.model_copy(update=update))
    return out


_MONTHS = {m: i for i, m in enumerate("january february march april may june july august september october november december".split(), 1)}
_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b|\b(\d{1,2}) ([A-Z][a-z]+) (\d{4})\b|\b([A-Z][a-z]+) (\d{1,2}), (\d{4})\b")


def dates_in(text: str) -> list[date]:
    """Calendar dates written in ``text`` (2025-03-14, 14 March 2025, March 14, 2025), in order."""
    found = []
    for m in _DATE.finditer(text):
        try:
            if m.group(1):
                found.append(date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
            elif m.group(4) and m.group(5).lower() in _MONTHS:
                found.append(date(int(m.group(6)), _MONTHS[m.group(5).lower()], int(m.group(4))))
            elif m.group(7) and m.group(7).lower() in _MONTHS:
                found.append(date(int(m.group(9)), _MONTHS[m.group(7).lower()], int(m.group(8))))
        except ValueError:
            continue
    return found


def with_day_counts(units: list[Unit]) -> list[Unit]:
    """After each judgment's checked premises, the day counts between their dates, computed by code (never by a model)."""
    out: list[Unit] = []
    by_obligation: dict[int, list[Unit]] = {}
    for unit in units:
        if unit.group == "premise" and unit.status in CONFIRMED:
            by_obligation.setdefault(unit.obligation, []).append(unit)
    added: set[int] = set()
    for index, unit in enumerate(units):
        out.append(unit)
        premises = by_obligation.get(unit.obligation, [])
        is_last = premises and unit.id == premises[-1].id
        if not is_last or unit.obligation in added:
            continue
        added.add(unit.obligation)
        dated = [(d, p) for p in premises for d in dates_in(p.text)]
        for (d1, p1), (d2, p2) in zip(dated, dated[1:]):
            if d1 == d2:
                continue
            text = f"{abs((d2 - d1).days)} days from {d1.isoformat()} to {d2.isoformat()} (counted by code)."
            out.append(Unit(id=f"{unit.id}d{len(out)}", kind="sentence", text=text, shelf=unit.shelf,
                            citations=list(dict.fromkeys([*p1.citations, *p2.citations])), obligation=unit.obligation,
                            status="computed", group="computed", origin="computed"))
    return out


def require_checker(model: str | None) -> str:
    """The checker model id; raises naming the setting when a model writer has no checker (no silent fallback)."""
    if not model:
        raise ShelfwiseError("models.writer is set but models.checker is not; a model's answer is shown only when checked: "
                             "set models.checker in shelfwise.toml")
    return model
