"""benchmarks/humanevalfix_suite.py: HumanEvalFix's Python and Go tasks written as an eval suite the eval loads."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
    assert (task / "hidden" / "test_solution.py").read_text() == (task / "repo" / "test_solution.py").read_text()
    loaded = load_task(task)
    assert (loaded.tier, loaded.test) == ("one-function", "python -m pytest -q test_solution.py")


GO_INSTRUCTION = """# Context

```go
import (
    "math"
)

// Whether two numbers of the list are closer to each other than the threshold.
func HasCloseElements(numbers []float64, threshold float64) bool {
    for i := 0; i < len(numbers); i++ {
        for j := i + 1; j < len(numbers); j++ {
            var distance float64 = numbers[i] - numbers[j]
            if distance < threshold {
                return true
            }
        }
    }
    return false
}
```

# Instruction

Fix bugs in HasCloseElements.
"""
GO_TESTS = """package main

import (
    "testing"
    "github.com/stretchr/testify/assert"
    "math"
    "strings"
)

// the prompt and the solution, as the benchmark's test file holds them
"""
GO_TEST_CODE = """func TestHasCloseElements(t *testing.T) {
    assert := assert.New(t)
    assert.Equal(true, HasCloseElements([]float64{1.0, 2.0, 3.9, 4.0, 5.0, 2.2}, 0.3))
    assert.Equal(false, HasCloseElements([]float64{1.0, 2.0, 3.9, 4.0, 5.0, 2.2}, math.Pow(0.05, 1)))
}
"""


def test_a_go_task_compares_as_testify_does_without_downloading_it(tmp_path: Path) -> None:
    if shutil.which("go") is None:
        pytest.skip("Go is not installed (CI installs golang-go)")
    source, out = tmp_path / "fix", tmp_path / "suite"
    folder = source / "go_0"
    (folder / "tests").mkdir(parents=True)
    (folder / "solution").mkdir()
    (folder / "instruction.md").write_text(GO_INSTRUCTION)
    (folder / "tests" / "main_test.go").write_text(GO_TESTS)
    (folder / "tests" / "test_code.txt").write_text(GO_TEST_CODE)
    code = GO_INSTRUCTION.split("```go\n")[1].split("```")[0]
    (folder / "solution" / "solution.go").write_text(
        code.replace("numbers[i] - numbers[j]", "math.Abs(numbers[i] - numbers[j])")
    )
    command = [sys.executable, str(SCRIPT), str(source), str(out), "--language", "go"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    # Shipped, the function fails to compile (math unused) as the benchmark's does; with its fix the tests pass.
    assert "1 tasks in" in run.stdout, run.stdout
    task = out / "go-hef-0"
    test = (task / "repo" / "solution_test.go").read_text()
    # The test file imports what its test reads ("math"), not what only the benchmark's prompt did ("strings"), and
    # testify's assert comes from a test file of the task's own.
    assert '"math"' in test and "strings" not in test and "testify" not in test
    assert "func (testify) New(t *testing.T) *Assertions" in (task / "repo" / "assert_test.go").read_text()
    # The check scores the tests as shipped, whatever a run did to them.
    assert sorted(path.name for path in (task / "hidden").iterdir()) == ["assert_test.go", "solution_test.go"]
    loaded = load_task(task)
    assert (loaded.language, loaded.test) == ("go", "go test ./...")
