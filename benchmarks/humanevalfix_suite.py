"""Write HumanEvalFix's Python tasks as an eval suite (evals/README.md's format) from a HumanEvalPack checkout.

HumanEvalFix (HumanEvalPack, MIT licensed) gives each of HumanEval's 164 functions with a bug written in by hand,
and its tests. Each task here is a repository holding the buggy function in `solution.py` and its tests as one
pytest test in `test_solution.py`; the test command is the check, as the benchmark runs it. The source is a
checkout laid out as `<root>/python_<n>/instruction.md` (the buggy function in its `# Context` block),
`tests/test_code.txt` (the tests, ending in `check(<name>)`) and `solution/solution.py` (the fixed function).

    python benchmarks/humanevalfix_suite.py SOURCE OUT [--every 4] [--offset 0]
    make eval ARGS="--models smollm2 --suite OUT --modes repair --jobs 1 --time-limit 60 --max-rounds 2"

Tasks whose tests need more than the function (helpers defined beside it) fail as shipped and with their fix
alike; they are left out, and the script says which.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_CONTEXT = re.compile(r"# Context\n\n```python\n(?P<code>.*?)\n```\n\n# Instruction\n\nFix bugs in (?P<name>\w+)", re.S)
_HEADER = "from typing import List, Dict, Tuple, Optional, Any, Union\nimport math\n\n"
_TASK = """title = "HumanEvalFix {n} {name}"
language = "python"
tier = "one-function"
description = "The tests in test_solution.py fail; fix the bug in {name} so they pass."
test = "python -m pytest -q test_solution.py"
check = "python -m pytest -q test_solution.py"
timeout_s = 60
"""


def write_task(source: Path, n: int, out: Path) -> Path:
    """The task of HumanEvalFix's Python function `n`, written under `out`."""
    folder = source / f"python_{n}"
    context = _CONTEXT.search((folder / "instruction.md").read_text())
    if context is None:
        raise SystemExit(f"{folder / 'instruction.md'}: no `# Context` block naming the function to fix")
    name = context["name"]
    tests = (folder / "tests" / "test_code.txt").read_text().rstrip().splitlines()
    body = "\n".join(line for line in tests if not line.startswith("check(")).strip("\n")
    task = out / f"py-hef-{n}"
    (task / "repo").mkdir(parents=True)
    (task / "solution").mkdir()
    (task / "repo" / "solution.py").write_text(_HEADER + context["code"].rstrip() + "\n")
    (task / "solution" / "solution.py").write_text(_HEADER + (folder / "solution" / "solution.py").read_text())
    test = f"from solution import {name}\n\n\n{body}\n\n\ndef test_{name}():\n    check({name})\n"
    (task / "repo" / "test_solution.py").write_text(test)
    (task / "task.toml").write_text(_TASK.format(n=n, name=name))
    return task


def holds(task: Path) -> bool:
    """Whether the task's tests fail as shipped and pass with its fix."""
    outcomes = []
    for fixed in (False, True):
        with tempfile.TemporaryDirectory() as scratch:
            shutil.copytree(task / "repo", scratch, dirs_exist_ok=True)
            if fixed:
                shutil.copy(task / "solution" / "solution.py", scratch)
            command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_solution.py"]
            run = subprocess.run(command, cwd=scratch, capture_output=True, timeout=60, check=False)
            outcomes.append(run.returncode == 0)
    return outcomes == [False, True]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="the folder holding python_0 … python_163")
    parser.add_argument("out", type=Path, help="the suite's folder (replaced)")
    parser.add_argument("--every", type=int, default=1, help="take every n-th task (4: a quarter)")
    parser.add_argument("--offset", type=int, default=0, help="the first task taken")
    args = parser.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    kept, left = 0, []
    numbers = sorted(int(path.name.split("_")[1]) for path in args.source.glob("python_*") if path.is_dir())
    for n in (n for n in numbers if n >= args.offset and (n - args.offset) % args.every == 0):
        task = write_task(args.source, n, args.out)
        if holds(task):
            kept += 1
        else:
            shutil.rmtree(task)
            left.append(n)
    print(f"{kept} tasks in {args.out}; left out (their tests need more than the function): {left or 'none'}")


if __name__ == "__main__":
    main()
