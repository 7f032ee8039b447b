"""The edit journal: each file change recorded around its rename, and an unfinished round reported and swept."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

from pedro.dispatch import Dispatcher
from pedro.messages import ToolCall
from pedro.safety.journal import JOURNAL_NAME, Journal, read_state, recover, unfinished_jobs
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext

JOB = "20260101-000000-abcd"


def journal_of(repo: Path, job_id: str = JOB) -> Journal:
    return Journal(repo / ".pedro" / "jobs" / job_id / JOURNAL_NAME)


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_dispatcher_journals_each_file_change_before_and_after(repo: Path) -> None:
    journal = journal_of(repo)
    d = Dispatcher(ToolRegistry.default(), ToolContext(root=repo), journal=journal)
    journal.open_round(1)
    assert d.run(ToolCall("file", {"action": "write", "path": "a.py", "content": "a = 1\n"})).ok
    assert d.run(ToolCall("file", {"action": "write", "path": "pkg/b.py", "content": "b = 2\n"})).ok
    assert d.run(ToolCall("file", {"action": "read", "path": "a.py"})).ok
    refused = d.run(ToolCall("code_edit", {"path": "a.py", "old": "nothing like this", "new": "x"}))
    assert not refused.ok
    records = [json.loads(line) for line in journal.path.read_text().splitlines()]
    assert [(r["op"], r.get("path")) for r in records] == [
        ("round", None),
        ("begin", "a.py"),
        ("done", "a.py"),
        ("begin", "pkg/b.py"),
        ("done", "pkg/b.py"),
        ("begin", "a.py"),
        ("done", "a.py"),
    ]
    assert [r.get("changed") for r in records if r["op"] == "done"] == [True, True, False]
    assert stat.S_IMODE(journal.path.stat().st_mode) == 0o600
    state = read_state(journal.path, JOB)
    assert state is not None and state.changed == ("a.py", "pkg/b.py") and not state.finished


def test_a_closed_journal_is_not_reported(repo: Path) -> None:
    journal = journal_of(repo)
    journal.pid = dead_pid()
    journal.open_round(1)
    journal.applying("a.py")
    journal.applied("a.py", changed=True)
    journal.close()
    assert unfinished_jobs(repo) == []


def test_an_unfinished_round_is_reported_once_and_its_temporaries_swept(repo: Path) -> None:
    journal = journal_of(repo)
    journal.pid = dead_pid()
    journal.open_round(3)
    for name in ("a.py", "b.py"):
        journal.applying(name)
        (repo / name).write_text("new\n")
        journal.applied(name, changed=True)
    journal.applying("c.py")  # the process died here, between the temporary file and the rename
    (repo / "c.py").write_text("old\n")
    leftover = repo / ".c.py.pedro-0badf00d"
    leftover.write_text("new\n")
    unrelated = repo / ".c.py.pedro-notours"
    unrelated.write_text("keep\n")
    (found,) = unfinished_jobs(repo)
    assert (found.job_id, found.round, found.changed, found.in_flight) == (JOB, 3, ("a.py", "b.py"), ("c.py",))
    ((state, removed),) = recover(repo)
    assert state.changed == ("a.py", "b.py") and removed == [".c.py.pedro-0badf00d"]
    assert not leftover.exists() and unrelated.exists() and (repo / "c.py").read_text() == "old\n"
    assert recover(repo) == []


def test_a_journal_of_a_running_pedro_is_left_alone(repo: Path) -> None:
    journal = journal_of(repo)
    journal.pid = os.getppid()  # alive, and not this process
    journal.open_round(1)
    journal.applying("a.py")
    (repo / ".a.py.pedro-12345678").write_text("in progress\n")
    assert unfinished_jobs(repo) == [] and recover(repo) == []
    assert (repo / ".a.py.pedro-12345678").exists()


def test_a_line_cut_short_by_a_crash_is_skipped(repo: Path) -> None:
    journal = journal_of(repo)
    journal.pid = dead_pid()
    journal.open_round(1)
    journal.applying("a.py")
    journal.applied("a.py", changed=True)
    with journal.path.open("a") as fh:
        fh.write('{"op": "begin", "pa')
    (state,) = unfinished_jobs(repo)
    assert state.changed == ("a.py",) and state.in_flight == ()
