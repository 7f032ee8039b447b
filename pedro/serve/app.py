"""The ASGI app of `pedro serve`: POST /v1/responses (SSE or JSON), POST /v1/chat/completions (passed through),
GET /v1/models, GET /health, in front of one chat-completions server, async end to end (httpx.AsyncClient upstream,
Starlette and uvicorn downstream)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from pedro.backends.replyguard import ReplyGuard
from pedro.backends.sse import SseDecoder, SseField
from pedro.serve.breaker import Breaker
from pedro.serve.events import ResponseBuilder, UpstreamFault, read_chunk, stream_fault
from pedro.serve.limits import BodyTooLarge, ServeLimits, parse_body, read_body
from pedro.serve.store import ResponseStore
from pedro.serve.translate import ChatRequest, RequestError, to_chat
from pedro.serve.upstream import Upstream, UpstreamFailure, refusal, status_of, upstream_client

LOG = logging.getLogger("pedro.serve")
ACCESS = logging.getLogger("pedro.serve.access")

ENDPOINTS = "POST /v1/responses, GET /v1/responses/ID, POST /v1/chat/completions, GET /v1/models, GET /health"


@dataclass(frozen=True)
class UpstreamSpec:
    """The model server behind the app: its OpenAI base URL (ending in /v1), its key, the breaker that guards it,
    and the client that reaches it (a test's httpx.MockTransport; else one built with `key`, closed with the app)."""

    url: str
    key: str | None = None
    breaker: Breaker | None = None
    client: httpx.AsyncClient | None = None


def create_app(
    upstream: str | UpstreamSpec, *, model: str, api_key: str | None = None, limits: ServeLimits | None = None
) -> Starlette:
    """The app for one upstream (a base URL, or its spec); a reply that repeats itself or streams past the limits'
    `reply_time_limit` seconds is cut and ends as an incomplete response. An injected client belongs to its owner."""
    spec = upstream if isinstance(upstream, UpstreamSpec) else UpstreamSpec(upstream)
    limits = limits or ServeLimits()
    owned = spec.client is None
    channel = spec.client if spec.client is not None else upstream_client(spec.key)
    breaker = spec.breaker or Breaker()
    service = _Service(Upstream(spec.url, channel, breaker, limits.request_timeout), model=model, api_key=api_key,
                       limits=limits)  # fmt: skip

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        if owned:
            await channel.aclose()

    app = Starlette(
        routes=[
            Route("/health", service.health, methods=["GET"]),
            Route("/v1/models", service.models, methods=["GET"]),
            Route("/v1/responses", service.responses, methods=["POST"]),
            Route("/v1/responses/{response_id}", service.stored_response, methods=["GET"]),
            Route("/v1/chat/completions", service.chat_completions, methods=["POST"]),
        ],
        lifespan=lifespan,
        exception_handlers={404: _no_endpoint, 405: _no_endpoint},
    )
    app.add_middleware(AccessLog)
    return app


class _Service:
    """The endpoints of one app; whatever goes wrong with the model server reaches the client through `_failed`."""

    def __init__(
        self,
        upstream: Upstream,
        *,
        model: str,
        api_key: str | None,
        limits: ServeLimits,
    ) -> None:
        self.upstream = upstream
        self.model = model
        self.api_key = api_key
        self.limits = limits
        self.stored = ResponseStore(limits.store_bytes)

    def refused(self, request: Request) -> Response | None:
        if self.api_key is None:
            return None
        given = request.headers.get("authorization", "")
        if not secrets.compare_digest(given.encode(), f"Bearer {self.api_key}".encode()):
            return _error(401, "invalid_api_key", "missing or wrong bearer token (pedro serve --api-key-env)")
        return None

    async def health(self, _request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def models(self, request: Request) -> Response:
        if (denied := self.refused(request)) is not None:
            return denied
        try:
            return JSONResponse(await self.upstream.models())
        except UpstreamFailure as failure:
            return _failed(failure)

    async def stored_response(self, request: Request) -> Response:
        if (denied := self.refused(request)) is not None:
            return denied
        found = self.stored.get(request.path_params["response_id"])
        if found is None:
            return _error(404, "not_found", f"no stored response {request.path_params['response_id']}")
        return JSONResponse(found.response)

    async def responses(self, request: Request) -> Response:
        if (denied := self.refused(request)) is not None:
            return denied
        body = await self._json_body(request)
        if isinstance(body, Response):
            return body
        chat = self._chat(body)
        if isinstance(chat, Response):
            return chat
        builder = ResponseBuilder(str(chat.body["model"]), chat.tools, chat.custom_tools, body, chat.namespaced)
        deadline = asyncio.get_running_loop().time() + self.limits.request_timeout
        try:
            reply = await self.upstream.open(chat.body, deadline)
            if reply.status_code >= 400:
                raise await refusal(reply)
        except UpstreamFailure as failure:
            if failure.actionable and body.get("stream"):  # Codex acts on these codes only in response.failed
                failed = [*builder.start()[:2], *builder.fail(failure.code, failure.message)]
                return StreamingResponse(_sse(_listed(failed)), media_type="text/event-stream")
            return _failed(failure)
        events = self._kept(builder, _events(builder, reply, deadline, self.upstream, self._guard()), chat, body)
        if body.get("stream"):
            return StreamingResponse(_sse(events), media_type="text/event-stream")
        return await _whole(events)

    async def chat_completions(self, request: Request) -> Response:
        """The request passed to the model server as it is (its model filled in when missing), its answer passed
        back: streamed when it streams, else one JSON body, an error with the model server's own status."""
        if (denied := self.refused(request)) is not None:
            return denied
        body = await self._json_body(request)
        if isinstance(body, Response):
            return body
        payload = {**body, "model": body.get("model") or self.model}
        deadline = asyncio.get_running_loop().time() + self.limits.request_timeout
        try:
            reply = await self.upstream.open(payload, deadline)
            kind = reply.headers.get("content-type", "application/json")
            if reply.status_code >= 400 or not kind.startswith("text/event-stream"):
                content = await self.upstream.read(reply, deadline)
                return Response(content, status_code=reply.status_code, media_type=kind)
        except UpstreamFailure as failure:
            return _failed(failure)
        return StreamingResponse(_relay(reply, deadline, self.upstream), status_code=reply.status_code, media_type=kind)

    async def _json_body(self, request: Request) -> Mapping[str, Any] | Response:
        """The request's JSON object, or the error response that says why there is none."""
        try:
            body = parse_body(await read_body(request, self.limits.max_request_bytes))
            if not isinstance(body, Mapping):
                raise RequestError("the request body must be a JSON object")
        except BodyTooLarge:
            message = (f"the request body is larger than {self.limits.max_request_bytes} bytes "
                       "([serve].max_request_bytes of pedro serve)")  # fmt: skip
            return _error(413, "request_too_large", message)
        except (ValueError, RequestError) as exc:
            return _error(400, "invalid_request", str(exc))
        return body

    def _chat(self, body: Mapping[str, Any]) -> ChatRequest | Response:
        """The chat request a Responses request becomes, continuing a stored conversation when it names one."""
        previous = body.get("previous_response_id")
        history = None
        if previous is not None:
            found = self.stored.get(str(previous))
            if found is None:
                return _error(404, "previous_response_not_found", f"no stored response {previous}")
            history = found.conversation
        try:
            chat = to_chat(body, self.model, history)
        except (ValueError, RequestError) as exc:
            return _error(400, "invalid_request", str(exc))
        if chat.dropped_tools:
            LOG.info("tools with no chat equivalent were left out: %s", ", ".join(chat.dropped_tools))
        return chat

    def _guard(self) -> ReplyGuard:
        return ReplyGuard(self.limits.reply_time_limit)

    async def _kept(
        self,
        builder: ResponseBuilder,
        events: AsyncIterator[dict[str, Any]],
        chat: ChatRequest,
        body: Mapping[str, Any],
    ) -> AsyncIterator[dict[str, Any]]:
        """The events, the ended response stored for a later previous_response_id unless the request said not to."""
        store = body.get("store", True) is not False
        async for event in events:
            if store and event["type"] in _ENDED:
                self.stored.keep(builder.id, event["response"], [*chat.body["messages"], builder.assistant_message()])
            yield event


async def _whole(events: AsyncIterator[dict[str, Any]]) -> Response:
    """A non-streaming response: the final response object, with the status its error code stands for."""
    final: dict[str, Any] = {}
    async for event in events:
        if event["type"] in (*_ENDED, "response.failed"):
            final = event["response"]
    failure = (final.get("error") or {}).get("code")
    ended = final.get("status") in ("completed", "incomplete")
    return JSONResponse(final, status_code=200 if ended else status_of(str(failure)))


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


async def _server_events(
    upstream: httpx.Response, deadline: float, guard: ReplyGuard
) -> AsyncIterator[tuple[SseField, str]]:
    """The upstream's server-sent events, each awaited no later than `deadline` (keep-alive comments and blank
    lines restart httpx's read timeout, never this one); they stop early when the reply's own time is up."""
    decoder = SseDecoder()
    lines = upstream.aiter_lines()
    while True:
        try:
            async with asyncio.timeout_at(deadline):
                line = await anext(lines)
        except StopAsyncIteration:
            break
        if guard.see(line):
            return
        for event in decoder.feed(line):
            yield event
    for event in decoder.flush():
        yield event


_ENDED = ("response.completed", "response.incomplete")


async def _events(
    builder: ResponseBuilder, reply: httpx.Response, deadline: float, upstream: Upstream, guard: ReplyGuard
) -> AsyncIterator[dict[str, Any]]:
    """The response's events from the upstream SSE stream; any fault after the start ends in response.failed, a
    reply the guard cuts (a loop, out of time) in response.incomplete."""
    try:
        for event in builder.start():
            yield event
        async for event in _streamed(builder, reply, deadline, guard):
            yield event
    except Exception as exc:  # noqa: BLE001 - a client gets response.failed, never a cut stream
        if isinstance(exc, UpstreamFault):
            LOG.warning("%s", exc)
        elif not isinstance(exc, (TimeoutError, httpx.HTTPError)):
            LOG.exception("pedro serve failed while reading the model server's stream")
        failure = upstream.failure(exc, answering=True)
        for event in builder.fail(failure.code, failure.message):
            yield event
    finally:
        # Also when the client went away: closing the upstream stream cancels that request.
        await reply.aclose()


async def _streamed(
    builder: ResponseBuilder, reply: httpx.Response, deadline: float, guard: ReplyGuard
) -> AsyncIterator[dict[str, Any]]:
    """The events of the upstream's chunks, then the end: complete, or incomplete when the guard cut the reply."""
    async for field_name, payload in _server_events(reply, deadline, guard):
        if field_name == "error":  # llama-server's way to report a failure inside a stream
            raise stream_fault(payload)
        if payload.strip() == "[DONE]":
            break
        chunk = read_chunk(payload)
        for event in builder.chunk(chunk):
            yield event
        if guard.feed(*_added(chunk)):
            break
    if guard.cut is not None:
        LOG.info("the reply was cut: %s", guard.cut.notice)
    for event in builder.finish(incomplete=guard.cut is not None):
        yield event


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


async def _relay(reply: httpx.Response, deadline: float, upstream: Upstream) -> AsyncIterator[bytes]:
    """The upstream's stream, byte for byte, each piece awaited no later than `deadline`; a fault ends it with an
    OpenAI-style `error` event (the status line has gone out already)."""
    pieces = reply.aiter_raw()
    try:
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    piece = await anext(pieces)
            except StopAsyncIteration:
                break
            yield piece
    except (TimeoutError, httpx.HTTPError) as exc:
        failure = upstream.failure(exc, answering=True)
        yield f"\n\ndata: {json.dumps(_error_body(failure.status, failure.code, failure.message))}\n\n".encode()
    finally:
        await reply.aclose()


async def _listed(events: list[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    for event in events:
        yield event


async def _no_endpoint(request: Request, exc: Exception) -> Response:
    """An unknown path or method gets an OpenAI-style body that lists what pedro serve answers, not a bare text."""
    status = exc.status_code if isinstance(exc, HTTPException) else 404
    code = "method_not_allowed" if status == 405 else "not_found"
    return _error(status, code, f"pedro serve has no {request.method} {request.url.path}; it serves {ENDPOINTS}")


async def _sse(events: AsyncIterator[dict[str, Any]]) -> AsyncIterator[bytes]:
    async for event in events:
        yield f"event: {event['type']}\ndata: {json.dumps(event, ensure_ascii=False)}\n\n".encode()


def _failed(failure: UpstreamFailure) -> JSONResponse:
    """The one place a failure of the model server becomes an HTTP answer."""
    return _error(failure.status, failure.code, failure.message, retry_after=failure.retry_after)


def _error(status: int, code: str, message: str, *, retry_after: float | None = None) -> JSONResponse:
    """An OpenAI-style error response."""
    headers = {"Retry-After": str(max(1, math.ceil(retry_after)))} if retry_after is not None else None
    return JSONResponse(_error_body(status, code, message), status_code=status, headers=headers)


def _error_body(status: int, code: str, message: str) -> dict[str, Any]:
    """An OpenAI-style error body."""
    kind = "invalid_request_error" if status < 500 else "server_error"
    return {"error": {"message": message, "type": kind, "code": code, "param": None}}
