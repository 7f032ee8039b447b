"""A recorded job's facts (jobs/facts.py) as a table for `pedro jobs show`, then its diff."""

from __future__ import annotations

import io
import time
from typing import Any, TextIO

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


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
    fix = facts.get("verified_fix")
    if fix:
        from pedro.controls import neutralise

        out.write(
            f"\nverified fix (not applied; `git apply` takes it): {fix['test_command']} passes with it, "
            f"{fix['failing_before']} failing → {fix['failing_after']}\n"
        )
        out.write(neutralise(fix["diff"].rstrip()) + "\n")


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
