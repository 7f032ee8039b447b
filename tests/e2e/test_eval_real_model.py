"""`pedro eval` against reality: a tiny live matrix on a real llama-server (started by pedro, two slots) with
SmolLM2-135M and Gemma-3-270M, scored by the tasks' own checks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_util import pedro_crashed

from pedro.backends.managed import find_llama_server

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TASKS = ("py-add-sign", "py-is-even")
PROFILES = ("default", "precise")


def test_a_tiny_live_matrix_writes_both_summaries(smollm2_gguf: Path, gemma3_gguf: Path, repo: Path) -> None:
    binary = find_llama_server()
    if binary is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(binary.parent), str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "XDG_CONFIG_HOME": str(repo.parent / "xdg-config"),
        "PEDRO_BACKEND__CONTEXT_WINDOW": "4096",
        "PEDRO_BACKEND__MAX_TOKENS": "192",
    }
    command = [sys.executable, "-m", "pedro", "eval", "--suite", "tasks", "--tasks-dir", str(ROOT / "evals" / "tasks")]
    command += ["--tasks", ",".join(TASKS), "--profiles", ",".join(PROFILES), "--trials", "1", "--jobs", "2"]
    models = (smollm2_gguf, gemma3_gguf)
    for model in models:
        command += ["--model-file", str(model)]
    command += ["--time-limit", "240", "--max-rounds", "2"]
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=1800)
    assert not pedro_crashed(done.stderr), done.stderr[-3000:]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (folder,) = (repo / ".pedro" / "evals").iterdir()
    summary = json.loads((folder / "summary.json").read_text())
    by_scenario = json.loads((folder / "summary_by_scenario.json").read_text())
    assert summary["complete"] is True and summary["runs"] == len(TASKS) * len(PROFILES) * len(models)
    assert {group["profile"] for group in summary["groups"]} == set(PROFILES)
    assert {group["model"] for group in summary["groups"]} == {model.stem for model in models}
    assert set(by_scenario["scenarios"]) == set(TASKS)
    for entry in by_scenario["scenarios"].values():
        assert entry["runs"] == len(PROFILES) * len(models) and 0.0 <= entry["rate"] <= 1.0
        assert {group["profile"] for group in entry["by_group"]} == set(PROFILES)
    runs = [json.loads(line) for line in (folder / "runs.jsonl").read_text().splitlines()]
    for run in runs:
        assert run["ok"] or run["failure"], run
        trace = (folder / run["trace"]).read_text().splitlines()
        assert json.loads(trace[-1])["type"] == "job.finished"
    assert "per scenario" in done.stdout
