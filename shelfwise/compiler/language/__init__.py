"""The language shelfwise reads: English, and where its words live.

Every rule that reads text by its words (which sentence states a rule, what a question asks, which figures a sentence
gives) is written for English. The word lists shared by the compiler and the answering stages live in this package,
one concept per module:

- ``questions``: question words ("what", "describe", "according") — what a question says to ask, not what it asks.
- ``numbers``: number words ("two", "fifteen", "twice") and their values; quarters in words ("Q3": "third quarter")
  and the words that name a period ("quarter", "fiscal", "ended").
- ``force``: requirement keywords (RFC 2119 MUST/SHALL/SHOULD/MAY, REQUIRED/OPTIONAL), modal verbs, and the words
  that say something is required or permitted.
- ``versions``: whether a question asks about versions (revisions, editions, what changed or was deprecated); editions
  named by their place in a series ("the previous revision", "the original RFC").
- ``directions``: which way a figure moved ("increased", "shortened", "was down $6.6 billion") and which words
  contradict each other; the words that name a measure as a whole ("total", "consolidated").
- ``polarity``: words that deny a statement ("does not execute"), make it conditional ("if", "unless") or hedged
  ("may", "expected to"), or say which document introduced something ("introduces", "this PEP", "defined in").

English lists and patterns that still live with the one stage that reads them:

- stop words and stems: whoosh's English ``StemmingAnalyzer`` (Porter stemmer, English stop list) in
  ``shelfwise.api.terms`` and ``shelfwise.compiler.index.lexical``; a short stop list in ``shelfwise.compiler.links
  .links`` (``_STOP``).
- sentences: ``shelfwise.compiler.prose`` (abbreviations that do not end a sentence: "e.g.", "No.", "Jan.").
- the ledger's rules: ``shelfwise.compiler.ledger.rules`` (units, comparators "at least"/"no later than",
  conditions "if"/"unless", definitions "means"/"is defined as").
- question shapes: ``shelfwise.api.answer.question`` (parts, follow-ups "what about ...", premises "since ...",
  ``FACETS``, ``CONTRAST``: "instead of"), ``shelfwise.api.answer.plan.plan`` (``_KIND_RULES``: compare, trace, judge,
  list...), ``shelfwise.api.answer.write.rank`` (``FRAMING``).
- the answer's guards: ``shelfwise.api.answer.check.guards`` (negations, scopes, conditions, units, reporting verbs).
- month names: ``shelfwise.compiler.digests.identity``, ``shelfwise.compiler.compare.values``,
  ``shelfwise.api.answer.check.check``, ``shelfwise.api.answer.check.verdict``.

Another language plugs in here: a module per concept with the same names (``QUESTION_WORDS``, ``CARDINALS``,
``KEYWORDS``, ``ASKS_VERSIONS``...) for that language, chosen by a shelf's language, and the stage-local lists above
moved in beside them as their concept is shared; the stemmer is whoosh's per-language ``LanguageAnalyzer``. Until
then the word rules are English only: text in another language is converted, indexed and searched, but these rules
find little in it (few rules, thresholds or question shapes).
"""

__all__: list[str] = []
