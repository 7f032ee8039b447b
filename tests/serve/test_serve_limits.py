"""pedro serve under stress: endless keep-alive, a hung upstream behind the breaker, huge and deep bodies, a bounded
store, malformed upstream chunks, and a listening address other machines can reach."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import openai
import pytest
from serve_util import serving, stop_listening

from pedro.serve.breaker import Breaker
from pedro.serve.limits import ServeLimits

SSE_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"


@pytest.fixture
def serve() -> Iterator[Any]:
    with serving() as start:
        yield lambda upstream, **options: f"http://127.0.0.1:{start(upstream, **options)}/v1"


def chunked(part: bytes) -> bytes:
    return f"{len(part):x}\r\n".encode() + part + b"\r\n"


def data(chunk: Any) -> bytes:
    return b"data: " + (chunk if isinstance(chunk, bytes) else json.dumps(chunk).encode()) + b"\n\n"


def text_delta(text: str) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"content": text}}]}


class Upstream:
    """A chat server on a raw socket: each connection gets the next behaviour in `plan` (the last one repeats):
    bytes to send before closing, "hang" (read the request, never answer), or "keep-alive" (start a stream, then
    send an SSE comment every 50 ms). It records each request's first line."""

    def __init__(self, *plan: bytes | str) -> None:
        self.plan = list(plan)
        self.lines: list[str] = []
        self.released = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.accepting = threading.Thread(target=self._accept, daemon=True)
        self.accepting.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            behaviour = self.plan.pop(0) if len(self.plan) > 1 else self.plan[0]
            threading.Thread(target=self._answer, args=(conn, behaviour), daemon=True).start()

    def _answer(self, conn: socket.socket, behaviour: bytes | str) -> None:
        with conn:
            self.lines.append(conn.recv(65536).split(b"\r\n", 1)[0].decode())
            try:
                if behaviour == "hang":
                    self.released.wait(60)
                elif behaviour == "keep-alive":
                    conn.sendall(SSE_HEAD + chunked(data(text_delta("Thinking"))))
                    for _ in range(600):  # 30 s at most, far past the limit the test sets
                        if self.released.wait(0.05):
                            break
                        conn.sendall(chunked(b": keep-alive\n\n"))
                else:
                    assert isinstance(behaviour, bytes)
                    conn.sendall(behaviour)
            except OSError:
                pass

    def close(self) -> None:
        self.released.set()
        stop_listening(self.sock, self.accepting)


@pytest.fixture
def upstream() -> Iterator[Any]:
    made: list[Upstream] = []

    def start(*plan: bytes | str) -> Upstream:
        made.append(Upstream(*plan))
        return made[-1]

    yield start
    for server in made:
        server.close()


