"""The real product on a real tiny model: `pedro build` takes the direct way for SmolLM2-135M, checks the request's
example, and commits the function it adds, and only that."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_util import pedro_crashed
from repo_util import PYTEST

from pedro.backends.managed import find_llama_server

pytestmark = pytest.mark.e2e

CALC = '"""Arithmetic."""\n\n\ndef add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n'
TESTS = (
    "from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_mul():\n    assert mul(2, 3) == 6\n"
)
REQUEST = "Add a function sub(a, b) to calc.py that returns a minus b. Example: sub(5, 3) returns 2."


def git(repo: Path, *args: str) -> str:
    command = ["git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e", *args]
    return subprocess.run(command, cwd=repo, check=True, capture_output=True, text=True).stdout


def test_smollm2_adds_a_function_the_direct_way_and_its_example_is_checked(smollm2_gguf: Path, tmp_path: Path) -> None:
    binary = find_llama_server()
    if binary is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    repo = tmp_path / "calc"
    repo.mkdir()
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TESTS)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    env = {
        **os.environ,
        "PATH": f"{binary.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "GIT_AUTHOR_NAME": "e2e",
        "GIT_AUTHOR_EMAIL": "e2e@example.com",
        "GIT_COMMITTER_NAME": "e2e",
        "GIT_COMMITTER_EMAIL": "e2e@example.com",
        "PEDRO_AGENT__TEST_COMMAND": PYTEST,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH")])
        ),
    }
    command = [sys.executable, "-m", "pedro", "build", "--model-file", str(smollm2_gguf), "--no-input", "--json",
               "--time-limit", "240", "--description", REQUEST]  # fmt: skip
    run = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=400)

    assert not pedro_crashed(run.stderr + run.stdout), run.stderr[-3000:]
    events = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    finished = events[-1]
    assert finished["type"] == "job.finished"
    assert "pedro writes the code with the model directly" in run.stderr
    started = next(e for e in events if e["type"] == "build.started")
    assert started["function"] == "sub()" and started["path"] == "calc.py"
    assert started["examples"] == ["sub(5, 3) → 2"]
    assert finished["build"]["examples_checked"] == ["sub(5, 3) → 2"]
    # No tool calls from the model: it was asked for code.
    assert all(e.get("native_calls", 0) == 0 for e in events if e["type"] == "model.completed")
    assert (run.returncode, finished["reason"]) == (0, "built"), finished["summary"]
    assert "1 example from the request holds" in finished["summary"]
    # The commit holds the function and changes only calc.py.
    changed = git(repo, "show", "--name-only", "--format=", "HEAD").split()
    assert changed == ["calc.py"]
    namespace: dict[str, object] = {}
    exec(git(repo, "show", "HEAD:calc.py"), namespace)  # noqa: S102 (the committed file, checked as the user would)
    assert namespace["sub"](5, 3) == 2  # type: ignore[operator]
