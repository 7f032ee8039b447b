"""What one `pedro serve` takes in and keeps: the upstream time limit, the request body (size and depth), the store."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from pedro.config import BackendConfig, PedroConfig, ServeConfig
from pedro.serve.translate import RequestError

MAX_JSON_DEPTH = 128
"""Deepest nesting a request body may have (serde_json's default): real requests stay far below it, and deeper
ones would exhaust the recursion of every JSON reader and writer on the way upstream."""


def _default(model: type[Any], key: str) -> Any:
    return model.model_fields[key].default


@dataclass(frozen=True)
class ServeLimits:
    """The limits of one app; the defaults are the configuration's ([backend].request_timeout, [serve])."""

    request_timeout: float = _default(BackendConfig, "request_timeout")
    max_request_bytes: int = _default(ServeConfig, "max_request_bytes")
    store_bytes: int = _default(ServeConfig, "store_bytes")
    reply_time_limit: float | None = _default(BackendConfig, "reply_time_limit_s")
    """Seconds a reply may stream before it is cut and ends as an incomplete response."""

    @classmethod
    def of(cls, config: PedroConfig) -> ServeLimits:
        serve, backend = config.serve, config.backend
        return cls(backend.request_timeout, serve.max_request_bytes, serve.store_bytes, backend.reply_time_limit_s)


class BodyTooLarge(Exception):
    """The request body is over max_request_bytes (HTTP 413)."""


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, read no further than `limit` bytes: a larger one raises BodyTooLarge as soon as it shows
    (by its Content-Length, or while it is read), so no more than the limit is ever held."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge
    body = bytearray()
    async for piece in request.stream():
        if len(body) + len(piece) > limit:
            raise BodyTooLarge
        body += piece
    return bytes(body)


def parse_body(body: bytes) -> Any:
    """The JSON of a request body; RequestError (HTTP 400) when it is not JSON or nested past MAX_JSON_DEPTH."""
    too_deep = RequestError(f"the request body is nested too deeply (more than {MAX_JSON_DEPTH} levels)")
    try:
        value = json.loads(body or b"{}")
    except RecursionError:
        raise too_deep from None
    except ValueError as exc:
        raise RequestError(f"the request body is not JSON ({exc})") from None
    if _depth_over(value, MAX_JSON_DEPTH):
        raise too_deep
    return value


def _depth_over(value: Any, limit: int) -> bool:
    """Whether containers nest deeper than `limit`, found without recursion."""
    stack = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False
