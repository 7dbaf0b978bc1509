"""/v1/models and /v1/chat/completions through the real ``openai`` client against uvicorn on 127.0.0.1.

Two tenants (alpha, beta): each token sees only its shelf as a model; plain and streamed answers carry the
checked, cited sentences with their citations linked and the trace id; wrong tokens, shelves not granted and
malformed bodies get 4xx errors in the OpenAI shape, which the client raises as its own error classes.
"""

from __future__ import annotations

import math
import re
import threading
from contextlib import contextmanager

import httpx
import openai
import pytest
import uvicorn

from answer_shelves import HashEmbedder, tenant_builds
from shelfwise.api.server.app import create_app
from shelfwise.compiler.settings import Settings
from tests.test_browser import _free_port, _wait


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("openai")
    return root, tenant_builds(root / "build", root / "shelves")


@contextmanager
def _serving(builds, **api):
    root, stores = builds
    settings = Settings.model_validate({"api": {
        "tokens": [{"name": "alpha-chat", "token": "alpha-secret", "shelves": ["alpha"]},
                   {"name": "beta-chat", "token": "beta-secret", "shelves": ["beta"]},
                   {"name": "wide", "token": "wide-secret", "shelves": ["alpha", "gamma"]}],
        "trace_db": str(root / "traces.sqlite"), "max_history_turns": 2, **api}})
    app = create_app(settings, chat=None, embedder=HashEmbedder(), stores=stores)
    port = _free_port()
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(base + "/api/health", seconds=30)
        yield base
    finally:
        uv.should_exit = True
        thread.join(timeout=20)


@pytest.fixture(scope="module")
def server(builds):
    with _serving(builds) as base:
        yield base


def _client(base: str, token: str = "alpha-secret") -> openai.OpenAI:
    return openai.OpenAI(base_url=base + "/v1", api_key=token, max_retries=0)


def test_models_are_the_shelves_the_token_grants(server):
    assert [m.id for m in _client(server).models.list()] == ["alpha"]
    assert [m.id for m in _client(server, "beta-secret").models.list()] == ["beta"]
    assert _client(server).models.retrieve("alpha").owned_by == "shelfwise"
    with pytest.raises(openai.NotFoundError) as refused:  # a shelf the token cannot read is no model of its: 404, as OpenAI answers
        _client(server).models.retrieve("beta")
    assert refused.value.body["code"] == "model_not_found"
    with pytest.raises(openai.NotFoundError):
        _client(server).models.retrieve("no-such-shelf")


def test_a_chat_answer_is_the_checked_answer_with_linked_numbered_citations_and_its_trace(server):
    reply = _client(server).chat.completions.create(
        model="alpha", messages=[{"role": "system", "content": "Answer like a pirate."},
                                 {"role": "user", "content": "How long do refresh tokens last before they expire?"}])
    text = reply.choices[0].message.content
    extra = reply.model_extra["shelfwise"]
    assert "Refresh tokens expire after 30 days. [[1]](" in text and "pirate" not in text.lower()
    assert extra["label"] == "complete" and reply.id == f"chatcmpl-{extra['trace_id']}" and f"_Trace: {extra['trace_id']}_" in text
    first = extra["citations"][0]
    assert first["n"] == 1 and first["url"] == f"{server}/api/sections/{first['section_id']}?shelf=alpha"  # no site served: the API's section
    assert f"1. [Access Policy › Refresh tokens]({first['url']})" in text
    section = httpx.get(first["url"], headers={"Authorization": "Bearer alpha-secret"}).json()
    assert "Refresh tokens expire after 30 days." in section["text"]
    trace = httpx.get(f"{server}/api/answers/{extra['trace_id']}", headers={"Authorization": "Bearer alpha-secret"}).json()
    assert trace["token"] == "alpha-chat" and trace["question"] == "How long do refresh tokens last before they expire?"


def test_a_follow_up_carries_the_earlier_turns_as_history(server):
    client = _client(server)
    first = client.chat.completions.create(model="alpha", messages=[{"role": "user", "content": "How long do refresh tokens last?"}])
    follow = client.chat.completions.create(model="alpha", messages=[
        {"role": "user", "content": "How long do refresh tokens last?"},
        {"role": "assistant", "content": first.choices[0].message.content},
        {"role": "user", "content": [{"type": "text", "text": "When is one revoked?"}]}])
    trace = httpx.get(f"{server}/api/answers/{follow.model_extra['shelfwise']['trace_id']}",
                      headers={"Authorization": "Bearer alpha-secret"}).json()
    assert trace["history"] == ["How long do refresh tokens last?"]
    assert "A refresh token is revoked when the user logs out." in follow.choices[0].message.content


