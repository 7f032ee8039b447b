"""A number whose digits a loop takes, stepped by a subtraction: the step made a division, in each language, and a
base conversion fixed for real."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first

from pedro.repair.digit_steps import digit_steps


def test_a_subtraction_that_steps_a_number_whose_digits_are_taken_is_made_a_division() -> None:
    python = ["def f(x, base):", "    while x > 0:", "        out = str(x % base) + out", "        x -= base"]
    assert [(c.row, c.text) for c in digit_steps(python, "python")] == [(3, "        x //= base")]
    go = ["func F(n int) int {", "\tfor n > 0 {", "\t\ts += n % 10", "\t\tn = n - 10", "\t}", "}"]
    assert [c.text for c in digit_steps(go, "go")] == ["\t\tn /= 10"]
    js = ["  while (num > 0) {", "    if (num % 10 % 2 == 0) { e++ }", "    num = num - num % 10", "  }"]
    assert [c.text for c in digit_steps(js, "javascript")] == ["    num = Math.floor(num / 10)"]


def test_a_subtraction_of_a_number_whose_digits_are_not_taken_is_left_alone() -> None:
    assert digit_steps(["def f(total, price):", "    total -= price", "    return total % 3"], "python") == []
    assert digit_steps(["def f(x, b):", "    while x > 0:", "        x -= b"], "python") == []


def test_a_base_conversion_that_subtracts_the_base_is_fixed_by_a_variant(repo: Path) -> None:
    code = (
        "def change_base(x, base):\n    ret = ''\n    while x > 0:\n"
        "        ret = str(x % base) + ret\n        x -= base\n    return ret\n"
    )
    test = "from bases import change_base\n\n\ndef test_change_base():\n    assert change_base(8, 3) == '22'\n"
    fixed_among_the_first(repo, {"bases.py": code, "test_bases.py": test}, "`x -= base` → `x //= base`")
    assert "        x //= base\n" in (repo / "bases.py").read_text()
