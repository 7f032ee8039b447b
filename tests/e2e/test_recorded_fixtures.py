"""The recorded llama-server payloads are complete and well-formed, so backend tests can rely on them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from record_fixtures import CHAT_REQUESTS, DEFAULT_OUT

MANIFEST: dict[str, Any] = json.loads((DEFAULT_OUT / "manifest.json").read_text(encoding="utf-8"))


def read_sse(path: Path) -> list[str]:
    """The data payloads of an SSE body, in order."""
    events = path.read_bytes().decode("utf-8").split("\n\n")
    return [event.removeprefix("data: ") for event in events if event.strip()]


@pytest.mark.parametrize("name", sorted(MANIFEST["replies"]))
def test_every_recorded_reply_exists_with_its_status(name: str) -> None:
    reply = MANIFEST["replies"][name]
    path = DEFAULT_OUT / reply["file"]
    assert path.is_file()
    if path.suffix == ".json":
        json.loads(path.read_text(encoding="utf-8"))
    expected = {"health_loading": 503, "chat_tools_no_jinja": 500}.get(name, 200)
    assert reply["status"] == expected


@pytest.mark.parametrize("name", ["chat", "chat_tools"])
def test_recorded_json_replies_have_the_openai_shape(name: str) -> None:
    reply = json.loads((DEFAULT_OUT / f"{name}.json").read_text(encoding="utf-8"))
    assert isinstance(reply["choices"][0]["message"]["content"], str)
    assert reply["usage"]["completion_tokens"] == reply["timings"]["predicted_n"]
    assert json.loads((DEFAULT_OUT / f"{name}.request.json").read_text()) == CHAT_REQUESTS[name]


@pytest.mark.parametrize("name", ["chat_stream", "chat_tools_stream"])
def test_recorded_streams_end_in_done_after_a_usage_chunk(name: str) -> None:
    data = read_sse(DEFAULT_OUT / f"{name}.sse")
    assert data[-1] == "[DONE]"
    chunks = [json.loads(item) for item in data[:-1]]
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    assert chunks[-1]["choices"] == []
    assert chunks[-1]["usage"]["completion_tokens"] > 0
    # Greedy decoding with the same prompt: the stream spells out the same text as the non-streamed reply.
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    plain = json.loads((DEFAULT_OUT / "chat.json").read_text(encoding="utf-8"))
    assert text == plain["choices"][0]["message"]["content"]


def test_recorded_props_say_the_template_has_no_tool_support() -> None:
    props = json.loads((DEFAULT_OUT / "props.json").read_text(encoding="utf-8"))
    assert props["chat_template_caps"]["supports_tools"] is False
    assert props["default_generation_settings"]["n_ctx"] == 4096
    loading = json.loads((DEFAULT_OUT / "health_loading.json").read_text(encoding="utf-8"))
    assert loading["error"]["code"] == 503


def test_recorded_no_jinja_refusal_names_the_flag() -> None:
    error = json.loads((DEFAULT_OUT / "chat_tools_no_jinja.json").read_text(encoding="utf-8"))["error"]
    assert error["code"] == 500
    assert "--jinja" in error["message"]
