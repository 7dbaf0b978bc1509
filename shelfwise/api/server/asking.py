"""One checked answer for a principal: the request's text cleaned, its limits checked, its shelves granted and served.

``POST /api/ask``, ``POST /v1/chat/completions`` and the MCP ``ask`` tool all answer through ``ask_as``, so
one token meets the same limits, tenant rules and stored traces whichever door it comes in by. ``state`` is
anything holding ``settings``, ``pipeline``, ``shelves`` (a ShelfRegistry) and ``traces`` (the app's state).
"""

from __future__ import annotations

from shelfwise.api.answer import answer_question
from shelfwise.api.errors import BadRequest, NotFound
from shelfwise.api.server.hygiene import clean_text
from shelfwise.api.schemas import AskRequest, AskResponse
from shelfwise.api.server.security import Principal
from shelfwise.compiler.settings import ApiSettings

__all__ = ["clean_request", "check_served", "prepare_ask", "answer_prepared", "ask_as"]


def clean_request(data: AskRequest) -> AskRequest:
    """``data`` with control characters removed from the question and the earlier questions (no limit checked)."""
    return data.model_copy(update={
        "question": clean_text(data.question),
        "history": [turn.model_copy(update={"question": clean_text(turn.question)}) for turn in data.history],
    })


def _check_limits(data: AskRequest, limits: ApiSettings) -> None:
    if len(data.question) > limits.max_question_chars:
        raise BadRequest(
            f"question is {len(data.question):,} characters; the limit is {limits.max_question_chars:,} (api.max_question_chars): shorten it"
        )
    if not data.question.strip():
        raise BadRequest("question is empty; write the question in plain words")
    if len(data.history) > limits.max_history_turns:
        raise BadRequest(f"history has {len(data.history)} turns; send at most the last {limits.max_history_turns} (api.max_history_turns)")


def check_served(shelves, principal: Principal, names: list[str]) -> None:
    """NotFound for a granted shelf this server does not serve; the message names only shelves the caller may read."""
    for shelf in names:
        if shelf not in shelves:
            readable = sorted(n for n in shelves if n in principal.shelves)
            listed = ", ".join(readable) if readable else "none"
            raise NotFound(f"shelf '{shelf}' is not served here; shelves your token can read here: {listed}")


def prepare_ask(state, principal: Principal, data: AskRequest) -> AskRequest:
    """``data`` cleaned and checked for ``principal``: Forbidden for a shelf its token does not grant, BadRequest past
    a limit, NotFound for a shelf not served. Nothing is read from a shelf yet."""
    data = clean_request(data)
    names = data.shelf_names()
    principal.require(names)
    _check_limits(data, state.settings.api)
    check_served(state.shelves, principal, names)
    return data


def answer_prepared(state, principal: Principal, data: AskRequest, *, progress=None) -> AskResponse:
    """The checked answer to a request ``prepare_ask`` passed; the trace is stored under the token's name. ``progress``
    goes to ``answer_question`` (called as each stage completes)."""
    with state.shelves.use(data.shelf_names()) as shelves:
        return answer_question(state.pipeline, data, shelves, token=principal.name, traces=state.traces, progress=progress)


def ask_as(state, principal: Principal, data: AskRequest) -> AskResponse:
    """``prepare_ask`` then ``answer_prepared``: the checked answer to ``data`` for ``principal``."""
    return answer_prepared(state, principal, prepare_ask(state, principal, data))
