"""Snapshot and restore of a 1000-file repository, against git doing the bare minimum of the same work."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from pedro.safety.snapshots import restore_snapshot, take_snapshot

FILES = 1000
RUNS = 5
JOB = "20250101-000000-bench"


def _git(root: Path, *args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def _repo(root: Path) -> None:
    _git(root, "init", "-q", "-b", "main")
    for i in range(FILES):
        folder = root / f"pkg{i % 20}"
        folder.mkdir(exist_ok=True)
        (folder / f"mod{i}.py").write_text(f"VALUE = {i}\n")
    _git(root, "add", ".")
    _git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "many")


def _edit(root: Path, step: int, text: str) -> None:
    for i in range(0, FILES, step):
        (root / f"pkg{i % 20}" / f"mod{i}.py").write_text(text)


def _bare_git_seconds(root: Path) -> float:
    """The floor of any snapshot: stage everything into a copy of the index and write its tree."""
    index = root / ".git" / "bench-index"
    shutil.copy2(root / ".git" / "index", index)
    try:
        env = {**os.environ, "GIT_INDEX_FILE": str(index)}
        start = time.perf_counter()
        _git(root, "add", "-A", env=env)
        _git(root, "write-tree", env=env)
        return time.perf_counter() - start
    finally:
        index.unlink()


def run() -> dict[str, Any]:
    """Median seconds of a snapshot after 100 edits, a restore of 334 files, and the bare git baseline."""
    snapshot_s, restore_s, bare_s = [], [], []
    for n in range(RUNS):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            _repo(root)
            _edit(root, 10, "edited\n")
            bare_s.append(_bare_git_seconds(root))
            start = time.perf_counter()
            snap = take_snapshot(root, f"{JOB}{n}", "bench")
            snapshot_s.append(time.perf_counter() - start)
            _edit(root, 3, "model edit, longer\n")
            start = time.perf_counter()
            restore_snapshot(root, snap, expected=None)
            restore_s.append(time.perf_counter() - start)
    bare = statistics.median(bare_s)
    return {
        "files": FILES,
        "snapshot_s": statistics.median(snapshot_s),
        "restore_s": statistics.median(restore_s),
        "bare_git_s": bare,
        "snapshot_ratio": statistics.median(snapshot_s) / bare,
        "restore_ratio": statistics.median(restore_s) / bare,
    }
