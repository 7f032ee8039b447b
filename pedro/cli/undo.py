"""`pedro undo [JOB]`: step the working tree back to the job's previous snapshot (`--start`: its first)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from pedro.cli.common import CommonFlags, RepoOpt, load
from pedro.errors import UsageError


def undo(
    job_id: Annotated[str | None, typer.Argument(help="The job (default: the latest).")] = None,
    start: Annotated[bool, typer.Option("--start", help="Return to the job's first snapshot.")] = False,
    repo: RepoOpt = Path(),
) -> None:
    """Restore the files a job changed, one snapshot back (or to where it started); your branch never moves."""
    from pedro.jobs import JobStore
    from pedro.safety.snapshots import fingerprint_tree, list_snapshots, restore_snapshot

    root, _ = load(CommonFlags(repo=repo))
    store = JobStore(root)
    if job_id is None:
        jobs = store.all()
        if not jobs:
            raise UsageError("there are no jobs in this repository, so there is nothing to undo")
        job_id = jobs[0].id
    job = store.load(job_id)
    snapshots = list_snapshots(root, job.id)
    if not snapshots:
        raise UsageError(f"job {job.id} has no snapshots (it never ran far enough to change anything)")
    current = fingerprint_tree(root)
    matches = [i for i, snapshot in enumerate(snapshots) if snapshot.tree == current]
    if not matches:
        # Files changed after pedro's last snapshot: restore_snapshot refuses and names them.
        restore_snapshot(root, snapshots[0], expected=snapshots[-1])
    position = matches[-1] if matches else len(snapshots) - 1
    if position == 0:
        raise UsageError(f"the working tree is already at job {job.id}'s first snapshot; there is nothing to undo")
    target = snapshots[0] if start else snapshots[position - 1]
    report = restore_snapshot(root, target, expected=snapshots[position])
    sys.stdout.write(
        f"restored snapshot {target.n} of job {job.id} ({target.label}): {len(report.written)} files written, "
        f"{len(report.removed)} removed\n"
        f"the state before this undo is kept as {report.backup.ref}\n"
    )
    if target.branch:
        sys.stdout.write(f"your branch is {target.branch}; `git switch {target.branch}` returns to it\n")
