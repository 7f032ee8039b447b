"""The Backend protocol, generation options, and the one place that turns httpx failures into BackendErrors."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

import httpx

from pedro.config import BackendConfig, config_default
from pedro.errors import BackendError
from pedro.messages import Completion, Message

T = TypeVar("T")

Notify = Callable[[str], None]
"""Hands the person a line while a request is under way (a model that is still loading)."""

BackendName = Literal["openai", "llamacpp", "ollama", "scripted"]
ToolMode = Literal["auto", "native", "text"]

# Shown in every "cannot reach" message so the operator knows which knob to turn.
BASE_URL_HINT = "Check --base-url / [backend].base_url"
# What a 401 or 403 asks for: the key pedro sends, and where it comes from.
API_KEY_HINT = (
    "set [backend].api_key_env (or PEDRO_BACKEND__API_KEY_ENV) to the name of the environment variable that holds "
    "the server's API key; a server named by OPENAI_BASE_URL gets OPENAI_API_KEY"
)


@dataclass(frozen=True)
class GenerationOptions:
    """Sampling and transport options for one request."""

    temperature: float = config_default(BackendConfig, "temperature")
    max_tokens: int = config_default(BackendConfig, "max_tokens")
    tool_mode: ToolMode = config_default(BackendConfig, "tool_mode")
    stream: bool = config_default(BackendConfig, "stream")
    seed: int | None = None
    """A sampling seed, so a sample drawn at temperature > 0 can be drawn again; None leaves the server's."""
    stop: tuple[str, ...] = ()
    """Strings that end the reply where they first appear (not included in it)."""
    likeliest: int = 0
    """How many of the likeliest tokens to report at each token written (`top_logprobs`); 0 asks for none."""


class Backend(Protocol):
    """A model server behind one wire protocol; streaming is internal and the Completion is final."""

    name: str
    continues_answers: bool
    """Whether a conversation ending in an assistant message has that message continued (llama-server, Ollama),
    so pedro can write the first words of an answer; other servers answer it with a new turn."""

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        on_token: Callable[[str], None] | None = None,
        on_notice: Notify | None = None,
    ) -> Completion:
        """One request; `on_token` sees text deltas, `on_notice` what the person should know meanwhile (the
        server is still loading the model and pedro waits)."""
        ...

    def context_window(self) -> int | None: ...

    def parameter_count(self) -> int | None:
        """How many parameters the model has, where the server says; None when it does not."""
        ...

    def count_tokens(self, text: str) -> int | None:
        """The exact token count of `text` by the model's own tokenizer; None when the server cannot say."""
        ...

    def sends_tools(self, options: GenerationOptions) -> bool:
        """Whether a request with these options carries the tool list natively, to be rendered into the prompt."""
        ...

    def close(self) -> None: ...


class BackendHttpError(BackendError):
    """A failed exchange with the server; `retryable` marks the ones worth another attempt."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        detail: str = "",
        retryable: bool = False,
        retry_after: float | None = None,
        loading: bool = False,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.detail = detail
        self.retryable = retryable
        self.retry_after = retry_after
        self.loading = loading
        """A 503 that says the model is still loading: waited out up to the load timeout, not the retry budget."""


class ToolsRejectedError(BackendError):
    """The server refused the `tools` field; the backend falls back to text mode."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"the server does not accept native tools: {detail}")
        self.detail = detail


class StreamCutError(BackendHttpError):
    """The reply stream ended before the server said it was done."""


class ContextOverflowError(BackendHttpError):
    """The server refused a request as too long for its window; `window` is that window when the error says."""

    def __init__(self, message: str, *, status: int, detail: str, window: int | None) -> None:
        super().__init__(message, status=status, detail=detail)
        self.window = window


# How servers word a prompt that does not fit: vLLM and OpenAI ("maximum context length is N tokens"),
# llama-server ("exceeds the available context size", with n_ctx in the body), LM Studio ("context length of only").
_OVERFLOW = re.compile(
    r"maximum context length is (?P<max>\d+)|exceeds? the available context size|context length of only (?P<only>\d+)"
    r"|context_length_exceeded|exceed_context_size_error",
    re.IGNORECASE,
)


def unreachable(exc: BackendError) -> bool:
    """Whether nothing answered at the server's address (refused, or no connection in time): a job cannot run, and
    a question a server may simply not support (/models, /props) must not hide it."""
    return isinstance(exc.__cause__, httpx.ConnectError | httpx.ConnectTimeout)


