"""Where the ripgrep binary is: the one the `ripgrep` wheel put next to this Python, else one on PATH."""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=8)
def rg_binary(path_var: str | None = None) -> str | None:
    """The ripgrep to run, or None; `path_var` is the PATH to look in after the interpreter's own folders."""
    # The wheel pinned in pyproject lands in the interpreter's scripts directory, which need not be on PATH (a venv
    # run without activation), so it is looked for there first.
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / "rg"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("rg", path=path_var)
