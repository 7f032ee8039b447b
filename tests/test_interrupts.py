"""Ctrl-C and crashes against the real pedro process: a second Ctrl-C exits at once, interrupted rounds are told."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, fenced, pedro
from repo_util import git

# Each test times a signal against a child: alone, not beside busy workers (make test runs these last).
pytestmark = pytest.mark.serial


def start_build(server: Any, repo: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "pedro", "build", "-d", "x", "--base-url", f"{server.url}/v1", "--model", "m"]
        + ["--no-input"],
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(condition: Any, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


def only_job(repo: Path) -> str:
    (job,) = [p.name for p in (repo / ".pedro" / "jobs").iterdir()]
    return job


def two_writes_then_a_long_command() -> str:
    return "\n".join(
        [
            fenced("file", {"action": "write", "path": "a.py", "content": "a = 1\n"}),
            fenced("file", {"action": "write", "path": "b.py", "content": "b = 2\n"}),
            fenced("bash", "sleep 60"),
        ]
    )


def test_second_ctrl_c_during_cleanup_exits_at_once(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    # Many untracked files make the job-end snapshot (the cleanup after the first Ctrl-C) take a while.
    bulk = repo / "bulk"
    bulk.mkdir()
    for i in range(30000):
        (bulk / f"f{i}.txt").write_bytes(os.urandom(256))
    server = stub_server([fenced("bash", "echo changed > changed.txt; sleep 60")])
    proc = start_build(server, repo, cli_env)
    wait_for(lambda: (repo / "changed.txt").exists(), seconds=120)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.2)
    second = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=30)
    assert time.monotonic() - second < 1.5, stderr
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted again: exiting now" in stderr
    job_dir = repo / ".pedro" / "jobs" / only_job(repo)
    for name in ("job.json",):
        json.loads((job_dir / name).read_text())  # whole, never half-written
    assert not list(job_dir.glob("*.tmp"))


def test_ctrl_c_mid_round_reports_the_files_that_changed(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server([two_writes_then_a_long_command()])
    proc = start_build(server, repo, cli_env)
    wait_for(lambda: (repo / "b.py").exists())
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    job = only_job(repo)
    assert f"job {job} was interrupted after changing a.py, b.py; `pedro undo {job}` restores" in stderr


def test_a_killed_job_is_reported_at_the_next_start_and_undo_restores(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([two_writes_then_a_long_command()])
    proc = start_build(server, repo, cli_env)
    wait_for(lambda: (repo / "b.py").exists())
    time.sleep(0.5)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    job = only_job(repo)
    (repo / ".a.py.pedro-0a1b2c3d").write_text("a temporary file a crash left behind\n")

    again = stub_server(["Looking.", "Still looking."])
    second = build(again, repo, cli_env, "--max-rounds", "1")
    output = second.stdout + second.stderr
    assert f"job {job} was interrupted after changing a.py, b.py; `pedro undo {job}` restores" in output, output
    assert "removed 1 leftover temporary file(s) of interrupted writes: .a.py.pedro-0a1b2c3d" in output
    assert not (repo / ".a.py.pedro-0a1b2c3d").exists()
    third = build(again, repo, cli_env, "--max-rounds", "1")
    assert "was interrupted" not in third.stdout + third.stderr

    undone = pedro("undo", job, env=cli_env, cwd=repo)
    assert undone.returncode == 0, undone.stderr
    assert not (repo / "a.py").exists() and not (repo / "b.py").exists()


def test_resuming_after_ctrl_c_mid_call_sends_a_well_formed_conversation(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # Native calls: the assistant message holds two ids; the interrupted one and the one never run get results.
    native = {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "call_0",
                "type": "function",
                "function": {"name": "bash", "arguments": json.dumps({"command": "touch started.txt; sleep 60"})},
            },
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "file", "arguments": json.dumps({"action": "read", "path": "README.md"})},
            },
        ],
    }
    server = stub_server([native, "TASK COMPLETE nothing else to do"])
    proc = start_build(server, repo, cli_env)
    wait_for(lambda: (repo / "started.txt").exists())
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode == 130
    job = only_job(repo)
    resumed = pedro("jobs", "resume", job, "--base-url", f"{server.url}/v1", "--no-input", env=cli_env, cwd=repo)
    assert "Traceback" not in resumed.stderr, resumed.stderr
    messages = server.requests[-1]["messages"]
    calls = next(m for m in messages if m.get("tool_calls"))
    answered = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert answered == [c["id"] for c in calls["tool_calls"]] == ["call_0", "call_1"]
    assert all("interrupted it" in m["content"] for m in messages if m["role"] == "tool")


def test_resuming_after_ctrl_c_mid_fenced_call_does_not_end_on_the_calls(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    reply = "\n".join([fenced("bash", "touch started.txt; sleep 60"), fenced("file", {"action": "read", "path": "x"})])
    server = stub_server([reply, "TASK COMPLETE nothing else to do"])
    proc = start_build(server, repo, cli_env)
    wait_for(lambda: (repo / "started.txt").exists())
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode == 130
    pedro("jobs", "resume", only_job(repo), "--base-url", f"{server.url}/v1", "--no-input", env=cli_env, cwd=repo)
    messages = server.requests[-1]["messages"]
    calls_at = max(i for i, m in enumerate(messages) if m["role"] == "assistant" and "started.txt" in m["content"])
    after = messages[calls_at + 1]
    assert after["role"] == "user" and after["content"].count("the user interrupted it") == 2


def test_sigterm_saves_the_job_like_ctrl_c_and_exits_143(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server([two_writes_then_a_long_command()])
    proc = start_build(server, repo, cli_env)
    wait_for(lambda: (repo / "b.py").exists())
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)  # how a CI runner cancels a job
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 143, stderr
    job = only_job(repo)
    record = json.loads((repo / ".pedro" / "jobs" / job / "job.json").read_text())
    assert record["status"] == "interrupted" and record["exit_code"] == 143
    events = [json.loads(line) for line in (repo / ".pedro" / "jobs" / job / "events.jsonl").read_text().splitlines()]
    finished = [e for e in events if e["type"] == "job.finished"]
    assert len(finished) == 1 and finished[0]["reason"] == "terminated"
    assert f"job {job} was interrupted after changing a.py, b.py" in stderr
    assert not [p for p in (repo / ".git").glob("pedro-index-*")]


def test_a_second_job_in_the_same_repository_is_refused_while_the_first_runs(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([two_writes_then_a_long_command()])
    first = start_build(server, repo, cli_env)
    wait_for(lambda: (repo / "b.py").exists())
    branch_before = git(repo, "branch", "--show-current").strip()
    second = build(stub_server(["TASK COMPLETE\nnothing"]), repo, cli_env, "--max-rounds", "1")
    assert second.returncode == 2, second.stderr
    assert f"pedro (PID {first.pid}, pedro builder" in second.stderr and "is already changing this repository" in (
        second.stderr
    )
    assert git(repo, "branch", "--show-current").strip() == branch_before  # nothing switched under the first
    first.send_signal(signal.SIGINT)
    first.communicate(timeout=30)
    review = pedro("undo", env=cli_env, cwd=repo)  # the lock ended with the first job
    assert "already changing" not in review.stderr


def test_a_job_left_running_by_a_killed_pedro_is_marked_interrupted_at_the_next_start(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([two_writes_then_a_long_command()])
    proc = start_build(server, repo, cli_env)
    wait_for(lambda: (repo / "b.py").exists())
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    job = only_job(repo)
    assert json.loads((repo / ".pedro" / "jobs" / job / "job.json").read_text())["status"] == "running"
    again = build(stub_server(["Looking."]), repo, cli_env, "--max-rounds", "1")
    assert f"job {job} was left running by a pedro process that is gone: marked interrupted" in again.stderr + (
        again.stdout
    )
    record = json.loads((repo / ".pedro" / "jobs" / job / "job.json").read_text())
    assert record["status"] == "interrupted" and f"pedro jobs resume {job}" in record["summary"]


def test_ctrl_c_while_pedro_starts_exits_quietly() -> None:
    # Ctrl-C every 4 ms of the first 0.14 s, then later, while pedro imports its command line: never a traceback
    # through pedro's own code. (Before pedro's first line runs, the interpreter's own start-up may still print one.)
    from pedro.messages import EXIT_CODES
    from pedro.startup import INTERRUPTED_EXIT_CODE

    assert EXIT_CODES["interrupted"] == INTERRUPTED_EXIT_CODE
    for delay in [step / 1000 for step in range(20, 140, 4)] + [0.2, 0.3]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pedro", "jobs", "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=30)
        said = stderr.decode(errors="replace")
        assert not _pedro_frames(said), (delay, said)


def _pedro_frames(stderr: str) -> list[str]:
    """The frames of pedro's own code in a traceback, but for the one import that installs the handler (a Ctrl-C
    before it lands in the interpreter's start-up, which no program can catch)."""
    frames = re.findall(r'File "([^"]*)", line (\d+)', stderr.partition("Traceback")[2])
    ours = [f"{path}:{line}" for path, line in frames if f"{os.sep}pedro{os.sep}" in path]
    return [
        frame
        for frame in ours
        if not frame.endswith(("__main__.py:3", "startup.py:3", "startup.py:4", "startup.py:5", "startup.py:6"))
    ]
