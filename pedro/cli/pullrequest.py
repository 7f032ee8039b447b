"""--pr: publish a committed job's branch and open a pull request with gh once the user approves, or print the exact
commands that would."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

REMOTE = "origin"
BODY_NAME = "pull-request.md"
"""Under the job's folder: the pull request's body, which `gh pr create --body-file` reads."""
GH_TIMEOUT_S = 120.0


def open_pull_request(root: Path, store: Any, job_id: str, committed: Any, flags: Any, renderer: Any) -> None:
    """Push pedro/<job> to origin and run `gh pr create` for it, after a completed job that left a commit."""
    from pedro.safety.jobbranch import job_branch

    if committed is None:
        renderer.notice(
            "--pr: no pull request, since the job left no commit (it did not complete, changed no file, or "
            "[agent].commit is false)"
        )
        return
    branch = job_branch(job_id)
    body = store.job_dir(job_id) / BODY_NAME
    body.write_text(_body(store, job_id, committed), encoding="utf-8")
    push = ("git", "push", "--set-upstream", REMOTE, branch)
    create = ("gh", "pr", "create", "--head", branch, "--title", committed.title, "--body-file", str(body))
    by_hand = f"to publish the branch and open the pull request, run: {shlex.join(push)} && {shlex.join(create)}"
    problem = _cannot_open(root)
    if problem is not None:
        renderer.notice(f"--pr: {problem}, so pedro opened no pull request; {by_hand}")
        return
    if not flags.interactive and not flags.full_access:
        renderer.notice(
            "--pr: refused under --no-input: pushing and opening a pull request reach the network, which needs "
            f"your approval; pass --full-access to allow it without asking, or {by_hand}"
        )
        return
    if not flags.full_access:
        question = f"push {branch} to {REMOTE} and open a pull request with gh (network): {shlex.join(create)}"
        if not renderer.approver(True)(question):
            renderer.notice(f"--pr: not approved; {by_hand}")
            return
    _publish(root, branch, create, by_hand, renderer)


def _cannot_open(root: Path) -> str | None:
    """Why pedro cannot push and open the pull request itself (no origin, no gh, gh not logged in), or None."""
    from pedro import gitlayer

    if not gitlayer.run(root, "remote", "get-url", REMOTE).ok:
        return f"the repository has no remote named {REMOTE} (add one: git remote add {REMOTE} URL)"
    gh = shutil.which("gh")
    if gh is None:
        return "gh (GitHub's command line tool) is not on PATH"
    status = _gh(root, gh, "auth", "status")
    if status is None or status.returncode != 0:
        return "gh is not logged in (`gh auth login`)"
    return None


def _publish(root: Path, branch: str, create: tuple[str, ...], by_hand: str, renderer: Any) -> None:
    from pedro import gitlayer

    pushed = gitlayer.run(root, "push", "--set-upstream", REMOTE, branch, publish=True)
    if not pushed.ok:
        said = pushed.err.strip().splitlines()[-1:] or [f"exit status {pushed.code}"]
        renderer.notice(f"--pr: git push failed ({said[0]}); {by_hand}")
        return
    renderer.notice(f"pushed {branch} to {REMOTE}")
    gh = shutil.which("gh") or "gh"
    made = _gh(root, gh, *create[1:])
    if made is None or made.returncode != 0:
        said = (made.stderr.strip().splitlines()[-1:] if made is not None else []) or ["gh did not finish"]
        renderer.notice(f"--pr: gh pr create failed ({said[0]}); run it again: {shlex.join(create)}")
        return
    url = made.stdout.strip().splitlines()[-1:] or ["(gh printed no address)"]
    renderer.notice(f"pull request opened: {url[0]}")


def _gh(root: Path, gh: str, *args: str) -> subprocess.CompletedProcess[str] | None:
    """Run gh in the repository with the user's environment (its login); None when it cannot run or hangs."""
    try:
        return subprocess.run(
            [gh, *args],
            cwd=root,
            env=dict(os.environ),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=GH_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None


def _body(store: Any, job_id: str, committed: Any) -> str:
    """The job's summary, its evidence and its test results, as the commit's body says them, and the commit."""
    from pedro.jobs.settle import job_description

    return f"{job_description(store, job_id)}\n\nCommit {committed.commit[:12]} · job `{job_id}` (pedro)\n"
