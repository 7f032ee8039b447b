"""Run one child in its own process group with closed stdin, a group-wide timeout and flat-memory output capture."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import re
import secrets
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal, TypeVar

# Set in every child so leftovers can be found (tests, `pedro doctor`); the run id finds one run's escapees.
CHILD_MARKER = "PEDRO_CHILD"
RUN_ID_VAR = "PEDRO_RUN_ID"

# Pagers, credential prompts and fancy terminals would each hang or garble a non-interactive child.
QUIET_TERMINAL_ENV: dict[str, str] = {
    "PAGER": "cat",
    "GIT_PAGER": "cat",
    "GIT_TERMINAL_PROMPT": "0",
    "TERM": "dumb",
}

HARD_CAP_BYTES = 8 * 1024 * 1024
TERM_GRACE_S = 2.0
"""Seconds between SIGTERM and SIGKILL when a timeout ends a process group."""
EXIT_GRACE_S = 0.3
"""Seconds to keep reading after the main process exited, before leftovers holding the pipe are killed."""
_DRAIN_AFTER_KILL_S = 0.5
_POLL_S = 0.05
_READ_CHUNK = 65536
_ESCAPEE_SCANS = 5
_PR_SET_CHILD_SUBREAPER = 36

Outcome = Literal["exited", "timeout", "overflow"]
_Started = TypeVar("_Started", bound="subprocess.Popen[Any]")

# Process-group leaders pedro started itself and has not reaped yet (commands, eval runs, llama-server). As a
# subreaper pedro adopts orphans; these are its own children, started by other threads, never taken for orphans.
_LEADERS_LOCK = threading.Lock()
_LEADERS: set[int] = set()


@dataclass(frozen=True)
class ChildCommand:
    """What to execute: the seam a sandbox wraps (it may rewrite argv and env, e.g. prefix `bwrap …`)."""

    argv: tuple[str, ...]
    cwd: Path
    env: Mapping[str, str]
    preexec: Callable[[], None] | None = None
    """Runs in the child between fork and exec (rlimits, Landlock); it must not touch locks or threads."""


@dataclass(frozen=True)
class OutputLimits:
    """How much output is kept in memory (head and tail) and when the child is killed for talking too much."""

    head_bytes: int = 8192
    tail_bytes: int = 8192
    hard_cap_bytes: int = HARD_CAP_BYTES


@dataclass(frozen=True)
class ChildResult:
    """How a child ended and what it printed (stdout and stderr interleaved, head and tail kept)."""

    outcome: Outcome
    exit_code: int | None
    output: str
    total_bytes: int
    cut_bytes: int
    duration_s: float
    leftovers_killed: bool = False
    """Background processes were still running after the main process exited, and were killed."""
    cpu_s: float | None = None
    """The CPU time the child used, where it was measured."""

    @property
    def truncated(self) -> bool:
        return self.cut_bytes > 0


def child_env(base: Mapping[str, str], extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a child: `base`, quiet-terminal settings, the pedro marker, then `extra`."""
    env = dict(base)
    env.update(QUIET_TERMINAL_ENV)
    env[CHILD_MARKER] = "1"
    if extra:
        env.update(extra)
    return env


def shell_command(command: str, cwd: Path, base_env: Mapping[str, str]) -> ChildCommand:
    """A `bash -c` child: the bash tool's command and explicit test commands run through this."""
    return ChildCommand(argv=("bash", "-c", command), cwd=cwd, env=child_env(base_env))


@dataclass
class OutputCapture:
    """Keeps the first `head` and the last `tail` bytes of a stream and counts the rest, in bounded memory."""

    head_limit: int
    tail_limit: int
    head: bytearray = field(default_factory=bytearray)
    tail: bytearray = field(default_factory=bytearray)
    total: int = 0

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        room = self.head_limit - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if not data or self.tail_limit <= 0:
            return
        self.tail += data[-self.tail_limit :]
        # Trim lazily so a flood of small chunks costs amortised O(1) per byte and never more than 2x tail.
        if len(self.tail) > 2 * self.tail_limit:
            del self.tail[: len(self.tail) - self.tail_limit]

    @property
    def cut(self) -> int:
        return self.total - len(self.head) - min(len(self.tail), self.tail_limit)

    def render(self) -> str:
        tail = bytes(self.tail[-self.tail_limit :]) if self.tail_limit > 0 else b""
        head_text = clean_output(bytes(self.head))
        tail_text = clean_output(tail)
        if self.cut <= 0:
            return clean_output(bytes(self.head) + tail)
        return f"{head_text}\n[... truncated {self.cut} bytes ...]\n{tail_text}"


_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def clean_output(data: bytes) -> str:
    """Decode leniently, drop terminal escapes and keep only the last state of `\\r`-redrawn progress lines."""
    text = _ANSI.sub("", data.decode("utf-8", errors="replace")).replace("\r\n", "\n")
    if "\r" in text:
        text = "\n".join(line.rsplit("\r", 1)[-1] if line.rstrip("\r") else line for line in text.split("\n"))
    return text


