"""The sandbox on real temp repos and real processes: bubblewrap, the Landlock fallback and rlimits."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from repo_util import git

from pedro.config import ToolsConfig
from pedro.process import ChildCommand, child_env, run_child
from pedro.safety.sandbox import (
    FSIZE_LIMIT_BYTES,
    SandboxInfo,
    active_sandbox,
    detect_sandbox,
    landlock_rules,
    read_landlock_abi,
    wrap,
)
from pedro.tools import load_tool
from pedro.tools.base import ToolContext, ToolTimeoutError

HAS_BWRAP = detect_sandbox().kind == "bubblewrap"
LANDLOCK_ABI = read_landlock_abi()
needs_bwrap = pytest.mark.skipif(
    not HAS_BWRAP, reason="bubblewrap is missing or cannot run here (apt-get install bubblewrap)"
)
needs_landlock = pytest.mark.skipif(LANDLOCK_ABI is None, reason="the kernel offers no Landlock ABI")

SANDBOXES = [
    pytest.param("bubblewrap", marks=needs_bwrap),
    pytest.param("landlock", marks=needs_landlock),
]


def run(ctx: ToolContext, **arguments: object) -> str:
    tool = load_tool("bash")
    return tool.run(tool.Args.model_validate(arguments), ctx)


@pytest.fixture(params=SANDBOXES)
def sandboxed(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test under each sandbox this machine has, chosen through the PEDRO_SANDBOX switch."""
    kind = str(request.param)
    monkeypatch.setenv("PEDRO_SANDBOX", kind)
    assert active_sandbox().kind == kind
    return kind


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.3)
    yield server
    server.close()


def live_with(marker: str) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes().split(b"\0"):
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


# -- detection and the switch ---------------------------------------------------------------------------------------


def test_detection_is_cached_and_names_a_kind() -> None:
    first = detect_sandbox()
    assert detect_sandbox() is first
    assert first.kind in ("bubblewrap", "landlock", "none")
    if shutil.which("bwrap") is not None and first.kind != "bubblewrap":
        assert "bubblewrap" in first.detail  # says why the installed binary was not used


