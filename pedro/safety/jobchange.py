"""The job's own change to each file it touched (its first snapshot → its last), laid onto HEAD's version: what the
job's commit holds, so the user's uncommitted edits in the same files stay theirs and uncommitted."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pedro.gitlayer import GitError, GitResult, run

_REGULAR = frozenset({"100644", "100755"})
"""File modes a line merge applies to (symlinks and submodules are taken whole or not at all)."""
_REMOVED = ("0", "0" * 40)
"""An --index-info line with this mode and id removes the path."""


@dataclass(frozen=True)
class Entry:
    """A path's mode and blob in a tree."""

    mode: str
    blob: str


@dataclass(frozen=True)
class JobDelta:
    """What a job changed: the working tree it started from (and the commit checked out then), the one it left,
    and the paths that are its own."""

    start_tree: str
    start_head: str | None
    end_tree: str
    paths: tuple[str, ...]


@dataclass(frozen=True)
class JobVersions:
    """What the job's commit holds: each path as the job left it without the user's uncommitted edits (None:
    removed), and the paths where that cannot be told apart (`clashes`, each with why)."""

    entries: Mapping[str, Entry | None]
    clashes: Mapping[str, str]


class JobChangeError(GitError):
    """git could not read or merge the job's change; the message names what failed."""


def job_versions(root: Path, delta: JobDelta) -> JobVersions:
    """Each of `delta.paths` as the job left it, with the user's uncommitted edits of the job's start taken out: a
    three-way merge of the start (the ancestor), the end, and the commit checked out at the start. Edits of the
    user's that the job's change touches (the same lines, a file git does not hold) clash."""
    start = tree_entries(root, delta.start_tree, delta.paths)
    end = tree_entries(root, delta.end_tree, delta.paths)
    committed = tree_entries(root, delta.start_head, delta.paths)
    entries: dict[str, Entry | None] = {}
    clashes: dict[str, str] = {}
    for path in delta.paths:
        before, after, base = start.get(path), end.get(path), committed.get(path)
        if before == base or after == base:
            entries[path] = after  # the user had no edit there, or the job put the committed version back
        elif before is None or after is None or base is None:
            clashes[path] = "it holds your own uncommitted work, which the commit would take along"
        elif (merged := merge_entries(root, before, after, base)) is not None:
            entries[path] = merged
        else:
            clashes[path] = "your uncommitted edits and the job's change touch the same lines"
    return JobVersions(entries, clashes)


def tree_entries(root: Path, tree: str | None, paths: Sequence[str]) -> dict[str, Entry]:
    """The entries of `paths` in `tree` (a tree or commit id), by path; absent paths are left out."""
    if tree is None or not paths:
        return {}
    out = _check(root, "--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", tree, "--", *paths).out
    return {path: Entry(mode, blob) for (mode, kind, blob), path in _records(out) if kind == "blob"}


def index_entries(root: Path, paths: Sequence[str]) -> dict[str, Entry]:
    """The real index's entries of `paths` (merged ones: a conflicted path has none)."""
    out = _check(root, "--literal-pathspecs", "ls-files", "-s", "-z", "--", *paths).out
    return {path: Entry(mode, blob) for (mode, blob, stage), path in _records(out) if stage == "0"}


def _records(out: str) -> list[tuple[list[str], str]]:
    """`git ls-tree -z` / `ls-files -s -z` output: each record's space-separated fields and its path."""
    records = []
    for record in filter(None, out.split("\0")):
        meta, _, path = record.partition("\t")
        records.append((meta.split(), path))
    return records


def index_info(entries: Mapping[str, Entry | None]) -> str:
    """`git update-index -z --index-info` input that sets (or removes) each path."""
    lines = []
    for path, entry in entries.items():
        mode, blob = (entry.mode, entry.blob) if entry is not None else _REMOVED
        lines.append(f"{mode} {blob}\t{path}\0")
    return "".join(lines)


def merge_entries(root: Path, base: Entry | None, ours: Entry | None, theirs: Entry | None) -> Entry | None:
    """A clean line merge of three versions of a regular file (the mode of the side that changed it); None when they
    clash, one is missing, or one is binary or no regular file."""
    if base is None or ours is None or theirs is None or not {base.mode, ours.mode, theirs.mode} <= _REGULAR:
        return None
    with tempfile.TemporaryDirectory(prefix="pedro-merge-") as folder:
        names = []
        for name, entry in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = Path(folder, name)
            content = _check(root, "cat-file", "blob", entry.blob).out
            path.write_bytes(content.encode("utf-8", "surrogateescape"))
            names.append(str(path))
        # Without -p the result is written over the first file: the bytes never pass through a decoded stdout.
        merged = run(root, "merge-file", "--quiet", *names)
        if merged.code != 0:  # the number of conflicts, or a negative status for binary files and errors
            return None
        blob = _check(root, "hash-object", "-w", "--", names[0]).out.strip()
    return Entry(theirs.mode if theirs.mode != base.mode else ours.mode, blob)


def _check(root: Path, *args: str, stdin: str | None = None) -> GitResult:
    result = run(root, *args, stdin=stdin)
    if not result.ok:
        said = result.err.strip() or f"exit status {result.code}"
        verb = next(arg for arg in args if not arg.startswith("-"))
        raise JobChangeError(f"git {verb} failed while reading the job's change: {said}")
    return result
