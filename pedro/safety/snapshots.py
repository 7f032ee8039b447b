"""Git snapshots of the working tree under refs/pedro/snapshots/<job>/<n>, restore (undo) and the job branch.

A snapshot is built with a temporary index so the user's HEAD, branch, index and files are never touched:

    index commit I   tree = the user's real index (what was staged), parent = HEAD (if any)
    snapshot S       tree = the working tree: tracked + untracked files (respecting .gitignore) plus small
                     ignored files such as .env; parents = [HEAD, I] (or [I] before the first commit)

S's message is the label followed by `Pedro-*:` trailers (job, number, HEAD, branch, index tree). The ref keeps S
and, through its last parent, I reachable, so both survive `git gc --prune=now`; only branches are pushed, so
snapshots never leave the machine. Git runs through pedro.gitlayer: fixed argv (no shell), no hooks or fsmonitor.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pedro.errors import PedroError
from pedro.gitlayer import GitError, GitResult, run
from pedro.safety.tempindex import temporary_index
from pedro.safety.treestate import Remembered, settled_stamps

REF_PREFIX = "refs/pedro/snapshots"
BACKUP_PREFIX = "refs/pedro/backups"
"""Where restore keeps the state it replaced, apart from the numbered snapshots that undo walks back through."""
CHANGES_BY_KEY = "Pedro-Changes-By"
LEFT_OUT_KEY = "Pedro-Left-Out"
LEFT_OUT_COUNT_KEY = "Pedro-Left-Out-Count"
IGNORED_FILE_LIMIT = 1024 * 1024
"""Ignored files smaller than this are force-added, so `.env` and local settings are recoverable."""
IGNORED_TOTAL_LIMIT = 64 * 1024 * 1024
IGNORED_COUNT_LIMIT = 5000
# Untracked files this large (disk images, core dumps, a runaway `dd`) are left out of snapshots: hashing them would
# make every turn slow and the repository huge. A snapshot records their names, so restore leaves alone those that
# were there and removes those made after it.
UNTRACKED_FILE_LIMIT = 64 * 1024 * 1024
LEFT_OUT_RECORD_LIMIT = 1000
"""More left-out files than this are not listed; restoring such a snapshot then removes no large file."""
OUTPUT_DIRS = frozenset(
    {"node_modules", ".venv", "venv", "target", "dist", "build", ".gradle", ".next", ".tox", ".nox"}
)
"""Ignored dependency and build folders: never snapshotted, so a restore cannot bring them back, and undo says so."""
NOT_COVERED_KEY = "Pedro-Not-Covered"
NOT_COVERED_COUNT_KEY = "Pedro-Not-Covered-Count"
NOT_COVERED_RECORD_LIMIT = 200
SKIPPED_DIRS = frozenset(
    OUTPUT_DIRS
    | {".pedro", ".git"}
    # regenerable caches: thousands of small files nobody needs back
    | {"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
)
GIT_TIMEOUT_S = 300.0
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

_JOB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_IDENTITY = {
    "GIT_AUTHOR_NAME": "pedro",
    "GIT_AUTHOR_EMAIL": "pedro@localhost",
    "GIT_COMMITTER_NAME": "pedro",
    "GIT_COMMITTER_EMAIL": "pedro@localhost",
}


ChangesBy = Literal["pedro", "user"]
"""Who made the changes between a snapshot and the one before it: pedro's round, or the user in between rounds."""


UNDO_ANYWAY = "run `pedro undo --force`: it goes back anyway and keeps your version in the backup snapshot it names"


class SnapshotError(PedroError):
    """A snapshot could not be taken, listed or restored; the message names the fix."""


class SnapshotConflictError(SnapshotError):
    """The files changed since the snapshot pedro expected: the user edited after pedro's last change."""

    def __init__(self, message: str, changed: tuple[str, ...]) -> None:
        super().__init__(message)
        self.changed = changed


