"""`pedro jobs clean`: finished jobs' branches and old snapshot refs go; nothing that holds work of its own does."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from pedro.gitlayer import run as run_git
from pedro.safety.jobbranch import JOB_BRANCH_PREFIX
from pedro.safety.snapshots import BACKUP_PREFIX, REF_PREFIX, current_branch

DAY_S = 86400.0


@dataclass
class CleanReport:
    branches_removed: list[str] = field(default_factory=list)
    branches_kept: list[tuple[str, str]] = field(default_factory=list)
    """(branch, why): a branch with commits no other branch has, or the one checked out."""
    snapshot_jobs_removed: list[str] = field(default_factory=list)


def clean(root: Path, finished: dict[str, float], *, older_than_days: float, dry_run: bool = False) -> CleanReport:
    """Remove the `pedro/<job>` branches of finished jobs (`finished`: job id → when it finished) whose commits
    another branch holds, and the snapshot and backup refs of jobs finished more than `older_than_days` ago."""
    report = CleanReport()
    here = current_branch(root)
    branches = run_git(root, "for-each-ref", "--format=%(refname:short)", f"refs/heads/{JOB_BRANCH_PREFIX}").out
    for branch in branches.split():
        job_id = branch.removeprefix(JOB_BRANCH_PREFIX)
        if job_id not in finished:
            continue
        if branch == here:
            report.branches_kept.append((branch, "checked out"))
            continue
        others = [f"refs/heads/{b}" for b in _all_branches(root) if b != branch]
        unique = run_git(root, "rev-list", "--count", f"refs/heads/{branch}", "--not", *others).out.strip()
        if unique not in ("", "0"):
            report.branches_kept.append((branch, f"{unique} commit(s) no other branch has; merge it, or "
                                                 f"`git branch -D {branch}` to drop them"))  # fmt: skip
            continue
        if dry_run or run_git(root, "branch", "-D", branch).code == 0:
            report.branches_removed.append(branch)
    cutoff = time.time() - older_than_days * DAY_S
    for job_id, ended in sorted(finished.items()):
        if ended > cutoff:
            continue
        refs = []
        for prefix in (REF_PREFIX, BACKUP_PREFIX):
            refs += run_git(root, "for-each-ref", "--format=%(refname)", f"{prefix}/{job_id}/").out.split()
        if not refs:
            continue
        if not dry_run:
            run_git(root, "update-ref", "--stdin", stdin="".join(f"delete {ref}\n" for ref in refs))
        report.snapshot_jobs_removed.append(job_id)
    return report


def _all_branches(root: Path) -> list[str]:
    return run_git(root, "for-each-ref", "--format=%(refname:short)", "refs/heads/").out.split()
