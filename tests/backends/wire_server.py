"""A recording wire-level fake server for backend tests: httpx.MockTransport fed with recorded payloads."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def read_fixture(name: str) -> str:
    """The text of tests/fixtures/<name>."""
    return (FIXTURES / name).read_text(encoding="utf-8")


class CutStream(httpx.SyncByteStream):
    """A body that sends some bytes and then loses the connection, as a crashed server does."""

    def __init__(self, body: bytes) -> None:
        self._body = body

    def __iter__(self) -> Iterator[bytes]:
        yield self._body
        raise httpx.RemoteProtocolError("peer closed connection without sending complete message body")


@dataclass
class Reply:
    """One scripted answer: a status and body, a connection failure, or a body cut mid-way."""

    status: int = 200
    body: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    error: type[httpx.HTTPError] | None = None
    cut: bool = False

    def build(self, request: httpx.Request) -> httpx.Response:
        if self.error is not None:
            raise self.error("connection refused", request=request)
        if self.cut:
            return httpx.Response(self.status, headers=self.headers, stream=CutStream(self.body.encode()))
        return httpx.Response(self.status, headers=self.headers, content=self.body.encode())


def sse(name: str) -> Reply:
    return Reply(body=read_fixture(name), headers={"content-type": "text/event-stream"})


def ndjson(name: str) -> Reply:
    return Reply(body=read_fixture(name), headers={"content-type": "application/x-ndjson"})


def json_reply(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return Reply(status=status, body=text, headers={"content-type": "application/json", **(headers or {})})


class WireServer:
    """Routes (method, path) to queued replies (the last one repeats) and records every request."""

    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], list[Reply]] = {}
        self.requests: list[httpx.Request] = []

    def on(self, method: str, path: str, *replies: Reply) -> WireServer:
        self.routes.setdefault((method, path), []).extend(replies)
        return self

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        queue = self.routes.get((request.method, request.url.path))
        if not queue:
            return httpx.Response(404, json={"error": f"no route for {request.method} {request.url.path}"})
        reply = queue.pop(0) if len(queue) > 1 else queue[0]
        return reply.build(request)

    def client(self) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self.handle))

    def bodies(self, path: str) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests if r.url.path == path and r.content]

    def paths(self) -> list[str]:
        return [f"{r.method} {r.url.path}" for r in self.requests]
