"""Start the `pedro` command the way a user would, within a time limit, and stop it as Ctrl-C would when asked."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Final

from pedro.process import release_leader, start_leader

STOP_GRACE_S: Final = 15.0
"""How long a run that got SIGINT may take to save its job before its whole process group is killed."""
STACKS_WAIT_S: Final = 1.0
"""How long a run past its limit is given to write its threads' stacks (SIGUSR1) before it gets SIGINT."""
STDERR_KEPT: Final = 64 * 1024
"""The end of a run's stderr that is kept: where a run past its limit was waiting."""


@dataclass
class Cancel:
    """Stops an evaluation: the runs under way get SIGINT (pedro saves the job), no new run starts."""

    fired: bool = False
    _live: set[subprocess.Popen[str]] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def fire(self) -> None:
        """Interrupt every run under way, as a person's Ctrl-C would each one."""
        with self._lock:
            self.fired = True
            live = list(self._live)
        for process in live:
            _signal_group(process, signal.SIGINT)

    def _enter(self, process: subprocess.Popen[str]) -> bool:
        with self._lock:
            if self.fired:
                return False
            self._live.add(process)
            return True

    def _leave(self, process: subprocess.Popen[str]) -> None:
        with self._lock:
            self._live.discard(process)


@dataclass(frozen=True)
class Launched:
    """What one run of the pedro command left: its stdout (JSON events with --json), exit code and how it ended;
    for a run stopped at its limit, the end of its stderr too, with every thread's stack at that moment."""

    stdout: str
    exit_code: int | None
    timed_out: bool
    interrupted: bool
    wall_s: float
    stderr: str = ""


def pedro_argv(*args: str) -> list[str]:
    """`python -m pedro ARGS` with this interpreter: the entry point the console script calls."""
    return [sys.executable, "-m", "pedro", *args]


def run_pedro(
    args: Sequence[str], *, cwd: Path, env: Mapping[str, str], time_limit_s: float, cancel: Cancel | None = None
) -> Launched:
    """Run `pedro ARGS` in its own process group; at the time limit or on `cancel` it gets SIGINT, then SIGKILL."""
    cancel = cancel if cancel is not None else Cancel()
    if cancel.fired:
        return Launched(stdout="", exit_code=None, timed_out=False, interrupted=True, wall_s=0.0)
    started = time.monotonic()
    with tempfile.TemporaryFile() as stderr:
        process = start_leader(
            lambda: subprocess.Popen(
                pedro_argv(*args),
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                start_new_session=True,
            )
        )
        if not cancel._enter(process):
            _signal_group(process, signal.SIGINT)
        try:
            stdout, timed_out = _communicate(process, time_limit_s)
        finally:
            cancel._leave(process)
            release_leader(process)
        said = _tail(stderr) if timed_out else ""
    return Launched(
        stdout=stdout or "",
        exit_code=process.returncode,
        timed_out=timed_out,
        interrupted=cancel.fired and not timed_out,
        wall_s=round(time.monotonic() - started, 3),
        stderr=said,
    )


def _communicate(process: subprocess.Popen[str], time_limit_s: float) -> tuple[str, bool]:
    """The run's stdout, and whether it had to be stopped at its limit."""
    try:
        stdout, _ = process.communicate(timeout=time_limit_s)
        return stdout, False
    except subprocess.TimeoutExpired:
        pass
    # Where it was waiting first (pedro writes its threads' stacks on SIGUSR1 and goes on), then SIGINT, as a
    # person's Ctrl-C: pedro saves the job and stops its server; then the whole group.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(process.pid, signal.SIGUSR1)
    with contextlib.suppress(subprocess.TimeoutExpired):
        stdout, _ = process.communicate(timeout=STACKS_WAIT_S)
        return stdout, True
    _signal_group(process, signal.SIGINT)
    try:
        stdout, _ = process.communicate(timeout=STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        _signal_group(process, signal.SIGKILL)
        stdout, _ = process.communicate()
    return stdout, True


def _tail(stream: IO[bytes]) -> str:
    """The end of what a run wrote to `stream`."""
    stream.seek(0, os.SEEK_END)
    stream.seek(max(0, stream.tell() - STDERR_KEPT))
    return stream.read().decode("utf-8", errors="replace")


def _signal_group(process: subprocess.Popen[str], sig: signal.Signals) -> None:
    try:
        os.killpg(process.pid, sig)
    except (ProcessLookupError, PermissionError):
        return
