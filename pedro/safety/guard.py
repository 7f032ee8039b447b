"""Snapshots around a job: one at the start, one before and one after every round that may change files, one at the
end. What changed between a round's two snapshots is pedro's; what changed between rounds is the user's."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pedro.effects import Effects
from pedro.messages import ToolCall
from pedro.safety.jobbranch import adopt_commits
from pedro.safety.journal import Journal
from pedro.safety.snapshots import (
    ChangesBy,
    Snapshot,
    SnapshotError,
    changed_paths,
    head_commit,
    list_snapshots,
    snapshot_if_changed,
    take_snapshot,
)


@dataclass
class SnapshotGuard:
    """Keeps the user's work recoverable: `pedro undo` walks back through what this records.

    The Dispatcher's snapshot layer reports each call it ran (`after_call`); after a round's last call the guard
    snapshots what the round left, so what changes before the next round's snapshot was changed by the user, whose
    edits undo keeps.
    """

    root: Path
    job_id: str
    snapshots: list[Snapshot] = field(default_factory=list)
    journal: Journal | None = None
    """Where each round that may change files is opened and the job's orderly end is recorded."""
    _step: int | str = 0
    _pending: int = 0
    """Calls of the open round the Dispatcher has not reported yet."""
    _settled: bool = True
    """Nothing pedro did is unrecorded: the last snapshot was the start or the end of a round."""
    _round_head: str | None = None
    """The commit checked out when the open round began: commits on top of it are the round's (adopt_commits)."""
    notes: list[str] = field(default_factory=list)
    """What the job should be told about its start snapshot (what it does not cover), once it is taken."""
    _starting: threading.Thread | None = None
    _start_failed: BaseException | None = None

    def start(self, label: str = "job start") -> Snapshot:
        """The first snapshot, before anything can change; failing here stops the job before it begins."""
        snapshot = take_snapshot(self.root, self.job_id, label)
        self.snapshots.append(snapshot)
        self._settled = True
        return snapshot

    def start_beside(self, label: str, then: Callable[[], None] = lambda: None) -> None:
        """start() (and `then`, such as the switch to the job branch) on a thread of its own, while the job sends its
        first request: on a large tree the snapshot costs as much as listing it. Every other method waits for it
        (ready()), so nothing the job runs can change a file before the snapshot holds it."""

        def take() -> None:
            try:
                self.start(label)
                then()
            except BaseException as exc:  # noqa: BLE001 (raised again, on the job's own thread, by ready())
                self._start_failed = exc

        self._starting = threading.Thread(target=take, name="pedro-start-snapshot", daemon=True)
        self._starting.start()

    def ready(self) -> list[str]:
        """Wait for the start begun by start_beside(); its failure is raised here, before anything can change. The
        notes about it not told yet."""
        if self._starting is not None:
            self._starting.join()
            self._starting = None
        if self._start_failed is not None:
            raise self._start_failed
        told, self.notes = self.notes, []
        return told

    def before(self, step: int | str, calls: Sequence[Effects]) -> dict[str, Any] | None:
        """A snapshot before a round (or a named step, such as a repair candidate) whose calls may change files,
        unless nothing changed since the last one. `calls` are what the tools declared for the round's calls."""
        self.ready()
        self._pending = 0
        if not any(effects.changes_files for effects in calls):
            return None
        taken = self._take(f"before round {step}" if isinstance(step, int) else f"before {step}", self._between())
        self._step, self._pending, self._settled = step, len(calls), False
        self._round_head = head_commit(self.root)
        if self.journal is not None:
            self.journal.open_round(step, head=self._round_head)
        return taken

    def open_step(self, step: str, calls: Sequence[Effects]) -> dict[str, Any] | None:
        """Like before(), for a step of many calls whose number is not known in advance (repair's candidates and the
        restores between them): it stays open until close_step(), so the states in between are never undo steps."""
        taken = self.before(step, calls)
        if not self._settled:
            self._pending = -1
        return taken

    def close_step(self) -> dict[str, Any] | None:
        """Snapshot what the step opened by open_step() left; nothing when it changed nothing."""
        self.ready()
        if self._settled:
            return None
        self._pending, self._settled = 0, True
        return self._take(f"after {self._step}", "pedro")

    def after_call(self, _call: ToolCall) -> dict[str, Any] | None:
        """The Dispatcher ran one call; after the open round's last one, snapshot what the round changed."""
        self.ready()
        if self._pending <= 0:
            return None
        self._pending -= 1
        if self._pending:
            return None
        step = self._step
        taken = self._take(f"after round {step}" if isinstance(step, int) else f"after {step}", "pedro")
        self._settled = True
        return taken

    def changed_files(self) -> list[str]:
        """The files that differ between the first snapshot of this run and the last one."""
        self.ready()
        if len(self.snapshots) < 2:
            return []
        return changed_paths(self.root, self.snapshots[0].tree, self.snapshots[-1].tree)

    def finish(self) -> dict[str, Any] | None:
        """The state the job leaves behind, so `pedro undo` can tell whether the user changed files since."""
        try:
            self.ready()
        except BaseException:
            if self.journal is not None:
                self.journal.close()  # the job ends in order: it never started a round
            raise
        taken = self._take("job end", self._between())
        if self.journal is not None:
            self.journal.close()
        return taken

    def _between(self) -> ChangesBy:
        """Who made the changes since the last snapshot: the user when it closed a round, else (a round cut short,
        a Dispatcher that does not report its calls) pedro, which keeps undo as thorough as it always was."""
        return "user" if self._settled else "pedro"

    def _take(self, label: str, changes_by: ChangesBy) -> dict[str, Any] | None:
        """A snapshot, unless nothing changed since the last one; after pedro's round, the commits it made are first
        made the job's own, so undo knows them from the user's."""
        commits = adopt_commits(self.root, self.job_id, self._round_head) if changes_by == "pedro" else []
        since = self.snapshots[-1] if self.snapshots else None
        snapshot = snapshot_if_changed(self.root, self.job_id, label, since=since, changes_by=changes_by)
        if snapshot is None:
            return None
        self.snapshots.append(snapshot)
        return {**describe(snapshot), **({"commits": commits} if commits else {})}


