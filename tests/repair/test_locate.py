"""Localisation on real test runs: the deepest frame in the code under test, else what the test calls."""

from __future__ import annotations

import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from repo_util import PYTEST
from test_mutants import fixed_among_the_first, fixed_by_a_variant

from pedro.evidence import ProjectTests
from pedro.repair.locate import Unit, comment_above, constants_read, enclosing_unit, in_loop, locate
from pedro.tools.base import ToolContext
from pedro.tools.test import RunTestsArgs
from pedro.tools.testreport import FailedTest

NEEDS_GO = pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed (Debian: golang-go)")


def failures_of(root: Path, command: str = PYTEST) -> list:  # type: ignore[type-arg]
    run = ProjectTests(RunTestsArgs(command=command), ToolContext(root=root)).run()
    assert run.report is not None and run.report.failures, run.summary
    return run.report.failures


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_an_exception_points_at_the_function_it_was_raised_in(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "shop.py": "def total(items):\n    return items[0] + helper(items)\n\n\ndef helper(items):\n"
            "    return items[5]\n",
            "test_shop.py": "from shop import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n",
        },
    )
    units = locate(failures_of(root), root)
    assert [(u.path, u.name, u.start_line, u.end_line) for u in units][0] == ("shop.py", "helper", 5, 6)
    assert units[0].text == "def helper(items):\n    return items[5]"
    assert units[0].tests == ("test_shop.py::test_total",)


def test_an_assertion_points_at_what_the_failing_line_calls(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "calc.py": "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n",
            "test_calc.py": "from calc import add, mul\n\n\ndef test_both():\n    assert mul(2, 3) == 6\n"
            "    assert add(2, 3) == 5\n",
        },
    )
    units = locate(failures_of(root), root)
    assert units[0].name == "add"
    assert units[0].path == "calc.py"


def test_a_module_s_function_comes_before_a_method_of_the_same_name(tmp_path: Path) -> None:
    # The class comes first in the file, as in a real project's parse.py; the test calls the module's function.
    finder = (
        "class Finder:\n    def findall(self, text):\n        return [text]\n\n\ndef findall(text):\n    return []\n"
    )
    test = "import finder\n\n\ndef test_findall():\n    assert finder.findall('a') == ['a']\n"
    root = write(tmp_path, {"finder.py": finder, "test_finder.py": test})
    units = locate(failures_of(root), root)
    assert (units[0].qualified_name, units[0].start_line) == ("findall", 6), units


def test_a_method_is_located_with_its_class(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/account.py": "class Account:\n    def __init__(self):\n        self.balance = 0\n\n"
            "    def deposit(self, amount):\n        self.balance -= amount\n",
            "tests/test_account.py": "from pkg.account import Account\n\n\ndef test_deposit():\n"
            "    a = Account()\n    a.deposit(5)\n    assert a.balance == 5\n",
        },
    )
    (root / "conftest.py").write_text("")
    units = locate(failures_of(root), root)
    # The failing line reads an attribute; the test's other calls lead to the method.
    assert ("pkg/account.py", "Account.deposit") in [(u.path, u.qualified_name) for u in units]
    method = next(u for u in units if u.name == "deposit")
    assert method.text.startswith("    def deposit(self, amount):")


def test_the_functions_a_located_unit_calls_come_next(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "report.py": "from fmt import money\n\n\ndef line(name, cents):\n    return name + ': ' + money(cents)\n",
            "fmt.py": "def money(cents):\n    return f'{cents // 10}.{cents % 100:02d}'\n",
            "test_report.py": "from report import line\n\n\ndef test_line():\n"
            "    assert line('tea', 250) == 'tea: 2.50'\n",
        },
    )
    units = locate(failures_of(root), root)
    assert [(u.path, u.name) for u in units] == [("report.py", "line"), ("fmt.py", "money")]