@dataclass(frozen=True)
class Snapshot:
    """One snapshot: where it is stored and what it holds."""

    job_id: str
    n: int
    ref: str
    commit: str
    tree: str
    """The working-tree state: tracked + untracked + small ignored files."""
    index_tree: str | None
    """The user's real index (None when it held unresolved merge conflicts)."""
    head: str | None
    """HEAD when the snapshot was taken (None before the first commit)."""
    branch: str | None
    """The checked-out branch (None when HEAD was detached)."""
    label: str
    time: float
    """Seconds since the epoch (committer date)."""
    left_out: tuple[str, ...] | None = None
    """Untracked files too large to store that were there (None when the snapshot did not record them)."""
    not_covered: tuple[str, ...] | None = None
    """Ignored folders and files that were there but are not in the snapshot (OUTPUT_DIRS, files of
    IGNORED_FILE_LIMIT bytes or more); None when the snapshot did not record them."""
    changes_by: ChangesBy | None = None
    """Who changed the files since the previous snapshot (None: not known, counted as pedro)."""

    @property
    def repair_candidate(self) -> tuple[int, bool] | None:
        """(N, whether it is the undo) for a snapshot repair took around its candidate N, else None."""
        found = _REPAIR_CANDIDATE.fullmatch(self.label)
        return (int(found.group("n")), bool(found.group("undo"))) if found else None


# Repair edits through the guard, whose labels are "before STEP" / "after STEP", with the steps
# "repair candidate N" and "undo repair candidate N" (pedro.repair.repairer).
_REPAIR_CANDIDATE = re.compile(r"(?:before|after) (?P<undo>undo )?repair candidate (?P<n>\d+)")


@dataclass(frozen=True)
class RestoreReport:
    """What a restore changed; `backup` holds the state just before it, so a restore is itself undoable."""

    snapshot: Snapshot
    backup: Snapshot
    written: tuple[str, ...]
    removed: tuple[str, ...]
    kept_ignored: tuple[str, ...]
    """Ignored files created since the snapshot, left in place."""
    index_restored: bool
    kept: tuple[str, ...] = ()
    """Files the caller asked to leave as they are (the user's own changes)."""


@dataclass(frozen=True)
class _State:
    tree: str
    index_tree: str | None
    left_out: tuple[str, ...] = ()
    not_covered: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Checkout:
    """What was checked out when a snapshot was taken: the commit and the branch (None for none, or detached)."""

    head: str | None
    branch: str | None


@dataclass(frozen=True)
class _Series:
    """Where a snapshot is numbered: a job's snapshots or its backups, and the latest of them the caller knows, whose
    number is tried first (the series is listed only when another process took it)."""

    prefix: str
    job_id: str
    after: Snapshot | None = None


def first_snapshot_ref(job_id: str) -> str:
    """The ref a new job's first snapshot gets (take_snapshot numbers a job's snapshots from 1)."""
    check_job_id(job_id)
    return f"{REF_PREFIX}/{job_id}/1"


def take_snapshot(root: Path, job_id: str, label: str, *, changes_by: ChangesBy | None = None) -> Snapshot:
    """Commit the current working tree and index to refs/pedro/snapshots/<job_id>/<n>; nothing else changes."""
    check_job_id(job_id)
    return _store(root, _capture(root), _Series(REF_PREFIX, job_id), label, changes_by)


def snapshot_if_changed(
    root: Path, job_id: str, label: str, *, since: Snapshot | None, changes_by: ChangesBy | None = None
) -> Snapshot | None:
    """take_snapshot, unless the working tree still has the tree of `since` and the same commit is checked out
    (then None); the state is read once."""
    check_job_id(job_id)
    state = _capture(root)
    head = head_commit(root)
    if since is not None and state.tree == since.tree and head == since.head:
        return None
    series = _Series(REF_PREFIX, job_id, since if since is not None and since.job_id == job_id else None)
    return _store(root, state, series, label, changes_by, head=(head,))


