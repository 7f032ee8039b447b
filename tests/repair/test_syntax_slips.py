"""A file of the project that does not compile: its slip read from the failures, mended one character at a time, and
kept where the tests get past it; then repair goes on as usual."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_util import commit_files
from test_repairer import repair

from pedro.repair.syntax_slips import SyntaxSlip, compile_error, mends


def mended(text: str) -> list[str]:
    error = compile_error(text)
    assert error is not None and error.lineno is not None
    return [new for _what, new in mends(SyntaxSlip("m.py", error.lineno, error.offset or 1, error.msg, text))]


@pytest.mark.parametrize(
    ("broken", "fixed"),
    [
        ("def scale(xs, k)\n    return xs\n", "def scale(xs, k):\n    return xs\n"),
        ("def f(t):\n    return int(t.strip()\n", "def f(t):\n    return int(t.strip())\n"),
        ("def f(x):\n    return [x, 1  # the pair\n", "def f(x):\n    return [x, 1]  # the pair\n"),
        ("def f(x):\n    return (x + 1))\n", "def f(x):\n    return (x + 1)\n"),
        ("def f(x):\n    if x:\n    return 1\n", "def f(x):\n    if x:\n        return 1\n"),
        ("def f(x):\n    if x = 1:\n        return 2\n", "def f(x):\n    if x == 1:\n        return 2\n"),
        ("def f(s):\n    return s + 'x\n", "def f(s):\n    return s + 'x'\n"),
    ],
    ids=["colon", "never-closed", "before-a-comment", "unmatched", "indent", "compare", "string"],
)
def test_the_first_mend_is_the_one_the_message_asks_for(broken: str, fixed: str) -> None:
    assert mended(broken)[0] == fixed


def test_a_mend_that_leaves_a_slip_further_down_comes_after_those_that_compile() -> None:
    broken = "def f(x):\n    if x = 1:\n        return [1 2]\n"
    assert mended(broken)[0] == "def f(x):\n    if x == 1:\n        return [1 2]\n"
    assert mended(mended(broken)[0])[0] == "def f(x):\n    if x == 1:\n        return [1, 2]\n"


CALC = "def add(a, b)\n    return a - b\n\n\ndef double(x):\n    return x * 2\n"
TESTS = "from calc import add, double\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_double():\n"
TESTS += "    assert double(4) == 8\n"
FIX = "```python\ndef add(a, b):\n    return a + b\n```"


def test_a_file_that_does_not_compile_is_mended_then_its_bug_repaired(repo: Path) -> None:
    # Nothing can be collected while calc.py does not compile: the test module is the only failure, and no function
    # can be located from it. Once `:` is added, test_add fails on its own, and the model's answer fixes it.
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    outcome, _, events = repair(repo, [FIX])
    assert outcome.fixed and outcome.changed, outcome.summary
    # The mend and the model's answer both count: the search's own count starts from nought.
    assert outcome.candidates == len([e for e in events if e.type == "repair.candidate"]) >= 2
    assert (repo / "calc.py").read_text() == CALC.replace("(a, b)\n", "(a, b):\n").replace("a - b", "a + b")
    first = next(e.data for e in events if e.type == "repair.candidate")
    assert first["question"] == "syntax" and first["status"] == "kept", first
    assert outcome.summary.startswith("mended what did not compile (`:` added at the end of line 1 in calc.py)")


def test_a_slip_in_a_test_file_is_left_to_the_tests_owner(repo: Path) -> None:
    commit_files(repo, {"calc.py": "def add(a, b):\n    return a + b\n", "test_calc.py": "def test_add()\n    pass\n"})
    outcome, _, events = repair(repo, [])
    assert not outcome.changed and not [e for e in events if e.type == "repair.candidate"]
    assert (repo / "test_calc.py").read_text() == "def test_add()\n    pass\n"


def test_no_mend_is_tried_once_repairs_time_budget_is_spent(repo: Path) -> None:
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    outcome, _, events = repair(repo, [], time_budget_s=1e-9)
    assert outcome.candidates == 0 and not [e for e in events if e.type == "repair.candidate"]
    assert (repo / "calc.py").read_text() == CALC
