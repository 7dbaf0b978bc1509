"""Code and operator tokens of a query, and the sections that write them verbatim.

The lexical index reads words: its analyser drops ``:=``, ``?=`` and ``+=``,
turns ``*args`` into ``arg`` and ``-MM`` into ``mm``, and a question about
"the ``.d`` files" loses its one precise term. Shapes, not names (nothing here
knows any shelf):

    operator   two or three symbols ending in '=' or made of ':', '-', '>', '<', '|', '&', '*':
               :=  ::=  ?=  +=  !=  ->  =>  ::  **  ||  &&
    option     a dash or two and a letter word after a space: -k  -MM  --jobs
    extension  a dot and one to four letters after a space: .d  .o  .PHONY
    starred    *args  **kwargs
    dotted     words joined by dots, not a number or a version: typing.List  os.path
    call       a word and '()': isinstance()
    dunder     __init__  __class_getitem__

A section *holds* a token when its text or its heading writes it with nothing glued to either
side that would make it a longer token (an extension may follow a file's name:
``name.d`` holds ``.d``). A token held by more than
``max_share`` of the shelf's sections says nothing about any of them.
"""

from __future__ import annotations

import math
import re

__all__ = ["query_code_tokens", "holds_token", "CodeTokenIndex"]

_SYMBOLS = ":=?+!<>|&*%^~-"
_TOKEN = re.compile(
    r"(?P<operator>(?<![" + re.escape(_SYMBOLS) + r"\w])(?:[:?+!<>*%^|&~=-]{1,2}=|::|->|=>|\*\*|\|\||&&)(?![" + re.escape(_SYMBOLS) + r"\w]))"
    r"|(?P<option>(?<![\w\-])-{1,2}[A-Za-z][A-Za-z0-9\-]*(?![\w]))"
    r"|(?P<extension>(?<![\w.])\.[A-Za-z]{1,4}(?![\w.]))"
    r"|(?P<starred>(?<![\w*])\*{1,2}[A-Za-z_]\w*)"
    r"|(?P<dunder>(?<!\w)__[A-Za-z]\w*__(?!\w))"
    r"|(?P<call>(?<![\w.])[A-Za-z_]\w*\(\))"
    r"|(?P<dotted>(?<![\w.\-])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![\w]|\.\w))"
)


def query_code_tokens(query: str) -> list[str]:
    """The code and operator tokens of ``query``, in order, without repeats ('=' alone is too common to be one)."""
    found: dict[str, None] = {}
    for match in _TOKEN.finditer(query):
        token = match.group(0)
        if match.lastgroup == "dotted" and re.search(r"\.(?:[a-z]{1,3})$", token) and token.count(".") == 1 and len(token) < 6:
            continue  # "e.g", "i.e": an abbreviation, not a name
        if match.lastgroup == "option" and len(token) > 1 and token[1:].isalpha() and token[1:].islower() and len(token) > 12:
            continue  # a dash before a long lower-case word is punctuation ("- because"), not an option
        found.setdefault(token, None)
    return list(found)


def _holder(token: str) -> re.Pattern:
    before = r"(?<![" + re.escape(_SYMBOLS) + r"])" if not token[0].isalnum() and token[0] not in "._*" else r"(?<![\w])"
    if token[0] == ".":
        before = r"(?<![.])"  # an extension is written alone ('.d') or after a file's name ('name.d')
    elif token[0] in "*-":
        before = r"(?<![\w" + re.escape(token[0]) + r"])"
    after = r"(?![" + re.escape(_SYMBOLS) + r"])" if not token[-1].isalnum() and token[-1] not in "_)" else r"(?![\w])"
    return re.compile(before + re.escape(token) + after)


def holds_token(token: str, text: str) -> bool:
    """Whether ``text`` writes ``token`` with nothing glued to either side that would make it a longer token (":=" is
    not written by "`:::=`")."""
    return _holder(token).search(text) is not None


class CodeTokenIndex:
    """Which sections hold a query's code tokens; a rare token weighs more (log of sections over holders)."""

    def __init__(self, sections: dict[str, tuple[str, str, list[str], str]], *, max_share: float = 0.05):
        self.sections = sections
        self.max_share = max_share
        self._holders: dict[tuple[str, int], list[str]] = {}

    def forget(self) -> None:
        """Drop the remembered holders (a benchmark times every query from scratch)."""
        self._holders.clear()

    def holders(self, token: str, *, field: int = 3) -> list[str]:
        """Sections whose text (``field`` 3) or heading (``field`` 1) writes ``token``, in section-id order."""
        key = (token, field)
        if key not in self._holders:
            if len(self._holders) >= 256:
                self._holders.pop(next(iter(self._holders)))
            pattern = _holder(token)
            self._holders[key] = sorted(
                sid for sid, row in self.sections.items() if token in row[field] and pattern.search(row[field])
            )
        return self._holders[key]

    def scores(self, tokens: list[str]) -> dict[str, float]:
        """Section id -> the summed rarity of the tokens it holds, twice for a token its heading writes; a token
        held too widely (in texts, or in headings) is left out there."""
        total = max(len(self.sections), 1)
        scores: dict[str, float] = {}
        for token in tokens:
            for field, factor in ((3, 1.0), (1, 2.0)):
                held = self.holders(token, field=field)
                if not held or len(held) > max(1, self.max_share * total):
                    continue
                weight = factor * math.log(1 + total / len(held))
                for sid in held:
                    scores[sid] = scores.get(sid, 0.0) + weight
        return scores
