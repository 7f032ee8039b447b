"""A recorded job read back: its snapshots, the files its rounds changed, its diff, and its facts (what `pedro jobs
show` prints and --json, the MCP server and the commit read)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pedro.jobstore import Job, JobStore
from pedro.messages import event_data
from pedro.safety.snapshots import Snapshot


def job_snapshots(root: Path, job_id: str) -> list[Snapshot]:
    """The job's snapshots, oldest first; none outside git or when they cannot be read."""
    from pedro.errors import PedroError
    from pedro.safety.snapshots import list_snapshots

    try:
        return list(list_snapshots(root, job_id))
    except PedroError:
        return []


def changed_files(root: Path, snapshots: Sequence[Snapshot]) -> list[str]:
    """The files the job's rounds changed, from its snapshots; changes the user made between rounds do not count."""
    from pedro.safety.snapshots import changed_paths

    changed: set[str] = set()
    for before, after in zip(snapshots, snapshots[1:], strict=False):
        if after.changes_by != "user":
            changed.update(changed_paths(root, before.tree, after.tree))
    return sorted(changed)


def job_diff(root: Path, snapshots: Sequence[Snapshot], paths: Sequence[str]) -> str:
    """What the job changed in `paths`: the diff from its first snapshot to its last."""
    from pedro import gitlayer

    if len(snapshots) < 2 or not paths:
        return ""
    first, last = snapshots[0].tree, snapshots[-1].tree
    result = gitlayer.run(root, "diff", "--no-ext-diff", "--no-textconv", "--no-color", first, last, "--", *paths)
    return result.out if result.ok else ""


def job_facts(root: Path, store: JobStore, job: Job, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Who ran the job on what, how it ended, what it cost and what it changed; JSON-ready."""
    from pedro.safety.jobbranch import JOB_BRANCH_PREFIX, current_branch_exists

    finished: dict[str, Any] = next((e for e in reversed(events) if e.get("type") == "job.finished"), {})
    totals = job.totals or finished.get("totals") or {}
    snapshots = job_snapshots(root, job.id)
    changed = changed_files(root, snapshots)
    branch = JOB_BRANCH_PREFIX + job.id
    prompt, completion = int(totals.get("prompt_tokens", 0)), int(totals.get("completion_tokens", 0))
    return {
        "id": job.id,
        "role": job.role,
        "status": job.status,
        "exit_code": job.exit_code,
        "reason": finished.get("reason") or "",
        "task": job.task.strip(),
        "request": job.headline,
        "backend": job.backend,
        "model": job.model,
        "server": job.base_url,
        "branch": branch if snapshots and current_branch_exists(root, branch) else "",
        "started_at": job.started_at,
        "finished_at": job.finished_at,
        "rounds": int(totals.get("rounds", 0)),
        "tool_calls": int(totals.get("tool_calls", 0)),
        "tokens": {"prompt": prompt, "completion": completion, "total": prompt + completion},
        "snapshots": [{"n": s.n, "ref": s.ref, "label": s.label, "commit": s.commit} for s in snapshots],
        "changed_files": changed,
        "diff": job_diff(root, snapshots, changed),
        "verified_fix": next(
            (event_data(e) for e in reversed(events) if e.get("type") == "triage.fix"),
            None,
        ),
        "trace": str(store.job_dir(job.id) / "events.jsonl"),
    }