def _store(
    root: Path,
    state: _State,
    series: _Series,
    label: str,
    changes_by: ChangesBy | None = None,
    *,
    head: tuple[str | None] | None = None,
) -> Snapshot:
    """Commit `state` as the next snapshot of `series`; `head` is HEAD when the caller has just read it."""
    checkout = _Checkout(head[0] if head is not None else head_commit(root), current_branch(root))
    parents: list[str] = [checkout.head] if checkout.head else []
    if state.index_tree is not None:
        parents.append(_commit_tree(root, state.index_tree, parents[:1], f"pedro index for {series.job_id}\n"))
    prefix, job_id = series.prefix, series.job_id
    n = series.after.n + 1 if series.after is not None else _next_number(root, prefix, job_id)
    for _attempt in range(20):
        message = _message(label, job_id, n, checkout, state, changes_by)
        # the date is set, not left to git, so that the snapshot can be read back from what was written
        when = int(time.time())
        commit = _commit_tree(root, state.tree, parents, message, when=when)
        ref = f"{prefix}/{job_id}/{n}"
        # the empty old value makes the update fail if a concurrent snapshot took this number first
        proc = _git(root, "update-ref", "-m", f"pedro snapshot: {_one_line(label)}", ref, commit, "", check=False)
        if proc.code == 0:
            stored = _parse_record("\0".join((ref, commit, state.tree, str(when), message)), prefix)
            if stored is None:
                raise SnapshotError(f"snapshot {ref} could not be read back; check `git show {ref}`")
            return stored
        n = _next_number(root, prefix, job_id)
    raise SnapshotError(f"could not allocate a snapshot number under {prefix}/{job_id}; retry the command")


def _next_number(root: Path, prefix: str, job_id: str) -> int:
    return max((s.n for s in _list(root, prefix, job_id)), default=0) + 1


def list_snapshots(root: Path, job_id: str) -> list[Snapshot]:
    """The snapshots of one job, oldest (n = 1) first."""
    check_job_id(job_id)
    return _list(root, REF_PREFIX, job_id)


def list_backups(root: Path, job_id: str) -> list[Snapshot]:
    """The states restores replaced for one job (refs/pedro/backups/<job>/<n>), oldest first."""
    check_job_id(job_id)
    return _list(root, BACKUP_PREFIX, job_id)


def latest_snapshot(root: Path, job_id: str) -> Snapshot | None:
    """The newest snapshot of a job, or None when it has none."""
    snapshots = list_snapshots(root, job_id)
    return snapshots[-1] if snapshots else None


def fingerprint_tree(root: Path) -> str:
    """The tree id of the current working state, computed exactly as a snapshot would store it."""
    return _capture(root).tree


def changed_paths(root: Path, old_tree: str, new_tree: str) -> list[str]:
    """Paths that differ between two trees (added, removed or modified)."""
    if old_tree == new_tree:
        return []
    out = _git(root, "diff-tree", "-r", "--no-renames", "--name-only", "-z", old_tree, new_tree).out
    return [p for p in out.split("\0") if p]


def restore_snapshot(
    root: Path, snapshot: Snapshot, *, expected: Snapshot | None, keep: Collection[str] = ()
) -> RestoreReport:
    """Bring files and the real index back to `snapshot`, except the files in `keep`; no branch or HEAD moves.

    With `expected` (normally the latest snapshot), refuse when the current state differs from it outside `keep`:
    the user edited files after pedro's last change, and restoring would throw those edits away.
    """
    current = _capture(root)
    keep = frozenset(keep)
    if expected is not None and (current.tree != expected.tree or _large_changed(current, expected)):
        _refuse_edited(root, current, expected, keep)
    backup = _store(root, current, _Series(BACKUP_PREFIX, snapshot.job_id), f"before restoring snapshot {snapshot.n}")
    to_write, to_remove = _differences(root, current, snapshot, keep)
    ignored = set(_ignored_among(root, to_remove))
    made_since = [p for p in _large_files_made_since(current, snapshot, to_write) if p not in keep]
    removed = [p for p in to_remove if p not in ignored] + made_since
    for path in removed:
        _remove_file(root, path)
    if to_write:
        _checkout_paths(root, snapshot.tree, to_write)
    index_restored = False
    if snapshot.index_tree is not None and snapshot.index_tree != current.index_tree:
        _git(root, "read-tree", snapshot.index_tree)
        # read-tree drops stat data; refresh it so the next `git status` does not rehash every file
        _git(root, "update-index", "-q", "--refresh", check=False)
        index_restored = True
    return RestoreReport(
        snapshot=snapshot,
        backup=backup,
        written=tuple(to_write),
        removed=tuple(removed),
        kept_ignored=tuple(p for p in to_remove if p in ignored),
        index_restored=index_restored,
        kept=tuple(sorted(keep)),
    )


