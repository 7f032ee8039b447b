"""Server-sent events read one line at a time, for the blocking backends and the async `pedro serve` alike.

Hand-written rather than httpx-sse: llama-server reports a failure inside a stream as an `error:` field, which
the SSE specification (and so httpx-sse) drops as unknown, and a stream that ends without its blank line must
still give its last event; the parser is a few dozen lines. Keep-alive comments and stalls are the callers' business:
httpx's read timeout and the request deadline (backends/http.py's RequestClock, serve's timeout) bound them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal

SseField = Literal["data", "error"]


class SseDecoder:
    """Server-sent events fed one line at a time, as (field, payload); multi-line data is joined, comments and
    other fields are skipped. Shared by the blocking backends and the async `pedro serve`.

    llama-server reports a failure inside a stream as an `error:` field rather than `data:`, so both are kept.
    """

    def __init__(self) -> None:
        self._field: SseField | None = None
        self._parts: list[str] = []

    def feed(self, raw: str) -> list[tuple[SseField, str]]:
        """The events this line completes (none, one, or two when `data:` and `error:` lines meet)."""
        line = raw.rstrip("\r")
        if not line:
            return self.flush()
        if line.startswith(":"):
            return []
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name not in ("data", "error"):
            return []
        done = self.flush() if self._field is not None and self._field != name else []
        self._field = "error" if name == "error" else "data"
        self._parts.append(value)
        return done

    def flush(self) -> list[tuple[SseField, str]]:
        """The event being read, if any (at a blank line or the end of the stream)."""
        if self._field is None:
            return []
        event = (self._field, "\n".join(self._parts))
        self._field, self._parts = None, []
        return [event]


def iter_sse_events(lines: Iterable[str]) -> Iterator[tuple[SseField, str]]:
    """Server-sent events as (field, payload), read by SseDecoder."""
    decoder = SseDecoder()
    for raw in lines:
        yield from decoder.feed(raw)
    yield from decoder.flush()
