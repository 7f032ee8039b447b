"""Model backends by wire protocol; get_backend() builds the one the configuration names."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx

    from pedro.backends.base import Backend
    from pedro.config import PedroConfig

# kind -> "module:Class"; imported on first use so start-up stays fast.
BACKENDS: dict[str, str] = {
    "openai": "pedro.backends.openai_compat:OpenAICompatBackend",
    "llamacpp": "pedro.backends.llamacpp:LlamaCppBackend",
    "ollama": "pedro.backends.ollama:OllamaBackend",
}


def get_backend(config: PedroConfig, *, client: httpx.Client | None = None) -> Backend:
    """The backend for [backend].kind, talking to the configured server through `client` if one is given."""
    module_name, _, class_name = BACKENDS[config.backend.kind].partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    backend: Backend = cls.from_config(config, client=client)
    return backend


__all__ = ["BACKENDS", "get_backend"]
