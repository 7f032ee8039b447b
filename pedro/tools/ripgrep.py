"""Locate ripgrep, run it with a fixed argv under a time limit, and read its file lists and grep rows."""

from __future__ import annotations

import base64
import bisect
import fcntl
import json
import os
import re
import select
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import translate
from functools import lru_cache
from pathlib import Path
from types import TracebackType

from pedro.rgbinary import rg_binary
from pedro.safety.secretfiles import HOME_SECRETS, SECRET_FILE_NAMES, is_secret_path
from pedro.tools.base import ToolContext, ToolFailure, ToolTimeoutError

# Seconds one ripgrep run may take before it is stopped; a search that takes longer needs a narrower path.
RG_TIMEOUT = 60.0
# Bytes asked of the pipe per read: as much as the widened pipe holds, so one read drains whatever is there.
_READ_SIZE = 1 << 20
# The pipe ripgrep writes to is widened to this (Linux's default limit for unprivileged users)...
_PIPE_BYTES = 1 << 20
_DEFAULT_PIPE_BYTES = 64 * 1024
# ...and drained this often while ripgrep runs, so that reading costs a few wake-ups, not one per file.
_DRAIN_SECONDS = 0.005
# Bytes of ripgrep's stderr kept for error messages.
_STDERR_KEPT = 64 * 1024


_INSTALL_HINT = (
    "ripgrep (rg) is not installed, so search cannot run (fix: pip install ripgrep==14.1.0 "
    "or apt install ripgrep); use navigate list_dir and file read instead"
)


@dataclass(frozen=True)
class RgOutcome:
    """How a ripgrep run ended: its exit status (0 match, 1 none, 2 error) and its error text."""

    returncode: int
    stderr: str
    log: bytes = b""
    """Everything the run wrote to stderr, its --debug log included, when the caller asked to keep it."""


def find_rg(env: Mapping[str, str] | None = None) -> str:
    """The ripgrep binary to run: the one the `ripgrep` wheel put next to this Python, else one on PATH."""
    found = rg_binary(None if env is None else env.get("PATH"))
    if found is None:
        raise ToolFailure(_INSTALL_HINT)
    return found


def base_argv(
    ctx: ToolContext,
    *,
    globs: Sequence[str] = (),
    ignore_case: bool = False,
    filters: Sequence[str] = (),
    hide_secrets: bool = False,
) -> list[str]:
    """The argv every ripgrep run starts with: no user config, hidden files, the caller's filters.

    `hide_secrets` leaves out every file that may hold secrets, and the few non-secret files that
    left_out_by_secret_filters calls spared; ripgrep decides by path alone, so it never opens a secret file.
    """
    flag = "--iglob" if ignore_case else "--glob"
    argv = [
        find_rg(ctx.env),
        # A user's RIPGREP_CONFIG_PATH could add flags such as --pre; pedro's runs must not depend on it.
        "--no-config",
        # Dot-directories such as .github hold code worth finding; .gitignore still hides caches.
        "--hidden",
        # Respect .gitignore even when the root has no .git (pedro --allow-outside-git), the same everywhere.
        "--no-require-git",
        *filters,
    ]
    # The caller's globs go before pedro's exclusions: in ripgrep the later glob wins, so secrets stay out.
    argv.extend(f"{flag}={glob}" for glob in globs)
    argv.append("--glob=!.git")
    if hide_secrets:
        # After the caller's filters: for file types as for globs, the later match wins.
        argv.extend(_secret_filters(overridden=_lets_files_in(argv)))
    return argv


def _lets_files_in(argv: Sequence[str]) -> bool:
    """Whether an argv has a glob that selects files (--glob=X, not --glob=!X): ripgrep's overrides, which decide
    over a file alone once one matches it, file types unasked."""
    return any(arg.partition("=")[2][:1] != "!" for arg in argv if arg.startswith(("--glob=", "--iglob=")))


@dataclass(frozen=True)
class GlobScope:
    """How ripgrep applies a user's glob: flags that select file names, and the path to search.

    `under` is None when the glob cannot match anything under the searched path.
    """

    filters: tuple[str, ...]
    under: Path | None


_GLOB_META = re.compile(r"[*?\[\]{}\\]")
_GLOB_ESCAPE = re.compile(r"[*?\[\]{}\\!]")


