"""OpenAICompatBackend against recorded /v1/chat/completions payloads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from wire_server import Reply, WireServer, json_reply, read_fixture, sse

from pedro.backends.base import GenerationOptions, RetryPolicy
from pedro.backends.connection import Connection
from pedro.backends.http import CUT_NOTICE
from pedro.backends.openai_compat import ChatSettings, OpenAICompatBackend
from pedro.backends.openai_wire import ToolCallAccumulator, _repair_name
from pedro.config import PedroConfig
from pedro.errors import BackendError
from pedro.messages import Message, ToolCall

BASE = "http://127.0.0.1:8080/v1"
CHAT = "/v1/chat/completions"


@pytest.fixture
def server() -> WireServer:
    """A fresh recording fake server."""
    return WireServer()


@pytest.fixture
def sleeps() -> list[float]:
    """Backoff sleeps recorded instead of slept."""
    return []


def tool(name: str) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": name, "description": f"the {name} tool", "parameters": {"type": "object"}},
    }


TOOLS = [tool(n) for n in ("file", "code_edit", "search", "navigate", "git", "bash", "test")]
HELLO = [Message(role="system", content="You are pedro."), Message(role="user", content="Read README.md")]


def make(
    server: WireServer, sleeps: list[float] | None = None, max_retries: int = 3, **kwargs: Any
) -> OpenAICompatBackend:
    record = sleeps if sleeps is not None else []
    retry = RetryPolicy(max_retries=max_retries, sleep=record.append)
    return OpenAICompatBackend(Connection(BASE, client=server.client(), retry=retry), "qwen", **kwargs)


def run(backend: OpenAICompatBackend, **options: Any) -> Any:
    tokens: list[str] = []
    completion = backend.complete(HELLO, tools=TOOLS, options=GenerationOptions(**options), on_token=tokens.append)
    return completion, tokens


def test_streaming_request_shape(server: WireServer) -> None:
    server.on("POST", CHAT, sse("openai/stream_text.sse"))
    backend = make(server, settings=ChatSettings(tool_choice="auto", parallel_tool_calls=False))
    run(backend, temperature=0.1, max_tokens=512)
    (body,) = server.bodies(CHAT)
    assert body["model"] == "qwen"
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["temperature"] == 0.1
    assert body["max_tokens"] == 512
    assert [t["function"]["name"] for t in body["tools"]] == [t["function"]["name"] for t in TOOLS]
    assert body["tool_choice"] == "auto"
    assert body["parallel_tool_calls"] is False
    assert body["messages"] == [
        {"role": "system", "content": "You are pedro."},
        {"role": "user", "content": "Read README.md"},
    ]
    assert "cache_prompt" not in body  # llama.cpp extras stay out of the generic wire


def test_seed_and_stop_go_on_the_wire_only_when_set(server: WireServer) -> None:
    server.on("POST", CHAT, sse("openai/stream_text.sse"))
    run(make(server), seed=3, stop=("\n```\n\n",))
    run(make(server))
    with_them, without = server.bodies(CHAT)
    assert (with_them["seed"], with_them["stop"]) == (3, ["\n```\n\n"])
    assert "seed" not in without and "stop" not in without


def test_streams_text_and_usage_only_chunk(server: WireServer) -> None:
    server.on("POST", CHAT, sse("openai/stream_text.sse"))
    completion, tokens = run(make(server))
    assert tokens == ["I will ", "read the file."]
    assert completion.text == "I will read the file."
    assert completion.finish_reason == "stop"
    assert completion.usage.prompt_tokens == 412
    assert completion.usage.completion_tokens == 23
    assert completion.usage.cached_tokens == 384
    assert completion.tool_calls == ()


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("stream_tool_fragments.sse", [("file", {"action": "read", "path": "README.md"}, "call_a1")]),
        (
            "stream_two_calls.sse",
            [
                ("search", {"action": "grep", "pattern": "TODO"}, "call_1"),
                ("bash", {"command": "ls -la"}, "call_2"),
            ],
        ),
        ("stream_args_before_name.sse", [("navigate", {"action": "list_dir", "path": "."}, "call_late")]),
        ("stream_name_repeated.sse", [("code_edit", {"path": "a.py", "old": "x = 1", "new": "x = 2"}, "call_r")]),
        (
            "stream_name_split.sse",
            [("code_edit", {"path": "b.py", "action": "delete_lines", "start_line": 3, "end_line": 4}, "call_s")],
        ),
        (
            "stream_missing_index.sse",
            [
                ("file", {"action": "read", "path": "x.py"}, "call_x"),
                ("file", {"action": "read", "path": "y.py"}, "call_y"),
            ],
        ),
        ("stream_single_no_index.sse", [("git", {"action": "status"}, None)]),
        ("stream_args_object.sse", [("test", {"framework": "pytest", "path": "tests/"}, "call_o")]),
        ("stream_final_whole_call.sse", [("bash", {"command": "make test"}, "call_w")]),
    ],
)
def test_stream_assembles_tool_calls(
    server: WireServer, fixture: str, expected: list[tuple[str, dict[str, Any], str | None]]
) -> None:
    server.on("POST", CHAT, sse(f"openai/{fixture}"))
    completion, tokens = run(make(server))
    assert [(c.name, c.arguments, c.id) for c in completion.tool_calls] == expected
    assert completion.finish_reason == "tool_calls"
    assert tokens == []
    wire_calls = completion.raw["message"]["tool_calls"]
    assert [c["function"]["name"] for c in wire_calls] == [name for name, _, _ in expected]


def test_reasoning_is_kept_apart_from_text(server: WireServer) -> None:
    server.on("POST", CHAT, sse("openai/stream_reasoning.sse"))
    completion, tokens = run(make(server))
    assert completion.text == "Listing the tree."
    assert completion.reasoning == "The user wants a listing. Use navigate."
    assert tokens == ["Listing the tree."]


def test_unreadable_arguments_stay_in_raw_message(server: WireServer) -> None:
    body = (
        'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function",'
        '"function":{"name":"file","arguments":"{\\"path\\": \\"a"}}]},"finish_reason":"length"}]}\n\n'
        "data: [DONE]\n\n"
    )
    server.on("POST", CHAT, Reply(body=body))
    completion, _ = run(make(server))
    assert completion.tool_calls == ()
    assert completion.finish_reason == "length"
    assert completion.raw["message"]["tool_calls"][0]["function"] == {"name": "file", "arguments": '{"path": "a'}


def test_non_streaming_reply(server: WireServer) -> None:
    server.on("POST", CHAT, json_reply(read_fixture("openai/chat_tool_call.json")))
    completion, tokens = run(make(server), stream=False)
    (body,) = server.bodies(CHAT)
    assert body["stream"] is False
    assert "stream_options" not in body
    assert completion.text == "Let me look."
    assert tokens == ["Let me look."]
    assert completion.reasoning == "Need the file first."
    assert [(c.name, c.arguments, c.id) for c in completion.tool_calls] == [
        ("file", {"action": "read", "path": "README.md"}, "call_n1"),
        ("git", {"action": "status"}, "call_n2"),
    ]
    assert completion.usage.prompt_tokens == 300
    assert completion.usage.completion_tokens == 40
    assert completion.raw["response"]["id"] == "chatcmpl-abc"


def test_message_translation_of_tool_history(server: WireServer) -> None:
    server.on("POST", CHAT, sse("openai/stream_text.sse"))
    history = [
        *HELLO,
        Message(
            role="assistant",
            content="",
            tool_calls=(ToolCall(name="file", arguments={"action": "read", "path": "README.md"}, id="call_a1"),),
        ),
        Message(role="tool", content="1: # sample", tool_call_id="call_a1", name="file"),
    ]
    make(server).complete(history, tools=TOOLS, options=GenerationOptions())
    messages = server.bodies(CHAT)[0]["messages"]
    assistant, result = messages[2], messages[3]
    assert assistant["tool_calls"] == [
        {
            "type": "function",
            "id": "call_a1",
            "function": {"name": "file", "arguments": '{"action": "read", "path": "README.md"}'},
        }
    ]
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"action": "read", "path": "README.md"}
    assert result == {"role": "tool", "content": "1: # sample", "tool_call_id": "call_a1", "name": "file"}


def test_text_mode_sends_no_tools(server: WireServer) -> None:
    server.on("POST", CHAT, sse("openai/stream_text.sse"))
    run(make(server), tool_mode="text")
    assert "tools" not in server.bodies(CHAT)[0]


def test_rejected_tools_switch_to_text_mode_for_the_rest_of_the_job(server: WireServer) -> None:
    rejection = json_reply({"error": {"code": 500, "message": "tools param requires --jinja flag"}}, status=500)
    server.on("POST", CHAT, rejection, sse("openai/stream_text.sse"))
    backend = make(server)
    completion, _ = run(backend)
    assert completion.text == "I will read the file."
    assert len(completion.notices) == 1
    assert "text mode" in completion.notices[0]
    assert "--jinja" in completion.notices[0]
    again, _ = run(backend)
    bodies = server.bodies(CHAT)
    assert ["tools" in b for b in bodies] == [True, False, False]
    assert again.notices == ()
    assert backend.text_mode


def test_rejected_tools_in_native_mode_is_an_error(server: WireServer) -> None:
    server.on("POST", CHAT, json_reply({"error": {"message": "tools param requires --jinja flag"}}, status=400))
    with pytest.raises(BackendError, match="--tool-mode text"):
        run(make(server), tool_mode="native")


def test_bearer_token_from_the_configured_environment_variable(
    server: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PEDRO_TEST_KEY", "sk-local-123")
    config = PedroConfig.model_validate(
        {"backend": {"kind": "openai", "model": "qwen", "api_key_env": "PEDRO_TEST_KEY"}}
    )
    server.on("POST", CHAT, sse("openai/stream_text.sse"))
    backend = OpenAICompatBackend.from_config(config, client=server.client())
    backend.complete(HELLO, tools=[], options=GenerationOptions())
    assert server.requests[0].headers["authorization"] == "Bearer sk-local-123"
    assert server.requests[0].url == "http://127.0.0.1:8080/v1/chat/completions"
    assert "tools" not in server.bodies(CHAT)[0]


def test_missing_api_key_variable_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PEDRO_ABSENT_KEY", raising=False)
    config = PedroConfig.model_validate({"backend": {"api_key_env": "PEDRO_ABSENT_KEY"}})
    with pytest.raises(BackendError, match="export PEDRO_ABSENT_KEY"):
        OpenAICompatBackend.from_config(config)


def test_cut_stream_is_retried_without_duplicating_text(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", CHAT, Reply(body=read_fixture("openai/stream_cut.sse"), cut=True), sse("openai/stream_text.sse"))
    completion, tokens = run(make(server, sleeps))
    assert completion.text == "I will read the file."
    assert tokens == ["Partial ans", "I will ", "read the file."]
    assert CUT_NOTICE in completion.notices
    assert len(sleeps) == 1


def test_stream_without_end_marker_is_retried_then_reported(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", CHAT, sse("openai/stream_cut.sse"))
    with pytest.raises(BackendError, match=r"ended before the server said it was done.*gave up after 3 attempts"):
        run(make(server, sleeps, max_retries=2))
    assert len(server.requests) == 3
    assert sleeps == [0.5, 1.0]


def test_malformed_stream_is_a_clear_error(server: WireServer, sleeps: list[float]) -> None:
    server.on("POST", CHAT, sse("openai/stream_malformed.sse"))
    with pytest.raises(BackendError, match=r"127\.0\.0\.1:8080/v1/chat/completions sent malformed stream event"):
        run(make(server, sleeps))
    assert len(server.requests) == 1


def test_non_json_reply_is_a_clear_error(server: WireServer) -> None:
    server.on("POST", CHAT, Reply(body="<html>nginx</html>"), Reply(body="nonsense"))
    with pytest.raises(BackendError, match=r"answered 200 with an HTML page .*instead of a JSON reply.*base_url"):
        run(make(server), stream=False)
    with pytest.raises(BackendError, match="malformed reply"):
        run(make(server), stream=False)


def test_in_stream_error_event_is_reported(server: WireServer) -> None:
    body = 'error: {"code":500,"message":"context size exceeded","type":"server_error"}\n\n'
    server.on("POST", CHAT, Reply(body=body))
    with pytest.raises(BackendError, match="context size exceeded"):
        run(make(server))


def test_a_reply_the_server_cannot_read_in_its_chat_format_is_the_models_text_not_an_error(server: WireServer) -> None:
    # llama-server streams the model's whole reply, then fails to parse it as the template's format (peg-native for
    # SmolLM2's): the text is what the model wrote, and pedro reads calls from text itself.
    chunk = '{"choices":[{"index":0,"delta":{"content":%s},"finish_reason":null}],"object":"chat.completion.chunk"}'
    body = "".join(f"data: {chunk % json.dumps(part)}\n\n" for part in ("```go\nfunc F(s string) bool {", "\n}\n"))
    error = "The model produced output that does not match the expected peg-native format"
    failed = "error: " + json.dumps({"code": 500, "message": error, "type": "server_error"}) + "\n\n"
    body += failed
    server.on("POST", CHAT, Reply(body=body))
    completion, tokens = run(make(server))
    assert completion.text == "```go\nfunc F(s string) bool {\n}\n" and "".join(tokens) == completion.text
    assert completion.finish_reason == "stop"
    assert completion.notices[-1].endswith(
        f"could not read the model's reply in its chat format ({error}); pedro read the text itself"
    )
    # Before any text the same words are the server's error.
    bare = WireServer()
    bare.on("POST", CHAT, Reply(body=failed))
    with pytest.raises(BackendError, match="peg-native"):
        run(make(bare))


def test_missing_v1_gets_a_hint(server: WireServer) -> None:
    server.on("POST", "/chat/completions", json_reply({"detail": "Not Found"}, status=404))
    backend = OpenAICompatBackend(Connection("http://127.0.0.1:8080", client=server.client()), "qwen")
    with pytest.raises(BackendError, match="ends in /v1"):
        backend.complete(HELLO, tools=TOOLS, options=GenerationOptions())


def test_accumulator_handles_repeated_and_split_names_without_known_tools() -> None:
    repeated = ToolCallAccumulator()
    for fragment in ('{"a": ', "1}"):
        repeated.add({"index": 0, "id": "c", "function": {"name": "code_edit", "arguments": fragment}})
    split = ToolCallAccumulator()
    split.add({"index": 0, "function": {"name": "code_"}})
    split.add({"index": 0, "function": {"name": "edit", "arguments": "{}"}})
    assert [c.name for c in repeated.finish()[0]] == ["code_edit"]
    assert [c.name for c in split.finish()[0]] == ["code_edit"]


def test_accumulator_repairs_a_doubled_name_from_known_tools() -> None:
    doubled = ToolCallAccumulator()
    doubled.add({"index": 0, "function": {"name": "file", "arguments": "{}"}})
    doubled.add({"index": 0, "function": {"name": "file"}})
    doubled.add({"index": 0, "function": {"name": "file"}})
    # "file" + "file" is a repeat, not a split: the name stays "file" even without known tools.
    assert [c.name for c in doubled.finish()[0]] == ["file"]
    assert _repair_name("filefile", ["file", "bash"]) == "file"
    assert _repair_name("unknown", ["file"]) == "unknown"
