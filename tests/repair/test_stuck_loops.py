"""A `while` loop whose condition reads nothing its body changes: a name of the condition made one the body
assigns, in Python and JavaScript; never for a loop its body may leave or whose names the body changes in place."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from repo_util import commit_files, node_test
from test_repairer import repair

from pedro.repair.clues import Clues
from pedro.repair.locate import Unit
from pedro.repair.stuck_loops import stepped_counters_python, stuck_loops_javascript, stuck_loops_python
from pedro.repair.variants import unit_variants

POWER = (
    "def is_simple_power(x, n):\n    if n == 1:\n        return x == 1\n    power = 1\n    while n < x:\n"
    "        power = power * n\n    return power == x\n"
)


def test_a_condition_that_reads_nothing_the_loop_changes_is_given_the_names_the_loop_assigns() -> None:
    rows = [(c.row, c.text) for c in stuck_loops_python(POWER)]
    assert rows == [(4, "    while power < x:"), (4, "    while n < power:")]
    lines = [
        "const f = (x, n) => {",
        "  let power = 1",
        "  while (n < x)",
        "    power = power * n;",
        "  return power",
        "}",
    ]
    assert [(c.row, c.text) for c in stuck_loops_javascript(lines)] == [
        (2, "  while (power < x)"),
        (2, "  while (n < power)"),
    ]
    braced = ["function f(i, n) {", "  let k = 0;", "  while (i < n) {", "    k++;", "  }", "  return k;", "}"]
    assert [c.text for c in stuck_loops_javascript(braced)] == ["  while (k < n) {", "  while (i < k) {"]


@pytest.mark.parametrize(
    "loop",
    [
        "    while stack:\n        stack.pop()\n",  # changed in place
        "    while i < n:\n        i += 1\n",  # the condition's own name moves on
        "    while i < n:\n        x = 2\n        if x:\n            break\n",  # left another way
        "    while i < n:\n        x = 2\n        return x\n",
        "    while ready():\n        x = 2\n",  # a call may change
        "    while seen[i] < n:\n        seen[i] = 2\n",
    ],
)
def test_a_loop_that_can_end_is_left_alone(loop: str) -> None:
    assert stuck_loops_python(f"def f(stack, i, n, seen):\n    x = 0\n{loop}    return x\n") == []


def test_javascript_loops_that_can_end_are_left_alone() -> None:
    for body in ("    i++;", "    stack.pop();", "    if (k) break;\n    k = 1;", "    k = 1; return k;"):
        lines = [
            "function f(i, n, stack) {",
            "  let k = 0;",
            "  while (i < n && stack) {",
            *body.split("\n"),
            "  }",
            "}",
        ]
        assert stuck_loops_javascript(lines) == [], body


def test_a_loop_that_never_moves_its_condition_is_fixed_by_the_first_candidate(repo: Path) -> None:
    commit_files(
        repo,
        {
            "power.py": POWER,
            "test_power.py": (
                "from power import is_simple_power\n\n\ndef test_is_simple_power():\n"
                "    assert is_simple_power(1, 4)\n    assert is_simple_power(2, 2)\n"
                "    assert not is_simple_power(5, 7)\n"
            ),
        },
    )
    outcome, backend, events = repair(repo, [], coverage=True, mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = [event.data for event in events if event.type == "repair.candidate"]
    assert tried[-1]["n"] == 1 and "in the loop's condition" in str(tried[-1]["change"]), tried
    assert "    while power < x:\n" in (repo / "power.py").read_text()


def test_a_javascript_loop_that_never_moves_its_condition_is_fixed(repo: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    code = (
        "const isSimplePower = (x, n) => {\n  if (n == 1)\n    return (x == 1);\n  var power = 1;\n"
        "  while (n < x)\n    power = power * n;\n  return (power == x);\n}\n\nmodule.exports = { isSimplePower };\n"
    )
    test = node_test(
        "power", "isSimplePower", "assert.equal(isSimplePower(1, 4), true);", "assert.equal(isSimplePower(2, 2), true);"
    )
    commit_files(repo, {"power.js": code, "power.test.js": test})
    outcome, backend, events = repair(repo, [], command="node --test", mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed[0]["change"] == "`n` → `power` in the loop's condition, which reads nothing the loop changes", fixed
    assert "  while (power < x)\n" in (repo / "power.js").read_text()


PALINDROME = (
    "def is_palindrome(text):\n    return text == text[::-1]\n\n\ndef make_palindrome(text):\n"
    "    start = 0\n    while not is_palindrome(text):\n        start += 1\n    return text + text[:start][::-1]\n"
)


def test_a_text_a_stuck_condition_passes_to_a_call_is_also_given_its_part_past_the_counter() -> None:
    assert [c.text for c in stuck_loops_python(PALINDROME)] == [
        "    while not is_palindrome(start):",
        "    while not is_palindrome(text[start:]):",
    ]
    lines = ["  let start = 0;", "  while (!isPalindrome(text))", "    start += 1;"]
    assert [c.text for c in stuck_loops_javascript(lines)][1] == "  while (!isPalindrome(text.slice(start)))"


ROMAN = (
    "def roman(number):\n"
    '    """`number` in lower-case Roman numerals."""\n'
    "    values = [1, 4, 5, 9, 10, 40, 50, 90, 100]\n"
    '    symbols = ["i", "iv", "v", "ix", "x", "xl", "l", "xc", "c"]\n'
    "    i = len(values) - 1\n"
    '    out = ""\n'
    "    while number:\n"
    "        times = number // values[i]\n"
    "        number %= values[i]\n"
    "        while times:\n"
    "            out += symbols[i]\n"
    "        i -= 1\n"
    "    return out\n"
)


def test_a_count_a_loop_runs_on_and_never_moves_is_stepped_at_the_end_of_its_body() -> None:
    assert [(change.row, change.text, change.change) for change in stepped_counters_python(ROMAN)] == [
        (10, "            out += symbols[i]\n            times -= 1", "`times -= 1` added at the end of the loop, "
         "which never moves `times` on"),
    ]  # fmt: skip
    upward = "def f(xs, k):\n    i = 0\n    while i < k:\n        xs.append(i)\n    return xs\n"
    assert [change.text for change in stepped_counters_python(upward)] == ["        xs.append(i)\n        i += 1"]
    # Loops that end another way, or move their count, or count on nothing alone, are left alone.
    for loop in ("while n:\n        n -= 1", "while n > 0:\n        break", "while n > m:\n        m += 1",
                 "while f(n):\n        g(n)", "while n < n:\n        g(n)"):  # fmt: skip
        assert stepped_counters_python(f"def f(n, m):\n    {loop}\n    return n\n") == [], loop


def test_the_step_a_stuck_count_misses_is_the_first_change_tried() -> None:
    lines = ROMAN.splitlines()
    unit = Unit("roman.py", "roman", "roman", "python", 1, len(lines), ROMAN.rstrip("\n"))
    first = unit_variants(unit, [], Clues(), ROMAN)[0]
    assert (first.line, first.change) == (11, "`times -= 1` added at the end of the loop, which never moves `times` on")
