"""A function that calls itself: the head its recursion dropped, a constant where the parameter it counts down was
meant, and a call handed its own arguments unchanged, in Python, JavaScript and Go; never for a call that changes
what it is handed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from repo_util import commit_files
from test_mutants import fixed_by_a_variant
from test_repairer import repair

from pedro.repair.recursion_slips import recursion_slips

CONCATENATE = ["func Concatenate(strings []string) string {", "\tif len(strings) == 0 {", '\t\treturn ""', "\t}",
               "\treturn Concatenate(strings[1:])", "}"]  # fmt: skip
SUM_TO_N = ["const sumToN = (n) => {", "  if (n <= 0) return 0;", "  return 1 + sumToN(n - 1);", "};"]
POWER = [
    "def is_simple_power(x, n):",
    "    if x == 1:",
    "        return True",
    "    if n == 1 or x % n != 0:",
    "        return False",
    "    return is_simple_power(x, n)",
]


def _changes(lines: list[str], name: str, language: str) -> tuple[list[str], list[str]]:
    joined, endless = recursion_slips(lines, name, language)  # type: ignore[arg-type]
    return [c.text.strip() for c in joined], [c.text.strip() for c in endless]


def test_the_head_a_recursion_dropped_is_joined_to_its_rest() -> None:
    assert _changes(CONCATENATE, "Concatenate", "go") == (["return strings[0] + Concatenate(strings[1:])"], [])
    python = ["def concat(xs):", "    if not xs:", "        return ''", "    return concat(xs[1:])"]
    assert _changes(python, "concat", "python")[0] == [
        "return xs[0] + concat(xs[1:])",
        "return [xs[0]] + concat(xs[1:])",
    ]
    javascript = ["function join(xs) {", "  if (!xs.length) return '';", "  return join(xs.slice(1));", "}"]
    assert _changes(javascript, "join", "javascript")[0] == ["return xs[0] + join(xs.slice(1));"]


def test_a_constant_beside_a_call_that_counts_down_becomes_the_counted_parameter() -> None:
    assert _changes(SUM_TO_N, "sumToN", "javascript") == (["return n + sumToN(n - 1);"], [])
    go = ["func SumToN(n int) int {", "\tif n <= 0 {", "\t\treturn 0", "\t}", "\treturn 1 + SumToN(n - 1)", "}"]
    assert _changes(go, "SumToN", "go")[0] == ["return n + SumToN(n - 1)"]


def test_a_call_handed_its_own_arguments_is_handed_each_one_made_smaller() -> None:
    assert _changes(POWER, "is_simple_power", "python")[1] == [
        "return is_simple_power(x // n, n)",  # the function takes x % n: x divided by n
        "return is_simple_power(x - 1, n)",
        "return is_simple_power(x, n - 1)",
    ]
    go = ["func IsSimplePower(x int, n int) bool {", "\tif x%n != 0 {", "\t\treturn false", "\t}",
          "\treturn IsSimplePower(x, n)", "}"]  # fmt: skip
    assert _changes(go, "IsSimplePower", "go")[1][0] == "return IsSimplePower(x / n, n)"
    method = [
        "    def walk(self, items):",
        "        if not items:",
        "            return 0",
        "        print(items[0])",
        "        return self.walk(items)",
    ]
    assert _changes(method, "walk", "python")[1] == ["return self.walk(items - 1)", "return self.walk(items[1:])"]


@pytest.mark.parametrize(
    ("lines", "name"),
    [
        (["def f(xs):", "    return xs[0] + f(xs[1:])"], "f"),  # the head is there
        (["def f(n):", "    return n + f(n - 1)"], "f"),  # no constant beside the call
        (["def f(x, n):", "    return f(x // n, n)"], "f"),  # the call is handed less
        (["def f(x, n):", "    return g(x, n)"], "f"),  # another function
        (["def f(x, n):", "    return other.f(x, n)"], "f"),  # another object's method
        (["def f(x, n):", "    return f(n, x)"], "f"),  # handed on in another order
    ],
)
def test_a_recursion_without_these_slips_is_left_alone(lines: list[str], name: str) -> None:
    assert _changes(lines, name, "python") == ([], [])


def test_a_recursion_that_never_ends_is_fixed_by_the_call_made_smaller_at_once(repo: Path) -> None:
    commit_files(
        repo,
        {
            "power.py": "\n".join(POWER) + "\n",
            "test_power.py": (
                "from power import is_simple_power\n\n\ndef test_is_simple_power():\n"
                "    assert is_simple_power(8, 2)\n    assert not is_simple_power(12, 2)\n"
                "    assert is_simple_power(1, 4)\n"
            ),
        },
    )
    outcome, backend, events = repair(repo, [], coverage=True, mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = [event.data for event in events if event.type == "repair.candidate"]
    assert tried[-1]["n"] <= 2 and tried[-1]["change"].startswith("`x` → `x // n`"), [
        (c["n"], c.get("change"), c["status"]) for c in tried
    ]
    assert "    return is_simple_power(x // n, n)\n" in (repo / "power.py").read_text()


def test_a_go_recursion_whose_stack_overflow_takes_the_test_binary_down_is_fixed(repo: Path) -> None:
    # Go's stack overflow is a fatal error: the test that ran it is the failing one, and its frames lead to the unit.
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    power = (
        "package calc\n\nfunc Power(x, n int) bool {\n\tif x == 1 {\n\t\treturn true\n\t}\n"
        "\tif x%n != 0 {\n\t\treturn false\n\t}\n\treturn Power(x, n)\n}\n"
    )
    test = (
        'package calc\n\nimport "testing"\n\nfunc TestPower(t *testing.T) {\n'
        '\tif !Power(8, 2) || Power(12, 2) {\n\t\tt.Error("Power is wrong")\n\t}\n}\n'
    )
    files = {"go.mod": "module example.com/calc\n\ngo 1.19\n", "calc.go": power, "calc_test.go": test}
    events = fixed_by_a_variant(repo, files, mutants=20, command="go test ./...")
    tried = [event.data for event in events if event.type == "repair.candidate"]
    assert tried[-1]["n"] <= 3, [(c["n"], c.get("change"), c["status"]) for c in tried]
    assert "\treturn Power(x / n, n)\n" in (repo / "calc.go").read_text()
