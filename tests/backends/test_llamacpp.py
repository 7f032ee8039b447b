"""LlamaCppBackend against recorded llama-server payloads (/health, /props, /tokenize, SSE with timings)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from wire_server import WireServer, json_reply, read_fixture, sse

from pedro.backends.base import GenerationOptions
from pedro.backends.llamacpp import NO_TOOL_TEMPLATE_NOTICE, LlamaCppBackend
from pedro.errors import BackendError
from pedro.messages import Message

ROOT = "http://127.0.0.1:8080"
CHAT = "/v1/chat/completions"
TOOLS = [{"type": "function", "function": {"name": "file", "parameters": {"type": "object"}}}]
HELLO = [Message(role="user", content="hi")]


@pytest.fixture
def server() -> WireServer:
    """A fresh recording fake server."""
    return WireServer()


@pytest.fixture
def sleeps() -> list[float]:
    """Backoff sleeps recorded instead of slept."""
    return []


def make(server: WireServer, sleeps: list[float], **kwargs: Any) -> LlamaCppBackend:
    return LlamaCppBackend(ROOT, "local", client=server.client(), sleep=sleeps.append, **kwargs)


def ready(server: WireServer, props: str = "llamacpp/props.json") -> WireServer:
    server.on("GET", "/health", json_reply(read_fixture("llamacpp/health_ok.json")))
    server.on("GET", "/props", json_reply(read_fixture(props)))
    return server


def test_request_pins_a_slot_and_caches_the_prompt(server: WireServer, sleeps: list[float]) -> None:
    ready(server).on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    backend = make(server, sleeps)
    backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    first, second = server.bodies(CHAT)
    assert first["cache_prompt"] is True
    assert first["id_slot"] == os.getpid() % 4  # props say total_slots = 4
    assert second["id_slot"] == first["id_slot"]
    assert first["stream_options"] == {"include_usage": True}
    assert "tools" in first
    # /health and /props are asked once per job, before the first request
    assert server.paths() == ["GET /health", "GET /props", f"POST {CHAT}", f"POST {CHAT}"]


def test_explicit_slot_is_used(server: WireServer, sleeps: list[float]) -> None:
    ready(server).on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    make(server, sleeps, slot=2).complete(HELLO, tools=TOOLS, options=GenerationOptions())
    assert server.bodies(CHAT)[0]["id_slot"] == 2


def test_timings_and_usage_are_kept(server: WireServer, sleeps: list[float]) -> None:
    ready(server).on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    completion = make(server, sleeps).complete(HELLO, tools=TOOLS, options=GenerationOptions())
    assert completion.text == "Done."
    assert completion.timings["prompt_n"] == 48
    assert completion.timings["cache_n"] == 236
    assert completion.timings["predicted_n"] == 12
    assert completion.timings["predicted_per_second"] == pytest.approx(58.99)
    assert completion.usage.prompt_tokens == 284
    assert completion.usage.completion_tokens == 12
    assert completion.usage.cached_tokens == 236  # from timings.cache_n: llama-server sends no prompt_tokens_details


def test_health_loading_is_waited_out(server: WireServer, sleeps: list[float]) -> None:
    loading = json_reply(read_fixture("llamacpp/health_loading.json"), status=503)
    server.on("GET", "/health", loading, loading, json_reply(read_fixture("llamacpp/health_ok.json")))
    server.on("GET", "/props", json_reply(read_fixture("llamacpp/props.json")))
    server.on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    completion = make(server, sleeps, health_poll_interval=0.25).complete(
        HELLO, tools=TOOLS, options=GenerationOptions()
    )
    assert completion.text == "Done."
    assert sleeps == [0.25, 0.25]


def test_health_loading_forever_is_bounded(server: WireServer, sleeps: list[float]) -> None:
    server.on("GET", "/health", json_reply(read_fixture("llamacpp/health_loading.json"), status=503))
    backend = make(server, sleeps, health_timeout=2.0, health_poll_interval=0.5)
    with pytest.raises(BackendError, match=r"still loading the model after 2s"):
        backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    assert len(sleeps) == 4
    assert all(not p.startswith("POST") for p in server.paths())


def test_props_give_the_context_window(server: WireServer, sleeps: list[float]) -> None:
    ready(server)
    assert make(server, sleeps).context_window() == 16384
    assert make(server, sleeps, context_window=8192).context_window() == 8192


def test_template_without_tool_support_starts_in_text_mode(server: WireServer, sleeps: list[float]) -> None:
    ready(server, "llamacpp/props_no_tools.json").on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    backend = make(server, sleeps)
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    assert completion.notices == (NO_TOOL_TEMPLATE_NOTICE,)
    assert "tools" not in server.bodies(CHAT)[0]
    assert server.bodies(CHAT)[0]["id_slot"] == 0  # total_slots = 1
    assert backend.context_window() == 4096


def test_server_without_jinja_rejects_tools_and_job_continues_in_text_mode(
    server: WireServer, sleeps: list[float]
) -> None:
    ready(server)
    rejection = json_reply(read_fixture("llamacpp/error_tools_need_jinja.json"), status=500)
    server.on("POST", CHAT, rejection, sse("llamacpp/stream_timings.sse"))
    backend = make(server, sleeps)
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    assert completion.text == "Done."
    assert "requires --jinja" in completion.notices[0]
    assert sleeps == []  # a refusal is not retried with backoff
    backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    assert ["tools" in body for body in server.bodies(CHAT)] == [True, False, False]


def test_count_tokens_uses_tokenize(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", "/tokenize", json_reply(read_fixture("llamacpp/tokenize.json")))
    assert make(server, sleeps).count_tokens("Hello, world! I am a") == 7
    assert server.bodies("/tokenize") == [{"content": "Hello, world! I am a", "add_special": False}]


def test_count_tokens_is_none_when_the_server_cannot_say(server: WireServer, sleeps: list[float]) -> None:
    assert make(server, sleeps).count_tokens("x") is None


def test_old_server_without_health_or_props_still_works(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    backend = make(server, sleeps)
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    assert completion.text == "Done."
    assert server.bodies(CHAT)[0]["id_slot"] == 0
    assert backend.context_window() is None
