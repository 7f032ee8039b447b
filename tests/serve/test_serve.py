"""pedro serve with the official openai SDK as the client and the wire-exact fake chat server as the upstream."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from serve_util import free_port, serving, stop_listening

WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "Weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


@pytest.fixture
def serve() -> Iterator[Any]:
    with serving() as start:
        yield lambda upstream, **options: f"http://127.0.0.1:{start(upstream, **options)}/v1"


_CLIENTS: list[openai.OpenAI] = []


def client(url: str, key: str = "unused") -> openai.OpenAI:
    made = openai.OpenAI(base_url=url, api_key=key, max_retries=0)
    _CLIENTS.append(made)
    return made


@pytest.fixture(autouse=True)
def close_clients() -> Iterator[None]:
    yield
    while _CLIENTS:
        _CLIENTS.pop().close()


def test_streamed_text_has_the_exact_event_sequence(stub_server: Any, serve: Any) -> None:
    upstream = stub_server(["Hello there, friend."])
    url = serve(f"{upstream.url}/v1")
    events = list(client(url).responses.create(model="m", input="Say hello", stream=True))
    types = [event.type for event in events]
    assert types[:4] == ["response.created", "response.in_progress", "response.output_item.added",
                         "response.content_part.added"]  # fmt: skip
    assert types[-5:] == ["response.output_text.done", "response.content_part.done", "response.output_item.done",
                          "response.completed", "response.done"]  # fmt: skip
    text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert text == "Hello there, friend."
    numbers = [event.sequence_number for event in events]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    assert upstream.requests[0]["messages"] == [{"role": "user", "content": "Say hello"}]


def test_a_call_written_in_the_text_becomes_a_function_call_item(stub_server: Any, serve: Any) -> None:
    reply = "Checking.\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>"
    upstream = stub_server([reply])
    url = serve(f"{upstream.url}/v1")
    events = list(client(url).responses.create(model="m", input="Weather?", tools=[WEATHER], stream=True))
    calls = [e.item for e in events if e.type == "response.output_item.done" and e.item.type == "function_call"]
    assert len(calls) == 1 and calls[0].name == "get_weather" and calls[0].arguments == '{"city": "Paris"}'
    shown = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert "<function" not in shown and "Checking." in shown
    order = [e.type for e in events if "tool_call" in e.type or "function_call_arguments" in e.type]
    assert order == ["response.output_tool_call.begin", "response.output_tool_call.delta",
                     "response.function_call_arguments.delta", "response.output_tool_call.end",
                     "response.function_call_arguments.done"]  # fmt: skip
    assert upstream.requests[0]["tools"][0]["function"]["name"] == "get_weather"


def test_native_parallel_calls_and_a_non_streaming_request(stub_server: Any, serve: Any) -> None:
    message = {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}},
            {"id": "call_b", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'}},
        ],
    }
    upstream = stub_server([message])
    url = serve(f"{upstream.url}/v1")
    response = client(url).responses.create(model="m", input="Two cities", tools=[WEATHER])
    calls = [item for item in response.output if item.type == "function_call"]
    assert [(c.call_id, c.arguments) for c in calls] == [("call_a", '{"city": "Oslo"}'), ("call_b", '{"city": "Rome"}')]
    assert response.status == "completed"


def test_a_conversation_with_call_outputs_is_translated(stub_server: Any, serve: Any) -> None:
    upstream = stub_server(["It is sunny."])
    url = serve(f"{upstream.url}/v1")
    client(url).responses.create(
        model="m",
        instructions="Be brief.",
        input=[
            {"role": "user", "content": [{"type": "input_text", "text": "Weather in Oslo?"}]},
            {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": '{"city": "Oslo"}'},
            {"type": "function_call_output", "call_id": "c1", "output": "sunny"},
        ],
        tools=[WEATHER, {"type": "web_search"}],
        tool_choice={"type": "function", "name": "get_weather"},
        max_output_tokens=50,
    )
    sent = upstream.requests[0]
    assert sent["messages"][0] == {"role": "system", "content": "Be brief."}
    assert sent["messages"][2]["tool_calls"][0]["id"] == "c1"
    assert sent["messages"][3] == {"role": "tool", "tool_call_id": "c1", "content": "sunny"}
    assert [t["function"]["name"] for t in sent["tools"]] == ["get_weather"]  # web_search has no chat equivalent
    assert sent["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}
    assert sent["max_tokens"] == 50


def test_faults_are_http_errors_before_streaming(serve: Any) -> None:
    url = serve(f"http://127.0.0.1:{free_port()}/v1")  # nothing listens there
    with pytest.raises(openai.APIStatusError) as raised:
        client(url).responses.create(model="m", input="hi", stream=True)
    assert raised.value.status_code == 502 and "did not answer" in str(raised.value)


def test_a_bearer_token_is_required_when_set(stub_server: Any, serve: Any) -> None:
    upstream = stub_server(["ok"])
    url = serve(f"{upstream.url}/v1", api_key="s3cret")
    with pytest.raises(openai.AuthenticationError):
        client(url, key="wrong").responses.create(model="m", input="hi")
    assert client(url, key="s3cret").responses.create(model="m", input="hi").status == "completed"


def test_the_pedro_serve_command(stub_server: Any, cli_env: dict[str, str], tmp_path: Any) -> None:
    import subprocess
    import sys

    import httpx

    upstream = stub_server(["Served."])
    port = free_port()
    env = {**cli_env, "SERVE_TOKEN": "tok"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pedro", "serve", "--port", str(port), "--backend", "openai", "--base-url",
         f"{upstream.url}/v1", "--model", "m", "--api-key-env", "SERVE_TOKEN"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        response = client(f"http://127.0.0.1:{port}/v1", key="tok").responses.create(model="m", input="hi")
        assert response.output_text == "Served."
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=10)
    # One format on stderr: uvicorn's own lines (started, shutting down) as pedro's log lines are, time then logger;
    # pedro's notices (`note: pedro serve: …`) apart.
    logged = [line for line in stderr.splitlines() if line and not line.startswith("note: ")]
    assert logged and all(re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [\w.]+ ", line) for line in logged), stderr
    assert any(" uvicorn" in line for line in logged) and any(" pedro.serve.access {" in line for line in logged)


class RawUpstream:
    """A chat server that answers every request with exactly the bytes given, then closes the connection."""

    def __init__(self, payload: bytes) -> None:
        self.payload = payload
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.closed = threading.Event()
        self.accepting = threading.Thread(target=self._serve, daemon=True)
        self.accepting.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)
                conn.sendall(self.payload)
                time.sleep(0.2)
            self.closed.set()

    def close(self) -> None:
        stop_listening(self.sock, self.accepting)


def sse(*chunks: dict[str, Any], done: bool = True) -> bytes:
    import json

    body = b"".join(b"data: " + json.dumps(chunk).encode() + b"\n\n" for chunk in chunks)
    if done:
        body += b"data: [DONE]\n\n"
    return body


def test_arguments_before_the_name_still_give_begin_delta_end(serve: Any) -> None:
    def delta(**call: Any) -> dict[str, Any]:
        return {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, **call}]}}]}

    body = sse(
        delta(function={"arguments": '{"ci'}),
        delta(id="call_x", function={"name": "get_weather"}),
        delta(function={"arguments": 'ty": "Lima"}'}),
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    )
    upstream = RawUpstream(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n" + body)
    try:
        url = serve(upstream.url)
        events = list(client(url).responses.create(model="m", input="x", tools=[WEATHER], stream=True))
    finally:
        upstream.close()
    calls = [e for e in events if e.type.startswith("response.output_tool_call")]
    assert [e.type for e in calls] == ["response.output_tool_call.begin", "response.output_tool_call.delta",
                                       "response.output_tool_call.delta", "response.output_tool_call.end"]  # fmt: skip
    assert calls[1].delta == '{"ci'  # held until the name came, then replayed right after begin
    done = next(e for e in events if e.type == "response.function_call_arguments.done")
    assert done.arguments == '{"city": "Lima"}'


def test_a_reply_the_upstream_ended_at_its_token_limit_is_incomplete(serve: Any) -> None:
    # llama-server and vLLM end a reply out of max_tokens with finish_reason "length": per the Responses API that
    # response is incomplete, for max_output_tokens, streamed or not.
    body = sse(
        {"choices": [{"index": 0, "delta": {"content": "The answer is"}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]},
    )
    upstream = RawUpstream(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n" + body)
    try:
        url = serve(upstream.url)
        events = list(client(url).responses.create(model="m", input="x", max_output_tokens=3, stream=True))
        whole = client(url).responses.create(model="m", input="x", max_output_tokens=3)
    finally:
        upstream.close()
    assert events[-2].type == "response.incomplete" and events[-2].response.status == "incomplete"
    assert events[-2].response.incomplete_details is not None
    assert events[-2].response.incomplete_details.reason == "max_output_tokens"
    assert whole.status == "incomplete" and whole.output_text == "The answer is"
    # The message the limit cut is itself incomplete, in the stream and in the whole response.
    done = [event.item for event in events if event.type == "response.output_item.done"]
    assert [item.status for item in done] == ["incomplete"]
    assert [item.status for item in whole.output] == ["incomplete"]
    assert [item.status for item in events[-2].response.output] == ["incomplete"]


def test_a_stream_cut_mid_way_ends_in_response_failed(serve: Any) -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    part = sse({"choices": [{"index": 0, "delta": {"content": "Hel"}}]}, done=False)
    upstream = RawUpstream(head + f"{len(part):x}\r\n".encode() + part + b"\r\n")  # no final chunk: cut
    try:
        url = serve(upstream.url)
        events = list(client(url).responses.create(model="m", input="x", stream=True))
    finally:
        upstream.close()
    assert events[-1].type == "response.failed"
    assert events[-1].response.error is not None and events[-1].response.error.code == "upstream_stream_cut"
    assert "".join(e.delta for e in events if e.type == "response.output_text.delta") == "Hel"


def test_previous_response_id_continues_a_stored_conversation(stub_server: Any, serve: Any) -> None:
    upstream = stub_server(["Nice to meet you, Ana.", "Your name is Ana."])
    url = serve(f"{upstream.url}/v1")
    first = client(url).responses.create(model="m", input="My name is Ana.")
    second = client(url).responses.create(model="m", input="What is my name?", previous_response_id=first.id)
    assert second.output_text == "Your name is Ana."
    assert upstream.requests[1]["messages"] == [
        {"role": "user", "content": "My name is Ana."},
        {"role": "assistant", "content": "Nice to meet you, Ana."},
        {"role": "user", "content": "What is my name?"},
    ]
    assert client(url).responses.retrieve(first.id).output_text == "Nice to meet you, Ana."
    with pytest.raises(openai.NotFoundError):
        client(url).responses.create(model="m", input="x", previous_response_id="resp_unknown")


def test_repeated_upstream_failures_open_the_circuit_then_a_probe_goes_through(serve: Any) -> None:
    import httpx

    from pedro.serve.breaker import Breaker

    now = [0.0]
    breaker = Breaker(threshold=2, pause_s=5.0, clock=lambda: now[0])
    url = serve(f"http://127.0.0.1:{free_port()}/v1", breaker=breaker)
    statuses = [httpx.post(f"{url}/responses", json={"model": "m", "input": "hi"}).status_code for _ in range(3)]
    assert statuses == [502, 502, 503] and breaker.state == "open"
    paused = httpx.post(f"{url}/responses", json={"model": "m", "input": "hi"})
    assert paused.headers["Retry-After"] == "5" and paused.json()["error"]["code"] == "upstream_paused"
    now[0] = 6.0  # the pause is over: one probe goes to the (still dead) upstream and the circuit opens again
    assert breaker.state == "half-open"
    probe = httpx.post(f"{url}/responses", json={"model": "m", "input": "hi"})
    assert probe.status_code == 503 and "did not answer" in probe.json()["error"]["message"]
    assert breaker.state == "open"


class SlowUpstream:
    """A chat server that streams one word every 50 ms for ten seconds, and notes when its client went away."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.cut = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        try:
            conn, _ = self.sock.accept()
        except OSError:
            return
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
            try:
                for _ in range(200):
                    part = sse({"choices": [{"index": 0, "delta": {"content": "word "}}]}, done=False)
                    conn.sendall(f"{len(part):x}\r\n".encode() + part + b"\r\n")
                    time.sleep(0.05)
            except OSError:
                self.cut.set()

    def close(self) -> None:
        self.sock.close()


