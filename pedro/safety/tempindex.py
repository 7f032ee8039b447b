"""Temporary index files for snapshots and restores: made beside the real index, removed after use, and swept at
the next use when a pedro that was killed (or stopped by a second Ctrl-C) left them in `.git/`."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from pedro.process import another_pedro_alive

# pedro-index-<pid>-<random>[.lock]; names without the pid come from pedro versions before the pid was recorded.
_NAME = re.compile(r"^pedro-(?:index|restore)-(?:(?P<pid>\d+)-)?[A-Za-z0-9_]+(?:\.lock)?$")
UNOWNED_AGE_S = 3600.0
"""A temporary index with no pid in its name is stale once this old: no snapshot takes an hour."""


@contextlib.contextmanager
def temporary_index(git_dir: Path, kind: Literal["index", "restore"], *, copy_of: Path | None = None) -> Iterator[Path]:
    """A path for GIT_INDEX_FILE in `git_dir` (a copy of `copy_of` when it exists, else no file yet)."""
    sweep(git_dir)
    fd, name = tempfile.mkstemp(prefix=f"pedro-{kind}-{os.getpid()}-", dir=git_dir)
    os.close(fd)
    path = Path(name)
    try:
        if copy_of is not None and copy_of.exists():
            # Starting from the real index keeps its stat cache, so unchanged files are not rehashed. copy2 keeps
            # the index's own mtime too: git rechecks the content of entries as new as the index ("racily
            # clean"), and a fresh mtime would make it trust a same-size edit made in the same second.
            shutil.copy2(copy_of, path)
        else:
            path.unlink()
        yield path
    finally:
        for leftover in (path, path.with_name(path.name + ".lock")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


def sweep(git_dir: Path) -> list[str]:
    """Remove the temporary indexes (and their locks) of pedros that are no longer running; return their names."""
    removed: list[str] = []
    try:
        entries = list(os.scandir(git_dir))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        match = _NAME.match(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        pid = match.group("pid")
        try:
            stale = not another_pedro_alive(int(pid)) if pid else now - entry.stat().st_mtime > UNOWNED_AGE_S
        except OSError:
            continue
        if stale:
            with contextlib.suppress(OSError):
                Path(entry.path).unlink()
                removed.append(entry.name)
    return removed
