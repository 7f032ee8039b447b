"""Which calls trigger a snapshot, and that the guard records each state once."""

from __future__ import annotations

from pathlib import Path

import pytest

from pedro.messages import ToolCall
from pedro.safety.guard import SnapshotGuard, may_change_files
from pedro.safety.snapshots import list_snapshots


@pytest.mark.parametrize(
    ("call", "changes"),
    [
        (ToolCall("file", {"action": "read", "path": "a"}), False),
        (ToolCall("file", {"path": "a", "content": "x"}), True),
        (ToolCall("file", {"action": "delete", "path": "a"}), True),
        (ToolCall("search", {"pattern": "x"}), False),
        (ToolCall("navigate", {"action": "list_dir"}), False),
        (ToolCall("git", {"action": "diff"}), False),
        (ToolCall("git", {"action": "branch"}), False),
        (ToolCall("git", {"action": "branch", "name": "x"}), True),
        (ToolCall("git", {"action": "commit", "message": "m"}), True),
        (ToolCall("code_edit", {"path": "a", "old": "x", "new": "y"}), True),
        (ToolCall("bash", {"command": "ls"}), True),
        (ToolCall("test", {}), True),
    ],
)
def test_may_change_files(call: ToolCall, changes: bool) -> None:
    assert may_change_files(call) is changes


def test_guard_snapshots_only_new_states(repo: Path) -> None:
    guard = SnapshotGuard(repo, "job-1")
    guard.start()
    read = [ToolCall("file", {"action": "read", "path": "README.md"})]
    write = [ToolCall("file", {"action": "write", "path": "README.md", "content": "new\n"})]
    assert guard.before(1, read) is None
    assert guard.before(2, write) is None  # nothing changed since the start snapshot
    (repo / "README.md").write_text("new\n")
    taken = guard.before(3, write)
    assert taken is not None and taken["label"] == "before round 3"
    assert guard.finish() is None
    (repo / "README.md").write_text("newer\n")
    assert guard.finish() is not None
    assert [s.label for s in list_snapshots(repo, "job-1")] == ["job start", "before round 3", "job end"]
