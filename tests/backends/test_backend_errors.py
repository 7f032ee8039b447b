"""Retries, backoff and error mapping shared by the HTTP backends, on real sockets where it matters."""

from __future__ import annotations

import socket
from typing import Any

import httpx
import pytest
from wire_server import Reply, WireServer, json_reply, sse

from pedro.backends.base import (
    ContextOverflowError,
    GenerationOptions,
    RetryPolicy,
    extract_error_detail,
)
from pedro.backends.connection import Connection
from pedro.backends.http import split_lines
from pedro.backends.ollama import OllamaBackend
from pedro.backends.openai_compat import ChatSettings, OpenAICompatBackend
from pedro.backends.sse import iter_sse_events
from pedro.errors import BackendError
from pedro.messages import Message

HELLO = [Message(role="user", content="hi")]
CHAT = "/v1/chat/completions"


@pytest.fixture
def server() -> WireServer:
    """A fresh recording fake server."""
    return WireServer()


@pytest.fixture
def sleeps() -> list[float]:
    """Backoff sleeps recorded instead of slept."""
    return []


def closed_port() -> int:
    """A loopback port with nothing listening on it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_connection_refused_names_the_url_and_the_fix() -> None:
    sleeps: list[float] = []
    base = f"http://127.0.0.1:{closed_port()}/v1"
    backend = OpenAICompatBackend(
        Connection(base, connect_timeout=1.0, retry=RetryPolicy(max_retries=2, sleep=sleeps.append)), "m"
    )
    with pytest.raises(BackendError) as caught:
        backend.complete(HELLO, tools=[], options=GenerationOptions())
    message = str(caught.value)
    assert f"cannot reach the OpenAI-compatible server at {base}/chat/completions: connection refused" in message
    assert "Is the server running? Check --base-url / [backend].base_url" in message
    # Nothing listens on the port: waiting would change nothing, so there is no retry.
    assert "gave up" not in message and sleeps == []
    backend.close()


def test_connection_refused_for_ollama_show() -> None:
    backend = OllamaBackend(
        Connection(f"http://127.0.0.1:{closed_port()}", retry=RetryPolicy(max_retries=0, sleep=lambda _: None)), "m"
    )
    with pytest.raises(BackendError, match=r"cannot reach the Ollama server at .*/api/show: connection refused"):
        backend.complete(HELLO, tools=[], options=GenerationOptions())
    backend.close()


def make(server: WireServer, sleeps: list[float], max_retries: int = 3, **kwargs: Any) -> OpenAICompatBackend:
    retry = RetryPolicy(max_retries=max_retries, sleep=sleeps.append)
    return OpenAICompatBackend(
        Connection("http://127.0.0.1:8080/v1", client=server.client(), retry=retry), "m", **kwargs
    )


def test_5xx_is_retried_with_exponential_backoff_then_succeeds(server: WireServer, sleeps: list[float]) -> None:
    busy = json_reply({"error": {"message": "slot unavailable"}}, status=503)
    server.on("POST", CHAT, busy, busy, sse("openai/stream_text.sse"))
    completion = make(server, sleeps).complete(HELLO, tools=[], options=GenerationOptions())
    assert completion.text == "I will read the file."
    assert sleeps == [0.5, 1.0]


def test_500_keeps_failing_and_is_reported(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", CHAT, json_reply({"error": {"message": "CUDA out of memory"}}, status=500))
    with pytest.raises(BackendError, match=r"answered 500: CUDA out of memory.*gave up after 4 attempts"):
        make(server, sleeps).complete(HELLO, tools=[], options=GenerationOptions())
    assert len(server.requests) == 4
    assert sleeps == [0.5, 1.0, 2.0]


def test_429_honours_a_small_retry_after(server: WireServer, sleeps: list[float]) -> None:
    limited = json_reply({"error": "rate limited"}, status=429, headers={"Retry-After": "2"})
    huge = json_reply({"error": "rate limited"}, status=429, headers={"Retry-After": "3600"})
    server.on("POST", CHAT, limited, huge, sse("openai/stream_text.sse"))
    make(server, sleeps).complete(HELLO, tools=[], options=GenerationOptions())
    assert sleeps == [2.0, 1.0]  # an hour is not honoured: the normal backoff applies


def test_400_is_not_retried(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", CHAT, json_reply({"error": {"message": "invalid temperature"}}, status=400))
    with pytest.raises(BackendError, match=r"answered 400: invalid temperature"):
        make(server, sleeps).complete(HELLO, tools=[], options=GenerationOptions())
    assert sleeps == []
    assert len(server.requests) == 1


def test_401_names_the_api_key_setting(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", CHAT, json_reply({"error": {"message": "Invalid API Key"}}, status=401))
    with pytest.raises(BackendError, match=r"api_key_env"):
        make(server, sleeps).complete(HELLO, tools=[], options=GenerationOptions())


def test_max_retries_zero_reports_the_first_failure(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", CHAT, Reply(error=httpx.ConnectError))
    with pytest.raises(BackendError, match="connection refused") as caught:
        make(server, sleeps, max_retries=0).complete(HELLO, tools=[], options=GenerationOptions())
    assert "gave up" not in str(caught.value)
    assert sleeps == []


def test_read_timeout_is_not_retried(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", CHAT, Reply(error=httpx.ReadTimeout))
    with pytest.raises(BackendError, match=r"read_timeout"):
        make(server, sleeps).complete(HELLO, tools=[], options=GenerationOptions())
    assert sleeps == []


def test_timeouts_are_short_to_connect_and_long_to_read() -> None:
    seen: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.extensions["timeout"])
        return httpx.Response(200, json={"choices": [{"message": {"content": "x"}, "finish_reason": "stop"}]})

    client = httpx.Client(transport=httpx.MockTransport(handler))
    backend = OpenAICompatBackend(
        Connection("http://127.0.0.1:1/v1", connect_timeout=3.0, read_timeout=900.0, client=client), "m"
    )
    backend.complete(HELLO, tools=[], options=GenerationOptions(stream=False))
    assert seen[0]["connect"] == 3.0
    assert seen[0]["read"] == 900.0


def test_retry_policy_delays() -> None:
    policy = RetryPolicy(max_retries=5, base_delay=1.0, max_delay=4.0)
    assert [policy.delay(n, None) for n in range(4)] == [1.0, 2.0, 4.0, 4.0]
    assert policy.delay(0, 3.0) == 3.0
    assert policy.delay(0, 120.0) == 1.0


def test_sse_reader_handles_comments_multiline_data_and_error_fields() -> None:
    lines = [": ping", 'data: {"a":', "data: 1}", "", "event: x", 'error: {"message": "boom"}', "", "data: [DONE]"]
    assert list(iter_sse_events(lines)) == [("data", '{"a":\n1}'), ("error", '{"message": "boom"}'), ("data", "[DONE]")]


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ('{"error": {"code": 400, "message": "bad"}}', "bad"),
        ('{"error": "model \'x\' not found"}', "model 'x' not found"),
        ('{"detail": "Not Found"}', "Not Found"),
        ("plain text", "plain text"),
    ],
)
def test_error_detail_extraction(body: str, detail: str) -> None:
    assert extract_error_detail(body) == detail


VLLM_OVERFLOW = {
    "object": "error",
    "message": "This model's maximum context length is 4096 tokens. However, you requested 4608 tokens "
    "(4096 in the messages, 512 in the completion). Please reduce the length of the messages or completion.",
    "type": "BadRequestError",
    "param": None,
    "code": 400,
}
LLAMA_SERVER_OVERFLOW = {
    "error": {
        "code": 400,
        "message": "the request exceeds the available context size, try increasing it",
        "type": "exceed_context_size_error",
        "n_prompt_tokens": 9000,
        "n_ctx": 8192,
    }
}
LM_STUDIO_OVERFLOW = {
    "error": "Trying to keep the first 5120 tokens when context the overflows. However, the model is loaded with "
    "context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length"
}


@pytest.mark.parametrize(
    ("body", "window"),
    [(VLLM_OVERFLOW, 4096), (LLAMA_SERVER_OVERFLOW, 8192), (LM_STUDIO_OVERFLOW, 4096)],
)
def test_a_prompt_too_long_for_the_window_is_recognised_with_the_window(
    server: WireServer, sleeps: list[float], body: dict[str, Any], window: int
) -> None:
    server.on("POST", CHAT, json_reply(body, status=400))
    with pytest.raises(ContextOverflowError) as caught:
        make(server, sleeps).complete(HELLO, tools=[], options=GenerationOptions())
    assert caught.value.window == window
    assert "longer than its context window" in str(caught.value)
    assert sleeps == []


def test_the_window_comes_from_the_model_listing_when_not_configured(server: WireServer, sleeps: list[float]) -> None:
    listing = {"object": "list", "data": [{"id": "other", "max_model_len": 999}, {"id": "m", "max_model_len": 32768}]}
    server.on("GET", "/v1/models", json_reply(listing))
    backend = make(server, sleeps)
    assert backend.context_window() == 32768
    assert backend.context_window() == 32768
    assert len(server.requests) == 1
    assert make(server, sleeps, settings=ChatSettings(context_window=4096)).context_window() == 4096


def test_a_listing_without_a_window_leaves_it_unknown(server: WireServer, sleeps: list[float]) -> None:
    server.on("GET", "/v1/models", json_reply({"object": "list", "data": [{"id": "m", "owned_by": "me"}]}))
    assert make(server, sleeps).context_window() is None


def test_lines_are_split_at_every_line_ending_however_the_chunks_cut_them() -> None:
    chunks = ["data: a\r", "\ndata: b\r\n\r", "\n: keep", "-alive\n\ndata: c\rdata: d", "\n", "tail"]
    assert list(split_lines(chunks)) == ["data: a", "data: b", "", ": keep-alive", "", "data: c", "data: d", "tail"]
    assert list(split_lines(["x\r"])) == ["x"]
    assert list(split_lines([])) == []
