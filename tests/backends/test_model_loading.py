"""A server still loading its model answers 503: pedro waits it out (the sleeps recorded, never slept) and says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from wire_server import Reply, WireServer, json_reply, read_fixture, sse

from pedro.backends.base import GenerationOptions, RetryPolicy
from pedro.backends.connection import Connection
from pedro.backends.llamacpp import LlamaCppBackend
from pedro.backends.openai_compat import OpenAICompatBackend
from pedro.config import PedroConfig
from pedro.dispatch import Dispatcher
from pedro.errors import BackendError
from pedro.loop.agent import Agent, AgentParts, Limits
from pedro.messages import Event, Message
from pedro.roles import get_role
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext

HELLO = [Message(role="user", content="hi")]
CHAT = "/v1/chat/completions"
ANSWER = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "hello"}, "finish_reason": "stop"}]}


def loading(headers: dict[str, str] | None = None) -> Reply:
    """llama-server's 503 while it loads the model, as recorded from a real one."""
    return json_reply(read_fixture("recorded/llamacpp/health_loading.json"), status=503, headers=headers)


def make(
    server: WireServer, sleeps: list[float], max_retries: int = 3, load_timeout: float = 300.0
) -> OpenAICompatBackend:
    retry = RetryPolicy(max_retries=max_retries, sleep=sleeps.append, load_timeout=load_timeout)
    return OpenAICompatBackend(Connection("http://127.0.0.1:8080/v1", client=server.client(), retry=retry), "m")


def test_loading_is_waited_out_past_the_retry_budget() -> None:
    server, sleeps, notices = WireServer(), [], []
    server.on("POST", CHAT, *[loading()] * 6, json_reply(ANSWER))
    options = GenerationOptions(stream=False)
    completion = make(server, sleeps, max_retries=3).complete(
        HELLO, tools=[], options=options, on_notice=notices.append
    )
    assert completion.text == "hello"
    assert sleeps == [2.0] * 6  # six waits, though max_retries allows three
    assert notices == ["waiting for the server to load the model (up to 300 s, [backend].load_timeout)"]


def test_a_retry_after_is_honoured_while_loading_however_long_within_the_load_timeout() -> None:
    server, sleeps, notices = WireServer(), [], []
    server.on(
        "POST", CHAT, loading({"Retry-After": "45"}), loading({"Retry-After": "45"}), sse("openai/stream_text.sse")
    )
    completion = make(server, sleeps).complete(HELLO, tools=[], options=GenerationOptions(), on_notice=notices.append)
    assert completion.text
    assert sleeps == [45.0, 45.0]  # a Retry-After of 45 s would be ignored for an ordinary 503 (over 30 s)
    assert notices == [
        "waiting for the server to load the model (up to 300 s, [backend].load_timeout)",
        "still waiting for the server to load the model (45 s of 300 s)",
    ]


def test_loading_past_the_load_timeout_fails_naming_the_key() -> None:
    server, sleeps = WireServer(), []
    server.on("POST", CHAT, loading({"Retry-After": "4"}))
    with pytest.raises(BackendError) as caught:
        make(server, sleeps, load_timeout=10).complete(HELLO, tools=[], options=GenerationOptions(stream=False))
    assert sleeps == [4.0, 4.0, 2.0]  # the last wait is what is left of the 10 s
    message = str(caught.value)
    assert "still loading the model (Loading model)" in message and "after 10 s" in message
    assert "[backend].load_timeout = 10" in message and "PEDRO_BACKEND__LOAD_TIMEOUT" in message


def test_a_503_that_is_not_loading_keeps_the_retry_budget() -> None:
    # Ollama's own 503 when its queue is full (server/sched.go ErrMaxQueue): busy, not loading.
    busy = json_reply({"error": "server busy, please try again.  maximum pending requests exceeded"}, status=503)
    server, sleeps = WireServer(), []
    server.on("POST", CHAT, busy)
    with pytest.raises(BackendError, match="gave up after 4 attempts"):
        make(server, sleeps).complete(HELLO, tools=[], options=GenerationOptions(stream=False))
    assert sleeps == [0.5, 1.0, 2.0]


def test_the_load_timeout_comes_from_the_config() -> None:
    config = PedroConfig()
    config.backend.load_timeout = 7
    server, sleeps = WireServer(), []
    server.on("POST", CHAT, loading())
    backend = OpenAICompatBackend.from_config(config, client=server.client(), sleep=sleeps.append)
    with pytest.raises(BackendError, match=r"load_timeout = 7\b"):
        backend.complete(HELLO, tools=[], options=GenerationOptions(stream=False))
    assert sum(sleeps) == 7


def test_llama_server_health_wait_tells_the_person_and_honours_the_load_timeout() -> None:
    server, sleeps, notices = WireServer(), [], []
    health_loading = json_reply(read_fixture("recorded/llamacpp/health_loading.json"), status=503)
    server.on(
        "GET", "/health", health_loading, health_loading, json_reply(read_fixture("recorded/llamacpp/health.json"))
    )
    server.on("GET", "/props", json_reply(read_fixture("recorded/llamacpp/props.json")))
    server.on("POST", CHAT, json_reply(ANSWER))
    backend = LlamaCppBackend(
        Connection(
            "http://127.0.0.1:8080", client=server.client(), retry=RetryPolicy(sleep=sleeps.append, load_timeout=9)
        ),
        "m",
    )
    backend.complete(HELLO, tools=[], options=GenerationOptions(stream=False), on_notice=notices.append)
    assert notices == ["waiting for llama-server to load the model (up to 9 s, [backend].load_timeout)"]
    assert sleeps == [1.0, 1.0]


def test_the_wait_is_a_notice_event_of_the_job(repo: Path) -> None:
    server, sleeps, events = WireServer(), [], []
    server.on("POST", CHAT, loading(), loading(), json_reply(
        {"choices": [{"index": 0, "message": {"role": "assistant", "content": "TASK COMPLETE\nnothing to do"},
                      "finish_reason": "stop"}]}
    ))  # fmt: skip
    role = get_role("reviewer")
    result = Agent(
        AgentParts(
            role=role,
            backend=make(server, sleeps),
            dispatcher=Dispatcher(ToolRegistry.default(role.tools), ToolContext(root=repo, read_only=True)),
            limits=Limits(max_rounds=2),
            options=GenerationOptions(stream=False),
        ),
        on_event=events.append,
    ).run("Review")
    assert result.exit_status == "completed"
    said = [event.data["message"] for event in events if isinstance(event, Event) and event.type == "notice"]
    assert said == ["waiting for the server to load the model (up to 300 s, [backend].load_timeout)"]
    assert sleeps == [2.0, 2.0]
