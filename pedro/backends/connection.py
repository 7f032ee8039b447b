"""Connection: where a model server is and how pedro talks to it, the one thing every HTTP backend is given."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import httpx

from pedro.backends.base import RetryPolicy, build_timeout
from pedro.config import BackendConfig, config_default
from pedro.errors import BackendError

if TYPE_CHECKING:
    from pedro.config import PedroConfig


@dataclass(frozen=True)
class Connection:
    """A model server's base URL, its bearer token, the timeouts and the retry policy of every request to it.

    `client` or `transport` (httpx's own injection points: a stub server's client, an `httpx.MockTransport`) replace
    the network; a client belongs to whoever made it, while one built around `transport` is the backend's to close.
    """

    base_url: str
    api_key: str | None = None
    connect_timeout: float = config_default(BackendConfig, "connect_timeout")
    read_timeout: float = config_default(BackendConfig, "read_timeout")
    request_timeout: float = config_default(BackendConfig, "request_timeout")
    """Most seconds one request may take from start to last byte ([backend].request_timeout)."""
    reply_time_limit: float | None = None
    """Most seconds one model reply may stream ([backend].reply_time_limit_s); None or 0 sets no limit."""
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    client: httpx.Client | None = None
    transport: httpx.BaseTransport | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "base_url", self.base_url.rstrip("/"))

    @classmethod
    def from_config(
        cls, config: PedroConfig, *, client: httpx.Client | None = None, sleep: Callable[[float], None] = time.sleep
    ) -> Connection:
        """The connection [backend] describes: the one place its URL, key, timeouts and retries are read."""
        backend = config.backend
        return cls(
            config.resolved_base_url(),
            api_key=read_api_key(config),
            connect_timeout=backend.connect_timeout,
            read_timeout=backend.read_timeout,
            request_timeout=backend.request_timeout,
            reply_time_limit=backend.reply_time_limit_s,
            retry=RetryPolicy(max_retries=backend.max_retries, sleep=sleep, load_timeout=backend.load_timeout),
            client=client,
        )

    @property
    def headers(self) -> dict[str, str]:
        """The headers every request carries: the bearer token, when there is one."""
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    @property
    def timeout(self) -> httpx.Timeout:
        return build_timeout(self.connect_timeout, self.read_timeout)

    def open_client(self) -> tuple[httpx.Client, bool]:
        """The client to send through, and whether the caller owns it (and so closes it)."""
        if self.client is not None:
            return self.client, False
        return httpx.Client(timeout=self.timeout, transport=self.transport), True


def read_api_key(config: PedroConfig) -> str | None:
    """The bearer token from the environment variable named by [backend].api_key_env, if one is named; else
    OPENAI_API_KEY when the server is the one OPENAI_BASE_URL names (the pair the OpenAI SDKs read)."""
    name = config.backend.api_key_env
    if not name:
        paired = (
            config.backend.kind == "openai"
            and not config.backend.base_url
            and os.environ.get("OPENAI_BASE_URL", "").strip()
        )
        return (os.environ.get("OPENAI_API_KEY", "").strip() or None) if paired else None
    value = os.environ.get(name, "").strip()
    if not value:
        raise BackendError(
            f"[backend].api_key_env names the environment variable {name}, but it is not set; "
            f"export {name}=<key> or clear api_key_env"
        )
    return value
