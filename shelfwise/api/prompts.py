"""Prompts of the answering pipeline. Instructions stand above the material they govern."""

from __future__ import annotations

__all__ = ["PLAN_SYSTEM", "PLAN_USER", "WRITE_SYSTEM", "WRITE_USER", "WRITE_MORE", "COMPOSE_SYSTEM", "CHECK_SYSTEM", "CHECK_USER",
           "FORMATS", "CANNOT_ANSWER", "CITATION_FORMAT", "COMPARE_SYSTEM", "COMPARE_USER", "RESEARCH_SYSTEM", "RESEARCH_USER",
           "SELECT_SYSTEM", "SELECT_USER", "SELECT_EXAMPLE"]

PLAN_SYSTEM = """You plan answers to questions about a shelf of documents. You do not answer.
Split the question into the fewest obligations a complete answer needs. For each give:
- kind: one of describe, explain, compare, trace, judge, list, lookup, propose
  (trace = a procedure or a sequence of events in order; judge = a yes/no verdict; lookup = one value or fact)
- ask: the obligation in one short sentence
- targets: the terms to look for, taken from the question and written as the documents write them (use the
  aliases given); never a document id or an identifier the question does not write
- documents: ids, from the list given, of the documents the question names (may be empty; leave it empty when
  the question names no document)
When the question is a follow-up of the earlier turns ("and the other one?", "what about X?"),
resolve what it refers to and set follow_up to true.
Reply with one JSON object only:
{"resolved_question": "...", "follow_up": false, "obligations": [{"kind": "...", "ask": "...", "targets": ["..."], "documents": ["..."]}]}"""

PLAN_USER = """Documents (id: title):
{documents}

Aliases the documents use (short = long):
{aliases}

Earlier questions in this conversation:
{history}

Question: {question}"""


# --- Model writer and claim checker (issue 7) -------------------------------------------------------------------

CITATION_FORMAT = "[s0123456789a]"
"""How a unit cites: its section ids in square brackets at its end, e.g. "... within 30 days [s1a2b3c4d5e] [s0f9e8d7c6b]"."""

CANNOT_ANSWER = "NOT IN THESE DOCUMENTS"
"""The line a writer gives for a part the documents do not answer."""

FORMATS = {
    "describe": "an explanation built from the basics: what it is first, then how it works and why, in short paragraphs",
    "explain": "an explanation built from the basics: what it is first, then how it works and why, in short paragraphs",
    "trace": "every step as a numbered list, in the source's order and with the source's numbering, across documents "
    "where the procedure continues in another; each step with the figure or table it refers to",
    "compare": "a '### ' heading naming each compared item, then one Markdown table per comparison with a final "
    "'Source' column holding the row's section ids; a line present in one version only is written 'added' or 'removed'",
    "judge": "first a line 'Verdict: <yes/no and the conclusion>' then a line 'Because:' and, as a '-' list, each "
    "sentence of the documents the verdict rests on (dates and limits included); never count days yourself",
    "list": "a '-' list, one item per thing, each item ending with its section ids",
    "lookup": "the value first (the number, date, name or yes/no asked for), in one or two sentences, then its condition",
    "propose": "the documents' own recommendations as a '-' list; nothing the documents do not say",
}

WRITE_SYSTEM = f"""You answer a question from the documents below and from nothing else.
Rules:
- Write Markdown. Every sentence, list item and table row ends with the ids of the sections it draws on, in square
  brackets, like {CITATION_FORMAT}. Use only ids that appear in the documents.
- Keep the documents' own words, numbers, dates, units, names and conditions (must, may, should not, only, unless).
- Write each part of the answer under a line '<!-- part N -->' (N as numbered in the parts list), in the format asked.
- A section with status="superseded by X" comes from a document that X replaces: give the current document's
  statement as the answer; give the superseded one only where the question asks what changed, after the current
  one, as "<document> (superseded by X) said ...". status="updated by X": X changes parts of it; where X states the
  same point, X's statement is the current one.
- If the question states something the documents contradict (a number, a direction such as longer or shorter, added
  or removed, an order, "always" where the documents state a condition), say so first in that part: "The documents
  do not say that: ..." followed by what they do say, with its section ids.
- When the documents do not answer a part, write the line '{CANNOT_ANSWER}' under its marker and nothing else there;
  when they answer only some of it, answer that and say plainly what they do not cover. Never invent.
- Do not compute differences or day counts; code computes them.
- No introduction, no closing summary, no advice of your own."""