def scope_glob(ctx: ToolContext, glob: str, under: Path, *, ignore_case: bool = False) -> GlobScope:
    """Turn a user glob into ripgrep flags that keep .gitignore in force.

    ripgrep's --glob overrides .gitignore (a listed glob re-includes ignored files), so a name glob ("*.py")
    becomes a file type, which ripgrep applies after .gitignore, and a path glob "dir/**/NAME" or "dir/NAME"
    searches dir for NAME. Only other shapes ("src/*/x.py") keep --glob and its override.
    """
    fallback = GlobScope((f"--iglob={glob}" if ignore_case else f"--glob={glob}",), under)
    parts = _split_glob(glob)
    if parts is None:
        return fallback
    prefix, name, depth = parts
    name_filter = (f"--type-add=pedro:{_fold_case(name) if ignore_case else name}", "--type=pedro", *depth)
    if not prefix:
        return GlobScope(name_filter, under)
    folder = ctx.root / prefix
    if under == folder or (not depth and folder in under.parents):
        return GlobScope(name_filter, under)
    if under == ctx.root or under in folder.parents:
        return GlobScope(name_filter, folder if folder.is_dir() else None)
    return fallback if under.is_file() else GlobScope(name_filter, None)


def _split_glob(glob: str) -> tuple[str, str, tuple[str, ...]] | None:
    """(folder, name, depth flags) of a glob a file type can stand for: a name, anywhere, in a plain folder
    ("dir/NAME") or beneath one ("dir/**/NAME"); None for any other shape."""
    rest = glob.removeprefix("./").removeprefix("/")
    anywhere = rest.startswith("**/")
    while rest.startswith("**/"):
        rest = rest[3:]
    if rest == "**" or rest.endswith("/**"):
        rest += "/*"
    prefix, _, name = rest.rpartition("/")
    depth: tuple[str, ...] = ("--max-depth=1",)
    if prefix == "**" or prefix.endswith("/**"):
        prefix, depth = prefix.removesuffix("**").rstrip("/"), ()
    elif not prefix:
        depth = ()
    if not name or ":" in name or _GLOB_META.search(prefix) or ".." in prefix.split("/") or (anywhere and prefix):
        return None
    return prefix, name, depth


def _fold_case(glob: str) -> str:
    """A glob that matches letters in either case: file types have no case-insensitive mode."""
    out: list[str] = []
    in_class = escaped = False
    for char in glob:
        if escaped or in_class or not char.isalpha() or char.lower() == char.upper():
            out.append(char)
            in_class = (in_class and char != "]") or (not escaped and char == "[")
            escaped = not escaped and char == "\\"
        else:
            out.append(f"[{char.lower()}{char.upper()}]")
    return "".join(out)


# The secret-name globs of secretfiles without their exceptions: ripgrep's globs cannot say "but not *.example".
_SECRET_NAME_GLOBS: tuple[str, ...] = tuple(SECRET_FILE_NAMES)
_BROAD_SECRET_NAME = re.compile("|".join(translate(glob) for glob in _SECRET_NAME_GLOBS), re.IGNORECASE | re.ASCII)


def _hint(glob: str) -> str:
    """Text found, in lower case, in "/" + path + "\\n" whenever the path's name matches `glob`."""
    pieces = glob.lower().split("*")
    return "/" + pieces[0] if pieces[0] else pieces[-1] + ("" if glob.endswith("*") else "\n")


# What every path that hide_secrets leaves out contains: a listing of thousands of paths is searched for
# these few strings at once, and only the paths around a hit are looked at one by one.
_SECRET_HINTS: tuple[str, ...] = (
    *{_hint(glob) for glob in _SECRET_NAME_GLOBS},
    *{"/" + entry.split("/")[0].lower() for entry in HOME_SECRETS},
)


SECRET_TYPE = "pedrosecret"
"""The file type hide_secrets leaves out: every secret file name (census.py reads it in ripgrep's --debug log)."""


