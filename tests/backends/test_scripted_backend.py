"""ScriptedBackend and get_backend()."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from pedro.backends import get_backend
from pedro.backends.base import GenerationOptions
from pedro.backends.llamacpp import LlamaCppBackend
from pedro.backends.ollama import OllamaBackend
from pedro.backends.openai_compat import OpenAICompatBackend
from pedro.backends.scripted import ScriptedBackend
from pedro.config import PedroConfig
from pedro.errors import BackendError
from pedro.messages import Completion, Message, ToolCall

TOOLS = [{"type": "function", "function": {"name": "bash", "parameters": {"type": "object"}}}]


def test_scripted_replies_in_order_and_records_requests() -> None:
    call = Completion(text="", tool_calls=(ToolCall("bash", {"command": "ls"}, "c1"),))
    backend = ScriptedBackend(["hello", call])
    tokens: list[str] = []
    first = backend.complete([Message("user", "hi")], tools=TOOLS, options=GenerationOptions(), on_token=tokens.append)
    second = backend.complete([Message("user", "again")], tools=[], options=GenerationOptions(tool_mode="text"))
    assert first == Completion(text="hello")
    assert second is call
    assert tokens == ["hello"]
    assert backend.requests == [([Message("user", "hi")], TOOLS), ([Message("user", "again")], [])]
    assert backend.options[1].tool_mode == "text"
    with pytest.raises(BackendError, match="scripted backend ran out of replies"):
        backend.complete([], tools=[], options=GenerationOptions())


def test_scripted_function_sees_the_conversation() -> None:
    def reply(messages: list[Message], tools: list[dict[str, Any]]) -> str:
        return f"{len(messages)} messages, {len(tools)} tools"

    backend = ScriptedBackend(reply, context_window=4096)
    out = backend.complete([Message("user", "a"), Message("user", "b")], tools=TOOLS, options=GenerationOptions())
    assert out.text == "2 messages, 1 tools"
    assert backend.context_window() == 4096
    backend.close()
    assert backend.closed


@pytest.mark.parametrize(
    ("kind", "cls", "url"),
    [
        ("openai", OpenAICompatBackend, "http://127.0.0.1:8080/v1"),
        ("llamacpp", LlamaCppBackend, "http://127.0.0.1:8080"),
        ("ollama", OllamaBackend, "http://127.0.0.1:11434"),
    ],
)
def test_get_backend_builds_the_configured_kind(kind: str, cls: type, url: str) -> None:
    config = PedroConfig.model_validate({"backend": {"kind": kind, "model": "m", "max_retries": 1}})
    client = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(500)))
    backend = get_backend(config, client=client)
    assert isinstance(backend, cls)
    assert backend.name == kind
    assert backend.base_url == url  # type: ignore[attr-defined]
    backend.close()
    assert not client.is_closed  # an injected client belongs to the caller
