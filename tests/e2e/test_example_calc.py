"""examples/calc, the demo repository, fails exactly as the demo needs and passes once add() is fixed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "calc"


def run_pytest(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts="],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_calc_example_fails_on_add_only_and_passes_when_fixed(tmp_path: Path) -> None:
    repo = tmp_path / "calc"
    shutil.copytree(EXAMPLE, repo)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    broken = run_pytest(repo)
    assert broken.returncode == 1
    assert "FAILED test_calc.py::test_add" in broken.stdout
    assert "1 failed, 2 passed" in broken.stdout
    calc = repo / "calc.py"
    source = calc.read_text()
    docstring = '"""Return the sum of a and b."""\n    return '
    fixed = source.replace(docstring + "a\n", docstring + "a + b\n")
    assert fixed != source
    calc.write_text(fixed)
    assert run_pytest(repo).returncode == 0
