"""The edit journal: each file change of a round, written down before and after it happens, read back after a crash."""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pedro.process import another_pedro_alive

JOURNAL_NAME = "journal.jsonl"
# Atomic writes put `.<name>.pedro-<8 hex>` next to the target (tools/textfile.py); a crash can leave one behind.
_TEMP_NAME = re.compile(r"^\..+\.pedro-[0-9a-f]{8}$")
_TEMP_PREFIX_CHARS = 200


@dataclass
class Journal:
    """Appends one JSON line per step to `path` (0600), flushed and fsynced before the step it announces."""

    path: Path
    pid: int = field(default_factory=os.getpid)
    _round: int | str | None = None

    def open_round(self, round_no: int | str, *, head: str | None = None) -> None:
        """A round whose calls may change files begins, on commit `head`; it stays open until the next round or the
        end."""
        self._round = round_no
        self._write({"op": "round", "round": round_no, "pid": self.pid, "head": head})

    def applying(self, path: str) -> None:
        """A file is about to change (before its atomic rename)."""
        self._write({"op": "begin", "path": path, "round": self._round, "pid": self.pid})

    def applied(self, path: str, changed: bool) -> None:
        """The change of `path` is done (`changed`) or was refused before touching the file."""
        self._write({"op": "done", "path": path, "changed": changed, "round": self._round})

    def close(self) -> None:
        """The job ended in an orderly way: nothing is left half-done."""
        self._write({"op": "end"})

    def _write(self, record: dict[str, Any]) -> None:
        record["ts"] = round(time.time(), 3)
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, (json.dumps(record, ensure_ascii=False) + "\n").encode())
            os.fsync(fd)
        finally:
            os.close(fd)


@dataclass(frozen=True)
class RoundState:
    """What the journal says about a job's last round that changed files."""

    job_id: str
    round: int | str | None
    changed: tuple[str, ...]
    """Files whose change completed."""
    in_flight: tuple[str, ...]
    """Files whose change began but was never confirmed: each is fully old or fully new, never half-written."""
    finished: bool
    """The job ended in an orderly way (or a later start already reported it)."""
    pid: int | None = None
    touched: tuple[str, ...] = ()
    """Every file the job began to change, for the temporary-file sweep."""
    head: str | None = None
    """The commit checked out when the round began: commits on top of it are the round's."""


def read_state(path: Path, job_id: str) -> RoundState | None:
    """The state of one job's journal, or None when it has none (or recorded no change)."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    round_no: int | str | None = None
    pid: int | None = None
    head: str | None = None
    changed: dict[str, None] = {}
    in_flight: dict[str, None] = {}
    touched: dict[str, None] = {}
    finished = False
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a crash
        op = record.get("op") if isinstance(record, dict) else None
        if op == "round":
            round_no, pid, finished = record.get("round"), record.get("pid"), False
            head = record.get("head") if isinstance(record.get("head"), str) else None
            changed.clear()
            in_flight.clear()
        elif op == "begin":
            name = str(record.get("path"))
            in_flight[name] = touched[name] = None
            pid, finished = record.get("pid", pid), False
        elif op == "done":
            name = str(record.get("path"))
            in_flight.pop(name, None)
            if record.get("changed"):
                changed[name] = None
        elif op in ("end", "recovered"):
            finished = True
    if not touched and round_no is None:
        return None
    return RoundState(job_id, round_no, tuple(changed), tuple(in_flight), finished, pid, tuple(touched), head)


def unfinished_jobs(root: Path) -> list[RoundState]:
    """Jobs of this repository whose journal never ended and whose process is gone."""
    jobs_dir = root / ".pedro" / "jobs"
    found: list[RoundState] = []
    try:
        candidates = sorted(jobs_dir.iterdir())
    except OSError:
        return found
    for job_dir in candidates:
        state = read_state(job_dir / JOURNAL_NAME, job_dir.name)
        if state is not None and not state.finished and not another_pedro_alive(state.pid):
            found.append(state)
    return found


def recover(root: Path) -> list[tuple[RoundState, list[str]]]:
    """Report interrupted jobs once: sweep their leftover temporary files and mark the journal as reported."""
    recovered: list[tuple[RoundState, list[str]]] = []
    for state in unfinished_jobs(root):
        removed = remove_temp_files(root, state.touched)
        Journal(root / ".pedro" / "jobs" / state.job_id / JOURNAL_NAME)._write({"op": "recovered"})
        recovered.append((state, removed))
    return recovered


def remove_temp_files(root: Path, paths: tuple[str, ...]) -> list[str]:
    """Delete the atomic-write temporaries left next to `paths`; return them relative to the root."""
    removed: list[str] = []
    real_root = root.resolve()
    for rel in paths:
        target = (real_root / rel).resolve()
        if not target.parent.is_relative_to(real_root):
            continue
        prefix = f".{target.name[:_TEMP_PREFIX_CHARS]}.pedro-"
        try:
            entries = list(target.parent.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(prefix) and _TEMP_NAME.match(entry.name) and not entry.is_symlink():
                with contextlib.suppress(OSError):
                    entry.unlink()
                    removed.append(entry.relative_to(real_root).as_posix())
    return removed