@lru_cache(maxsize=2)
def _secret_filters(*, overridden: bool) -> tuple[str, ...]:
    """ripgrep flags that leave out what secretfiles.is_secret_path calls secret, decided by path alone.

    Names go in as a negated file type, which matches file names only, so a directory named like a key
    (id_tools/) is still searched. Credential stores go in as one glob (one regex for ripgrep to try on
    each path, where a glob per store cost it a tenth more time); it leaves out the store's directory, so a
    walk must not start inside one (secretfiles.in_credential_store).

    When the caller's globs let files in (`overridden`), ripgrep never asks file types about a file such a glob
    matches, so the names also go in as globs after them, and a second glob lets directories of those names back
    in (a trailing / matches directories only).
    """
    names = [f"--type-add={SECRET_TYPE}:{_fold_case(glob)}" for glob in _SECRET_NAME_GLOBS]
    stores = ",".join(_GLOB_ESCAPE.sub(r"\\\g<0>", entry) for entry in HOME_SECRETS)
    name_globs: tuple[str, ...] = ()
    if overridden:
        joined = ",".join(_SECRET_NAME_GLOBS)
        name_globs = (f"--iglob=!**/{{{joined}}}", f"--iglob=**/{{{joined}}}/")
    return (*names, f"--type-not={SECRET_TYPE}", *name_globs, f"--iglob=!**/{{{stores}}}")


def left_out_by_secret_filters(paths: Sequence[str]) -> tuple[list[str], list[str]]:
    """Of a listing's paths, those hide_secrets leaves out: the secret ones, and the spared ones, which are not
    secret but share a secret name's shape (.env.example, id_rsa.pub) and need a search of their own."""
    # Lower case never adds or drops a line break, so the n-th line of `text` is still paths[n].
    text = "/" + "\n/".join(paths).lower() + "\n"
    hits = set()
    for hint in _SECRET_HINTS:
        at = text.find(hint)
        while at >= 0:
            hits.add(text.rfind("\n", 0, at) + 1)
            at = text.find(hint, at + 1)
    secret, spared = [], []
    line, counted = 0, 0
    for start in sorted(hits):
        line += text.count("\n", counted, start)
        counted = start
        path = paths[line]
        if is_secret_path(path):
            secret.append(path)
        elif _BROAD_SECRET_NAME.match(path.rpartition("/")[2]):
            spared.append(path)
    return secret, spared


def child_env(ctx: ToolContext) -> dict[str, str]:
    """The environment ripgrep runs with: the context's, without anything that changes rg's behaviour."""
    return {key: value for key, value in ctx.env.items() if not key.startswith("RIPGREP_")}


