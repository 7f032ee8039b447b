"""safety.md §2 cases 28 and 31, which need the real `pedro` process: Ctrl-C in the middle of work, and refusing
to start where a run could reach far more than one project."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from harness import DONE, Arena, call, check_start_snapshot_restores, kill_all, marked_processes
from repo_util import git

BATCH_FILES = 20
FILE_LINES = 60_000  # a few MiB each, so applying the batch takes long enough to interrupt it
EXIT_INTERRUPTED = 130


def start_build(server: Any, cwd: Path, env: dict[str, str], out: Path) -> subprocess.Popen[bytes]:
    """`pedro build --no-input` in the background, its output going to files (never a pipe that could fill)."""
    argv = [sys.executable, "-m", "pedro", "build", "-d", "x", "--base-url", f"{server.url}/v1", "--model", "m"]
    with (out / "stdout").open("wb") as stdout, (out / "stderr").open("wb") as stderr:
        return subprocess.Popen(
            [*argv, "--no-input"], cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr
        )


def wait_until(condition: Any, timeout: float, proc: subprocess.Popen[bytes]) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.005)
    return False


def interrupt(proc: subprocess.Popen[bytes]) -> int:
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def only_job(root: Path) -> str:
    jobs = [p.name for p in (root / ".pedro" / "jobs").iterdir() if p.is_dir()]
    assert len(jobs) == 1, jobs
    return jobs[0]


def temp_leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob(".*.pedro-*") if ".git" not in p.relative_to(root).parts]


@pytest.fixture
def cli_arena(arena: Arena, cli_env: dict[str, str]) -> dict[str, str]:
    """The CLI's environment for the arena: its fake home, and Python's own files kept out of the repository."""
    return {**cli_env, "HOME": str(arena.home), "PYTHONDONTWRITEBYTECODE": "1"}


def interrupted_batch(arena: Arena, stub_server: Any, env: dict[str, str], tmp_path: Path) -> tuple[int, list[str]]:
    """Interrupt a 20-file code_edit batch as soon as its first file changed; the exit code and the files changed."""
    root = arena.root
    old = {f"f{n:02}.txt": "".join(f"old {n} line {i}\n" for i in range(FILE_LINES)) for n in range(BATCH_FILES)}
    for name, text in old.items():
        (root / name).write_text(text)
    git(root, "add", ".")
    git(root, "commit", "-qm", "twenty files")
    batch = "\n\n".join(
        call("code_edit", {"action": "replace", "path": name, "old": "old", "new": "new", "replace_all": True})
        for name in old
    )
    server = stub_server([batch, DONE, DONE])
    proc = start_build(server, root, env, tmp_path)
    started = wait_until(lambda: any((root / n).read_bytes()[:3] == b"new" for n in old), 60, proc)
    code = interrupt(proc)
    assert started, (tmp_path / "stderr").read_text()
    changed = []
    for name, text in old.items():
        now = (root / name).read_text()
        assert now in (text, text.replace("old", "new")), f"{name} is half written"
        if now != text:
            changed.append(name)
    return code, changed


@pytest.mark.serial
def test_case_28_ctrl_c_during_a_code_edit_batch(
    arena: Arena, stub_server: Any, cli_arena: dict[str, str], tmp_path: Path
) -> None:
    code, changed = interrupted_batch(arena, stub_server, cli_arena, tmp_path)

    assert code == EXIT_INTERRUPTED, (tmp_path / "stderr").read_text()
    assert temp_leftovers(arena.root) == []
    job = only_job(arena.root)
    journal = arena.root / ".pedro" / "jobs" / job / "journal.jsonl"
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    done = {r["path"] for r in records if r["op"] == "done" and r["changed"]}
    begun = {r["path"] for r in records if r["op"] == "begin"}
    # the journal lists the applied files: every confirmed change happened, every change was announced first
    assert done <= set(changed) <= begun, (done, changed, begun)
    said = (tmp_path / "stdout").read_text() + (tmp_path / "stderr").read_text()
    assert f"job {job} was interrupted" in said and all(name in said for name in done), said[-2000:]
    shown = pedro("jobs", "show", job, env=cli_arena, cwd=arena.root)
    assert shown.returncode == 0 and "Traceback" not in shown.stdout + shown.stderr, shown.stderr
    assert "interrupted" in shown.stdout
    check_start_snapshot_restores(arena.root, job)


@pytest.mark.serial
@pytest.mark.parametrize("tool", ["bash", "test"])
def test_case_28_ctrl_c_during_a_long_command(
    tool: str, arena: Arena, stub_server: Any, cli_arena: dict[str, str], tmp_path: Path
) -> None:
    long_run = call(tool, {"command": "echo started > started.txt; sleep 600; echo never"})
    server = stub_server([long_run, DONE, DONE])
    proc = start_build(server, arena.root, cli_arena, tmp_path)
    running = wait_until(lambda: (arena.root / "started.txt").exists() and marked_processes(arena.home), 60, proc)
    assert running, (tmp_path / "stderr").read_text()
    signalled = time.monotonic()
    code = interrupt(proc)

    assert code == EXIT_INTERRUPTED, (tmp_path / "stderr").read_text()
    deadline = signalled + 2.0
    while (left := marked_processes(arena.home)) and time.monotonic() < deadline:
        time.sleep(0.02)
    kill_all(left)
    assert not left, "the command's processes outlived pedro's Ctrl-C by more than 2 s"
    job = only_job(arena.root)
    shown = pedro("jobs", "show", job, env=cli_arena, cwd=arena.root)
    assert shown.returncode == 0 and "interrupted" in shown.stdout, shown.stdout + shown.stderr
    check_start_snapshot_restores(arena.root, job)


def test_case_31_refuses_home_root_and_non_git(
    arena: Arena, tmp_path: Path, stub_server: Any, cli_arena: dict[str, str]
) -> None:
    server = stub_server([])
    # a home that is itself a dotfiles repository must still be refused, and so must a plain directory inside it
    git(arena.home, "init", "-q")
    (arena.home / "notes").mkdir()
    plain = tmp_path / "plain"
    plain.mkdir()
    root_had_pedro = Path("/.pedro").exists()
    home_before = sorted(p.name for p in arena.home.iterdir())
    places = [(arena.home, ()), (arena.home / "notes", ()), (Path("/"), ()), (Path("/"), ("--allow-outside-git",))]
    places += [(plain, ()), (arena.home, ("--allow-outside-git",))]
    for cwd, extra in places:
        proc = pedro(
            "build", "-d", "x", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input", *extra,
            env=cli_arena, cwd=cwd,
        )  # fmt: skip
        said = proc.stdout + proc.stderr
        assert proc.returncode == 2 and "Traceback" not in said, (cwd, extra, said)
        assert "git init" in said, (cwd, said)
    assert server.requests == [], "pedro talked to the model from a refused directory"
    assert Path("/.pedro").exists() == root_had_pedro
    assert sorted(p.name for p in arena.home.iterdir()) == home_before
    assert not (plain / ".pedro").exists()
