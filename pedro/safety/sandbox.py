"""The sandbox around bash and test children: bubblewrap first, Landlock as fallback, rlimits always.

Both hide the user's credential stores (secretfiles.HOME_SECRETS). Only bubblewrap can also hide the secret files
inside the repository, which stays writable as a whole; under Landlock the values they hold are redacted instead
(secrets.repo_secret_values reads them when output is first redacted).
"""

from __future__ import annotations

import atexit
import ctypes
import errno
import functools
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from pedro import reaper
from pedro.gitlayer import GitError
from pedro.gitlayer import run as run_git
from pedro.process import ChildCommand
from pedro.safety import seccomp
from pedro.safety.policy import HOOK_DIRS
from pedro.safety.secretfiles import credential_stores, is_secret_path
from pedro.safety.secretlisting import repo_secret_files
from pedro.safety.snapshots import held_by_git

SandboxKind = Literal["bubblewrap", "landlock", "none"]
ChildKind = Literal["bash", "test", "git"]
"""What runs: the model's shell command, a test run, or the git tool's git (which may write .git, but not its
hooks or config)."""

SWITCH_VAR = "PEDRO_SANDBOX"
"""`off` runs children unsandboxed (debugging); `landlock` skips bubblewrap; anything else auto-detects."""

PROBE_ARGV = ("--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true")

FSIZE_LIMIT_BYTES = 256 * 1024 * 1024
NOFILE_LIMIT = 1024
# CPU seconds per process: far above any wall-clock timeout's worth of single-core work, so only runaways hit it.
CPU_LIMIT_S: dict[ChildKind, int] = {"bash": 1800, "test": 7200, "git": 600}

# Kept read-only inside the repository even though the repository itself is writable (safety.md, deny paths), and
# so are the hook folders (policy.HOOK_DIRS and core.hooksPath): a hook the model rewrote would run on the user's next
# commit. Secret files are read-only too, and empty unless git already holds their content (see _repo_secret_binds).
PROTECTED_PATHS = (".git", ".pedro", ".github/workflows")
GIT_TOOL_PROTECTED = (".git/hooks", ".git/config")
"""What stays read-only in .git for the git tool's own git, which must write objects, refs and the index."""
_REAPER = str(Path(reaper.__file__).resolve())
_PRIVATE_CACHE = "/tmp/.cache"
"""Where build caches (Go, XDG) go inside bubblewrap: the private /tmp, always writable."""
# Variables naming toolchain roots that may live under $HOME (pyenv, nvm, cargo, a venv, Go's module cache).
_TOOLCHAIN_VARS = (
    "PYENV_ROOT",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "NVM_DIR",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "GOROOT",
    "GOMODCACHE",
    "GEM_HOME",
    "JAVA_HOME",
    "DOTNET_ROOT",
    "RBENV_ROOT",
)


@dataclass(frozen=True)
class SandboxInfo:
    """Which sandbox children get on this machine, and why."""

    kind: SandboxKind
    detail: str
    bwrap: str | None = None
    landlock_abi: int | None = None


@functools.cache
def detect_sandbox() -> SandboxInfo:
    """Probe once per process: a bwrap that really runs, else a Landlock ABI, else nothing."""
    bwrap = shutil.which("bwrap")
    abi = read_landlock_abi()
    said = "not installed"
    if bwrap is not None:
        said = _probe_bwrap(bwrap)
        if not said:
            return SandboxInfo("bubblewrap", f"{bwrap} runs (namespaces work)", bwrap, abi)
    if abi is not None:
        return SandboxInfo("landlock", f"Landlock ABI {abi} (bubblewrap: {said})", None, abi)
    return SandboxInfo("none", f"no sandbox: bubblewrap {said}; Landlock unavailable")


