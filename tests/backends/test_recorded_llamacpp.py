"""Replies recorded from a real llama-server (tests/fixtures/recorded/llamacpp) replayed through LlamaCppBackend."""

from __future__ import annotations

import json
from typing import Any

from wire_server import WireServer, json_reply, read_fixture, sse

from pedro.backends.base import GenerationOptions, RetryPolicy
from pedro.backends.connection import Connection
from pedro.backends.llamacpp import LlamaCppBackend
from pedro.messages import Message

ROOT = "http://127.0.0.1:8080"
CHAT = "/v1/chat/completions"
REC = "recorded/llamacpp"
HELLO = [Message(role="user", content="hi")]
TOOLS = [{"type": "function", "function": {"name": "file", "parameters": {"type": "object"}}}]


def recorded_server(props: str = f"{REC}/props.json") -> WireServer:
    server = WireServer()
    server.on("GET", "/health", json_reply(read_fixture(f"{REC}/health.json")))
    server.on("GET", "/props", json_reply(read_fixture(props)))
    return server


def sse_content(name: str) -> tuple[str, dict[str, Any]]:
    """The concatenated content deltas and the final usage/timings chunk of a recorded stream."""
    text, last = "", {}
    for event in read_fixture(f"{REC}/{name}").split("\n\n"):
        data = event.removeprefix("data: ").strip()
        if not data or data == "[DONE]":
            continue
        chunk = json.loads(data)
        for choice in chunk.get("choices", []):
            text += choice.get("delta", {}).get("content") or ""
        if "timings" in chunk:
            last = chunk
    return text, last


def test_recorded_stream_assembles_text_usage_and_timings() -> None:
    server = recorded_server().on("POST", CHAT, sse(f"{REC}/chat_stream.sse"))
    backend = LlamaCppBackend(Connection(ROOT, client=server.client()), "m")
    shown: list[str] = []
    completion = backend.complete(HELLO, tools=[], options=GenerationOptions(stream=True), on_token=shown.append)
    expected_text, final = sse_content("chat_stream.sse")
    assert completion.text == expected_text and "".join(shown) == expected_text
    assert completion.usage.prompt_tokens == final["usage"]["prompt_tokens"]
    assert completion.usage.completion_tokens == final["usage"]["completion_tokens"]
    assert completion.timings["prompt_n"] == final["timings"]["prompt_n"]
    assert completion.timings["predicted_n"] == final["timings"]["predicted_n"]
    body = json.loads(server.requests[-1].content)
    assert body["cache_prompt"] is True and "id_slot" not in body


def test_recorded_json_reply_keeps_timings() -> None:
    recorded = json.loads(read_fixture(f"{REC}/chat.json"))
    server = recorded_server().on("POST", CHAT, json_reply(recorded))
    backend = LlamaCppBackend(Connection(ROOT, client=server.client()), "m")
    completion = backend.complete(HELLO, tools=[], options=GenerationOptions(stream=False))
    assert completion.text == recorded["choices"][0]["message"]["content"]
    assert completion.timings == recorded["timings"]
    assert completion.usage.prompt_tokens == recorded["usage"]["prompt_tokens"]


def test_recorded_template_without_tools_starts_in_text_mode() -> None:
    server = recorded_server().on("POST", CHAT, sse(f"{REC}/chat_stream.sse"))
    backend = LlamaCppBackend(Connection(ROOT, client=server.client()), "m")
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions(stream=True))
    assert completion.notices
    assert all("tools" not in json.loads(r.content) for r in server.requests if r.url.path == CHAT)


def test_recorded_no_jinja_refusal_switches_to_text_mode() -> None:
    refusal = json_reply(read_fixture(f"{REC}/chat_tools_no_jinja.json"), status=500)
    # props of a template that claims tool support, so pedro tries native tools and meets the real refusal
    server = recorded_server("llamacpp/props.json").on("POST", CHAT, refusal, sse(f"{REC}/chat_stream.sse"))
    backend = LlamaCppBackend(Connection(ROOT, client=server.client(), retry=RetryPolicy(sleep=lambda _s: None)), "m")
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions(stream=True))
    assert completion.text == sse_content("chat_stream.sse")[0]
    assert any("text mode" in notice for notice in completion.notices)
    bodies = [json.loads(r.content) for r in server.requests if r.url.path == CHAT]
    assert "tools" in bodies[0] and "tools" not in bodies[-1]


def test_recorded_props_and_tokenize() -> None:
    props = json.loads(read_fixture(f"{REC}/props.json"))
    server = recorded_server().on("POST", "/tokenize", json_reply(read_fixture(f"{REC}/tokenize.json")))
    backend = LlamaCppBackend(Connection(ROOT, client=server.client()), "m")
    assert backend.context_window() == props["default_generation_settings"]["n_ctx"]
    tokens = json.loads(read_fixture(f"{REC}/tokenize.json"))["tokens"]
    assert backend.count_tokens("anything") == len(tokens)


def test_recorded_likeliest_tokens_come_with_the_answer_streamed_or_whole() -> None:
    recorded = json.loads(read_fixture(f"{REC}/chat_top_logprobs.json"))
    entries = recorded["choices"][0]["logprobs"]["content"]
    opening = "```python\ndef total(prices):\n    result = 0\n    for"
    messages = [*HELLO, Message(role="assistant", content=opening)]
    for reply, stream in ((json_reply(recorded), False), (sse(f"{REC}/chat_top_logprobs_stream.sse"), True)):
        server = recorded_server().on("POST", CHAT, reply)
        backend = LlamaCppBackend(Connection(ROOT, client=server.client()), "m")
        options = GenerationOptions(stream=stream, temperature=0, stop=("\n",), likeliest=4)
        completion = backend.complete(messages, tools=[], options=options)
        body = json.loads(server.requests[-1].content)
        assert body["logprobs"] is True and body["top_logprobs"] == 4
        assert [token.text for token in completion.tokens] == [entry["token"] for entry in entries]
        assert completion.text == opening + "".join(token.text for token in completion.tokens)
        first = completion.tokens[0]
        assert len(first.likeliest) == 4 and first.likeliest[0] == (first.text, first.logprob)
        assert [text for text, _ in first.likeliest] == [one["token"] for one in entries[0]["top_logprobs"]]


def test_no_likeliest_tokens_are_asked_for_unless_wanted() -> None:
    server = recorded_server().on("POST", CHAT, json_reply(json.loads(read_fixture(f"{REC}/chat.json"))))
    backend = LlamaCppBackend(Connection(ROOT, client=server.client()), "m")
    completion = backend.complete(HELLO, tools=[], options=GenerationOptions(stream=False))
    body = json.loads(server.requests[-1].content)
    assert "logprobs" not in body and "top_logprobs" not in body and completion.tokens == ()
