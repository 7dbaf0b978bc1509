"""Code and operator tokens: found in a query by shape, held by the sections that write them verbatim."""

from __future__ import annotations

from shelfwise.compiler.search.code_tokens import CodeTokenIndex, query_code_tokens


def test_query_tokens_by_shape():
    query = "What do :=, ?= and += do, and = alone? Use -k and --jobs with .d files; *args, **kwargs, typing.List, isinstance(), __init__"
    assert query_code_tokens(query) == [":=", "?=", "+=", "-k", "--jobs", ".d", "*args", "**kwargs", "typing.List", "isinstance()", "__init__"]
    assert query_code_tokens("How long is a token valid, e.g. in RFC 6749 section 4.1 - the short one?") == []  # words, numbers, dashes


def _sections(texts: dict[str, str]) -> dict[str, tuple[str, str, list[str], str]]:
    return {sid: ("doc", sid, [sid], text) for sid, text in texts.items()}


def test_holders_write_the_token_with_nothing_glued_to_it():
    index = CodeTokenIndex(_sections({
        "simple": "Simply expanded variables are defined by lines using ':=' or '::='.",
        "conditional": "FOO ?= bar sets FOO only if it is not yet set.",
        "recursive": "x = y is a recursive assignment; a == b compares.",
        "keep": "Use -k to keep going; -kk is not an option.",
        "deps": "Each name.d file lists the prerequisites of name.o.",
    }), max_share=1.0)  # fmt: skip
    assert index.holders(":=") == ["simple"]  # '::=' does not hold ':='
    assert index.holders("::=") == ["simple"]
    assert index.holders("?=") == ["conditional"]
    assert index.holders("-k") == ["keep"]
    assert index.holders(".d") == ["deps"]  # 'name.d' writes the extension
    scores = index.scores([":=", "?="])
    assert set(scores) == {"simple", "conditional"} and scores["simple"] == scores["conditional"]


def test_a_token_that_many_sections_hold_says_nothing():
    texts = {f"s{n}": f"Line {n}: x := {n}" for n in range(20)}
    texts["rare"] = "Use ?= for a default."
    index = CodeTokenIndex(_sections(texts), max_share=0.1)
    assert index.scores([":="]) == {}  # held by 20 of 21 sections
    assert set(index.scores([":=", "?="])) == {"rare"}


def test_a_heading_writing_the_token_counts_twice_and_on_its_own():
    texts = {f"s{n}": ("doc", f"Note {n}", [f"Note {n}"], f"def f(*args): pass  # {n}") for n in range(20)}
    texts["spec"] = ("doc", "*args as a Type Variable Tuple", ["*args as a Type Variable Tuple"], "def f(*args): pass")
    index = CodeTokenIndex(texts, max_share=0.1)
    assert index.scores(["*args"]) == {"spec": index.scores(["*args"])["spec"]}  # every text writes it; one heading does
    assert index.holders("*args", field=1) == ["spec"] and len(index.holders("*args")) == 21
