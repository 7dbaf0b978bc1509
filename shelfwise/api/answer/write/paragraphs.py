"""Paragraphs as their document wrote them, across the cuts a converter leaves.

A PDF page or column break ends a block mid-sentence ("Finally, we train Classifier with these automatically-") and the
sentence goes on in the next block ("collected query-complexity pairs ..."). Read apart, the first half is a fragment
an answer may show and the second a sentence that opens in lower case; read together the sentence is whole, and still
the section's text verbatim (blocks are joined by whitespace, which the verbatim check collapses).
"""

from __future__ import annotations

import re

__all__ = ["paragraph_texts", "LIST_MARK"]

_ENDS_SENTENCE = tuple('.:;?!)]"\'\u201d\u2019')
LIST_MARK = re.compile(r"^(?:[a-z0-9]{1,4}[.)]|\([a-z0-9]{1,4}\))\s+")
"""A list mark opening an item, in lower case ("b) ", "(iv) ", "4. "): an item, not the rest of a cut sentence."""


_LINK_ONLY = re.compile(r"^\[[^\]\n]+\]\([^)\s]*\)$")
"""A paragraph that is one link and nothing else: it sends the reader elsewhere and states nothing."""


def paragraph_texts(blocks) -> dict[int, str]:
    """Block index -> the text of the paragraph it opens. A paragraph a page or column break cut mid-sentence ("Finally,
    we train Classifier with these automatically-" | "labeled query-complexity pairs.") continues in the next block: a
    paragraph of two words or more that ends without a stop, followed by a paragraph that opens in lower case (not a list
    mark, "b) Requiring ..."), is one paragraph with it, so its sentences are whole; the continued block opens none.
    Only adjacent blocks join: with a footnote between the halves the sentence is not the section's text verbatim. A
    paragraph that is only a link (a table of contents' "[5. Authenticator and Verifier Requirements](#sec5)") opens none:
    cut at its number, it was quoted as the sentence "Authenticator and Verifier Requirements](#sec5)"."""
    texts: dict[int, str] = {}
    head = None
    for index, block in enumerate(blocks):
        if block.kind != "paragraph":
            head = None
            continue
        text = block.text.strip()
        if _LINK_ONLY.match(text):  # "[5. Authenticator and Verifier Requirements](#sec5)": a table of contents' line
            head = None
            continue
        if (head is not None and text[:1].islower() and not LIST_MARK.match(text)
                and len(texts[head].split()) >= 2 and not texts[head].endswith(_ENDS_SENTENCE)):
            texts[head] = f"{texts[head]} {text}"
            continue
        texts[index], head = text, index
    return texts
