"""The model server behind pedro serve: one httpx.AsyncClient, the circuit breaker, and the one mapping of its
failures to the errors pedro serve answers with."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping
from typing import Any

import httpx

from pedro.serve.breaker import Breaker
from pedro.serve.events import UpstreamFault, fault_code, fault_message

TIMEOUT_KEY = "[backend].request_timeout"
_STATUS = {"upstream_timeout": 504, "context_length_exceeded": 400, "rate_limit_exceeded": 429}
"""The HTTP status of a failure by its code (else 502)."""


def status_of(code: str) -> int:
    """The HTTP status a response that failed with `code` is answered with."""
    return _STATUS.get(code, 502)


class UpstreamFailure(Exception):
    """A failed exchange with the model server as pedro serve reports it: status, Responses error code, message."""

    def __init__(
        self, status: int, code: str, message: str, *, retry_after: float | None = None, actionable: bool = False
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after
        """Seconds the client should wait (a paused circuit, a rate limit), sent as Retry-After."""
        self.actionable = actionable
        """A code a client acts on (a full context, a rate limit): Codex reads it only in response.failed."""


def upstream_client(upstream_key: str | None) -> httpx.AsyncClient:
    """The client pedro serve talks to the model server with when none is given: its bearer token, if any."""
    headers = {"Authorization": f"Bearer {upstream_key}"} if upstream_key else {}
    return httpx.AsyncClient(timeout=httpx.Timeout(connect=10.0, read=600.0, write=60.0, pool=10.0), headers=headers)


class Upstream:
    """The model server at `base` (its OpenAI base URL, ending in /v1), reached through `client` and the breaker;
    every way talking to it can fail leaves as an UpstreamFailure."""

    def __init__(self, base: str, client: httpx.AsyncClient, breaker: Breaker, request_timeout: float) -> None:
        self.base = base.rstrip("/")
        self.client = client
        self.circuit = breaker
        self.request_timeout = request_timeout

    def failure(self, exc: BaseException, *, answering: bool) -> UpstreamFailure:
        """The one mapping of an exception met while talking to the model server; `answering` when its answer had
        begun (a cut connection is then a broken stream, a timeout the reply's, not an unreachable server)."""
        if isinstance(exc, UpstreamFailure):
            return exc
        if isinstance(exc, UpstreamFault):
            return UpstreamFailure(status_of(exc.code), exc.code, str(exc))
        if isinstance(exc, TimeoutError):
            if answering:
                message = f"the model server's reply took longer than {self.request_timeout:g} s ({TIMEOUT_KEY})"
            else:
                message = (f"the model server at {self.base} did not answer within {self.request_timeout:g} s "
                           f"({TIMEOUT_KEY}; raise it for slow models)")  # fmt: skip
            return UpstreamFailure(504, "upstream_timeout", message)
        if isinstance(exc, httpx.HTTPError):
            if answering:
                return UpstreamFailure(502, "upstream_stream_cut", f"the model server's stream ended early ({exc})")
            return UpstreamFailure(
                502, "upstream_unreachable", f"the model server at {self.base} did not answer ({exc})"
            )
        return UpstreamFailure(502, "server_error", f"pedro serve failed on the model server's reply ({exc!r})")

    async def models(self) -> Any:
        """The model server's GET /models, as JSON."""
        try:
            reply = await self.client.get(f"{self.base}/models")
        except httpx.HTTPError as exc:
            raise self.failure(exc, answering=False) from exc
        if reply.status_code >= 400:
            raise UpstreamFailure(502, "upstream_error", f"the model server answered {reply.status_code} to /models")
        return reply.json()

    async def open(self, payload: Mapping[str, Any], deadline: float) -> httpx.Response:
        """The model server's streamed reply to POST /chat/completions, through the circuit breaker. A reply of status
        400 or more is returned open: the caller reads it (`refusal`) or passes it on."""
        await self._admit()
        try:
            async with asyncio.timeout_at(deadline):
                request = self.client.build_request("POST", f"{self.base}/chat/completions", json=payload)
                reply = await self.client.send(request, stream=True)
        except (TimeoutError, httpx.HTTPError) as exc:
            self.circuit.failed()
            raise self.failure(exc, answering=False) from exc
        if reply.status_code >= 500:
            self.circuit.failed()
        else:
            self.circuit.succeeded()
        return reply

    async def read(self, reply: httpx.Response, deadline: float) -> bytes:
        """A reply's whole body, awaited no later than `deadline`; the reply is closed after."""
        try:
            async with asyncio.timeout_at(deadline):
                return await reply.aread()
        except (TimeoutError, httpx.HTTPError) as exc:
            raise self.failure(exc, answering=True) from exc
        finally:
            await reply.aclose()

    async def _admit(self) -> None:
        """Pass, or say that the circuit is open (or its half-open trial failed) and when to try again."""
        wait = self.circuit.admit()
        if wait is not None:
            message = f"the model server at {self.base} keeps failing; pedro serve pauses requests to it for a while"
            raise UpstreamFailure(503, "upstream_paused", message, retry_after=wait)
        if self.circuit.probing:  # this request is the half-open circuit's one trial
            fault = await self._trial(self.circuit.probe_timeout_s)
            if fault is not None:
                self.circuit.failed()
                message = f"the model server at {self.base} {fault}; pedro serve pauses requests to it for a while"
                raise UpstreamFailure(503, "upstream_paused", message, retry_after=self.circuit.pause_s)
            self.circuit.succeeded()

    async def _trial(self, seconds: float) -> str | None:
        """The half-open circuit's trial: does the server answer its cheap /models within `seconds`? None if it
        does, else what went wrong. A generation could take minutes to start on a live server; this cannot."""
        try:
            async with asyncio.timeout(seconds):
                reply = await self.client.get(f"{self.base}/models")
        except TimeoutError:
            return f"did not answer GET /models within {seconds:g} s"
        except httpx.HTTPError as exc:
            return f"did not answer ({exc})"
        return f"answered {reply.status_code} to GET /models" if reply.status_code >= 500 else None


async def refusal(reply: httpx.Response) -> UpstreamFailure:
    """The failure an error status of the model server's reply stands for: a full context or a rate limit gets the
    code a client acts on, anything else `upstream_error` (a 4xx keeps its status). The reply is closed after."""
    said = await _said(reply)
    code = fault_code(said, reply.status_code)
    if code is None:
        status = reply.status_code if reply.status_code < 500 else 502
        return UpstreamFailure(status, "upstream_error", f"the model server answered {reply.status_code}: {said}")
    retry = _seconds(reply.headers.get("retry-after"))
    status = 429 if code == "rate_limit_exceeded" else 400
    message = fault_message(code, said, retry)
    return UpstreamFailure(status, code, message, retry_after=retry if status == 429 else None, actionable=True)


async def _said(reply: httpx.Response) -> str:
    """What the model server said with its error status (the start of its body), the reply closed after."""
    try:
        return (await reply.aread()).decode("utf-8", "replace")[:500]
    except httpx.HTTPError as exc:
        return f"(its answer broke off: {exc})"
    finally:
        await reply.aclose()


def _seconds(header: str | None) -> float | None:
    """A Retry-After header in seconds (an HTTP date is rare from model servers and read as absent)."""
    try:
        value = float(header) if header is not None else None
    except ValueError:
        return None
    return value if value is not None and math.isfinite(value) and value >= 0 else None
