"""The model writer: the read sections to a model, Markdown back, parsed into cited units (paper §3.3 "Writing").

``ModelWriter(chat)`` is a ``Writer``: ``write(plan, reading, shelves) -> Draft``.
- Instructions stand above the documents; each read section goes as
  ``<section id=".." document=".." page=".." heading="A > B">text</section>``, with
  ``status="superseded by <title>"`` (or ``"updated by <title>"``) when the ledger links another
  document of the shelf as superseding (updating) its document: the writer gets the same
  current-versus-superseded signal the model-free writer ranks by.
- The parts list gives each obligation its format by kind (``shelfwise.api.prompts.FORMATS``).
- No length cut-off: sections beyond one writer's budget (48,000 characters) go to a next
  writer, told what is already written and to add only what is not; then a composer gets
  every part whole, with output room in proportion; a part's units the composed answer
  drops (no unit of it cites their sections) are appended in their own words.
- The reply is parsed by ``shelfwise.api.answer.claims.parse_answer``; the checker and the gate do the rest. An uncited
  sentence between cited ones of a paragraph is attributed to its neighbours' sections (it is shown only
  if the checker then confirms it); citations of ids the writer was not given are dropped from the unit
  and named in the draft's ``notes`` (the answer's warnings) and ``invented`` (the trace's ``invented_citations``),
  never silently.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from shelfwise.api.answer.claims import parse_answer
from shelfwise.api.answer.plan.plan import Plan
from shelfwise.api.prompts import CANNOT_ANSWER, COMPOSE_SYSTEM, FORMATS, WRITE_MORE, WRITE_SYSTEM, WRITE_USER
from shelfwise.api.answer.read.read import Reading, read_text
from shelfwise.api.shelves import OpenShelf
from shelfwise.api.terms import stems
from shelfwise.api.answer.records import Draft, InventedCitation, Unit
from shelfwise.compiler.models import ChatModel
from shelfwise.compiler.tuning import DEFAULT_TUNING

__all__ = ["ModelWriter", "section_xml", "document_status", "batches"]


def document_status(shelf: OpenShelf) -> dict[str, str]:
    """Document id -> 'superseded by <title>' / 'updated by <title>' from the shelf's supersedes and updates links."""
    return shelf.memo(("document-status",), lambda: _document_status(shelf))


def _document_status(shelf: OpenShelf) -> dict[str, str]:
    status: dict[str, str] = {}
    for kind, verb in (("updates", "updated by"), ("supersedes", "superseded by")):  # superseded wins over updated
        by: dict[str, list[str]] = {}
        for link in shelf.links:
            if link.kind == kind and link.src_doc != link.dst_doc and link.src_doc in shelf.documents:
                by.setdefault(link.dst_doc, []).append(shelf.doc_name(link.src_doc))
        for doc_id, titles in by.items():
            status[doc_id] = f"{verb} {', '.join(sorted(set(titles)))}"
    return status


def section_xml(shelf: OpenShelf, section_id: str, text: str | None = None) -> str:
    """One read section as the writer sees it (``text``: what was read of it, when read in part), with its document's
    status when another document supersedes or updates it."""
    section = shelf.sections[section_id]
    document = shelf.documents.get(section.doc_id, {})
    page = "" if section.page_start is None else str(section.page_start)
    if section.page_end not in (None, section.page_start):
        page += f"-{section.page_end}"
    status = document_status(shelf).get(section.doc_id)
    attrs = (f"id={quoteattr(section_id)} document={quoteattr(shelf.doc_name(section.doc_id) if document else section.doc_id)} "
             f"page={quoteattr(page)} heading={quoteattr(' > '.join(section.heading_path))}"
             + (f" status={quoteattr(status)}" if status else ""))
    return f"<section {attrs}>\n{escape(section.text if text is None else text)}\n</section>"


def batches(blocks: list[tuple[str, str, str]], budget: int) -> list[list[tuple[str, str, str]]]:
    """(shelf, section id, xml) blocks packed in order into batches of at most ``budget`` characters (a larger block goes alone)."""
    out: list[list[tuple[str, str, str]]] = []
    size = 0
    for block in blocks:
        if not out or (size + len(block[2]) > budget and out[-1]):
            out.append([])
            size = 0
        out[-1].append(block)
        size += len(block[2])
    return out


def _parts(plan: Plan) -> str:
    return "\n".join(f"{n}. [{o.kind}] {o.ask} — format: {FORMATS.get(o.kind, FORMATS['describe'])}"
                     for n, o in enumerate(plan.obligations, start=1))


