"""[backend].request_timeout: a reply that keeps its connection alive but never finishes is stopped, on real sockets."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_util import build
from endless_server import EndlessServer

from pedro.backends import get_backend
from pedro.backends.base import GenerationOptions
from pedro.backends.connection import Connection
from pedro.backends.llamacpp import LlamaCppBackend
from pedro.backends.ollama import OllamaBackend
from pedro.backends.openai_compat import OpenAICompatBackend
from pedro.config import PedroConfig
from pedro.errors import BackendError
from pedro.messages import Message

HELLO = [Message(role="user", content="hi")]
LIMIT = 0.5
OLLAMA_SHOW = {"model_info": {"general.architecture": "llama", "llama.context_length": 8192}}


@pytest.fixture
def endless() -> Iterator[Any]:
    """Start endless servers; all are stopped after the test."""
    started: list[EndlessServer] = []

    def start(**kwargs: Any) -> EndlessServer:
        server = EndlessServer(**kwargs).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def assert_stopped_at_the_limit(backend: Any, server: EndlessServer, chat: str, *, stream: bool = True) -> None:
    tokens: list[str] = []
    started = time.monotonic()
    with pytest.raises(BackendError) as caught:
        backend.complete(HELLO, tools=[], options=GenerationOptions(stream=stream), on_token=tokens.append)
    elapsed = time.monotonic() - started
    message = str(caught.value)
    assert f"after {LIMIT:g} s" in message and "[backend].request_timeout" in message, message
    assert LIMIT <= elapsed < LIMIT + 5, elapsed
    assert server.requests.count(f"POST {chat}") == 1, "a request that ran out of time is not sent again"
    backend.close()


def test_openai_stream_of_keep_alive_comments_stops_at_the_limit(endless: Any) -> None:
    server = endless()
    backend = OpenAICompatBackend(Connection(server.url + "/v1", request_timeout=LIMIT), "m")
    assert_stopped_at_the_limit(backend, server, "/v1/chat/completions")


def test_llamacpp_stream_stops_at_the_limit_even_after_some_text(endless: Any) -> None:
    head = b'data: {"choices":[{"index":0,"delta":{"content":"Thinking"},"finish_reason":null}]}\n\n'
    server = endless(head=head, answers={"/health": {"status": "ok"}, "/props": {}})
    backend = LlamaCppBackend(Connection(server.url, request_timeout=LIMIT), "m")
    assert_stopped_at_the_limit(backend, server, "/v1/chat/completions")


def test_ollama_ndjson_of_blank_lines_stops_at_the_limit(endless: Any) -> None:
    server = endless(content_type="application/x-ndjson", beat=b"\n", answers={"/api/show": OLLAMA_SHOW})
    backend = OllamaBackend(Connection(server.url, request_timeout=LIMIT), "m", context_window=4096)
    assert_stopped_at_the_limit(backend, server, "/api/chat")


def test_non_streamed_reply_padded_with_whitespace_stops_at_the_limit(endless: Any) -> None:
    server = endless(content_type="application/json", beat=b" ")
    backend = OpenAICompatBackend(Connection(server.url + "/v1", request_timeout=LIMIT), "m")
    assert_stopped_at_the_limit(backend, server, "/v1/chat/completions", stream=False)


def test_a_silent_server_is_stopped_at_the_limit_when_that_is_shorter_than_the_read_timeout(endless: Any) -> None:
    server = endless(interval=60.0, beat=b"")
    backend = OpenAICompatBackend(Connection(server.url + "/v1", request_timeout=LIMIT, read_timeout=600.0), "m")
    assert_stopped_at_the_limit(backend, server, "/v1/chat/completions")


def test_request_timeout_comes_from_the_config() -> None:
    config = PedroConfig()
    assert config.backend.request_timeout == 1800.0
    config.backend.request_timeout = 42.0
    for kind in ("openai", "llamacpp", "ollama"):
        config.backend.kind = kind  # type: ignore[assignment]
        backend = get_backend(config)
        assert backend.transport.request_timeout == 42.0  # type: ignore[attr-defined]
        backend.close()


def test_pedro_build_ends_with_exit_3_naming_the_key(repo: Path, endless: Any, cli_env: dict[str, str]) -> None:
    server = endless()
    proc = build(server, repo, {**cli_env, "PEDRO_BACKEND__REQUEST_TIMEOUT": str(LIMIT)})
    assert proc.returncode == 3, proc.stderr
    assert "[backend].request_timeout" in proc.stderr and "Traceback" not in proc.stderr
    (job,) = (repo / ".pedro" / "jobs").iterdir()
    assert json.loads((job / "job.json").read_text())["exit_status"] == "backend_error"
