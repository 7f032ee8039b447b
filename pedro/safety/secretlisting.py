"""Which files of a repository may hold secrets: one native listing, then an index kept up to date folder by folder.

The list is asked before every sandboxed command (the sandbox hides each file) and once per job for redaction. The
first time a tree is asked about, ripgrep's walker lists it, limited to the secret names: the one pass that must come
before a job's first command. The second time, an index of the tree's folders is built in its place, and from then
on each question costs one stat per folder (treestate: a folder's change time moves whenever an entry is added,
removed or renamed in it); only the folders that moved are read again, and the folders new inside them walked.
Edits between commands (a file written atomically moves its folder's time) cost a reading of that folder alone.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import stat
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from pedro.rgbinary import rg_binary
from pedro.safety.secretfiles import (
    HOME_SECRETS,
    SECRET_FILE_NAMES,
    in_credential_store,
    is_secret_path,
    might_be_secret,
)
from pedro.safety.snapshots import SKIPPED_DIRS
from pedro.safety.treestate import Remembered, Stamp, settled, stamp, stamp_of

_RG_TIMEOUT_S = 120.0
# Trees remembered at once: a job's repository, and a few more in a long-lived server.
_KEPT = 8


def repo_secret_files(root: Path) -> list[Path]:
    """The regular files under `root` that may hold secrets, symlinks skipped (their targets are found themselves).

    The listing skips what snapshots skip (.git, node_modules, virtualenvs, build output, caches) and any other
    virtualenv (a folder with pyvenv.cfg, such as one named .env): vendored CA bundles and test keys of
    dependencies live there, hiding them would break the tools. Ignore files do not hide a secret file (a .env is
    usually ignored). The first question about a tree is answered by one native pass of ripgrep's walker, the
    later ones by the tree's folder index (the module's docstring).
    """
    key = str(root)
    with _ASKING:
        entry = _TREES.get(key)
        if entry is None:
            listed = _listed_by_ripgrep(root)
            if listed is not None:
                _TREES.put(key, _LISTED)
                return _outside_virtualenvs(listed, root)
        index = _FolderIndex(root) if not isinstance(entry, _FolderIndex) else entry
        index.refresh()
        _TREES.put(key, index)
        return _outside_virtualenvs(index.files(), root)


def forget_secret_listings() -> None:
    """Forget every tree's index (benchmarks time a tree's first listing with it)."""
    _TREES.clear()


@dataclass(frozen=True)
class _Folder:
    """A folder as it was read: its stamp (None while it changed too recently to trust: read again next time), its
    secret files and the folders inside it the listing enters."""

    stamp: Stamp
    secret: tuple[str, ...]
    folders: tuple[str, ...]


class _FolderIndex:
    """Every folder the listing enters under a root, with what each held when it was last read."""

    def __init__(self, root: Path) -> None:
        self._root = str(root)
        self._folders: dict[str, _Folder] = {}

    def files(self) -> list[Path]:
        return sorted(Path(path) for folder in self._folders.values() for path in folder.secret)

    def refresh(self) -> None:
        """Read again every folder that moved since it was read (all of them the first time), and walk the folders
        new inside them."""
        read_at = time.time_ns()
        if not self._folders:
            self._walk(self._root, read_at)
            return
        moved = [path for path, folder in self._folders.items() if folder.stamp is None or stamp(path) != folder.stamp]
        # Folders were added above their contents, so a folder is read again before the ones inside it.
        for path in moved:
            before = self._folders.get(path)
            if before is None:
                continue  # went with a folder above it
            # A folder gone, or no folder now, is forgotten with all inside it as it is read; one new is walked.
            now = self._read(path, read_at)
            for new in set(now.folders if now is not None else ()) - set(before.folders):
                self._walk(new, read_at)

    def _walk(self, top: str, read_at: int) -> None:
        waiting = [top]
        while waiting:
            folder = self._read(waiting.pop(), read_at)
            if folder is not None:
                waiting += folder.folders

    def _read(self, path: str, read_at: int) -> _Folder | None:
        """Read one folder and remember it; None (and it forgotten, with all inside it) when it is no folder now."""
        try:
            info = os.stat(path, follow_symlinks=False)  # noqa: PTH116 (text paths: thousands per walk)
        except OSError:
            info = None
        if info is None or not stat.S_ISDIR(info.st_mode):
            self._drop(path)
            return None
        secret, folders = _entries(path, path[len(self._root) + 1 :])
        folder = _Folder(stamp_of(info) if settled(info, read_at) else None, secret, folders)
        self._folders[path] = folder
        return folder

    def _drop(self, path: str) -> None:
        below = path + "/"
        for known in [known for known in self._folders if known == path or known.startswith(below)]:
            del self._folders[known]


def _entries(path: str, rel: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The secret files in the folder at `path` (`rel` in the tree) and the folders inside it the listing enters."""
    in_store = bool(rel) and in_credential_store(rel)
    secret: list[str] = []
    folders: list[str] = []
    try:
        with os.scandir(path) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIPPED_DIRS:
                        folders.append(entry.path)
                # The name first: it rules out almost every file without a stat or a path built.
                elif (
                    (in_store or might_be_secret(entry.name))
                    and entry.is_file(follow_symlinks=False)
                    and is_secret_path(f"{rel}/{entry.name}" if rel else entry.name)
                ):
                    secret.append(entry.path)
    except OSError:
        pass  # unreadable, so ripgrep lists nothing in it either; its time moves when that changes
    return tuple(secret), tuple(folders)


