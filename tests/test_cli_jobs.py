"""`pedro jobs show` and `pedro undo` on jobs the real `pedro` process ran against a stub server, in real repos."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, pedro
from cli_util import fenced as call
from repo_util import git


@pytest.fixture
def calc_repo(repo: Path) -> Path:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-q", "-m", "calc")
    return repo


def fix_add(server_factory: Any, repo: Path, env: dict[str, str]) -> tuple[str, Any]:
    """A builder job that changes calc.py; its id and the server it ran on."""
    server = server_factory([call("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"}), "TASK COMPLETE"])
    proc = build(server, repo, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return newest_job(repo, env), server


def review(server_factory: Any, repo: Path, env: dict[str, str], base: str) -> str:
    """A reviewer job, which changes nothing; its id."""
    server = server_factory(["TASK COMPLETE\nno findings"])
    proc = pedro("review", "--base", base, "--base-url", f"{server.url}/v1", "--model", "m", "--no-input",
                 env=env, cwd=repo)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return newest_job(repo, env)


def newest_job(repo: Path, env: dict[str, str]) -> str:
    return pedro("jobs", "list", env=env, cwd=repo).stdout.split()[0]


def test_jobs_show_prints_the_facts_then_the_jobs_diff(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    job, server = fix_add(stub_server, calc_repo, cli_env)
    shown = pedro("jobs", "show", job, env=cli_env, cwd=calc_repo)
    assert shown.returncode == 0, shown.stderr
    rows = shown.stdout
    for row in (
        "role       builder",
        "status     completed (exit 0)",
        "reason     completed",
        f"model      m on openai at {server.url}/v1",
        f"branch     pedro/{job}",
        "rounds     2 (1 tool call)",
        f"snapshots  2, latest refs/pedro/snapshots/{job}/2",
        "changed    calc.py",
    ):
        assert row in rows, row
    assert "started    " in rows and "ended      " in rows and "tokens     " in rows
    # then what the job changed, from its first snapshot to its last
    diff = rows[rows.index("changes (from the job's first snapshot to its last)") :]
    assert "diff --git a/calc.py b/calc.py" in diff and "-    return a - b\n+    return a + b" in diff
    assert rows.index("changes (") < rows.index("\nrounds\n")

    facts = json.loads(pedro("jobs", "show", job, "--json", env=cli_env, cwd=calc_repo).stdout)
    assert (facts["role"], facts["status"], facts["exit_code"], facts["reason"]) == (
        "builder",
        "completed",
        0,
        "completed",
    )
    assert (facts["model"], facts["server"], facts["branch"]) == ("m", f"{server.url}/v1", f"pedro/{job}")
    assert facts["rounds"] == 2 and facts["tool_calls"] == 1
    assert facts["tokens"]["total"] == facts["tokens"]["prompt"] + facts["tokens"]["completion"] > 0
    assert [s["ref"] for s in facts["snapshots"]] == [f"refs/pedro/snapshots/{job}/{n}" for n in (1, 2)]
    assert facts["changed_files"] == ["calc.py"] and "+    return a + b" in facts["diff"]
    assert facts["started_at"] <= facts["finished_at"]
    assert facts["job"]["id"] == job and facts["events"][-1]["type"] == "job.finished"


def test_jobs_are_listed_and_shown_by_what_the_person_asked_not_by_the_roles_wording(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server(["I see no bug.", "Still none.", "None."])
    pedro("debug", "-d", "add() returns the difference", "--base-url", f"{server.url}/v1", "--model", "m",
          "--no-input", env=cli_env, cwd=calc_repo)  # fmt: skip
    listed = pedro("jobs", "list", env=cli_env, cwd=calc_repo).stdout
    assert "add() returns the difference" in listed and "Fix this failure" not in listed, listed
    job = listed.split()[0]
    shown = pedro("jobs", "show", job, env=cli_env, cwd=calc_repo).stdout
    assert "task       add() returns the difference" in shown, shown
    facts = json.loads(pedro("jobs", "show", job, "--json", env=cli_env, cwd=calc_repo).stdout)
    assert facts["request"] == "add() returns the difference" and "add() returns the difference" in facts["task"]


def test_on_a_terminal_jobs_show_colours_the_diff(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    import os
    import subprocess
    import sys

    job, _ = fix_add(stub_server, calc_repo, cli_env)
    main, terminal = os.openpty()
    env = {**cli_env, "TERM": "xterm-256color", "COLUMNS": "120"}
    env.pop("NO_COLOR", None)
    try:
        proc = subprocess.run([sys.executable, "-m", "pedro", "jobs", "show", job], cwd=calc_repo, env=env,
                              stdout=terminal, stderr=subprocess.DEVNULL, timeout=60, check=False)  # fmt: skip
        os.close(terminal)
        shown = b""
        while chunk := _read(main):
            shown += chunk
    finally:
        os.close(main)
    assert proc.returncode == 0
    text = shown.decode(errors="replace")
    added = next(line for line in text.splitlines() if "return a + b" in line)
    assert "\x1b[" in added, text  # coloured, as git colours it


def _read(fd: int) -> bytes:
    import os

    try:
        return os.read(fd, 65536)
    except OSError:  # the terminal's other end closed: all was read
        return b""


def test_undo_without_a_job_takes_the_latest_job_that_changed_files(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    builder, _ = fix_add(stub_server, calc_repo, cli_env)
    reviewer = review(stub_server, calc_repo, cli_env, "main")  # newer, and it changed nothing
    assert newest_job(calc_repo, cli_env) == reviewer != builder
    undone = pedro("undo", env=cli_env, cwd=calc_repo)
    assert undone.returncode == 0, undone.stderr
    assert undone.stderr.startswith(f"undoing job {builder}, the latest job that changed files")
    assert "return a - b" in (calc_repo / "calc.py").read_text()


def test_undo_says_so_when_no_job_changed_a_file(calc_repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    (calc_repo / "README.md").write_text("# sample\nmy note\n")  # something to review
    review(stub_server, calc_repo, cli_env, "HEAD")
    undone = pedro("undo", env=cli_env, cwd=calc_repo)
    assert undone.returncode == 2
    assert "none of the 1 job in this repository changed a file, so there is nothing to undo" in undone.stderr
    assert "my note" in (calc_repo / "README.md").read_text()
