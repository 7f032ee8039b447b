"""Start-up stays light: the heavy libraries load only in the commands that use them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_util import pedro

HEAVY = {"httpx", "rich", "tree_sitter", "git", "pydantic"}


def top_level_imports(*args: str, env: dict[str, str], cwd: Path) -> tuple[int, set[str]]:
    """The exit status of `python -m pedro ARGS` and the top-level packages it imported (from `-X importtime`)."""
    proc = pedro(*args, env=env, cwd=cwd, python_flags=("-X", "importtime"))
    rows = (line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:"))
    return proc.returncode, {name.split(".")[0] for name in rows}


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (("--version",), set()),
        (("--help",), set()),
        # jobs list asks git where the repository is, and every git pedro runs goes through GitPython (gitlayer.py)
        (("jobs", "list"), {"pydantic", "git"}),
        (("tools", "list"), {"pydantic"}),
    ],
)
def test_commands_import_only_the_heavy_libraries_they_use(
    args: tuple[str, ...], allowed: set[str], repo: Path, cli_env: dict[str, str]
) -> None:
    status, loaded = top_level_imports(*args, env=cli_env, cwd=repo)
    # A command that crashed part way would import less: only a finished command counts.
    assert status == 0
    assert loaded & HEAVY <= allowed


def test_the_measurement_sees_a_heavy_import_when_one_happens(repo: Path, cli_env: dict[str, str]) -> None:
    # doctor talks to the server, so it needs httpx: the same reading would catch that import in the others.
    assert "httpx" in top_level_imports("doctor", env=cli_env, cwd=repo)[1]
