"""Codex's whole tool surface through pedro serve: a request as Codex sends it (namespace tools of its MCP servers,
the freeform apply_patch, web_search, image_generation, and its replayed history), calls mapped back to their
namespaces, the usage and error fields Codex reads, /v1/chat/completions passed through, and a busy port."""

from __future__ import annotations

import json
import logging
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from serve_util import serving, stop_listening

REQUEST = Path(__file__).parent.parent / "fixtures" / "codex" / "responses_request.json"
# The pattern Codex reads a rate limit's delay with (codex-rs/codex-api/src/sse/responses.rs, rate_limit_regex).
CODEX_RETRY = re.compile(r"(?i)try again in\s*(\d+(?:\.\d+)?)\s*(s|ms|seconds?)")


@pytest.fixture
def serve() -> Iterator[Any]:
    with serving() as start:
        yield lambda upstream, **options: f"http://127.0.0.1:{start(upstream, **options)}/v1"


@pytest.fixture
def sdk() -> Iterator[Any]:
    made: list[openai.OpenAI] = []

    def client(url: str) -> openai.OpenAI:
        made.append(openai.OpenAI(base_url=url, api_key="unused", max_retries=0))
        return made[-1]

    yield client
    for client in made:
        client.close()


def codex_request(**changes: Any) -> dict[str, Any]:
    request: dict[str, Any] = json.loads(REQUEST.read_text())
    return {**request, **changes}


def sse_events(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


class RawUpstream:
    """A chat server that answers every request with exactly the bytes given."""

    def __init__(self, payload: bytes) -> None:
        self.payload = payload
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.accepting = threading.Thread(target=self._serve, daemon=True)
        self.accepting.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.recv(1 << 20)
                conn.sendall(self.payload)

    def close(self) -> None:
        stop_listening(self.sock, self.accepting)


@pytest.fixture
def raw() -> Iterator[Any]:
    started: list[RawUpstream] = []

    def start(status: str, body: bytes, *headers: str) -> RawUpstream:
        head = [f"HTTP/1.1 {status}", f"Content-Length: {len(body)}", "Connection: close", *headers]
        started.append(RawUpstream(("\r\n".join(head) + "\r\n\r\n").encode() + body))
        return started[-1]

    yield start
    for upstream in started:
        upstream.close()


def test_a_codex_request_reaches_the_model_server_with_its_whole_tool_surface(
    stub_server: Any, serve: Any, caplog: pytest.LogCaptureFixture
) -> None:
    upstream = stub_server(["Done: retry.py now tries 5 times."])
    url = serve(f"{upstream.url}/v1")
    with caplog.at_level(logging.INFO, logger="pedro.serve"):
        reply = httpx.post(f"{url}/responses", json=codex_request(), timeout=30)
    assert reply.status_code == 200
    sent = upstream.requests[0]
    names = [tool["function"]["name"] for tool in sent["tools"]]
    flattened = ["mcp__docs__search", "mcp__docs__fetch_page", "tickets__open"]
    assert names == ["shell", "apply_patch", "update_plan", *flattened]
    assert sent["tools"][3]["function"]["parameters"]["required"] == ["query"]
    left_out = " ".join(record.getMessage() for record in caplog.records if record.name == "pedro.serve")
    assert "web_search" in left_out and "image_generation" in left_out
    # The empty assistant messages Codex replays after each call never reach the model server.
    shape = [(m["role"], [c["function"]["name"] for c in m.get("tool_calls", [])]) for m in sent["messages"]]
    assert shape == [
        ("system", []), ("system", []), ("user", []), ("user", []),
        ("assistant", ["mcp__docs__search"]), ("tool", []),
        ("assistant", ["apply_patch"]), ("tool", []),
    ]  # fmt: skip
    assert sent["messages"][4]["tool_calls"][0]["function"]["arguments"] == '{"query": "retries"}'
    assert sent["parallel_tool_calls"] is False


def test_text_after_the_calls_joins_their_assistant_message(stub_server: Any, serve: Any) -> None:
    upstream = stub_server(["ok"])
    url = serve(f"{upstream.url}/v1")
    items = [
        {"type": "message", "role": "user", "content": "Weather?"},
        {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{}"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Checking."}]},
        {"type": "function_call_output", "call_id": "c1", "output": "sunny"},
    ]
    httpx.post(f"{url}/responses", json={"model": "m", "input": items}, timeout=30)
    assistant = upstream.requests[0]["messages"][1]
    assert assistant["content"] == "Checking." and assistant["tool_calls"][0]["id"] == "c1"
    assert [m["role"] for m in upstream.requests[0]["messages"]] == ["user", "assistant", "tool"]


def test_calls_to_namespaced_tools_go_back_with_their_namespace(stub_server: Any, serve: Any, sdk: Any) -> None:
    native = {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"id": "call_n", "type": "function",
                        "function": {"name": "mcp__docs__search", "arguments": '{"query": "backoff"}'}}],
    }  # fmt: skip
    written = "<function=tickets__open>\n<parameter=title>\nRetries\n</parameter>\n</function>"
    upstream = stub_server([native, written, "Noted."])
    url = serve(f"{upstream.url}/v1")
    request = codex_request(store=True)
    request.pop("stream")
    first = sdk(url).responses.create(**request, stream=True)
    done = [e.item for e in first if e.type == "response.output_item.done" and e.item.type == "function_call"]
    assert [(c.name, c.namespace, c.arguments) for c in done] == [("search", "mcp__docs__", '{"query": "backoff"}')]
    second = sdk(url).responses.create(**request)
    calls = [item for item in second.output if item.type == "function_call"]
    shown = [(c.name, c.namespace, json.loads(c.arguments)) for c in calls]
    assert shown == [("open", "tickets", {"title": "Retries"})]
    # The stored conversation goes on under the flattened name the model server knows.
    sdk(url).responses.create(model="m", input="And now?", previous_response_id=second.id, tools=request["tools"])
    continued = upstream.requests[2]["messages"]
    assert [c["function"]["name"] for m in continued for c in m.get("tool_calls", [])][-1] == "tickets__open"


