"""Which calls trigger a snapshot, and that the guard records each state once."""

from __future__ import annotations

from pathlib import Path

import pytest

from pedro.dispatch import Dispatcher
from pedro.effects import Effects
from pedro.messages import ToolCall
from pedro.roles import get_role
from pedro.safety.guard import SnapshotGuard
from pedro.safety.snapshots import SnapshotError, list_snapshots
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext


def declared(repo: Path, *calls: ToolCall) -> list[Effects]:
    """What the tools declare for `calls`, as the loop hands them to the guard."""
    dispatcher = Dispatcher(ToolRegistry.default(get_role("builder").tools), ToolContext(root=repo))
    return [dispatcher.effects(call) for call in calls]


def test_guard_snapshots_only_new_states(repo: Path) -> None:
    guard = SnapshotGuard(repo, "job-1")
    guard.start()
    read = declared(repo, ToolCall("file", {"action": "read", "path": "README.md"}))
    write = declared(repo, ToolCall("file", {"action": "write", "path": "README.md", "content": "new\n"}))
    assert guard.before(1, read) is None
    assert guard.before(2, write) is None  # nothing changed since the start snapshot
    (repo / "README.md").write_text("new\n")
    taken = guard.before(3, write)
    assert taken is not None and taken["label"] == "before round 3"
    assert guard.finish() is None
    (repo / "README.md").write_text("newer\n")
    assert guard.finish() is not None
    assert [s.label for s in list_snapshots(repo, "job-1")] == ["job start", "before round 3", "job end"]


def test_a_round_ends_with_a_snapshot_and_edits_between_rounds_are_the_users(repo: Path) -> None:
    guard = SnapshotGuard(repo, "job-2")
    guard.start()
    edit, run = ToolCall("file", {"path": "a.py", "content": "x"}), ToolCall("bash", {"command": "ls"})
    guard.before(1, declared(repo, edit, run))
    (repo / "a.py").write_text("pedro's round 1\n")
    assert guard.after_call(edit) is None  # the round is not over yet
    taken = guard.after_call(run)
    assert taken is not None and taken["label"] == "after round 1"
    (repo / "notes.txt").write_text("typed by the user while the model thought\n")
    guard.before(2, declared(repo, edit))
    (repo / "a.py").write_text("pedro's round 2\n")
    guard.after_call(edit)
    (repo / "later.txt").write_text("the user again\n")
    guard.finish()
    recorded = [(s.label, s.changes_by) for s in list_snapshots(repo, "job-2")]
    assert recorded == [
        ("job start", None),
        ("after round 1", "pedro"),
        ("before round 2", "user"),
        ("after round 2", "pedro"),
        ("job end", "user"),
    ]


def test_a_round_cut_short_counts_as_pedros(repo: Path) -> None:
    guard = SnapshotGuard(repo, "job-3")
    guard.start()
    edits = [ToolCall("file", {"path": "a.py", "content": "x"}), ToolCall("file", {"path": "b.py", "content": "y"})]
    guard.before(1, declared(repo, *edits))
    (repo / "a.py").write_text("written before Ctrl-C\n")
    guard.after_call(edits[0])  # the second call never ran
    guard.finish()
    assert [(s.label, s.changes_by) for s in list_snapshots(repo, "job-3")][-1] == ("job end", "pedro")


def test_a_start_taken_beside_the_first_request_is_waited_for_before_any_round(repo: Path) -> None:
    guard = SnapshotGuard(repo, "job-beside")
    order: list[str] = []
    guard.start_beside("job start", lambda: order.append(f"then, after {len(guard.snapshots)} snapshot"))
    write = declared(repo, ToolCall("file", {"action": "write", "path": "README.md", "content": "new\n"}))
    guard.before(1, write)  # waits for the start: the round's edit comes after it
    assert order == ["then, after 1 snapshot"]
    (repo / "README.md").write_text("new\n")
    guard.after_call(ToolCall("file", {}))
    guard.finish()
    assert [s.label for s in list_snapshots(repo, "job-beside")] == ["job start", "after round 1"]


def test_a_start_that_failed_beside_the_first_request_stops_every_round(repo: Path) -> None:
    # A file where the snapshot refs go: git cannot store the start snapshot.
    (repo / ".git" / "refs" / "pedro").write_text("in the way\n")
    guard = SnapshotGuard(repo, "job-failed", journal=None)
    guard.start_beside("job start")
    write = declared(repo, ToolCall("file", {"action": "write", "path": "README.md", "content": "new\n"}))
    for step in (lambda: guard.ready(), lambda: guard.before(1, write), guard.finish):
        with pytest.raises(SnapshotError, match="(?i)snapshot"):
            step()
