"""Headed passages: sized by the embedder's own tokenizer, nothing cut, ~12% overlap."""

from __future__ import annotations

import re

from compiler.embedders import LocalMiniLM
from compiler.passages import PassageSizing, build_passages, passage_prefix
from compiler.records import Block, Section

from search_fixtures import HashEmbedder


def _section(text: str, path: list[str] | None = None) -> Section:
    path = ["2 Authenticators", "2.1 Memorized Secrets"] if path is None else path
    return Section(
        id="s1", doc_id="d", parent_id=None, seq=1, level=len(path), heading=path[-1] if path else "Doc",
        heading_path=path, blocks=[Block(kind="paragraph", text=part) for part in text.split("\n\n")],
    )  # fmt: skip


def _words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def _long_text() -> str:
    sentences = [f"Sentence {i} says the verifier SHALL check secret number {i} against the blocklist." for i in range(60)]
    return "\n\n".join(" ".join(sentences[i : i + 6]) for i in range(0, 60, 6))


def test_prefix_carries_title_and_heading_path_once():
    assert passage_prefix("SP 800-63B", ["5 Authenticators", "5.1 Secrets"]) == "SP 800-63B\n5 Authenticators > 5.1 Secrets"
    assert passage_prefix("Type Hints", ["Type Hints", "Rationale"]) == "Type Hints\nRationale"
    assert passage_prefix("Type Hints", []) == "Type Hints"


def test_minilm_passages_fit_its_256_token_window_and_cut_nothing():
    embedder = LocalMiniLM()  # the tokenizer only: no model is loaded
    sizing = PassageSizing(window_tokens=embedder.window_tokens, count_tokens=embedder.count_tokens)
    text = _long_text()
    passages = build_passages("NIST SP 800-63B", [_section(text)], sizing)
    assert len(passages) > 3
    assert all(p.tokens == embedder.count_tokens(p.text) <= 256 for p in passages)
    assert max(p.tokens for p in passages) > 200  # filled, not timid
    bodies = [p.text.split("\n\n", 1)[1] for p in passages]
    assert all(p.text.startswith("NIST SP 800-63B\n2 Authenticators > 2.1 Memorized Secrets\n\n") for p in passages)
    # every word of the section is in some passage, in order (overlap aside)
    joined = " ".join(bodies)
    for sentence in re.split(r"(?<=\.) ", text.replace("\n\n", " ")):
        assert sentence in joined
    # consecutive passages overlap by about 12% of the window
    for before, after in zip(bodies, bodies[1:]):
        shared = 0
        for n in range(1, len(_words(after))):
            if _words(before)[-n:] == _words(after)[:n]:
                shared = n
        assert 0 < shared
        assert 0.05 < embedder.count_tokens(" ".join(_words(after)[:shared])) / 256 < 0.16


def test_sentence_then_word_splitting_and_a_giant_word():
    embedder = HashEmbedder(window_tokens=30)
    sizing = PassageSizing(window_tokens=30, count_tokens=embedder.count_tokens)
    one_sentence = " ".join(f"w{i}" for i in range(100))
    passages = build_passages("T", [_section(one_sentence, ["H"])], sizing)
    assert all(p.tokens <= 30 for p in passages)
    seen = [w for p in passages for w in _words(p.text.split("\n\n", 1)[1])]
    assert [w for w in dict.fromkeys(seen)] == [f"w{i}" for i in range(100)]
    giant = build_passages("T", [_section("x" * 5000, ["H"])], PassageSizing(window_tokens=30, count_tokens=lambda t: len(t) // 4 + 2))
    assert "".join(p.text.split("\n\n", 1)[1] for p in giant) == "x" * 5000
    assert all(p.tokens <= 30 for p in giant)


def test_char_cap_and_empty_sections_and_determinism():
    embedder = HashEmbedder(window_tokens=8000)
    sizing = PassageSizing(window_tokens=8000, count_tokens=embedder.count_tokens, max_chars=600)
    text = _long_text()
    first = build_passages("T", [_section(text), _section("", ["Empty"])], sizing)
    assert all(len(p.text) <= 600 for p in first)
    assert {p.section_id for p in first} == {"s1"}
    assert [p.ordinal for p in first] == list(range(len(first)))
    assert first == build_passages("T", [_section(text), _section("", ["Empty"])], sizing)
