"""The scripted provider of `pedro eval`: llama-server's wire as recorded, read back by pedro's own backends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from pedro.backends.base import GenerationOptions, RetryPolicy
from pedro.backends.connection import Connection
from pedro.backends.llamacpp import LlamaCppBackend
from pedro.backends.openai_compat import OpenAICompatBackend
from pedro.errors import BackendError
from pedro.eval.provider import ScriptedProvider
from pedro.messages import Message, ToolCall
from pedro.tools import ToolRegistry

RECORDED = Path(__file__).resolve().parent / "fixtures" / "recorded" / "llamacpp"
HELLO = [Message("user", "fix calc.py")]
READ = {"name": "file", "arguments": '{"action": "read", "path": "calc.py"}'}
NATIVE_REPLY = {"role": "assistant", "content": "Reading.", "tool_calls": [{"id": "c1", "function": READ}]}
TOOLS = ToolRegistry.default(("file",)).specs()


def sse_chunks(raw: str) -> list[Any]:
    """Each `data:` payload of an SSE body, parsed, with the final [DONE] kept as the string."""
    payloads = [line[len("data: ") :] for line in raw.splitlines() if line.startswith("data: ")]
    return [payload if payload == "[DONE]" else json.loads(payload) for payload in payloads]


def layout(chunk: dict[str, Any]) -> tuple[Any, ...]:
    """The shape of a chunk: its keys in order, and for each choice its keys and its delta's keys."""
    choices = tuple((tuple(c), tuple(c.get("delta", {}))) for c in chunk["choices"])
    return tuple(chunk), choices


def test_a_stream_has_the_layout_llama_server_sends() -> None:
    recorded = sse_chunks((RECORDED / "chat_stream.sse").read_text())
    with ScriptedProvider({"any": [{"role": "assistant", "content": "Done. TASK COMPLETE"}]}) as provider:
        body = {"messages": [{"role": "user", "content": "hi"}], "stream": True}
        raw = httpx.post(f"{provider.url}/v1/chat/completions", json=body, timeout=10).text
    ours = sse_chunks(raw)
    assert ours[-1] == recorded[-1] == "[DONE]"
    # Role chunk, content deltas, finish chunk, usage chunk: the same layouts in the same order.
    assert layout(ours[0]) == layout(recorded[0])
    assert layout(ours[1]) == layout(recorded[1])
    assert layout(ours[-3]) == layout(recorded[-3])
    assert ours[-2]["choices"] == recorded[-2]["choices"] == []
    assert list(ours[-2]) == list(recorded[-2])
    assert set(ours[-2]["timings"]) == set(recorded[-2]["timings"])
    assert "".join(c["choices"][0]["delta"].get("content") or "" for c in ours[:-2]) == "Done. TASK COMPLETE"


def test_a_whole_reply_has_the_layout_llama_server_sends() -> None:
    recorded = json.loads((RECORDED / "chat.json").read_text())
    with ScriptedProvider({"any": [{"role": "assistant", "content": "Done."}]}) as provider:
        body = {"messages": [{"role": "user", "content": "hi"}]}
        ours = httpx.post(f"{provider.url}/v1/chat/completions", json=body, timeout=10).json()
    assert list(ours) == list(recorded)
    assert list(ours["choices"][0]) == list(recorded["choices"][0])
    assert set(ours["usage"]) == set(recorded["usage"])
    assert ours["choices"][0]["message"] == {"role": "assistant", "content": "Done."}


@pytest.mark.parametrize("stream", [True, False])
def test_pedros_backend_reads_native_calls_and_text(stream: bool) -> None:
    replies = {"any": [NATIVE_REPLY, {"role": "assistant", "content": "TASK COMPLETE"}]}
    with ScriptedProvider(replies) as provider:
        backend = OpenAICompatBackend(Connection(f"{provider.url}/v1"), "scripted")
        options = GenerationOptions(stream=stream)
        first = backend.complete(HELLO, tools=TOOLS, options=options)
        second = backend.complete(HELLO, tools=TOOLS, options=options)
        backend.close()
    assert first.text == "Reading."
    assert first.tool_calls == (ToolCall("file", {"action": "read", "path": "calc.py"}, "c1"),)
    assert first.finish_reason == "tool_calls" and first.usage.prompt_tokens > 0
    assert second.text == "TASK COMPLETE" and second.tool_calls == ()
    assert provider.formats == ["native", "native"]


def test_each_call_format_takes_replies_from_its_own_queue() -> None:
    replies = {
        "native": [NATIVE_REPLY],
        "text": [{"role": "assistant", "content": "text reply"}],
        "grammar": [{"role": "assistant", "content": "grammar reply"}],
    }
    with ScriptedProvider(replies) as provider:
        constrained = LlamaCppBackend(Connection(provider.url), "scripted", constrain_calls=True)
        plain = LlamaCppBackend(Connection(provider.url), "scripted")
        grammar = constrained.complete(HELLO, tools=TOOLS, options=GenerationOptions(tool_mode="text"))
        text = plain.complete(HELLO, tools=TOOLS, options=GenerationOptions(tool_mode="text"))
        native = plain.complete(HELLO, tools=TOOLS, options=GenerationOptions(tool_mode="native"))
        constrained.close()
        plain.close()
    assert (grammar.text, text.text, native.tool_calls[0].name) == ("grammar reply", "text reply", "file")
    assert provider.formats == ["grammar", "text", "native"]
    assert "grammar" in provider.requests[0] and "tools" not in provider.requests[1]


def test_a_script_that_ran_out_is_an_error_naming_the_fix() -> None:
    with ScriptedProvider({"any": [{"role": "assistant", "content": "only one"}]}) as provider:
        backend = OpenAICompatBackend(Connection(f"{provider.url}/v1", retry=RetryPolicy(max_retries=0)), "scripted")
        backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
        with pytest.raises(BackendError, match="no reply left for request 2 .*give the scenario more replies"):
            backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())
        backend.close()
