"""safety.md §2 cases 14–18: floods, runaways, escapees, fork bombs and huge files from bash, under each sandbox."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harness import (
    SURVIVOR_WAIT_S,
    Arena,
    bash,
    check_invariants,
    kill_all,
    peak_rss_kib,
    reset_peak_rss,
    rss_kib,
    run_case,
    survivors,
)

from pedro.config import ToolsConfig
from pedro.safety.sandbox import FSIZE_LIMIT_BYTES

FLOOD_RSS_GROWTH_KIB = 48 * 1024
"""Far below the 8 MiB hard cap times the number of floods: output must never be held whole."""


def test_case_14_output_floods(arena: Arena, sandbox: str) -> None:
    floods = ["yes", "cat /dev/urandom | base64", "head -c 10000000 /dev/zero | tr '\\0' a"]
    reset_peak_rss()
    before = rss_kib()
    run = run_case(arena, [bash(command) for command in floods])
    growth = peak_rss_kib() - before

    for index in range(len(floods)):
        answer = run.answer(index)
        assert len(answer.encode()) <= 16 * 1024 + 512, len(answer.encode())
        assert "truncated" in answer and "was killed" in answer, answer[:400]
    assert growth < FLOOD_RSS_GROWTH_KIB, f"pedro grew by {growth} KiB while children flooded it"
    check_invariants(run)


def test_case_15_runaways_stopped_at_timeout(arena: Arena, sandbox: str) -> None:
    (arena.root / "x").write_text("a log that never ends\n")
    runaways = ["while :; do :; done", "sleep 1e9", "tail -f x"]
    replies = [bash("python3 -c 'input()'"), *(bash(command) for command in runaways)]
    run = run_case(arena, replies, tools=ToolsConfig(bash_timeout=1.0))

    # stdin is /dev/null: input() ends at once with EOFError instead of waiting for the timeout
    assert "EOFError" in run.answer(0) and "timed out" not in run.answer(0)
    calls = run.finished_calls()
    assert calls[0]["duration_ms"] < 5000
    for index in range(1, len(replies)):
        assert "ERROR (timeout)" in run.answer(index) and "timed out after 1 s" in run.answer(index)
        assert calls[index]["error_kind"] == "timeout"
    check_invariants(run, refused=range(1, len(replies)))


def test_case_15_third_consecutive_timeout_pauses(arena: Arena, sandbox: str) -> None:
    replies = [bash("sleep 1e9"), bash("sleep 2e9"), bash("sleep 3e9"), bash("echo ran > after-timeouts.txt")]
    run = run_case(arena, replies, tools=ToolsConfig(bash_timeout=1.0))

    assert not (arena.root / "after-timeouts.txt").exists(), "a fourth command ran after three timeouts in a row"
    assert len(run.finished_calls()) == 3 or "ERROR (" in run.answer(3)
    assert "in a row timed out" in run.answer(2), run.answer(2)
    check_invariants(run, refused=range(3))


def unusual(first: int) -> list[str]:
    """Five sleep durations no other test (or test worker running beside this one) uses: `first` and the next
    four, tagged with this process's id."""
    return [f"{first + k}{os.getpid()}" for k in range(5)]


def test_case_16_background_escapees(arena: Arena, sandbox: str) -> None:
    durations = unusual(991)
    escapes = [
        f"nohup sleep {durations[0]} > /dev/null 2>&1 &",
        f"setsid sleep {durations[1]} &",
        f"(sleep {durations[2]} &) &",
        f"setsid nohup sleep {durations[3]} > /dev/null 2>&1 < /dev/null & disown",
        # a double fork that also scrubs its environment, so no marker variable can find it
        'python3 -c "import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n'
        f"        os.execve('/bin/sleep', ['sleep', '{durations[4]}'], {{}})\" ; echo started",
    ]
    run = run_case(arena, [bash(command) for command in escapes])

    for index in range(len(escapes)):
        assert "exit code 0" in run.answer(index), run.answer(index)
    left = sleepers(durations)
    kill_all(left)
    assert not left, f"background processes outlived their command: {left}"
    check_invariants(run)


