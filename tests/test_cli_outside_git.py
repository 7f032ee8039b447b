"""--allow-outside-git through the real pedro process, and jobs that cannot start: none is ever left running."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from cli_util import build, fenced
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
