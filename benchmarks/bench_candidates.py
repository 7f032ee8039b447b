"""What one repair candidate's test run costs: the warm forked pytest against the plain sandboxed test command (what
every candidate cost before), on the task suite's Python bugs, and the warm node (a worker thread per run) against
`node --test` on its JavaScript bugs, measured in the same run. The warm figure is a task's
mean over WARM_RUNS candidates in a row, fewer than a repair runs (a median of 28 a task in `evals/tasks`, 70 in
QuixBugs); what is paid once a repair, before its first candidate (the warm pytest's start, the session it sets up
for the failing tests), is not counted."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

from pedro.eval.plan import task_env
from pedro.evidence import ProjectTests
from pedro.repair.evaluate import CandidateRuns
from pedro.safety.secrets import child_environment
from pedro.tools.base import ToolContext
from pedro.tools.test import RunTestsArgs

TASKS = Path(__file__).resolve().parent.parent / "evals" / "tasks"
RUNS = 3
WARM_RUNS = 20
RATIO_GOAL = 10.0
SECONDS_GOAL = 0.15
NODE_RATIO_GOAL = 3.0
"""node starts a worker thread per run (a fresh module registry): cheaper than two processes, dearer than a fork."""
PREFIXES = {"python": "py-", "javascript": "js-"}


def run(limit: int | None = None, language: str = "python") -> dict[str, Any]:
    """The median over the language's tasks of each one's seconds per candidate run: warm (the mean of WARM_RUNS runs
    in a row), plain and held to the failing tests (the median of RUNS)."""
    warm: list[float] = []
    plain: list[float] = []
    narrowed: list[float] = []
    tasks = sorted(path for path in TASKS.iterdir() if path.name.startswith(PREFIXES[language]))[:limit]
    for task in tasks:
        timed = _task(task)
        if timed is not None:
            warm.extend(timed[0])
            plain.extend(timed[1])
            narrowed.extend(timed[2])
    if not warm:
        return {"failed": f"no {language} task could be timed"}
    return {
        "tasks": len(tasks),
        "warm_s": statistics.median(warm),
        "plain_s": statistics.median(plain),
        "narrowed_s": statistics.median(narrowed),
        "ratio": statistics.median(plain) / statistics.median(warm),
    }


def _task(task: Path) -> tuple[list[float], list[float], list[float]] | None:
    spec = tomllib.loads((task / "task.toml").read_text())
    command = str(spec["test"])
    if command.startswith("python "):
        command = f"{sys.executable} {command[len('python ') :]}"
    with tempfile.TemporaryDirectory(prefix="pedro-bench-") as folder:
        root = Path(folder) / "repo"
        shutil.copytree(task / "repo", root)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        # The eval's task environment: the tasks' plain pytest, not the plugins installed beside pedro.
        env = child_environment(task_env(os.environ, Path(sys.executable).parent))
        tests = ProjectTests(RunTestsArgs(command=command), ToolContext(root=root, env=env))
        baseline = tests.run()
        failing = sorted(baseline.failing)
        if not failing:
            return None
        runs = CandidateRuns(tests, baseline, lambda _text: None, Path(folder))
        try:
            runs.start(failing)
            if runs.warm is None:
                return None
            warm = [statistics.mean(_times(lambda: runs.first(failing), WARM_RUNS))]
        finally:
            runs.close()
        plain = [statistics.median(_times(tests.run))]
        narrowed = [statistics.median(_times(lambda: tests.run(only=failing)))]
    return warm, plain, narrowed


def _times(call: Any, runs: int = RUNS) -> list[float]:
    seconds: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - start)
    return seconds


if __name__ == "__main__":
    print(run(), run(language="javascript"))