@pytest.mark.skipif(sys.platform != "linux", reason="node is only set up on Linux here")
def test_node_test_failures_lead_to_the_called_function(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    root = write(
        tmp_path,
        {
            "clamp.js": "function clamp(x, lo, hi) {\n  if (x < lo) return hi;\n  return Math.min(x, hi);\n}\n"
            "module.exports = { clamp };\n",
            "clamp.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\n"
            "const { clamp } = require('./clamp');\n"
            "test('clamps low', () => { assert.strictEqual(clamp(-5, 0, 10), 0); });\n",
        },
    )
    units = locate(failures_of(root, "node --test"), root)
    assert [(u.path, u.name, u.start_line, u.end_line) for u in units] == [("clamp.js", "clamp", 1, 4)]


@NEEDS_GO
def test_go_failures_lead_to_the_called_function(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "go.mod": "module example.com/words\n\ngo 1.19\n",
            "words.go": "package words\n\nfunc Double(n int) int {\n\treturn n + 2\n}\n",
            "words_test.go": 'package words\n\nimport "testing"\n\nfunc TestDouble(t *testing.T) {\n'
            '\tif got := Double(3); got != 6 {\n\t\tt.Errorf("Double(3) = %d, want 6", got)\n\t}\n}\n',
        },
    )
    units = locate(failures_of(root, "go test ./..."), root)
    assert [(u.path, u.name, u.start_line) for u in units] == [("words.go", "Double", 3)]


@NEEDS_GO
def test_a_go_build_failure_outside_every_function_leads_to_the_functions_of_its_file(tmp_path: Path) -> None:
    # The slip dropped the only use of an import: Go refuses to build at the import line, inside no function.
    root = write(
        tmp_path,
        {
            "go.mod": "module example.com/dist\n\ngo 1.19\n",
            "dist.go": 'package dist\n\nimport (\n\t"math"\n)\n\nfunc helper(a float64) float64 {\n\treturn a\n}\n\n'
            "func Distance(a, b float64) float64 {\n\treturn helper(a - b)\n}\n",
            "dist_test.go": 'package dist\n\nimport "testing"\n\nfunc TestDistance(t *testing.T) {\n'
            '\tif got := Distance(1, 3); got != 2 {\n\t\tt.Errorf("Distance(1, 3) = %v, want 2", got)\n\t}\n}\n',
        },
    )
    units = locate(failures_of(root, "go test ./..."), root)
    # The function the tests call first, then what it calls.
    assert [(u.path, u.name) for u in units] == [("dist.go", "Distance"), ("dist.go", "helper")]


@NEEDS_GO
def test_a_go_assertion_helper_outside_the_tests_names_is_never_the_unit_to_repair(tmp_path: Path) -> None:
    # The helper reports its own line (no t.Helper()): the failure points into it, yet it is part of the tests, and
    # making it agree would pass every test.
    root = write(
        tmp_path,
        {
            "go.mod": "module example.com/calc\n\ngo 1.19\n",
            "check/equal.go": 'package check\n\nimport "testing"\n\nfunc Equal(t *testing.T, want, got int) {\n'
            '\tif want != got {\n\t\tt.Errorf("want %d, got %d", want, got)\n\t}\n}\n',
            "calc.go": "package calc\n\nfunc Double(n int) int {\n\treturn n + 2\n}\n",
            "calc_test.go": 'package calc\n\nimport (\n\t"testing"\n\n\t"example.com/calc/check"\n)\n\n'
            "func TestDouble(t *testing.T) {\n\tcheck.Equal(t, 6, Double(3))\n}\n",
        },
    )
    failures = failures_of(root, "go test ./...")
    assert "equal.go:7: want 6, got 5" in (failures[0].details or "")
    assert [(u.path, u.name) for u in locate(failures, root)] == [("calc.go", "Double")]


