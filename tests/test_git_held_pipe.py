"""pedro's git returns once git exits, even when a process git started holds its output open."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from pedro import gitlayer
from tests.repo_util import commit_files


@pytest.fixture
def held(repo: Path, tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    root = commit_files(repo, {"a.txt": "a\n"})
    pid_file = tmp_path / "holder.pid"
    yield root, pid_file
    with contextlib.suppress(OSError, ValueError):
        os.kill(int(pid_file.read_text()), signal.SIGKILL)


def test_git_that_leaves_a_process_holding_its_output_returns_what_it_wrote(
    held: tuple[Path, Path], caplog: pytest.LogCaptureFixture
) -> None:
    root, pid_file = held
    # An alias whose background job keeps git's stdout and stderr: git itself exits at once.
    alias = f"!f() {{ sleep 120 & echo $! > {pid_file}; echo written; }}; f"
    result = gitlayer.run(root, "-c", f"alias.hold={alias}", "hold", timeout=20)
    assert (result.code, result.out) == (0, "written\n")
    # pedro's own log names what held the output, for whoever wonders why git seemed slow.
    assert "sleep 120" in caplog.text