def test_a_streamed_answer_arrives_as_chunks_that_add_up_to_the_plain_answer(server):
    client = _client(server)
    messages = [{"role": "user", "content": "How many days are backups kept?"}]
    chunks = list(client.chat.completions.create(model="alpha", messages=messages, stream=True))
    assert chunks[0].choices[0].delta.role == "assistant" and chunks[-1].choices[0].finish_reason == "stop"
    assert len({c.id for c in chunks}) == 1 and len(chunks) >= 4
    text = "".join(c.choices[0].delta.content or "" for c in chunks)
    trace_id = chunks[-1].model_extra["shelfwise"]["trace_id"]
    assert "Backups are kept for 35 days." in text and text.endswith(f"_Trace: {trace_id}_")
    plain = client.chat.completions.create(model="alpha", messages=messages).choices[0].message.content
    assert re.sub(r"a[0-9a-f]{20}", "TRACE", plain) == re.sub(r"a[0-9a-f]{20}", "TRACE", text)
    with httpx.stream("POST", f"{server}/v1/chat/completions", headers={"Authorization": "Bearer alpha-secret"},
                      json={"model": "alpha", "messages": messages, "stream": True}) as raw:
        assert raw.headers["content-type"].startswith("text/event-stream")
        lines = [line for line in raw.iter_lines() if line]
    assert lines[-1] == "data: [DONE]" and all(line.startswith("data: ") for line in lines)


def test_a_wrong_token_is_refused_with_401_in_the_openai_shape(server):
    with pytest.raises(openai.AuthenticationError) as refused:
        _client(server, "not-a-token").chat.completions.create(model="alpha", messages=[{"role": "user", "content": "hi"}])
    assert refused.value.status_code == 401 and refused.value.body["type"] == "authentication_error"
    assert "unknown API token" in refused.value.body["message"]
    with pytest.raises(openai.AuthenticationError):
        _client(server, "not-a-token").models.list()


@pytest.mark.parametrize("stream", [False, True])
def test_a_shelf_the_token_does_not_grant_is_an_unknown_model_and_nothing_of_it_leaks(server, stream):
    with pytest.raises(openai.NotFoundError) as refused:
        _client(server).chat.completions.create(model="beta", stream=stream,
                                                messages=[{"role": "user", "content": "What is the launch code of project Zephyr?"}])
    body = refused.value.body
    assert refused.value.status_code == 404 and body["code"] == "model_not_found"
    assert "the model 'beta' does not exist or your token cannot read it" in body["message"]
    assert "7741" not in str(body) and "Zephyr" not in str(body)
    with pytest.raises(openai.NotFoundError) as unknown:  # the same reply as for a shelf that does not exist
        _client(server).chat.completions.create(model="delta", stream=stream, messages=[{"role": "user", "content": "hi"}])
    assert unknown.value.body["message"].replace("delta", "beta") == body["message"]


def test_a_shelf_granted_but_not_served_is_404_model_not_found(server):
    with pytest.raises(openai.NotFoundError):  # alpha's token does not grant gamma
        _client(server).chat.completions.create(model="gamma", messages=[{"role": "user", "content": "hi"}])
    with pytest.raises(openai.NotFoundError) as missing:
        _client(server, "wide-secret").chat.completions.create(model="gamma", messages=[{"role": "user", "content": "hi"}])
    assert missing.value.body["code"] == "model_not_found" and "shelves your token can read here: alpha" in missing.value.body["message"]
    assert [m.id for m in _client(server, "wide-secret").models.list()] == ["alpha"]


def test_usage_is_estimated_at_four_characters_a_token(server):
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "How many days are backups kept?"}]
    reply = _client(server).chat.completions.create(model="alpha", messages=messages)
    prompt = math.ceil(len("Be brief.") / 4) + math.ceil(len("How many days are backups kept?") / 4)
    completion = math.ceil(len(reply.choices[0].message.content) / 4)
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.total_tokens) == (prompt, completion, prompt + completion)
    chunks = list(_client(server).chat.completions.create(model="alpha", messages=messages, stream=True,
                                                          stream_options={"include_usage": True}))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert chunks[-1].choices == [] and chunks[-1].usage.prompt_tokens == prompt
    assert chunks[-1].usage.completion_tokens == math.ceil(len(text) / 4) and all(c.usage is None for c in chunks[:-1])
    plain = list(_client(server).chat.completions.create(model="alpha", messages=messages, stream=True))
    assert all(c.usage is None and c.choices for c in plain)