def test_switch_off_runs_unsandboxed(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEDRO_SANDBOX", "off")
    assert active_sandbox().kind == "none"
    out = run(ctx, command="ulimit -f; ulimit -n; ulimit -c")
    # rlimits apply even without a sandbox: 256 MiB in 1 KiB blocks, 1024 files, no core dumps
    assert out.splitlines()[1:] == [str(FSIZE_LIMIT_BYTES // 1024), "1024", "0"]


# -- the bubblewrap command line ------------------------------------------------------------------------------------


@needs_bwrap
def test_bwrap_argv_binds_repo_rw_and_git_ro(repo: Path) -> None:
    base = ChildCommand(("bash", "-c", "true"), repo, child_env({"PATH": os.environ["PATH"], "HOME": "/root"}))
    argv = wrap(base, root=repo, kind="bash", sandbox=detect_sandbox()).argv
    joined = shlex.join(argv)
    root = str(repo.resolve())
    assert argv[1:4] == ("--ro-bind", "/", "/")
    assert f"--bind {root} {root}" in joined
    assert f"--ro-bind {root}/.git {root}/.git" in joined
    assert joined.index(f"--bind {root} ") < joined.index(f"--ro-bind {root}/.git")
    assert "--tmpfs /tmp" in joined
    assert "--unshare-all" in argv and "--share-net" not in argv
    assert "--die-with-parent" in argv and "--new-session" in argv
    assert argv[-4:] == ("--", "bash", "-c", "true")
    with_net = wrap(base, root=repo, kind="bash", allow_network=True, sandbox=detect_sandbox()).argv
    assert "--share-net" in with_net


@needs_bwrap
def test_missing_program_is_reported_before_bwrap_starts(repo: Path) -> None:
    base = ChildCommand(("no-such-program-pedro",), repo, child_env({"PATH": "/usr/bin:/bin"}))
    with pytest.raises(FileNotFoundError):
        wrap(base, root=repo, kind="test", sandbox=detect_sandbox())


# -- filesystem confinement, under every sandbox available ----------------------------------------------------------


def test_write_outside_repo_fails(ctx: ToolContext, sandboxed: str, tmp_path: Path) -> None:
    refused = [Path("/etc/pedro-test"), Path(f"/var/tmp/pedro-test-{uuid.uuid4().hex}")]
    # A sibling of the repo: bwrap's private /tmp takes the write, and the host never sees it.
    targets = [*refused, tmp_path / "outside.txt"] if sandboxed == "bubblewrap" else refused
    try:
        out = run(ctx, command="; ".join(f"echo x > {target}" for target in targets) + "; echo done")
        assert [target for target in targets if target.exists()] == []
    finally:
        for target in targets[1:]:
            target.unlink(missing_ok=True)
    refusal = "Read-only file system" if sandboxed == "bubblewrap" else "Permission denied"
    assert out.count(refusal) == len(refused)
    assert out.splitlines()[-1] == "done"


def test_write_into_git_fails_and_repo_writes_work(ctx: ToolContext, repo: Path, sandboxed: str) -> None:
    (repo / "src").mkdir()
    head = (repo / ".git" / "HEAD").read_bytes()
    out = run(
        ctx,
        command="echo pwn > .git/HEAD; echo hook > .git/hooks/pre-commit; rm -rf .git/refs; "
        "echo ok > src/new.txt; echo edit >> README.md; echo status=$?; "
        "python3 -c 'import shutil; shutil.rmtree(\".git\")'; git config core.fsmonitor 'touch pwned'",
    )
    assert (repo / ".git" / "HEAD").read_bytes() == head
    assert (repo / ".git" / "objects").is_dir() and "fsmonitor" not in (repo / ".git" / "config").read_text()
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    assert (repo / ".git" / "refs" / "heads" / "main").is_file()
    assert (repo / "src" / "new.txt").read_text() == "ok\n"
    assert (repo / "README.md").read_text() == "# sample\nedit\n"
    assert "status=0" in out


@needs_bwrap
def test_hook_folders_are_read_only_for_bash(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PEDRO_SANDBOX", raising=False)
    for folder in (".husky", "scripts/hooks"):
        (repo / folder).mkdir(parents=True)
        (repo / folder / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    git(repo, "config", "core.hooksPath", "scripts/hooks")
    out = run(
        ToolContext(root=repo),
        command="echo evil > .husky/pre-commit; echo evil > scripts/hooks/pre-commit; echo ok > scripts/run.sh",
    )
    assert out.count("Read-only file system") == 2, out
    for folder in (".husky", "scripts/hooks"):
        assert (repo / folder / "pre-commit").read_text() == "#!/bin/sh\nexit 0\n"
    assert (repo / "scripts" / "run.sh").read_text() == "ok\n"


def test_new_files_at_repo_root_work_under_bubblewrap_only(ctx: ToolContext, repo: Path, sandboxed: str) -> None:
    (repo / "src").mkdir()
    out = run(ctx, command="echo x > src/a.go; mkdir -p src/pkg && echo y > src/pkg/b.go; echo hi > top.txt")
    assert (repo / "src" / "a.go").is_file() and (repo / "src" / "pkg" / "b.go").is_file()
    if sandboxed == "bubblewrap":
        assert (repo / "top.txt").read_text() == "hi\n"
    else:  # Landlock keeps .git read-only only by granting nothing on the folder that holds it (see landlock_rules)
        assert not (repo / "top.txt").exists() and "Permission denied" in out


@needs_bwrap
def test_home_and_tmp_are_private(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEDRO_SANDBOX", "bubblewrap")
    name = f"pedro-home-{uuid.uuid4().hex}"
    out = run(ctx, command=f'echo secret > ~/{name} && echo x > /tmp/{name} && ls ~ /tmp && echo "home=$HOME"')
    assert name in out
    assert f"home={Path.home()}" in out
    assert not (Path.home() / name).exists()
    assert not (Path("/tmp") / name).exists()
    again = run(ctx, command=f"ls ~/{name}")
    assert "No such file" in again  # every call starts with an empty home


@needs_bwrap
def test_build_caches_stay_writable_when_a_toolchain_lives_in_home_cache(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A program found on PATH under ~/.cache binds ~/.cache back read-only; Go's build cache must not be there.
    tools = Path.home() / ".cache" / f"pedro-test-{uuid.uuid4().hex}"
    (tools / "bin").mkdir(parents=True)
    try:
        monkeypatch.setenv("PEDRO_SANDBOX", "bubblewrap")
        monkeypatch.setenv("PATH", f"{tools / 'bin'}{os.pathsep}{os.environ['PATH']}")
        ctx = ToolContext(root=repo)
        out = run(ctx, command='mkdir -p "$GOCACHE" "$XDG_CACHE_HOME/x" && touch "$GOCACHE/entry" && echo wrote')
        assert "wrote" in out, out
    finally:
        shutil.rmtree(tools)


@needs_bwrap
def test_real_home_dotfiles_are_hidden(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEDRO_SANDBOX", "bubblewrap")
    out = run(ctx, command="ls -a ~ | grep -c '^\\.ssh$' || true")
    assert out.splitlines()[-1] == "0"


def test_no_network(ctx: ToolContext, sandboxed: str, listener: socket.socket) -> None:
    port = listener.getsockname()[1]
    script = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2); print('connected')"
    out = run(ctx, command=f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}")
    assert "connected" not in out.splitlines()
    assert "Error" in out  # ConnectionRefusedError (own net namespace) or PermissionError (Landlock)
    with pytest.raises(TimeoutError):
        listener.accept()


def test_no_udp_and_unix_sockets_still_work(ctx: ToolContext, sandboxed: str) -> None:
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    receiver.settimeout(0.5)
    port = receiver.getsockname()[1]
    script = (
        "import socket\n"
        "a, b = socket.socketpair(); a.sendall(b'x'); print('unix', b.recv(1))\n"
        f"s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'leak', ('127.0.0.1', {port})); print('sent')"
    )
    try:
        out = run(ctx, command=f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}")
        assert "unix b'x'" in out, out
        if sandboxed == "landlock":  # no socket but a Unix one; bubblewrap's own network namespace reaches nothing
            assert "sent" not in out.splitlines() and "PermissionError" in out, out
        with pytest.raises(TimeoutError):
            receiver.recvfrom(16)
    finally:
        receiver.close()


@needs_bwrap
def test_network_can_be_shared_when_approved(repo: Path, listener: socket.socket) -> None:
    port = listener.getsockname()[1]
    script = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2); print('connected')"
    command = ChildCommand(
        ("bash", "-c", f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}"), repo, child_env(os.environ)
    )
    result = run_child(wrap(command, root=repo, kind="bash", allow_network=True, sandbox=detect_sandbox()), timeout=20)
    assert "connected" in result.output


# -- processes, time and size ---------------------------------------------------------------------------------------


def test_sleep_times_out_and_nothing_survives(repo: Path, sandboxed: str) -> None:
    marker = uuid.uuid4().hex
    ctx = ToolContext(root=repo, config=ToolsConfig(bash_timeout=0.5), env={**os.environ, "PEDRO_TEST_MARK": marker})
    started = time.monotonic()
    with pytest.raises(ToolTimeoutError, match="timed out after 0.5 s"):
        run(ctx, command="setsid sleep 1000 & nohup sleep 1000 & sleep 1000")
    assert time.monotonic() - started < 5
    time.sleep(0.2)
    assert live_with(f"PEDRO_TEST_MARK={marker}") == []


def test_yes_is_still_capped(ctx: ToolContext, sandboxed: str) -> None:
    started = time.monotonic()
    out = run(ctx, command="yes")
    assert time.monotonic() - started < 15
    assert "printed more than 8 MiB" in out
    assert len(out.encode()) <= ctx.output_limit


def test_file_size_limit_stops_dd(ctx: ToolContext, repo: Path, sandboxed: str) -> None:
    (repo / "build").mkdir()  # not the root itself: Landlock cannot let files be created there (see landlock_rules)
    out = run(ctx, command="dd if=/dev/zero of=build/big bs=1M count=400")
    assert "SIGXFSZ" in out
    assert "256 MiB size limit" in out
    assert (repo / "build" / "big").stat().st_size <= FSIZE_LIMIT_BYTES


def test_test_tool_runs_pytest_in_the_sandbox(ctx: ToolContext, repo: Path, sandboxed: str) -> None:
    (repo / "test_box.py").write_text(
        "import pathlib\n\n\ndef test_git_is_read_only():\n"
        "    try:\n        pathlib.Path('.git/pwn').write_text('x')\n    except OSError:\n        return\n"
        "    raise AssertionError('wrote into .git')\n\n\ndef test_fails():\n    assert 1 == 2\n"
    )
    tool = load_tool("test")
    out = tool.run(tool.Args.model_validate({}), ctx)
    assert "test_box.py::test_fails" in out
    assert out.splitlines()[0] == "pytest FAILED: passed 1, failed 1, skipped 0 (exit code 1)"
    assert not (repo / ".git" / "pwn").exists()


# -- the Landlock rule set ------------------------------------------------------------------------------------------


def test_landlock_rules_grant_the_repository_and_scratch_space_only(repo: Path) -> None:
    rules = dict(landlock_rules(repo, [repo.parent, Path("/var/tmp")], 7))
    assert repo / "README.md" in rules and Path("/var/tmp") in rules and Path("/dev") in rules
    assert repo.parent not in rules  # a writable parent of the repository would grant far more than asked
    assert Path("/") not in rules and Path.home() not in rules
    assert Path("/tmp") in dict(landlock_rules(Path("/usr/share"), [], 7))


def test_landlock_rules_leave_git_and_hook_folders_without_write_rights(repo: Path) -> None:
    (repo / "src").mkdir()
    (repo / ".husky").mkdir()
    rules = dict(landlock_rules(repo, [], 7))
    assert repo not in rules  # a rule on the root would cover .git beneath it
    assert (repo / ".git") not in rules and (repo / ".husky") not in rules
    assert rules[repo / "src"] & (1 << 8)  # MAKE_REG: new files in the folder
    assert rules[repo / "README.md"] == (1 << 1) | (1 << 14)  # WRITE_FILE | TRUNCATE, file rights only
    plain = repo.parent / "plain"
    plain.mkdir()
    assert plain in dict(landlock_rules(plain, [], 7))  # nothing to protect: the whole folder, new files included


def test_unavailable_sandbox_still_sets_limits(repo: Path) -> None:
    none = SandboxInfo("none", "test")
    command = ChildCommand(("bash", "-c", "ulimit -f"), repo, child_env(os.environ))
    wrapped = wrap(command, root=repo, kind="bash", sandbox=none)
    assert wrapped.argv == command.argv
    assert run_child(wrapped, timeout=10).output.strip() == str(FSIZE_LIMIT_BYTES // 1024)


def test_environments_under_tmp_are_bound_back(tmp_path: Path) -> None:
    from pedro.safety.sandbox import _tmp_toolchains

    venv = Path(tempfile.mkdtemp(dir="/tmp")) / ".venv"
    (venv / "bin").mkdir(parents=True)
    try:
        found = _tmp_toolchains({"PATH": f"{venv}/bin:/usr/bin", "VIRTUAL_ENV": ""})
        assert venv in found
        assert all(Path("/tmp") in path.parents for path in found)
    finally:
        shutil.rmtree(venv.parent)


@needs_bwrap
def test_env_files_are_hidden_and_read_only_for_bash(
    ctx: ToolContext, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PEDRO_SANDBOX", raising=False)
    (repo / ".env").write_text("API_KEY=x\n")
    (repo / ".env.local").write_text("DEBUG=1\n")
    (repo / ".envrc").symlink_to(".env.local")
    out = run(ctx, command="cp /dev/null .env; echo pwn >> .env.local; echo ok > other.txt; cat .env .envrc; echo end")
    assert (repo / ".env").read_text() == "API_KEY=x\n"
    assert (repo / ".env.local").read_text() == "DEBUG=1\n"
    assert out.count("Read-only file system") == 2
    assert "API_KEY" not in out and "DEBUG" not in out and out.endswith("\nend")
    assert (repo / "other.txt").read_text() == "ok\n"


@needs_bwrap
def test_secret_files_git_already_holds_stay_readable(
    ctx: ToolContext, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A committed test key is no secret from anyone who can run `git show`, and the tests that use it must pass."""
    monkeypatch.delenv("PEDRO_SANDBOX", raising=False)
    (repo / "testdata").mkdir()
    for name in ("server.key", "edited.key", "new.key"):
        (repo / "testdata" / name).write_text(f"fixture {name}\n")
    git(repo, "add", "testdata/server.key", "testdata/edited.key")
    git(repo, "commit", "-qm", "fixtures")
    (repo / "testdata" / "edited.key").write_text("a local secret\n")
    out = run(ctx, command="cat testdata/*.key; echo x >> testdata/server.key")
    assert "fixture server.key" in out
    assert "a local secret" not in out and "fixture new.key" not in out
    assert "Read-only file system" in out


@needs_bwrap
def test_the_tests_runs_share_one_build_cache_and_the_models_commands_do_not_see_it(repo: Path) -> None:
    # Each Go candidate of a repair compiled the standard library again when every run's cache vanished with it.
    env = child_env(os.environ, {})

    def child(kind: str, script: str) -> str:
        command = ChildCommand(("sh", "-c", script), repo, env)
        result = run_child(wrap(command, root=repo, kind=kind, sandbox=detect_sandbox()), timeout=20)  # type: ignore[arg-type]
        return result.output

    child("test", 'mkdir -p "$GOCACHE" && echo built > "$GOCACHE/marker"')
    assert "built" in child("test", 'cat "$GOCACHE/marker"')  # the next test run finds it
    assert "built" not in child("bash", 'cat "$GOCACHE/marker" 2>&1; ls /tmp')  # a command of the model's does not
