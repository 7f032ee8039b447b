"""A job's commits and the user's work, under bubblewrap and under Landlock: the commits a job makes itself (its git
tool, a command it ran) are the job's, and undo takes them back to the job's start byte for byte, refusing only for
commits made outside the job; the commit pedro makes holds only the job's change, never the user's edits."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, fenced, pedro
from repo_util import PYTEST, git

CALC = "def add(a, b):\n    return a + b\n"
SUB = CALC + "\n\ndef sub(a, b):\n    return a - b\n"
TESTS = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
WRITE = fenced("file", {"action": "write", "path": "calc.py", "content": SUB})
DELETE = fenced("file", {"action": "delete", "path": "scratch.txt"})
GIT_COMMIT = fenced("git", {"action": "commit", "paths": ["calc.py"], "message": "Add sub"})
# A program that commits (a release script, a make target): what bash runs without asking under full access.
COMMITTING_SCRIPT = (
    "import subprocess as s; s.run(['git', 'add', 'calc.py']); s.run(['git', 'commit', '-qm', 'Add sub'])"  # noqa: E501
)
BASH_COMMIT = fenced("bash", {"command": f'python3 -c "{COMMITTING_SCRIPT}"'})
DONE = "TASK COMPLETE\nsub() returns a minus b, committed."
MINE = "# my own notes, not committed yet\n\n"


@pytest.fixture
def calc(repo: Path) -> Path:
    """calc.py on main; the user's edits pending: one unstaged, one staged, one untracked file."""
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TESTS)
    git(repo, "add", "calc.py", "test_calc.py")
    git(repo, "commit", "-qm", "calc")
    (repo / "README.md").write_text("# sample\n\nmy own edit\n")
    (repo / "notes.txt").write_text("staged by me\n")
    git(repo, "add", "notes.txt")
    (repo / "scratch.txt").write_text("my scratch, never added\n")
    return repo


@pytest.fixture
def env(cli_env: dict[str, str], sandbox_env: dict[str, str]) -> dict[str, str]:
    test_command = PYTEST
    return {**cli_env, **sandbox_env, "PYTHONDONTWRITEBYTECODE": "1", "PEDRO_AGENT__TEST_COMMAND": test_command}


