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
from pedro.serve.events import ResponseBuilder, UpstreamFault, fault_code, fault_message, read_chunk, stream_fault
from pedro.serve.limits import BodyTooLarge, ServeLimits, parse_body, read_body
from pedro.serve.store import ResponseStore
from pedro.serve.translate import RequestError, to_chat

LOG = logging.getLogger("pedro.serve")
ACCESS = logging.getLogger("pedro.serve.access")

TIMEOUT_KEY = "[backend].request_timeout"
_FAILED_STATUS = {"upstream_timeout": 504, "context_length_exceeded": 400, "rate_limit_exceeded": 429}
"""The status of a non-streaming response that failed, by its code (else 502)."""
ENDPOINTS = "POST /v1/responses, GET /v1/responses/ID, POST /v1/chat/completions, GET /v1/models, GET /health"


def create_app(
    upstream: str,
    *,
    model: str,
    api_key: str | None = None,
    upstream_key: str | None = None,
    breaker: Breaker | None = None,
    limits: ServeLimits | None = None,
    reply_time_limit: float | None = 120.0,
) -> Starlette:
    """The app for one upstream (`upstream` is its OpenAI base URL, ending in /v1); a reply that repeats itself or
    streams past `reply_time_limit` seconds is cut and ends as an incomplete response."""
    base = upstream.rstrip("/")
    circuit = breaker or Breaker()
    limits = limits or ServeLimits()
    stored = ResponseStore(limits.store_bytes)

    def keep(builder: ResponseBuilder, messages: list[dict[str, Any]], final: dict[str, Any]) -> None:
        stored.keep(builder.id, final, [*messages, builder.assistant_message()])

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

    async def open_upstream(payload: Mapping[str, Any], deadline: float) -> httpx.Response | Response:
        """The model server's streamed reply to POST /chat/completions, through the circuit breaker; an error
        response when the circuit is open or the server cannot be reached in time. A reply of status 400 or more
        is returned open: the caller reads it (`_refusal`)."""
        wait = circuit.admit()
        if wait is not None:
            message = f"the model server at {base} keeps failing; pedro serve pauses requests to it for a while"
            return _error(503, "upstream_paused", message, retry_after=wait)
        if circuit.probing:  # this request is the half-open circuit's one trial
            fault = await _trial(client, base, circuit.probe_timeout_s)
            if fault is not None:
                circuit.failed()
                message = f"the model server at {base} {fault}; pedro serve pauses requests to it for a while"
                return _error(503, "upstream_paused", message, retry_after=circuit.pause_s)
            circuit.succeeded()
        try:
            async with asyncio.timeout_at(deadline):
                reply = await client.send(client.build_request("POST", f"{base}/chat/completions", json=payload),
                                          stream=True)  # fmt: skip
        except TimeoutError:
            circuit.failed()
            message = (f"the model server at {base} did not answer within {limits.request_timeout:g} s "
                       f"({TIMEOUT_KEY}; raise it for slow models)")  # fmt: skip
            return _error(504, "upstream_timeout", message)
        except httpx.HTTPError as exc:
            circuit.failed()
            return _error(502, "upstream_unreachable", f"the model server at {base} did not answer ({exc})")
        if reply.status_code >= 500:
            circuit.failed()
        else:
            circuit.succeeded()
        return reply

    async def responses(request: Request) -> Response:
        if (denied := refused(request)) is not None:
            return denied
        try:
            body = parse_body(await read_body(request, limits.max_request_bytes))
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
        except BodyTooLarge:
            message = (f"the request body is larger than {limits.max_request_bytes} bytes "
                       "([serve].max_request_bytes of pedro serve)")  # fmt: skip
            return _error(413, "request_too_large", message)
        except (ValueError, RequestError) as exc:
            return _error(400, "invalid_request", str(exc))
        if chat.dropped_tools:
            LOG.info("tools with no chat equivalent were left out: %s", ", ".join(chat.dropped_tools))
        builder = ResponseBuilder(str(chat.body["model"]), chat.tools, chat.custom_tools, body, chat.namespaced)
        deadline = asyncio.get_running_loop().time() + limits.request_timeout
        upstream_reply = await open_upstream(chat.body, deadline)
        if isinstance(upstream_reply, Response):
            return upstream_reply
        if upstream_reply.status_code >= 400:
            said = await _refusal(upstream_reply)
            code = fault_code(said, upstream_reply.status_code)
            if code is None:
                status = upstream_reply.status_code if upstream_reply.status_code < 500 else 502
                return _error(status, "upstream_error", f"the model server answered {upstream_reply.status_code}: "
                              f"{said}")  # fmt: skip
            retry = _seconds(upstream_reply.headers.get("retry-after"))
            message = fault_message(code, said, retry)
            if body.get("stream"):  # Codex acts on these codes only in response.failed
                failed = [*builder.start()[:2], *builder.fail(code, message)]
                return StreamingResponse(_sse(_listed(failed)), media_type="text/event-stream")
            status = 429 if code == "rate_limit_exceeded" else 400
            return _error(status, code, message, retry_after=retry if status == 429 else None)
        store = body.get("store", True) is not False

        async def events() -> AsyncIterator[dict[str, Any]]:
            async for event in _events(
                builder, upstream_reply, deadline, limits.request_timeout, ReplyGuard(reply_time_limit)
            ):
                if store and event["type"] in _ENDED:
                    keep(builder, chat.body["messages"], event["response"])
                yield event

        if body.get("stream"):
            return StreamingResponse(_sse(events()), media_type="text/event-stream")
        final: dict[str, Any] = {}
        async for event in events():
            if event["type"] in (*_ENDED, "response.failed"):
                final = event["response"]
        failure = (final.get("error") or {}).get("code")
        ended = final.get("status") in ("completed", "incomplete")
        status = 200 if ended else _FAILED_STATUS.get(str(failure), 502)
        return JSONResponse(final, status_code=status)

    async def stored_response(request: Request) -> Response:
        if (denied := refused(request)) is not None:
            return denied
        found = stored.get(request.path_params["response_id"])
        if found is None:
            return _error(404, "not_found", f"no stored response {request.path_params['response_id']}")
        return JSONResponse(found.response)

    async def chat_completions(request: Request) -> Response:
        """The request passed to the model server as it is (its model filled in when missing), its answer passed
        back: streamed when it streams, else one JSON body, an error with the model server's own status."""
        if (denied := refused(request)) is not None:
            return denied
        try:
            body = parse_body(await read_body(request, limits.max_request_bytes))
            if not isinstance(body, Mapping):
                raise RequestError("the request body must be a JSON object")
        except BodyTooLarge:
            message = (f"the request body is larger than {limits.max_request_bytes} bytes "
                       "([serve].max_request_bytes of pedro serve)")  # fmt: skip
            return _error(413, "request_too_large", message)
        except (ValueError, RequestError) as exc:
            return _error(400, "invalid_request", str(exc))
        payload = {**body, "model": body.get("model") or model}
        deadline = asyncio.get_running_loop().time() + limits.request_timeout
        reply = await open_upstream(payload, deadline)
        if isinstance(reply, Response):
            return reply
        kind = reply.headers.get("content-type", "application/json")
        if reply.status_code >= 400 or not kind.startswith("text/event-stream"):
            try:
                async with asyncio.timeout_at(deadline):
                    content = await reply.aread()
            except (TimeoutError, httpx.HTTPError) as exc:
                return _error(502, "upstream_stream_cut", f"the model server's answer broke off ({exc!r})")
            finally:
                await reply.aclose()
            return Response(content, status_code=reply.status_code, media_type=kind)
        return StreamingResponse(_relay(reply, deadline), status_code=reply.status_code, media_type=kind)

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
            Route("/v1/chat/completions", chat_completions, methods=["POST"]),
        ],
        lifespan=lifespan,
        exception_handlers={404: _no_endpoint, 405: _no_endpoint},
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