def _refuse_edited(root: Path, current: _State, expected: Snapshot, keep: frozenset[str]) -> None:
    """SnapshotConflictError naming the files, outside `keep`, that changed since `expected`; nothing if none did."""
    changed = tuple(changed_paths(root, expected.tree, current.tree))
    changed += tuple(sorted(set(current.left_out) ^ set(expected.left_out or ())))
    changed = tuple(path for path in changed if path not in keep)
    if changed:
        raise SnapshotConflictError(
            f"{len(changed)} file(s) changed since pedro's last snapshot ({shorten(changed)}); they were edited "
            "after pedro's last change, and going back would lose those edits. Commit or copy them, or "
            f"{UNDO_ANYWAY}",
            changed,
        )


def _differences(root: Path, current: _State, snapshot: Snapshot, keep: frozenset[str]) -> tuple[list[str], list[str]]:
    """The files, outside `keep`, to write back from `snapshot` and those to remove, as its tree differs from now."""
    diff = _git(root, "diff-tree", "-r", "--no-renames", "-z", "--name-status", current.tree, snapshot.tree).out
    to_write: list[str] = []
    to_remove: list[str] = []
    fields = [f for f in diff.split("\0") if f]
    for status, path in zip(fields[0::2], fields[1::2], strict=True):
        if path not in keep:
            (to_remove if status == "D" else to_write).append(path)
    return to_write, to_remove


def shorten(paths: Sequence[str], shown: int = 5) -> str:
    """The first few paths and how many more: for messages."""
    more = f" and {len(paths) - shown} more" if len(paths) > shown else ""
    return ", ".join(paths[:shown]) + more


def _large_changed(current: _State, expected: Snapshot) -> bool:
    """Whether the large left-out files differ from those `expected` recorded (unknown records never differ)."""
    return expected.left_out is not None and set(current.left_out) != set(expected.left_out)


def _large_files_made_since(current: _State, snapshot: Snapshot, to_write: Sequence[str]) -> list[str]:
    """Large untracked files that appeared after `snapshot`: it recorded the ones it left out, and these are not."""
    if snapshot.left_out is None:
        return []
    keep = set(snapshot.left_out) | set(to_write)
    return [path for path in current.left_out if path not in keep]


def _capture(root: Path) -> _State:
    """Write the real index tree and the working-tree tree using a copy of the index; the real one is only read."""
    git_dir, index = _git_places(root)
    with temporary_index(git_dir, "index", copy_of=index) as temp_index:
        env = {"GIT_INDEX_FILE": str(temp_index)}
        index_tree = _index_tree(root, index, env)
        large = _large_untracked_files(root, env)
        pathspecs = [".", *(f":(exclude,literal){path}" for path in large)]
        _git(
            root,
            "add",
            "-A",
            "--ignore-errors",
            "--pathspec-from-file=-",
            "--pathspec-file-nul",
            env=env,
            stdin="\0".join(pathspecs) + "\0",
            check=False,
        )
        extra, not_covered = _small_ignored_files(root, env)
        if extra:
            _git(
                root,
                "--literal-pathspecs",
                "add",
                "-f",
                "--ignore-errors",
                "--pathspec-from-file=-",
                "--pathspec-file-nul",
                env=env,
                stdin="\0".join(extra) + "\0",
                check=False,
            )
        tree = _git(root, "write-tree", env=env).out.strip()
        return _State(tree=tree, index_tree=index_tree, left_out=tuple(large), not_covered=tuple(not_covered))


# The git directory and index of each working tree, and the tree each index file held: a snapshot is taken before
# and after every round that may change files, and asking git for these each time cost three of its fourteen runs.
_PLACES = Remembered[tuple[Path, Path]](kept=64)
_INDEX_TREES = Remembered[str](kept=64)


def _git_places(root: Path) -> tuple[Path, Path]:
    """The absolute git directory of `root` and the path of its index: asked of git again whenever `.git` itself
    was replaced (a new repository, or a folder turned into a link to one elsewhere)."""
    top = root.absolute()
    try:
        dot_git = (top / ".git").lstat()
    except OSError:
        dot_git = None
    key = (top, dot_git.st_ino, dot_git.st_mode) if dot_git is not None else None
    known = _PLACES.get(key) if key is not None else None
    if known is not None:
        return known
    lines = _git(root, "rev-parse", "--absolute-git-dir", "--git-path", "index").out.splitlines()
    if len(lines) != 2:
        raise SnapshotError(f"git rev-parse gave no git directory in {root}; check `git status` there")
    git_dir, index = Path(lines[0]), Path(lines[1])
    found = (git_dir, index if index.is_absolute() else top / index)
    if key is not None:
        _PLACES.put(key, found)
    return found


