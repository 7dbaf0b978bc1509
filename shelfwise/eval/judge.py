"""Judges of stored answers (paper §4.2, §6.15): a blind, quote-checked model judge and the model-free quote recall.

``ModelJudge`` (default model ``settings.models.judge``) sees the question, the
must items and the answer, never the system, mode or models: the answer's
footers that name the mode are cut first (``blind_text``). It scores each item
1, 0.5 or 0 and must quote the answer for every credit; code then checks that
the quote stands in the answer and that the item's numbers (not its document
codes) stand in the answer too. A credit without a verified quote counts 0.
Statements the documents contradict (the judge compares with the must items,
which are the documents' words) are listed apart as ``wrong``, each with its
quote verified the same way.

``quote_recall`` needs no model: an item is credited when the answer holds one of
its gold quotes (whitespace-normalised) or one sentence of the answer holds at
least 80% of the item's content words. It is reported as "quote recall", never
as coverage.
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel, Field, ValidationError

from shelfwise.api.answer.check.guards import fold, numbers
from shelfwise.api.answer.compare.compare_answer import COMPUTED_LINE, MODE_LINES as COMPARE_MODE_LINES
from shelfwise.api.answer.complete import NOT_IN_DOCUMENTS
from shelfwise.api.answer.render import MODE_LINES, NO_REFERENCES
from shelfwise.api.terms import identifiers, normalise, stems
from shelfwise.compiler.ledger.rules import sentences
from shelfwise.compiler.models import ChatModel, ModelError
from shelfwise.compiler.refs import SECTION_ID
from shelfwise.eval.questions import MustItem, Question

__all__ = ["displayed_statements", "ItemGrade", "Wrong", "Grade", "ModelJudge", "quote_recall", "correction_first", "first_statement", "quoted_sentences", "blind_text", "quote_stands", "item_numbers",
           "states_item", "QUOTE_RECALL", "WORD_SHARE", "JUDGE_SYSTEM"]

QUOTE_RECALL = "quote recall"
WORD_SHARE = 0.8
"""A sentence states an item for quote recall when it holds this share of the item's content words."""

JUDGE_SYSTEM = """You grade one answer against the must-have items a complete answer states.
You see the question, the numbered items and the answer. For each item give a score:
1 = the answer states the item fully; 0.5 = it states part of it; 0 = it does not state it.
For every item you score above 0, copy in "quote" the exact words of the answer that state it: one contiguous span,
copied character for character, at most 300 characters. A score without such a quote is not counted.
Then list in "wrong" every statement of the answer that an item contradicts (a different number, date, condition or
conclusion than the item gives), with the answer's exact words in "quote", the item's number and why.
Missing facts are not wrong; only contradicted ones are.
Reply with JSON only:
{"items": [{"item": 1, "score": 1, "quote": "..."}], "wrong": [{"item": 2, "quote": "...", "why": "..."}]}"""

JUDGE_USER = "Question:\n{question}\n\nMust-have items:\n{items}\n\nAnswer:\n<answer>\n{answer}\n</answer>"

_CITATION = re.compile(rf"\s*\[(?:{SECTION_ID}|[\w.\-/]+:\d+)\]")
_NOT_SHOWN = re.compile(r"^\d+ statements? could not be verified and (?:are|is) not shown\.$")
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")


class ItemGrade(BaseModel):
    """One must item's grade."""

    item: int = Field(description="0-based index of the must item.")
    score: float = Field(description="The counted score: 1, 0.5 or 0 (0 when the credit's quote did not verify).")
    judge_score: float = Field(default=0.0, description="The score the judge gave before the code checks.")
    quote: str = Field(default="", description="The words of the answer the credit rests on.")
    verified: bool = Field(default=False, description="Whether the quote stands in the answer and the item's numbers do too.")
    reason: str = Field(default="", description="Why a credit was not counted, or how quote recall matched.")


class Wrong(BaseModel):
    """A statement of the answer that the documents (a must item) contradict."""

    item: int | None = Field(default=None, description="0-based index of the contradicted item, when the judge named one.")
    quote: str = Field(description="The answer's words.")
    why: str = Field(default="", description="The judge's reason.")
    verified: bool = Field(description="Whether the quote stands in the answer (unverified ones are not counted).")


