"""One job at a time changes a repository: builder, debugger and undo hold a lock on <repo>/.pedro/run.lock."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

from pedro.errors import UsageError
from pedro.workspace import exclude_from_git, state_dir

LOCK_NAME = "run.lock"


class RepositoryBusyError(UsageError):
    """Another pedro process holds the repository's run lock."""


@contextlib.contextmanager
def hold_run_lock(root: Path, what: str) -> Iterator[None]:
    """Hold the repository's run lock while the block runs; refuse at once, naming the holder, when it is taken.

    flock(2) locks end with the process, so a killed pedro never leaves the repository locked.
    """
    folder = state_dir(root)
    exclude_from_git(root)  # the lock must not show in `git status`, even when the job never starts
    path = folder / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RepositoryBusyError(_busy_message(fd)) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "what": what, "since": time.time()}).encode(), 0)
        yield
    finally:
        os.close(fd)


def _busy_message(fd: int) -> str:
    try:
        holder = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except ValueError:
        holder = {}
    pid, what = holder.get("pid"), holder.get("what") or "a job"
    since = time.strftime("%H:%M:%S", time.localtime(holder["since"])) if holder.get("since") else "earlier"
    who = f"pedro (PID {pid}, {what}, since {since})" if pid else "another pedro process"
    stop = f" (Ctrl-C in its terminal, or `kill -INT {pid}`)" if pid else ""
    return (
        f"{who} is already changing this repository, and two jobs at once would switch branches under each other: "
        f"wait for it to finish or stop it{stop}, then run pedro again. `pedro review` and `pedro triage` "
        "do not change the repository and can run now"
    )
