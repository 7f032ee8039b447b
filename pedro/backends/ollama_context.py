"""num_ctx for an Ollama job: the model's length, capped by the configured window or by its KV cache's memory."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

# Without a configured window or a known memory budget (a remote server), pedro asks for this much.
DEFAULT_NUM_CTX = 8192
# Ollama's own default; pedro never asks for less, however tight memory is.
MIN_NUM_CTX = 2048
# The KV cache of one job may take at most this share of the memory free when the job starts.
KV_MEMORY_SHARE = 0.25
# Ollama keeps the KV cache in 16-bit floats unless told otherwise.
KV_BYTES_PER_VALUE = 2


def choose_num_ctx(model_info: Any, configured: int, available_bytes: int | None) -> int:
    """The window for every request of a job: model maximum, capped by config, else by memory, else the default."""
    model_length = context_length(model_info)
    if configured:
        cap = configured
    else:
        per_token = kv_bytes_per_token(model_info)
        if per_token and available_bytes:
            cap = max(MIN_NUM_CTX, int(available_bytes * KV_MEMORY_SHARE / per_token) // 1024 * 1024)
        else:
            cap = DEFAULT_NUM_CTX
    return min(model_length, cap) if model_length else cap


def context_length(model_info: Any) -> int | None:
    """`<arch>.context_length` from /api/show's model_info."""
    value = _arch_value(model_info, "context_length")
    return value if value and value > 0 else None


def kv_bytes_per_token(model_info: Any) -> int | None:
    """Bytes of KV cache one token of context takes, from the model's shape; None when /api/show does not say."""
    layers = _arch_value(model_info, "block_count")
    heads = _arch_value(model_info, "attention.head_count")
    kv_heads = _arch_value(model_info, "attention.head_count_kv") or heads
    width = _arch_value(model_info, "embedding_length")
    key = _arch_value(model_info, "attention.key_length") or (width // heads if width and heads else None)
    value = _arch_value(model_info, "attention.value_length") or key
    if not (layers and kv_heads and key and value):
        return None
    return layers * kv_heads * (key + value) * KV_BYTES_PER_VALUE


def local_available_memory(base_url: str) -> int | None:
    """Free memory of this machine when the server runs on it (a loopback URL); None for a remote server."""
    host = urlsplit(base_url).hostname or ""
    try:
        local = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        local = False
    if not local:
        return None
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _arch_value(model_info: Any, key: str) -> int | None:
    """`<arch>.<key>` as an int; per-layer lists (some models vary heads by layer) count by their largest entry."""
    if not isinstance(model_info, Mapping):
        return None
    arch = model_info.get("general.architecture")
    value = model_info.get(f"{arch}.{key}") if isinstance(arch, str) else None
    if value is None:
        value = next((v for k, v in model_info.items() if k.endswith(f".{key}")), None)
    if isinstance(value, list):
        value = max((v for v in value if isinstance(v, int)), default=None)
    return value if isinstance(value, int) and not isinstance(value, bool) else None
