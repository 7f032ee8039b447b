"""Native structured payloads (§7): OpenAI and Ollama messages, legacy function_call, stream chunk lists."""

from __future__ import annotations

import json
from typing import Any

from toolcall_registry import TOOLS

from pedro.toolcalls import extract

LS = {"command": "ls"}


def _calls(payload: Any, **kw: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(c.name, c.arguments) for c in extract(payload, TOOLS, **kw).calls]


def _openai_call(name: str, arguments: Any, call_id: str = "call_a1") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def test_openai_message_with_string_arguments_keeps_native_id() -> None:
    message = {"role": "assistant", "content": None, "tool_calls": [_openai_call("search", '{"pattern": "x"}')]}
    result = extract(message, TOOLS)
    assert [(c.name, c.arguments, c.id) for c in result.calls] == [("search", {"pattern": "x"}, "call_a1")]
    assert result.text == ""
    assert result.dialect == "native"


def test_openai_arguments_drift_object_empty_null_double_encoded_python_repr() -> None:
    variants: list[tuple[Any, dict[str, Any]]] = [
        ({"command": "ls"}, LS),
        ("", {}),
        (None, {}),
        (json.dumps(json.dumps({"command": "ls"})), LS),
        ("{'command': 'ls', 'timeout': None}", {"command": "ls", "timeout": None}),
        ('{"command": "ls"}}', LS),
    ]
    for raw, expected in variants:
        message = {"role": "assistant", "tool_calls": [_openai_call("bash", raw)]}
        assert _calls(message) == [("bash", expected)], raw


def test_openai_missing_arguments_key_and_missing_id_get_defaults() -> None:
    message = {"role": "assistant", "tool_calls": [{"function": {"name": "get_current_time"}}]}
    result = extract(message, TOOLS)
    assert [(c.name, c.arguments, c.id) for c in result.calls] == [("get_current_time", {}, "call_0")]


def test_openai_single_object_tool_calls_is_wrapped() -> None:
    assert _calls({"role": "assistant", "tool_calls": _openai_call("bash", '{"command": "ls"}')}) == [("bash", LS)]


def test_openai_invalid_arguments_reported_and_sibling_kept() -> None:
    message = {
        "role": "assistant",
        "tool_calls": [
            _openai_call("bash", '{"command": ls}', "c1"),
            _openai_call("git", '{"action": "status"}', "c2"),
        ],
    }
    result = extract(message, TOOLS)
    assert [(c.name, c.id) for c in result.calls] == [("git", "c2")]
    assert [p.kind for p in result.problems] == ["invalid_json"]
    assert '{"name": "bash"' in result.problems[0].message  # the example is in the native dialect


def test_openai_truncated_arguments_with_length_runs_nothing() -> None:
    message = {
        "role": "assistant",
        "tool_calls": [
            _openai_call("git", '{"action": "status"}', "c1"),
            _openai_call("bash", '{"command": "rm -rf b'),
        ],
    }
    result = extract(message, TOOLS, finish_reason="length")
    assert result.calls == ()
    assert [p.kind for p in result.problems] == ["truncated"]


def test_openai_functions_prefix_and_content_parts() -> None:
    message = {
        "role": "assistant",
        "content": [{"type": "text", "text": "Listing "}, {"type": "text", "text": "files."}],
        "tool_calls": [_openai_call("functions.bash", '{"command": "ls"}')],
    }
    result = extract(message, TOOLS)
    assert _calls(message) == [("bash", LS)]
    assert result.text == "Listing files."


def test_legacy_function_call() -> None:
    message = {
        "role": "assistant",
        "content": None,
        "function_call": {"name": "bash", "arguments": '{"command": "ls"}'},
    }
    assert _calls(message) == [("bash", LS)]


def test_native_calls_win_over_markup_left_in_content() -> None:
    content = 'Sure.<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>'
    message = {"role": "assistant", "content": content, "tool_calls": [_openai_call("bash", '{"command": "ls"}')]}
    result = extract(message, TOOLS)
    assert _calls(message) == [("bash", LS)]
    assert result.text == "Sure."


def test_empty_tool_calls_falls_back_to_content_markup() -> None:
    message = {
        "role": "assistant",
        "content": '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>',
        "tool_calls": [],
    }
    result = extract(message, TOOLS)
    assert _calls(message) == [("bash", LS)]
    assert result.dialect == "hermes"


def test_reasoning_fields_are_never_parsed_for_calls() -> None:
    draft = '<tool_call>{"name": "bash", "arguments": {"command": "rm -rf /"}}</tool_call>'
    for key in ("reasoning_content", "reasoning", "thinking"):
        result = extract({"role": "assistant", "content": "Done thinking.", key: draft}, TOOLS)
        assert result.calls == ()
        assert result.reasoning == draft
        assert result.text == "Done thinking."


def test_ollama_message_with_object_arguments_and_thinking() -> None:
    reply = {
        "model": "qwen3",
        "message": {
            "role": "assistant",
            "content": "",
            "thinking": "weather needed",
            "tool_calls": [
                {"id": "call_x1", "function": {"index": 0, "name": "get_weather", "arguments": {"location": "Toronto"}}}
            ],
        },
        "done_reason": "stop",
    }
    result = extract(reply, TOOLS)
    assert [(c.name, c.arguments, c.id) for c in result.calls] == [("get_weather", {"location": "Toronto"}, "call_x1")]
    assert result.reasoning == "weather needed"


def test_ollama_content_think_tags_are_stripped() -> None:
    result = extract({"role": "assistant", "content": "<think>hmm</think>The answer is 4."}, TOOLS)
    assert (result.text, result.reasoning) == ("The answer is 4.", "hmm")