def stream_rg(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    on_chunk: Callable[[bytes], None],
    timeout: float = RG_TIMEOUT,
    keep_log: bool = False,
) -> RgOutcome:
    """Run ripgrep with a fixed argv (never a shell), feeding its stdout to `on_chunk` in pieces as it arrives.

    Pieces are handed over as they come so a search with a million matches never sits in memory whole; they
    are raw pipe reads, not lines, because a Python call per line costs more than ripgrep's whole search.
    stderr goes to a file, so a flood of warnings can never fill a pipe and stall ripgrep. With `keep_log` (an
    argv with --debug), all of it is kept as the outcome's log, and its error text leaves the debug lines out.
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
                bufsize=0,
            )
        except OSError as exc:
            raise ToolFailure(f"{_INSTALL_HINT} ({exc.strerror or exc})") from exc
        assert proc.stdout is not None
        try:
            ended = _pump(proc.pid, proc.stdout.fileno(), on_chunk, time.monotonic() + timeout)
        finally:
            if proc.poll() is None:
                proc.kill()
            returncode = proc.wait()
            proc.stdout.close()
        if not ended:
            raise ToolTimeoutError(
                f"the search ran longer than {timeout:.0f} seconds and was stopped; "
                'give a narrower `path` or a `glob` such as "*.py"'
            )
        err_file.seek(0)
        log = err_file.read() if keep_log else b""
        said = _without_debug(log) if keep_log else err_file.read(_STDERR_KEPT)
    return RgOutcome(returncode=returncode, stderr=said.decode("utf-8", errors="replace"), log=log)


_DEBUG_LINE = b"rg: DEBUG|"


def _without_debug(log: bytes) -> bytes:
    """ripgrep's error text in a --debug run's stderr: its lines that are not debug lines, as much as is kept."""
    if _DEBUG_LINE not in log:
        return log[:_STDERR_KEPT]
    said = [line for line in log.split(b"\n") if line and not line.startswith(_DEBUG_LINE)]
    return b"\n".join(said)[:_STDERR_KEPT]


@lru_cache(maxsize=4)
def logs_left_out(rg: str) -> bool:
    """Whether this ripgrep's --debug log names each file its walk leaves out, in the form census.py reads: the
    14.1 releases, of which pyproject pins one (tests/tools/test_census.py holds the log's census to the listing's).
    """
    try:
        done = subprocess.run([rg, "--version"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and done.stdout.startswith(b"ripgrep 14.1.")


def _pump(pid: int, fd: int, on_chunk: Callable[[bytes], None], deadline: float) -> bool:
    """Hand the pipe's bytes to `on_chunk` until it ends (True) or the deadline passes (False).

    ripgrep writes each file's rows apart, so a reader that wakes on every write wakes hundreds of times per
    search, and on a busy machine each wake-up waits for a core. With the pipe widened to hold a typical
    search's output, the reader sleeps until ripgrep exits and drains the pipe only every _DRAIN_SECONDS on
    the way; while ripgrep fills the pipe faster than that, the reader wakes on every write again.
    """
    capacity = _widen(fd)
    os.set_blocking(fd, False)
    poller = select.poll()
    exit_fd = _exit_fd(pid)
    if exit_fd is not None:
        poller.register(exit_fd, select.POLLIN)
    watching = exit_fd is None
    if watching:
        poller.register(fd, select.POLLIN)
    try:
        while (left := deadline - time.monotonic()) > 0:
            ready = poller.poll(1000 * (left if watching else min(left, _DRAIN_SECONDS)))
            if exit_fd is not None and any(ready_fd == exit_fd for ready_fd, _ in ready):
                poller.unregister(exit_fd)
                os.close(exit_fd)
                exit_fd = None
            got = _drain(fd, on_chunk, capacity)
            if got is None:
                return True
            # Once ripgrep has exited, or while it writes more than an eighth of the pipe between drains (it would
            # soon wait for the reader), every write is worth a wake-up.
            busy = exit_fd is None or got >= capacity // 8
            if busy != watching:
                if busy:
                    poller.register(fd, select.POLLIN)
                else:
                    poller.unregister(fd)
                watching = busy
        return False
    finally:
        if exit_fd is not None:
            os.close(exit_fd)


def _wait(proc: subprocess.Popen[bytes], timeout: float) -> int:
    """proc.wait(timeout) that returns as the process ends: Popen polls with sleeps of up to 50 ms instead."""
    exit_fd = _exit_fd(proc.pid)
    if exit_fd is not None:
        try:
            poller = select.poll()
            poller.register(exit_fd, select.POLLIN)
            if not poller.poll(1000 * timeout):
                raise subprocess.TimeoutExpired(proc.args, timeout)
        finally:
            os.close(exit_fd)
    return proc.wait(timeout)


def _drain(fd: int, on_chunk: Callable[[bytes], None], most: int) -> int | None:
    """Hand over what the pipe holds now, up to about `most` bytes; the bytes read, or None once it has ended."""
    got = 0
    while got < most:
        try:
            chunk = os.read(fd, _READ_SIZE)
        except BlockingIOError:
            break
        if not chunk:
            return None
        on_chunk(chunk)
        got += len(chunk)
    return got


def _widen(fd: int) -> int:
    """Grow the pipe to _PIPE_BYTES where the system allows it; the size it has."""
    try:
        return fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
    except (AttributeError, OSError):
        return _DEFAULT_PIPE_BYTES  # the system's limit or a platform without resizable pipes


def _exit_fd(pid: int) -> int | None:
    """A descriptor that turns readable when the process ends (Linux's pidfd), or None where there is none."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None  # no pidfd (an old kernel, a seccomp filter, not Linux): wake on every write instead


def collect_lines(
    argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float = RG_TIMEOUT
) -> tuple[list[str], RgOutcome]:
    """Run ripgrep and return its stdout as decoded lines (for path lists, which are small).

    A plain subprocess.run: path lists never flood, so the streaming machinery would only add start-up cost.
    """
    try:
        proc = subprocess.run(list(argv), cwd=cwd, env=dict(env), capture_output=True, timeout=timeout, check=False)
    except FileNotFoundError as exc:
        raise ToolFailure(f"{_INSTALL_HINT} ({exc.strerror or exc})") from exc
    except subprocess.TimeoutExpired as exc:
        raise ToolTimeoutError(
            f"listing files ran longer than {timeout:.0f} seconds and was stopped; give a narrower `path`"
        ) from exc
    return _decode_lines(proc.stdout), _outcome(proc.returncode, proc.stderr[:_STDERR_KEPT])


def _decode_lines(stdout: bytes) -> list[str]:
    text = stdout.decode("utf-8", errors="replace")
    if text.startswith("./"):
        # ripgrep prefixes every path with ./ when it searches "."; strip them all at once.
        text = text[2:].replace("\n./", "\n")
    return [line for line in text.split("\n") if line]


def _outcome(returncode: int, stderr: bytes) -> RgOutcome:
    return RgOutcome(returncode=returncode, stderr=stderr.decode("utf-8", errors="replace"))


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
    filters: Sequence[str] = (),
) -> list[str]:
    """Every file under `under` that is not ignored and not secret, as sorted repo-relative paths (rg --files)."""
    return [
        path
        for path in all_files(ctx, under, globs=globs, ignore_case=ignore_case, filters=filters)
        if not is_secret_path(path)
    ]


