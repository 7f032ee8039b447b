"""The real `pedro` process with no backend configured: it finds Ollama on its own, and only then."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from cli_util import fenced, pedro
from repo_util import git

from pedro.config import DEFAULT_BASE_URLS


def _openai_default_answers() -> bool:
    """Whether something listens where the OpenAI-compatible default points (then pedro rightly keeps it)."""
    port = int(DEFAULT_BASE_URLS["openai"].split(":")[2].split("/")[0])
    with socket.socket() as sock:
        sock.settimeout(1.0)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def calc_repo(repo: Path) -> Path:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-q", "-m", "calc")
    return repo


@pytest.mark.skipif(_openai_default_answers(), reason="a server listens on the OpenAI-compatible default port")
def test_with_no_backend_configured_pedro_uses_the_ollama_it_finds(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    ollama = stub_server([fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"}), "TASK COMPLETE"])
    port = ollama.url.rsplit(":", 1)[1]
    env = {**cli_env, "OLLAMA_HOST": f"0.0.0.0:{port}"}
    proc = pedro("build", "-d", "Fix add()", "--model", "m", "--no-input", env=env, cwd=calc_repo)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert f"no backend configured; using Ollama at http://127.0.0.1:{port} (found through OLLAMA_HOST)" in output
    assert ollama.paths.count("/api/chat") == 2
    job_dir = next((calc_repo / ".pedro" / "jobs").iterdir())
    job = json.loads((job_dir / "job.json").read_text())
    assert (job["backend"], job["base_url"]) == ("ollama", f"http://127.0.0.1:{port}")

    # doctor says where the backend came from, and probes the server it found
    doctor = pedro("doctor", "--no-probe", "--json", env=env, cwd=calc_repo)
    report = json.loads(doctor.stdout)
    assert (report["backend"], report["base_url"]) == ("ollama", f"http://127.0.0.1:{port}")
    assert report["checks"][0]["key"] == "backend" and "found through OLLAMA_HOST" in report["checks"][0]["detail"]


def test_a_configured_backend_is_used_without_looking_for_another(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    openai, ollama = stub_server(["TASK COMPLETE\nadd() subtracts"]), stub_server([])
    (calc_repo / "ci.log").write_text("FAILED test_calc.py::test_add - assert -1 == 5\n")
    env = {**cli_env, "OLLAMA_HOST": ollama.url}
    proc = pedro("triage", "--log", "ci.log", "--base-url", f"{openai.url}/v1", "--model", "m", "--no-input",
                 env=env, cwd=calc_repo)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no backend configured" not in proc.stdout + proc.stderr
    assert len(openai.requests) == 1
    assert ollama.paths == []  # never probed


def test_commands_that_need_no_model_look_for_no_server(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    ollama = stub_server([])
    env = {**cli_env, "OLLAMA_HOST": ollama.url}
    for args in (["jobs", "list"], ["undo"], ["tools", "run", "git", '{"action": "status"}']):
        proc = pedro(*args, env=env, cwd=calc_repo)
        assert "no backend configured" not in proc.stdout + proc.stderr, args
    assert ollama.paths == []


@pytest.mark.parametrize("kind", ["ollama", "openai"])
def test_with_no_model_given_pedro_uses_the_one_model_the_server_lists(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str], kind: str
) -> None:
    edit = fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"})
    server = stub_server([edit, "TASK COMPLETE"], models=("qwen3:8b",), strict_models=True)
    url = server.url if kind == "ollama" else f"{server.url}/v1"
    proc = pedro("build", "-d", "Fix add()", "--backend", kind, "--base-url", url, "--no-input", env=cli_env,
                 cwd=calc_repo)  # fmt: skip
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert f"no model given; the server at {url} lists one model, qwen3:8b, so pedro uses it" in output
    assert "pass --model qwen3:8b or set [backend].model to pin it" in output
    assert [request["model"] for request in server.requests] == ["qwen3:8b", "qwen3:8b"]
    job_dir = next((calc_repo / ".pedro" / "jobs").iterdir())
    assert json.loads((job_dir / "job.json").read_text())["model"] == "qwen3:8b"

    doctor = pedro("doctor", "--no-probe", "--json", "--backend", kind, "--base-url", url, env=cli_env, cwd=calc_repo)
    report = json.loads(doctor.stdout)
    model = next(check for check in report["checks"] if check["key"] == "model")
    assert (doctor.returncode, report["model"], model["status"]) == (0, "qwen3:8b", "ok"), model
    assert "lists one model, qwen3:8b, so pedro uses it" in model["detail"]


def test_with_several_models_listed_the_model_must_be_named(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server(["TASK COMPLETE"], models=("qwen3:8b", "llama3.2"))
    proc = pedro("build", "-d", "Fix add()", "--backend", "ollama", "--base-url", server.url, "--no-input",
                 env=cli_env, cwd=calc_repo)  # fmt: skip
    assert proc.returncode == 2 and "no model given: pass --model NAME" in proc.stderr, proc.stdout + proc.stderr
    assert server.requests == []
    assert "or --model-file PATH to a .gguf that pedro serves" in proc.stderr  # the other way to name a model
