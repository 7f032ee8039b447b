"""LlamaCppBackend against recorded llama-server payloads (/health, /props, /tokenize, SSE with timings)."""

from __future__ import annotations

from typing import Any

import pytest
from wire_server import WireServer, json_reply, read_fixture, sse

from pedro.backends import get_backend
from pedro.backends.base import GenerationOptions, RetryPolicy
from pedro.backends.connection import Connection
from pedro.backends.grammar import build_call_grammar
from pedro.backends.llamacpp import (
    CONSTRAIN_IGNORED_NOTICE,
    CONSTRAINED_NOTICE,
    NO_TOOL_TEMPLATE_NOTICE,
    LlamaCppBackend,
)
from pedro.backends.openai_compat import ChatSettings, OpenAICompatBackend
from pedro.config import PedroConfig
from pedro.errors import BackendError
from pedro.messages import Message
from pedro.tools import ToolRegistry

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


def make(server: WireServer, sleeps: list[float], load_timeout: float = 300.0, **kwargs: Any) -> LlamaCppBackend:
    retry = RetryPolicy(sleep=sleeps.append, load_timeout=load_timeout)
    return LlamaCppBackend(Connection(ROOT, client=server.client(), retry=retry), "local", **kwargs)


def ready(server: WireServer, props: str = "llamacpp/props.json") -> WireServer:
    server.on("GET", "/health", json_reply(read_fixture("llamacpp/health_ok.json")))
    server.on("GET", "/props", json_reply(read_fixture(props)))
    return server


def test_request_caches_the_prompt_and_leaves_the_slot_to_the_server(server: WireServer, sleeps: list[float]) -> None:
    # props say total_slots = 4: the server gives each request an idle slot, never one another job is using
    ready(server).on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    backend = make(server, sleeps)
    backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    first, second = server.bodies(CHAT)
    assert first["cache_prompt"] is True
    assert "id_slot" not in first and "id_slot" not in second
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
    backend = make(server, sleeps, load_timeout=2.0, health_poll_interval=0.5)
    with pytest.raises(BackendError, match=r"still loading the model after 2s"):
        backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    assert len(sleeps) == 4
    assert all(not p.startswith("POST") for p in server.paths())


def test_props_give_the_context_window(server: WireServer, sleeps: list[float]) -> None:
    ready(server)
    assert make(server, sleeps).context_window() == 16384
    assert make(server, sleeps, settings=ChatSettings(context_window=8192)).context_window() == 8192


def test_template_without_tool_support_starts_in_text_mode(server: WireServer, sleeps: list[float]) -> None:
    ready(server, "llamacpp/props_no_tools.json").on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    backend = make(server, sleeps)
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    assert completion.notices == (NO_TOOL_TEMPLATE_NOTICE,)
    assert "tools" not in server.bodies(CHAT)[0]
    assert "id_slot" not in server.bodies(CHAT)[0]
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
    assert "id_slot" not in server.bodies(CHAT)[0]
    assert backend.context_window() is None


def configured(server: WireServer, kind: str, **backend: Any) -> Any:
    config = PedroConfig.model_validate({"backend": {"kind": kind, "base_url": ROOT, "model": "local", **backend}})
    return get_backend(config, client=server.client())


def test_constrain_calls_sends_the_call_grammar_instead_of_tools(server: WireServer) -> None:
    ready(server).on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    tools = ToolRegistry.default().specs()
    backend = configured(server, "llamacpp", constrain_calls=True)
    assert isinstance(backend, LlamaCppBackend) and backend.constrain_calls
    first = backend.complete(HELLO, tools=tools, options=GenerationOptions())
    second = backend.complete(HELLO, tools=tools, options=GenerationOptions())
    bodies = server.bodies(CHAT)
    assert [body["grammar"] for body in bodies] == [build_call_grammar(tools)] * 2  # same bytes every round
    assert all("tools" not in body and "tool_choice" not in body for body in bodies)
    assert bodies[0]["cache_prompt"] is True
    assert first.notices == (CONSTRAINED_NOTICE,)  # said once per job
    assert second.notices == ()
    assert first.text == "Done."


def test_without_constrain_calls_no_grammar_is_sent(server: WireServer) -> None:
    ready(server).on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    backend = configured(server, "llamacpp")
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    body = server.bodies(CHAT)[0]
    assert "grammar" not in body
    assert "tools" in body
    assert completion.notices == ()


def test_constrain_calls_is_llamacpp_only(server: WireServer) -> None:
    server.on("POST", "/chat/completions", sse("llamacpp/stream_timings.sse"))
    backend = configured(server, "openai", constrain_calls=True)
    assert type(backend) is OpenAICompatBackend
    backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
    body = server.bodies("/chat/completions")[0]
    assert "grammar" not in body
    assert "tools" in body


def test_constrain_calls_with_native_tool_mode_keeps_tools_and_says_why(server: WireServer) -> None:
    ready(server).on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    backend = configured(server, "llamacpp", constrain_calls=True)
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions(tool_mode="native"))
    body = server.bodies(CHAT)[0]
    assert "grammar" not in body
    assert "tools" in body
    assert completion.notices == (CONSTRAIN_IGNORED_NOTICE,)


def test_constrain_calls_without_tools_sends_no_grammar(server: WireServer, sleeps: list[float]) -> None:
    ready(server).on("POST", CHAT, sse("llamacpp/stream_timings.sse"))
    completion = make(server, sleeps, constrain_calls=True).complete(HELLO, tools=[], options=GenerationOptions())
    assert "grammar" not in server.bodies(CHAT)[0]
    assert completion.notices == ()


def test_a_grammar_is_sent_on_the_non_streaming_path_too(server: WireServer, sleeps: list[float]) -> None:
    reply = {
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "TASK COMPLETE\nok"}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
    }
    ready(server).on("POST", CHAT, json_reply(reply))
    backend = make(server, sleeps, constrain_calls=True)
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions(stream=False))
    body = server.bodies(CHAT)[0]
    assert body["grammar"] == build_call_grammar(TOOLS)
    assert body["stream"] is False
    assert completion.text == "TASK COMPLETE\nok"


def test_the_prompt_carries_native_tools_only_when_they_are_sent(server: WireServer, sleeps: list[float]) -> None:
    server.on("GET", "/props", json_reply({"chat_template_caps": {"supports_tool_calls": True}}))
    assert make(server, sleeps).sends_tools(GenerationOptions())
    assert not make(server, sleeps).sends_tools(GenerationOptions(tool_mode="text"))
    assert not make(server, sleeps, constrain_calls=True).sends_tools(GenerationOptions())
    # a grammar cannot be combined with native tools, so native mode keeps them and drops the grammar
    assert make(server, sleeps, constrain_calls=True).sends_tools(GenerationOptions(tool_mode="native"))


def test_a_template_without_tool_support_means_no_tools_in_the_prompt(server: WireServer, sleeps: list[float]) -> None:
    server.on("GET", "/props", json_reply({"chat_template_caps": {"supports_tool_calls": False}}))
    assert not make(server, sleeps).sends_tools(GenerationOptions())
