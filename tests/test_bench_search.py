"""make bench's search rows: grep against plain `rg -n PATTERN` on the same tree, measured in the same run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_search  # noqa: E402
import run  # noqa: E402

from pedro.tools.base import ToolContext  # noqa: E402


def test_bench_prints_grep_against_plain_rg_n_for_def_init(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "tree"
    (root / "pkg").mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / "pkg" / "a.py").write_text("class A:\n    def __init__(self):\n        self.x = 1\n")
    monkeypatch.setattr(bench_search, "ROUNDS", 1)
    results = bench_search._compare_grep(ToolContext(root=root), root)
    rows = run.search_rows(results)
    [row] = [row for row in rows if "'def __init__' ÷ plain rg -n" in row[0]]
    assert float(row[1]) == pytest.approx(results["grep_init_tool_s"] / results["grep_init_rg_plain_s"], abs=0.01)
    assert row[2] == "≤ 1.2"
    [cpu_row] = [row for row in rows if "'def __init__' CPU time ÷ plain rg -n CPU time" in row[0]]
    assert float(cpu_row[1]) == pytest.approx(results["grep_init_plain_cpu_ratio"], abs=0.01)
    [first_row] = [row for row in rows if "'def __init__', a tree's first search" in row[0]]
    assert float(first_row[1]) == pytest.approx(results["grep_init_first_plain_ratio"], abs=0.01)
