"""HttpTransport: a Connection's client, timeouts, retries and status mapping, shared by the HTTP backends."""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Final, Generic, Literal, TypeVar

import httpx

from pedro.backends.base import (
    BASE_URL_HINT,
    BackendHttpError,
    Notify,
    StreamCutError,
    decode_json_object,
    map_http_errors,
    run_with_retries,
    status_error,
)
from pedro.backends.connection import Connection
from pedro.backends.replyguard import ReplyGuard, non_streamed_timeout_message
from pedro.errors import BackendError
from pedro.messages import Completion

T = TypeVar("T")

StreamFormat = Literal["sse", "ndjson"]

# The media types each streaming wire is sent with; application/json is a whole reply instead of a stream.
_STREAM_TYPES: dict[StreamFormat, frozenset[str]] = {
    "sse": frozenset({"text/event-stream"}),
    "ndjson": frozenset({"application/x-ndjson", "application/jsonl", "application/json-lines"}),
}
# The first line of a stream sent under another media type (or none): an SSE field or comment, a JSON object.
_STREAM_START: dict[StreamFormat, re.Pattern[str]] = {
    "sse": re.compile(r"^(:|(data|event|id|retry|error)(:|$))"),
    "ndjson": re.compile(r"^\s*\{"),
}
_STREAM_NAMES: dict[StreamFormat, str] = {"sse": "server-sent events", "ndjson": "JSON lines"}
_REQUEST_TIMEOUT_KEY = "[backend].request_timeout"
_NEWLINE = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class ReplyReader(Generic[T]):
    """How a streamed reply is read: the wire it comes in, what reads its lines (with the attempt's ReplyGuard),
    and what takes the one JSON object a server that ignores `stream: true` sends instead."""

    stream_format: StreamFormat
    consume: Callable[[Iterator[str], ReplyGuard], T]
    whole: Callable[[dict[str, Any]], T]


# Lets a backend explain a status in its own words (Ollama's "model not found" wants `ollama pull`).
StatusHook = Callable[[int, str, str], BackendError | None]


