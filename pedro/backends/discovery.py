"""The server to use when none is configured (the OpenAI-compatible default if it answers, else Ollama if it does),
and the model to use when none is given and the server lists exactly one."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from pedro.backends.base import RetryPolicy
from pedro.backends.connection import Connection
from pedro.backends.http import HttpTransport
from pedro.config import DEFAULT_BASE_URLS, PedroConfig, ollama_host_url
from pedro.errors import BackendError, PedroError

# Both servers are local or near: a refused port answers at once, and a silent one must not delay every start.
PROBE_CONNECT_TIMEOUT = 0.5
PROBE_READ_TIMEOUT = 2.0


@dataclass(frozen=True)
class FoundServer:
    """An Ollama server pedro found on its own, and how."""

    base_url: str
    how: str
    """What led to it: OLLAMA_HOST, or Ollama's default address."""

    def describe(self) -> str:
        """The notice that says which server pedro chose, and how to make the choice explicit."""
        return (
            f"no backend configured; using Ollama at {self.base_url} (found {self.how}); "
            "pass --backend ollama or set [backend].kind to choose it yourself"
        )

    def apply(self, config: PedroConfig) -> PedroConfig:
        """`config` pointed at this server."""
        found = config.model_copy(deep=True)
        found.backend.kind = "ollama"
        found.backend.base_url = self.base_url
        return found


def find_server(
    env: Mapping[str, str] | None = None,
    *,
    openai_url: str = DEFAULT_BASE_URLS["openai"],
    client: httpx.Client | None = None,
) -> FoundServer | None:
    """Ollama, when nothing answers at the OpenAI-compatible default and Ollama answers at OLLAMA_HOST (or its own
    default); None otherwise, so the default stands and its errors name it."""
    env = os.environ if env is None else env
    probe = Connection(
        openai_url,
        connect_timeout=PROBE_CONNECT_TIMEOUT,
        read_timeout=PROBE_READ_TIMEOUT,
        retry=RetryPolicy(max_retries=0),
        client=client,
    )
    transport = HttpTransport(probe, server="model server")
    try:
        if _answers(transport, openai_url + "/models"):
            return None
        given = env.get("OLLAMA_HOST", "").strip()
        url = ollama_host_url(given)
        if not _is_ollama(transport, url):
            return None
        return FoundServer(url, "through OLLAMA_HOST" if given else "at Ollama's default address")
    finally:
        transport.close()


def _answers(transport: HttpTransport, url: str) -> bool:
    """Whether any HTTP server answers at `url`, whatever it says."""
    try:
        transport.get_status(url)
    except BackendError:
        return False
    return True


def _is_ollama(transport: HttpTransport, base_url: str) -> bool:
    """Ollama answers GET /api/version with {"version": "..."}."""
    try:
        status, body = transport.get_status(base_url + "/api/version")
    except BackendError:
        return False
    try:
        reply = json.loads(body)
    except ValueError:
        return False
    return status == 200 and isinstance(reply, dict) and isinstance(reply.get("version"), str)


@dataclass(frozen=True)
class SoleModel:
    """The one model a server lists, which pedro uses when no model was given."""

    name: str
    base_url: str

    def describe(self) -> str:
        """The notice that says which model pedro chose, and how to pin it."""
        return (
            f"no model given; the server at {self.base_url} lists one model, {self.name}, so pedro uses it; "
            f"pass --model {self.name} or set [backend].model to pin it"
        )


def sole_model(config: PedroConfig) -> SoleModel | None:
    """The server's only model (Ollama's /api/tags, a /v1 server's /models), asked once without retries; None when
    it lists none or several, or cannot be asked (then the missing model is named as before)."""
    from pedro.backends import get_backend
    from pedro.backends.probe import probe_model

    quick = config.model_copy(deep=True)
    quick.backend.max_retries = 0
    quick.backend.load_timeout = 0
    quick.backend.read_timeout = min(quick.backend.read_timeout, PROBE_READ_TIMEOUT)
    try:
        backend = get_backend(quick)
    except PedroError:
        return None
    try:
        listed = probe_model(backend).available
    finally:
        backend.close()
    return SoleModel(listed[0], config.resolved_base_url()) if len(listed) == 1 else None
