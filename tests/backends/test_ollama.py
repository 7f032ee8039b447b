"""OllamaBackend against recorded /api/chat and /api/show payloads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from wire_server import Reply, WireServer, json_reply, ndjson, read_fixture

from pedro.backends import ollama_context
from pedro.backends.base import GenerationOptions, RetryPolicy
from pedro.backends.connection import Connection
from pedro.backends.http import CUT_NOTICE
from pedro.backends.ollama import OllamaBackend
from pedro.config import PedroConfig
from pedro.errors import BackendError
from pedro.messages import Message, ToolCall

ROOT = "http://127.0.0.1:11434"
TOOLS = [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}} for n in ("file", "search")]
HELLO = [Message(role="system", content="sys"), Message(role="user", content="run the tests")]


@pytest.fixture
def server() -> WireServer:
    """A fresh recording fake server."""
    return WireServer()


@pytest.fixture
def sleeps() -> list[float]:
    """Backoff sleeps recorded instead of slept."""
    return []


def make(server: WireServer, sleeps: list[float], max_retries: int = 3, **kwargs: Any) -> OllamaBackend:
    kwargs.setdefault("available_memory", lambda _url: None)  # a remote server: no memory budget to size by
    retry = RetryPolicy(max_retries=max_retries, sleep=sleeps.append)
    return OllamaBackend(Connection(ROOT, client=server.client(), retry=retry), "qwen3:8b", **kwargs)


def shown(server: WireServer, fixture: str = "ollama/show.json") -> WireServer:
    return server.on("POST", "/api/show", json_reply(read_fixture(fixture)))


def run(backend: OllamaBackend, messages: list[Message] = HELLO, **options: Any) -> Any:
    tokens: list[str] = []
    completion = backend.complete(messages, tools=TOOLS, options=GenerationOptions(**options), on_token=tokens.append)
    return completion, tokens


def test_request_shape(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", ndjson("ollama/chat_stream_text.ndjson"))
    run(make(server, sleeps, keep_alive="1h"), temperature=0.3, max_tokens=300)
    (body,) = server.bodies("/api/chat")
    assert body["model"] == "qwen3:8b"
    assert body["stream"] is True
    assert body["keep_alive"] == "1h"
    assert body["options"] == {"temperature": 0.3, "num_predict": 300, "num_ctx": 8192}
    assert [t["function"]["name"] for t in body["tools"]] == ["file", "search"]
    assert server.bodies("/api/show") == [{"model": "qwen3:8b"}]


def test_num_ctx_is_sized_once_from_the_model(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", ndjson("ollama/chat_stream_text.ndjson"))
    backend = make(server, sleeps, context_window=32768)
    run(backend)
    run(backend)
    assert [b["options"]["num_ctx"] for b in server.bodies("/api/chat")] == [32768, 32768]
    assert backend.context_window() == 32768
    assert len(server.bodies("/api/show")) == 1


def test_a_local_server_is_sized_by_free_memory(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", ndjson("ollama/chat_stream_text.ndjson"))
    seen: list[str] = []

    def free_memory(url: str) -> int:
        seen.append(url)
        return 64 * 1024**3

    backend = make(server, sleeps, available_memory=free_memory)
    run(backend)
    run(backend)
    expected = ollama_context.choose_num_ctx(
        json.loads(read_fixture("ollama/show.json"))["model_info"], 0, 64 * 1024**3
    )
    assert expected != ollama_context.DEFAULT_NUM_CTX
    assert [b["options"]["num_ctx"] for b in server.bodies("/api/chat")] == [expected, expected]
    assert seen == [ROOT]


def test_num_ctx_never_exceeds_the_model_length(server: WireServer, sleeps: list[float]) -> None:
    shown(server, "ollama/show_small_ctx.json")
    assert make(server, sleeps, context_window=65536).context_window() == 4096


def test_num_ctx_capped_by_the_model_length_from_show_json(server: WireServer, sleeps: list[float]) -> None:
    shown(server)
    assert make(server, sleeps, context_window=100000).context_window() == 40960


def test_stream_keeps_thinking_apart_and_reports_usage(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", ndjson("ollama/chat_stream_text.ndjson"))
    completion, tokens = run(make(server, sleeps))
    assert completion.text == "Running the tests."
    assert tokens == ["Running ", "the tests."]
    assert completion.reasoning == "The user wants tests run. Use the test tool."
    assert completion.usage.prompt_tokens == 26
    assert completion.usage.completion_tokens == 282
    assert completion.timings["eval_duration"] == 4535599000
    assert completion.timings["prompt_eval_count"] == 26
    assert completion.finish_reason == "stop"


def test_stream_tool_calls_have_object_arguments(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", ndjson("ollama/chat_stream_tool_call.ndjson"))
    completion, _ = run(make(server, sleeps))
    assert [(c.name, c.arguments) for c in completion.tool_calls] == [
        ("file", {"action": "read", "path": "README.md"}),
        ("search", {"action": "grep", "pattern": "TODO"}),
    ]
    assert completion.raw["message"]["tool_calls"][0]["function"]["arguments"] == {
        "action": "read",
        "path": "README.md",
    }


def test_non_streaming(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", json_reply(read_fixture("ollama/chat_no_stream.json")))
    completion, _ = run(make(server, sleeps), stream=False)
    assert server.bodies("/api/chat")[0]["stream"] is False
    assert completion.tool_calls == (ToolCall(name="bash", arguments={"command": "pytest -q"}, id="call_0"),)
    assert completion.usage.prompt_tokens == 122


def test_likeliest_tokens_are_asked_at_the_top_level_and_read_from_each_chunk(
    server: WireServer, sleeps: list[float]
) -> None:
    """The two logprobs fixtures are written to Ollama's api.ChatResponse (0.12.11 and later: `logprobs` beside
    `message`, each entry `token`, `logprob`, `bytes`, `top_logprobs`), not recorded from a server."""
    shown(server).on("POST", "/api/chat", ndjson("ollama/chat_stream_logprobs.ndjson"))
    completion, _ = run(make(server, sleeps), temperature=0.0, likeliest=3)
    (body,) = server.bodies("/api/chat")
    assert (body["logprobs"], body["top_logprobs"]) == (True, 3)
    assert "logprobs" not in body["options"]
    assert completion.text == "    return words[1]"
    assert [token.text for token in completion.tokens] == ["    return", " words", "[", "1", "]"]
    fourth = completion.tokens[3]
    assert fourth.logprob == -0.6931 and fourth.likeliest[:2] == (("1", -0.6931), ("0", -0.9163))


def test_likeliest_tokens_of_a_whole_reply(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", json_reply(read_fixture("ollama/chat_logprobs.json")))
    completion, _ = run(make(server, sleeps), stream=False, likeliest=3)
    assert "".join(token.text for token in completion.tokens) == completion.text == "    return words[1]"
    assert completion.tokens[2].likeliest[1] == (".", -1.4218)


def test_no_likeliest_tokens_are_asked_unless_wanted(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", ndjson("ollama/chat_stream_text.ndjson"))
    completion, _ = run(make(server, sleeps))
    (body,) = server.bodies("/api/chat")
    assert "logprobs" not in body and "top_logprobs" not in body
    assert completion.tokens == ()


def test_message_translation(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", ndjson("ollama/chat_stream_text.ndjson"))
    history = [
        *HELLO,
        Message(role="assistant", content="", tool_calls=(ToolCall("file", {"action": "read", "path": "a"}, "c1"),)),
        Message(role="tool", content="1: a", tool_call_id="c1", name="file"),
    ]
    run(make(server, sleeps), history)
    messages = server.bodies("/api/chat")[0]["messages"]
    assert messages[2] == {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"function": {"name": "file", "arguments": {"action": "read", "path": "a"}}}],
    }
    assert messages[3] == {"role": "tool", "content": "1: a", "tool_name": "file"}


def test_unknown_model_names_ollama_pull(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", "/api/show", json_reply(read_fixture("ollama/error_not_found.json"), status=404))
    with pytest.raises(BackendError, match=r"ollama pull nosuch:7b"):
        run(make(server, sleeps))
    assert sleeps == []


def test_unknown_model_on_chat_names_ollama_pull(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", json_reply(read_fixture("ollama/error_not_found.json"), status=404))
    with pytest.raises(BackendError, match=r"has no model 'nosuch:7b'. Run `ollama pull nosuch:7b`"):
        run(make(server, sleeps))


def test_model_without_tools_switches_to_text_mode(server: WireServer, sleeps: list[float]) -> None:
    # An older server whose /api/show lists no capabilities: only the refusal tells.
    server.on("POST", "/api/show", json_reply({"model_info": {"general.architecture": "gemma2"}}))
    rejection = json_reply(read_fixture("ollama/error_no_tools.json"), status=400)
    server.on("POST", "/api/chat", rejection, ndjson("ollama/chat_stream_text.ndjson"))
    backend = make(server, sleeps)
    completion, _ = run(backend)
    assert completion.text == "Running the tests."
    assert "does not support tools" in completion.notices[0]
    assert "text mode" in completion.notices[0]
    run(backend)
    assert ["tools" in b for b in server.bodies("/api/chat")] == [True, False, False]


def test_capabilities_without_tools_avoid_the_failed_request(server: WireServer, sleeps: list[float]) -> None:
    shown(server, "ollama/show_small_ctx.json").on("POST", "/api/chat", ndjson("ollama/chat_stream_text.ndjson"))
    backend = make(server, sleeps)
    completion, _ = run(backend)
    assert "cannot call tools" in completion.notices[0]
    second, _ = run(backend)
    assert second.notices == ()
    assert ["tools" in b for b in server.bodies("/api/chat")] == [False, False]


def test_cut_stream_is_retried(server: WireServer, sleeps: list[float]) -> None:
    cut = Reply(body=read_fixture("ollama/chat_stream_cut.ndjson"), cut=True)
    shown(server).on("POST", "/api/chat", cut, ndjson("ollama/chat_stream_text.ndjson"))
    completion, tokens = run(make(server, sleeps))
    assert completion.text == "Running the tests."
    assert tokens[0] == "Half a rep"
    assert CUT_NOTICE in completion.notices


def test_stream_without_done_is_reported(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", ndjson("ollama/chat_stream_cut.ndjson"))
    with pytest.raises(BackendError, match=r"ended before the server said it was done"):
        run(make(server, sleeps, max_retries=1))
    assert len(sleeps) == 1


def test_malformed_ndjson(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", Reply(body='{"message": {"content": "a"}, "done": false}\n{not json}\n'))
    with pytest.raises(BackendError, match=r"11434/api/chat sent malformed stream line"):
        run(make(server, sleeps))


def test_error_line_in_stream(server: WireServer, sleeps: list[float]) -> None:
    shown(server).on("POST", "/api/chat", Reply(body='{"error": "an error was encountered while running the model"}\n'))
    with pytest.raises(BackendError, match="while running the model"):
        run(make(server, sleeps))


def test_ollama_host_is_honoured(server: WireServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "127.0.0.1:11500")
    monkeypatch.setattr(ollama_context, "local_available_memory", lambda _url: None)
    config = PedroConfig.model_validate({"backend": {"kind": "ollama", "model": "qwen3:8b", "keep_alive": "5m"}})
    server.on("POST", "/api/show", json_reply(read_fixture("ollama/show.json")))
    backend = OllamaBackend.from_config(config, client=server.client())
    assert backend.context_window() == 8192
    assert str(server.requests[0].url) == "http://127.0.0.1:11500/api/show"


def test_the_models_size_comes_from_show_with_the_window(server: WireServer, sleeps: list[float]) -> None:
    shown(server)
    backend = make(server, sleeps)
    assert backend.parameter_count() == 8190735360  # the recorded qwen3:8b
    backend.context_window()
    assert len(server.bodies("/api/show")) == 1  # asked once for both
