"""`pedro eval --suite offline`: the real pedro command against the scripted provider, scenario by scenario; a
changed expectation is reported by name, and Ctrl-C keeps what was measured."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro

from pedro.eval.scenarios import SCENARIOS_DIR, load_scenarios

pytestmark = pytest.mark.slow


def eval_folder(repo: Path) -> Path:
    (folder,) = (repo / ".pedro" / "evals").iterdir()
    return folder


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def test_the_offline_suite_holds_and_writes_its_summaries(repo: Path, cli_env: dict[str, str]) -> None:
    done = pedro("eval", "--suite", "offline", "--jobs", "2", env=cli_env, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    folder = eval_folder(repo)
    summary, by_scenario = read(folder / "summary.json"), read(folder / "summary_by_scenario.json")
    cases = load_scenarios()
    assert summary["schema_version"] == by_scenario["schema_version"] == 1
    assert (summary["suite"], summary["complete"], summary["runs"], summary["ok"]) == (
        "offline",
        True,
        len(cases),
        len(cases),
    )
    assert set(by_scenario["scenarios"]) == {case.id for case in cases}
    assert all(entry["rate"] == 1.0 and entry["mismatches"] == [] for entry in by_scenario["scenarios"].values())
    # One trace per run: the job's own event stream, from job.started to job.finished.
    traces = sorted((folder / "traces").iterdir())
    assert len(traces) == len(cases)
    first = [json.loads(line) for line in traces[0].read_text().splitlines()]
    assert (first[0]["type"], first[-1]["type"]) == ("job.started", "job.finished")
    assert f"{len(cases)}/{len(cases)} runs as expected" in done.stdout


def test_a_changed_expectation_fails_the_run_naming_the_scenario(
    repo: Path, cli_env: dict[str, str], tmp_path: Path
) -> None:
    scenarios = tmp_path / "scenarios"
    shutil.copytree(SCENARIOS_DIR, scenarios)
    path = scenarios / "loop_guard.toml"
    path.write_text(path.read_text().replace('reason = "loop"', 'reason = "round_limit"'))
    args = ("eval", "--suite", "offline", "--scenarios", str(scenarios), "--tasks", "loop_guard,happy_path")
    done = pedro(*args, env=cli_env, cwd=repo)
    assert done.returncode == 1
    assert "FAIL loop_guard[relaxed]" in done.stderr
    assert "reason: expected 'round_limit', got 'loop'" in done.stderr
    entry = read(eval_folder(repo) / "summary_by_scenario.json")["scenarios"]["loop_guard[relaxed]"]
    assert (entry["ok"], entry["failures"]) == (0, [{"reason": "mismatch", "count": 1}])
    assert entry["mismatches"] == ["reason: expected 'round_limit', got 'loop'"]
    summary = read(eval_folder(repo) / "summary.json")
    assert (summary["runs"], summary["ok"]) == (3, 2)  # happy_path's two variants held, loop_guard's did not


@pytest.mark.serial
def test_ctrl_c_stops_the_evaluation_and_keeps_partial_results(repo: Path, cli_env: dict[str, str]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "pedro", "eval", "--suite", "offline", "--trials", "3"],
        cwd=repo,
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    runs = repo / ".pedro" / "evals"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(runs.glob("*/runs.jsonl")):
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stdout + stderr
    summary = read(eval_folder(repo) / "summary.json")
    assert summary["complete"] is False
    assert 1 <= summary["runs"] < summary["runs_planned"] == 3 * len(load_scenarios())
    assert f"interrupted: partial results ({summary['runs_done']} of {summary['runs_planned']} runs)" in stderr
    assert "Traceback" not in stderr
    # Nothing the evaluation started is left running.
    assert not [p for p in Path("/proc").glob("[0-9]*") if _child_of(p, process.pid)]


def test_a_bad_flag_is_a_usage_error_naming_the_fix(repo: Path, cli_env: dict[str, str]) -> None:
    done = pedro("eval", "--suite", "offline", "--tasks", "no_such_scenario", env=cli_env, cwd=repo)
    assert done.returncode == 2
    assert "no scenario named no_such_scenario" in done.stderr and "pedro eval --list" in done.stderr
    listed = pedro("eval", "--list", env=cli_env, cwd=repo)
    assert listed.returncode == 0 and "happy_path[stream]" in listed.stdout


def _child_of(proc: Path, pid: int) -> bool:
    try:
        fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return False
    return fields[1] == str(pid) and fields[0] != "Z" and os.getpid() != int(proc.name)


def test_an_evaluation_stopped_half_way_is_resumed_with_the_runs_it_had_not_made(
    repo: Path, cli_env: dict[str, str]
) -> None:
    args = ("eval", "--suite", "offline", "--tasks", "happy_path", "--trials", "2")
    assert pedro(*args, env=cli_env, cwd=repo).returncode == 0
    folder = eval_folder(repo)
    lines = (folder / "runs.jsonl").read_text().splitlines()
    runs = [json.loads(line) for line in lines]
    assert len(runs) == 4  # happy_path's two variants, two trials each
    # As Ctrl-C leaves it: one run never made, one cut short (it measured nothing), the summary not complete.
    cut = {**runs[1], "ok": False, "failure": "interrupted"}
    (folder / "runs.jsonl").write_text("".join(json.dumps(run) + "\n" for run in [runs[0], cut, runs[2]]))
    summary = read(folder / "summary.json")
    (folder / "summary.json").write_text(json.dumps({**summary, "complete": False}))

    done = pedro(*args, "--resume", str(folder), env=cli_env, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert eval_folder(repo) == folder  # no second evaluation
    again = [json.loads(line) for line in (folder / "runs.jsonl").read_text().splitlines()]
    assert sorted(run["run_id"] for run in again) == sorted(run["run_id"] for run in runs)
    assert [run for run in again if run["run_id"] == runs[0]["run_id"]] == [runs[0]]  # kept, not made again
    resumed = read(folder / "summary.json")
    assert (resumed["complete"], resumed["runs_done"], resumed["ok"], resumed["runs_interrupted"]) == (True, 4, 4, 0)
    assert resumed["started"] == summary["started"] and len(resumed["resumed"]) == 1


def test_resuming_with_other_settings_or_other_code_is_refused_naming_the_difference(
    repo: Path, cli_env: dict[str, str]
) -> None:
    args = ("eval", "--suite", "offline", "--tasks", "happy_path")
    assert pedro(*args, env=cli_env, cwd=repo).returncode == 0
    folder = eval_folder(repo)
    before = (folder / "runs.jsonl").read_text()
    other = pedro(*args, "--trials", "2", "--resume", str(folder), env=cli_env, cwd=repo)
    assert other.returncode == 2
    assert "trials: 1 then, 2 now" in other.stderr and "Give the flags it was started with" in other.stderr
    summary = read(folder / "summary.json")
    (folder / "summary.json").write_text(json.dumps({**summary, "pedro": {"version": "0.0.1", "commit": "0" * 40}}))
    older = pedro(*args, "--resume", str(folder), env=cli_env, cwd=repo)
    assert older.returncode == 2
    assert "started by pedro 0.0.1 at 000000000000" in older.stderr and "git checkout its commit" in older.stderr
    nowhere = pedro(*args, "--resume", str(repo / "nowhere"), env=cli_env, cwd=repo)
    assert nowhere.returncode == 2 and "no summary.json there" in nowhere.stderr
    assert (folder / "runs.jsonl").read_text() == before and "Traceback" not in older.stderr + other.stderr
