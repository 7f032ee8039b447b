"""Every HTTP backend takes one Connection: its URL, key, timeouts and retries, read from config in one place."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
from typing import Any

import httpx
import pytest

from pedro.backends import BACKENDS
from pedro.backends.base import GenerationOptions
from pedro.backends.connection import Connection
from pedro.backends.openai_compat import ChatSettings
from pedro.config import PedroConfig
from pedro.messages import Message

HELLO = [Message(role="user", content="hi")]
CHAT = {"choices": [{"message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}
# What each path answers, as the servers answer them (recorded in tests/backends/fixtures and wire_server.py).
REPLIES: dict[str, dict[str, Any]] = {
    "/health": {"status": "ok"},
    "/props": {"default_generation_settings": {"n_ctx": 4096}, "total_slots": 1},
    "/v1/chat/completions": CHAT,
    "/api/show": {"model_info": {"general.architecture": "llama", "llama.context_length": 8192}},
    "/api/chat": {"message": {"role": "assistant", "content": "hi"}, "done": True, "done_reason": "stop"},
}


def backend_classes() -> list[type[Any]]:
    classes = []
    for target in BACKENDS.values():
        module, _, name = target.partition(":")
        classes.append(getattr(importlib.import_module(module), name))
    return classes


@pytest.mark.parametrize("cls", backend_classes(), ids=list(BACKENDS))
def test_each_backend_takes_a_connection_and_repeats_none_of_its_fields(cls: type[Any]) -> None:
    parameters = list(inspect.signature(cls).parameters)
    assert parameters[:2] == ["connection", "model"]
    repeated = {field.name for field in dataclasses.fields(Connection)} & set(parameters)
    assert not repeated, f"{cls.__name__} repeats {repeated}"


@pytest.mark.parametrize("kind", list(BACKENDS))
def test_one_injected_transport_carries_the_key_and_timeouts_of_every_request(kind: str) -> None:
    seen: list[httpx.Request] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=REPLIES.get(request.url.path, CHAT))

    root = "http://127.0.0.1:9/v1" if kind == "openai" else "http://127.0.0.1:9"
    connection = Connection(
        root + "/", api_key="k-1", connect_timeout=2.0, read_timeout=30.0, transport=httpx.MockTransport(handle)
    )
    module, _, name = BACKENDS[kind].partition(":")
    cls = getattr(importlib.import_module(module), name)
    chat = kind != "ollama"  # the chat-completions backends take their [backend] settings as one object
    backend = (
        cls(connection, "m", ChatSettings(context_window=4096)) if chat else cls(connection, "m", context_window=4096)
    )
    try:
        completion = backend.complete(HELLO, tools=[], options=GenerationOptions(stream=False))
    finally:
        backend.close()
    assert completion.text == "hi"
    assert seen and all(request.headers["authorization"] == "Bearer k-1" for request in seen)
    assert all(request.url.host == "127.0.0.1" and "//" not in request.url.path for request in seen)
    timeouts = [request.extensions["timeout"] for request in seen]
    assert all(timeout["connect"] == 2.0 and timeout["read"] == 30.0 for timeout in timeouts)
    assert json.loads(seen[-1].content)["model"] == "m"


def test_the_connection_is_read_from_backend_config_in_one_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEDRO_TEST_KEY", "secret-2")
    config = PedroConfig()
    config.backend.api_key_env = "PEDRO_TEST_KEY"
    config.backend.connect_timeout = 1.5
    config.backend.read_timeout = 70.0
    config.backend.request_timeout = 90.0
    config.backend.reply_time_limit_s = 45.0
    config.backend.max_retries = 1
    config.backend.load_timeout = 12.0
    sleeps: list[float] = []
    connection = Connection.from_config(config, sleep=sleeps.append)
    assert connection.base_url == config.resolved_base_url().rstrip("/")
    assert connection.headers == {"Authorization": "Bearer secret-2"}
    assert (connection.connect_timeout, connection.read_timeout) == (1.5, 70.0)
    assert (connection.request_timeout, connection.reply_time_limit) == (90.0, 45.0)
    assert (connection.retry.max_retries, connection.retry.load_timeout) == (1, 12.0)
    connection.retry.sleep(0.25)
    assert sleeps == [0.25]