def test_a_client_that_disconnects_cancels_the_upstream_request(serve: Any) -> None:
    import httpx

    upstream = SlowUpstream()
    try:
        url = serve(upstream.url)
        with httpx.stream("POST", f"{url}/responses", json={"model": "m", "input": "x", "stream": True}) as reply:
            for line in reply.iter_lines():
                if "response.output_text.delta" in line:
                    break  # leave mid-stream
        assert upstream.cut.wait(5), "pedro serve kept the upstream request open after its client left"
    finally:
        upstream.close()


def test_reasoning_is_a_reasoning_item_never_visible_text(stub_server: Any, serve: Any) -> None:
    upstream = stub_server(["<think>The user wants a greeting.</think>Hello!"])
    url = serve(f"{upstream.url}/v1")
    events = list(client(url).responses.create(model="m", input="hi", stream=True))
    shown = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert shown == "Hello!"
    reasoning = "".join(e.delta for e in events if e.type == "response.reasoning_text.delta")
    assert reasoning == "The user wants a greeting."
    completed = next(e for e in events if e.type == "response.completed").response
    assert [item.type for item in completed.output] == ["message", "reasoning"]


def test_the_sdk_stream_helper_and_the_access_log(
    stub_server: Any, serve: Any, caplog: pytest.LogCaptureFixture
) -> None:
    import json
    import logging

    upstream = stub_server(["Streamed through the helper."])
    url = serve(f"{upstream.url}/v1")
    with caplog.at_level(logging.INFO, logger="pedro.serve.access"):
        with client(url).responses.stream(model="m", input="hi") as stream:
            for _event in stream:
                pass
            final = stream.get_final_response()
        deadline = time.monotonic() + 5
        while not caplog.records and time.monotonic() < deadline:
            time.sleep(0.05)
    assert final.output_text == "Streamed through the helper."
    record = json.loads(caplog.records[-1].getMessage())
    assert record["method"] == "POST" and record["path"] == "/v1/responses" and record["status"] == 200