def run_child(
    command: ChildCommand,
    *,
    timeout: float,
    limits: OutputLimits | None = None,
    tee: IO[bytes] | None = None,
) -> ChildResult:
    """Run `command` to completion, timeout or output overflow; never leaves its process group behind.

    The child gets its own session (so the whole group can be signalled), stdin from /dev/null and
    stdout+stderr on one pipe. Every byte also goes to `tee` when given (the test tool parses it from disk).
    Raises OSError only when the program cannot be started at all.
    """
    limits = limits or OutputLimits()
    run_id = secrets.token_hex(8)
    env = {**command.env, RUN_ID_VAR: run_id}
    adopter = _become_subreaper()
    known_children = set(_children_with_groups()) if adopter else set()
    started = time.monotonic()
    proc = start_leader(
        lambda: subprocess.Popen(
            list(command.argv),
            cwd=command.cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
            preexec_fn=command.preexec,
        )
    )
    assert proc.stdout is not None
    reader = _PipeReader(proc.stdout, OutputCapture(limits.head_bytes, limits.tail_bytes), tee)
    leftovers = False
    try:
        outcome = _supervise(proc, reader, started + timeout, limits.hard_cap_bytes)
        leftovers = _finish(proc, reader, outcome, run_id)
    finally:
        reader.close()
        if proc.returncode is None:
            _signal_group(proc.pid, signal.SIGKILL)
            proc.wait()
        release_leader(proc)
        if adopter:
            leftovers = _kill_adopted(known_children | {proc.pid}) or leftovers
    capture = reader.capture
    return ChildResult(
        outcome=outcome,
        exit_code=proc.returncode,
        output=capture.render(),
        total_bytes=capture.total,
        cut_bytes=max(capture.cut, 0),
        duration_s=time.monotonic() - started,
        leftovers_killed=leftovers,
    )


class _PipeReader:
    """Non-blocking reads from the child's pipe into a capture, so a silent grandchild never blocks pedro."""

    def __init__(self, pipe: IO[bytes], capture: OutputCapture, tee: IO[bytes] | None) -> None:
        self.pipe = pipe
        self.fd = pipe.fileno()
        self.capture = capture
        self.tee = tee
        self.eof = False
        os.set_blocking(self.fd, False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.fd, selectors.EVENT_READ)

    def pump(self, wait_s: float) -> None:
        """Wait up to `wait_s` for output and read what is there."""
        if self.eof:
            time.sleep(min(wait_s, _POLL_S))
            return
        if not self.selector.select(timeout=max(wait_s, 0.0)):
            return
        while True:
            try:
                data = os.read(self.fd, _READ_CHUNK)
            except BlockingIOError:
                return
            if not data:
                self.eof = True
                return
            self.capture.feed(data)
            if self.tee is not None:
                self.tee.write(data)
            if len(data) < _READ_CHUNK:
                return

    def drain(self, seconds: float) -> None:
        """Read until EOF or until `seconds` have passed."""
        until = time.monotonic() + seconds
        while not self.eof and (left := until - time.monotonic()) > 0:
            self.pump(min(left, _POLL_S))

    def close(self) -> None:
        self.selector.close()
        self.pipe.close()


def _supervise(proc: subprocess.Popen[bytes], reader: _PipeReader, deadline: float, hard_cap: int) -> Outcome:
    while True:
        if reader.capture.total > hard_cap:
            return "overflow"
        if _has_exited(proc):
            return "exited"
        left = deadline - time.monotonic()
        if left <= 0:
            return "timeout"
        reader.pump(min(left, _POLL_S))


def _finish(proc: subprocess.Popen[bytes], reader: _PipeReader, outcome: Outcome, run_id: str) -> bool:
    """End whatever is left of the child's process group (and escapees from it); True if leftovers were killed."""
    leftovers = False
    if outcome == "exited":
        # A background job may still hold the pipe: read briefly, then stop waiting on it.
        reader.drain(EXIT_GRACE_S)
        # Reaped first, so a group that still answers has live members; Linux keeps a used group id reserved.
        proc.wait()
        leftovers = _signal_group(proc.pid, signal.SIGKILL)
        leftovers = _kill_escapees(run_id, signal.SIGKILL) or leftovers
    elif outcome == "timeout":
        _signal_group(proc.pid, signal.SIGTERM)
        _kill_escapees(run_id, signal.SIGTERM)
        until = time.monotonic() + TERM_GRACE_S
        while not _has_exited(proc) and time.monotonic() < until:
            reader.pump(_POLL_S)
        _signal_group(proc.pid, signal.SIGKILL)
        _kill_escapees(run_id, signal.SIGKILL)
    else:
        _signal_group(proc.pid, signal.SIGKILL)
        _kill_escapees(run_id, signal.SIGKILL)
    if outcome != "overflow":
        reader.drain(_DRAIN_AFTER_KILL_S)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    return leftovers


def start_leader(start: Callable[[], _Started]) -> _Started:
    """Start a process-group leader with `start` (a Popen call) and record it as pedro's own until
    `release_leader`; under the lock, so no scan for adopted orphans sees it unrecorded."""
    with _LEADERS_LOCK:
        process = start()
        _LEADERS.add(process.pid)
    return process


