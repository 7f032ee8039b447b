"""The real `pedro` process writing into a pipe whose reader went away (`pedro jobs list | head -1`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from cli_util import fenced
from repo_util import git

from pedro.errors import CLOSED_STDOUT_EXIT_CODE
from pedro.jobstore import Job


def _add_jobs(repo: Path, count: int) -> None:
    """`count` finished jobs on record, each one line of `pedro jobs list`."""
    for n in range(count):
        job = Job(id=f"20260101-{n:06d}-beef", role="builder", task=f"task number {n} " * 4, backend="openai",
                  model="m", status="completed", started_at=1_767_225_600.0 + n)  # fmt: skip
        folder = repo / ".pedro" / "jobs" / job.id
        folder.mkdir(parents=True)
        (folder / "job.json").write_text(json.dumps(asdict(job)))


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["jobs", "list"], ["jobs", "show", "20260101-000000"]])
def test_a_stdout_nobody_reads_ends_quietly_with_141(args: list[str], repo: Path, cli_env: dict[str, str]) -> None:
    _add_jobs(repo, 1)
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before pedro writes a byte
    try:
        proc = subprocess.run([sys.executable, "-m", "pedro", *args], cwd=repo, env=cli_env, stdout=writer,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)  # fmt: skip
    finally:
        os.close(writer)
    assert proc.returncode == CLOSED_STDOUT_EXIT_CODE == 141
    assert proc.stderr == ""  # no traceback, no "Exception ignored ... BrokenPipeError"


def test_a_reader_that_stops_after_one_line_ends_pedro_quietly(repo: Path, cli_env: dict[str, str]) -> None:
    # More lines than a pipe holds: pedro is still writing when the reader leaves, as with `| head -1`.
    _add_jobs(repo, 1500)
    with subprocess.Popen([sys.executable, "-m", "pedro", "jobs", "list"], cwd=repo, env=cli_env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()
        stderr = proc.stderr.read()
        code = proc.wait(timeout=120)
    assert first.startswith("20260101-001499-beef")  # newest first
    assert code == CLOSED_STDOUT_EXIT_CODE
    assert stderr == ""


def test_a_job_whose_stdout_closed_finishes_and_keeps_its_record(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-qm", "calc")
    edit = fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"})
    server = stub_server([edit, "TASK COMPLETE\nadd() now adds."])  # its summary is written into the closed pipe
    reader, writer = os.pipe()
    os.close(reader)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pedro", "build", "-d", "Fix add()", "--base-url", f"{server.url}/v1",
             "--model", "m", "--no-input"],
            cwd=repo, env=cli_env, stdout=writer, stderr=subprocess.PIPE, text=True, timeout=300, check=False,
        )  # fmt: skip
    finally:
        os.close(writer)
    assert proc.returncode == CLOSED_STDOUT_EXIT_CODE, proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    # Nobody saw it, but the job ran to its end as it would have: the change made, the record complete.
    assert "a + b" in (repo / "calc.py").read_text()
    job = json.loads(next((repo / ".pedro" / "jobs").glob("*/job.json")).read_text())
    assert (job["status"], job["exit_code"]) == ("completed", 0)


REVIEW = (
    "TASK COMPLETE\n- [major] calc.py:2 — add() subtracts; return a + b\n- [nit] calc.py:5 — mul() has no docstring"
)


def _into_file(args: list[str], repo: Path, env: dict[str, str], out: Path) -> subprocess.CompletedProcess[str]:
    """`pedro ARGS </dev/null > OUT`: stdout a file, stderr captured, no input."""
    with out.open("w") as stdout:
        return subprocess.run([sys.executable, "-m", "pedro", *args], cwd=repo, env=env, stdin=subprocess.DEVNULL,
                              stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=300, check=False)  # fmt: skip


def test_a_review_redirected_to_a_file_writes_the_findings_alone(
    branch_repo: Path, stub_server: Any, cli_env: dict[str, str], tmp_path: Path
) -> None:
    server = stub_server([REVIEW])
    out = tmp_path / "review.md"
    args = ["review", "--base", "main", "--backend", "openai", "--base-url", f"{server.url}/v1", "--model", "m"]
    done = _into_file(args, branch_repo, cli_env, out)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == (
        "1. **major** `calc.py:2` — add() subtracts; return a + b _(model, not anchored: the change does not touch "
        "calc.py:2)_\n2. **nit** `calc.py:5` — mul() has no docstring _(model)_\n"
    )
    # Progress, notes and the raw reply went to stderr.
    for said in ("note: reviewing HEAD against main", "--- round 1", "TASK COMPLETE", "=== completed (exit 0)"):
        assert said in done.stderr


def test_a_build_in_a_pipe_prints_only_its_summary_on_stdout(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-qm", "calc")
    edit = fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"})
    server = stub_server([edit, "I changed calc.py.\nTASK COMPLETE\nadd() now adds."])
    done = subprocess.run(
        [sys.executable, "-m", "pedro", "build", "-d", "Fix add()", "--base-url", f"{server.url}/v1", "--model", "m",
         "--no-input"],
        cwd=repo, env=cli_env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "add() now adds.\n"
    assert "→ code_edit" in done.stderr and "working on branch pedro/" in done.stderr
    assert "I changed calc.py." in done.stderr  # the reply itself is progress


def test_triage_prints_its_diagnosis_on_stdout_and_its_annotations_on_stderr(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    log = "FAILED test_calc.py::test_add - assert -1 == 5\n=== 1 failed, 1 passed in 0.01s ===\n"
    server = stub_server(["TASK COMPLETE\n**Probable cause:** add() subtracts."])
    env = {**cli_env, "GITHUB_ACTIONS": "true"}
    done = subprocess.run(
        [sys.executable, "-m", "pedro", "triage", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input"],
        cwd=repo, env=env, input=log, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "**Probable cause:** add() subtracts.\n"
    assert "::error file=test_calc.py,title=test_calc.py%3A%3Atest_add::assert -1 == 5" in done.stderr.splitlines()


def test_json_keeps_stdout_to_json_lines(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server(["TASK COMPLETE\nnothing to do"])
    done = subprocess.run(
        [sys.executable, "-m", "pedro", "review", "--base", "HEAD", "--base-url", f"{server.url}/v1", "--model", "m",
         "--json"],
        cwd=repo, env=cli_env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    # Nothing to review: the usage error is on stderr, stdout stays empty.
    assert done.returncode == 2 and done.stdout == "" and "nothing to review" in done.stderr


@pytest.mark.parametrize(
    "args",
    [["jobs", "list"], ["chat", "hello", "--model", "m"], ["undo"]],
    ids=["jobs-list-empty", "chat-without-terminal", "undo-nothing"],
)
def test_notes_and_refusals_leave_stdout_empty(args: list[str], repo: Path, cli_env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "pedro", *args], cwd=repo, env=cli_env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.stdout == ""
    assert done.stderr.strip()