def state(repo: Path) -> dict[str, Any]:
    """Everything undo must put back: each file's bytes, the index, HEAD and the branch."""
    files: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(repo):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".pedro", "__pycache__", ".pytest_cache")]
        for name in filenames:
            path = Path(dirpath, name)
            files[path.relative_to(repo).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return {
        "files": files,
        "index": git(repo, "ls-files", "-s"),
        "status": git(repo, "status", "--porcelain", "--untracked-files=all"),
        "head": git(repo, "rev-parse", "HEAD").strip(),
        "branch": git(repo, "branch", "--show-current").strip(),
    }


def run_build(server: Any, repo: Path, env: dict[str, str], *extra: str) -> tuple[str, str]:
    proc = build(server, repo, env, *extra, description="Add sub(a, b) to calc.py and commit it")
    said = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "Traceback" not in said, said
    (job,) = [p.name for p in (repo / ".pedro" / "jobs").iterdir() if p.is_dir()]
    return job, said


def run_job(server: Any, repo: Path, env: dict[str, str], *extra: str) -> str:
    return run_build(server, repo, env, *extra)[0]


def undo_until_done(repo: Path, env: dict[str, str], *args: str) -> list[str]:
    """`pedro undo JOB ARGS` until there is nothing left to undo; what each printed."""
    said: list[str] = []
    for _ in range(6):
        proc = pedro("undo", *args, env=env, cwd=repo)
        said.append(proc.stdout + proc.stderr)
        if proc.returncode != 0:
            assert "nothing to undo" in said[-1], said
            return said
    raise AssertionError(f"undo never ran out of steps: {said}")


@pytest.mark.parametrize("how", [["--start"], [], ["--force"]], ids=["start", "step-by-step", "force"])
def test_undo_after_the_model_committed_through_the_git_tool_restores_the_start_byte_for_byte(
    calc: Path, stub_server: Any, env: dict[str, str], how: list[str]
) -> None:
    before = state(calc)
    # Full access lets the model delete a file no commit holds (the user's untracked one): the worst it can do.
    job = run_job(stub_server([WRITE, DELETE, GIT_COMMIT, DONE]), calc, env, "--full-access")
    message = git(calc, "log", "-1", "--format=%B", f"pedro/{job}")
    assert message.startswith("Add sub") and f"Pedro-Job: {job}" in message, message
    assert not (calc / "scratch.txt").exists()

    said = undo_until_done(calc, env, job, *how)
    assert "has moved on" not in "".join(said), said
    assert state(calc) == before
    assert git(calc, "branch", "--list", "pedro/*").strip() == ""


def test_a_commit_from_a_command_the_job_ran_is_the_job_s_too(
    calc: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    before = state(calc)
    # Only without a sandbox (.git is read-only in both) and with full access may the model's own command commit.
    env = {**cli_env, "PYTHONDONTWRITEBYTECODE": "1", "PEDRO_AGENT__TEST_COMMAND": PYTEST}
    unconfined = {**env, "PEDRO_SANDBOX": "off"}
    job = run_job(stub_server([WRITE, BASH_COMMIT, DONE]), calc, unconfined, "--full-access")
    message = git(calc, "log", "-1", "--format=%B", f"pedro/{job}")
    assert message.startswith("Add sub\n") and f"Pedro-Job: {job}" in message, message
    events = (calc / ".pedro" / "jobs" / job / "events.jsonl").read_text()
    assert '"commits": [' in events and ' Add sub"]' in events, events

    undone = pedro("undo", job, "--start", env=env, cwd=calc)
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert state(calc) == before


def test_undo_refuses_only_for_commits_made_outside_the_job_and_names_the_command_that_keeps_them(
    calc: Path, stub_server: Any, env: dict[str, str]
) -> None:
    start = git(calc, "rev-parse", "HEAD").strip()
    job = run_job(stub_server([WRITE, GIT_COMMIT, DONE]), calc, env)
    (calc / "more.py").write_text("x = 1\n")
    git(calc, "add", "more.py")
    git(calc, "commit", "-qm", "my own work on top")
    mine = git(calc, "rev-parse", "HEAD").strip()

    refused = pedro("undo", job, "--start", env=env, cwd=calc)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "my own work on top" in refused.stderr and "Add sub" not in refused.stderr, refused.stderr
    keep = f"git branch my-work {mine[:12]}"
    assert keep in refused.stderr, refused.stderr
    assert git(calc, "rev-parse", "HEAD").strip() == mine and (calc / "calc.py").read_text() == SUB

    git(calc, *keep.split()[1:])  # as the refusal says
    undone = pedro("undo", job, "--start", env=env, cwd=calc)
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert (calc / "calc.py").read_text() == CALC
    assert git(calc, "rev-parse", "HEAD").strip() == start
    assert git(calc, "rev-parse", "my-work").strip() == mine  # the user's commit is kept where they put it


def test_the_commit_holds_only_the_job_s_change_and_the_user_s_edit_in_the_same_file_comes_back_to_main(
    calc: Path, stub_server: Any, env: dict[str, str]
) -> None:
    (calc / "calc.py").write_text(MINE + CALC)  # the user's uncommitted edit, in the file the job changes
    write = fenced("file", {"action": "write", "path": "calc.py", "content": MINE + SUB})
    job, said = run_build(stub_server([write, DONE]), calc, env)
    branch = f"pedro/{job}"

    assert git(calc, "show", f"{branch}:calc.py") == SUB  # the job's hunk, without the user's
    assert (calc / "calc.py").read_text() == MINE + SUB
    assert "your own uncommitted edits in calc.py are not in the commit" in said, said
    (back,) = [line for line in said.splitlines() if "returns you" in line]
    command = back.split("`")[1]
    assert command == "git stash && git switch main && git stash pop", back

    for step in command.split(" && "):  # the command the end line gives, as the user would type it
        git(calc, *step.split()[1:])
    assert git(calc, "branch", "--show-current").strip() == "main"
    assert (calc / "calc.py").read_text() == MINE + CALC  # the user's edit came along, the job's change did not
    assert (calc / "README.md").read_text() == "# sample\n\nmy own edit\n"
    assert git(calc, "status", "--porcelain", "--untracked-files=no").splitlines() == [
        " M README.md",
        " M calc.py",
        "A  notes.txt",
    ]


def test_a_user_s_edit_on_the_lines_the_job_changed_is_named_and_nothing_is_committed(
    calc: Path, stub_server: Any, env: dict[str, str]
) -> None:
    mine = CALC.replace("return a + b", "return a + b  # checked by hand")
    (calc / "calc.py").write_text(mine)
    theirs = SUB.replace("return a + b", "return b + a")
    write = fenced("file", {"action": "write", "path": "calc.py", "content": theirs})
    job, said = run_build(stub_server([write, DONE]), calc, env)

    assert git(calc, "rev-list", "--count", f"main..pedro/{job}").strip() == "0"
    notice = " ".join(line for line in said.splitlines() if "left uncommitted" in line)
    assert "in calc.py, your uncommitted edits and the job's change touch the same lines" in notice, said
    assert "nothing was committed" in notice
    assert (calc / "calc.py").read_text() == theirs  # the job's work is in the working tree, uncommitted
    assert "`git switch main` returns you (uncommitted changes come along)" in said.replace("\n", " "), said