class HttpTransport:
    """Sends JSON requests with bounded retries; every failure leaves as a BackendError naming the URL."""

    def __init__(self, connection: Connection, *, server: str, explain_status: StatusHook | None = None) -> None:
        self.connection = connection
        self.server = server
        self.retry = connection.retry
        self.timeout = connection.timeout
        self.request_timeout = connection.request_timeout
        self.reply_time_limit = connection.reply_time_limit
        self._client, self._owns_client = connection.open_client()
        self._headers = connection.headers
        self._explain_status = explain_status

    def close(self) -> None:
        """Close the client if this transport created it; an injected client belongs to its owner."""
        if self._owns_client:
            self._client.close()

    def get_json(self, url: str, *, retries: bool = True) -> dict[str, Any]:
        """GET a JSON object."""
        return self._with_retries(lambda: self._send_once("GET", url, None, sent_tools=False), retries)

    def post_json(
        self,
        url: str,
        body: Mapping[str, Any],
        *,
        sent_tools: bool = False,
        on_notice: Notify | None = None,
        reply: bool = False,
    ) -> dict[str, Any]:
        """POST a JSON body and return the JSON object the server answered; a model `reply` that is not streamed
        must arrive within the reply time limit (the read timeout is cut to it)."""
        limit = self.reply_time_limit if reply else None
        return self._with_retries(
            lambda: self._send_once("POST", url, body, sent_tools=sent_tools, read_limit=limit), True, on_notice
        )

    def get_status(self, url: str) -> tuple[int, str]:
        """GET once without retries and return (status, body text); used for health polling."""
        with self._failures(url):
            response = self._client.get(url, headers=self._headers, timeout=self.timeout)
            return response.status_code, response.text

    def stream_lines(
        self,
        url: str,
        body: Mapping[str, Any],
        reader: ReplyReader[T],
        *,
        sent_tools: bool,
        on_retry: Callable[[BackendHttpError], None] | None = None,
        on_notice: Notify | None = None,
    ) -> T:
        """POST and hand the reply's lines to `reader.consume`; a cut stream is retried with a fresh call of it.

        `consume` also gets the attempt's ReplyGuard: the lines end once the reply's time is up, and it feeds the
        guard what the reply adds, stopping when the guard says so (the reply is then a failed one, not an error).
        A server that answers one JSON object instead of a stream has it handed to `reader.whole`; anything else
        that is not a `reader.stream_format` stream (a proxy's HTML page) is refused with what it was.
        """

        def attempt() -> T:
            clock = RequestClock(self.request_timeout, self.timeout, url, self.server)
            guard = ReplyGuard(self.reply_time_limit)

            def guarded(lines: Iterator[str]) -> T:
                return reader.consume(guard.lines(lines), guard)

            try:
                with (
                    self._failures(url, clock),
                    self._client.stream(
                        "POST", url, json=dict(body), headers=self._headers, timeout=clock.timeout
                    ) as response,
                ):
                    if response.status_code >= 400:
                        response.read()
                        raise self._status_error(response, url, sent_tools=sent_tools)
                    lines = split_lines(clock.chunks(response))
                    return self._dispatch(response, lines, reader.stream_format, guarded, reader.whole, url)
            except BackendHttpError as exc:
                if exc.retryable and on_retry is not None:
                    on_retry(exc)
                raise

        return self._with_retries(attempt, True, on_notice)

    def _dispatch(
        self,
        response: httpx.Response,
        lines: Iterator[str],
        stream_format: StreamFormat,
        consume: Callable[[Iterator[str]], T],
        whole: Callable[[dict[str, Any]], T],
        url: str,
    ) -> T:
        """Read the reply as what it is: the expected stream, one whole JSON reply, or something else entirely."""
        media = media_type(response)
        if media in _STREAM_TYPES[stream_format]:
            return consume(lines)
        first = next((line for line in lines if line.strip()), None)
        if first is None:
            return consume(iter(()))
        looks_streamed = bool(_STREAM_START[stream_format].match(first))
        if looks_streamed and media != "application/json":
            return consume(itertools.chain([first], lines))
        text = "\n".join(itertools.chain([first], lines))
        try:
            payload = json.loads(text)
        except ValueError:
            payload = None
        if isinstance(payload, dict):
            return whole(payload)
        if looks_streamed:  # a stream labelled application/json
            return consume(iter(text.split("\n")))
        raise not_a_model_reply(
            url, self.server, media, text, expected=f"a reply stream ({_STREAM_NAMES[stream_format]})"
        )

    def _with_retries(self, attempt: Callable[[], T], retries: bool, on_notice: Notify | None = None) -> T:
        if not retries:
            return attempt()
        return run_with_retries(attempt, self.retry, on_notice)

    def _send_once(
        self,
        method: str,
        url: str,
        body: Mapping[str, Any] | None,
        *,
        sent_tools: bool,
        read_limit: float | None = None,
    ) -> dict[str, Any]:
        clock = RequestClock(self.request_timeout, self.timeout, url, self.server)
        timeout = clock.timeout
        if read_limit and (timeout.read is None or read_limit < timeout.read):
            timeout = httpx.Timeout(**{**timeout.as_dict(), "read": read_limit})
        else:
            read_limit = None
        payload = dict(body) if body is not None else None
        with (
            self._failures(url, clock, read_limit),
            self._client.stream(method, url, json=payload, headers=self._headers, timeout=timeout) as response,
        ):
            if response.status_code >= 400:
                response.read()
                raise self._status_error(response, url, sent_tools=sent_tools)
            text = "".join(clock.chunks(response))
            media = media_type(response)
        if media in ("text/html", "application/xhtml+xml") or text.lstrip().startswith("<"):
            raise not_a_model_reply(url, self.server, media, text, expected="a JSON reply")
        return decode_json_object(text, url=url, server=self.server, what="reply")

    @contextmanager
    def _failures(self, url: str, clock: RequestClock | None = None, read_limit: float | None = None) -> Iterator[None]:
        """The one place an exchange's httpx failures become BackendErrors: a read timeout that was the reply's time
        limit (`read_limit`) or the request's own clock says so; everything else is map_http_errors' to name."""
        with map_http_errors(url, self.server):
            try:
                yield
            except httpx.ReadTimeout as exc:
                if read_limit is not None:
                    raise BackendHttpError(non_streamed_timeout_message(self.server, url, read_limit)) from exc
                if clock is not None and clock.read_is_limit:
                    raise clock.error() from exc
                raise

    def _status_error(self, response: httpx.Response, url: str, *, sent_tools: bool) -> BackendError:
        """The one place a status of 400 or more becomes a BackendError, in the backend's own words if it has them."""
        error = status_error(response, url, self.server, sent_tools=sent_tools)
        if self._explain_status is not None and isinstance(error, BackendHttpError) and error.status is not None:
            explained = self._explain_status(error.status, error.detail, url)
            if explained is not None:
                return explained
        return error