@contextmanager
def map_http_errors(url: str, server: str = "model server") -> Iterator[None]:
    """Translate httpx exceptions raised inside the block into BackendErrors that name `url` and the fix."""
    try:
        yield
    except httpx.ConnectTimeout as exc:
        raise BackendHttpError(
            f"cannot reach the {server} at {url}: the connection timed out. Is the server running and reachable? "
            f"{BASE_URL_HINT}, or raise [backend].connect_timeout",
            retryable=True,
        ) from exc
    except httpx.ConnectError as exc:
        said = _describe_connect_error(exc)
        # Nothing listens there: waiting changes nothing, so the user hears it at once (a server still starting
        # up answers 503 while it loads, which is waited out).
        raise BackendHttpError(
            f"cannot reach the {server} at {url}: {said}. Is the server running? {BASE_URL_HINT}",
            retryable=said != "connection refused",
        ) from exc
    except httpx.ReadTimeout as exc:
        raise BackendHttpError(
            f"the {server} at {url} sent nothing for longer than the read timeout; the model may be stuck or too "
            "slow for this machine. Raise [backend].read_timeout or use a smaller model",
        ) from exc
    except httpx.TimeoutException as exc:
        raise BackendHttpError(
            f"the request to the {server} at {url} timed out ({type(exc).__name__}). "
            "Raise [backend].read_timeout / connect_timeout",
            retryable=True,
        ) from exc
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
        raise StreamCutError(
            f"the connection to the {server} at {url} was cut mid-reply ({exc or type(exc).__name__}). "
            "Did the server crash or run out of memory? Check its log",
            retryable=True,
        ) from exc
    except httpx.UnsupportedProtocol as exc:
        raise BackendHttpError(f"{url} is not an http(s) URL. {BASE_URL_HINT}") from exc
    except httpx.HTTPError as exc:
        raise BackendHttpError(f"the request to the {server} at {url} failed: {exc}. {BASE_URL_HINT}") from exc


def _describe_connect_error(exc: httpx.ConnectError) -> str:
    text = str(exc).lower()
    if "refused" in text:
        return "connection refused"
    if "name or service not known" in text or "nodename nor servname" in text or "getaddrinfo" in text:
        return "unknown host name"
    return str(exc) or "connection failed"


def extract_error_detail(body: str) -> str:
    """The human message inside an error body: OpenAI `{"error": {"message"}}`, Ollama `{"error": "..."}`, or text."""
    text = body.strip()
    try:
        payload = json.loads(text)
    except ValueError:
        return text[:500]
    if isinstance(payload, dict):
        error = payload.get("error", payload.get("detail", payload.get("message")))
        if isinstance(error, dict):
            message = error.get("message", error)
            return str(message)[:500]
        if error is not None:
            return str(error)[:500]
    return text[:500]


_TOOLS_REJECTION = re.compile(r"tool", re.IGNORECASE)
# llama-server answers {"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}} until its model
# is loaded; other servers word it their own way, always with "loading".
_LOADING = re.compile(r"\bloading\b", re.IGNORECASE)


def is_tools_rejection(status: int, detail: str) -> bool:
    """Whether an error says the server refuses the `tools` field (Ollama, llama-server without --jinja, ...)."""
    return status in (400, 422, 500, 501) and bool(_TOOLS_REJECTION.search(detail))


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header given in seconds; HTTP dates are ignored (local servers do not send them)."""
    if not value:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return max(seconds, 0.0)


def status_error(response: httpx.Response, url: str, server: str, *, sent_tools: bool) -> BackendError:
    """The BackendError for a non-2xx reply; the body must already be read."""
    status = response.status_code
    detail = extract_error_detail(response.text) or response.reason_phrase
    overflow = _OVERFLOW.search(detail) or _OVERFLOW.search(response.text)
    if status in (400, 413, 422, 500) and overflow is not None:
        window = overflow.group("max") or overflow.group("only") or _n_ctx(response.text)
        return ContextOverflowError(
            f"the {server} at {url} refused the request as longer than its context window: {detail}",
            status=status,
            detail=detail,
            window=int(window) if window else None,
        )
    if sent_tools and is_tools_rejection(status, detail):
        return ToolsRejectedError(detail)
    if status == 503 and (_LOADING.search(detail) or _LOADING.search(response.text)):
        return BackendHttpError(
            f"the {server} at {url} is still loading the model ({detail})",
            status=status,
            detail=detail,
            retryable=True,
            retry_after=parse_retry_after(response.headers.get("retry-after")),
            loading=True,
        )
    if status == 429 or status >= 500:
        return BackendHttpError(
            f"the {server} at {url} answered {status}: {detail}. It kept failing after retries; check the server log",
            status=status,
            detail=detail,
            retryable=True,
            retry_after=parse_retry_after(response.headers.get("retry-after")),
        )
    fix = _CLIENT_ERROR_FIXES.get(status, "Check the model name and the request options; the server log may say more")
    return BackendHttpError(f"the {server} at {url} answered {status}: {detail}. {fix}", status=status, detail=detail)


# What the person can do about a 4xx reply that retrying will not cure, by status.
_CLIENT_ERROR_FIXES = {
    401: f"The API key is missing or wrong: {API_KEY_HINT}",
    403: f"The API key is missing or wrong: {API_KEY_HINT}",
    404: f"Check the model name (--model) and the URL. {BASE_URL_HINT}",
}


def _n_ctx(body: str) -> str | None:
    """llama-server's `n_ctx` in an error body."""
    match = re.search(r'"n_ctx"\s*:\s*(\d+)', body)
    return match.group(1) if match else None