def active_sandbox() -> SandboxInfo:
    """The sandbox to use now: detection, overridden by the PEDRO_SANDBOX switch (read on every call)."""
    switch = os.environ.get(SWITCH_VAR, "").strip().lower()
    if switch in ("off", "none", "0", "false"):
        return SandboxInfo("none", f"disabled by {SWITCH_VAR}={switch}")
    found = detect_sandbox()
    if switch == "landlock" and found.landlock_abi is not None:
        abi = found.landlock_abi
        return SandboxInfo("landlock", f"Landlock ABI {abi} (forced by {SWITCH_VAR})", None, abi)
    return found


def _probe_bwrap(bwrap: str) -> str:
    """'' when the probe sandbox runs, else what went wrong."""
    try:
        proc = subprocess.run(
            [bwrap, *PROBE_ARGV], capture_output=True, text=True, timeout=10, check=False, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot run ({exc})"
    if proc.returncode == 0:
        return ""
    first = next((line.strip() for line in proc.stderr.splitlines() if line.strip()), "")
    return f"cannot sandbox ({first or f'exit status {proc.returncode}'})"


def wrap(
    command: ChildCommand,
    *,
    root: Path,
    kind: ChildKind,
    allow_network: bool = False,
    writable: Sequence[Path] = (),
    sandbox: SandboxInfo | None = None,
) -> ChildCommand:
    """The same child, confined: rlimits always; bubblewrap or Landlock around it when one is available.

    The git tool's git (`kind="git"`) is confined by bubblewrap only: it must create lock files in .git, and a
    Landlock rule that allows that would also let it rewrite .git/config and the hooks (rules cover whole
    subtrees), so under Landlock it runs as before, with hooks, fsmonitor and pagers switched off by the git layer.

    `writable` names extra directories outside the repository the child must write (a test report folder).
    """
    info = sandbox or active_sandbox()
    root = root.resolve()
    limits = _rlimit_setter(kind)
    if info.kind == "bubblewrap" and info.bwrap:
        argv, env = _bwrap_argv(info.bwrap, command, root, allow_network, writable, kind)
        return replace(command, argv=argv, env=env, preexec=_chain(command.preexec, limits))
    if info.kind == "landlock" and info.landlock_abi is not None and kind != "git":
        _require_program(command)
        env = dict(command.env)
        # Build caches must be writable, and $HOME is not: one private folder for this pedro process, granted.
        cache = _build_cache()
        env.update(_cache_env(str(cache)))
        # git's own configuration is hidden like the credential stores, and git stops at a config file it may not
        # read: its global scope comes from an empty file instead (bubblewrap's private home has none either).
        env["GIT_CONFIG_GLOBAL"] = os.devnull
        if Path("/tmp") in root.parents:
            env["TMPDIR"] = str(writable[0] if writable else cache)  # /tmp is not granted then (see landlock_rules)
        hidden = credential_stores(command.env, os.environ)
        confine = _landlock_setter(info.landlock_abi, root, (*writable, cache), allow_network, hidden, kind)
        # No pid namespace here: the reaper ends the command's descendants when pedro dies, even by SIGKILL, and
        # keeps the command out of /proc's process directories (every process's environment), which it reads itself.
        hide_proc = ("--hide-proc", "/".join(sorted(entry.name for entry in Path("/").iterdir())))
        argv = (sys.executable, "-E", "-s", _REAPER, str(os.getpid()), *hide_proc, "--", *command.argv)
        return replace(command, argv=argv, env=env, preexec=_chain(command.preexec, limits, confine))
    return replace(command, preexec=_chain(command.preexec, limits))


# -- bubblewrap -----------------------------------------------------------------------------------------------------


def _bwrap_argv(
    bwrap: str,
    command: ChildCommand,
    root: Path,
    allow_network: bool,
    writable: Sequence[Path],
    kind: ChildKind = "bash",
) -> tuple[tuple[str, ...], dict[str, str]]:
    env = dict(command.env)
    _require_program(command)
    home = _home_of(env)
    if home is not None:
        _keep_go_modcache(env, home)
    args: list[str] = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    # The tests' runs share one build cache for the process (a job's test runs, repair's candidates); a command the
    # model runs keeps its own, which vanishes with its private /tmp.
    cache = _build_cache() if kind == "test" else None
    writable = (*writable, cache) if cache is not None else writable
    for toolchain in sorted(_tmp_toolchains(env)):
        args += ["--ro-bind", str(toolchain), str(toolchain)]
    args += _repository_binds(root, home, env, kind)
    for extra in writable:
        args += ["--bind", str(extra), str(extra)]
    if kind == "git" and home is not None:
        args += _git_config_binds(home)
    # Last, so no later mount uncovers them: credential stores that the mounts above left in view.
    shown = [root, *writable, *_tmp_toolchains(env)]
    private = [Path("/tmp")]
    if home is not None:
        shown += _toolchain_dirs(home, env)
        private.append(home)
    hidden = credential_stores(command.env, os.environ, keep_git_config=kind == "git")
    args += _home_secret_binds(hidden, shown, private, root)
    if home is None:
        env["HOME"] = "/tmp/home"
        args += ["--dir", "/tmp/home"]
    # Build caches must be writable: they live in the private /tmp and vanish with it. Not under $HOME, where a
    # toolchain bound back read-only (PATH into ~/.cache/…/bin) would cover them.
    env.update(_cache_env(str(cache) if cache is not None else _PRIVATE_CACHE))
    env["TMPDIR"] = "/tmp"
    args += ["--unshare-all", "--share-net"] if allow_network else ["--unshare-all"]
    args += ["--die-with-parent", "--new-session", "--chdir", str(command.cwd), "--", *command.argv]
    return tuple(args), env


def _repository_binds(root: Path, home: Path | None, env: Mapping[str, str], kind: ChildKind) -> list[str]:
    """The repository writable but for its protected paths and secret files, and the private home, each mounted so
    that it is not covered by the other."""
    args: list[str] = []
    # Order matters: a later mount covers an earlier one, so the repository is bound after a home that holds it.
    home_inside_root = home is not None and (home == root or root in home.parents)
    if home is not None and not home_inside_root:
        args += _private_home(home, env)
    args += ["--bind", str(root), str(root)]
    for path in _protected(root, kind):
        args += ["--ro-bind", str(path), str(path)]
    args += _repo_secret_binds(root)
    if home is not None and home_inside_root:
        args += _private_home(home, env)
    return args


def _keep_go_modcache(env: dict[str, str], home: Path) -> None:
    """Go's module cache is read-only input (no network to fill it anyway); the build cache must be writable."""
    modcache = Path(env.get("GOMODCACHE") or home / "go" / "pkg" / "mod")
    if modcache.is_dir():
        env["GOMODCACHE"] = str(modcache)


def _git_config_binds(home: Path) -> list[str]:
    """The git tool's git keeps the user's own git configuration (identity, excludes, the filters git-lfs and the
    like define), read-only; its argv is pedro's, so the model never reads that file through it."""
    args: list[str] = []
    for config in (home / ".gitconfig", home / ".config" / "git"):
        if config.exists() and not config.is_symlink():
            args += ["--ro-bind", str(config), str(config)]
    return args


def _cache_env(folder: str) -> dict[str, str]:
    """Where Go and XDG-following tools keep build caches inside a sandbox."""
    return {"GOCACHE": f"{folder}/go-build", "GOPATH": f"{folder}/gopath", "XDG_CACHE_HOME": folder}


@functools.cache
def _build_cache() -> Path:
    """A private build-cache folder, made once per pedro process and removed at exit: Landlock's, and bubblewrap's
    for the tests' runs (each Go candidate of a repair would otherwise compile the standard library again)."""
    folder = Path(tempfile.mkdtemp(prefix="pedro-cache-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _require_program(command: ChildCommand) -> None:
    """Inside bwrap or the reaper a missing program is only an exit status: say it the way Popen would, first."""
    if shutil.which(command.argv[0], path=command.env.get("PATH")) is None and not Path(command.argv[0]).is_file():
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), command.argv[0])


def _protected(root: Path, kind: ChildKind = "bash") -> list[Path]:
    """The existing deny paths and hook folders of the repository (never through a symlink, which could point
    anywhere). The git tool's git may write .git (objects, refs, the index), never its hooks or config."""
    denied: tuple[str, ...] = PROTECTED_PATHS
    if kind == "git":
        denied = (*(rel for rel in PROTECTED_PATHS if rel != ".git"), *GIT_TOOL_PROTECTED)
    paths = dict.fromkeys(root / rel for rel in (*denied, *HOOK_DIRS))
    paths.update(dict.fromkeys(_hooks_path(root)))
    return [path for path in paths if path.exists() and not path.is_symlink()]


def _hooks_path(root: Path) -> list[Path]:
    """The folder core.hooksPath names, when it lies inside the repository (its own root excepted)."""
    try:
        found = run_git(root, "config", "--show-scope", "--get-all", "core.hooksPath", timeout=15)
    except GitError:
        return []
    # The git layer's own `-c core.hooksPath=/dev/null` shows as scope "command"; the repository's value is the rest.
    values = [
        line.split("\t", 1)[1] for line in found.out.splitlines() if "\t" in line and not line.startswith("command")
    ]
    if not values:
        return []
    path = (root / Path(values[-1]).expanduser()).resolve()
    return [path] if root in path.parents else []


def _repo_secret_binds(root: Path) -> list[str]:
    """Every secret file of the repository read-only, and empty unless git already holds its content.

    A file whose content sits unchanged in git's index (a committed test key, say) stays readable: any command
    can print it with `git show`, and the tests that use it must still pass.
    """
    found = repo_secret_files(root)
    held = held_by_git(root, [path.relative_to(root).as_posix() for path in found]) if found else set()
    args: list[str] = []
    for path in found:
        source = path if path.relative_to(root).as_posix() in held else _empty_file()
        args += ["--ro-bind", str(source), str(path)]
    return args


def _home_secret_binds(hidden: Sequence[Path], shown: Sequence[Path], private: Sequence[Path], root: Path) -> list[str]:
    """Mounts that hide each credential store still in view: outside the private tmpfs mounts, or bound back in."""
    args: list[str] = []
    for path in hidden:
        if path == root or path in root.parents:
            continue
        in_view = any(_within(path, top) for top in shown) or not any(_within(path, top) for top in private)
        if not in_view:
            continue
        args += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", str(_empty_file()), str(path)]
    return args


def _within(path: Path, top: Path) -> bool:
    return path == top or top in path.parents


_EMPTY: list[Path] = []


def _empty_file() -> Path:
    """An empty read-only file to bind over hidden files; unlike /dev/null, writing to it fails."""
    if _EMPTY and _EMPTY[0].is_file() and _EMPTY[0].stat().st_size == 0:
        return _EMPTY[0]
    folder = Path(tempfile.mkdtemp(prefix="pedro-hidden-"))
    path = folder / "empty"
    path.touch(mode=0o444)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    _EMPTY[:] = [path]
    return path


def _home_of(env: Mapping[str, str]) -> Path | None:
    """The home directory to make private, or None when there is no sensible one (unset, `/`, missing)."""
    raw = env.get("HOME", "")
    if not raw:
        return None
    home = Path(raw)
    if not home.is_absolute() or home == Path("/") or not home.is_dir():
        return None
    return home.resolve()


def _private_home(home: Path, env: Mapping[str, str]) -> list[str]:
    """A tmpfs over $HOME, with the toolchains that live there (pyenv, ~/.local, ~/go) bound back read-only."""
    args = ["--tmpfs", str(home)]
    for top in sorted(_toolchain_dirs(home, env)):
        args += ["--ro-bind", str(top), str(top)]
    return args


def _tmp_toolchains(env: Mapping[str, str]) -> set[Path]:
    """Environments under /tmp that PATH, a toolchain variable or pedro's own Python live in: the private /tmp
    would hide them, so they are bound back read-only (a virtualenv made in a temporary checkout, say)."""
    tmp = Path("/tmp")
    candidates: list[str] = env.get("PATH", "").split(os.pathsep)
    candidates += [env[name] for name in _TOOLCHAIN_VARS if env.get(name)]
    candidates += [sys.prefix, sys.base_prefix]
    found: set[Path] = set()
    for raw in candidates:
        if not raw or not Path(raw).is_absolute():
            continue
        path = Path(os.path.normpath(raw))
        if tmp not in path.parents:
            continue
        if path.name == "bin":
            path = path.parent
        if path.is_dir():
            found.add(path)
    return found


def _toolchain_dirs(home: Path, env: Mapping[str, str]) -> set[Path]:
    """The top-level entries of $HOME that PATH or a toolchain variable points into, private ones excluded."""
    candidates: list[str] = env.get("PATH", "").split(os.pathsep)
    candidates += [env[name] for name in _TOOLCHAIN_VARS if env.get(name)]
    found: set[Path] = set()
    for raw in candidates:
        if not raw or not Path(raw).is_absolute():
            continue
        path = Path(os.path.normpath(raw))
        if home not in path.parents:
            continue
        top = home / path.relative_to(home).parts[0]
        # Credential stores are never bound back; secrets inside a toolchain (~/.cargo) are hidden on top of it.
        if not is_secret_path(top.name) and top.exists():
            found.add(top)
    return found


# -- resource limits ------------------------------------------------------------------------------------------------


def _rlimit_setter(kind: ChildKind) -> Callable[[], None]:
    """Limits for the child: CPU, file size, open files, no core dumps. Never RLIMIT_AS (it breaks Go and Node)."""
    wanted = (
        (resource.RLIMIT_CPU, CPU_LIMIT_S[kind]),
        (resource.RLIMIT_FSIZE, FSIZE_LIMIT_BYTES),
        (resource.RLIMIT_NOFILE, NOFILE_LIMIT),
        (resource.RLIMIT_CORE, 0),
    )

    def apply() -> None:
        for which, value in wanted:
            _, hard = resource.getrlimit(which)
            capped = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (capped, capped))

    return apply