def _index_tree(root: Path, index: Path, env: dict[str, str]) -> str | None:
    """The tree of the real index (written from its copy, named by `env`), or None while it holds unresolved
    conflicts. An index file is replaced, never edited in place, whenever git changes it, so its stamp names its
    content; a stamp that has moved too recently to trust (treestate.settled) is asked again."""
    read_at = time.time_ns()
    stamps = settled_stamps([str(index)], read_at)
    known = _INDEX_TREES.get(stamps) if stamps is not None else None
    if known is not None:
        return known
    written = _git(root, "write-tree", env=env, check=False)
    if written.code != 0:
        return None
    tree = written.out.strip()
    if stamps is not None and stamps[0][1] is not None:
        _INDEX_TREES.put(stamps, tree)
    return tree


def _large_untracked_files(root: Path, env: dict[str, str]) -> list[str]:
    """Untracked, not ignored files of UNTRACKED_FILE_LIMIT bytes or more."""
    out = _git(root, "ls-files", "-z", "--others", "--exclude-standard", env=env).out
    large: list[str] = []
    for rel in (p for p in out.split("\0") if p):
        with contextlib.suppress(OSError):
            info = (root / rel).lstat()
            if stat.S_ISREG(info.st_mode) and info.st_size >= UNTRACKED_FILE_LIMIT:
                large.append(rel)
    return large


