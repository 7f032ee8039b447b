"""The ASGI app of `pedro serve`: POST /v1/responses (SSE or JSON), GET /v1/models, GET /health, in front of one
chat-completions server, async end to end (httpx.AsyncClient upstream, Starlette and uvicorn downstream)."""

from __future__ import annotations

import contextlib
import json
import logging
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from pedro.backends.replyguard import ReplyGuard
from pedro.serve.breaker import Breaker
from pedro.serve.events import ResponseBuilder
from pedro.serve.translate import RequestError, to_chat

LOG = logging.getLogger("pedro.serve")
ACCESS = logging.getLogger("pedro.serve.access")


STORED_RESPONSES = 256
"""Responses kept for previous_response_id and GET /v1/responses/{id}, the oldest dropped first."""


@dataclass
class _Stored:
    response: dict[str, Any]
    conversation: list[dict[str, Any]]


def create_app(
    upstream: str,
    *,
    model: str,
    api_key: str | None = None,
    upstream_key: str | None = None,
    breaker: Breaker | None = None,
    reply_time_limit: float | None = 120.0,
) -> Starlette:
    """The app for one upstream (`upstream` is its OpenAI base URL, ending in /v1); a reply that repeats itself or
    streams past `reply_time_limit` seconds is cut and ends as an incomplete response."""
    base = upstream.rstrip("/")
    circuit = breaker or Breaker()
    stored: OrderedDict[str, _Stored] = OrderedDict()

    def keep(builder: ResponseBuilder, messages: list[dict[str, Any]], final: dict[str, Any]) -> None:
        stored[builder.id] = _Stored(final, [*messages, builder.assistant_message()])
        while len(stored) > STORED_RESPONSES:
            stored.popitem(last=False)

    headers = {"Authorization": f"Bearer {upstream_key}"} if upstream_key else {}
    client = httpx.AsyncClient(timeout=httpx.Timeout(connect=10.0, read=600.0, write=60.0, pool=10.0), headers=headers)

    def refused(request: Request) -> Response | None:
        if api_key is None:
            return None
        given = request.headers.get("authorization", "")
        if not secrets.compare_digest(given.encode(), f"Bearer {api_key}".encode()):
            return _error(401, "invalid_api_key", "missing or wrong bearer token (pedro serve --api-key-env)")
        return None

    async def health(_request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def models(request: Request) -> Response:
        if (denied := refused(request)) is not None:
            return denied
        try:
            reply = await client.get(f"{base}/models")
        except httpx.HTTPError as exc:
            return _error(502, "upstream_unreachable", f"the model server at {base} did not answer ({exc})")
        if reply.status_code >= 400:
            return _error(502, "upstream_error", f"the model server answered {reply.status_code} to /models")
        return JSONResponse(reply.json())

    async def responses(request: Request) -> Response:
        if (denied := refused(request)) is not None:
            return denied
        try:
            body = json.loads(await request.body() or b"{}")
            if not isinstance(body, Mapping):
                raise RequestError("the request body must be a JSON object")
            previous = body.get("previous_response_id")
            history = None
            if previous is not None:
                found = stored.get(str(previous))
                if found is None:
                    return _error(404, "previous_response_not_found", f"no stored response {previous}")
                history = found.conversation
            chat = to_chat(body, model, history)
        except (ValueError, RequestError) as exc:
            return _error(400, "invalid_request", str(exc))
        if chat.dropped_tools:
            LOG.info("built-in tools have no chat equivalent and were left out: %s", ", ".join(chat.dropped_tools))
        builder = ResponseBuilder(str(chat.body["model"]), chat.tools, chat.custom_tools, body)
        wait = circuit.admit()
        if wait is not None:
            message = f"the model server at {base} keeps failing; pedro serve pauses requests to it for a while"
            return _error(503, "upstream_paused", message, retry_after=wait)
        try:
            upstream_reply = await client.send(
                client.build_request("POST", f"{base}/chat/completions", json=chat.body), stream=True
            )
        except httpx.HTTPError as exc:
            circuit.failed()
            return _error(502, "upstream_unreachable", f"the model server at {base} did not answer ({exc})")
        if upstream_reply.status_code >= 400:
            said = (await upstream_reply.aread()).decode("utf-8", "replace")[:500]
            await upstream_reply.aclose()
            if upstream_reply.status_code >= 500:
                circuit.failed()
            else:
                circuit.succeeded()
            status = upstream_reply.status_code if upstream_reply.status_code < 500 else 502
            return _error(status, "upstream_error", f"the model server answered {upstream_reply.status_code}: {said}")
        circuit.succeeded()
        store = body.get("store", True) is not False

        async def events() -> AsyncIterator[dict[str, Any]]:
            async for event in _events(builder, upstream_reply, ReplyGuard(reply_time_limit)):
                if store and event["type"] in _ENDED:
                    keep(builder, chat.body["messages"], event["response"])
                yield event

        if body.get("stream"):
            return StreamingResponse(_sse(events()), media_type="text/event-stream")
        final: dict[str, Any] = {}
        async for event in events():
            if event["type"] in (*_ENDED, "response.failed"):
                final = event["response"]
        return JSONResponse(final, status_code=200 if final.get("status") in ("completed", "incomplete") else 502)

    async def stored_response(request: Request) -> Response:
        if (denied := refused(request)) is not None:
            return denied
        found = stored.get(request.path_params["response_id"])
        if found is None:
            return _error(404, "not_found", f"no stored response {request.path_params['response_id']}")
        return JSONResponse(found.response)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        await client.aclose()

    app = Starlette(
        routes=[
            Route("/health", health, methods=["GET"]),
            Route("/v1/models", models, methods=["GET"]),
            Route("/v1/responses", responses, methods=["POST"]),
            Route("/v1/responses/{response_id}", stored_response, methods=["GET"]),
        ],
        lifespan=lifespan,
    )
    app.add_middleware(AccessLog)
    return app


class AccessLog:
    """One structured line per request on the `pedro.serve.access` logger: method, path, status, milliseconds to
    the last byte, bytes sent (pure ASGI, so streaming responses pass through untouched)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status, sent = 0, 0

        async def watch(message: Any) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            record = {
                "method": scope.get("method"),
                "path": scope.get("path"),
                "status": status,
                "ms": round((time.perf_counter() - started) * 1000, 1),
                "bytes": sent,
                "client": (scope.get("client") or ("", 0))[0],
            }
            ACCESS.info(json.dumps(record))


_ENDED = ("response.completed", "response.incomplete")


async def _events(
    builder: ResponseBuilder, upstream: httpx.Response, guard: ReplyGuard
) -> AsyncIterator[dict[str, Any]]:
    """The response's events from the upstream SSE stream; a fault after the start ends in response.failed, a
    reply the guard cuts (a loop, out of time) in response.incomplete."""
    try:
        for event in builder.start():
            yield event
        async for line in upstream.aiter_lines():
            if guard.see(line):
                break
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            try:
                chunk = json.loads(data)
            except ValueError:
                LOG.warning("a malformed chunk from the model server was skipped: %.200s", data)
                continue
            if isinstance(chunk, Mapping):
                for event in builder.chunk(chunk):
                    yield event
                if guard.feed(*_added(chunk)):
                    break
        if guard.cut is not None:
            LOG.info("the reply was cut: %s", guard.cut.notice)
        for event in builder.finish(incomplete=guard.cut is not None):
            yield event
    except httpx.HTTPError as exc:
        for event in builder.fail("upstream_stream_cut", f"the model server's stream ended early ({exc})"):
            yield event
    finally:
        # Also when the client went away: closing the upstream stream cancels that request.
        await upstream.aclose()


def _added(chunk: Mapping[str, Any]) -> tuple[str, str]:
    """The text and the reasoning one upstream chunk adds."""
    text: list[str] = []
    reasoning: list[str] = []
    choices = chunk.get("choices")
    for choice in choices if isinstance(choices, list) else []:
        delta = choice.get("delta") if isinstance(choice, Mapping) else None
        if isinstance(delta, Mapping):
            content = delta.get("content")
            thought = delta.get("reasoning_content", delta.get("reasoning"))
            text.append(content if isinstance(content, str) else "")
            reasoning.append(thought if isinstance(thought, str) else "")
    return "".join(text), "".join(reasoning)


async def _sse(events: AsyncIterator[dict[str, Any]]) -> AsyncIterator[bytes]:
    async for event in events:
        yield f"event: {event['type']}\ndata: {json.dumps(event, ensure_ascii=False)}\n\n".encode()


def _error(status: int, code: str, message: str, *, retry_after: float | None = None) -> JSONResponse:
    """An OpenAI-style error body."""
    kind = "invalid_request_error" if status < 500 else "server_error"
    headers = {"Retry-After": str(max(1, math.ceil(retry_after)))} if retry_after is not None else None
    body = {"error": {"message": message, "type": kind, "code": code, "param": None}}
    return JSONResponse(body, status_code=status, headers=headers)