def test_usage_details_carry_cached_and_reasoning_tokens(raw: Any, serve: Any, sdk: Any) -> None:
    usage = {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150,
             "prompt_tokens_details": {"cached_tokens": 100},
             "completion_tokens_details": {"reasoning_tokens": 12}}  # fmt: skip
    chunks = [{"choices": [{"index": 0, "delta": {"content": "Hi."}}]},
              {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
              {"choices": [], "usage": usage}]  # fmt: skip
    body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
    upstream = raw("200 OK", body, "Content-Type: text/event-stream")
    url = serve(upstream.url)
    events = list(sdk(url).responses.create(model="m", input="hi", stream=True))
    completed = next(e for e in events if e.type == "response.completed").response.usage
    assert completed is not None
    assert (completed.input_tokens, completed.output_tokens, completed.total_tokens) == (120, 30, 150)
    assert completed.input_tokens_details.cached_tokens == 100
    assert completed.output_tokens_details.reasoning_tokens == 12


LLAMA_CONTEXT_FULL = json.dumps({"error": {"code": 400, "type": "exceed_context_size_error", "n_prompt_tokens": 9000,
                                           "n_ctx": 8192, "message": "the request exceeds the available context size, "
                                           "try increasing it"}}).encode()  # fmt: skip


def test_a_full_context_is_response_failed_with_context_length_exceeded(raw: Any, serve: Any) -> None:
    upstream = raw("400 Bad Request", LLAMA_CONTEXT_FULL, "Content-Type: application/json")
    url = serve(upstream.url)
    streamed = httpx.post(f"{url}/responses", json=codex_request(), timeout=30)
    events = sse_events(streamed.text)
    assert streamed.status_code == 200 and events[0]["type"] == "response.created"
    assert events[-1]["type"] == "response.failed"
    assert events[-1]["response"]["error"]["code"] == "context_length_exceeded"
    assert "context size" in events[-1]["response"]["error"]["message"]
    whole = httpx.post(f"{url}/responses", json=codex_request(stream=False), timeout=30)
    assert whole.status_code == 400 and whole.json()["error"]["code"] == "context_length_exceeded"


def test_a_rate_limit_is_response_failed_with_a_retry_hint_codex_reads(raw: Any, serve: Any) -> None:
    said = json.dumps({"error": {"message": "Too many requests", "type": "rate_limit"}}).encode()
    upstream = raw("429 Too Many Requests", said, "Content-Type: application/json", "Retry-After: 7")
    url = serve(upstream.url)
    events = sse_events(httpx.post(f"{url}/responses", json=codex_request(), timeout=30).text)
    error = events[-1]["response"]["error"]
    assert events[-1]["type"] == "response.failed" and error["code"] == "rate_limit_exceeded"
    found = CODEX_RETRY.search(error["message"])
    assert found is not None and (found.group(1), found.group(2)) == ("7", "s")
    whole = httpx.post(f"{url}/responses", json=codex_request(stream=False), timeout=30)
    assert whole.status_code == 429 and whole.headers["Retry-After"] == "7"
    assert whole.json()["error"]["code"] == "rate_limit_exceeded"


def test_a_full_context_reported_inside_the_stream_keeps_its_code(raw: Any, serve: Any) -> None:
    body = b'error: {"code": 400, "message": "the request exceeds the available context size, try increasing it"}\n\n'
    upstream = raw("200 OK", body, "Content-Type: text/event-stream")
    url = serve(upstream.url)
    events = sse_events(httpx.post(f"{url}/responses", json=codex_request(), timeout=30).text)
    assert events[-1]["type"] == "response.failed"
    assert events[-1]["response"]["error"]["code"] == "context_length_exceeded"


def test_chat_completions_are_passed_to_the_model_server(stub_server: Any, serve: Any, sdk: Any) -> None:
    upstream = stub_server(["Plain answer.", "Streamed answer."])
    url = serve(f"{upstream.url}/v1")
    whole = sdk(url).chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    assert whole.choices[0].message.content == "Plain answer."
    stream = sdk(url).chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=True)
    assert "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices) == "Streamed answer."
    assert [r["messages"] for r in upstream.requests] == [[{"role": "user", "content": "hi"}]] * 2
    assert upstream.requests[1]["stream"] is True and "stream" not in upstream.requests[0]


def test_chat_completions_faults_and_unknown_paths_have_openai_error_bodies(serve: Any, sdk: Any) -> None:
    url = serve("http://127.0.0.1:9/v1")  # nothing listens there
    with pytest.raises(openai.APIStatusError) as raised:
        sdk(url).chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    assert raised.value.status_code == 502 and raised.value.code == "upstream_unreachable"
    missing = httpx.post(f"{url}/completions", json={"prompt": "hi"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert "POST /v1/chat/completions" in missing.json()["error"]["message"]
    wrong_method = httpx.get(f"{url}/chat/completions")
    assert wrong_method.status_code == 405 and wrong_method.json()["error"]["code"] == "method_not_allowed"


def test_a_busy_port_is_one_line_naming_port(cli_env: dict[str, str], tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "pedro", "serve", "--port", str(port), "--backend", "openai", "--base-url",
             "http://127.0.0.1:9/v1", "--model", "m"],
            cwd=tmp_path, env=cli_env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"port {port}" in lines[0] and "--port" in lines[0], done.stderr
