"""Runs one command and ends all its descendants when pedro dies, even by SIGKILL (the Landlock fallback's job guard).

Started by pedro as `python -E -s reaper.py PARENT_PID [--hide-proc NAMES] -- ARGV...`, standalone (no pedro
imports, so it starts fast and nothing in the environment changes what it runs). It adopts orphaned descendants
(a child subreaper), asks the kernel for SIGTERM when its parent dies, and on that signal, or on pedro's own SIGTERM
at a timeout, ends every descendant: a SIGTERM, a short grace, then SIGKILL. Bubblewrap needs none of this: its pid
namespace ends with it.

It finds descendants in /proc, which the command must not read: /proc/<pid>/environ holds the environment of pedro
and of every other process of the user, and neither Landlock's ptrace rules nor an undumpable pedro keep a root
command from reading it. So the command gets a second Landlock layer, on top of the one pedro gave both: reads of
everything but the process directories of /proc (its own included; /proc/self leads there). NAMES, the entries of /
joined by "/", come from pedro, since the first layer may forbid listing / here.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from pathlib import Path

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_GRACE_S = 1.0
_ENDING = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
# Landlock as pedro.safety.sandbox sets it up: generic syscall numbers, the same on x86_64 and arm64.
_SYS_CREATE_RULESET = 444
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_RULE_PATH_BENEATH = 1
_READ_FILE = 1 << 2
_READ_DIR = 1 << 3


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class _Ending(Exception):
    """Raised by the signal handler to leave a blocking wait."""


def descendants(root: int) -> list[int]:
    """Every living process below `root`, from /proc (parents first)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def end_all(me: int) -> None:
    """SIGTERM to every descendant, a short grace, then SIGKILL until none is left (each kill may orphan more
    onto this process, a subreaper)."""
    _signal_all(me, signal.SIGTERM)
    until = time.monotonic() + _GRACE_S
    while descendants(me) and time.monotonic() < until:
        _reap()
        time.sleep(0.05)
    for _ in range(50):
        if not _signal_all(me, signal.SIGKILL):
            break
        _reap()
        time.sleep(0.02)
    _reap()


def _signal_all(me: int, sig: signal.Signals) -> bool:
    found = descendants(me)
    for pid in found:
        try:
            os.kill(pid, sig)
        except OSError:
            pass
    return bool(found)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def hide_processes(libc: ctypes.CDLL, top_names: list[str]) -> None:
    """Confine this process to reading everything but the process directories of /proc (fails with OSError)."""
    grants = [Path("/", name) for name in top_names if name != "proc"]
    grants += [entry for entry in Path("/proc").iterdir() if not entry.name.isdigit()]
    attr = _RulesetAttr(_READ_FILE | _READ_DIR)
    ruleset = libc.syscall(ctypes.c_long(_SYS_CREATE_RULESET), ctypes.byref(attr), ctypes.c_size_t(8), 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        for path in grants:
            if path.is_symlink():
                continue  # a rule made through a link would cover its target: /proc/self leads to a process
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue  # gone since pedro listed it
            try:
                access = _READ_FILE | _READ_DIR if path.is_dir() else _READ_FILE
                rule = _PathBeneathAttr(access, fd)
                if libc.syscall(ctypes.c_long(_SYS_ADD_RULE), ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0) < 0:
                    raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
            finally:
                os.close(fd)
        # no_new_privs is already set: pedro's own Landlock layer needed it
        if libc.syscall(ctypes.c_long(_SYS_RESTRICT_SELF), ruleset, 0) < 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)


def _parse(argv: list[str]) -> tuple[int, list[str], list[str] | None] | None:
    """PARENT_PID, the command and the entries of / (when /proc is to be hidden); None for a bad command line."""
    top_names: list[str] | None = None
    if len(argv) > 2 and argv[1] == "--hide-proc":
        top_names = [name for name in argv[2].split("/") if name]
        argv = [argv[0], *argv[3:]]
    if len(argv) < 3 or argv[1] != "--" or not argv[0].isdigit():
        return None
    return int(argv[0]), argv[2:], top_names


def _exec_command(libc: ctypes.CDLL, command: list[str], top_names: list[str] | None) -> None:
    """In the forked child: restore default signal handling, confine, and become the command; never returns."""
    # Typed None, not NoReturn: importing typing would slow every command's start.
    # Python ignores SIGPIPE and SIGXFSZ; the command gets the defaults, as subprocess would give it.
    for sig in (*_ENDING, signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _ENDING)
    if top_names is not None:
        try:
            hide_processes(libc, top_names)
        except OSError as exc:
            sys.stderr.write(f"pedro: the Landlock sandbox could not be set up ({exc}); command not run\n")
            os._exit(126)
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        sys.stderr.write(f"{command[0]}: {exc.strerror}\n")
    os._exit(127)


def _wait_for(pid: int, me: int, ending: list[int]) -> int:
    """Reap children until the command ends (its exit code) or an ending signal arrives (all descendants ended)."""
    while True:
        try:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _ENDING)
            if ending:
                raise _Ending
            done, status = os.waitpid(-1, 0)
        except _Ending:
            end_all(me)
            return 128 + ending[0]
        except ChildProcessError:
            return 1
        if done == pid:
            return _exit_like(me, status)


def _exit_like(me: int, status: int) -> int:
    """The command's exit code; a command killed by a signal kills this process with the same signal."""
    if os.WIFSIGNALED(status):
        # Die the same way, so pedro reads the signal (SIGXFSZ, SIGKILL) as it would from the command.
        died_of = os.WTERMSIG(status)
        signal.signal(died_of, signal.SIG_DFL)
        os.kill(me, died_of)
    return os.waitstatus_to_exitcode(status)


def main(argv: list[str]) -> int:
    parsed = _parse(argv)
    if parsed is None:
        sys.stderr.write("usage: reaper.py PARENT_PID [--hide-proc NAMES] -- COMMAND [ARG...]\n")
        return 2
    parent, command, top_names = parsed
    me = os.getpid()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    ending: list[int] = []

    def on_signal(signum: int, _frame: object) -> None:
        ending.append(signum)
        if len(ending) == 1:
            raise _Ending  # waitpid is retried after a handler returns (PEP 475): interrupt it

    # Held back until the wait below, so a signal can only arrive where it is caught.
    signal.pthread_sigmask(signal.SIG_BLOCK, _ENDING)
    for sig in _ENDING:
        signal.signal(sig, on_signal)
    if os.getppid() != parent:  # pedro died before the death signal was armed
        return 128 + signal.SIGTERM
    pid = os.fork()
    if pid == 0:
        _exec_command(libc, command, top_names)
    return _wait_for(pid, me, ending)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