def _chain(*steps: Callable[[], None] | None) -> Callable[[], None]:
    todo = tuple(step for step in steps if step is not None)

    def run_all() -> None:
        for step in todo:
            step()

    return run_all


# -- Landlock -------------------------------------------------------------------------------------------------------

# Generic syscall numbers, the same on x86_64 and arm64.
_SYS_CREATE_RULESET = 444
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

_FS_READ_FILE = 1 << 2
_FS_READ_DIR = 1 << 3
_FS_WRITE_FILE = 1 << 1
_FS_REMOVE_DIR = 1 << 4
_FS_REMOVE_FILE = 1 << 5
_FS_MAKE_CHAR = 1 << 6
_FS_MAKE_DIR = 1 << 7
_FS_MAKE_REG = 1 << 8
_FS_MAKE_SOCK = 1 << 9
_FS_MAKE_FIFO = 1 << 10
_FS_MAKE_BLOCK = 1 << 11
_FS_MAKE_SYM = 1 << 12
_FS_REFER = 1 << 13  # ABI 2
_FS_TRUNCATE = 1 << 14  # ABI 3
_NET_BIND_TCP = 1 << 0  # ABI 4
_NET_CONNECT_TCP = 1 << 1
_FILE_WRITES = _FS_WRITE_FILE  # what an existing regular file may get (TRUNCATE added per ABI)
_READS = _FS_READ_FILE | _FS_READ_DIR


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def read_landlock_abi() -> int | None:
    """The Landlock ABI version from landlock_create_ruleset(NULL, 0, VERSION), or None when Landlock is unusable."""
    return landlock_status()[0]