def stream_cut(url: str, server: str) -> StreamCutError:
    """The error for a stream that ended without the server's end marker."""
    return StreamCutError(
        f"the reply stream from the {server} at {url} ended before the server said it was done. "
        "Did the server crash or run out of memory? Check its log",
        retryable=True,
    )


class RequestClock:
    """The wall-clock limit of one request: keep-alive bytes restart the read timeout, never this clock."""

    def __init__(self, limit: float, timeout: httpx.Timeout, url: str, server: str) -> None:
        self.limit = limit
        self.url = url
        self.server = server
        self._deadline = time.monotonic() + limit
        read = timeout.read if timeout.read is not None else limit
        # A server silent for the whole limit is caught by the read timeout, so that timeout is never longer.
        self.read_is_limit = limit <= read
        """Whether a read timeout is this limit running out (it was the shorter of the two)."""
        self.timeout = httpx.Timeout(**{**timeout.as_dict(), "read": min(read, limit)})

    def chunks(self, response: httpx.Response) -> Iterator[str]:
        """The reply's text as it arrives, checking the clock at every chunk (a keep-alive comment is one)."""
        for chunk in response.iter_text():
            self.check()
            yield chunk

    def check(self) -> None:
        """Raise once the request has taken longer than its limit."""
        if time.monotonic() >= self._deadline:
            raise self.error()

    def error(self) -> BackendHttpError:
        """The request went past [backend].request_timeout: say so, and which key raises it."""
        return BackendHttpError(
            f"the {self.server} at {self.url} had not finished its reply after {self.limit:g} s "
            f"({_REQUEST_TIMEOUT_KEY}, the most one request may take), though it kept the connection open. "
            f"Raise {_REQUEST_TIMEOUT_KEY} (PEDRO_BACKEND__REQUEST_TIMEOUT) if the model really needs longer, "
            "or lower [backend].max_tokens"
        )


def split_lines(chunks: Iterable[str]) -> Iterator[str]:
    r"""Lines of streamed text without their endings (\n, \r\n or \r), however the chunks cut them."""
    pending = ""
    for chunk in chunks:
        pending += chunk
        if "\n" not in chunk and "\r" not in chunk:
            continue  # still inside a line: nothing to split (a long line is not rescanned per chunk)
        # A final \r may be the first half of \r\n: keep it until the next chunk says.
        cut = len(pending) - 1 if pending.endswith("\r") else len(pending)
        *lines, rest = _NEWLINE.split(pending[:cut])
        pending = rest + pending[cut:]
        yield from lines
    if pending:
        lines = _NEWLINE.split(pending)
        yield from lines[:-1] if lines[-1] == "" else lines


def media_type(response: httpx.Response) -> str:
    """The reply's Content-Type without parameters, lower-cased; empty when the server sent none."""
    value: str = response.headers.get("content-type", "")
    return value.partition(";")[0].strip().lower()


def not_a_model_reply(url: str, server: str, media: str, text: str, *, expected: str) -> BackendError:
    """The error for a 200 reply that is not what a model server sends: a web page, a proxy's notice."""
    sent = media or "no content type"
    html = media in ("text/html", "application/xhtml+xml") or "<html" in text[:500].lower()
    return BackendHttpError(
        f"the {server} at {url} answered 200 with {f'an HTML page ({sent})' if html else sent} instead of {expected}: "
        f"{text.strip()[:160]!r}. That is not a model server's reply: a proxy (HTTP_PROXY / HTTPS_PROXY / NO_PROXY), "
        f"a login page or another web service answered. {BASE_URL_HINT}"
    )


CUT_NOTICE: Final = "the connection was cut mid-reply and pedro asked again; text shown before the cut may repeat"


class ShownText:
    """The reply's text deltas passed on as they stream, remembering whether any were: when a cut stream is asked
    again, the person is told that what they saw before the cut may repeat."""

    def __init__(self, on_token: Callable[[str], None] | None) -> None:
        self._on_token = on_token
        self._shown = False
        self._cut = False

    def emit(self, text: str) -> None:
        self._shown = True
        if self._on_token is not None:
            self._on_token(text)

    def note_retry(self, _error: BackendHttpError) -> None:
        self._cut = self._cut or self._shown

    def whole(self, completion: Completion) -> Completion:
        """A reply that came as one object: its text shown at once."""
        if self._on_token is not None and completion.text:
            self._on_token(completion.text)
        return completion

    def finished(self, completion: Completion) -> Completion:
        """The streamed reply, with the notice when text shown before a cut may repeat."""
        return replace(completion, notices=(*completion.notices, CUT_NOTICE)) if self._cut else completion
