"""pedro triage on a real tiny model: SmolLM2-135M, started by pedro from --model-file, diagnoses the demo's failing
test log, and repair in a throwaway worktree gives a verified patch that applies to the untouched checkout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_util import pedro_crashed
from jsonschema import Draft7Validator
from repo_util import PYTEST

from pedro.backends.managed import find_llama_server

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TESTS = PYTEST
SARIF_SCHEMA = ROOT / "tests" / "fixtures" / "sarif-schema-2.1.0.json"


def git(repo: Path, *args: str) -> str:
    command = ["git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e", *args]
    return subprocess.run(command, cwd=repo, check=True, capture_output=True, text=True).stdout


def checkout_state(repo: Path) -> tuple[str, str, str, dict[str, bytes]]:
    """What the checkout holds: its status, branches, worktrees, and every file's bytes, outside .git and .pedro
    (where pedro keeps the job's record, which git ignores)."""
    files = {
        path.relative_to(repo).as_posix(): path.read_bytes()
        for path in sorted(repo.rglob("*"))
        if path.is_file() and not {".git", ".pedro"} & set(path.relative_to(repo).parts)
    }
    status = git(repo, "status", "--porcelain", "--untracked-files=all")
    return status, git(repo, "branch", "--list"), git(repo, "worktree", "list", "--porcelain"), files


def test_smollm2_triage_reports_a_verified_patch_and_leaves_the_checkout_as_it_was(
    smollm2_gguf: Path, tmp_path: Path
) -> None:
    binary = find_llama_server()
    if binary is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    # The demo's project: add() subtracts, test_add fails, the other two tests pass.
    repo = tmp_path / "calc"
    shutil.copytree(ROOT / "examples" / "calc", repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "sample project")
    failing = subprocess.run(TESTS.split(), cwd=repo, capture_output=True, text=True, timeout=120)
    assert failing.returncode == 1 and "test_add" in failing.stdout, failing.stdout
    before = checkout_state(repo)
    env = {
        **os.environ,
        "PATH": f"{binary.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg-config"),
        "PEDRO_BACKEND__CONTEXT_WINDOW": "4096",
        "PEDRO_AGENT__TEST_COMMAND": TESTS,
    }
    report, sarif = tmp_path / "triage.json", tmp_path / "triage.sarif"
    command = [sys.executable, "-m", "pedro", "triage", "--model-file", str(smollm2_gguf), "--no-input"]
    command += ["--report", str(report), "--sarif", str(sarif)]
    run = subprocess.run(command, cwd=repo, env=env, input=failing.stdout, capture_output=True, text=True, timeout=900)
    assert not pedro_crashed(run.stderr), run.stderr[-3000:]
    assert report.is_file(), run.stdout[-3000:] + run.stderr[-3000:]
    data = json.loads(report.read_text(encoding="utf-8"))
    fix = data["verified_fix"]
    assert fix is not None, run.stderr[-3000:]
    assert fix["verified"] is True and (fix["failing_before"], fix["failing_after"]) == (1, 0)
    assert fix["test_command"] == TESTS and "+    return a + b" in fix["diff"]
    assert f"verified: `{TESTS}` passes with this patch; 1 failing → 0" in run.stderr
    # The checkout is byte for byte what it was: the repair ran in a throwaway worktree, now gone.
    assert checkout_state(repo) == before
    # The patch applies to it as it is, and with it the tests pass.
    patch = tmp_path / "fix.patch"
    patch.write_text(fix["diff"], encoding="utf-8")
    subprocess.run(["git", "apply", "--check", str(patch)], cwd=repo, check=True)
    applied = tmp_path / "applied"
    shutil.copytree(repo, applied)
    subprocess.run(["git", "apply", str(patch)], cwd=applied, check=True)
    assert subprocess.run(TESTS.split(), cwd=applied, capture_output=True, text=True, timeout=120).returncode == 0
    # The SARIF carries the same fix and validates.
    sarif_data = json.loads(sarif.read_text(encoding="utf-8"))
    Draft7Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(sarif_data)
    (result,) = sarif_data["runs"][0]["results"]
    (change,) = result["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "calc.py"
