"""benchmarks/humanevalfix_suite.py: HumanEvalFix's Python tasks written as an eval suite the eval loads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pedro.eval.tasks import load_task

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "humanevalfix_suite.py"

INSTRUCTION = """# Context

```python
def below_zero(operations):
    \"\"\" Whether the balance, from zero, ever falls below zero. \"\"\"
    balance = 0
    for op in operations:
        balance += op
        if balance == 0:
            return True
    return False
```

# Instruction

Fix bugs in below_zero.
"""
SOLUTION = INSTRUCTION.split("```python\n")[1].split("```")[0].replace("balance == 0", "balance < 0")
TESTS = """

def check(below_zero):
    assert below_zero([]) == False
    assert below_zero([1, 2, -4, 5]) == True

check(below_zero)"""


def _checkout(root: Path, n: int, instruction: str) -> None:
    folder = root / f"python_{n}"
    (folder / "tests").mkdir(parents=True)
    (folder / "solution").mkdir()
    (folder / "instruction.md").write_text(instruction)
    (folder / "tests" / "test_code.txt").write_text(TESTS)
    (folder / "solution" / "solution.py").write_text(SOLUTION)


def test_a_task_is_written_in_the_suites_format_and_one_whose_fix_fails_is_left_out(tmp_path: Path) -> None:
    source, out = tmp_path / "fix", tmp_path / "suite"
    _checkout(source, 0, INSTRUCTION)
    _checkout(source, 4, INSTRUCTION.replace("balance == 0", "balance < 0"))  # not a bug: its tests pass as shipped
    command = [sys.executable, str(SCRIPT), str(source), str(out), "--every", "4"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert "1 tasks in" in run.stdout and "[4]" in run.stdout
    task = out / "py-hef-0"
    assert sorted(p.name for p in out.iterdir()) == ["py-hef-0"]
    assert "if balance == 0:" in (task / "repo" / "solution.py").read_text()
    assert (task / "repo" / "test_solution.py").read_text().endswith("def test_below_zero():\n    check(below_zero)\n")
    loaded = load_task(task)
    assert (loaded.tier, loaded.test) == ("one-function", "python -m pytest -q test_solution.py")