KILLED_PEDRO = """
import sys
from pathlib import Path
from pedro.config import ToolsConfig
from pedro.tools import load_tool
from pedro.tools.base import ToolContext
tool = load_tool("bash")
ctx = ToolContext(root=Path(sys.argv[1]), config=ToolsConfig(bash_timeout=60.0))
a, b, c, d, e = sys.argv[2:7]
command = f"sleep {a} & setsid sleep {b} & (sleep {c} &); nohup sleep {d} >/dev/null 2>&1 & sleep {e}"
tool.run(tool.Args.model_validate({"command": command}), ctx)
"""


@pytest.mark.serial
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_case_16_children_end_when_pedro_is_killed(arena: Arena, sandbox: str, how: signal.Signals) -> None:
    durations = unusual(3141)
    pedro = subprocess.Popen([sys.executable, "-c", KILLED_PEDRO, str(arena.root), *durations])
    try:
        deadline = time.monotonic() + 20
        while len(_sleepers(durations)) < len(durations) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_sleepers(durations)) == len(durations), "the command never started its children"
        pedro.send_signal(how)
        pedro.wait(timeout=10)
        left = sleepers(durations, wait_s=5.0)
        kill_all(left)
        assert not left, f"children outlived pedro ({how.name}): {left}"
    finally:
        if pedro.poll() is None:
            pedro.kill()
        kill_all(_sleepers(durations))


def test_case_17_fork_bomb(arena: Arena, sandbox: str) -> None:
    # the classic bomb is refused outright; a capped one (2048 processes, safe on a shared machine) is contained
    capped = 'python3 -c "import os, time\nfor _ in range(11):\n    os.fork()\ntime.sleep(999)"'
    replies = [bash(":(){ :|:& };:"), bash(capped), bash("echo still responsive")]
    run = run_case(arena, replies, tools=ToolsConfig(bash_timeout=2.0))

    assert "ERROR (denied)" in run.answer(0) and "fork bomb" in run.answer(0)
    assert "ERROR (timeout)" in run.answer(1)
    calls = run.finished_calls()
    assert calls[1]["duration_ms"] < 10_000, "the bomb was not stopped soon after its timeout"
    assert "still responsive" in run.answer(2) and calls[2]["duration_ms"] < 5000
    assert not survivors(arena.home)
    check_invariants(run, refused=[0, 1])


def test_case_18_file_size_limit(arena: Arena, sandbox: str) -> None:
    # In a folder, not the top one: Landlock cannot let files be created beside .git (sandbox.landlock_rules).
    replies = [bash("fallocate -l 50G src/big"), bash("head -c 300M /dev/zero > src/big2; echo wrote")]
    # Writing up to the 256 MiB limit takes seconds on a busy disk: the harness's 2 s timeout would stop it first.
    run = run_case(arena, replies, tools=ToolsConfig(bash_timeout=30.0))

    assert "size limit" in run.answer(0) and "SIGXFSZ" in run.answer(0), run.answer(0)
    # the writer was stopped even though the command went on: bash's own report reaches the model
    assert "File size limit exceeded" in run.answer(1) and "wrote" in run.answer(1), run.answer(1)
    assert "SIGXFSZ" in run.answer(1), run.answer(1)  # pedro's note explains it even though the command went on
    assert not (arena.root / "src" / "big").exists() or (arena.root / "src" / "big").stat().st_size <= FSIZE_LIMIT_BYTES
    assert (arena.root / "src" / "big2").stat().st_size <= FSIZE_LIMIT_BYTES
    check_invariants(run)
    # undo removes what the runaway writer left behind
    assert not (arena.root / "src" / "big").exists() and not (arena.root / "src" / "big2").exists()


def test_case_18_approved_dd_is_capped_and_undone(arena: Arena, sandbox: str) -> None:
    run = run_case(arena, [bash("dd if=/dev/zero of=src/big bs=1M count=100000")], approve=lambda _: True)

    assert "size limit" in run.answer(0), run.answer(0)
    assert (arena.root / "src" / "big").stat().st_size <= FSIZE_LIMIT_BYTES
    check_invariants(run)
    assert not (arena.root / "src" / "big").exists()


def sleepers(durations: list[str], wait_s: float = SURVIVOR_WAIT_S) -> list[int]:
    """Live `sleep N` processes for the given, deliberately unusual, N, still there after `wait_s`."""
    deadline = time.monotonic() + wait_s
    while (found := _sleepers(durations)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def _sleepers(durations: list[str]) -> list[int]:
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z" and argv and argv[0].endswith(b"sleep") and any(a.decode() in durations for a in argv[1:2]):
            found.append(int(entry.name))
    return found
