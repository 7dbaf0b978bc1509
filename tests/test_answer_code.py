"""A code block follows the sentence that introduces it ("you would write:"), in the answer, its checks and the
widget's contract; it is never shown alone, and a block too long for an answer is not cut into one."""

from __future__ import annotations

from pathlib import Path

import pytest

from answer_shelves import HashEmbedder, compile_shelf
from shelfwise.api.answer import answer_question, build_pipeline
from shelfwise.api.schemas import AskRequest
from shelfwise.api.shelves import close_shelves, open_shelves
from shelfwise.compiler.settings import Settings
from shelfwise.eval.judge import displayed_statements

MANUAL = """# Build Manual

## Generating prerequisites automatically

Most C compilers can write the prerequisite rules for you from the include lines of a source file. To generate
the prerequisites of each source file automatically, add this pattern rule to the makefile:

```
%.d: %.c
	$(CC) -M $(CPPFLAGS) $< > $@.tmp
	sed 's,\\($*\\)\\.o[ :]*,\\1.o $@ : ,g' < $@.tmp > $@
```

The generated prerequisite files are then read with the include directive.

## Long listing

The complete generated makefile for the example project is printed below:

```
{long}
```
"""


@pytest.fixture(scope="module")
def shelves(tmp_path_factory):
    root = tmp_path_factory.mktemp("code-answer")
    shelf = root / "manual"
    shelf.mkdir()
    long = "\n".join(f"obj{n}.o: src{n}.c common.h  # generated prerequisite line {n}" for n in range(40))
    (shelf / "build-manual.md").write_text(MANUAL.replace("{long}", long), encoding="utf-8")
    opened = open_shelves({"manual": compile_shelf(shelf, root / "build")}, HashEmbedder())
    yield opened
    close_shelves(opened)


def _ask(shelves, question: str):
    return answer_question(build_pipeline(Settings(), None), AskRequest(question=question, shelf="manual"), shelves,
                           token="test", traces=None)


def test_the_code_a_sentence_introduces_follows_it_fenced_and_checked(shelves):
    answer = _ask(shelves, "How do I generate the prerequisites of each source file automatically?")
    kinds = [s.kind for s in answer.sentences]
    assert "code" in kinds
    code = answer.sentences[kinds.index("code")]
    assert code.text.startswith("%.d: %.c") and code.status == "verbatim"
    assert answer.sentences[kinds.index("code") - 1].text.endswith("add this pattern rule to the makefile:")
    assert "add this pattern rule to the makefile: [" in answer.answer_markdown
    assert "```\n%.d: %.c\n\t$(CC) -M $(CPPFLAGS) $< > $@.tmp" in answer.answer_markdown
    assert not any("CPPFLAGS" in s for s in displayed_statements(answer.answer_markdown))  # code is not a statement


def test_a_code_block_is_never_an_answer_alone_nor_cut_when_too_long(shelves):
    answer = _ask(shelves, "Which lines does the complete generated makefile of the example project print for obj3.o?")
    assert all(s.kind != "code" for s in answer.sentences) and "obj3.o: src3.c" not in answer.answer_markdown