def test_a_helper_the_test_hands_code_to_run_is_never_the_unit_to_repair(tmp_path: Path) -> None:
    # `raises` returns whether the code it runs raised: making it answer True would pass every test that uses it.
    root = write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/utils.py": "def raises(err, code):\n    try:\n        code()\n        return False\n"
            "    except err:\n        return True\n",
            "pkg/parts.py": "def part(xs, n):\n    return xs[:n]\n",
            "test_parts.py": "from pkg.parts import part\nfrom pkg.utils import raises\n\n\ndef test_part():\n"
            "    assert raises(ValueError, lambda: part([1], -1))\n",
        },
    )
    assert [(u.path, u.name) for u in locate(failures_of(root), root)] == [("pkg/parts.py", "part")]
    # A function handed code that calls nothing is what the test tests.
    (root / "test_parts.py").write_text(
        "from pkg.utils import raises\n\n\ndef test_raises():\n    assert raises(KeyError, lambda: 1 / 0)\n"
    )
    assert [(u.path, u.name) for u in locate(failures_of(root), root)][0] == ("pkg/utils.py", "raises")


def test_a_repair_leaves_the_helper_the_test_hands_code_to_run_and_fixes_the_code_it_runs(repo: Path) -> None:
    # Making `raises` answer True passes the failing test and every other test that uses it: never a fix.
    files = {
        "pkg/__init__.py": "",
        "pkg/utils.py": "def raises(err, code):\n    try:\n        code()\n        return False\n"
        "    except err:\n        return True\n",
        "pkg/parts.py": "def part(xs, n):\n    if n > 0:\n        raise ValueError(n)\n    return xs[:n]\n",
        "test_parts.py": "from pkg.parts import part\nfrom pkg.utils import raises\n\n\ndef test_negative():\n"
        "    assert raises(ValueError, lambda: part([1], -1))\n\n\ndef test_part():\n"
        "    assert part([1, 2], 0) == []\n",
    }
    fixed_among_the_first(repo, files, "`>` → `<`", first=10)
    assert "return False" in (repo / "pkg" / "utils.py").read_text()


