"""issue 21, must hold 3: a completed job leaves one commit on pedro/<job>, undo takes it back, --pr publishes it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, fenced, pedro
from repo_util import PYTEST, git

TITLE = "Add a function sub(a, b) to calc.py that returns a minus b"
CALC = "def add(a, b):\n    return a + b\n"
SUB = CALC + "\n\ndef sub(a, b):\n    return a - b\n"
TESTS = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
REPLIES = [
    fenced("file", {"action": "write", "path": "calc.py", "content": SUB}),
    "TASK COMPLETE\nsub() returns a minus b.",
]
# Records each call's argv and, for `pr create`, the body file it was given; `auth status` succeeds.
GH = """#!/bin/sh
printf '%s\\0' "$@" >> "$GH_LOG"
printf '\\n' >> "$GH_LOG"
if [ "$1" = pr ]; then
  while [ $# -gt 0 ]; do
    if [ "$1" = --body-file ]; then cp "$2" "$GH_BODY"; fi
    shift
  done
  echo https://github.example/acme/calc/pull/7
fi
exit 0
"""


@pytest.fixture
def calc(repo: Path) -> Path:
    """calc.py with add() and its passing test on main; the user's own edits, staged and not, are left pending."""
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TESTS)
    git(repo, "add", "calc.py", "test_calc.py")
    git(repo, "commit", "-qm", "calc")
    (repo / "README.md").write_text("# sample\n\nmy own edit\n")
    (repo / "notes.txt").write_text("staged by me\n")
    git(repo, "add", "notes.txt")
    return repo


@pytest.fixture
def env(cli_env: dict[str, str]) -> dict[str, str]:
    return {**cli_env, "PYTHONDONTWRITEBYTECODE": "1", "PEDRO_AGENT__TEST_COMMAND": PYTEST}


def only_job(repo: Path) -> str:
    (job,) = [p.name for p in (repo / ".pedro" / "jobs").iterdir() if p.is_dir()]
    return job


def run_build(server: Any, repo: Path, env: dict[str, str], *extra: str) -> tuple[str, str]:
    proc = build(server, repo, env, *extra, description=TITLE)
    said = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "Traceback" not in said, said
    return only_job(repo), said


def test_a_completed_build_leaves_one_commit_of_its_files_as_the_user_and_undo_takes_it_back(
    calc: Path, stub_server: Any, env: dict[str, str]
) -> None:
    main = git(calc, "rev-parse", "main").strip()
    job, said = run_build(stub_server(REPLIES), calc, env)
    branch = f"pedro/{job}"

    assert git(calc, "branch", "--show-current").strip() == branch
    assert git(calc, "rev-parse", "main").strip() == main  # the user's branch never moves
    assert git(calc, "rev-list", "--count", f"main..{branch}").strip() == "1"
    author, *message = git(calc, "log", "-1", "--format=%an <%ae>%n%B", branch).splitlines()
    assert author == "Dev <dev@example.com>"
    assert message[0] == TITLE and len(message[0]) < 72
    body = "\n".join(message)
    assert "sub() returns a minus b." in body and f"Pedro-Job: {job}" in body
    assert f"{PYTEST}`: pass (1 passed)" in body, body  # the job's evidence: its last test run
    # The evidence in sentences, not a dump of the record.
    assert "Before the job, `" in body and "The tests back the change." in body, body
    assert "holds:" not in body and "notes:" not in body, body
    assert git(calc, "show", "--format=", "--name-only", branch).split() == ["calc.py"]
    assert git(calc, "status", "--porcelain", "--untracked-files=no").splitlines() == [" M README.md", "A  notes.txt"]
    short = git(calc, "rev-parse", "--short=7", branch).strip()
    assert f"committed {short} on {branch}: {TITLE}" in said, said

    undone = pedro("undo", job, env=env, cwd=calc)
    shown = undone.stdout + undone.stderr
    assert undone.returncode == 0, shown
    assert (calc / "calc.py").read_text() == CALC
    assert (calc / "README.md").read_text() == "# sample\n\nmy own edit\n"
    assert git(calc, "status", "--porcelain", "--untracked-files=no").splitlines() == [" M README.md", "A  notes.txt"]
    assert git(calc, "branch", "--show-current").strip() == "main"
    assert git(calc, "rev-parse", "main").strip() == main
    assert git(calc, "branch", "--list", "pedro/*").strip() == ""
    assert f"moved branch {branch} back to {main[:7]}" in shown and "back on main" in shown, shown


@pytest.mark.parametrize("how", ["--no-commit", "PEDRO_AGENT__COMMIT=false"])
def test_no_commit_leaves_the_edits_uncommitted(calc: Path, stub_server: Any, env: dict[str, str], how: str) -> None:
    extra = (how,) if how.startswith("--") else ()
    if not extra:
        name, value = how.split("=")
        env = {**env, name: value}
    job, said = run_build(stub_server(REPLIES), calc, env, *extra)
    assert git(calc, "rev-list", "--count", f"main..pedro/{job}").strip() == "0"
    assert " M calc.py" in git(calc, "status", "--porcelain").splitlines()
    assert "note: committed" not in said


