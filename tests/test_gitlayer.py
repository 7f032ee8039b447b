"""The one git layer: what every git pedro runs switches off, and that nothing else in pedro starts git."""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from repo_util import git

import pedro
from pedro import gitlayer
from pedro.workspace import fingerprint

PACKAGE = Path(pedro.__file__).parent


@pytest.fixture
def armed(repo: Path, tmp_path: Path) -> Path:
    """A repository whose config names a hook folder, an fsmonitor, a pager and a credential helper, each of which
    leaves a trace when it runs."""
    trace = tmp_path / "trace"
    program = tmp_path / "program.sh"
    program.write_text(f'#!/bin/sh\necho "$0 $*" >> "{trace}"\ncat\n')
    program.chmod(0o755)
    hooks = repo / ".husky"
    hooks.mkdir()
    for name in ("pre-commit", "post-commit", "reference-transaction", "post-index-change"):
        (hooks / name).write_text(f'#!/bin/sh\necho "{name}" >> "{trace}"\n')
        (hooks / name).chmod(0o755)
    for key, value in (
        ("core.hooksPath", ".husky"),
        ("core.fsmonitor", str(program)),
        ("core.pager", str(program)),
        ("credential.helper", f"!{program}"),
    ):
        git(repo, "config", key, value)
    return trace


def test_pedros_own_git_runs_no_program_the_repository_names(repo: Path, armed: Path) -> None:
    (repo / "README.md").write_text("# changed\n")
    assert "README.md" in gitlayer.output(repo, "status", "--porcelain")
    blob = gitlayer.output(repo, "hash-object", "-w", "--stdin", stdin="x\n").strip()
    gitlayer.output(repo, "update-ref", "refs/pedro/probe", gitlayer.output(repo, "rev-parse", "HEAD").strip())
    gitlayer.output(repo, "update-index", "--add", "--cacheinfo", f"100644,{blob},probe.txt")
    gitlayer.output(repo, "log", "-1")
    assert not armed.exists(), armed.read_text()


def test_the_fingerprint_runs_no_fsmonitor(repo: Path, armed: Path) -> None:
    (repo / "README.md").write_text("# changed\n")
    fingerprint(repo)
    assert not armed.exists(), armed.read_text()


def test_system_config_and_credential_helpers_are_off(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = tmp_path / "gitconfig"
    system.write_text("[pedro]\n\tprobe = from-the-system\n")
    monkeypatch.setenv("GIT_CONFIG_SYSTEM", str(system))
    monkeypatch.delenv("GIT_CONFIG_NOSYSTEM", raising=False)
    assert git(repo, "config", "pedro.probe").strip() == "from-the-system"
    assert not gitlayer.run(repo, "config", "pedro.probe").ok
    git(repo, "config", "credential.helper", "store")
    assert gitlayer.output(repo, "config", "--get-all", "credential.helper").splitlines()[-1] == ""


def test_a_model_facing_command_is_exact(repo: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "GIT_DIR": "/elsewhere/.git", "GIT_INDEX_FILE": "/elsewhere/index"}
    command = gitlayer.command(repo, "status", env=env)
    assert command.argv[-1] == "status" and "core.hooksPath=/dev/null" in command.argv
    assert "GIT_DIR" not in command.env and "GIT_INDEX_FILE" not in command.env
    assert command.env["GIT_CONFIG_NOSYSTEM"] == "1" and command.env["GIT_TERMINAL_PROMPT"] == "0"
    published = gitlayer.command(repo, "push", env=env, publish=True)
    assert "credential.helper=" not in published.argv and "GIT_CONFIG_NOSYSTEM" not in published.env
    assert "core.hooksPath=/dev/null" in published.argv


def test_toplevel_and_errors(repo: Path, tmp_path: Path) -> None:
    (repo / "sub").mkdir()
    assert gitlayer.toplevel(repo / "sub") == repo.resolve()
    outside = tmp_path / "plain"
    outside.mkdir()
    assert gitlayer.toplevel(outside) is None
    with pytest.raises(gitlayer.GitError, match="git rev-parse failed in .*Needed a single revision"):
        gitlayer.output(repo, "rev-parse", "--verify", "no-such-ref^{commit}", "--")


def starts_git(node: ast.AST) -> bool:
    """A call whose argv is written out as a list or tuple beginning with "git"."""
    if not isinstance(node, ast.Call):
        return False
    for arg in [*node.args, *(keyword.value for keyword in node.keywords)]:
        if isinstance(arg, ast.List | ast.Tuple) and arg.elts:
            first = arg.elts[0]
            if isinstance(first, ast.Constant) and first.value == "git":
                return True
    return False


# The eval runner builds each task's repository the way a person would (git init, add, commit) before pedro
# starts; it is the one other module that runs git, and it runs none in a repository pedro works in.
NOT_PEDROS_GIT = {"gitlayer.py", "eval/taskrun.py"}


def test_only_the_git_layer_starts_git() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{node.lineno}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).as_posix() not in NOT_PEDROS_GIT
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if starts_git(node)
    ]
    assert found == []


def test_the_reading_sees_a_git_argv() -> None:
    assert starts_git(ast.parse('subprocess.run(["git", "-C", root, "status"])').body[0].value)  # type: ignore[attr-defined]
    assert not starts_git(ast.parse('subprocess.run(["bash", "-c", "git status"])').body[0].value)  # type: ignore[attr-defined]


@pytest.mark.serial
def test_ctrl_c_during_a_git_run_ends_pedro_at_once_not_when_the_git_deadline_would_have_passed(repo: Path) -> None:
    # A git that waits (an alias running sleep), a 120 s deadline, and Ctrl-C after a second: pedro's process must
    # end soon after, with no watchdog thread left holding it until the deadline.
    script = (
        "import sys\nfrom pathlib import Path\nfrom pedro import gitlayer\n"
        "try:\n"
        "    print('started', flush=True)\n"
        "    gitlayer.run(Path(sys.argv[1]), '-c', 'alias.wait=!sleep 60', 'wait', timeout=120)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script, str(repo)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "started"  # imports done, however slow
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("pedro was still running 30 s after Ctrl-C") from None
    assert out.strip() == "interrupted" and proc.returncode == 0


def test_a_scratch_worktree_left_by_a_killed_pedro_is_removed_by_the_next(repo: Path, tmp_path: Path) -> None:
    from pedro.gitlayer import scratch_worktree

    # A pedro killed by SIGKILL inside scratch_worktree leaves its folder and its registration behind.
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    left = tmp_path / f"pedro-worktree-{gone.pid}-abc" / "tree"
    git(repo, "worktree", "add", "--detach", str(left), "HEAD")
    alive = tmp_path / f"pedro-worktree-{os.getpid()}-mine" / "tree"  # this process's own: still in use
    git(repo, "worktree", "add", "--detach", str(alive), "HEAD")
    with scratch_worktree(repo, git(repo, "rev-parse", "HEAD").strip()) as tree:
        assert tree.is_dir()
        listed = git(repo, "worktree", "list", "--porcelain")
        assert str(left) not in listed and str(alive) in listed
    assert not left.parent.exists() and alive.is_dir()
