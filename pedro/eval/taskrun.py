"""Run pedro on one task the way a user would (the `pedro` command in a fresh repository), then score it with
the task's own check, hidden tests included, in the sandbox the test tool uses: the check runs code the model wrote."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from pedro import gitlayer
from pedro.debuglog import DEBUG_LOG_NAME
from pedro.eval.launch import Cancel, run_pedro
from pedro.eval.outcome import Outcome, failure_reason, read_events, read_outcome
from pedro.eval.taskfiles import copy_tree
from pedro.eval.tasks import Task
from pedro.process import OutputLimits, run_child, shell_command
from pedro.repair.frames import is_test_file
from pedro.safety.sandbox import wrap
from pedro.safety.secrets import child_environment

# The user's and the system's git config stay out: a signing key or a hook there must not decide a run.
_GIT_ENV: Final = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "eval",
    "GIT_AUTHOR_EMAIL": "eval@example.com",
    "GIT_COMMITTER_NAME": "eval",
    "GIT_COMMITTER_EMAIL": "eval@example.com",
}
CACHES: Final = ("__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", "node_modules")
"""Folders a local run of a task's tests leaves behind; never copied into a run's repository."""
_CHECK_OUTPUT: Final = OutputLimits(head_bytes=0, tail_bytes=4096, hard_cap_bytes=64 * 1024 * 1024)
"""The check's output goes to its log whole; only a runaway printer is stopped."""
_LOG_RECORD: Final = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ ([A-Z]+) ")
"""A record's first line in a job's debug.log (debuglog's format), with its level."""
_LOG_KEPT: Final = 20_000


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
    failure: str | None = None
    """Why the run failed (pedro.eval.outcome.failure_reason); None when solved."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class TaskRun:
    """A finished run: its result, its outcome as read from the events, the events themselves (the trace), and
    for a run stopped at its limit, the end of its stderr."""

    result: TaskResult
    outcome: Outcome
    stdout: str
    stderr: str = ""
    log: str = ""
    """What pedro's own log for the job said above debug level (a traceback it turned into data, a warning)."""


def commit_repository(repo: Path) -> Path:
    """`repo` made a git repository with everything in it committed, as the user's checkout would be."""
    gitlayer.output(repo, "init", "-q", "-b", "main", env=_GIT_ENV)
    gitlayer.output(repo, "add", "-A", env=_GIT_ENV)
    gitlayer.output(repo, "-c", "commit.gpgsign=false", "commit", "-qm", "task", env=_GIT_ENV)
    return repo


def prepare_repository(task: Task, dest: Path) -> Path:
    """The task's repository copied to `dest` (taskfiles.copy_tree: no link out, no `.git`) and committed."""
    dest.mkdir(parents=True, exist_ok=True)
    copy_tree(task.repo, dest, skip=CACHES)
    return commit_repository(dest)


def pedro_args(task: Task, backend_args: Sequence[str], *, max_rounds: int) -> list[str]:
    """The command a user would type: debug with the test command for a bug, build with the request for a feature."""
    common = ["--no-input", "--json", "--max-rounds", str(max_rounds), *backend_args]
    if task.tier == "feature":
        return ["build", "--description", task.description, *common]
    return ["debug", "--test", task.test, "--description", task.description, *common]


def job_time_limit(run_limit_s: float) -> float:
    """The job's own time limit inside a run limited to `run_limit_s`: room left for starting and stopping."""
    return max(run_limit_s - 10.0, run_limit_s * 0.75)


@dataclass(frozen=True)
class TaskLimits:
    """How far one run of pedro on a task may go: the rounds of its loop and the seconds the whole run takes."""

    max_rounds: int = 4
    time_limit_s: float = 300.0


def run_task(
    task: Task,
    workdir: Path,
    *,
    backend_args: Sequence[str],
    env: Mapping[str, str],
    limits: TaskLimits | None = None,
    cancel: Cancel | None = None,
) -> TaskRun:
    """One run of pedro on `task` in a fresh copy under `workdir`, scored by the task's check."""
    limits = limits or TaskLimits()
    repo = prepare_repository(task, workdir / task.id)
    run_env = {
        **env,
        # A feature's evidence is the task's own test command (a bug's comes with --test).
        "PEDRO_AGENT__TEST_COMMAND": task.test,
        # pedro ends the job itself (and records why) a little before the run's outer limit would kill it.
        "PEDRO_AGENT__TIME_LIMIT_S": f"{job_time_limit(limits.time_limit_s):g}",
    }
    args = pedro_args(task, backend_args, max_rounds=limits.max_rounds)
    launched = run_pedro(args, cwd=repo, env=run_env, time_limit_s=limits.time_limit_s, cancel=cancel)
    outcome = read_outcome(
        read_events(launched.stdout),
        exit_code=launched.exit_code,
        timed_out=launched.timed_out,
        interrupted=launched.interrupted,
    )
    solved = not launched.interrupted and score(task, repo, env)
    reason = "timeout" if launched.timed_out else outcome.reason if outcome.finished else "no_job"
    result = TaskResult(
        task=task.id,
        tier=task.tier,
        language=task.language,
        solved=solved,
        exit_code=launched.exit_code,
        reason=reason,
        wall_s=round(launched.wall_s, 2),
        prompt_tokens=outcome.prompt_tokens,
        completion_tokens=outcome.completion_tokens,
        rounds=outcome.rounds,
        repair_candidates=outcome.repair_candidates,
        failure=failure_reason(outcome, solved=solved),
    )
    return TaskRun(result, outcome, launched.stdout, launched.stderr, logged_above_debug(repo))


def logged_above_debug(repo: Path) -> str:
    """The records of the jobs' own logs (debug.log) at warning level or above, each with the lines that follow it
    (a traceback), at most _LOG_KEPT characters: what an eval keeps of a run beside its trace."""
    kept: list[str] = []
    for log in sorted(repo.glob(f".pedro/jobs/*/{DEBUG_LOG_NAME}")):
        with contextlib.suppress(OSError):
            keeping = False
            for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
                record = _LOG_RECORD.match(line)
                keeping = record.group(1) not in ("DEBUG", "INFO") if record else keeping
                if keeping:
                    kept.append(line)
    return "\n".join(kept)[:_LOG_KEPT]


def score(task: Task, repo: Path, env: Mapping[str, str], *, log: Path | None = None) -> bool:
    """Whether the task's check passes on `repo` once its own test files are back as the task ships them and its
    hidden tests are copied in; its output is appended to `log` when given. The check runs as the test tool runs
    tests: in the sandbox, with the child environment's allowlist, in its own process group ended whole at the task's
    timeout_s."""
    # A run that made the tests agree with the code has fixed nothing: the check is of the tests as they were.
    copy_tree(task.repo, repo, skip=CACHES, only=is_test_file)
    if task.hidden.is_dir():
        copy_tree(task.hidden, repo, skip=CACHES)
    command = wrap(shell_command(task.check, repo, child_environment(env)), root=repo, kind="test")
    with open(log, "ab") if log is not None else contextlib.nullcontext() as out:
        if out is not None:
            out.write(f"\n--- check: {task.check} (timeout {task.timeout_s} s)\n".encode())
            out.flush()
        try:
            result = run_child(command, timeout=task.timeout_s, limits=_CHECK_OUTPUT, tee=out)
        except OSError as exc:
            if out is not None:
                out.write(f"--- check could not start ({exc})\n".encode())
            return False
        if out is not None:
            ended = "timed out" if result.outcome == "timeout" else f"exit {result.exit_code}"
            out.write(f"--- check {ended}\n".encode())
    return result.outcome == "exited" and result.exit_code == 0
