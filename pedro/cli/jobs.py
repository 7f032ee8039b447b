"""`pedro jobs list`, `show ID`, `resume` and `clean`."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from typing import Any, TextIO

import typer

from pedro.cli.common import load
from pedro.cli.flags import LIMITS, OUTPUT, SERVER, CommonFlags, takes

app = typer.Typer(help="Inspect recorded jobs.", no_args_is_help=True)


@app.command("list")
@takes("repo", "json", json_prints="Print each job's record as one JSON object, a line each.")
def list_jobs(*, flags: CommonFlags) -> None:
    """List this repository's jobs, newest first."""
    from pedro.jobstore import JobStore

    root, _ = load(flags, need_git=False, find_server=False)
    jobs = JobStore(root).all()
    if flags.json:
        for job in jobs:
            sys.stdout.write(json.dumps(job.__dict__, default=str) + "\n")
        return
    if not jobs:
        # A note, not a row: `pedro jobs list | wc -l` counts no jobs.
        sys.stderr.write("no jobs yet in this repository; start one with `pedro build --description ...`\n")
        return
    for job in jobs:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(job.started_at))
        sys.stdout.write(f"{job.id}  {when}  {job.role:<9} {job.status:<14} {job.headline[:60]}\n")


@app.command("show")
@takes("repo", "json", json_prints="Print the job's facts, its record and its events as one JSON object.")
def show_job(
    job_id: str = typer.Argument(..., help="A job id (or a unique prefix)."),
    *,
    flags: CommonFlags,
) -> None:
    """Show one job: its facts (role, status, model, branch, times, rounds, tokens, snapshots), what it changed
    (a diff), then each round's tool calls."""
    from pedro.cli.jobfacts import print_facts
    from pedro.jobs.facts import job_facts
    from pedro.jobstore import JobStore

    root, _ = load(flags, need_git=False, find_server=False)
    store = JobStore(root)
    job = store.load(job_id)
    events = store.events(job.id)
    facts = job_facts(root, store, job, events)
    if flags.json:
        sys.stdout.write(json.dumps({**facts, "job": job.__dict__, "events": events}, default=str) + "\n")
        return
    out = sys.stdout
    print_facts(facts, out)
    _write_rounds(out, events, job.id)
    if facts["snapshots"]:
        out.write("\nsnapshots (pedro undo steps back through them)\n")
        out.writelines(f"  {s['n']}. {s['label']}: {s['ref']} ({s['commit'][:12]})\n" for s in facts["snapshots"])
    if job.summary:
        out.write(f"\nsummary\n{job.summary.strip()}\n")


def _write_rounds(out: TextIO, events: list[dict[str, Any]], job_id: str) -> None:
    """Each round of a job as it went: its tool calls (with the diff of each edit), format problems, progress."""
    from pedro.cli.render import call_effects, describe_progress, shows_edit
    from pedro.effects import NONE as NO_EFFECTS
    from pedro.messages import Event, event_data

    out.write("\nrounds\n")
    effects = NO_EFFECTS
    for event in events:
        kind = event.get("type")
        if kind == "tool_call.started":
            effects = call_effects(str(event.get("name")), event.get("arguments") or {})
        if kind == "round.started":
            out.write(f"round {event.get('round')}\n")
        elif kind in ("repair.started", "build.started"):
            out.write(f"{str(kind).split('.')[0]}\n")
        elif kind == "tool_call.finished":
            status = "ok" if event.get("ok") else f"error ({event.get('error_kind')})"
            out.write(f"  {event.get('name')}: {status}, {event.get('duration_ms')} ms\n")
            if shows_edit(event, effects):
                # The edit's diff: what a candidate (or any edit) changed, as it was applied.
                out.writelines(f"    {line}\n" for line in str(event.get("output", "")).splitlines()[1:])
        elif kind == "format.problem":
            out.write(f"  format problem: {event.get('kind')}\n")
        if kind in _PROGRESS_EVENTS:
            data = event_data(event)
            line = describe_progress(Event(type=kind, job_id=job_id, seq=int(event.get("seq", 0)), data=data))
            out.write(f"  {line}\n")


_PROGRESS_EVENTS = frozenset(
    {"tests.run", "repair.started", "repair.candidate", "repair.chosen", "repair.dropped", "repair.finished",
     "build.started", "build.answer", "build.chosen", "build.test"}
)  # fmt: skip


@app.command("resume")
@takes(*SERVER, *LIMITS, "repo", *OUTPUT, "full_access", "read_only", "read_root", "verbose")
def resume_job(
    job_id: str | None = typer.Argument(None, help="The job to continue (an id or a unique prefix)."),
    message: str | None = typer.Option(
        None, "--message", "-m", help="A new request for the model; also continues a completed job."
    ),
    last: bool = typer.Option(False, "--last", help="Continue the most recent job."),
    *,
    flags: CommonFlags,
) -> None:
    """Continue a job from its saved conversation (on the same backend by default): an interrupted or stopped one
    as it was, any one with a new request (-m)."""
    from pedro.cli.session import run_session
    from pedro.errors import UsageError
    from pedro.jobstore import JobStore

    flags = replace(flags, continues_job=True)
    if last == (job_id is not None):
        raise UsageError("name the job to continue (pedro jobs resume ID) or pass --last, not both")
    if last:
        root, _ = load(flags, find_server=False)
        jobs = JobStore(root).all()
        if not jobs:
            raise UsageError("there are no jobs in this repository to continue")
        job_id = jobs[0].id
    assert job_id is not None
    raise typer.Exit(run_session("builder", flags, {}, resume=job_id, message=(message or "").strip() or None))


@app.command("clean")
@takes("repo")
def clean_jobs(
    older_than: float = typer.Option(
        14.0, "--older-than", min=0, help="Remove the snapshots of jobs finished more than this many days ago."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Say what would go, remove nothing."),
    *,
    flags: CommonFlags,
) -> None:
    """Remove finished jobs' pedro/<job> branches (only those whose commits another branch holds) and the snapshot
    refs of old finished jobs (`pedro undo` can no longer step back through those jobs)."""
    from pedro.jobstore import JobStore
    from pedro.runlock import hold_run_lock
    from pedro.safety.cleanup import clean

    root, _ = load(flags, find_server=False)
    store = JobStore(root)
    store.settle_abandoned()
    finished = {job.id: job.finished_at or job.started_at for job in store.all() if job.status != "running"}
    with hold_run_lock(root, "pedro jobs clean"):
        report = clean(root, finished, older_than_days=older_than, dry_run=dry_run)
    verb = "would remove" if dry_run else "removed"
    lines = [f"{verb} branch {branch}" for branch in report.branches_removed]
    lines += [f"kept branch {branch}: {why}" for branch, why in report.branches_kept]
    lines += [f"{verb} the snapshots of job {job_id}" for job_id in report.snapshot_jobs_removed]
    sys.stdout.write("\n".join(lines or ["nothing to clean"]) + "\n")