class ModelWriter:
    """Writes the answer with a model; see the module text."""

    def __init__(self, chat: ChatModel, *, budget_chars: int = DEFAULT_TUNING.model_writer_chars, tokens_per_char: float = 0.08,
                 min_tokens: int = 800, max_tokens: int = 6000):
        self.chat = chat
        self.name = chat.model
        self.budget = budget_chars
        self.tokens_per_char = tokens_per_char
        self.min_tokens = min_tokens
        self.max_tokens = max_tokens
        self.calls = 0

    def _call(self, system: str, user: str, room: int) -> str:
        self.calls += 1
        return self.chat.complete([{"role": "system", "content": system}, {"role": "user", "content": user}], max_tokens=room)

    def _room(self, chars: int) -> int:
        return max(self.min_tokens, min(self.max_tokens, int(chars * self.tokens_per_char)))

    def write(self, plan: Plan, reading: Reading, shelves: dict[str, OpenShelf]) -> Draft:
        blocks = [(r.shelf, r.section_id, section_xml(shelves[r.shelf], r.section_id, read_text(shelves[r.shelf], r))) for r in reading.sections
                  if r.shelf in shelves and r.section_id in shelves[r.shelf].sections]
        shelf_of: dict[str, list[str]] = {}  # section id -> the shelves holding it, in reading order (ids are unique per shelf only)
        for shelf, sid, _ in blocks:
            if shelf not in shelf_of.setdefault(sid, []):
                shelf_of[sid].append(shelf)
        parts: list[str] = []
        for batch in batches(blocks, self.budget):
            already = WRITE_MORE.format(written="\n\n".join(parts)) if parts else ""
            user = WRITE_USER.format(parts=_parts(plan), question=plan.resolved_question, already=already,
                                     documents="\n".join(xml for _, _, xml in batch))
            parts.append(self._call(WRITE_SYSTEM, user, self._room(sum(len(x) for _, _, x in batch))))
        notes: list[str] = []
        if len(parts) > 1:
            whole = "\n\n".join(f"<part n=\"{n}\">\n{p}\n</part>" for n, p in enumerate(parts, start=1))
            composed = self._call(COMPOSE_SYSTEM, f"Parts of the answer:\n{_parts(plan)}\n\n{whole}", self._room(len(whole) * 8))
            raw = composed
            units, unanswered, invented = self._units(composed, plan, shelf_of, notes)
            records = [_invented(u, invented[u.id]) for u in units if u.id in invented]
            units = self._append_dropped(units, parts, plan, shelf_of, records)
        else:
            raw = parts[0] if parts else ""
            units, unanswered, invented = self._units(raw, plan, shelf_of, notes)
            records = [_invented(u, invented[u.id]) for u in units if u.id in invented]
        notes += [record.note() for record in records]
        covered = {i: (0.0 if i in unanswered and not any(u.obligation == i for u in units) else
                       1.0 if any(u.obligation == i and u.citations for u in units) else 0.0)
                   for i in range(len(plan.obligations))}
        return Draft(writer=self.name, units=units, covered=covered, raw=raw if len(parts) <= 1 else "\n\n".join([*parts, raw]),
                          notes=notes, invented=records, unanswered=sorted(unanswered))

    def _units(self, markdown: str, plan: Plan, shelf_of: dict[str, list[str]], notes: list[str] | None = None
               ) -> tuple[list[Unit], set[int], dict[str, list[str]]]:
        """(units, unanswered obligations, unit id -> the section ids it cited that the writer was not given)."""
        units, unanswered = parse_answer(markdown, obligation=-1, sentinel=CANNOT_ANSWER, attribute=True)
        n = len(plan.obligations)
        out = []
        invented: dict[str, list[str]] = {}
        for unit in units:
            obligation = unit.obligation if 0 <= unit.obligation < n else self._nearest(unit.text, plan)
            shelf = _shelf_of_unit(unit.citations, shelf_of)
            unknown = [s for s in unit.citations if s not in shelf_of]
            cites = [s for s in unit.citations if shelf in shelf_of.get(s, ())]
            elsewhere = [s for s in unit.citations if s in shelf_of and s not in cites]
            uid = f"u{len(out) + 1}"
            if elsewhere and notes is not None:
                notes.append(f"the model writer cited sections of two shelves in one sentence, {uid} {unit.text[:120]!r}: "
                             f"kept those of shelf {shelf!r}, dropped {', '.join(elsewhere)}")
            update = {"obligation": obligation, "shelf": shelf, "citations": cites, "id": uid}
            if unknown and not cites:
                update["status"] = "unconfirmed"
            if unknown:
                invented[uid] = unknown
            out.append(unit.model_copy(update=update))
        return out, unanswered, invented

    @staticmethod
    def _nearest(text: str, plan: Plan) -> int:
        words = set(stems(text))
        scores = [(len(words & set(stems(" ".join([o.ask, *o.targets])))), -i) for i, o in enumerate(plan.obligations)]
        return -max(scores)[1] if scores else 0

    def _append_dropped(self, units: list[Unit], parts: list[str], plan: Plan, shelf_of: dict[str, list[str]],
                        records: list[InventedCitation]) -> list[Unit]:
        """``units`` and, after them, the part units citing sections none of them cites; their invented ids go to ``records``."""
        cited = {sid for u in units for sid in u.citations}
        out = list(units)
        for part in parts:
            part_units, _, invented = self._units(part, plan, shelf_of)
            for unit in part_units:
                if unit.citations and not set(unit.citations) & cited and unit.kind not in ("heading", "connective"):
                    out.append(unit.model_copy(update={"id": f"u{len(out) + 1}"}))
                    if unit.id in invented:
                        records.append(_invented(out[-1], invented[unit.id]))
        return out


def _invented(unit: Unit, unknown: list[str]) -> InventedCitation:
    """The record of the section ids ``unit`` cited that the writer was not given (dropped from it)."""
    return InventedCitation(unit=unit.id, text=unit.text, ids=unknown, kept=list(unit.citations))


def _shelf_of_unit(citations: list[str], shelf_of: dict[str, list[str]]) -> str:
    """The shelf a unit's citations are read on: the first (in reading order) holding every one it was given,
    else the one holding most; a section id alone does not name a shelf when two shelves hold it."""
    known = [s for s in citations if s in shelf_of]
    candidates = [shelf for sid in known for shelf in shelf_of[sid]] or [shelf for shelves in shelf_of.values() for shelf in shelves]
    if not candidates:
        return ""
    order = list(dict.fromkeys(candidates))
    return max(order, key=lambda shelf: (sum(shelf in shelf_of[sid] for sid in known), -order.index(shelf)))
