"""Helpers for tests that build real git repositories."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` and return its stdout."""
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout
