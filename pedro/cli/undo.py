"""`pedro undo [JOB]`: step the working tree back to the job's previous snapshot (`--start`: its first)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pedro.cli.common import load
from pedro.cli.flags import CommonFlags, takes
from pedro.errors import UsageError

if TYPE_CHECKING:
    from pedro.safety.snapshots import RestoreReport
    from pedro.safety.undo import UndoPlan


@takes("repo")
def undo(
    job_id: Annotated[str | None, typer.Argument(help="The job (default: the latest job that changed files).")] = None,
    start: Annotated[bool, typer.Option("--start", help="Return to the job's first snapshot.")] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Go back even over files you changed that the job changed too (kept in a backup)."
        ),
    ] = False,
    *,
    flags: CommonFlags,
) -> None:
    """Put back the files a job changed, one step back (or to where it started); files only you changed stay, and
    your branch never moves."""
    from pedro.jobstore import JobStore
    from pedro.runlock import hold_run_lock
    from pedro.safety.snapshots import list_snapshots, shorten
    from pedro.safety.undo import NothingToUndo, plan_undo
    from pedro.safety.undo import undo as carry_out

    root, _ = load(flags, find_server=False)
    store = JobStore(root)
    picked = ""
    if job_id is None:
        job_id = _latest_changing_job(root, store)
        picked = f"undoing job {job_id}, the latest job that changed files (`pedro undo JOB` picks another)\n"
    job = store.load(job_id)
    # Never under a running job: it would write the files back while the job changes them.
    with hold_run_lock(root, f"pedro undo {job.id}"):
        snapshots = list_snapshots(root, job.id)
        try:
            plan = plan_undo(root, snapshots, start=start)
        except NothingToUndo as exc:
            back = _leave_unused_branch(root, job.id, snapshots, set())
            raise NothingToUndo(f"{exc}{'; ' + back if back else ''}") from None
        rewind = _job_branch_rewind(root, job.id, plan.target)
        report = carry_out(root, plan, force=force)
        if rewind is not None:
            from pedro.safety.jobbranch import rewind_job_branch

            rewind_job_branch(root, job.id, *rewind)
        back = _leave_unused_branch(root, job.id, snapshots, set(report.kept))
    target = report.snapshot
    lines = _restored(job.id, plan, report)
    if rewind is not None:
        lines.append(f"moved branch pedro/{job.id} back to {rewind[1][:7]}, the commit it had there")
    if report.kept:
        lines.append(f"kept as they are, since only you changed them: {shorten(report.kept)}")
    if force and plan.clash:
        lines.append(
            f"your changes to {shorten(plan.clash)} were replaced; `git show {report.backup.ref}:PATH` prints your "
            "version of a file"
        )
    lines += _not_covered(root, target.not_covered or ())
    lines.append(f"the state before this undo is kept as {report.backup.ref}")
    lines.append(back or _where_you_are(root, job.id, snapshots))
    sys.stderr.write(picked)  # a note: stdout is for what the undo did
    sys.stdout.write("".join(f"{line}\n" for line in lines if line))


def _restored(job_id: str, plan: UndoPlan, report: RestoreReport) -> list[str]:
    """What the undo put back: the snapshot, how many files it wrote and removed, the repair states it skipped."""
    target = report.snapshot
    written = f"{len(report.written)} file{'' if len(report.written) == 1 else 's'}"
    lines = [
        f"restored snapshot {target.n} of job {job_id} ({target.label}): {written} written, "
        f"{len(report.removed)} removed"
    ]
    if plan.skipped:
        lines.append(
            f"skipped {plan.skipped} snapshot{'s' if plan.skipped != 1 else ''} repair took around rejected "
            "candidates: nobody saw those states"
        )
    return lines


def _job_branch_rewind(root: Path, job_id: str, target: Any) -> tuple[str, str] | None:
    """(the job branch's tip, the commit to move it back to) when the job committed since `target`; None when the
    branch is already there. Refuses when the branch holds commits that are not the job's, or is not checked out."""
    from pedro.safety.jobbranch import branch_tip, foreign_commits, free_branch_name, job_branch
    from pedro.safety.snapshots import current_branch, shorten

    branch = job_branch(job_id)
    tip = branch_tip(root, branch)
    if tip is None or target.head is None or tip == target.head:
        return None
    foreign = foreign_commits(root, job_id, target.head, tip)
    if foreign is None:
        raise UsageError(
            f"{branch} has moved on: it no longer holds the commit the job started from, and undo would take what it "
            f"holds off the branch. Take the job's files back by hand (`git diff {target.head[:12]} {branch}` shows "
            "what changed)"
        )
    if foreign:
        keep = free_branch_name(root, "my-work")
        raise UsageError(
            f"{branch} has moved on: it holds commits made outside the job ({shorten(foreign)}), and undo would take "
            f"them off the branch. `git branch {keep} {tip[:12]}` keeps them on a branch of your own; then "
            f"`pedro undo {job_id}` again"
        )
    here = current_branch(root)
    if here != branch:
        raise UsageError(
            f"job {job_id}'s changes are committed on {branch}, and you are on {here or 'a detached HEAD'}: "
            f"`git switch {branch}`, then `pedro undo {job_id}` again"
        )
    return tip, target.head


def _leave_unused_branch(root: Path, job_id: str, snapshots: Any, kept: set[str]) -> str:
    """Back to the branch the job started from, and no pedro/<job>, when the branch holds nothing of the job's any
    more (no commit of its own, no change but the user's); the line saying so, or ""."""
    from pedro.safety.jobbranch import job_branch, leave_unused_job_branch
    from pedro.safety.snapshots import changed_paths, fingerprint_tree

    if not snapshots:
        return ""
    first = snapshots[0]
    previous = first.branch or first.head
    if not previous or set(changed_paths(root, first.tree, fingerprint_tree(root))) - kept:
        return ""
    if not leave_unused_job_branch(root, job_id, previous, first.head or ""):
        return ""
    return f"back on {previous}, where the job started; the unused branch {job_branch(job_id)} is deleted"


def _where_you_are(root: Path, job_id: str, snapshots: Any) -> str:
    """Which branch the user is on, and the way back to their own, naming only a branch that exists."""
    from pedro.safety.jobbranch import current_branch_exists, job_branch
    from pedro.safety.snapshots import current_branch

    here = current_branch(root)
    own = snapshots[0].branch if snapshots else None
    if here != job_branch(job_id) or not own or own == here or not current_branch_exists(root, own):
        return ""
    return f"you are on branch {here}; `git switch {own}` returns you to your branch (uncommitted changes come along)"


def _latest_changing_job(root: Path, store: Any) -> str:
    """The newest job whose rounds changed files (a review or a job that changed nothing has nothing to undo)."""
    from pedro.jobs.facts import changed_files, job_snapshots

    jobs = store.all()
    if not jobs:
        raise UsageError("there are no jobs in this repository, so there is nothing to undo")
    for job in jobs:
        if changed_files(root, job_snapshots(root, job.id)):
            return str(job.id)
    raise UsageError(
        f"none of the {len(jobs)} job{'s' if len(jobs) != 1 else ''} in this repository changed a file, so there is "
        "nothing to undo; `pedro jobs list` shows them"
    )


def _not_covered(root: Path, paths: tuple[str, ...]) -> list[str]:
    """Plain words on what no snapshot holds, so nobody believes undo brought it back."""
    from pedro.safety.snapshots import IGNORED_FILE_LIMIT, shorten

    if not paths:
        return []
    lines = [
        f"not restored, because snapshots never hold ignored dependency and build folders or ignored files of "
        f"{IGNORED_FILE_LIMIT // (1024 * 1024)} MiB or more: {shorten(paths)}"
    ]
    missing = [path for path in paths if not (root / path).exists()]
    if missing:
        lines.append(f"missing now: {shorten(missing)}; rebuild or reinstall them (pedro cannot bring them back)")
    return lines
