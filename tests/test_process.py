"""process.py on real children: exit codes, timeouts, output caps, background survivors."""

from __future__ import annotations

import os
import resource
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest

from pedro.process import (
    CHILD_MARKER,
    ChildCommand,
    OutputCapture,
    OutputLimits,
    child_env,
    clean_output,
    describe_exit,
    release_leader,
    run_child,
    shell_command,
    start_leader,
)


def survivors(marker: str) -> list[int]:
    """Live processes whose environment carries `marker` (zombies have an empty environ)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if marker.encode() in environ:
            found.append(int(entry.name))
    return found


@pytest.fixture
def marked_env() -> tuple[dict[str, str], str]:
    token = f"PEDRO_TEST_MARK={uuid.uuid4().hex}"
    key, _, value = token.partition("=")
    return {**os.environ, key: value}, token


def test_child_env_sets_quiet_terminal_and_marker() -> None:
    env = child_env({"PATH": "/bin", "PAGER": "less"})
    assert env["PAGER"] == "cat"
    assert env["GIT_PAGER"] == "cat"
    assert env["GIT_TERMINAL_PROMPT"] == "0"
    assert env["TERM"] == "dumb"
    assert env[CHILD_MARKER] == "1"
    assert env["PATH"] == "/bin"


def test_exit_code_and_interleaved_output(tmp_path: Path) -> None:
    result = run_child(shell_command("echo out; echo err >&2; exit 3", tmp_path, os.environ), timeout=10)
    assert result.outcome == "exited"
    assert result.exit_code == 3
    assert result.output == "out\nerr\n"
    assert not result.truncated


def test_child_runs_in_cwd_with_closed_stdin(tmp_path: Path) -> None:
    command = shell_command("pwd; python3 -c 'input()' 2>&1 | tail -1; echo $PAGER $TERM", tmp_path, os.environ)
    result = run_child(command, timeout=10)
    lines = result.output.splitlines()
    assert lines[0] == str(tmp_path)
    assert "EOFError" in lines[1]
    assert lines[2] == "cat dumb"


def test_timeout_ends_the_group(tmp_path: Path, marked_env: tuple[dict[str, str], str]) -> None:
    env, marker = marked_env
    started = time.monotonic()
    result = run_child(shell_command("echo started; sleep 1000 & sleep 1000", tmp_path, env), timeout=0.5)
    assert result.outcome == "timeout"
    assert time.monotonic() - started < 4
    assert "started" in result.output
    time.sleep(0.2)
    assert survivors(marker) == []


def test_timeout_escalates_to_kill_when_term_is_ignored(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run_child(shell_command("trap '' TERM; sleep 100", tmp_path, os.environ), timeout=0.3)
    assert result.outcome == "timeout"
    assert result.exit_code == -9
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(
    "command",
    [
        "sleep 999 &",
        "nohup sleep 999 >/dev/null 2>&1 &",
        "setsid sleep 999 &",
        "setsid sleep 999 >/dev/null 2>&1 &",
        "(sleep 999 &) &",
    ],
)
def test_background_processes_cannot_hang_or_survive(
    tmp_path: Path, marked_env: tuple[dict[str, str], str], command: str
) -> None:
    env, marker = marked_env
    started = time.monotonic()
    result = run_child(shell_command(f"{command} echo done", tmp_path, env), timeout=30)
    assert time.monotonic() - started < 3
    assert result.outcome == "exited"
    assert result.exit_code == 0
    assert "done" in result.output
    assert result.leftovers_killed
    time.sleep(0.2)
    assert survivors(marker) == []


def test_yes_is_killed_at_the_hard_cap_with_flat_memory(tmp_path: Path) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = run_child(shell_command("yes", tmp_path, os.environ), timeout=30, limits=OutputLimits(4096, 4096))
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert result.outcome == "overflow"
    assert result.total_bytes > 8 * 1024 * 1024
    assert len(result.output) < 10_000
    assert "[... truncated" in result.output
    assert grown_kib < 16 * 1024


def test_binary_flood_is_capped(tmp_path: Path) -> None:
    result = run_child(
        shell_command("cat /dev/urandom | base64", tmp_path, os.environ), timeout=30, limits=OutputLimits(1000, 1000)
    )
    assert result.outcome == "overflow"
    assert len(result.output.encode()) < 2200


def test_tee_receives_every_byte(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with log.open("wb") as fh:
        result = run_child(
            shell_command("seq 1 20000", tmp_path, os.environ), timeout=10, limits=OutputLimits(100, 100), tee=fh
        )
    assert result.truncated
    assert log.read_text().splitlines() == [str(n) for n in range(1, 20001)]


def test_capture_keeps_head_and_tail() -> None:
    capture = OutputCapture(head_limit=4, tail_limit=4)
    for chunk in (b"abcdef", b"ghij", b"klmnop"):
        capture.feed(chunk)
    assert capture.total == 16
    assert capture.cut == 8
    assert capture.render() == "abcd\n[... truncated 8 bytes ...]\nmnop"


def test_capture_without_cut_is_whole() -> None:
    capture = OutputCapture(head_limit=4, tail_limit=8)
    capture.feed(b"abcdefgh")
    assert capture.render() == "abcdefgh"


def test_clean_output_strips_escapes_and_progress() -> None:
    assert clean_output(b"\x1b[31mred\x1b[0m\n10%\r50%\r100%\ndone\r\n") == "red\n100%\ndone\n"
    assert clean_output(b"bad \xff byte") == "bad \ufffd byte"


def test_describe_exit_names_signals() -> None:
    assert describe_exit(0) == "exit code 0"
    assert describe_exit(-9) == "exit code -9 (killed by SIGKILL)"


def test_an_escapee_that_scrubs_its_environment_is_still_ended(tmp_path: Path) -> None:
    # double fork + setsid + empty environment: neither the group kill nor the marker scan can find it
    nonce = f"{uuid.uuid4().int % 100000 + 100000}"
    script = (
        "import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        f"        os.execve('/bin/sleep', ['sleep', '{nonce}'], {{}})\n"
    )
    command = ChildCommand(argv=("python3", "-c", script), cwd=tmp_path, env=child_env(os.environ))
    result = run_child(command, timeout=10)
    assert result.outcome == "exited" and result.exit_code == 0
    assert result.leftovers_killed
    deadline = time.monotonic() + 2
    while (left := sleeping(nonce)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left


def test_a_command_ending_leaves_the_children_other_threads_started(tmp_path: Path) -> None:
    # A run in one thread while another thread starts git (pedro's own process group) and an eval run (a group
    # leader of its own): neither is an orphan the finishing run may kill or reap.
    command = ChildCommand(argv=("sleep", "0.5"), cwd=tmp_path, env=child_env(os.environ))
    results = []
    runner = threading.Thread(target=lambda: results.append(run_child(command, timeout=10)))
    runner.start()
    time.sleep(0.1)
    plain = subprocess.Popen(["sh", "-c", "sleep 1; exit 3"])
    leader = start_leader(lambda: subprocess.Popen(["sh", "-c", "sleep 1; exit 4"], start_new_session=True))
    try:
        runner.join(timeout=10)
        assert results and results[0].exit_code == 0
        assert plain.wait(timeout=10) == 3
        assert leader.wait(timeout=10) == 4
    finally:
        release_leader(leader)
        for process in (plain, leader):
            if process.poll() is None:
                process.kill()
                process.wait()


def sleeping(nonce: str) -> list[int]:
    """Live `sleep NONCE` processes."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv[:2] == [b"sleep", nonce.encode()]:
            found.append(int(entry.name))
    return found
