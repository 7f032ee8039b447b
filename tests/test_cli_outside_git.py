"""--allow-outside-git through the real pedro process, and jobs that cannot start: none is ever left running."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, fenced, pedro
from repo_util import git


def jobs(root: Path) -> list[dict[str, Any]]:
    return [json.loads(path.read_text()) for path in sorted((root / ".pedro" / "jobs").glob("*/job.json"))]


def test_build_outside_git_works_without_snapshots(tmp_path: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "notes.txt").write_text("todo\n")
    write = fenced("file", {"action": "write", "path": "hello.txt", "content": "hello\n"})
    server = stub_server([write, fenced("bash", "cat hello.txt"), "TASK COMPLETE\nwrote hello.txt"])
    proc = build(server, plain, cli_env, "--allow-outside-git")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"{plain} is not a git repository: no snapshots, no job branch" in proc.stderr
    assert (plain / "hello.txt").read_text() == "hello\n"
    assert not (plain / ".git").exists()
    (job,) = jobs(plain)
    assert job["status"] == "completed" and job["exit_code"] == 0


def test_completion_outside_git_still_needs_a_change(tmp_path: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "notes.txt").write_text("todo\n")
    server = stub_server([fenced("file", {"action": "read", "path": "notes.txt"})] + ["TASK COMPLETE\nall done"] * 4)
    proc = build(server, plain, cli_env, "--allow-outside-git", "--max-rounds", "4")
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    (job,) = jobs(plain)
    assert job["status"] not in ("running", "completed")


def test_a_job_that_cannot_start_is_recorded_as_ended(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    # A merge in progress: git refuses to switch to the job's branch, after the job was created.
    git(repo, "switch", "-q", "-c", "other")
    (repo / "README.md").write_text("theirs\n")
    git(repo, "commit", "-q", "-am", "theirs")
    git(repo, "switch", "-q", "main")
    (repo / "README.md").write_text("ours\n")
    git(repo, "commit", "-q", "-am", "ours")
    merge = subprocess.run(["git", "merge", "other"], cwd=repo, capture_output=True, check=False)
    assert merge.returncode != 0, "the merge must stop on its conflict"
    proc = build(stub_server(["TASK COMPLETE"]), repo, cli_env)
    assert proc.returncode == 1 and "cannot switch branch while merging" in proc.stderr
    assert "Traceback" not in proc.stderr
    (job,) = jobs(repo)
    assert job["status"] == "failed" and job["exit_code"] == 1
    assert "cannot switch branch while merging" in job["summary"] and job["finished_at"]


def _read_only_mount(repo: Path) -> list[str]:
    """A command prefix that runs its command in `repo` mounted read-only (a mount namespace of its own, since root
    writes through file modes); skips the test where no such namespace can be made."""
    prefix = ["unshare", "-rm", "sh", "-c", 'mount --bind -o ro "$0" "$0" && cd "$0" && exec "$@"', str(repo)]
    probe = subprocess.run([*prefix, "sh", "-c", "! touch probe"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"no read-only mount here: {probe.stderr.decode(errors='replace').strip()}")
    return prefix


def test_a_read_only_repository_is_one_line_naming_the_fix(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-q", "-m", "calc")  # something for review to read
    server = stub_server(["TASK COMPLETE"])
    for command in (["build", "-d", "Fix add()"], ["review", "--base", "HEAD~1"]):
        args = [*command, "--base-url", f"{server.url}/v1", "--model", "m", "--no-input"]
        proc = subprocess.run(
            [*_read_only_mount(repo), sys.executable, "-m", "pedro", *args],
            env=cli_env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 2, proc.stderr
        assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        assert f"pedro: cannot write in {repo} (Read-only file system)" in proc.stderr, proc.stderr
        assert "work in a writable clone" in proc.stderr


@pytest.mark.parametrize("backend", ["ollama", "openai", "llamacpp"])
def test_a_job_whose_server_is_down_is_recorded_as_ended_at_once(
    repo: Path, cli_env: dict[str, str], backend: str
) -> None:
    import socket
    import time

    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    started = time.monotonic()
    url = f"http://127.0.0.1:{port}" + ("/v1" if backend == "openai" else "")
    env = {**cli_env, "PEDRO_AGENT__TEST_COMMAND": f'{sys.executable} -c \'open("ran", "w")\''}
    proc = pedro("build", "-d", "Fix add()", "--backend", backend, "--base-url", url, "--model", "m", "--no-input",
                 env=env, cwd=repo)  # fmt: skip
    assert proc.returncode == 3 and "connection refused" in proc.stderr, proc.stderr
    assert time.monotonic() - started < 30  # a refused connection is not retried
    (job,) = jobs(repo)
    assert job["status"] == "backend_error" and job["exit_code"] == 3 and job["finished_at"], job
    assert "connection refused" in job["summary"]
    listed = pedro("jobs", "list", env=cli_env, cwd=repo)
    assert "running" not in listed.stdout and "backend_error" in listed.stdout, listed.stdout
    # Found before the job touched anything: no snapshot, no job branch, no baseline run of the tests.
    refs = subprocess.run(["git", "for-each-ref", "refs/pedro", "refs/heads/pedro"], cwd=repo, capture_output=True,
                          text=True, check=True)  # fmt: skip
    assert refs.stdout == "" and not (repo / "ran").exists()