def test_enclosing_unit_takes_the_innermost_function(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def outer():\n    def inner():\n        return 1\n    return inner()\n")
    inner = enclosing_unit(tmp_path, "m.py", 3)
    assert inner is not None and inner.name == "inner" and inner.text == "    def inner():\n        return 1"
    assert enclosing_unit(tmp_path, "m.py", 99) is None


def test_the_constants_a_function_reads_are_units_of_their_own() -> None:
    source = (
        'import logging\n\nLOG = logging.getLogger(__name__)\nRATES = {\n    "a": 0.2,  # ) not a bracket\n'
        '    "b": (1, 2),\n}\nLIMIT = 10\nUNUSED = 5\n\n\ndef price(kind, n):\n    LOCAL = 3\n'
        "    LOG.info(kind)\n    return min(n, LIMIT) * RATES[kind] + LOCAL\n"
    )
    lines = source.splitlines()
    unit = Unit("shop.py", "price", "price", "python", 12, 15, "\n".join(lines[11:15]))
    found = [(c.name, c.start_line, c.end_line) for c in constants_read(unit, source)]
    # A call's result is no table to vary, a name the function does not read is not its bug, nor is its own local.
    assert found == [("RATES", 4, 7), ("LIMIT", 8, 8)]
    assert constants_read(unit, source)[0].text == "\n".join(lines[3:7])


def test_the_comment_just_above_a_function_is_its_documentation() -> None:
    lines = ["const a = 1;", "/* Sum of `xs`,", "   ignoring case. */", "const f = (xs) => {", "}", "",
             "// Go's way:", "// two lines.", "func g() {", "}", "", "func h() {"]  # fmt: skip
    assert comment_above(lines, 4) == "/* Sum of `xs`,\n   ignoring case. */"
    assert comment_above(lines, 9) == "// Go's way:\n// two lines."
    assert comment_above(lines, 12) == ""  # a blank line between
    assert comment_above(lines, 1) == ""


def test_a_file_that_holds_a_failing_test_is_never_repaired_whatever_its_name(repo: Path) -> None:
    # `checks.py` is no test file by name; the command names it, and pytest collects it. Its assert read `add(2, 3)`
    # and a variant of the test (`5` → `-1`) would pass.
    files = {
        "calc.py": "def add(a, b):\n    return a - b\n",
        "checks.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    }
    tried = [
        e.data for e in fixed_by_a_variant(repo, files, command=f"{PYTEST} checks.py") if e.type == "repair.candidate"
    ]
    assert tried and all(data["unit"].startswith("calc.py") for data in tried), tried


HUNG_IN_THE_HELPER = """    def test_make_palindrome():
>       assert make_palindrome('xyz') == 'xyzyx'

test_words.py:5:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
words.py:9: in make_palindrome
    while not is_palindrome(string):
words.py:2: in is_palindrome
    return string == string[::-1]
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

    def stop(signum: int, frame: Any) -> None:
>       raise TestHung(f"the test still ran after {seconds:g} s, so it was stopped here")
E       TestHung: the test still ran after 1.00365 s, so it was stopped here

/tmp/pedro-repair-2s9pls8w/pedro_warm_pytest.py:729: TestHung
"""


def test_a_test_that_hung_points_at_every_function_on_its_stack_the_one_stopped_in_a_loop_first(tmp_path: Path) -> None:
    # The loop that never ends is make_palindrome's; the test was stopped inside the helper it calls.
    root = write(
        tmp_path,
        {
            "words.py": "def is_palindrome(string):\n    return string == string[::-1]\n\n\n"
            "def make_palindrome(string):\n    if not string:\n        return ''\n    beginning = 0\n"
            "    while not is_palindrome(string):\n        beginning += 1\n"
            "    return string + string[:beginning][::-1]\n",
            "test_words.py": "from words import make_palindrome\n\n\ndef test_make_palindrome():\n"
            "    assert make_palindrome('xyz') == 'xyzyx'\n",
        },
    )
    stopped = "TestHung: the test still ran after 1.00365 s, so it was stopped here"
    hung = FailedTest("test_words.py::test_make_palindrome", "test_words.py:5", stopped, HUNG_IN_THE_HELPER)
    assert [unit.name for unit in locate([hung], root)] == ["make_palindrome", "is_palindrome"]
    failed = replace(hung, message="AssertionError: assert 'xyzzyx' == 'xyzyx'")
    assert [unit.name for unit in locate([failed], root)][0] == "is_palindrome"


def test_a_line_is_in_a_loop_when_a_block_around_it_is_one_in_python_javascript_and_go(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "steps.py": "def steps(n):\n    count = 0\n    while n != 1:\n        if n % 2:\n"
            "            n = 3 * n + 1\n        else:\n            n //= 2\n        count += 1\n    return count\n",
            "steps.js": "function steps(n) {\n  let count = 0;\n  for (;;) {\n    if (n === 1) {\n      break;\n"
            "    }\n    n = n % 2 ? 3 * n + 1 : n / 2;\n  }\n  return count;\n}\n",
            "steps.go": "package steps\n\nfunc Steps(n int) int {\n\tcount := 0\n\tfor n != 1 {\n\t\tn /= 2\n"
            "\t}\n\treturn count\n}\n",
        },
    )
    python = enclosing_unit(root, "steps.py", 3)
    javascript = enclosing_unit(root, "steps.js", 3)
    go = enclosing_unit(root, "steps.go", 5)
    assert python is not None and javascript is not None and go is not None
    assert [line for line in range(1, 10) if in_loop(python, line)] == [3, 4, 5, 6, 7, 8]
    assert [line for line in range(1, 11) if in_loop(javascript, line)] == [3, 4, 5, 6, 7]
    assert [line for line in range(3, 10) if in_loop(go, line)] == [5, 6]