def release_leader(process: subprocess.Popen[Any]) -> None:
    """Forget a leader started by `start_leader`, once its owner has reaped it."""
    with _LEADERS_LOCK:
        _LEADERS.discard(process.pid)


def _has_exited(proc: subprocess.Popen[bytes]) -> bool:
    """True once the main process has exited, without reaping it, so its group id cannot be reused yet."""
    if proc.returncode is not None:
        return True
    waitid = getattr(os, "waitid", None)
    if waitid is None:
        return proc.poll() is not None
    try:
        info = waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return proc.poll() is not None
    return info is not None


def _signal_group(pgid: int, sig: signal.Signals) -> bool:
    """Signal a whole process group; True if any member was there to receive it."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _kill_escapees(run_id: str, sig: signal.Signals) -> bool:
    """Signal processes that left the group (setsid, double fork) but still carry this run's id.

    Best effort on Linux (/proc); a child that scrubs its environment escapes this, which is why the
    sandbox's pid namespace, not this, is the guarantee. A process caught mid-exec shows an empty
    environment for an instant, so there are always two passes, and more while they keep finding some.
    """
    found = False
    for attempt in range(_ESCAPEE_SCANS):
        hit = _signal_marked(run_id, sig)
        found = found or hit
        if not hit and attempt > 0:
            break
        time.sleep(_POLL_S / 5)
    return found


@functools.cache
def _become_subreaper() -> bool:
    """Make this process adopt its orphaned descendants (Linux), once; False where that is not possible.

    A child that double-forks, leaves the session and scrubs its environment escapes both the process-group kill
    and the marker scan; as a subreaper pedro becomes its parent instead of init, so it can still be found. Only
    the Landlock fallback needs this: bubblewrap's pid namespace ends every descendant with the sandbox.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _children_with_groups() -> dict[int, tuple[bool, int]]:
    """The processes whose parent is this process: whether each is still running, and its process group."""
    me = str(os.getpid())
    found: dict[int, tuple[bool, int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 2 and fields[1] == me:
            found[int(entry.name)] = (fields[0] != "Z", int(fields[2]))
    return found


def _adopted(known: set[int]) -> dict[int, bool]:
    """Children this process adopted (each with whether it still runs), never one another thread started: those
    are recorded leaders, or stayed in pedro's own process group (git, ripgrep), which no command's descendant can
    join, since every command starts in a session of its own. Call with _LEADERS_LOCK held."""
    own_group = os.getpgrp()
    return {
        pid: running
        for pid, (running, group) in _children_with_groups().items()
        if pid not in known and pid not in _LEADERS and group != own_group
    }


def _kill_adopted(known: set[int]) -> bool:
    """Kill and reap children this process adopted during the run (descendants whose parents exited); True if
    any was still running. Exited ones are only reaped: bubblewrap's own helper ends up here that way.

    Killing one may orphan its own children onto this process, so the scan repeats while it finds some.
    """
    found = False
    with _LEADERS_LOCK:
        for _attempt in range(_ESCAPEE_SCANS):
            adopted = _adopted(known)
            if not adopted:
                break
            for pid, running in adopted.items():
                if running:
                    found = True
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
            for pid in adopted:
                try:
                    os.waitpid(pid, 0)  # they are this process's children now: reap them, or they stay zombies
                except ChildProcessError:
                    pass
    return found


def _signal_marked(run_id: str, sig: signal.Signals) -> bool:
    proc_dir = Path("/proc")
    if not proc_dir.is_dir():
        return False
    needle = f"{RUN_ID_VAR}={run_id}".encode()
    me = os.getpid()
    found = False
    for entry in proc_dir.iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            try:
                os.kill(int(entry.name), sig)
                found = True
            except OSError:
                pass
    return found


def describe_exit(code: int | None) -> str:
    """`exit code N`, naming the signal when the process was killed by one."""
    if code is None:
        return "exit code unknown"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"exit code {code} (killed by {name})"
    return f"exit code {code}"


def another_pedro_alive(pid: int | None) -> bool:
    """Whether `pid` is a running process other than this one (another pedro in the same repository)."""
    if not isinstance(pid, int) or pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def pipe_holders(pipe: IO[bytes] | None) -> list[str]:
    """The other processes that hold an end of `pipe`, as `pid (command)`: what keeps a pipe open after the process
    it was made for has exited. Empty where /proc cannot say."""
    if pipe is None or pipe.closed:
        return []
    try:
        link = f"pipe:[{os.fstat(pipe.fileno()).st_ino}]"
    except OSError:
        return []
    me = os.getpid()
    holders: list[str] = []
    for entry in Path("/proc").glob("[0-9]*"):
        if int(entry.name) == me:
            continue
        with contextlib.suppress(OSError):
            if any(str(fd.readlink()) == link for fd in (entry / "fd").iterdir()):
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
                holders.append(f"{entry.name} ({command[:200]})")
    return holders