class Grade(BaseModel):
    """One answer's grade by one judge."""

    id: str = Field(description="Question id.")
    judge: str = Field(description="'quote recall' or 'judge:<model>'.")
    score: float | None = Field(description="Mean item score: coverage for a model judge, quote recall for the model-free one.")
    items: list[ItemGrade] = Field(default_factory=list)
    wrong: list[Wrong] = Field(default_factory=list, description="Contradicted statements (model judge only).")
    wrong_n: int | None = Field(default=None, description="Verified wrong statements; None when this judge does not measure them.")
    error: str = Field(default="", description="Why the answer could not be graded (score is then None).")
    expected: dict = Field(default_factory=dict, description="For a question with 'expect': whether the answer met it "
                                                             "(no quoted sentence; the correction first), by code.")


def blind_text(markdown: str) -> str:
    """The answer as the judge sees it: citation marks and the footers naming the mode (a comparison's too) or counting
    removals cut."""
    footers = {line.strip() for line in [*MODE_LINES.values(), *COMPARE_MODE_LINES.values(), COMPUTED_LINE]}
    lines = [line for line in markdown.splitlines() if line.strip() not in footers and not _NOT_SHOWN.match(line.strip())]
    return _CITATION.sub("", "\n".join(lines)).strip()


_BROKEN_COMPOUND = re.compile(r"(?<=[A-Za-z0-9])- (?=[A-Za-z0-9])")
"""A hyphen and a space inside a compound: where a PDF's or a plain-text RFC's line broke it ("PaLM-" over "540B"), as
a quote copied from the page or an older reading keeps it ("PaLM- 540B") and the reader now joins it ("PaLM-540B")."""


def _plain(text: str) -> str:
    """Text compared for quotes: markdown emphasis, code marks and table bars dropped, quote marks dropped (a reader
    renders Texinfo's @code{x} as `x` where makeinfo writes 'x' and a PDF ‘x’), a compound's hyphen joined to the word
    after it (``_BROKEN_COMPOUND``), case folded."""
    text = _CITATION.sub("", text).replace("**", "").replace("`", "").replace("\\|", " ").replace("|", " ")
    text = re.sub(r"(?m)^\s*(?:#+|[-*]|\d+\.)\s+", " ", text)
    return _BROKEN_COMPOUND.sub("-", normalise(re.sub(r"['\"]", "", fold(text)))).casefold()


def quote_stands(quote: str, answer: str) -> bool:
    """Whether ``quote`` stands in ``answer`` (an elided quote: each piece, in order)."""
    pieces = [p for p in (_plain(piece) for piece in _ELLIPSIS.split(quote)) if p]
    if not pieces:
        return False
    haystack, position = _plain(answer), 0
    for piece in pieces:
        found = haystack.find(piece, position)
        if found < 0:
            return False
        position = found + len(piece)
    return True


def item_numbers(item: str) -> list[str]:
    """The numbers an item states, leaving out those inside document codes (PEP 484, RFC 6749, SOP-014)."""
    codes = {n for code in identifiers(item) for n in numbers(code)}
    return list(dict.fromkeys(n for n in numbers(item) if n not in codes))


def _verify(item: MustItem, quote: str, answer: str) -> tuple[bool, str]:
    if not quote.strip():
        return False, "credit without a quote"
    if not quote_stands(quote, answer):
        return False, f"quote not in the answer: {quote[:80]!r}"
    present = set(numbers(_plain(answer)))
    missing = [n for n in item_numbers(item.item) if n not in present]
    if missing:
        return False, f"the item's number(s) {', '.join(missing)} not in the answer"
    return True, ""


class _ReplyItem(BaseModel):
    item: int
    score: float
    quote: str = ""


class _ReplyWrong(BaseModel):
    item: int | None = None
    quote: str
    why: str = ""


class _Reply(BaseModel):
    items: list[_ReplyItem]
    wrong: list[_ReplyWrong] = Field(default_factory=list)