LOAD_TIMEOUT_KEY = "[backend].load_timeout"
# While a model loads, the person hears from pedro again after this much more waiting.
LOAD_NOTICE_EVERY = 30.0


@dataclass
class RetryPolicy:
    """Exponential backoff for transient failures; `sleep` is injectable so tests run instantly."""

    max_retries: int = config_default(BackendConfig, "max_retries")
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 30.0
    """A Retry-After longer than this is not honoured; the normal backoff applies instead."""
    sleep: Callable[[float], None] = field(default=time.sleep)
    load_timeout: float = config_default(BackendConfig, "load_timeout")
    """Most seconds to wait for a server that answers 503 while it loads its model ([backend].load_timeout)."""
    load_poll: float = 2.0
    """Seconds between asks while the model loads, when the server sends no Retry-After."""

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before retry number `attempt` (0-based)."""
        if retry_after is not None and retry_after <= self.max_retry_after:
            return retry_after
        return float(min(self.base_delay * 2**attempt, self.max_delay))

    def loading_delay(self, waited: float, retry_after: float | None) -> float | None:
        """Seconds to wait for a loading model after `waited` seconds of it: what the server asked for (or the poll
        interval), within the load timeout; None once the timeout is spent."""
        left = self.load_timeout - waited
        if left <= 0:
            return None
        return min(retry_after if retry_after is not None else self.load_poll, left)


def run_with_retries(attempt: Callable[[], T], policy: RetryPolicy, on_notice: Notify | None = None) -> T:
    """Call `attempt` until it succeeds, retrying retryable BackendHttpErrors with backoff, at most max_retries.

    A server still loading its model is waited out apart from that budget, for as long as it asks (Retry-After)
    within the load timeout; `on_notice` hears when the waiting starts and every LOAD_NOTICE_EVERY seconds after.
    """
    number = 0
    waited = 0.0
    told: float | None = None  # how long pedro had waited when it last said so
    while True:
        try:
            return attempt()
        except BackendHttpError as exc:
            if exc.loading:
                delay = policy.loading_delay(waited, exc.retry_after)
                if delay is None:
                    raise _still_loading(exc, waited, policy) from exc
                if on_notice is not None and (told is None or waited - told >= LOAD_NOTICE_EVERY):
                    on_notice(_loading_notice(waited, policy))
                    told = waited
                policy.sleep(delay)
                waited += delay
                continue
            if not exc.retryable:
                raise
            if number == policy.max_retries:
                if policy.max_retries == 0:
                    raise
                raise BackendHttpError(
                    f"{exc} (gave up after {number + 1} attempts; [backend].max_retries = {policy.max_retries})",
                    status=exc.status,
                    detail=exc.detail,
                ) from exc
            policy.sleep(policy.delay(number, exc.retry_after))
            number += 1


def _loading_notice(waited: float, policy: RetryPolicy) -> str:
    if waited == 0:
        return f"waiting for the server to load the model (up to {policy.load_timeout:g} s, {LOAD_TIMEOUT_KEY})"
    return f"still waiting for the server to load the model ({waited:.0f} s of {policy.load_timeout:g} s)"


def _still_loading(exc: BackendHttpError, waited: float, policy: RetryPolicy) -> BackendHttpError:
    return BackendHttpError(
        f"{exc}, and it still was after {waited:.0f} s ({LOAD_TIMEOUT_KEY} = {policy.load_timeout:g}). Wait until "
        f"its log says the model is loaded and run pedro again, or raise {LOAD_TIMEOUT_KEY} "
        "(PEDRO_BACKEND__LOAD_TIMEOUT)",
        status=exc.status,
        detail=exc.detail,
    )


def decode_json_object(text: str, *, url: str, server: str, what: str) -> dict[str, Any]:
    """Parse one JSON object from the server, or raise a BackendError that quotes the bad payload."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise BackendHttpError(
            f"the {server} at {url} sent malformed {what} (not JSON: {text[:200]!r}). "
            f"Is this really the server pedro expects? {BASE_URL_HINT}"
        ) from exc
    if not isinstance(value, dict):
        raise BackendHttpError(
            f"the {server} at {url} sent {what} that is not a JSON object: {text[:200]!r}. {BASE_URL_HINT}"
        )
    return value


def iter_ndjson(lines: Iterable[str], *, url: str, server: str) -> Iterator[dict[str, Any]]:
    """One JSON object per non-blank line, as Ollama streams them."""
    for line in lines:
        if line.strip():
            yield decode_json_object(line, url=url, server=server, what="stream line")


def build_timeout(connect_timeout: float, read_timeout: float) -> httpx.Timeout:
    """A short connect timeout and a long read timeout: local inference can pause for minutes between bytes."""
    return httpx.Timeout(read_timeout, connect=connect_timeout)