async def _trial(client: httpx.AsyncClient, base: str, seconds: float) -> str | None:
    """The half-open circuit's trial: does the server answer its cheap /models within `seconds`? None if it does,
    else what went wrong. A generation could take minutes to start on a live server; this cannot."""
    try:
        async with asyncio.timeout(seconds):
            reply = await client.get(f"{base}/models")
    except TimeoutError:
        return f"did not answer GET /models within {seconds:g} s"
    except httpx.HTTPError as exc:
        return f"did not answer ({exc})"
    return f"answered {reply.status_code} to GET /models" if reply.status_code >= 500 else None


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
    builder: ResponseBuilder, upstream: httpx.Response, deadline: float, request_timeout: float, guard: ReplyGuard
) -> AsyncIterator[dict[str, Any]]:
    """The response's events from the upstream SSE stream; any fault after the start ends in response.failed, a
    reply the guard cuts (a loop, out of time) in response.incomplete."""
    try:
        for event in builder.start():
            yield event
        async for field_name, payload in _server_events(upstream, deadline, guard):
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
    except UpstreamFault as exc:
        LOG.warning("%s", exc)
        for event in builder.fail(exc.code, str(exc)):
            yield event
    except TimeoutError:
        message = f"the model server's reply took longer than {request_timeout:g} s ({TIMEOUT_KEY})"
        for event in builder.fail("upstream_timeout", message):
            yield event
    except httpx.HTTPError as exc:
        for event in builder.fail("upstream_stream_cut", f"the model server's stream ended early ({exc})"):
            yield event
    except Exception as exc:  # noqa: BLE001 - a client gets response.failed, never a cut stream
        LOG.exception("pedro serve failed while reading the model server's stream")
        for event in builder.fail("server_error", f"pedro serve failed on the model server's reply ({exc!r})"):
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