def test_two_parallel_calls_stream_one_after_the_other_with_a_forced_tool(stub_server: Any, serve: Any) -> None:
    message = {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}},
            {"id": "call_b", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'}},
        ],
    }
    upstream = stub_server([message])
    url = serve(f"{upstream.url}/v1")
    events = list(
        client(url).responses.create(
            model="m", input="Two cities", tools=[WEATHER], stream=True,
            tool_choice={"type": "function", "name": "get_weather"},
        )
    )  # fmt: skip
    per_call = [
        "response.output_item.added", "response.output_tool_call.begin", "response.output_tool_call.delta",
        "response.function_call_arguments.delta", "response.output_tool_call.end",
        "response.function_call_arguments.done", "response.output_item.done",
    ]  # fmt: skip
    types = [e.type for e in events]
    pair = ["response.output_tool_call.delta", "response.function_call_arguments.delta"]
    collapsed: list[str] = []  # the arguments come in several pieces: one delta pair stands for all of them
    for kind in types:
        collapsed.append(kind)
        if len(collapsed) >= 4 and collapsed[-4:] == pair + pair:
            del collapsed[-2:]
    assert collapsed == [
        "response.created", "response.in_progress", "response.output_item.added", "response.content_part.added",
        *per_call, *per_call,
        "response.output_text.done", "response.content_part.done", "response.output_item.done",
        "response.completed", "response.done",
    ]  # fmt: skip
    assert [e.output_index for e in events if e.type == "response.output_tool_call.begin"] == [1, 2]
    assert [e.call_id for e in events if e.type == "response.output_tool_call.begin"] == ["call_a", "call_b"]
    assert upstream.requests[0]["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}