def all_files(
    ctx: ToolContext,
    under: Path,
    *,
    globs: Sequence[str] = (),
    ignore_case: bool = False,
    filters: Sequence[str] = (),
) -> list[str]:
    """Every file under `under` that is not ignored, secret or not, as sorted repo-relative paths (rg --files)."""
    argv = _files_argv(ctx, under, globs=globs, ignore_case=ignore_case, filters=filters)
    return _checked_paths(*collect_lines(argv, cwd=ctx.root, env=child_env(ctx)))


def _files_argv(
    ctx: ToolContext, under: Path, *, globs: Sequence[str] = (), ignore_case: bool = False, filters: Sequence[str] = ()
) -> list[str]:
    return [*base_argv(ctx, globs=globs, ignore_case=ignore_case, filters=filters), "--files", "--", ctx.rel(under)]


def _checked_paths(paths: list[str], outcome: RgOutcome) -> list[str]:
    if outcome.returncode == 2 and not paths:
        problem = glob_error(outcome.stderr)
        if problem is not None:
            raise ToolFailure(f'{problem}; give a glob such as "**/*.py", "*.go" or "src/*.ts"')
        raise ToolFailure(f"listing files failed: {first_line(outcome.stderr)}")
    paths.sort()
    return paths


class FileListing:
    """all_files running beside another ripgrep run: started at once, its paths read when they are needed.

    A search that leaves secret files out still has to count them, and the walk that counts them costs as much
    as the search's own; running both at once makes the count nearly free. Output goes to files, not pipes, so
    the listing never stalls while nobody reads it.
    """

    def __init__(self, ctx: ToolContext, under: Path, *, filters: Sequence[str] = ()) -> None:
        self._out = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close(), as the listing outlives __init__)
        self._err = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            # One thread: the search beside it keeps the other cores busy, and a walk alone barely needs more.
            argv = _files_argv(ctx, under, filters=filters)
            argv.insert(1, "--threads=1")
            self._proc = subprocess.Popen(
                argv,
                cwd=ctx.root,
                env=child_env(ctx),
                stdin=subprocess.DEVNULL,
                stdout=self._out,
                stderr=self._err,
            )
        except OSError as exc:
            self.close()
            raise ToolFailure(f"{_INSTALL_HINT} ({exc.strerror or exc})") from exc

    def paths(self, timeout: float = RG_TIMEOUT) -> list[str]:
        """The listing's sorted repo-relative paths, as all_files gives them, once ripgrep has finished."""
        try:
            returncode = _wait(self._proc, timeout)
        except subprocess.TimeoutExpired as exc:
            raise ToolTimeoutError(
                f"listing files ran longer than {timeout:.0f} seconds and was stopped; give a narrower `path`"
            ) from exc
        self._out.seek(0)
        self._err.seek(0)
        return _checked_paths(_decode_lines(self._out.read()), _outcome(returncode, self._err.read(_STDERR_KEPT)))

    def close(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        self._out.close()
        self._err.close()

    def __enter__(self) -> FileListing:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


def normalize_path(raw: str) -> str:
    """A path as ripgrep printed it, made repo-relative the way the model sees paths."""
    return raw.removeprefix("./")


def first_line(text: str) -> str:
    """The first non-empty line of an error text, without ripgrep's `rg: ` prefix."""
    for line in text.splitlines():
        if line.strip():
            return line.removeprefix("rg: ").strip()
    return "ripgrep gave no reason"


# ---- grep output --------------------------------------------------------------------------------------------

# The argv tail that makes ripgrep print what GrepHits reads: per file a `path NUL` heading, then
# `line:column:text` rows, files separated by an empty line, and at the end ripgrep's own count of matched
# lines. A path ends at NUL, so colons in it are harmless, and plain rows cost ripgrep half what --json does.
GREP_OUTPUT_FLAGS: tuple[str, ...] = ("--heading", "--with-filename", "--null", "--line-number", "--column", "--stats")
GREP_JSON_FLAGS: tuple[str, ...] = ("--json",)
# Output is read in batches of at least this many bytes.
_BATCH_BYTES = 64 * 1024
# A file's bytes are shed from memory past this size once its first `limit` rows are kept.
_LONG_BLOCK = 1 << 20
# How far back from a NUL the empty line before a heading may lie: the longest path plus slack.
_HEADING_REACH = 4200
_ROW = re.compile(rb"\d+:\d+:")
_STATS = re.compile(rb"\n(\d+) matches\n(\d+) matched lines\n")


@dataclass(frozen=True)
class GrepRow:
    """One matched line: repo-relative path, 1-based line number, byte offset of the first match, line text."""

    path: str
    line: int
    start: int
    text: str


@dataclass
class GrepHits:
    """The first `limit` matched lines in path order and the exact count of all of them, read from rg's stdout.

    ripgrep searches files in parallel, so output order varies between runs; keeping the smallest paths makes
    the shown rows (and the prompt) deterministic without --sort, which would make ripgrep single-threaded.
    Files are found by their heading's NUL (a memchr jump) and counted by ripgrep (--stats), so a million
    matches cost no Python per match. `broken` is set when the plain output cannot be read safely (a path
    with a line break in it): search again with GREP_JSON_FLAGS into a GrepHits made with json_mode=True.
    """

    limit: int
    json_mode: bool = False
    total: int = 0
    broken: bool = False
    kept: list[tuple[bytes, list[bytes]]] = field(default_factory=list)
    kept_rows: int = 0
    # Unread output from the current file's first row on (or, once shed, from near its end).
    _pending: bytes = b""
    _path: bytes | None = None
    # The current file's first rows once its early bytes were shed; None while they are still pending.
    _rows: list[bytes] | None = None
    _json_rows: list[bytes] = field(default_factory=list)
    _batch: list[bytes] = field(default_factory=list)
    _batched: int = 0

    def feed(self, chunk: bytes) -> None:
        """Take the next piece of ripgrep's stdout, wherever the pipe happened to cut it."""
        # ripgrep writes a file's rows at a time, so reads are small; reading them in batches costs less.
        self._batch.append(chunk)
        self._batched += len(chunk)
        if self._batched >= _BATCH_BYTES:
            self._flush()

    def _flush(self) -> None:
        chunk = b"".join(self._batch)
        self._batch, self._batched = [], 0
        if self.broken:
            return
        scan = len(self._pending)
        data = self._pending + chunk if self._pending else chunk
        if self.json_mode:
            *lines, self._pending = data.split(b"\n")
            for line in lines:
                self._feed_json_line(line)
            return
        start = 0
        while (nul := data.find(b"\0", scan)) >= 0:
            scan = nul + 1
            if self._path is None:
                # The very first heading starts the output.
                if b"\n" in data[:nul]:
                    self.broken = True
                    return
                self._path, start = data[:nul], nul + 1
                continue
            sep = data.rfind(b"\n\n", max(start, nul - _HEADING_REACH), nul)
            if sep < 0 or data.find(b"\n", sep + 2, nul) >= 0:
                # A NUL inside a matched line; anything else means a path with a line break in it.
                line_start = data.rfind(b"\n", start, nul) + 1
                if not _ROW.match(data, max(line_start, start)):
                    self.broken = True
                    return
                continue
            if self._rows is not None or self._wanted(self._path):
                self._finish(data, start, sep)
            self._path, start = data[sep + 2 : nul], nul + 1
        self._pending = data[start:]
        if len(self._pending) > _LONG_BLOCK and self._path is not None:
            self._shed()

    def close(self) -> None:
        """Account for the last file and read ripgrep's count once its output has ended."""
        self._flush()
        if self.json_mode:
            self._feed_json_line(self._pending)
        elif not self.broken:
            # The count is the last thing ripgrep prints; a matched line quoting it would come earlier.
            found = list(_STATS.finditer(self._pending, max(0, len(self._pending) - 512)))
            stats = found[-1] if found else None
            if stats is None:
                # No count at all means ripgrep printed nothing (it failed); anything else is unreadable.
                self.broken = bool(self._pending) or self._path is not None
                return
            if self._path is not None:
                body = self._pending[: stats.start()].rstrip(b"\n")
                self._finish(body, 0, len(body))
            self.total = int(stats.group(2))
        self._pending = b""

    def _wanted(self, path: bytes) -> bool:
        return not (self.kept_rows >= self.limit and self.kept and path > self.kept[-1][0])

    def _finish(self, data: bytes, start: int, end: int) -> None:
        """Keep the first rows of the file whose rows are data[start:end], if it is among the first in order."""
        path, rows = self._path or b"", self._rows
        self._rows = None
        if rows is None:
            if not self._wanted(path):
                return
            rows = data[start:end].split(b"\n", self.limit)[: self.limit]
        # Rows only: ripgrep's note that it stopped reading a binary file is not a match.
        rows = rows if self.json_mode else [row for row in rows if row[:1].isdigit()]
        if rows:
            self._keep(path, rows)

    def absorb(self, other: GrepHits) -> None:
        """Take in the rows and count of a search of other files, as if one search had found them all."""
        self.total += other.total
        for path, rows in other.kept:
            if self._wanted(path):
                self._keep(path, rows)

    def _keep(self, path: bytes, rows: list[bytes]) -> None:
        bisect.insort(self.kept, (path, rows), key=lambda item: item[0])
        self.kept_rows += len(rows)
        # Drop trailing files that the earlier ones already make unnecessary.
        while len(self.kept) > 1 and self.kept_rows - len(self.kept[-1][1]) >= self.limit:
            self.kept_rows -= len(self.kept.pop()[1])

    def _shed(self) -> None:
        # One file printed more than _LONG_BLOCK: keep its first rows, and of the rest only the tail that a
        # search for the next heading looks back into.
        if self._rows is None:
            pieces = self._pending.split(b"\n", self.limit)
            if len(pieces) <= self.limit:
                return  # fewer than `limit` whole rows so far: they are all still needed
            self._rows = pieces[: self.limit] if self._wanted(self._path or b"") else []
        self._pending = self._pending[-_HEADING_REACH:]

    def _feed_json_line(self, line: bytes) -> None:
        if line.startswith(b'{"type":"match"'):
            self.total += 1
            if len(self._json_rows) < self.limit:
                self._json_rows.append(line)
        elif line.startswith(b'{"type":"end"') and self._json_rows:
            self._path = _decode_json_field(json.loads(self._json_rows[0])["data"]["path"]).encode()
            self._rows, self._json_rows = self._json_rows, []
            self._finish(b"", 0, 0)

    def rows(self) -> list[GrepRow]:
        """The kept rows in path order, at most `limit`."""
        out: list[GrepRow] = []
        for path, rows in self.kept:
            shown = normalize_path(path.decode("utf-8", errors="replace"))
            for raw in rows:
                if len(out) >= self.limit:
                    return out
                # Plain rows start with the line number; absorbed rows may come from a search read as JSON.
                out.append(_parse_json_row(shown, raw) if raw[:1] == b"{" else _parse_row(shown, raw))
        return out


def _parse_row(path: str, raw: bytes) -> GrepRow:
    line, column, text = raw.split(b":", 2)
    return GrepRow(path, int(line), int(column) - 1, text.decode("utf-8", errors="replace").rstrip("\r"))


def _parse_json_row(path: str, raw: bytes) -> GrepRow:
    data = json.loads(raw)["data"]
    submatches = data.get("submatches") or []
    text = _decode_json_field(data["lines"]).rstrip("\r\n")
    return GrepRow(path, int(data["line_number"]), submatches[0]["start"] if submatches else 0, text)


def _decode_json_field(value: dict[str, str]) -> str:
    # ripgrep sends text that is not valid UTF-8 as base64 "bytes".
    if "text" in value:
        return value["text"]
    return base64.b64decode(value.get("bytes", "")).decode("utf-8", errors="replace")
