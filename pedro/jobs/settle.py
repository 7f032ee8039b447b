"""What a finished job leaves settled: one commit on pedro/<job> holding exactly the job's own change, and the user
told where they are (or put back where they were, when the job changed nothing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def settle_branch(
    root: Path, job_id: str, guard: Any, branch: tuple[str, str], renderer: Any, committed: Any = None
) -> None:
    """A job that changed nothing leaves the user where they were; one that changed files says what and how back."""
    from pedro.safety.jobbranch import current_branch_exists, leave_unused_job_branch
    from pedro.safety.snapshots import shorten

    previous, start = branch
    changed = guard.changed_files()
    if not changed:
        if leave_unused_job_branch(root, job_id, previous, start):
            renderer.notice(f"the job changed no file: back on {previous}, and no pedro/{job_id} branch is kept")
        return
    named = current_branch_exists(root, previous)
    back = f"git switch {previous}" if named else f"git switch --detach {previous}"
    if committed is not None and committed.beside:
        # A file that holds the user's edits beside the job's committed change differs between the two branches,
        # and a switch refuses to carry it (--merge too, while anything is staged): the stash carries the edits
        # across, and only them, since the job's change is in the commit the stash is taken against.
        back = f"git stash && {back} && git stash pop"
    comes_along = (
        f"your own uncommitted edits come along; the job's commit stays on pedro/{job_id}"
        if committed is not None
        else "uncommitted changes come along"
    )
    renderer.notice(
        f"the job changed {len(changed)} file{'s' if len(changed) != 1 else ''}: {shorten(changed)}; you are on "
        f"branch pedro/{job_id}. `{back}` returns you ({comes_along}); "
        f"`pedro undo {job_id}` takes the job's changes back"
    )


def commit_job_change(store: Any, job_id: str, guard: Any, result: Any, title: str, renderer: Any) -> Any:
    """One commit on pedro/<job> holding exactly the job's own change; the commit, or None when there was nothing to
    commit or it could not be made (the edits then stay uncommitted, and a notice says why)."""
    root = store.repo
    from pedro.safety.jobbranch import job_branch
    from pedro.safety.jobcommit import commit_job, commit_message
    from pedro.safety.snapshots import SnapshotError, current_branch, shorten

    if not hasattr(guard, "changed_files") or current_branch(root) != job_branch(job_id):
        return None
    delta = job_delta(root, job_id)
    if delta is None:
        return None
    body = job_description(store, job_id, result)
    try:
        committed = commit_job(root, job_id, delta, commit_message(job_id, title, body))
    except SnapshotError as exc:  # NoIdentityError and EditsClashError among them: each message names the fix
        renderer.notice(f"the job's change is left uncommitted on {job_branch(job_id)}: {exc}")
        return None
    if committed is None:
        return None
    renderer.notice(f"committed {committed.commit[:7]} on {job_branch(job_id)}: {committed.title}")
    if committed.ignored:
        renderer.notice(f"left uncommitted, since the ignore rules match them: {shorten(committed.ignored)}")
    if committed.beside:
        renderer.notice(
            f"your own uncommitted edits in {shorten(committed.beside)} are not in the commit; they stay in the "
            "working tree beside it"
        )
    return committed


def job_delta(root: Path, job_id: str) -> Any:
    """What the job leaves to commit: its first snapshot, its last, and the files its rounds changed (in this run or
    an earlier one of the same job) that differ between the two, so neither the user's edits between rounds nor a
    file repair put back are taken; None when there are none."""
    from pedro.jobs.facts import changed_files, job_snapshots
    from pedro.safety.jobchange import JobDelta
    from pedro.safety.snapshots import changed_paths

    snapshots = job_snapshots(root, job_id)
    if len(snapshots) < 2:
        return None
    first, last = snapshots[0], snapshots[-1]
    paths = sorted(set(changed_files(root, snapshots)).intersection(changed_paths(root, first.tree, last.tree)))
    return JobDelta(first.tree, first.head, last.tree, tuple(paths)) if paths else None


def job_description(store: Any, job_id: str, result: Any = None) -> str:
    """The job in words for its commit and its pull request: the summary, the evidence (the result's, else
    job.finished's) and its last test run, as recorded."""
    from pedro.safety.jobcommit import describe_job

    events = store.events(job_id)
    finished: dict[str, Any] = next((e for e in reversed(events) if e.get("type") == "job.finished"), {})
    tests = next((e for e in reversed(events) if e.get("type") == "tests.run"), None)
    summary = result.summary if result is not None else str(finished.get("summary") or "")
    evidence = getattr(result, "evidence", None) or finished.get("evidence")
    return describe_job(summary, evidence, tests)