async def _relay(upstream: httpx.Response, deadline: float) -> AsyncIterator[bytes]:
    """The upstream's stream, byte for byte, each piece awaited no later than `deadline`; a fault ends it with an
    OpenAI-style `error` event (the status line has gone out already)."""
    pieces = upstream.aiter_raw()
    try:
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    piece = await anext(pieces)
            except StopAsyncIteration:
                break
            yield piece
    except (TimeoutError, httpx.HTTPError) as exc:
        error = {"error": {"message": f"the model server's stream broke off ({exc!r})", "type": "server_error",
                           "code": "upstream_stream_cut", "param": None}}  # fmt: skip
        yield f"\n\ndata: {json.dumps(error)}\n\n".encode()
    finally:
        await upstream.aclose()


async def _refusal(upstream: httpx.Response) -> str:
    """What the model server said with its error status (the start of its body), the reply closed after."""
    try:
        return (await upstream.aread()).decode("utf-8", "replace")[:500]
    except httpx.HTTPError as exc:
        return f"(its answer broke off: {exc})"
    finally:
        await upstream.aclose()


def _seconds(header: str | None) -> float | None:
    """A Retry-After header in seconds (an HTTP date is rare from model servers and read as absent)."""
    try:
        value = float(header) if header is not None else None
    except ValueError:
        return None
    return value if value is not None and math.isfinite(value) and value >= 0 else None


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


def _error(status: int, code: str, message: str, *, retry_after: float | None = None) -> JSONResponse:
    """An OpenAI-style error body."""
    kind = "invalid_request_error" if status < 500 else "server_error"
    headers = {"Retry-After": str(max(1, math.ceil(retry_after)))} if retry_after is not None else None
    body = {"error": {"message": message, "type": kind, "code": code, "param": None}}
    return JSONResponse(body, status_code=status, headers=headers)
