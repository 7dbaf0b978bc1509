"""Words that give a sentence its force: what it requires, forbids, recommends or permits.

One place for the requirement keywords (RFC 2119 / BCP 14, written in capitals), the lower-case modal verbs and
the words that say something is required or permitted. Read by the ledger's rule extractor (a rule's modality:
``shelfwise.compiler.ledger.rules``), the plain-text converter (an RFC parameter's "REQUIRED" on its line:
``shelfwise.compiler.ingest.convert.text``), the document briefs (strong rules first: ``shelfwise.compiler.digests
.briefs``), the answer's guards (a claim keeps its source's modals: ``shelfwise.api.answer.check.guards``), the shown
answer's repeats (force words keep two statements apart: ``shelfwise.api.answer.show.shape``) and false premises
(required or permitted, and not: ``shelfwise.api.answer.check.premise``). The words are English.
"""

from __future__ import annotations

import re

__all__ = ["MODAL_KEYWORDS", "LABEL_KEYWORDS", "KEYWORDS", "KEYWORD_WORDS", "STRONG_KEYWORDS", "RULE_MODALS", "MODAL_VERBS",
           "REQUIRES", "PERMITS", "MAY_VERB"]

MODAL_KEYWORDS = ("MUST", "MUST NOT", "SHALL", "SHALL NOT", "SHOULD", "SHOULD NOT", "MAY", "MAY NOT")
"""The requirement keywords that are verbs (RFC 2119; "MAY NOT" is not BCP 14's, documents write it all the same)."""
LABEL_KEYWORDS = ("REQUIRED", "RECOMMENDED", "NOT RECOMMENDED", "OPTIONAL")
"""The requirement keywords that label a parameter or field ("token   REQUIRED.  The token that ...")."""
KEYWORDS = MODAL_KEYWORDS + LABEL_KEYWORDS
"""Every requirement keyword, in capitals."""
KEYWORD_WORDS = frozenset(word for keyword in KEYWORDS for word in keyword.split())
"""The single words of the keywords ("MUST", "NOT", "REQUIRED", ...): capitals that are not names."""
STRONG_KEYWORDS = ("MUST", "MUST NOT", "SHALL", "SHALL NOT", "REQUIRED")
"""The keywords of an absolute requirement or prohibition (not a recommendation, not a permission)."""
RULE_MODALS = ("must not", "must", "shall not", "shall", "should not", "may not", "may", "cannot")
"""The lower-case modals that make a sentence a rule (a lower-case "should" alone is advice, not a rule)."""
MODAL_VERBS = ("must", "shall", "should", "may", "might", "can", "could")
"""The modal verbs of obligation, permission and possibility."""

REQUIRES = re.compile(r"\b(requir\w*|must|shall|mandatory|obliged|obligat\w*|need(?:s|ed)? to|ha(?:s|ve) to)\b", re.I)
"""A sentence that says something is required."""
PERMITS = re.compile(r"\b(permit\w*|allow\w*|grant\w*|entitle\w*)\b", re.I)
"""A sentence that says something is permitted (not "may", "can": they also say what is possible)."""
MAY_VERB = re.compile(r"\b(?:may|can)\s+(?P<neg>not\s+)?(?P<verb>[a-z]+)", re.I)
"""A permission a sentence gives a named act ("You may charge any price", "may not charge"): read as permitted only for
the act a premise says is forbidden or permitted ("forbids charging a fee"), since "may" also says what is possible."""
