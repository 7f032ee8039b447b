"""issue 21, must hold 5: Ctrl-C while repair tests its third candidate, then `pedro undo`, leaves the tree as the
job found it, on the user's own branch, and nothing pedro printed contradicts itself or names a missing branch."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from harness import Arena
from repo_util import PYTEST, git

SHOP = "def total(prices):\n    return sum(prices) - 1\n"
TESTS = "from shop import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"
# The test run of the candidate marked BLOCK says it started, then waits until pedro is interrupted.
CONFTEST = (
    "import pathlib\nimport time\n\n"
    "HERE = pathlib.Path(__file__).parent\n"
    "if 'BLOCK' in (HERE / 'shop.py').read_text():\n"
    "    (HERE / '__pycache__' / 'testing-candidate-3').write_text('')\n"
    "    time.sleep(600)\n"
)
CANDIDATES = [
    "```python\ndef total(prices):\n    return sum(prices) * 2\n```",
    "```python\ndef total(prices):\n    return 0\n```",
    "```python\ndef total(prices):\n    return sum(prices)  # BLOCK\n```",
]


def files_of(root: Path) -> dict[str, bytes]:
    """Every file's bytes, outside git's and pedro's own folders and Python's caches."""
    skipped = {".git", ".pedro", "__pycache__"}
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not skipped & set(path.relative_to(root).parts)
    }


def switched_to(text: str) -> set[str]:
    """Every branch a printed line tells the user to `git switch` to."""
    return set(re.findall(r"git switch ([^\s`;,]+)", text))


@pytest.mark.serial
def test_undo_after_ctrl_c_during_the_third_candidate_returns_to_the_start(
    arena: Arena, sandbox: str, stub_server: Any, cli_env: dict[str, str], tmp_path: Path
) -> None:
    root = arena.root
    (root / "shop.py").write_text(SHOP)
    (root / "test_shop.py").write_text(TESTS)
    (root / "conftest.py").write_text(CONFTEST)
    (root / ".gitignore").write_text("__pycache__/\n")
    git(root, "add", "shop.py", "test_shop.py", "conftest.py", ".gitignore")
    git(root, "commit", "-qm", "shop")
    git(root, "switch", "-q", "-c", "feat")  # the user's README edit (the arena's) comes along, uncommitted
    (root / "__pycache__").mkdir(exist_ok=True)
    started = root / "__pycache__" / "testing-candidate-3"
    before, status_before = files_of(root), git(root, "status", "--porcelain")

    server = stub_server(CANDIDATES)
    env = {**cli_env, "HOME": str(arena.home), "PEDRO_REPAIR__MUTANTS": "0"}  # the candidates are the model's
    test_command = PYTEST
    argv = [sys.executable, "-m", "pedro", "debug", "total() is off by one", "--test", test_command]
    argv += ["--base-url", f"{server.url}/v1", "--model", "m", "--no-input"]
    with (tmp_path / "out").open("wb") as out, (tmp_path / "err").open("wb") as err:
        proc = subprocess.Popen(argv, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    try:
        deadline = time.monotonic() + 240
        while not started.exists():
            assert proc.poll() is None, (tmp_path / "out").read_text() + (tmp_path / "err").read_text()
            assert time.monotonic() < deadline, "the third candidate's test run never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=120) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    printed = (tmp_path / "out").read_text() + (tmp_path / "err").read_text()
    assert "Traceback" not in printed, printed
    job = next(p.name for p in (root / ".pedro" / "jobs").iterdir() if p.is_dir())

    undone = pedro("undo", job, env=env, cwd=root)
    said = undone.stdout + undone.stderr
    assert "Traceback" not in said, said
    assert undone.returncode == 0 or "nothing to undo" in said, said

    assert files_of(root) == before
    assert git(root, "status", "--porcelain") == status_before
    assert git(root, "branch", "--show-current").strip() == "feat"
    assert git(root, "branch", "--list", "pedro/*").strip() == ""
    # The end of the job and undo agree: no "changed no file" beside "interrupted after changing", no candidate
    # written back, and every branch named exists.
    assert not ("interrupted after changing" in printed and "changed no file" in printed), printed
    assert "(after repair candidate" not in said and "(after undo repair candidate" not in said, said
    branches = set(git(root, "branch", "--format=%(refname:short)").split())
    assert switched_to(printed + said) <= branches, printed + said
