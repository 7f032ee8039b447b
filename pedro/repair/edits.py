"""How repair changes code: every candidate and every restore is a code_edit through the dispatcher (gate, journal,
snapshot step), and a file someone else changed meanwhile is never written over."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pedro.dispatch import Dispatcher
from pedro.messages import ToolCall, ToolResult
from pedro.repair.locate import Unit
from pedro.tools.textfile import stamp_file

Emit = Callable[..., None]
"""The job's event emitter: emit(type, **data)."""

Edit = tuple[Unit, str]
"""A unit (as the file holds it when the edit is applied) and its new text."""


def edit_call(unit: Unit, new: str, *, old: str | None = None) -> ToolCall:
    """The code_edit call that replaces the unit's text (or `old`, a candidate in its place) by `new`."""
    arguments = {"action": "replace", "path": unit.path, "old": unit.text if old is None else old, "new": new}
    return ToolCall("code_edit", arguments, id=None)


@dataclass
class Editor:
    """Applies and takes back a repair's edits; `stopped` says why repair must stop (a file changed under it)."""

    dispatcher: Dispatcher
    emit: Emit
    calls: int = 0
    """Edits made through the dispatcher: each candidate and each undo of one."""
    stopped: str = ""
    _watched: set[Path] = field(default_factory=set)

    def watch(self, unit: Unit) -> None:
        """As if the model had read the unit's file: an edit by anyone else from now on is noticed."""
        path = self.dispatcher.ctx.resolve(unit.path)
        if path not in self._watched:
            self._watched.add(path)
            self.dispatcher.ctx.read_stamps[path] = stamp_file(path)

    def apply(self, edits: Sequence[Edit], *, reported: bool = True) -> tuple[list[Edit], str]:
        """Apply the edits in order; (those applied, the first failure's words or ""). A failure takes back the
        ones already applied."""
        applied: list[Edit] = []
        for unit, new in edits:
            self.calls += 1
            call = edit_call(unit, new)
            result = self.dispatcher.run_reported(call, self.emit) if reported else self.dispatcher.run(call)
            if not result.ok:
                self.undo(applied, 0)
                return [], _first_line(result.output)
            applied.append((unit, new))
        return applied, ""

    def undo(self, applied: Sequence[Edit], index: int) -> None:
        """Put each unit's text back in place of its applied edit, last first; a file someone changed meanwhile is
        left as it is, and `stopped` says so."""
        for unit, new in reversed(applied):
            if self.changed_by_someone(unit) or not self.restore(index, unit, new).ok:
                self.stopped = (
                    f"{unit.path} changed while candidate {index} was being tested, so pedro did not put the old "
                    f"code back; the file keeps candidate {index} and your change"
                )
                self.emit("notice", message=self.stopped)
                return

    def restore(self, index: int, unit: Unit, candidate: str, text: str | None = None) -> ToolResult:
        """Put the unit's code (or `text`) back in place of `candidate`: through the dispatcher like any edit, but
        reported as one quiet line (`repair.restored`), not as an edit of the model's."""
        self.calls += 1
        result = self.dispatcher.run(edit_call(unit, unit.text if text is None else text, old=candidate))
        self.emit("repair.restored", n=index, path=unit.path, ok=result.ok, output="" if result.ok else result.output)
        return result

    def changed_by_someone(self, unit: Unit) -> bool:
        """Whether the unit's file differs from what pedro last read or wrote there."""
        path = self.dispatcher.ctx.resolve(unit.path)
        seen = self.dispatcher.ctx.read_stamps.get(path)
        try:
            now = stamp_file(path)
        except OSError:
            return True
        return seen is None or (seen.size, seen.sha256) != (now.size, now.sha256)


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")
