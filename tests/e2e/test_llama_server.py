"""A real llama-server started by pedro with the real SmolLM2-135M-Instruct GGUF: wire shapes and pedro's backend."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from record_fixtures import CHAT_REQUESTS, MESSAGES, TOOLS

from pedro.backends.base import GenerationOptions
from pedro.backends.connection import Connection
from pedro.backends.llamacpp import NO_TOOL_TEMPLATE_NOTICE, LlamaCppBackend
from pedro.backends.managed import ManagedLlamaServer
from pedro.messages import Message

pytestmark = pytest.mark.e2e


def post_chat(server: ManagedLlamaServer, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(server.base_url + "/v1/chat/completions", json=body, timeout=120, trust_env=False)
    assert response.status_code == 200, response.text
    reply: dict[str, Any] = response.json()
    return reply


def test_chat_with_tools_array_is_answered_in_the_openai_shape(llama_server: ManagedLlamaServer) -> None:
    reply = post_chat(llama_server, CHAT_REQUESTS["chat_tools"])
    message = reply["choices"][0]["message"]
    assert message["role"] == "assistant"
    assert isinstance(message.get("content"), str) or isinstance(message.get("tool_calls"), list)
    assert reply["choices"][0]["finish_reason"] in ("stop", "length", "tool_calls")
    usage = reply["usage"]
    assert usage["prompt_tokens"] > 0
    assert 0 < usage["completion_tokens"] <= CHAT_REQUESTS["chat_tools"]["max_tokens"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    timings = reply["timings"]
    assert timings["predicted_n"] == usage["completion_tokens"]
    assert timings["predicted_per_second"] > 0
    assert reply["model"] == llama_server.model_alias


def test_smollm2_template_cannot_call_tools_so_the_tools_field_is_dropped(llama_server: ManagedLlamaServer) -> None:
    # The finding pedro's llamacpp backend relies on: /props says the template has no tool support, and the
    # server then accepts `tools` but leaves it out of the prompt, so tools must be described in text mode.
    props = httpx.get(llama_server.base_url + "/props", trust_env=False).json()
    caps = props["chat_template_caps"]
    assert caps["supports_tools"] is False
    assert caps["supports_tool_calls"] is False
    assert "<|im_start|>" in props["chat_template"]
    plain = post_chat(llama_server, {"messages": MESSAGES, "max_tokens": 1, "temperature": 0})
    with_tools = post_chat(llama_server, {"messages": MESSAGES, "tools": TOOLS, "max_tokens": 1, "temperature": 0})
    assert with_tools["usage"]["prompt_tokens"] == plain["usage"]["prompt_tokens"]


def test_streaming_reply_is_sse_ending_in_done_with_usage(llama_server: ManagedLlamaServer) -> None:
    body = CHAT_REQUESTS["chat_stream"]
    with httpx.stream(
        "POST", llama_server.base_url + "/v1/chat/completions", json=body, timeout=120, trust_env=False
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = [line for line in response.iter_lines() if line]
    assert lines[-1] == "data: [DONE]"
    chunks = [json.loads(line.removeprefix("data: ")) for line in lines[:-1]]
    text = "".join(
        choice["delta"].get("content") or "" for chunk in chunks for choice in chunk["choices"] if "delta" in choice
    )
    assert text.strip()
    assert chunks[-1]["usage"]["completion_tokens"] > 0
    assert "timings" in chunks[-1]


def test_tokenize_counts_the_tokens_of_a_text(llama_server: ManagedLlamaServer) -> None:
    reply = httpx.post(
        llama_server.base_url + "/tokenize", json={"content": "def add(a, b):", "add_special": False}, trust_env=False
    ).json()
    assert all(isinstance(token, int) for token in reply["tokens"])
    assert 3 <= len(reply["tokens"]) <= 10


def test_pedro_llamacpp_backend_completes_against_the_real_server(llama_server: ManagedLlamaServer) -> None:
    backend = LlamaCppBackend(Connection(llama_server.base_url, read_timeout=120), llama_server.model_alias)
    streamed: list[str] = []
    try:
        completion = backend.complete(
            [Message(role="system", content=MESSAGES[0]["content"]), Message(role="user", content="Say hello.")],
            tools=TOOLS,
            options=GenerationOptions(temperature=0.0, max_tokens=24, stream=True),
            on_token=streamed.append,
        )
        window = backend.context_window()
    finally:
        backend.close()
    assert completion.text
    assert "".join(streamed).strip() in completion.text
    assert completion.usage.completion_tokens > 0
    assert completion.finish_reason in ("stop", "length")
    assert window == 4096
    # /props says SmolLM2's template has no tool support, so the backend switched this job to text mode.
    assert NO_TOOL_TEMPLATE_NOTICE in completion.notices