class ModelJudge:
    """The blind, quote-checked judge over one chat model."""

    def __init__(self, chat: ChatModel):
        self.chat = chat
        self.name = f"judge:{chat.model}"

    def messages(self, question: Question, answer_markdown: str) -> list[dict]:
        items = "\n".join(f"{n}. {item.item}" for n, item in enumerate(question.must, start=1))
        user = JUDGE_USER.format(question=question.question, items=items, answer=blind_text(answer_markdown))
        return [{"role": "system", "content": JUDGE_SYSTEM}, {"role": "user", "content": user}]

    def grade(self, question: Question, answer_markdown: str, sentences: list[dict] | None = None) -> Grade:
        """Grade one answer; a failed or unusable judge reply gives a Grade with ``error`` and no score.
        A not-in-documents question is graded by code (``expected_behaviour``), never by the model."""
        if question.expect == "not_in_documents":
            return quote_recall(question, answer_markdown, sentences).model_copy(update={"judge": self.name})
        try:
            raw = self.chat.complete(self.messages(question, answer_markdown), json_object=True)
            reply = _Reply.model_validate(json.loads(raw))
        except ModelError as exc:
            return Grade(id=question.id, judge=self.name, score=None, error=str(exc))
        except (json.JSONDecodeError, ValidationError) as exc:
            return Grade(id=question.id, judge=self.name, score=None,
                         error=f"judge {self.chat.model} replied without the JSON asked for ({type(exc).__name__}); rerun the judge")
        answer = blind_text(answer_markdown)
        given = {r.item - 1: r for r in reply.items}
        items = []
        for index, item in enumerate(question.must):
            got = given.get(index)
            if got is None:
                items.append(ItemGrade(item=index, score=0.0, reason="the judge gave no score"))
                continue
            judged = got.score if got.score in (0, 0.5, 1) else 0.0
            if judged == 0:
                items.append(ItemGrade(item=index, score=0.0, judge_score=0.0, quote=got.quote,
                                       reason="" if got.score in (0, 0.5, 1) else f"score {got.score} is not 1, 0.5 or 0"))
                continue
            verified, reason = _verify(item, got.quote, answer)
            items.append(ItemGrade(item=index, score=judged if verified else 0.0, judge_score=judged, quote=got.quote,
                                   verified=verified, reason=reason))
        wrong = [Wrong(item=(w.item - 1) if w.item else None, quote=w.quote, why=w.why, verified=quote_stands(w.quote, answer))
                 for w in reply.wrong]
        if question.expect == "false_premise" and items:
            first, how = correction_first(question, answer_markdown)
            if not first:
                items[0] = items[0].model_copy(update={"score": 0.0, "verified": False, "reason": how})
        score = sum(i.score for i in items) / len(items) if items else None
        return Grade(id=question.id, judge=self.name, score=score, items=items, wrong=wrong,
                     wrong_n=sum(1 for w in wrong if w.verified), expected=_expected(question, answer_markdown, sentences))


def _content(text: str) -> set[str]:
    return set(stems(_plain(text)))


def _answer_sentences(text: str) -> list[str]:
    out = []
    for line in blind_text(text).splitlines():
        out.extend(sentences(line.replace("|", " ")))
    return out


def states_item(item: MustItem, text: str) -> tuple[bool, str]:
    """Whether ``text`` states ``item`` by the quote-recall rule, and how it matched."""
    for evidence in item.evidence:
        if evidence.quote.strip() and _plain(evidence.quote) in _plain(text):
            return True, f"gold quote of {evidence.doc}"
    wanted = _content(item.item)
    if not wanted:
        return False, "the item has no content words"
    best = max((len(wanted & _content(s)) / len(wanted) for s in _answer_sentences(text)), default=0.0)
    if best >= WORD_SHARE:
        return True, f"a sentence holds {best:.0%} of the item's content words"
    return False, f"best sentence holds {best:.0%} of the item's content words"


def first_statement(answer_markdown: str) -> str:
    """The first statement the answer displays (its lead)."""
    from shelfwise.eval.judge import displayed_statements

    shown = displayed_statements(answer_markdown)
    return shown[0] if shown else ""


