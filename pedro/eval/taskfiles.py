"""Copy a task's or a scenario's files into a run's repository, never writing or reading outside either tree.

A suite may come from anywhere (a shared folder, a pull request), and a run's repository holds whatever the model
left in it, links included: paths are checked (no absolute, `..` or `.git/` paths; no link leaving the task), and
each file is written through no link at all.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

from pedro.errors import UsageError

_CONTROL = frozenset({"", ".", ".."})


def checked_path(raw: str, where: str) -> PurePosixPath:
    """`raw` as a path inside a repository: relative, without `..`, and outside `.git`; UsageError naming `where`
    otherwise."""
    path = PurePosixPath(raw.replace("\\", "/"))
    parts = [part for part in path.parts if part != "."]
    if path.is_absolute() or raw.startswith("~") or not parts:
        raise UsageError(f"{where}: {raw!r} is not a path inside the repository; give a relative path like src/x.py")
    if ".." in parts:
        raise UsageError(f"{where}: {raw!r} climbs out with '..'; give a path inside the repository")
    if ".git" in parts or "\x00" in raw:
        raise UsageError(f"{where}: {raw!r} is inside .git, which a task or scenario may not supply")
    return PurePosixPath(*parts)


def write_file(repo: Path, relative: PurePosixPath, data: bytes, mode: int = 0o644) -> None:
    """Write `data` at `repo/relative` as a new regular file: any link or other entry on its way (a folder that is a
    link, a link at the file's place) is removed first, so the write lands inside `repo` whatever the tree held."""
    folder = repo
    for part in relative.parts[:-1]:
        folder = folder / part
        if folder.is_symlink() or (os.path.lexists(folder) and not folder.is_dir()):
            folder.unlink()
        folder.mkdir(exist_ok=True)
    target = folder / relative.name
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif os.path.lexists(target):
        shutil.rmtree(target)  # a folder where the file belongs: rmtree never follows the links inside it
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(target, flags, mode & 0o777)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


def copy_tree(
    source: Path, repo: Path, *, skip: Iterable[str] = (), only: Callable[[str], bool] = lambda _relative: True
) -> None:
    """Copy the files under `source` (those whose relative path `only` takes) into `repo` with write_file. A link
    inside `source` is copied as the file it names when that file is inside `source`; a link leaving it, or a `.git`
    entry, is a UsageError naming it."""
    top = source.resolve()
    skipped = frozenset(skip)
    for folder, dirs, files in os.walk(top):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if d not in skipped)
        for name in dirs:
            entry = here / name
            checked_path(entry.relative_to(top).as_posix(), str(entry))
            if entry.is_symlink():
                raise UsageError(f"{entry} is a link to a folder; a task's folders must be real folders")
        for name in sorted(files):
            entry = here / name
            relative = checked_path(entry.relative_to(top).as_posix(), str(entry))
            if not only(relative.as_posix()):
                continue
            real = entry.resolve()
            if real != top and top not in real.parents:
                raise UsageError(f"{entry} is a link to {entry.readlink()}, outside the task; copy the file in")
            info = real.stat()
            if not stat.S_ISREG(info.st_mode):
                raise UsageError(f"{entry} is not a regular file; a task holds only files and folders")
            write_file(repo, relative, real.read_bytes(), info.st_mode)