def test_full_openai_response_with_finish_reason_length() -> None:
    response = {
        "choices": [
            {
                "index": 0,
                "finish_reason": "length",
                "message": {"role": "assistant", "content": '<tool_call>{"name": "bash", "arguments": {"comm'},
            }
        ]
    }
    result = extract(response, TOOLS)
    assert result.calls == ()
    assert [p.kind for p in result.problems] == ["truncated"]


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def test_stream_chunks_spec_shape() -> None:
    chunks = [
        _chunk({"role": "assistant", "content": "Let me look."}),
        _chunk(
            {
                "tool_calls": [
                    {"index": 0, "id": "call_1", "type": "function", "function": {"name": "search", "arguments": ""}}
                ]
            }
        ),
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"pat'}}]}),
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": 'tern": "x"}'}}]}),
        _chunk({"tool_calls": [{"index": 1, "id": "call_2", "function": {"name": "bash", "arguments": '{"command"'}}]}),
        _chunk({"tool_calls": [{"index": 1, "function": {"arguments": ': "ls"}'}}]}),
        _chunk({}, "tool_calls"),
        {"id": "chatcmpl-1", "choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 9}},
    ]
    result = extract(chunks, TOOLS)
    assert [(c.name, c.arguments, c.id) for c in result.calls] == [
        ("search", {"pattern": "x"}, "call_1"),
        ("bash", LS, "call_2"),
    ]
    assert result.text == "Let me look."


def test_stream_chunks_name_repeated_in_every_chunk() -> None:
    chunks = [
        _chunk({"tool_calls": [{"index": 0, "function": {"name": "bash", "arguments": part}}]})
        for part in ('{"comm', 'and": ', '"ls"}')
    ]
    assert _calls(chunks) == [("bash", LS)]


def test_stream_chunks_name_split_across_chunks() -> None:
    chunks = [
        _chunk({"tool_calls": [{"index": 0, "function": {"name": "code_", "arguments": ""}}]}),
        _chunk({"tool_calls": [{"index": 0, "function": {"name": "edit", "arguments": '{"path": "a.go"}'}}]}),
    ]
    assert _calls(chunks) == [("code_edit", {"path": "a.go"})]


def test_stream_chunks_arguments_before_name() -> None:
    chunks = [
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"command": '}}]}),
        _chunk({"tool_calls": [{"index": 0, "id": "c9", "function": {"name": "bash", "arguments": '"ls"}'}}]}),
    ]
    assert _calls(chunks) == [("bash", LS)]


def test_stream_chunks_missing_index_keyed_by_id() -> None:
    chunks = [
        _chunk({"tool_calls": [{"id": "a", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}]}),
        _chunk({"tool_calls": [{"id": "b", "function": {"name": "git", "arguments": '{"action": "status"}'}}]}),
    ]
    assert _calls(chunks) == [("bash", LS), ("git", {"action": "status"})]


def test_stream_chunks_whole_calls_without_index_or_id_stay_separate() -> None:
    chunks = [
        _chunk({"tool_calls": [{"function": {"name": "bash", "arguments": '{"command": "ls"}'}}]}),
        _chunk({"tool_calls": [{"function": {"name": "git", "arguments": {"action": "status"}}}]}),
    ]
    assert _calls(chunks) == [("bash", LS), ("git", {"action": "status"})]


def test_stream_chunks_parameterless_tool_and_object_arguments() -> None:
    chunks = [
        _chunk({"tool_calls": [{"index": 0, "id": "t", "function": {"name": "get_current_time", "arguments": ""}}]}),
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": ""}}]}),
        _chunk(
            {
                "tool_calls": [
                    {"index": 1, "id": "w", "function": {"name": "get_weather", "arguments": {"location": "Oslo"}}}
                ]
            }
        ),
    ]
    assert _calls(chunks) == [("get_current_time", {}), ("get_weather", {"location": "Oslo"})]


def test_stream_chunks_markup_in_content_is_parsed_as_text() -> None:
    parts = ["<tool_", 'call>{"name": "bash", ', '"arguments": {"command": "ls"}}</tool', "_call>"]
    chunks = [_chunk({"content": p}) for p in parts] + [_chunk({}, "stop")]
    result = extract(chunks, TOOLS)
    assert _calls(chunks) == [("bash", LS)]
    assert result.text == ""


def test_stream_chunks_length_with_incomplete_arguments_runs_nothing() -> None:
    chunks = [
        _chunk(
            {
                "tool_calls": [
                    {"index": 0, "id": "c", "function": {"name": "bash", "arguments": '{"command": "rm -rf b'}}
                ]
            }
        ),
        _chunk({}, "length"),
    ]
    result = extract(chunks, TOOLS)
    assert result.calls == ()
    assert [p.kind for p in result.problems] == ["truncated"]


def test_stream_chunks_reasoning_deltas() -> None:
    chunks = [_chunk({"reasoning_content": "plan "}), _chunk({"reasoning_content": "more"}), _chunk({"content": "Hi"})]
    result = extract(chunks, TOOLS)
    assert (result.text, result.reasoning) == ("Hi", "plan more")


def test_ollama_ndjson_chunks() -> None:
    chunks = [
        {"message": {"role": "assistant", "content": "", "thinking": "hm"}, "done": False},
        {
            "message": {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"function": {"name": "bash", "arguments": {"command": "ls"}}}],
            },
            "done": False,
        },
        {"message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop"},
    ]
    assert _calls(chunks) == [("bash", LS)]