@dataclass
class JournalOnlyGuard:
    """Outside a git repository (--allow-outside-git) there is nothing to snapshot into; rounds are still journalled."""

    journal: Journal | None = None

    def ready(self) -> list[str]:
        """Nothing to wait for outside git."""
        return []

    def before(self, step: int | str, calls: Sequence[Effects]) -> dict[str, Any] | None:
        """Open the journal's round when its calls may change files; no snapshot is taken."""
        if self.journal is not None and any(effects.changes_files for effects in calls):
            self.journal.open_round(step)
        return None

    def open_step(self, step: str, calls: Sequence[Effects]) -> dict[str, Any] | None:
        """Open the journal's round when the step may change files; no snapshot is taken."""
        if self.journal is not None and any(effects.changes_files for effects in calls):
            self.journal.open_round(step)
        return None

    def close_step(self) -> dict[str, Any] | None:
        """Nothing to snapshot outside git."""
        return None

    def after_call(self, _call: ToolCall) -> dict[str, Any] | None:
        """Nothing to snapshot outside git."""
        return None

    def finish(self) -> dict[str, Any] | None:
        """Record the orderly end; no snapshot is taken."""
        if self.journal is not None:
            self.journal.close()
        return None


def settle_interrupted(root: Path, job_id: str, round_head: str | None = None) -> Snapshot | None:
    """Snapshot what a job that died mid-round left behind, so `pedro undo JOB` can walk back over that round; the
    commits the round made on top of `round_head` are made the job's first."""
    snapshots = list_snapshots(root, job_id)
    if not snapshots:
        return None
    adopt_commits(root, job_id, round_head)
    return snapshot_if_changed(root, job_id, "after an interrupted round", since=snapshots[-1], changes_by="pedro")


def describe(snapshot: Snapshot) -> dict[str, Any]:
    """A snapshot as an event or a `jobs show` row."""
    return {"n": snapshot.n, "ref": snapshot.ref, "label": snapshot.label, "commit": snapshot.commit[:12]}


__all__ = ["SnapshotError", "SnapshotGuard", "describe", "settle_interrupted"]
