"""num_ctx sizing for Ollama: model length, configured window, and the memory the KV cache would take."""

from __future__ import annotations

import json

import pytest
from wire_server import read_fixture

from pedro.backends.ollama_context import (
    DEFAULT_NUM_CTX,
    MIN_NUM_CTX,
    choose_num_ctx,
    context_length,
    kv_bytes_per_token,
    local_available_memory,
)

GIB = 1024**3
QWEN3 = json.loads(read_fixture("ollama/show.json"))["model_info"]  # recorded /api/show of qwen3:8b
LLAMA = {
    "general.architecture": "llama",
    "llama.context_length": 131072,
    "llama.block_count": 16,
    "llama.attention.head_count": 32,
    "llama.attention.head_count_kv": 8,
    "llama.embedding_length": 2048,
}


def test_kv_bytes_per_token_follows_the_model_shape() -> None:
    # 16 layers x 8 KV heads x (64 key + 64 value) x 2 bytes
    assert kv_bytes_per_token(LLAMA) == 16 * 8 * 128 * 2
    # without head_count_kv every head keeps its own keys and values
    assert kv_bytes_per_token(QWEN3) == 36 * 32 * 256 * 2
    assert kv_bytes_per_token({"general.architecture": "x"}) is None
    assert kv_bytes_per_token("not a mapping") is None


def test_per_layer_head_counts_count_by_their_largest() -> None:
    info = {**LLAMA, "llama.attention.head_count_kv": [8, 4, 8, 2]}
    assert kv_bytes_per_token(info) == 16 * 8 * 128 * 2


def test_configured_window_wins_but_never_passes_the_model() -> None:
    assert choose_num_ctx(LLAMA, 16384, available_bytes=None) == 16384
    assert choose_num_ctx(QWEN3, 100000, available_bytes=64 * GIB) == context_length(QWEN3) == 40960


def test_free_memory_caps_the_window_of_a_local_server() -> None:
    per_token = kv_bytes_per_token(LLAMA)
    assert per_token is not None
    window = choose_num_ctx(LLAMA, 0, available_bytes=2 * GIB)
    assert window * per_token <= 0.25 * 2 * GIB
    assert window % 1024 == 0 and window > DEFAULT_NUM_CTX
    assert choose_num_ctx(LLAMA, 0, available_bytes=512 * GIB) == 131072  # plenty of memory: the model's length


def test_tight_memory_still_gets_ollamas_default_and_unknown_memory_the_fixed_default() -> None:
    assert choose_num_ctx(QWEN3, 0, available_bytes=1 * GIB) == MIN_NUM_CTX
    assert choose_num_ctx(QWEN3, 0, available_bytes=None) == DEFAULT_NUM_CTX
    assert choose_num_ctx({}, 0, available_bytes=None) == DEFAULT_NUM_CTX


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:11434", True),
        ("http://localhost:11434", True),
        ("http://[::1]:11434", True),
        ("http://10.1.2.3:11434", False),
        ("http://gpu-box:11434", False),
    ],
)
def test_only_a_server_on_this_machine_is_sized_by_its_memory(url: str, local: bool) -> None:
    available = local_available_memory(url)
    assert (available is not None and available > 0) if local else available is None
