"""The facts of one recorded job, and what it changed: a table for `pedro jobs show`, an object for --json."""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from pedro.jobs import Job, JobStore
from pedro.safety.snapshots import Snapshot

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


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
        "trace": str(store.job_dir(job.id) / "events.jsonl"),
    }


def print_facts(facts: dict[str, Any], out: TextIO) -> None:
    """The facts as a table, then the job's diff."""
    from rich.console import Console
    from rich.syntax import Syntax
    from rich.table import Table

    table = Table(show_header=False, box=None, pad_edge=False, title=f"job {facts['id']}", title_justify="left")
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for name, value in _rows(facts):
        table.add_row(name, value)
    if out.isatty():
        Console(file=out, highlight=False).print(table)
    else:
        # In a pipe or a file the table is plain text; cells padded to the width would leave trailing spaces.
        console = Console(file=io.StringIO(), highlight=False, width=120)
        with console.capture() as captured:
            console.print(table)
        out.writelines(line.rstrip() + "\n" for line in captured.get().splitlines())
    if facts["diff"]:
        out.write("\nchanges (from the job's first snapshot to its last)\n")
        if out.isatty():
            # Coloured as `git diff` colours it; the diff's text is the repository's, so Rich markup is off.
            from pedro.controls import neutralise

            diff = neutralise(facts["diff"].rstrip())  # no escape sequence from a file reaches the terminal
            Console(file=out, highlight=False).print(Syntax(diff, "diff", theme="ansi_dark"))
        else:
            out.write(facts["diff"].rstrip() + "\n")
    elif facts["snapshots"]:
        out.write("\nchanges: the job changed no file\n")


def _rows(facts: dict[str, Any]) -> list[tuple[str, str]]:
    started, finished = facts["started_at"], facts["finished_at"]
    ended = "still running" if facts["status"] == "running" else "—"
    if finished:
        ended = f"{_when(finished)} (after {finished - started:.1f} s)"
    tokens = facts["tokens"]
    snapshots = facts["snapshots"]
    shown = "none (outside git, or before the job began)"
    if snapshots:
        shown = (
            f"{len(snapshots)}, latest {snapshots[-1]['ref']}; `pedro undo {facts['id']}` steps back, "
            f"`pedro undo --start {facts['id']}` returns to the first"
        )
    server = f"{facts['model'] or '(server default)'} on {facts['backend']}"
    changed = facts["changed_files"]
    return [
        ("role", facts["role"]),
        ("status", f"{facts['status']} (exit {facts['exit_code']})" if facts["exit_code"] is not None else "running"),
        ("reason", facts["reason"] or "—"),
        ("task", facts["request"][:200]),
        ("model", server + (f" at {facts['server']}" if facts["server"] else "")),
        ("branch", facts["branch"] or "— (the job kept to your branch, or its branch is gone)"),
        ("started", _when(started)),
        ("ended", ended),
        ("rounds", f"{facts['rounds']} ({facts['tool_calls']} tool call{'' if facts['tool_calls'] == 1 else 's'})"),
        ("tokens", f"{tokens['total']} (prompt {tokens['prompt']}, reply {tokens['completion']})"),
        ("snapshots", shown),
        ("changed", ", ".join(changed) if changed else "no file"),
        ("trace", facts["trace"]),
    ]


def _when(seconds: float) -> str:
    return time.strftime(TIME_FORMAT, time.localtime(seconds))
