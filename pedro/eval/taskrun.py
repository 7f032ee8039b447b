"""Run pedro on one task the way a user would (the `pedro` command in a fresh repository), then score it with
the task's own check, hidden tests included."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pedro.eval.tasks import Task

_GIT_IDENTITY = ("-c", "user.email=eval@example.com", "-c", "user.name=eval")
_IGNORED = shutil.ignore_patterns("__pycache__", ".pytest_cache", ".ruff_cache", "node_modules")


@dataclass(frozen=True)
class TaskResult:
    """How one run of pedro on one task went."""

    task: str
    tier: str
    language: str
    solved: bool
    exit_code: int | None
    reason: str
    """job.finished's reason (repaired, completed, tests_failed, …), or what went wrong around the job."""
    wall_s: float
    prompt_tokens: int = 0
    completion_tokens: int = 0
    rounds: int = 0
    repair_candidates: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def prepare_repository(task: Task, dest: Path) -> Path:
    """The task's repository copied to `dest` and committed, as the user's checkout would be."""
    shutil.copytree(task.repo, dest, ignore=_IGNORED)
    _git(dest, "init", "-q", "-b", "main")
    _git(dest, "add", "-A")
    _git(dest, *_GIT_IDENTITY, "commit", "-qm", "task")
    return dest


def pedro_command(task: Task, backend_args: Sequence[str], *, max_rounds: int) -> list[str]:
    """The command a user would type: debug with the test command for a bug, build with the request for a feature."""
    common = ["--no-input", "--json", "--max-rounds", str(max_rounds), *backend_args]
    if task.tier == "feature":
        return [sys.executable, "-m", "pedro", "build", "--description", task.description, *common]
    return [sys.executable, "-m", "pedro", "debug", "--test", task.test, "--description", task.description, *common]


def run_task(
    task: Task,
    workdir: Path,
    *,
    backend_args: Sequence[str],
    env: Mapping[str, str],
    repair: bool = True,
    max_rounds: int = 4,
    time_limit_s: float = 300.0,
) -> TaskResult:
    """One run of pedro on `task` in a fresh copy under `workdir`, scored by the task's check."""
    repo = prepare_repository(task, workdir / task.id)
    run_env = {
        **env,
        "PEDRO_REPAIR__ENABLED": "true" if repair else "false",
        # A feature's evidence is the task's own test command (a bug's comes with --test).
        "PEDRO_AGENT__TEST_COMMAND": task.test,
    }
    started = time.monotonic()
    command = pedro_command(task, backend_args, max_rounds=max_rounds)
    stdout, exit_code, timed_out = _run_limited(command, repo, run_env, time_limit_s)
    wall = time.monotonic() - started
    finished = _job_finished(stdout)
    totals = finished.get("totals", {}) if finished else {}
    reason = "timeout" if timed_out else str(finished.get("reason", "no_job")) if finished else "no_job"
    solved = score(task, repo, env)
    return TaskResult(
        task=task.id,
        tier=task.tier,
        language=task.language,
        solved=solved,
        exit_code=exit_code,
        reason=reason,
        wall_s=round(wall, 2),
        prompt_tokens=int(totals.get("prompt_tokens", 0)),
        completion_tokens=int(totals.get("completion_tokens", 0)),
        rounds=int(totals.get("rounds", 0)),
        repair_candidates=int(totals.get("repair_candidates", 0)),
    )


def score(task: Task, repo: Path, env: Mapping[str, str]) -> bool:
    """Whether the task's check passes on `repo` once its hidden tests are copied in."""
    if task.hidden.is_dir():
        shutil.copytree(task.hidden, repo, dirs_exist_ok=True, ignore=_IGNORED)
    try:
        done = subprocess.run(
            ["bash", "-c", task.check],
            cwd=repo,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=task.timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


def _run_limited(command: list[str], cwd: Path, env: Mapping[str, str], limit: float) -> tuple[str, int | None, bool]:
    """(stdout, exit code, timed out): the command in its own process group, ended whole at the limit."""
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, _ = process.communicate(timeout=limit)
        return stdout, process.returncode, False
    except subprocess.TimeoutExpired:
        # SIGINT first, as a person's Ctrl-C: pedro saves the job and stops its server; then the whole group.
        os.killpg(process.pid, signal.SIGINT)
        try:
            stdout, _ = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, _ = process.communicate()
        return stdout or "", process.returncode, True


def _job_finished(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.splitlines()):
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("type") == "job.finished":
            return event
    return None


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
