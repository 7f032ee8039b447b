"""The snapshot layer: the one place a snapshot is taken and reported, for the calls the stack runs and for the steps
the loop and repair open and close around them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from pedro.dispatch.call import Emit, PreparedCall
from pedro.effects import Effects
from pedro.errors import PedroError
from pedro.messages import ToolCall, ToolResult


class ChangeGuard(Protocol):
    """Keeps the user's work recoverable while the job changes files (pedro.safety.guard): a snapshot before a round
    or step that may change files, after its last call, and at the end of the job."""

    def ready(self) -> list[str]: ...

    def before(self, step: int | str, calls: Sequence[Effects]) -> dict[str, Any] | None: ...

    def open_step(self, step: str, calls: Sequence[Effects]) -> dict[str, Any] | None: ...

    def close_step(self) -> dict[str, Any] | None: ...

    def after_call(self, call: ToolCall, /) -> dict[str, Any] | None: ...

    def finish(self) -> dict[str, Any] | None: ...


class SnapshotLayer:
    """Tells the guard about every reported call it ran, after the call's `tool_call.finished`, so a round's last
    call closes the round with a snapshot; without a guard it only passes calls on."""

    def __init__(self, guard: ChangeGuard | None) -> None:
        self.guard = guard

    def __call__(self, call: PreparedCall, inner: Callable[[PreparedCall], ToolResult]) -> ToolResult:
        result = inner(call)
        if call.emit is not None and self.guard is not None:
            record_snapshot(call.emit, self.guard.after_call, call.call)
        return result

    def ready(self, emit: Emit) -> None:
        """Wait until the job's start snapshot holds the user's work (SnapshotGuard.ready), and tell what it left
        out; its failure is raised, not a notice: nothing may change without it."""
        if self.guard is not None:
            for note in self.guard.ready():
                emit("notice", message=note)

    def before(self, emit: Emit, step: int | str, calls: Sequence[Effects]) -> None:
        """A loop round of these calls begins (SnapshotGuard.before)."""
        if self.guard is not None:
            record_snapshot(emit, self.guard.before, step, calls)

    def open_step(self, emit: Emit, step: str, calls: Sequence[Effects]) -> None:
        """A step of many calls begins, such as repair's candidates and the restores between them."""
        if self.guard is not None:
            record_snapshot(emit, self.guard.open_step, step, calls)

    def close_step(self, emit: Emit) -> None:
        """The step opened by open_step() is over."""
        if self.guard is not None:
            record_snapshot(emit, self.guard.close_step)

    def finish(self, emit: Emit) -> None:
        """The job is over: the state it leaves behind."""
        if self.guard is not None:
            record_snapshot(emit, self.guard.finish)


def record_snapshot(emit: Emit, take: Callable[..., dict[str, Any] | None], *args: Any) -> None:
    """Take a snapshot (`take(*args)`) and record it as `snapshot.taken`; a failure is a notice, and the job goes on
    with the snapshots it has. Only the snapshot layer calls this: every snapshot of a job goes through it."""
    try:
        taken = take(*args)
    except PedroError as exc:
        emit("notice", message=f"could not snapshot the working tree: {exc}")
        return
    if taken is not None:
        emit("snapshot.taken", **taken)