def _small_ignored_files(root: Path, env: dict[str, str]) -> tuple[list[str], list[str]]:
    """Ignored files under the size limit, outside dependency and build directories; and what is left out of the
    snapshot for that (dependency and build folders, ignored files too large or past the total)."""
    out = _git(root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", env=env).out
    chosen: list[str] = []
    not_covered: list[str] = []
    total = 0
    for entry in (e for e in out.split("\0") if e):
        for rel in _expand_ignored(root, entry, not_covered):
            try:
                info = (root / rel).lstat()
            except OSError:
                continue
            if info.st_size >= IGNORED_FILE_LIMIT or total + info.st_size > IGNORED_TOTAL_LIMIT:
                not_covered.append(rel)
                continue
            chosen.append(rel)
            total += info.st_size
            if len(chosen) >= IGNORED_COUNT_LIMIT:
                return chosen, not_covered
    return chosen, not_covered


def _expand_ignored(root: Path, entry: str, not_covered: list[str]) -> Iterator[str]:
    """An ignored file as itself; an ignored directory as the files under it, skipping heavy directories (the
    dependency and build folders among them are added to `not_covered`)."""
    parts = entry.rstrip("/").split("/")
    skipped = next((i for i, part in enumerate(parts) if part in SKIPPED_DIRS), None)
    if skipped is not None:
        if parts[skipped] in OUTPUT_DIRS:
            not_covered.append("/".join(parts[: skipped + 1]) + "/")
        return
    if not entry.endswith("/"):
        yield entry
        return
    for dirpath, dirnames, filenames in os.walk(root / entry):
        # a nested repository is its own project; never descend into dependency or build output
        kept = sorted(d for d in dirnames if d not in SKIPPED_DIRS and not (Path(dirpath, d, ".git")).exists())
        base = Path(dirpath).relative_to(root)
        not_covered.extend(f"{(base / d).as_posix()}/" for d in sorted(dirnames) if d in OUTPUT_DIRS)
        dirnames[:] = kept
        for name in sorted(filenames):
            yield Path(dirpath, name).relative_to(root).as_posix()


def _ignored_among(root: Path, paths: Sequence[str]) -> list[str]:
    """Those of `paths` that the ignore rules match (whether or not they are tracked)."""
    if not paths:
        return []
    proc = _git(root, "check-ignore", "--no-index", "-z", "--stdin", stdin="\0".join(paths) + "\0", check=False)
    return [p for p in proc.out.split("\0") if p]


def held_by_git(root: Path, paths: Sequence[str]) -> set[str]:
    """Those of `paths` (relative to `root`) whose content git's index already holds, unchanged in the working tree.

    Anyone who can run git in the repository can print such a file (`git show :PATH`), so hiding it gains nothing.
    """
    if not paths:
        return set()
    specs = [f":(literal){path}" for path in paths]
    try:
        proc = _git(root, "ls-files", "-z", "-t", "--cached", "--modified", "--", *specs, check=False)
    except SnapshotError:
        return set()  # git cannot say, so nothing counts as held
    if proc.code != 0:
        return set()
    tracked: set[str] = set()
    changed: set[str] = set()
    for record in filter(None, proc.out.split("\0")):
        tag, _, path = record.partition(" ")
        (changed if tag == "C" else tracked).add(path)
    return tracked - changed


def _remove_file(root: Path, rel: str) -> None:
    """Delete one file created since the snapshot, then any directories it leaves empty; never leave the root."""
    real_root = root.resolve()
    path = real_root / rel
    if real_root not in path.parent.resolve().parents and path.parent.resolve() != real_root:
        return
    with contextlib.suppress(FileNotFoundError):
        if path.is_dir() and not path.is_symlink():
            return  # a nested repository recorded as a gitlink: never delete someone's repository
        path.unlink()
    parent = path.parent
    while parent != real_root:
        try:
            parent.rmdir()
        except OSError:
            break
        parent = parent.parent


def _checkout_paths(root: Path, tree: str, paths: list[str]) -> None:
    """Write `paths` as they are in `tree` (content, mode, symlinks) through a temporary index."""
    git_dir = Path(_git(root, "rev-parse", "--absolute-git-dir").out.strip())
    with temporary_index(git_dir, "restore") as temp_index:
        env = {"GIT_INDEX_FILE": str(temp_index)}
        _git(root, "read-tree", tree, env=env)
        proc = _git(root, "checkout-index", "-f", "-z", "--stdin", env=env, stdin="\0".join(paths) + "\0", check=False)
        if proc.code != 0:
            raise SnapshotError(
                f"restoring files failed: {proc.err.strip()}. Nothing was lost: the state before the restore "
                "is in the backup snapshot"
            )


def _commit_tree(root: Path, tree: str, parents: Sequence[str], message: str, *, when: int | None = None) -> str:
    argv = ["commit-tree", tree]
    for parent in parents:
        argv += ["-p", parent]
    dated = {"GIT_AUTHOR_DATE": f"{when} +0000", "GIT_COMMITTER_DATE": f"{when} +0000"} if when is not None else {}
    return _git(root, *argv, env=dated, stdin=message).out.strip()


def _message(label: str, job_id: str, n: int, checkout: _Checkout, state: _State, changes_by: ChangesBy | None) -> str:
    # one JSON string per line, so names with newlines or colons survive; the count tells a full list from a cut one
    left_out, not_covered = state.left_out, sorted(set(state.not_covered))
    listed = "".join(f"{LEFT_OUT_KEY}: {json.dumps(path)}\n" for path in left_out[:LEFT_OUT_RECORD_LIMIT])
    listed += f"{NOT_COVERED_COUNT_KEY}: {len(not_covered)}\n"
    listed += "".join(f"{NOT_COVERED_KEY}: {json.dumps(path)}\n" for path in not_covered[:NOT_COVERED_RECORD_LIMIT])
    return (
        f"{_one_line(label) or 'snapshot'}\n\n"
        f"Pedro-Job: {job_id}\nPedro-Snapshot: {n}\nPedro-Head: {checkout.head or '-'}\n"
        f"Pedro-Branch: {checkout.branch or '-'}\nPedro-Index-Tree: {state.index_tree or '-'}\n"
        f"{CHANGES_BY_KEY}: {changes_by or '-'}\n"
        f"{LEFT_OUT_COUNT_KEY}: {len(left_out)}\n{listed}"
    )


def _parse_left_out(body: str) -> tuple[str, ...] | None:
    """The left-out files a snapshot message lists, or None when it lists none or only some of them."""
    return _parse_list(body, LEFT_OUT_KEY, LEFT_OUT_COUNT_KEY, complete=True)


def _parse_list(body: str, key: str, count_key: str, *, complete: bool) -> tuple[str, ...] | None:
    """The paths a snapshot message lists under `key`; None when it has no count, or (`complete`) lists only some."""
    count: int | None = None
    paths: list[str] = []
    for line in body.splitlines():
        name, _, value = line.partition(": ")
        if name == count_key and value.strip().isdigit():
            count = int(value)
        elif name == key:
            with contextlib.suppress(ValueError):
                path = json.loads(value)
                if isinstance(path, str):
                    paths.append(path)
    if count is None or (complete and count != len(paths)):
        return None
    return tuple(paths)


def _one_line(text: str) -> str:
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())[:200]


