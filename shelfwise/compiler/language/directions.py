"""Words that say which way a figure moved: up ("increased", "extended") or down ("reduced", "cut").

Three readers, three word lists, kept apart because each reads a different kind of sentence (moved here as they
were; making them one list would change answers and wants measuring):

- ``MOVED_UP`` / ``MOVED_DOWN``: a sentence that reports a figure moving ("revenue rose from 5 to 7"); the answer's
  number guard checks the figures agree with the word (``shelfwise.api.answer.check.guards``).
- ``CHANGED_UP`` / ``CHANGED_DOWN``: a statement about what changed between two revisions ("the limit was extended
  to 45 days", "fewer attempts"), checked against the compared values (``shelfwise.api.answer.compare.compare_check``).
- ``CLAIMED_UP`` / ``CLAIMED_DOWN``: a question's premise that a rule was changed ("since the window was extended"),
  checked against what the documents say (``shelfwise.api.answer.check.premise``); only a change's verbs, never
  "more"/"less" (which also say how much of something there is).
- ``OPPOSITES``: pairs of words that contradict each other when a premise says one and a document the other
  ("extended" / "shortened", "rose" / "fell", "added" / "removed", "before" / "after": ``shelfwise.api.answer.check.premise``);
  the first pair says which way a figure moved (``MOVED_PAIR``); ``ACTION_OPPOSITES`` (also in ``OPPOSITES``) say what
  a command or a method does ("continues" / "stops", "bottom up" / "top down"); the last, whether a grant lasts
  ("survives", "remains in force" / "shall terminate").
- ``COMPARED_WITH``: the words that put a figure's base period after its own ("compared to the same quarter in 2022").

The words are English.
"""

from __future__ import annotations

import re

__all__ = ["MOVED_UP", "MOVED_DOWN", "CHANGED_UP", "CHANGED_DOWN", "CLAIMED_UP", "CLAIMED_DOWN", "MOVED_PAIR", "ACTION_OPPOSITES",
           "OPPOSITES", "COMPARED_WITH", "WHOLE_WORDS"]

MOVED_UP = re.compile(r"\b(increas\w*|ris\w*|rose|grow\w*|grew|rais\w*|went up|goes up|climb\w*|higher|up)\b", re.I)
MOVED_DOWN = re.compile(r"\b(decreas\w*|declin\w*|fall\w*|fell|drop\w*|reduc\w*|lower\w*|went down|goes down|down|cut)\b", re.I)
CHANGED_UP = re.compile(r"\b(increas\w*|rais\w*|ris(?:e|es|ing|en)|rose|extend\w*|lengthen\w*|longer|more|higher|grew|grow\w*|added)\b", re.I)
CHANGED_DOWN = re.compile(r"\b(decreas\w*|reduc\w*|shorten\w*|shorter|cut|lower\w*|less|fewer|fell|fall\w*|drop\w*|declin\w*)\b", re.I)
CLAIMED_UP = re.compile(r"\b(extend\w*|lengthen\w*|increas\w*|rais(?:e|ed|es|ing)|doubl\w*)\b", re.I)
CLAIMED_DOWN = re.compile(r"\b(shorten\w*|reduc\w*|decreas\w*|lower(?:ed|s|ing)?|cut|halv\w*)\b", re.I)
MOVED_PAIR = (r"\b(extend\w*|lengthen\w*|increas\w*|rais\w*|longer|more|higher|ris(?:e|es|ing|en)|rose|grew|grow(?:s|n|ing)?|"
              r"up(?=\s+(?:by\s+)?[$\d]))\b",
              r"\b(shorten\w*|reduc\w*|decreas\w*|lower\w*|shorter|fewer|less|fell|fall(?:s|en|ing)?|declin\w*|"
              r"down(?=\s+(?:by\s+)?[$\d]))\b")
"""A figure went up / down: a premise saying one contradicts a sentence about the same measure saying the other
("up" and "down" only before the amount they moved by: "was down $6.6 billion or 36%", not "top down")."""
ACTION_OPPOSITES = [
    (r"\b(continu\w*|keeps? going|keep on|carr(?:y|ies) on|ignor\w*(?=\s+(?:all\s+|the\s+|any\s+)?errors?\b))\b",
     r"\b(stop(?:s|ped|ping)?|halt\w*|abort\w*|gives? up|giving up|quits?)\b"),
    (r"\b(from the bottom up|bottom[- ]up|from the bottom)\b", r"\b(from the top down|top[- ]down|from the top)\b"),
]
"""What a command, option or method does: it continues (or ignores errors) or it stops; it builds bottom up or top down."""
OPPOSITES = [
    MOVED_PAIR,
    (r"\b(add\w*|introduc\w*|insert\w*)\b", r"\b(remov\w*|delet\w*|drop\w*|withdr\w*)\b"),
    (r"\bbefore\b", r"\bafter\b"),
    *ACTION_OPPOSITES,
    (r"\b(surviv\w*|remains? in (?:full )?(?:force|effect))\b", r"\b(terminat\w*)\b"),
]
COMPARED_WITH = re.compile(r"\b(compared (?:to|with)|versus|vs\.?|over the same|from the same|"
                           r"from (?=(?:the\s+)?(?:(?:first|second|third|fourth)\s+quarter\s+(?:of\s+)?|Q[1-4]\s+|H[12]\s+|"
                           r"fiscal\s+(?:year\s+)?|FY\s*)?(?:19|20)\d\d\b(?!\s+to\b)))", re.I)
"""What a figure moved from: in "decreased during the third quarter of 2023 compared to the same quarter in 2022" or
"was down $6.6 billion or 36% from Q1 2022" the period the sentence is about is the one before these words (2023, or
none named), not its base (2022); "from 2022 to 2023" names no base this way."""
WHOLE_WORDS = frozenset("total overall consolidated aggregate combined entire worldwide".split())
"""Words that name a measure as the whole of itself ("Total revenue" is the company's revenue); any other word before a
measure ("International segment net sales", "CCG revenue") names a part of it."""
