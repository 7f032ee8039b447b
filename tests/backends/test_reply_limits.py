"""Every streamed reply is bounded: one that repeats itself is cut as soon as that is certain, one that streams past
[backend].reply_time_limit_s is cut there; both end as failed replies, on real sockets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from endless_server import EndlessServer

from pedro.backends.base import GenerationOptions, RetryPolicy
from pedro.backends.connection import Connection
from pedro.backends.llamacpp import LlamaCppBackend
from pedro.backends.ollama import OllamaBackend
from pedro.backends.openai_compat import OpenAICompatBackend
from pedro.backends.replyguard import REPETITION, TIME_LIMIT
from pedro.errors import BackendError
from pedro.messages import Completion, Message

HELLO = [Message(role="user", content="hi")]
SENTENCE = "I will look at the file to see what is wrong with it. "
OLLAMA_SHOW = {"model_info": {"general.architecture": "llama", "llama.context_length": 8192}}
NO_RETRIES = RetryPolicy(max_retries=0)
# The servers would go on for this long; every test ends far sooner, so none waits it out.
GIVE_UP = 60.0


def sse(content: str = "", reasoning: str = "") -> bytes:
    delta = {"content": content} if content else {"reasoning_content": reasoning}
    chunk = {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    return f"data: {json.dumps(chunk)}\n\n".encode()


def ndjson(content: str) -> bytes:
    line = {"model": "m", "message": {"role": "assistant", "content": content}, "done": False}
    return (json.dumps(line) + "\n").encode()


@pytest.fixture
def endless() -> Iterator[Any]:
    started: list[EndlessServer] = []

    def start(**kwargs: Any) -> EndlessServer:
        server = EndlessServer(**{"give_up": GIVE_UP, **kwargs}).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def complete(backend: Any) -> tuple[Completion, list[str]]:
    tokens: list[str] = []
    try:
        completion = backend.complete(HELLO, tools=[], options=GenerationOptions(), on_token=tokens.append)
    finally:
        backend.close()
    return completion, tokens


def assert_cut_as_repetition(completion: Completion, tokens: list[str]) -> None:
    assert completion.finish_reason == REPETITION
    # Cut within a few copies, not at the end of a stream that would have gone on for thousands.
    assert len(tokens) <= 8, len(tokens)
    assert completion.text == SENTENCE, "one copy of the loop is kept, the copies are dropped"
    assert any("repeated itself" in notice and "times in a row" in notice for notice in completion.notices)


def test_openai_stream_repeating_one_sentence_is_cut_as_repetition(endless: Any) -> None:
    server = endless(beat=sse(SENTENCE), interval=0.001)
    completion, tokens = complete(OpenAICompatBackend(Connection(server.url + "/v1"), "m"))
    assert_cut_as_repetition(completion, tokens)
    assert server.requests.count("POST /v1/chat/completions") == 1, "a cut reply is not asked for again"


def test_llamacpp_stream_repeating_one_line_is_cut_as_repetition(endless: Any) -> None:
    line = "Let me run the tests again now.\n"
    server = endless(beat=sse(line), interval=0.001, answers={"/health": {"status": "ok"}, "/props": {}})
    completion, tokens = complete(LlamaCppBackend(Connection(server.url), "m"))
    assert completion.finish_reason == REPETITION and len(tokens) == 5
    assert completion.text == line


def test_ollama_stream_repeating_one_sentence_is_cut_as_repetition(endless: Any) -> None:
    server = endless(
        content_type="application/x-ndjson", beat=ndjson(SENTENCE), interval=0.001, answers={"/api/show": OLLAMA_SHOW}
    )
    completion, tokens = complete(OllamaBackend(Connection(server.url), "m", context_window=4096))
    assert_cut_as_repetition(completion, tokens)


def test_reasoning_that_repeats_itself_is_cut_too(endless: Any) -> None:
    server = endless(beat=sse(reasoning=SENTENCE), interval=0.001)
    completion, _ = complete(OpenAICompatBackend(Connection(server.url + "/v1"), "m"))
    assert completion.finish_reason == REPETITION and completion.reasoning == SENTENCE
    assert any("in its reasoning" in notice for notice in completion.notices)


def distinct_words(n: int) -> bytes:
    return sse(f"word{n} ")


def test_openai_stream_past_the_reply_time_limit_is_cut_with_what_arrived(endless: Any) -> None:
    server = endless(beats=distinct_words, interval=0.05)
    backend = OpenAICompatBackend(Connection(server.url + "/v1", reply_time_limit=0.5), "m")
    completion, tokens = complete(backend)
    assert completion.finish_reason == TIME_LIMIT
    assert tokens and completion.text == "".join(tokens)
    assert any("[backend].reply_time_limit_s" in notice for notice in completion.notices)
    assert server.requests.count("POST /v1/chat/completions") == 1


def test_ollama_stream_past_the_reply_time_limit_is_cut(endless: Any) -> None:
    server = endless(
        content_type="application/x-ndjson",
        beats=lambda n: ndjson(f"word{n} "),
        interval=0.05,
        answers={"/api/show": OLLAMA_SHOW},
    )
    completion, tokens = complete(OllamaBackend(Connection(server.url, reply_time_limit=0.5), "m", context_window=4096))
    assert completion.finish_reason == TIME_LIMIT and completion.text == "".join(tokens)


def test_a_non_streamed_reply_is_bounded_by_the_reply_time_limit(endless: Any) -> None:
    server = endless(content_type="application/json", beat=b"", interval=0.05)
    backend = OpenAICompatBackend(Connection(server.url + "/v1", reply_time_limit=0.5, retry=NO_RETRIES), "m")
    with pytest.raises(BackendError) as caught:
        backend.complete(HELLO, tools=[], options=GenerationOptions(stream=False))
    backend.close()
    message = str(caught.value)
    assert "sent no reply within 0.5 s ([backend].reply_time_limit_s" in message, message
    assert "[backend].stream = true" in message


def test_a_reply_limit_of_zero_sets_none(endless: Any) -> None:
    server = endless(beats=distinct_words, interval=0.001, give_up=0.3)
    backend = OpenAICompatBackend(Connection(server.url + "/v1", reply_time_limit=0, retry=NO_RETRIES), "m")
    with pytest.raises(BackendError, match="ended before the server said it was done"):
        complete(backend)