def landlock_status() -> tuple[int | None, int]:
    """(ABI version, 0), or (None, errno) saying why Landlock is unusable (e.g. EOPNOTSUPP: disabled at boot)."""
    if not sys.platform.startswith("linux"):
        return None, errno.ENOSYS
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        result = libc.syscall(
            ctypes.c_long(_SYS_CREATE_RULESET), None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION)
        )
    except (OSError, AttributeError):
        return None, errno.ENOSYS
    if isinstance(result, int) and result > 0:
        return result, 0
    return None, ctypes.get_errno()


def _write_rights(abi: int) -> int:
    rights = (
        _FS_WRITE_FILE
        | _FS_REMOVE_DIR
        | _FS_REMOVE_FILE
        | _FS_MAKE_CHAR
        | _FS_MAKE_DIR
        | _FS_MAKE_REG
        | _FS_MAKE_SOCK
        | _FS_MAKE_FIFO
        | _FS_MAKE_BLOCK
        | _FS_MAKE_SYM
    )
    if abi >= 2:
        rights |= _FS_REFER
    if abi >= 3:
        rights |= _FS_TRUNCATE
    return rights


def landlock_rules(
    root: Path, writable: Iterable[Path], abi: int, hidden: Sequence[Path] = (), kind: ChildKind = "bash"
) -> list[tuple[Path, int]]:
    """(path, allowed rights) pairs: writes in the repository but its protected paths (`.git`, hook folders, secret
    files), /tmp, /dev and `writable`; with `hidden`, reads of everything but those paths.

    Landlock rules only add rights and cover whole subtrees, so a protected path stays read-only only if no rule
    above it grants writes: each entry beside it (and beside each folder on the way to it) gets the rights
    instead. The price: a command cannot create, remove or rename entries of those folders themselves — the
    repository's top folder among them — though it may change the files already there; pedro's file tools
    (which run outside the sandbox) can. Bubblewrap, the primary sandbox, has no such limit.
    It cannot hide a secret file inside the repository either (its values are redacted instead); reads are
    granted beside each hidden path (every entry of its ancestors but the way to it), which hides credential
    stores outside the repository, at a price: those ancestors (/, the home) can no longer be listed.
    """
    rights = _write_rights(abi)
    scratch = _scratch_dirs(root, writable)
    secret = [path for path in hidden if not any(_within(path, top) for top in (root, *scratch))]
    reads = _READS if secret else 0
    # Bubblewrap binds these read-only; here they stay read-only by getting no rule (secret files stay readable,
    # their values redacted).
    protected = [path for path in (*_protected(root, kind), *repo_secret_files(root)) if path != root]
    rules = [(path, rights | reads) for path in scratch]
    if not protected:
        rules.append((root, rights | reads))
    else:
        if reads:
            rules.append((root, reads))
        file_rights = _FS_WRITE_FILE | (_FS_TRUNCATE if abi >= 3 else 0) | (_FS_READ_FILE if reads else 0)
        rules += [
            (path, rights | reads if is_dir else file_rights) for path, is_dir in _entries_beside(protected, root)
        ]
    rules += _read_grants(secret)
    return rules