def stream_events(url: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of a streamed response, read as plain SSE (so a cut shows as a missing end, not an SDK error)."""
    events = []
    with httpx.stream("POST", f"{url}/responses", json={**body, "stream": True}, timeout=60) as reply:
        assert reply.status_code == 200, reply.read()
        for line in reply.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    return events


def test_an_upstream_that_only_sends_keep_alive_comments_is_ended_at_the_request_time_limit(
    serve: Any, upstream: Any
) -> None:
    server = upstream("keep-alive")
    url = serve(server.url, limits=ServeLimits(request_timeout=0.5))
    events = stream_events(url, {"model": "m", "input": "hi"})
    assert events[-1]["type"] == "response.failed"
    error = events[-1]["response"]["error"]
    assert error["code"] == "upstream_timeout" and "[backend].request_timeout" in error["message"]
    assert "".join(e["delta"] for e in events if e["type"] == "response.output_text.delta") == "Thinking"


def test_an_upstream_that_never_answers_is_a_504_at_the_request_time_limit(serve: Any, upstream: Any) -> None:
    server = upstream("hang")
    url = serve(server.url, limits=ServeLimits(request_timeout=0.5))
    reply = httpx.post(f"{url}/responses", json={"model": "m", "input": "hi", "stream": True}, timeout=60)
    assert reply.status_code == 504
    assert reply.json()["error"]["code"] == "upstream_timeout"


def test_the_breaker_trial_against_a_hung_upstream_is_bounded(serve: Any, upstream: Any) -> None:
    failing = b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
    server = upstream(failing, "hang")
    now = [0.0]
    breaker = Breaker(threshold=1, pause_s=5.0, probe_timeout_s=0.5, clock=lambda: now[0])
    url = serve(server.url, breaker=breaker)
    request = {"model": "m", "input": "hi"}
    assert httpx.post(f"{url}/responses", json=request, timeout=60).status_code == 502
    assert breaker.state == "open"
    now[0] = 6.0  # the pause is over: the next request tries the server, which now hangs
    trial = httpx.post(f"{url}/responses", json=request, timeout=60)
    assert trial.status_code == 503 and trial.json()["error"]["code"] == "upstream_paused"
    assert "did not answer" in trial.json()["error"]["message"]
    assert breaker.state == "open" and not breaker.probing
    assert server.lines[-1].startswith("GET /v1/models ")  # the trial asks the cheap endpoint, not a generation


def test_a_trial_that_never_reports_back_gives_way_to_another_after_its_time_limit() -> None:
    now = [0.0]
    breaker = Breaker(threshold=1, pause_s=5.0, probe_timeout_s=2.0, clock=lambda: now[0])
    breaker.failed()
    now[0] = 5.0
    assert breaker.admit() is None  # the trial goes
    assert breaker.admit() is not None  # others wait for it
    now[0] = 7.0  # the trial's client went away without a word: it counts as failed, and the circuit reopens
    assert breaker.admit() is not None and breaker.state == "open"
    now[0] = 12.0
    assert breaker.admit() is None


@pytest.mark.parametrize("chunked_body", [False, True], ids=["content-length", "chunked"])
def test_a_request_body_over_the_limit_is_a_413_and_never_forwarded(
    stub_server: Any, serve: Any, chunked_body: bool
) -> None:
    server = stub_server(["never sent"])
    url = serve(f"{server.url}/v1", limits=ServeLimits(max_request_bytes=4096))
    body = json.dumps({"model": "m", "input": "x" * 10_000}).encode()
    content: Any = iter([body[i : i + 1000] for i in range(0, len(body), 1000)]) if chunked_body else body
    reply = httpx.post(f"{url}/responses", content=content, headers={"Content-Type": "application/json"})
    assert reply.status_code == 413
    error = reply.json()["error"]
    assert error["code"] == "request_too_large" and "4096" in error["message"] and error["type"]
    assert server.requests == []
    small = httpx.post(f"{url}/responses", json={"model": "m", "input": "hi"}, timeout=60)
    assert small.status_code == 200


def test_the_response_store_is_capped_in_bytes(stub_server: Any, serve: Any) -> None:
    long = " ".join(f"word{n}" for n in range(300))  # about 2 kB a response, never a loop the guard would cut
    server = stub_server([long, long, long])
    url = serve(f"{server.url}/v1", limits=ServeLimits(store_bytes=6000))
    sdk = openai.OpenAI(base_url=url, api_key="unused", max_retries=0)
    try:
        ids = [sdk.responses.create(model="m", input=f"question {n}").id for n in range(3)]
        with pytest.raises(openai.NotFoundError):
            sdk.responses.retrieve(ids[0])  # the oldest went to make room
        assert sdk.responses.retrieve(ids[2]).output_text == long
    finally:
        sdk.close()


@pytest.mark.parametrize(
    ("payload", "code", "said"),
    [
        (data({"choices": [{"index": 0, "delta": {"content": "Hi", "tool_calls": 5}}]}), "upstream_malformed",
         "tool_calls"),
        (data({"choices": "all of them"}), "upstream_malformed", "choices"),
        (data(b"{not json"), "upstream_malformed", "not JSON"),
        (b'error: {"code": 500, "message": "slot unavailable", "type": "server_error"}\n\n', "upstream_error",
         "slot unavailable"),
        (data({"error": {"message": "out of memory", "type": "server_error"}}), "upstream_error", "out of memory"),
    ],
    ids=["tool-calls-not-a-list", "choices-not-a-list", "not-json", "llama-server-error-field", "error-object"],
)  # fmt: skip
def test_a_malformed_or_failing_upstream_chunk_ends_in_response_failed(
    serve: Any, upstream: Any, payload: bytes, code: str, said: str
) -> None:
    body = chunked(data(text_delta("Hel"))) + chunked(payload) + chunked(data(b"[DONE]")) + b"0\r\n\r\n"
    server = upstream(SSE_HEAD + body)
    url = serve(server.url)
    events = stream_events(url, {"model": "m", "input": "hi"})
    assert events[-1]["type"] == "response.failed"
    error = events[-1]["response"]["error"]
    assert error["code"] == code and said in error["message"]
    numbers = [event["sequence_number"] for event in events]
    assert numbers == sorted(numbers)


def test_a_body_nested_too_deep_is_a_400(stub_server: Any, serve: Any) -> None:
    server = stub_server(["never sent"])
    url = serve(f"{server.url}/v1")
    deep = b'{"model": "m", "input": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    reply = httpx.post(f"{url}/responses", content=deep, headers={"Content-Type": "application/json"})
    assert reply.status_code == 400 and "nested" in reply.json()["error"]["message"]
    moderate = {"model": "m", "input": "hi", "metadata": json.loads("[" * 200 + "]" * 200)}
    reply = httpx.post(f"{url}/responses", json=moderate)
    assert reply.status_code == 400 and "nested" in reply.json()["error"]["message"]
    assert server.requests == []


def serve_command(cli_env: dict[str, str], tmp_path: Any, *flags: str) -> subprocess.CompletedProcess[str]:
    # 192.0.2.1 is a documentation address (RFC 5737) no machine has: nothing ever listens beyond loopback.
    command = [sys.executable, "-m", "pedro", "serve", "--host", "192.0.2.1", "--port", "8787", "--backend",
               "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", *flags]  # fmt: skip
    return subprocess.run(command, cwd=tmp_path, env=cli_env, capture_output=True, text=True, timeout=120)


def test_listening_beyond_loopback_without_a_token_is_refused(cli_env: dict[str, str], tmp_path: Any) -> None:
    done = serve_command(cli_env, tmp_path)
    assert done.returncode == 2
    assert "--api-key-env" in done.stderr and "--allow-unauthenticated" in done.stderr
    assert "Traceback" not in done.stderr


def test_listening_beyond_loopback_without_a_token_is_an_explicit_choice(
    cli_env: dict[str, str], tmp_path: Any
) -> None:
    done = serve_command(cli_env, tmp_path, "--allow-unauthenticated")
    # Past the check: the warning is printed, then binding the address no machine has fails, in one line.
    said = done.stdout + done.stderr
    assert "without a token (--allow-unauthenticated)" in said and "lets other machines reach" not in said
    assert "cannot listen on 192.0.2.1:8787" in said and "--host" in said and "Traceback" not in said
    assert done.returncode == 2


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("::1", True), ("[::1]", True),
     ("0.0.0.0", False), ("::", False), ("", False), ("192.168.1.5", False), ("myhost.lan", False)],
)  # fmt: skip
def test_which_addresses_count_as_this_machine_only(host: str, loopback: bool) -> None:
    from pedro.cli.serve import _loopback

    assert _loopback(host) is loopback


def test_a_trial_answered_closes_the_circuit_and_the_request_goes_on(stub_server: Any, serve: Any) -> None:
    server = stub_server(["Back again."])
    now = [0.0]
    breaker = Breaker(threshold=1, pause_s=5.0, clock=lambda: now[0])
    breaker.failed()
    url = serve(f"{server.url}/v1", breaker=breaker)
    assert httpx.post(f"{url}/responses", json={"model": "m", "input": "hi"}).status_code == 503
    now[0] = 6.0
    reply = httpx.post(f"{url}/responses", json={"model": "m", "input": "hi"}, timeout=60)
    assert reply.status_code == 200 and reply.json()["output"][0]["content"][0]["text"] == "Back again."
    assert breaker.state == "closed" and "/v1/models" in server.paths
