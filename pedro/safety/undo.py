"""What `pedro undo` puts back: the snapshot it goes back to, and the files it must leave alone because only the
user changed them (while the job ran, or since)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pedro.errors import UsageError
from pedro.safety.snapshots import (
    UNDO_ANYWAY,
    RestoreReport,
    Snapshot,
    SnapshotConflictError,
    changed_paths,
    fingerprint_tree,
    head_commit,
    restore_snapshot,
    shorten,
)


@dataclass(frozen=True)
class UndoPlan:
    """Where the working tree is (`base`), where undo takes it (`target`), and whose changes lie in between."""

    target: Snapshot
    base: Snapshot
    exact: bool
    """The working tree is exactly `base`; otherwise it is `base` plus changes made after it."""
    keep: tuple[str, ...]
    """Files only the user changed since `target`: undo leaves them as they are."""
    clash: tuple[str, ...]
    """Files both the user and the job changed since `target`: going back would lose the user's change."""
    skipped: int = 0
    """Snapshots repair took around candidates it rejected, which undo steps over: nobody saw those states."""


class NothingToUndo(UsageError):
    """The working tree already is where undo would take it."""


def plan_undo(root: Path, snapshots: Sequence[Snapshot], *, start: bool) -> UndoPlan:
    """One step back (the job's latest change at or before where the tree is), or to the first snapshot.

    A step never lands on a snapshot repair took around a rejected candidate: that code was put back at once.
    """
    if not snapshots:
        raise NothingToUndo("the job has no snapshots (it never ran far enough to change anything)")
    rejected = around_rejected_candidates(snapshots)
    current = fingerprint_tree(root)
    position, matches = _position(root, snapshots, current, rejected)
    steps = [i for i in range(1, position + 1) if snapshots[i].changes_by != "user"]
    job = snapshots[0].job_id
    stepped_over = _stepped_over(rejected)
    if position == 0:
        raise NothingToUndo(
            f"the working tree is already at job {job}'s first snapshot{stepped_over}; there is nothing to undo"
        )
    if not steps:
        raise NothingToUndo(
            f"job {job} changed no files before its snapshot {position + 1}; only your own changes "
            "lie after its first snapshot, and undo keeps those: there is nothing to undo"
        )
    target = 0 if start else steps[-1] - 1
    while target in rejected:
        target -= 1  # the first snapshot is never repair's, so this ends
    user: set[str] = set() if matches else set(changed_paths(root, snapshots[position].tree, current))
    job_changed: set[str] = set()
    for i in range(target + 1, position + 1):
        changed = changed_paths(root, snapshots[i - 1].tree, snapshots[i].tree)
        (user if snapshots[i].changes_by == "user" else job_changed).update(changed)
    return UndoPlan(
        target=snapshots[target],
        base=snapshots[position],
        exact=bool(matches),
        keep=tuple(sorted(user - job_changed)),
        clash=tuple(sorted(user & job_changed)),
        skipped=sum(target < i <= position for i in rejected),
    )


def _position(root: Path, snapshots: Sequence[Snapshot], current: str, rejected: set[int]) -> tuple[int, list[int]]:
    """Which snapshot the working tree is at (the latest that matches, one repair did not reject if any; else the
    nearest), and the positions of those that match it (none when it matches none)."""
    head = head_commit(root)
    # The same files with the same commit checked out, else the same files: a commit alone is a state of its own
    # (undo takes it back), and a commit of the user's does not hide where the files are.
    matches = [i for i, snapshot in enumerate(snapshots) if snapshot.tree == current and snapshot.head == head]
    matches = matches or [i for i, snapshot in enumerate(snapshots) if snapshot.tree == current]
    seen = [i for i in matches if i not in rejected]
    return ((seen or matches)[-1] if matches else _nearest(root, snapshots, current)), matches


def around_rejected_candidates(snapshots: Sequence[Snapshot]) -> set[int]:
    """Positions of the snapshots repair took around a candidate it then undid (candidate, undo and the "before"
    of each): states that lasted only while the candidate was tested."""
    undone = {found[0] for found in (s.repair_candidate for s in snapshots) if found is not None and found[1]}
    return {
        i
        for i, snapshot in enumerate(snapshots)
        if (found := snapshot.repair_candidate) is not None and found[0] in undone
    }


def _stepped_over(rejected: set[int]) -> str:
    if not rejected:
        return ""
    count = len(rejected)
    return f" (skipped {count} snapshot{'s' if count != 1 else ''} repair took around rejected candidates)"


def undo(root: Path, plan: UndoPlan, *, force: bool = False) -> RestoreReport:
    """Carry out a plan: refuse when the user and the job changed the same file, unless `force` (the backup
    snapshot then holds the user's version)."""
    if plan.clash and not force:
        raise SnapshotConflictError(
            f"you changed {shorten(plan.clash)}, which the job changed too, and going back would lose your change. "
            f"Commit or copy your version first, or {UNDO_ANYWAY}",
            plan.clash,
        )
    return restore_snapshot(root, plan.target, expected=None if force else plan.base, keep=plan.keep)


def _nearest(root: Path, snapshots: Sequence[Snapshot], current: str) -> int:
    """The snapshot the working tree differs least from (the latest on a tie): where the user's edits started."""
    sizes = [len(changed_paths(root, snapshot.tree, current)) for snapshot in snapshots]
    return max(range(len(snapshots)), key=lambda i: (-sizes[i], i))