def _scratch_dirs(root: Path, writable: Iterable[Path]) -> list[Path]:
    """/tmp, /dev and the extra writable folders that exist, leaving out the repository and the folders above it."""
    return [
        extra
        for extra in (Path("/tmp"), Path("/dev"), *writable)
        if extra.is_dir() and extra not in root.parents and extra != root
    ]


def _entries_beside(excluded: Sequence[Path], top: Path) -> list[tuple[Path, bool]]:
    """(path, is a directory) for every entry under `top` that lies beside the excluded paths or the folders on
    the way to them: together they cover all of `top` but those paths. Symbolic links are left out (a rule made
    through one would cover its target)."""
    skip = set(excluded)
    ways = {parent for path in excluded for parent in path.parents if _within(parent, top)}
    found: list[tuple[Path, bool]] = []
    for directory in sorted(ways):
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            path = Path(entry.path)
            if path in skip or path in ways or entry.is_symlink():
                continue
            try:
                found.append((path, entry.is_dir(follow_symlinks=False)))
            except OSError:
                continue
    return found


def _read_grants(hidden: Sequence[Path]) -> list[tuple[Path, int]]:
    """Reads of the entries beside each hidden path and beside each of its ancestors, so only the hidden paths
    stay unread. A rule on anything but a directory may only carry file rights (the kernel refuses READ_DIR)."""
    return [(path, _READS if is_dir else _FS_READ_FILE) for path, is_dir in _entries_beside(hidden, Path("/"))]


