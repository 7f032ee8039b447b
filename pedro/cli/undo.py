"""`pedro undo [JOB]`: step the working tree back to the job's previous snapshot (`--start`: its first)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from pedro.cli.common import CommonFlags, RepoOpt, load
from pedro.errors import UsageError


def undo(
    job_id: Annotated[str | None, typer.Argument(help="The job (default: the latest job that changed files).")] = None,
    start: Annotated[bool, typer.Option("--start", help="Return to the job's first snapshot.")] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Go back even over files you changed that the job changed too (kept in a backup)."
        ),
    ] = False,
    repo: RepoOpt = Path(),
) -> None:
    """Put back the files a job changed, one step back (or to where it started); files only you changed stay, and
    your branch never moves."""
    from pedro.jobs import JobStore
    from pedro.runlock import hold_run_lock
    from pedro.safety.snapshots import list_snapshots, shorten
    from pedro.safety.undo import plan_undo
    from pedro.safety.undo import undo as carry_out

    root, _ = load(CommonFlags(repo=repo), find_server=False)
    store = JobStore(root)
    picked = ""
    if job_id is None:
        job_id = _latest_changing_job(root, store)
        picked = f"undoing job {job_id}, the latest job that changed files (`pedro undo JOB` picks another)\n"
    job = store.load(job_id)
    # Never under a running job: it would write the files back while the job changes them.
    with hold_run_lock(root, f"pedro undo {job.id}"):
        plan = plan_undo(root, list_snapshots(root, job.id), start=start)
        report = carry_out(root, plan, force=force)
    target = report.snapshot
    lines = [
        f"restored snapshot {target.n} of job {job.id} ({target.label}): {len(report.written)} files written, "
        f"{len(report.removed)} removed"
    ]
    if report.kept:
        lines.append(f"kept as they are, since only you changed them: {shorten(report.kept)}")
    if force and plan.clash:
        lines.append(
            f"your changes to {shorten(plan.clash)} were replaced; `git show {report.backup.ref}:PATH` prints your "
            "version of a file"
        )
    lines += _not_covered(root, target.not_covered or ())
    lines.append(f"the state before this undo is kept as {report.backup.ref}")
    if target.branch:
        lines.append(f"your branch is {target.branch}; `git switch {target.branch}` returns to it")
    sys.stderr.write(picked)  # a note: stdout is for what the undo did
    sys.stdout.write("".join(f"{line}\n" for line in lines))


def _latest_changing_job(root: Path, store: Any) -> str:
    """The newest job whose rounds changed files (a review or a job that changed nothing has nothing to undo)."""
    from pedro.cli.jobfacts import changed_files, job_snapshots

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
