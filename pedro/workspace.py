"""Facts about the repository a job runs in: where it is, whether it is safe to start, what changed."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from pedro import gitlayer
from pedro.errors import UsageError

_STATUS = ("status", "--porcelain=v1", "-uall", "-z")


def find_repo_root(path: Path, *, allow_outside_git: bool = False) -> Path:
    """The top of the git repository containing `path`; refuse `/`, $HOME and non-repositories."""
    path = path.expanduser().resolve()
    if not path.is_dir():
        raise UsageError(f"--repo {path} is not a directory; pass the path of a repository")
    top = gitlayer.toplevel(path)
    root = top or path
    home = Path(os.environ.get("HOME", "/nonexistent")).resolve()
    if root == Path("/") or root == home:
        raise UsageError(
            f"refusing to run in {root}: it holds far more than one project. "
            "cd into a repository (or create one: mkdir proj && cd proj && git init)"
        )
    if top is None and not allow_outside_git:
        raise UsageError(
            f"{path} is not inside a git repository. pedro snapshots your work with git; "
            "run `git init` there first, or pass --allow-outside-git"
        )
    return root


def is_git_repo(root: Path) -> bool:
    """Whether `root` is inside a git repository (it may not be, with --allow-outside-git)."""
    return gitlayer.toplevel(root) is not None


def fingerprint(root: Path) -> str:
    """A hash of the commit checked out and the working tree's changes (what status lists, and the content of every
    changed or untracked file), to see whether anything changed: a job that commits its work has changed it too.
    One status pass reads the index and the tree; the changed files are read here, however few."""
    if not is_git_repo(root):
        return _tree_fingerprint(root)
    digest = hashlib.sha256()
    listed = ""
    for args in (("rev-parse", "HEAD"), _STATUS):
        try:
            result = gitlayer.run(root, *args, timeout=60)
        except gitlayer.GitError:
            continue
        digest.update(result.out.encode("utf-8", "surrogateescape"))
        listed = result.out if args == _STATUS else listed
    for path in _listed_paths(listed):
        digest.update(b"\0" + path.encode("utf-8", "surrogateescape") + b"\0")
        try:
            with (root / path).open("rb") as fh:  # in chunks: an untracked log can be hundreds of megabytes
                while chunk := fh.read(1 << 20):
                    digest.update(chunk)
        except OSError:
            continue  # deleted: status said so
    return digest.hexdigest()


def _listed_paths(status: str) -> list[str]:
    """The paths of `git status --porcelain=v1 -z`: each entry's path, and a rename's source as well."""
    entries = status.split("\0")
    paths: list[str] = []
    index = 0
    while index < len(entries):
        entry = entries[index]
        index += 1
        if len(entry) < 4:
            continue
        paths.append(entry[3:])
        if entry[0] in "RC":
            index += 1  # the source, which no longer holds the content
    return paths


def _tree_fingerprint(root: Path) -> str:
    """Outside git: a hash of every file's path and content (a link's target), pedro's own .pedro/ left out."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not (Path(dirpath) == root and d in (".pedro", ".git")))
        for name in sorted(filenames):
            path = Path(dirpath, name)
            digest.update(f"\0{path.relative_to(root)}\0".encode())
            try:
                if path.is_symlink():  # never followed: a link to /dev/zero or a FIFO would never end
                    digest.update(os.fsencode(path.readlink()))
                elif stat.S_ISREG(path.lstat().st_mode):
                    with path.open("rb") as fh:
                        while chunk := fh.read(1 << 20):
                            digest.update(chunk)
            except OSError:
                continue
    return digest.hexdigest()


def state_dir(repo: Path, *parts: str) -> Path:
    """<repo>/.pedro (or a folder in it), made when missing. A repository pedro cannot write in (a read-only mount,
    another user's files) is the operator's to fix, so it is a UsageError, not a crash."""
    folder = repo.joinpath(".pedro", *parts)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(
            f"cannot write in {repo} ({exc.strerror or exc}): pedro keeps its jobs in .pedro/ and snapshots your "
            "work in .git before it changes anything; make the repository writable, or work in a writable clone"
        ) from None
    return folder


def exclude_from_git(repo: Path) -> None:
    """Add .pedro/ to .git/info/exclude so pedro's files are never committed."""
    git_dir = repo / ".git"
    if not git_dir.is_dir():
        return
    exclude = git_dir / "info" / "exclude"
    try:
        text = exclude.read_text(encoding="utf-8") if exclude.is_file() else ""
        if ".pedro/" in text.splitlines():
            return
        exclude.parent.mkdir(parents=True, exist_ok=True)
        with exclude.open("a", encoding="utf-8") as fh:
            fh.write(("" if not text or text.endswith("\n") else "\n") + ".pedro/\n")
    except OSError:
        return