def _landlock_setter(
    abi: int,
    root: Path,
    writable: Sequence[Path],
    allow_network: bool,
    hidden: Sequence[Path] = (),
    kind: ChildKind = "bash",
) -> Callable[[], None]:
    """A preexec step that confines the child with Landlock; it fails closed (exit 126) if that does not work."""
    planned = landlock_rules(root, writable, abi, hidden, kind)
    rules = [(os.fsencode(path), access) for path, access in planned]
    reads = _READS if any(access & _READS for _, access in planned) else 0
    handled_net = 0 if allow_network or abi < 4 else _NET_BIND_TCP | _NET_CONNECT_TCP
    attr = _RulesetAttr(_write_rights(abi) | reads, handled_net)
    attr_size = ctypes.sizeof(_RulesetAttr) if abi >= 4 else ctypes.sizeof(ctypes.c_uint64)
    libc = ctypes.CDLL(None, use_errno=True)
    # Landlock sees TCP only: without network, a seccomp filter leaves nothing but Unix sockets (UDP included).
    no_network = None if allow_network or not seccomp.supported() else seccomp.no_network_program()

    def confine() -> None:
        try:
            _restrict(libc, attr, attr_size, rules)
            if no_network is not None:
                seccomp.install(libc, no_network)
        except OSError as exc:
            os.write(2, f"pedro: the Landlock sandbox could not be set up ({exc}); command not run\n".encode())
            os._exit(126)

    return confine


