"""The one git layer: every git pedro runs, with hooks, fsmonitor, pagers, system config and credential helpers off.

`run()` is pedro's own git, through GitPython's `Git` command wrapper (imported on first use); `command()` is a git
whose output the model reads, as an exact argv and environment for pedro.process. docs/architecture.md, "Git".
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

from pedro.debuglog import LOGGER
from pedro.errors import PedroError
from pedro.process import another_pedro_alive, pipe_holders

if TYPE_CHECKING:
    from pedro.process import ChildCommand

GIT_TIMEOUT_S = 300.0
_SLICE_S = 0.5
_EXIT_GRACE_S = 1.0

_NEUTRAL_CONFIG = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.pager=cat",
    "core.quotepath=off",
    "color.ui=never",
)
_NO_CREDENTIAL_HELPERS = ("credential.helper=",)  # an empty value empties the list of helpers
_NEUTRAL_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "GIT_EDITOR": "true",
    "GIT_OPTIONAL_LOCKS": "0",
    "LC_ALL": "C",
}
FOREIGN_VARS = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_EXTERNAL_DIFF",
)
"""Variables a git hook or alias exports that would point git at another repository, index or configuration."""

_WORKTREE_PREFIX = "pedro-worktree-"
_WORKTREE_OWNER = re.compile(rf"^{_WORKTREE_PREFIX}(\d+)-")


class GitError(PedroError):
    """git could not be run at all, or failed where pedro needed it; the message names the fix."""


@dataclass(frozen=True)
class GitResult:
    """How one git run ended: exit status, stdout and stderr (undecodable bytes kept as surrogate escapes)."""

    code: int
    out: str
    err: str

    @property
    def ok(self) -> bool:
        return self.code == 0


def argv(root: Path, *args: str, publish: bool = False) -> tuple[str, ...]:
    """The full argv of one git run in `root`: no pager, no hooks, no fsmonitor, no credential helpers."""
    config = _NEUTRAL_CONFIG if publish else _NEUTRAL_CONFIG + _NO_CREDENTIAL_HELPERS
    return ("git", "-C", str(root.absolute()), "--no-pager", *(word for item in config for word in ("-c", item)), *args)


def environment(base: Mapping[str, str], *, publish: bool = False) -> dict[str, str]:
    """`base` without the variables that point git elsewhere, plus the neutral settings."""
    env = {name: value for name, value in base.items() if name not in FOREIGN_VARS}
    env.update(_neutral_env(publish))
    return env


def command(root: Path, *args: str, env: Mapping[str, str], publish: bool = False) -> ChildCommand:
    """A git whose output the model reads: exact argv and environment, for pedro.process.run_child."""
    from pedro.process import ChildCommand, child_env

    return ChildCommand(
        argv=argv(root, *args, publish=publish), cwd=root, env=child_env(environment(env, publish=publish))
    )


def run(
    root: Path,
    *args: str,
    env: Mapping[str, str] | None = None,
    stdin: str | None = None,
    timeout: float = GIT_TIMEOUT_S,
    publish: bool = False,
) -> GitResult:
    """Run git for pedro itself; `env` (a temporary index, an identity) is laid over the neutral settings.

    `publish` (a push the user approved) keeps the user's credential helpers and the machine's git settings.
    """
    from git import Git
    from git.exc import GitCommandNotFound

    overlay = {**_neutral_env(publish), **(env or {})}
    try:
        with _input(stdin) as istream:
            # As a process we own: git's own watchdog thread would outlive a Ctrl-C and hold pedro until it fired.
            started = Git(str(root.absolute())).execute(
                list(argv(root, *args, publish=publish)), istream=istream, as_process=True, env=overlay
            )
            proc = cast("subprocess.Popen[bytes]", started.proc)
            out, err, code = _wait(proc, timeout)
    except GitCommandNotFound as exc:
        raise GitError("git is not installed or not on PATH; install git (apt-get install git)") from exc
    except OSError as exc:
        raise GitError(f"could not run git in {root} ({exc})") from exc
    if code is None:
        return GitResult(-9, out, f"git {args[0] if args else ''} did not finish within {timeout:g} s and was stopped")
    return GitResult(code, out, err)


def _wait(proc: subprocess.Popen[bytes], timeout: float) -> tuple[str, str, int | None]:
    """stdout, stderr and the exit status of a git run (None when it ran out of time and was killed); it is killed
    however the wait ends, Ctrl-C included. Once git has exited, its output is read for _EXIT_GRACE_S more at most:
    a process git left behind (an alias's background job) may hold the pipes open long after."""
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                out, err = proc.communicate(timeout=max(0.0, min(_SLICE_S, deadline - time.monotonic())))
                return _text(out), _text(err), proc.returncode
            except subprocess.TimeoutExpired as exc:
                if proc.poll() is not None:
                    return _after_exit(proc)
                if time.monotonic() >= deadline:
                    proc.kill()
                    proc.wait()
                    return _text(exc.output), _text(exc.stderr), None
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    finally:
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()


def _after_exit(proc: subprocess.Popen[bytes]) -> tuple[str, str, int | None]:
    """What an exited git wrote, read until its pipes close or _EXIT_GRACE_S pass; who still holds them is logged."""
    try:
        out, err = proc.communicate(timeout=_EXIT_GRACE_S)
    except subprocess.TimeoutExpired as exc:
        holders = pipe_holders(proc.stdout) + pipe_holders(proc.stderr)
        LOGGER.warning("git %s exited, but its output stayed open in %s", proc.args, "; ".join(holders) or "?")
        return _text(exc.output), _text(exc.stderr), proc.returncode
    return _text(out), _text(err), proc.returncode


def _text(data: bytes | None) -> str:
    """git's bytes as text, undecodable bytes kept as surrogate escapes (so they round-trip)."""
    return (data or b"").decode("utf-8", "surrogateescape")


def output(root: Path, *args: str, env: Mapping[str, str] | None = None, stdin: str | None = None) -> str:
    """The stdout of a git run that must succeed; a failure raises GitError with git's own words."""
    result = run(root, *args, env=env, stdin=stdin)
    if not result.ok:
        said = result.err.strip() or result.out.strip() or f"exit status {result.code}"
        raise GitError(f"git {args[0] if args else ''} failed in {root}: {said}")
    return result.out


def toplevel(path: Path) -> Path | None:
    """The top of the working tree containing `path`, or None when git finds no repository there."""
    try:
        result = run(path, "rev-parse", "--show-toplevel", timeout=15)
    except GitError:
        return None
    if "dubious ownership" in result.err:
        raise GitError(
            f"git will not work in {path}: the repository belongs to another user. If you trust it, run "
            f"`git config --global --add safe.directory {path}` (pedro reads no /etc/gitconfig)"
        )
    top = result.out.strip()
    return Path(top).resolve() if result.ok and top else None


def version() -> str | None:
    """`git version X.Y.Z`, or None when git cannot run."""
    try:
        result = run(Path("/"), "--version", timeout=10)
    except GitError:
        return None
    return result.out.strip() or None if result.ok else None


@contextlib.contextmanager
def scratch_worktree(root: Path, commit: str, *, borrow: tuple[str, ...] = ()) -> Iterator[Path]:
    """A detached worktree of `commit` in a temporary folder, removed and pruned afterwards: where pedro runs what
    must not touch the person's checkout or branch. `borrow` names untracked folders of the checkout the tree links
    to (what the tests need and git does not hold). Raises GitError when git cannot make it."""
    sweep_stale_worktrees(root)
    # The owner's pid in the name: a pedro killed before its `finally` leaves a worktree the next one removes.
    folder = Path(tempfile.mkdtemp(prefix=f"{_WORKTREE_PREFIX}{os.getpid()}-"))
    tree = folder / "tree"
    try:
        added = run(root, "worktree", "add", "--detach", str(tree), commit, timeout=120)
        if not added.ok:
            said = added.err.strip() or f"exit status {added.code}"
            raise GitError(f"could not make a worktree of {commit[:12]} to run in ({said})")
        for name in borrow:
            if (root / name).is_dir() and not (tree / name).exists():
                (tree / name).symlink_to(root / name)
        yield tree
    finally:
        run(root, "worktree", "remove", "--force", str(tree), timeout=120)
        shutil.rmtree(folder, ignore_errors=True)
        run(root, "worktree", "prune", timeout=60)


def sweep_stale_worktrees(root: Path) -> list[str]:
    """Remove the scratch worktrees of pedro processes that are gone (killed by SIGTERM or SIGKILL before they could
    remove their own), folders and registrations both; the paths removed."""
    listed = run(root, "worktree", "list", "--porcelain", timeout=60)
    if not listed.ok:
        return []
    removed = []
    paths = [Path(line.removeprefix("worktree ")) for line in listed.out.splitlines() if line.startswith("worktree ")]
    for path in paths:
        owner = _WORKTREE_OWNER.match(path.parent.name)
        pid = int(owner.group(1)) if owner is not None else None
        if pid is None or pid == os.getpid() or another_pedro_alive(pid):
            continue  # not a scratch worktree, or its pedro still runs
        run(root, "worktree", "remove", "--force", str(path), timeout=120)
        shutil.rmtree(path.parent, ignore_errors=True)
        removed.append(str(path))
    if removed:
        run(root, "worktree", "prune", timeout=60)
    return removed


def _neutral_env(publish: bool) -> dict[str, str]:
    env = dict(_NEUTRAL_ENV)
    if publish:
        del env["GIT_CONFIG_NOSYSTEM"]  # a push the user approved may need the machine's proxy or CA settings
    return env


@contextlib.contextmanager
def _input(text: str | None) -> Iterator[BinaryIO | None]:
    """What git reads on stdin: a temporary file holding `text` (GitPython hands stdin to Popen as a file)."""
    if text is None:
        yield None
        return
    with tempfile.TemporaryFile() as fh:
        fh.write(text.encode("utf-8", "surrogateescape"))
        fh.seek(0)
        yield cast(BinaryIO, fh)


__all__ = [
    "FOREIGN_VARS",
    "GIT_TIMEOUT_S",
    "GitError",
    "GitResult",
    "argv",
    "command",
    "environment",
    "output",
    "run",
    "scratch_worktree",
    "toplevel",
    "version",
]
