"""pedro review on a real branch: without a model it lists what the project's ruff and tests find, each with its
source; with a real SmolLM2-135M (--model-file) the model's findings follow, each bounded and marked as the model's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro_crashed

from pedro.backends.managed import find_llama_server

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
NO_MODEL_SAID = "no model was asked"

BASE_CALC = "def add(a, b):\n    return a + b\n\n\ndef mean(values):\n    return sum(values) / len(values)\n"
# The branch makes add() subtract (line 2: test_add passed at the base, fails now) and adds a `== None` (line 10).
CHANGED_CALC = BASE_CALC.replace("a + b", "a - b") + "\n\ndef is_missing(x):\n    return x == None\n"
CALC_TESTS = (
    "from calc import add, mean\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mean():\n"
    "    assert mean([1, 2, 3]) == 2\n"
)
CHECKS = [
    ("tool", "test_calc.py::test_add", "test_calc.py", 5, "major"),
    ("tool", "ruff E711", "calc.py", 10, "minor"),
]
# What the limits allow: one reply of these many tokens, seconds, and the whole job's seconds.
MAX_TOKENS = 256
REPLY_SECONDS = 60
JOB_SECONDS = 300


def git(repo: Path, *args: str) -> str:
    command = ["git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e", *args]
    return subprocess.run(command, cwd=repo, check=True, capture_output=True, text=True).stdout


def branch_with_a_lint_and_a_broken_test(tmp_path: Path) -> Path:
    """main: calc.py, its passing tests, ruff configured in pyproject.toml; the branch `feature` breaks add() and
    adds a line ruff flags (E711)."""
    repo = tmp_path / "calc"
    repo.mkdir()
    (repo / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["E711"]\n')
    (repo / "calc.py").write_text(BASE_CALC)
    (repo / "test_calc.py").write_text(CALC_TESTS)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    git(repo, "switch", "-qc", "feature")
    (repo / "calc.py").write_text(CHANGED_CALC)
    git(repo, "commit", "-qam", "is_missing")
    return repo


def review(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`pedro review` in `repo`, with ruff and pytest beside the Python running these tests and llama-server on PATH."""
    binary = find_llama_server()
    path = [str(Path(sys.executable).parent), *([str(binary.parent)] if binary else []), os.environ.get("PATH", "")]
    env = {
        **os.environ,
        "PATH": os.pathsep.join(path),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "PEDRO_BACKEND__CONTEXT_WINDOW": "4096",
        "PEDRO_BACKEND__MAX_TOKENS": str(MAX_TOKENS),
        "PEDRO_BACKEND__REPLY_TIME_LIMIT_S": str(REPLY_SECONDS),
    }
    command = [sys.executable, "-m", "pedro", "review", "--base", "main", "--no-input", *args]
    return subprocess.run(
        command, cwd=repo, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=900
    )


def found(findings: list[dict[str, Any]]) -> list[tuple[str, str, str, int | None, str]]:
    return [(f["origin"], f["source"], f["path"], f["line"], f["severity"]) for f in findings]


def untouched(repo: Path) -> None:
    """The checkout is where it was: the branch, no tracked change, no worktree left behind."""
    assert git(repo, "branch", "--show-current").strip() == "feature"
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""
    assert len(git(repo, "worktree", "list").splitlines()) == 1


def test_review_without_a_model_lists_the_lint_and_the_broken_test_with_their_source(tmp_path: Path) -> None:
    repo = branch_with_a_lint_and_a_broken_test(tmp_path)
    proc = review(repo, "--no-model")
    assert proc.returncode == 0 and not pedro_crashed(proc.stderr), proc.stderr[-3000:]
    assert proc.stderr.count(NO_MODEL_SAID) == 1
    lines = proc.stdout.splitlines()
    assert len(lines) == 2, proc.stdout
    assert lines[0].startswith("1. **major** `test_calc.py:5` — test_calc.py::test_add passes at the base and fails")
    assert lines[0].endswith("_(test_calc.py::test_add)_")
    assert lines[1] == "2. **minor** `calc.py:10` — Comparison to `None` should be `cond is None` _(ruff E711)_"
    # The same, as the event a CI step reads.
    proc = review(repo, "--no-model", "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    finished = json.loads(proc.stdout)
    assert finished["type"] == "job.finished" and found(finished["findings"]) == CHECKS
    assert all(f["anchored"] for f in finished["findings"])
    untouched(repo)


def test_smollm2_adds_its_findings_after_the_checks_within_the_reply_limits(smollm2_gguf: Path, tmp_path: Path) -> None:
    if find_llama_server() is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    repo = branch_with_a_lint_and_a_broken_test(tmp_path)
    rounds = 2
    args = ["--model-file", str(smollm2_gguf), "--json", "--max-rounds", str(rounds), "--time-limit", str(JOB_SECONDS)]
    proc = review(repo, *args)
    assert not pedro_crashed(proc.stderr), proc.stderr[-3000:]
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    finished = events[-1]
    assert finished["type"] == "job.finished", proc.stderr[-3000:]
    # SmolLM2 seldom writes the completion marker: its review ends completed or at a limit, never in an error.
    assert (finished["exit_status"], proc.returncode) in {("completed", 0), ("limit_reached", 4)}, proc.stderr[-3000:]
    assert finished["totals"]["rounds"] <= rounds
    # Every reply stayed within [backend].max_tokens and reply_time_limit_s: ended by the model, the token limit, or
    # pedro's cut; never longer.
    answers = [e for e in events if e["type"] == "model.completed"]
    assert answers and len(answers) <= rounds
    for answer in answers:
        assert answer["usage"]["completion_tokens"] <= MAX_TOKENS
        assert answer["finish_reason"] in {"stop", "length", "time_limit", "repetition"}, answer["finish_reason"]
    # The checks' findings come first, with their source; whatever the model adds is marked as the model's, in its
    # own words from one of its replies, and held to the change.
    findings = finished["findings"]
    assert found(findings[: len(CHECKS)]) == CHECKS
    said = "\n".join(answer["text"] for answer in answers)
    for finding in findings[len(CHECKS) :]:
        assert (finding["origin"], finding["source"]) == ("model", "model"), finding
        assert finding["text"] and finding["text"] in said, finding
        assert finding["anchored"] or finding["note"], finding
    assert [f["number"] for f in findings] == list(range(1, len(findings) + 1))
    print(json.dumps(findings, indent=1), file=sys.stderr)  # what SmolLM2 added, in the test's output
    untouched(repo)