def _restrict(libc: ctypes.CDLL, attr: _RulesetAttr, attr_size: int, rules: list[tuple[bytes, int]]) -> None:
    ruleset = libc.syscall(ctypes.c_long(_SYS_CREATE_RULESET), ctypes.byref(attr), ctypes.c_size_t(attr_size), 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        for path, access in rules:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue  # vanished since planning: nothing to grant
            try:
                rule = _PathBeneathAttr(access, fd)
                if libc.syscall(ctypes.c_long(_SYS_ADD_RULE), ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0) < 0:
                    raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path.decode(errors='replace')}")
            finally:
                os.close(fd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0:
            raise OSError(ctypes.get_errno(), "prctl(NO_NEW_PRIVS) failed")
        if libc.syscall(ctypes.c_long(_SYS_RESTRICT_SELF), ruleset, 0) < 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)


def describe(info: SandboxInfo) -> str:
    """One line for banners and `pedro doctor`."""
    if info.kind == "none":
        return f"sandbox: none ({info.detail})"
    return f"sandbox: {info.kind} ({info.detail})"


__all__ = [
    "CPU_LIMIT_S",
    "FSIZE_LIMIT_BYTES",
    "NOFILE_LIMIT",
    "SWITCH_VAR",
    "SandboxInfo",
    "active_sandbox",
    "describe",
    "detect_sandbox",
    "landlock_rules",
    "read_landlock_abi",
    "wrap",
]