_LISTED = "listed"
"""A tree listed once by ripgrep: the next question builds its index."""
_TREES: Remembered[_FolderIndex | str] = Remembered(_KEPT)
# One question at a time: redaction's listing runs on a thread beside a tool that may start a sandboxed command.
_ASKING = threading.Lock()


def _outside_virtualenvs(found: list[Path], root: Path) -> list[Path]:
    venvs: dict[Path, bool] = {}
    return sorted(path for path in found if not _inside_virtualenv(path, root, venvs))


def _rg_globs() -> list[str]:
    """ripgrep's globs for the secret names (a superset: is_secret_path decides) and the skipped folders."""
    names = list(SECRET_FILE_NAMES)
    stores = [glob for entry in HOME_SECRETS for glob in (f"**/{entry}", f"**/{entry}/**")]
    # An exclusion given last wins over the names, as a skipped folder wins in the walk.
    return [*(f"--iglob={glob}" for glob in (*names, *stores)), *(f"--glob=!{name}" for name in sorted(SKIPPED_DIRS))]


def _listed_by_ripgrep(root: Path) -> list[Path] | None:
    """The secret files ripgrep lists under `root`, or None when ripgrep is missing or fails."""
    rg = rg_binary()
    if rg is None:
        return None
    argv = [rg, "--files", "--hidden", "--no-ignore", "--no-config", "--no-messages", "--null", *_rg_globs(), "."]
    try:
        proc = subprocess.Popen(argv, cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)  # fmt: skip
    except OSError:
        return None
    # The listing may run on a thread beside a tool (Redactor.prefetch): if pedro exits first, it ends with pedro.
    _LISTINGS.add(proc)
    try:
        out, _ = proc.communicate(timeout=_RG_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None
    finally:
        _LISTINGS.discard(proc)
    if proc.returncode not in (0, 1):  # 1: no file matched
        return None
    rels = [os.fsdecode(raw) for raw in out.split(b"\0") if raw]
    return [root / rel for rel in rels if is_secret_path(rel)]


_LISTINGS: set[subprocess.Popen[bytes]] = set()


@atexit.register
def _end_listings() -> None:
    """A listing still running when pedro exits (Ctrl-C during a tool) is ended, never left behind."""
    for proc in list(_LISTINGS):
        with contextlib.suppress(OSError):
            proc.kill()


def _walked(root: Path) -> list[Path]:
    """The same list by a walk in Python (the folder index of the tree, read whole)."""
    index = _FolderIndex(root)
    index.refresh()
    return index.files()


def _inside_virtualenv(path: Path, root: Path, venvs: dict[Path, bool]) -> bool:
    """Whether a folder between `root` (excluded) and `path` holds pyvenv.cfg."""
    for folder in path.parents:
        if folder == root or root not in folder.parents:
            return False
        if folder not in venvs:
            venvs[folder] = (folder / "pyvenv.cfg").is_file()
        if venvs[folder]:
            return True
    return False