def test_without_a_git_identity_the_job_says_how_to_set_one_and_commits_nothing(
    calc: Path, stub_server: Any, env: dict[str, str], tmp_path: Path
) -> None:
    git(calc, "config", "--unset", "user.email")
    git(calc, "config", "--unset", "user.name")
    home = tmp_path / "no-identity-home"
    home.mkdir()
    bare = {k: v for k, v in env.items() if not k.startswith(("GIT_AUTHOR_", "GIT_COMMITTER_")) and k != "EMAIL"}
    job, said = run_build(stub_server(REPLIES), calc, {**bare, "HOME": str(home), "GIT_CONFIG_GLOBAL": os.devnull})
    assert git(calc, "rev-list", "--count", f"main..pedro/{job}").strip() == "0"
    assert " M calc.py" in git(calc, "status", "--porcelain").splitlines()
    notices = [line for line in said.splitlines() if "left uncommitted" in line]
    assert len(notices) == 1 and "git config --global user.email" in notices[0], said


def test_undo_refuses_when_the_user_moved_the_job_branch_on(calc: Path, stub_server: Any, env: dict[str, str]) -> None:
    job, _ = run_build(stub_server(REPLIES), calc, env)
    (calc / "more.py").write_text("x = 1\n")
    git(calc, "add", "more.py")
    git(calc, "commit", "-qm", "my own work on top")
    mine = git(calc, "rev-parse", "HEAD").strip()

    undone = pedro("undo", job, env=env, cwd=calc)
    assert undone.returncode == 2, undone.stdout + undone.stderr
    assert f"pedro/{job} has moved on" in undone.stderr and "my own work on top" in undone.stderr
    assert git(calc, "rev-parse", "HEAD").strip() == mine and (calc / "calc.py").read_text() == SUB


def with_gh(env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "gh").write_text(GH)
    (tools / "gh").chmod(0o755)
    return {
        **env,
        "PATH": f"{tools}{os.pathsep}{env['PATH']}",
        "GH_LOG": str(tmp_path / "gh.log"),
        "GH_BODY": str(tmp_path / "gh-body.md"),
    }


def with_origin(repo: Path) -> Path:
    remote = repo.parent / "origin.git"
    git(repo.parent, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    return remote


def gh_calls(tmp_path: Path) -> list[list[str]]:
    log = tmp_path / "gh.log"
    if not log.exists():
        return []
    return [line.split("\0")[:-1] for line in log.read_text().splitlines() if line]


def test_pr_pushes_the_branch_and_opens_a_pull_request_with_gh(
    calc: Path, stub_server: Any, env: dict[str, str], tmp_path: Path
) -> None:
    remote = with_origin(calc)
    job, said = run_build(stub_server(REPLIES), calc, with_gh(env, tmp_path), "--pr", "--full-access")
    branch = f"pedro/{job}"
    assert git(remote, "rev-parse", branch).strip() == git(calc, "rev-parse", branch).strip()
    body_file = str(calc / ".pedro" / "jobs" / job / "pull-request.md")
    assert gh_calls(tmp_path) == [
        ["auth", "status"],
        ["pr", "create", "--head", branch, "--title", TITLE, "--body-file", body_file],
    ]
    body = (tmp_path / "gh-body.md").read_text()
    assert "sub() returns a minus b." in body and "pass (1 passed)" in body, body
    assert "pull request opened: https://github.example/acme/calc/pull/7" in said, said


def test_pr_under_no_input_is_refused_without_full_access(
    calc: Path, stub_server: Any, env: dict[str, str], tmp_path: Path
) -> None:
    remote = with_origin(calc)
    job, said = run_build(stub_server(REPLIES), calc, with_gh(env, tmp_path), "--pr")
    assert "--pr: refused under --no-input" in said and "--full-access" in said, said
    assert git(remote, "for-each-ref").strip() == ""
    assert ["pr", "create"] not in [call[:2] for call in gh_calls(tmp_path)]
    assert f"git push --set-upstream origin pedro/{job} && gh pr create --head pedro/{job}" in said


def test_pr_without_gh_prints_the_exact_commands(
    calc: Path, stub_server: Any, env: dict[str, str], tmp_path: Path
) -> None:
    remote = with_origin(calc)
    job, said = run_build(stub_server(REPLIES), calc, env, "--pr", "--full-access")
    assert "gh (GitHub's command line tool) is not on PATH" in said, said
    body_file = calc / ".pedro" / "jobs" / job / "pull-request.md"
    command = (
        f"git push --set-upstream origin pedro/{job} && gh pr create --head pedro/{job} --title '{TITLE}' "
        f"--body-file {body_file}"
    )
    assert command in said.replace("\n", " "), said
    assert git(remote, "for-each-ref").strip() == ""
    assert "sub() returns a minus b." in body_file.read_text()
    json.loads((calc / ".pedro" / "jobs" / job / "job.json").read_text())  # the job record is whole


def test_each_completed_run_of_a_job_commits_what_it_added(calc: Path, stub_server: Any, env: dict[str, str]) -> None:
    """A job continued with a new request (as each turn of `pedro chat` is) commits that turn's change on top."""
    job, _ = run_build(stub_server(REPLIES), calc, env)
    mul = SUB + "\n\ndef mul(a, b):\n    return a * b\n"
    write = fenced("file", {"action": "write", "path": "calc.py", "content": mul})
    server = stub_server([write, "TASK COMPLETE\nmul."])
    resumed = pedro("jobs", "resume", job, "-m", "Also add mul(a, b)", "--base-url", f"{server.url}/v1",
                    "--no-input", env=env, cwd=calc)  # fmt: skip
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    subjects = git(calc, "log", "--format=%s", f"main..pedro/{job}").splitlines()
    assert subjects == ["Also add mul(a, b)", TITLE]
    assert git(calc, "status", "--porcelain", "--untracked-files=no").splitlines() == [" M README.md", "A  notes.txt"]

    undone = pedro("undo", job, "--start", env=env, cwd=calc)
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert (calc / "calc.py").read_text() == CALC and git(calc, "branch", "--show-current").strip() == "main"