def _list(root: Path, prefix: str, job_id: str, ref: str | None = None) -> list[Snapshot]:
    """Snapshots under `prefix/job_id/` (or the single `ref`), sorted by number."""
    fmt = "%(refname)%00%(objectname)%00%(tree)%00%(committerdate:unix)%00%(contents)%00%00"
    out = _git(root, "for-each-ref", f"--format={fmt}", ref or f"{prefix}/{job_id}/").out
    parsed = [_parse_record(record, prefix) for record in out.split("\0\0\n") if record.strip("\n")]
    snapshots = sorted((s for s in parsed if s is not None and s.job_id == job_id), key=lambda s: s.n)
    if ref is not None and not snapshots:
        raise SnapshotError(f"snapshot {ref} could not be read back; check `git show {ref}`")
    return snapshots


def _parse_record(record: str, prefix: str) -> Snapshot | None:
    """One for-each-ref record; refs with odd names are skipped."""
    fields = record.lstrip("\n").split("\0")
    if len(fields) < 5:
        return None
    ref, commit, tree, when, contents = fields[:5]
    tail = ref.removeprefix(prefix + "/")
    job_id, _, number = tail.rpartition("/")
    if not number.isdigit() or not job_id:
        return None
    label, _, body = contents.partition("\n")
    trailers = dict(
        (key.strip(), value.strip()) for key, _, value in (line.partition(":") for line in body.splitlines()) if value
    )

    def trailer(key: str) -> str | None:
        value = trailers.get(key, "-")
        return None if value == "-" else value

    return Snapshot(
        job_id=job_id,
        n=int(number),
        ref=ref,
        commit=commit,
        tree=tree,
        index_tree=trailer("Pedro-Index-Tree"),
        head=trailer("Pedro-Head"),
        branch=trailer("Pedro-Branch"),
        label=label,
        time=float(when or 0),
        left_out=_parse_left_out(body),
        not_covered=_parse_list(body, NOT_COVERED_KEY, NOT_COVERED_COUNT_KEY, complete=False),
        changes_by=_changes_by(trailer(CHANGES_BY_KEY)),
    )


def _changes_by(value: str | None) -> ChangesBy | None:
    if value == "pedro":
        return "pedro"
    if value == "user":
        return "user"
    return None


def head_commit(root: Path) -> str | None:
    """The commit HEAD points at, or None before the first commit."""
    proc = _git(root, "rev-parse", "--verify", "-q", "HEAD^{commit}", check=False)
    return proc.out.strip() if proc.code == 0 else None


def current_branch(root: Path) -> str | None:
    proc = _git(root, "symbolic-ref", "--short", "-q", "HEAD", check=False)
    return proc.out.strip() if proc.code == 0 else None


def git_path(root: Path, name: str) -> Path:
    """Where git keeps `name` (index, MERGE_HEAD, ...) for this working tree."""
    path = Path(_git(root, "rev-parse", "--git-path", name).out.strip())
    return path if path.is_absolute() else root / path


def check_job_id(job_id: str) -> None:
    """Refuse a job id that cannot be part of a ref name."""
    if not _JOB_ID.fullmatch(job_id) or ".." in job_id or job_id.endswith((".lock", ".")):
        raise SnapshotError(f"job id {job_id!r} cannot name a git ref; use letters, digits, '.', '_' and '-'")


def _git(
    root: Path,
    *args: str,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
    check: bool = True,
) -> GitResult:
    """Run git in `root` through the git layer (fixed argv, no hooks or fsmonitor), committing as pedro."""
    try:
        result = run(root, *args, env={**_IDENTITY, **(env or {})}, stdin=stdin, timeout=GIT_TIMEOUT_S)
    except GitError as exc:
        raise SnapshotError(f"{exc}; check the repository at {root}") from exc
    if check and not result.ok:
        raise SnapshotError(f"git {args[0]} failed in {root}: {result.err.strip() or result.out.strip()}")
    return result