@pytest.mark.parametrize(("extra", "named"), [
    ({"response_format": {"type": "json_object"}}, "unsupported parameter: response_format"),
    ({"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}], "tool_choice": "required"},
     "unsupported parameters: tool_choice, tools"),
    ({"logprobs": True, "top_logprobs": 2}, "unsupported parameters: logprobs, top_logprobs"),
    ({"modalities": ["text", "audio"], "audio": {"voice": "alloy", "format": "wav"}}, "unsupported parameters: audio, modalities"),
])
def test_a_parameter_shelfwise_cannot_honour_is_a_400_naming_it(server, extra, named):
    with pytest.raises(openai.BadRequestError) as refused:
        _client(server).chat.completions.create(model="alpha", messages=[{"role": "user", "content": "hi"}], **extra)
    assert refused.value.body["type"] == "invalid_request_error" and named in refused.value.body["message"]
    assert refused.value.body["param"] == min(extra)


def test_an_unknown_parameter_is_a_400_and_neutral_ones_are_accepted(server):
    with pytest.raises(openai.BadRequestError) as refused:
        _client(server).chat.completions.create(model="alpha", messages=[{"role": "user", "content": "hi"}], extra_body={"frobnicate": 1})
    assert refused.value.body["message"] == "unrecognized parameter: frobnicate" and refused.value.body["param"] == "frobnicate"
    reply = _client(server).chat.completions.create(
        model="alpha", messages=[{"role": "user", "content": "How many days are backups kept?"}], temperature=0.2, top_p=0.9,
        max_tokens=50, seed=7, stop=["\n\n"], user="u-1", response_format={"type": "text"}, tools=[], tool_choice="none", logprobs=False)
    assert "Backups are kept for 35 days." in reply.choices[0].message.content


@pytest.mark.parametrize(("body", "words"), [
    ({"model": "alpha"}, "messages"),
    ({"model": "alpha", "messages": []}, "messages"),
    ({"model": "alpha", "messages": [{"role": "wizard", "content": "hi"}]}, "role"),
    ({"model": "alpha", "messages": [{"role": "assistant", "content": "hello"}]}, "last message must be the user's question"),
    ({"model": "alpha", "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]}, "text parts only"),
    ({"model": "alpha", "messages": [{"role": "user", "content": "   "}]}, "question is empty"),
    ({"model": "alpha", "messages": [{"role": "user", "content": "x " * 5000}]}, "api.max_question_chars"),
    ({"model": "alpha", "n": 3, "messages": [{"role": "user", "content": "hi"}]}, "n"),
])
def test_a_malformed_body_is_a_400_in_the_openai_shape(server, body, words):
    with pytest.raises(openai.BadRequestError) as refused:
        _client(server).post("/chat/completions", body=body, cast_to=object)  # the client's own request path, no argument checks
    assert refused.value.status_code == 400 and refused.value.body["type"] == "invalid_request_error"
    assert words in refused.value.body["message"]


def test_invalid_json_is_a_400_in_the_openai_shape(server):
    response = httpx.post(f"{server}/v1/chat/completions", content=b"{not json",
                          headers={"Authorization": "Bearer alpha-secret", "Content-Type": "application/json"})
    assert response.status_code == 400 and set(response.json()["error"]) == {"message", "type", "code", "param"}


def test_the_api_rate_limit_counts_v1_requests_too(builds):
    with _serving(builds, rate_limit_per_minute=2) as base:
        client = _client(base)
        client.models.list()
        client.chat.completions.create(model="alpha", messages=[{"role": "user", "content": "How many days are backups kept?"}])
        with pytest.raises(openai.RateLimitError) as limited:
            client.models.list()
    assert limited.value.body["code"] == "rate_limit_exceeded" and "api.rate_limit_per_minute" in limited.value.body["message"]
    assert int(limited.value.response.headers["Retry-After"]) >= 1


def test_an_answer_that_fails_after_the_stream_began_ends_with_an_error_event(builds):
    with _serving(builds, answer_timeout_s=1e-9) as base:
        client = _client(base)
        messages = [{"role": "user", "content": "How many days are backups kept?"}]
        with pytest.raises(openai.InternalServerError) as plain:
            client.chat.completions.create(model="alpha", messages=messages)
        assert plain.value.status_code == 504 and plain.value.body["code"] == "timeout"
        seen = []
        with pytest.raises(openai.APIError) as streamed:
            for chunk in client.chat.completions.create(model="alpha", messages=messages, stream=True):
                seen.append(chunk)
    assert [c.choices[0].delta.role for c in seen] == ["assistant"]  # the role chunk went out before the answer failed
    assert "api.answer_timeout_s" in streamed.value.message
