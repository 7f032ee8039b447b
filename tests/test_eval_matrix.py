"""`pedro eval --suite tasks`: tasks × profiles × trials against a server speaking the real wire, N runs at once,
scored by each task's hidden check, with one trace per run and both summaries."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro

pytestmark = pytest.mark.slow

SUITE = Path(__file__).resolve().parents[1] / "evals" / "tasks"
FIX = '```python\ndef add(a, b):\n    """Return the sum of a and b."""\n    return a + b\n```'


def test_a_small_matrix_runs_concurrently_and_is_summarised(
    stub_server: Any, repo: Path, cli_env: dict[str, str]
) -> None:
    server = stub_server([FIX] * 12)  # the model is asked beside the tests: a run may ask once more than it needs
    env = {
        **cli_env,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{cli_env.get('PATH', '')}",
        "PEDRO_REPAIR__CANDIDATES": "1",
        "PEDRO_REPAIR__RIVALS": "0",  # one answer per run: the four runs share the stub's four replies
        "PEDRO_REPAIR__MUTANTS": "0",  # and the answer, not a one-token variant, fixes the bug
    }
    args = ["eval", "--suite", "tasks", "--tasks-dir", str(SUITE), "--tasks", "py-add-sign"]
    args += ["--backend", "openai", "--base-url", f"{server.url}/v1", "--model", "m"]
    args += ["--profiles", "default,precise", "--trials", "2", "--jobs", "2", "--max-rounds", "2"]
    done = pedro(*args, env=env, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    (folder,) = (repo / ".pedro" / "evals").iterdir()
    summary = json.loads((folder / "summary.json").read_text())
    assert (summary["suite"], summary["complete"], summary["runs"], summary["ok"]) == ("tasks", True, 4, 4)
    assert summary["settings"]["profiles"] == ["default", "precise"] and summary["settings"]["jobs"] == 2
    groups = {(g["model"], g["profile"], g["mode"]): (g["ok"], g["runs"]) for g in summary["groups"]}
    assert groups == {("m", "default", "repair"): (2, 2), ("m", "precise", "repair"): (2, 2)}
    by_scenario = json.loads((folder / "summary_by_scenario.json").read_text())
    assert by_scenario["scenarios"]["py-add-sign"]["rate"] == 1.0
    runs = [json.loads(line) for line in (folder / "runs.jsonl").read_text().splitlines()]
    assert sorted(r["settings"]["PEDRO_TOOL_CALLING__SAMPLING_PROFILE"] for r in runs) == [
        "default",
        "default",
        "precise",
        "precise",
    ]
    for run in runs:
        events = [json.loads(line) for line in (folder / run["trace"]).read_text().splitlines()]
        assert events[-1]["type"] == "job.finished" and events[-1]["reason"] == "repaired"
    assert 4 <= len(server.requests) <= 8  # one repair answer per run, and at most one written ahead
    assert "py-add-sign" in done.stdout and "4/4 runs ok" in done.stdout


def test_an_unknown_profile_is_refused_before_any_run(repo: Path, cli_env: dict[str, str]) -> None:
    args = ["eval", "--suite", "tasks", "--tasks-dir", str(SUITE), "--model", "m", "--profiles", "sharp"]
    done = pedro(*args, env=cli_env, cwd=repo)
    assert done.returncode == 2
    assert "no sampling profile named sharp; choose from default, precise" in done.stderr
    assert not (repo / ".pedro" / "evals").exists()


def test_no_model_is_a_usage_error_naming_the_flags(repo: Path, cli_env: dict[str, str]) -> None:
    done = pedro("eval", "--suite", "tasks", "--tasks-dir", str(SUITE), env=cli_env, cwd=repo)
    assert done.returncode == 2
    assert "pass --model-file PATH (repeatable) or --model NAME" in done.stderr