WRITE_USER = """Parts of the answer (number, kind, what it must do, format):
{parts}

Question: {question}
{already}
Documents:
{documents}"""

WRITE_MORE = """Already written by another writer (do not repeat it; add only what is not yet written, citing these new
documents; if nothing new, write nothing under that part):
{written}
"""

COMPOSE_SYSTEM = f"""You compose the parts below, written from different documents, into one answer.
Keep every sentence's section ids {CITATION_FORMAT} exactly as written; do not add facts, numbers or ids; keep the
'<!-- part N -->' markers; merge repeated statements; keep tables and lists as they are."""

CHECK_SYSTEM = """You check claims against the sections they cite. For each claim answer:
- "supports" when the cited text states the claim, every name, number, date, unit, condition, direction and scope of it;
- "contradicts" when the cited text states the opposite or a different value;
- "not_found" otherwise.
For supports and contradicts copy, character for character, the shortest span of the cited text (one or two
sentences) that decides it. Never paraphrase the span.
Reply with one JSON object only: {"verdicts": [{"id": "c1", "verdict": "supports", "span": "..."}]} with one entry per
claim, in the order given."""

CHECK_USER = """Cited sections:
{sections}

Claims:
{claims}"""

COMPARE_SYSTEM = f"""You explain what changed between two versions of a document. Code has computed every change below,
with the old and new values and their difference; you explain them and add nothing.
Rules:
- Write short Markdown sentences (or a '-' list). Each ends with the section ids of the change it explains, in square
  brackets, like {CITATION_FORMAT}, exactly as listed for that change.
- Write values exactly as listed, from the old value to the new one ("from 45 calendar days to 30 calendar days").
  Give a difference only as listed; never compute one yourself.
- Use a direction word (shortened, extended, increased, reduced) only when the listed difference says so.
- Do not mention anything that is not in the list of changes: an unchanged value is not a change.
- When the list does not answer the question, write the line '{CANNOT_ANSWER}' and nothing else."""

COMPARE_USER = """Question: {question}
Part to answer: {ask}

Computed changes (number. kind scope — what: old, new; difference; sections):
{changes}"""


RESEARCH_SYSTEM = """You research a question in a shelf of documents with tools. You do not answer it.
Search, open the sections that state what the question needs, and follow links or rare names to documents the
question does not name (a renamed thing, a rule stated elsewhere, a document that continues another). Only the
sections you open are given to the writer, so open every section the answer rests on. Open each section once and
do not repeat a call. Call finish when the opened sections are enough; call one tool at a time."""

RESEARCH_USER = """Question: {question}
Parts the answer must cover:
{parts}
Shelves: {shelves}
Documents (id: title):
{documents}"""


SELECT_SYSTEM = """You choose, from a few numbered passages quoted from documents, the ones that help answer one part of a
question. You do not write an answer. Choose every passage that helps: one that states what the part asks for (a value,
rule, definition, condition, exception, step or reason), or that the reader needs to understand such a passage. Leave out
only the passages about something else. Put the most useful first.
Reply with one JSON object only: {"ids": [the chosen passages' numbers]} ({"ids": []} when none helps)."""

SELECT_USER = """Question: {question}

Part to answer: {part}

Passages (number, (document > heading) text):
{units}"""

SELECT_EXAMPLE = (SELECT_USER.format(
    question="How long do refunds take, and who pays for return shipping?", part="How long do refunds take",
    units="[1] (Store policy > Refunds) Refunds are issued within 14 days of receiving the returned item.\n"
          "[2] (Store policy > About us) The store opened its first branch in 1998.\n"
          "[3] (Store policy > Refunds) A refund goes back to the original payment method.\n"
          "[4] (Store policy > Refunds) Refunds for items bought on sale may take up to 30 days.\n"
          "[5] (Store policy > Opening hours) The store is closed on public holidays."),
    '{"ids": [1, 4, 3]}')
"""A worked exchange (user message, reply) shown before each choice: a small model follows an example better than a rule.
Generic on purpose: no shelf's words."""