def correction_first(question: Question, answer_markdown: str) -> tuple[bool, str]:
    """Whether the answer's first statement states the correction (a false-premise question's first must item)."""
    lead = first_statement(answer_markdown)
    if not question.must or not lead:
        return False, "the answer states nothing"
    hit, how = states_item(question.must[0], lead)
    return hit, (f"the first sentence states the correction ({how})" if hit else f"the correction is not the first sentence ({how})")


def quoted_sentences(answer_markdown: str, sentences: list[dict] | None) -> int:
    """How many quoted (cited) statements the answer shows."""
    if sentences is not None:
        return sum(1 for s in sentences if s.get("citations"))
    return len(_CITATION.findall(answer_markdown))


def _expected(question: Question, answer_markdown: str, sentences: list[dict] | None) -> dict:
    """The behaviour a question with ``expect`` is graded on, by code: no quoted sentence for a not-in-documents
    question, the correction first for a false-premise one."""
    if question.expect == "not_in_documents":
        quoted = quoted_sentences(answer_markdown, sentences)
        return {"expect": question.expect, "met": quoted == 0, "quoted": quoted}
    if question.expect == "false_premise":
        first, how = correction_first(question, answer_markdown)
        return {"expect": question.expect, "met": first, "how": how}
    return {}


def quote_recall(question: Question, answer_markdown: str, sentences: list[dict] | None = None) -> Grade:
    """The model-free judge: per item 1 when the answer holds its gold quote or a sentence covering 80% of its words.

    A not-in-documents question (no must items) scores 1 when the answer shows no quoted sentence, else 0; a
    false-premise question's first item (the correction) is credited only when it is the answer's first sentence."""
    expected = _expected(question, answer_markdown, sentences)
    if question.expect == "not_in_documents":
        return Grade(id=question.id, judge=QUOTE_RECALL, score=1.0 if expected["met"] else 0.0, items=[], wrong_n=None,
                     expected=expected)
    items = []
    for index, item in enumerate(question.must):
        hit, how = states_item(item, answer_markdown)
        if index == 0 and question.expect == "false_premise" and hit and not expected["met"]:
            hit, how = False, expected["how"]
        items.append(ItemGrade(item=index, score=1.0 if hit else 0.0, judge_score=1.0 if hit else 0.0, verified=hit, reason=how))
    score = sum(i.score for i in items) / len(items) if items else None
    return Grade(id=question.id, judge=QUOTE_RECALL, score=score, items=items, wrong_n=None, expected=expected)


_RULE = re.compile(r"^\|?\s*:?-{3,}")
_SOURCE_LABEL = re.compile(r"^\*\*[^*]+:\*\*$")
"""A line that only names the document the list or table under it comes from ("**WI-022:**")."""


def displayed_statements(markdown: str, not_covered: list[str] | None = None) -> list[str]:
    """The statements an answer displays, in order (see the module docstring for what is left out)."""
    gaps = {_plain(line) for line in (not_covered or [])} | {_plain(f"{NOT_IN_DOCUMENTS}."), _plain(NO_REFERENCES)}
    out: list[str] = []
    lines = blind_text(markdown).splitlines()
    fence = ""
    for number, line in enumerate(lines):
        text = line.strip()
        run = re.match(r"`{3,}", text)
        if fence:  # a quoted code block is shown as its document has it: not a statement
            fence = "" if run and text == fence else fence
            continue
        if run:
            fence = run.group(0)
            continue
        if not text or text.startswith("#") or _RULE.match(text) or _SOURCE_LABEL.match(text) or _plain(text) in gaps:
            continue
        if text.startswith("|"):
            following = lines[number + 1].strip() if number + 1 < len(lines) else ""
            if _RULE.match(following):
                continue  # a table's header row
            out.append(text)
            continue
        text = re.sub(r"^(?:[-*]|\d+\.)\s+", "", text)
        out.extend(s for s in sentences(text) if len(s.split()) >= 3 and _plain(s) not in gaps)
    return out
