"""pedro serve with an injected upstream client: an httpx.MockTransport answering as llama-server does."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from pedro.serve.app import UpstreamSpec, create_app

# llama-server's answer to a prompt longer than its window (HTTP 400), as its server.cpp sends it.
LLAMA_CONTEXT_FULL = {
    "error": {
        "code": 400,
        "type": "exceed_context_size_error",
        "n_prompt_tokens": 9000,
        "n_ctx": 8192,
        "message": "the request exceeds the available context size, try increasing it",
    }
}


def exchange(handle: Any, *requests: tuple[str, str, dict[str, Any] | None]) -> list[httpx.Response]:
    """The app's answers to `requests`, its upstream client one that `handle` answers."""
    upstream = httpx.AsyncClient(transport=httpx.MockTransport(handle))
    app = create_app(UpstreamSpec("http://model.test/v1", client=upstream), model="m")

    async def run() -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://pedro.test") as pedro:
            return [await pedro.request(method, path, json=body) for method, path, body in requests]

    try:
        return asyncio.run(run())
    finally:
        asyncio.run(upstream.aclose())


def test_a_full_context_from_the_injected_upstream_is_context_length_exceeded() -> None:
    sent: list[httpx.Request] = []

    def handle(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(
            400, content=json.dumps(LLAMA_CONTEXT_FULL).encode(), headers={"Content-Type": "application/json"}
        )

    whole, streamed = exchange(
        handle,
        ("POST", "/v1/responses", {"model": "m", "input": "hi"}),
        ("POST", "/v1/responses", {"model": "m", "input": "hi", "stream": True}),
    )
    assert [str(request.url) for request in sent] == ["http://model.test/v1/chat/completions"] * 2
    assert json.loads(sent[0].content)["messages"] == [{"role": "user", "content": "hi"}]
    assert whole.status_code == 400
    error = whole.json()["error"]
    assert error["code"] == "context_length_exceeded" and error["type"] == "invalid_request_error"
    assert "available context size" in error["message"]
    events = [json.loads(line[6:]) for line in streamed.text.splitlines() if line.startswith("data: ")]
    assert streamed.status_code == 200 and events[0]["type"] == "response.created"
    assert events[-1]["type"] == "response.failed"
    assert events[-1]["response"]["error"]["code"] == "context_length_exceeded"


def test_an_unreachable_injected_upstream_is_the_same_502_on_every_endpoint() -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("All connection attempts failed", request=request)

    answers = exchange(
        handle,
        ("GET", "/v1/models", None),
        ("POST", "/v1/responses", {"model": "m", "input": "hi"}),
        ("POST", "/v1/chat/completions", {"messages": [{"role": "user", "content": "hi"}]}),
    )
    for answer in answers:
        assert answer.status_code == 502
        assert answer.json()["error"] == {
            "message": "the model server at http://model.test/v1 did not answer (All connection attempts failed)",
            "type": "server_error",
            "code": "upstream_unreachable",
            "param": None,
        }
