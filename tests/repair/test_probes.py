"""Self-consistency: a fix that passes is checked against rivals on inputs beyond the tests' own, in real test runs."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from repo_util import PYTEST, commit_files, git
from test_repairer import repair as repair_with
from test_repairer import run_job

from pedro.backends.scripted import ScriptedBackend
from pedro.cli.render import summary_line
from pedro.evidence import ProjectTests
from pedro.messages import Event
from pedro.repair.choose import Passing, agreement, judge_pool
from pedro.repair.locate import Unit
from pedro.repair.probes import MAX_INPUTS, neighbours, probe_spec
from pedro.tools.base import ToolContext
from pedro.tools.test import RunTestsArgs

# The middle value of a list, which forgets to sort first. The visible test's input is one where the mean is the
# middle value too, so "return the mean" passes it: the held-out kind of wrong fix.
STATS = "def middle(values):\n    return values[len(values) // 2]\n"
TESTS = "from stats import middle\n\n\ndef test_middle():\n    assert middle([3, 1, 2]) == 2\n"
MEAN = "```python\ndef middle(values):\n    return sum(values) / len(values)\n```"
MEDIAN = "```python\ndef middle(values):\n    return sorted(values)[len(values) // 2]\n```"
MEDIAN_TOO = "```python\ndef middle(values):\n    ordered = sorted(values)\n    return ordered[len(ordered) // 2]\n```"
STILL_WRONG = "```python\ndef middle(values):\n    return values[0]\n```"


@pytest.fixture
def stats(repo: Path) -> Path:
    (repo / "stats.py").write_text(STATS)
    (repo / "test_stats.py").write_text(TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "stats")
    return repo


def repair(repo: Path, replies: Any, *, rivals: int = 2) -> tuple[Any, ScriptedBackend, list[Event]]:
    """test_repairer's repair, by the traceback alone, with rivals asked after a fix unless told otherwise."""
    return repair_with(repo, replies, candidates=4, rivals=rivals)


def of_type(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.type == kind]


def test_a_fix_that_only_agrees_on_the_tests_inputs_loses_to_two_rivals_that_agree(stats: Path) -> None:
    outcome, backend, events = repair(stats, [MEAN, MEDIAN, MEDIAN_TOO])
    assert outcome.fixed and outcome.candidates == 3, outcome.summary
    # The rivals were sampled answers to the same question, each tested in its own right.
    assert [o.temperature for o in backend.options][:3] == [0.0, 0.8, 0.9]
    candidates = of_type(events, "repair.candidate")
    assert [(c["n"], c["status"]) for c in candidates] == [(1, "fixed"), (2, "fixed"), (3, "fixed")]
    chosen = of_type(events, "repair.chosen")
    assert len(chosen) == 1 and chosen[0]["n"] == 2 and chosen[0]["candidates"] == [1, 2, 3]
    # Both medians agree on every input; the mean only on some.
    scores = chosen[0]["agreement"]
    assert scores[1] == scores[2] > scores[0] and chosen[0]["probes"] > 1
    # The file holds the kept rival, the smaller of the two, and the tests pass with it.
    assert (stats / "stats.py").read_text() == "def middle(values):\n    return sorted(values)[len(values) // 2]\n"
    assert outcome.last_run is not None and outcome.last_run.passed
    assert ProjectTests(RunTestsArgs(command=PYTEST), ToolContext(root=stats)).run().passed


def test_two_fixes_that_agree_on_every_probe_end_the_search_for_rivals(stats: Path) -> None:
    # Room for three rivals, but the first two fixes, different edits, give the same output on every probe: the mean
    # offered next is never tested, and a fix is kept without waiting out the time to explore.
    outcome, _, events = repair_with(stats, [MEDIAN, MEDIAN_TOO, MEAN], candidates=4, rivals=3)
    assert outcome.fixed and outcome.candidates == 2, outcome.summary
    (chosen,) = of_type(events, "repair.chosen")
    assert chosen["candidates"] == [1, 2] and chosen["agreement"][0] == chosen["agreement"][1] == chosen["probes"] > 2
    assert "sorted(values)" in (stats / "stats.py").read_text()


def test_fixes_that_disagree_on_a_probe_go_on_looking_for_rivals(stats: Path) -> None:
    outcome, _, events = repair_with(stats, [MEAN, MEDIAN, MEDIAN_TOO], candidates=4, rivals=3)
    assert outcome.fixed and outcome.candidates == 3, outcome.summary
    assert of_type(events, "repair.chosen")[0]["candidates"] == [1, 2, 3]


def test_rivals_that_fail_or_repeat_the_fix_leave_it_in_place(stats: Path) -> None:
    outcome, _, events = repair(stats, [MEDIAN, STILL_WRONG, MEDIAN])
    assert outcome.fixed
    statuses = [c["status"] for c in of_type(events, "repair.candidate")]
    # The repeated answer is not even handed on: the question gave it before.
    assert statuses == ["fixed", "fails"]
    # One plausible candidate: nothing to compare it with, but what it changes beyond the tests is still named.
    (chosen,) = of_type(events, "repair.chosen")
    assert chosen["candidates"] == [1] and chosen["beyond"]
    # The fix's two runs (the failing test, then all), the failing rival's one; then the whole command once.
    scopes = [(e["phase"], e.get("scope")) for e in of_type(events, "tests.run")]
    assert scopes == [("baseline", None), ("candidate", "failing"), ("candidate", "all"), ("candidate", "failing"),
                      ("candidate", None)]  # fmt: skip
    assert "sorted(values)" in (stats / "stats.py").read_text()
    assert outcome.last_run is not None and outcome.last_run.passed


def test_a_server_that_fails_while_rivals_are_asked_keeps_the_checked_fix(stats: Path) -> None:
    outcome, _, events = repair(stats, [MEDIAN])  # the scripted server has nothing more to say
    assert outcome.fixed and "sorted(values)" in (stats / "stats.py").read_text()
    notices = [n["message"] for n in of_type(events, "notice")]
    assert any(n.startswith("repair asks the model no more: ") for n in notices), notices


def test_without_rivals_the_first_fix_stays(stats: Path) -> None:
    outcome, _, events = repair(stats, [MEAN], rivals=0)
    assert outcome.fixed and [c["n"] for c in of_type(events, "repair.candidate")] == [1]
    assert [c["candidates"] for c in of_type(events, "repair.chosen")] == [[1]]
    assert "sum(values)" in (stats / "stats.py").read_text()


def unit(path: str, name: str, qualified: str | None = None, tests: tuple[str, ...] = ()) -> Unit:
    return Unit(path, name, qualified or name, "python", 1, 2, "", tests)


def test_probes_are_the_tests_literal_calls_then_neighbours_of_each_argument(repo: Path) -> None:
    (repo / "pkg").mkdir()
    (repo / "pkg" / "text.py").write_text("def clip(word, size=3):\n    return word[:size]\n")
    (repo / "tests").mkdir()
    (repo / "tests" / "test_text.py").write_text(
        "from pkg.text import clip\n\nWORD = 'x'\n\n\n"
        "def test_clip():\n    assert clip('hello', size=2) == 'he'\n    assert clip(3) is None or True\n"
        "    assert clip(WORD) == 'x'\n"
    )
    spec = probe_spec(unit("pkg/text.py", "clip", tests=("tests/test_text.py::test_clip",)), repo)
    assert spec is not None and (spec.module, spec.function) == ("pkg.text", "clip")
    calls = [ast.literal_eval(text) for text in spec.inputs]
    # The tests' own calls first (the one with a name, not a literal, is left out), then the neighbours.
    assert calls[:2] == [(("hello",), {"size": 2}), ((3,), {})]
    assert (("olleh",), {"size": 2}) in calls and ((4,), {}) in calls and (("",), {"size": 2}) in calls
    assert len(calls) == len(set(spec.inputs)) <= MAX_INPUTS


def test_a_tests_own_cases_are_its_calls_whatever_names_hand_them_over(repo: Path) -> None:
    # A table of cases in parametrize, a loop over a tuple of inputs, a name assigned once: each is a call the test
    # makes with literal values, as much as `fizz(3)` written out.
    (repo / "fizz.py").write_text("def fizz(n):\n    return str(n)\n")
    (repo / "test_fizz.py").write_text(
        "import pytest\n\nfrom fizz import fizz\n\n\n"
        "@pytest.mark.parametrize('n, want', [(3, 'Fizz'), pytest.param(10, 'Buzz', id='ten')])\n"
        "def test_table(n, want):\n    assert fizz(n) == want\n\n\n"
        "def test_loop():\n    assert [fizz(n) for n in (5, 15)] == ['Buzz', 'FizzBuzz']\n\n\n"
        "def test_named():\n    seven = 7\n    assert fizz(seven) == '7'\n\n\n"
        "def test_unbound(n=4):\n    count = 1\n    count += 1\n    assert fizz(count) == '2'\n"
    )
    spec = probe_spec(unit("fizz.py", "fizz", tests=("test_fizz.py::test_table",)), repo)
    assert spec is not None and spec.pinned == 5
    assert [ast.literal_eval(text) for text in spec.inputs[:5]] == [((n,), {}) for n in (3, 10, 5, 15, 7)]


def test_probes_of_a_table_of_cases_tell_the_right_fix_from_one_that_fits_the_cases(repo: Path) -> None:
    # `n % 4 == 1` answers 5 as `n % 5 == 0` does, and the test's cases reach fizz only through a loop's name.
    # Without probes the first plausible variant stayed; with them the two variants that agree (`1` → `0`, and
    # `n` → `n + 1`) outvote it.
    fizz = (
        "def fizz(n):\n    if n % 3 == 0 and n % 5 == 0:\n        return 'FizzBuzz'\n    if n % 3 == 0:\n"
        "        return 'Fizz'\n    if n % 5 == 1:\n        return 'Buzz'\n    return str(n)\n"
    )
    tests = (
        "from fizz import fizz\n\n\ndef test_fizz():\n"
        "    assert [fizz(n) for n in (3, 5, 15, 7)] == ['Fizz', 'Buzz', 'FizzBuzz', '7']\n"
    )
    commit_files(repo, {"fizz.py": fizz, "test_fizz.py": tests})
    outcome, _, events = repair_with(repo, [], coverage=True, mutants=60, candidates=0, rivals=2)
    assert outcome.fixed, outcome.summary
    (chosen,) = of_type(events, "repair.chosen")
    assert len(chosen["candidates"]) >= 2 and chosen["probes"] > 4, chosen
    assert "n % 4" not in (repo / "fizz.py").read_text()
    check = "from fizz import fizz\nassert [fizz(n) for n in (10, 9, 30, 11)] == ['Buzz', 'Fizz', 'FizzBuzz', '11']"
    done = subprocess.run([sys.executable, "-c", check], cwd=repo, capture_output=True, text=True)
    assert done.returncode == 0, (repo / "fizz.py").read_text()


def test_a_method_or_a_function_the_tests_never_call_with_literals_has_no_probes(repo: Path) -> None:
    (repo / "shop.py").write_text(
        "class Cart:\n    def total(self):\n        return 0\n\n\ndef tax(x):\n    return x\n"
    )
    (repo / "test_shop.py").write_text("from shop import Cart, tax\n\n\ndef test_tax():\n    assert tax(Cart())\n")
    assert probe_spec(unit("shop.py", "total", "Cart.total"), repo) is None
    assert probe_spec(unit("shop.py", "tax"), repo) is None


# A helper the tests reach only through report.summary: the empty list raises inside it, so the traceback names it.
HELPER = {
    "stats.py": "def average(values):\n    return sum(values) / len(values)\n",
    "report.py": 'from stats import average\n\n\ndef summary(scores):\n    return f"mean {average(scores):.1f}"\n',
    "test_report.py": (
        "from report import summary\n\n\n"
        'def test_summary():\n    assert summary([2, 4]) == "mean 3.0"\n\n\n'
        'def test_empty():\n    assert summary([]) == "mean 0.0"\n'
    ),
}
HALVES = "```python\ndef average(values):\n    return sum(values) / 2 if values else 0.0\n```"
GUARDED = "```python\ndef average(values):\n    return sum(values) / len(values) if values else 0.0\n```"
GUARDED_TOO = (
    "```python\ndef average(values):\n    if not values:\n        return 0.0\n    return sum(values) / len(values)\n```"
)


def test_a_helper_the_tests_never_call_is_probed_through_its_caller(repo: Path) -> None:
    for name, text in HELPER.items():
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "report")
    spec = probe_spec(unit("stats.py", "average", tests=("test_report.py::test_empty",)), repo)
    assert spec is not None and (spec.module, spec.function) == ("report", "summary")
    assert "(([],), {})" in spec.inputs and "(([4, 2],), {})" in spec.inputs
    # Dividing by two agrees with the mean on both tests' lists; through summary's outputs on lists of other
    # lengths, the two answers that divide by the length agree with each other, and one of them stays.
    outcome, _, events = repair(repo, [HALVES, GUARDED, GUARDED_TOO])
    assert outcome.fixed, outcome.summary
    chosen = of_type(events, "repair.chosen")
    assert len(chosen) == 1 and chosen[0]["candidates"] == [1, 2, 3] and chosen[0]["n"] == 2
    assert (
        repo / "stats.py"
    ).read_text() == "def average(values):\n    return sum(values) / len(values) if values else 0.0\n"


def test_a_function_called_on_a_module_the_tests_import_whole_is_probed(repo: Path) -> None:
    # `import query` … `query.search(…)`: the method the search reaches is probed through the module's function.
    commit_files(
        repo,
        {
            "query/__init__.py": "from query.engine import search\n",
            "query/engine.py": (
                "class Engine:\n    def compare(self, left, right):\n        return left < right\n\n\n"
                "def search(text, data):\n    return Engine().compare(data['a'], data['b'])\n"
            ),
            "test_query.py": (
                "import re\n\nimport query as q\n\n\n"
                "def test_compare():\n    assert q.search('a < b', {'a': 1, 'b': 2})\n"
                "    assert re.compile('a')\n"
            ),
        },
    )
    spec = probe_spec(
        unit("query/engine.py", "compare", "Engine.compare", tests=("test_query.py::test_compare",)), repo
    )
    assert spec is not None and (spec.module, spec.function) == ("query", "search")
    assert spec.inputs[0] == "(('a < b', {'a': 1, 'b': 2}), {})"


def test_neighbours_keep_the_type_and_stay_near() -> None:
    assert neighbours(5) == [6, 4, -5, 17] and neighbours(True) == [False]
    assert neighbours("ab") == ["ba", "AB", "ab x", ""]
    assert neighbours([1, 2]) == [[2, 1], [2], [1, 2, 1], [1], []] and neighbours((1,)) == [(1,), (), (1, 1), (), ()]
    assert neighbours(None) == [] and neighbours([]) == []
    # A mapping's values change, its keys stay: the first two swapped, the first one moved, the last key dropped.
    assert neighbours({"a": 1, "b": 2}) == [{"a": 2, "b": 1}, {"a": 2, "b": 2}, {"a": 0, "b": 2}, {"a": 1}, {}]
    assert neighbours({"a": "x"}) == [{"a": "x"}, {"a": "X"}, {}, {}] and neighbours({}) == []


# An answer that spells the value the test expects, whatever it is given: it passes, and is no fix.
CONSTANT = "```python\ndef middle(values):\n    return 1 + 1\n```"


def test_an_answer_that_returns_the_tests_value_whatever_it_is_given_is_no_fix(stats: Path) -> None:
    outcome, _, events = repair(stats, [CONSTANT, MEDIAN])
    assert outcome.fixed and outcome.candidates == 2, outcome.summary
    first = of_type(events, "repair.candidate")[0]
    assert first["status"] == "overfits" and first["reason"].startswith("it returns 2 whatever it is given"), first
    assert "sorted(values)" in (stats / "stats.py").read_text()


def test_a_job_whose_plausible_fixes_disagree_ends_unsure_and_says_so(stats: Path) -> None:
    result, _, events = run_job(stats, [MEAN, MEDIAN], with_repair=True, rivals=1)
    assert (result.exit_status, result.reason) == ("completed", "repaired_unsure"), result.summary
    assert "Unsure: candidates that pass the tests disagree on middle(" in result.summary
    (finished,) = [dict(e.data) for e in events if e.type == "job.finished"]
    assert summary_line(finished).endswith("· unsure: fixes that pass the tests disagree (above)")


def test_outputs_equal_in_value_are_one_answer_not_a_dispute(stats: Path) -> None:
    spec = probe_spec(unit("stats.py", "middle", tests=("test_stats.py::test_middle",)), stats)
    assert spec is not None and len(spec.inputs) > 2
    answers = [Passing(1, "", ("= 2",) * len(spec.inputs)), Passing(2, "", ("= 2.0",) * len(spec.inputs))]
    verdict = judge_pool(answers, spec, ("= 2",) * len(spec.inputs))
    assert verdict.disputes == () and verdict.beyond == ()
    assert agreement(answers) == [len(spec.inputs)] * 2


def test_under_unittest_the_fixes_are_compared_on_probes_by_a_program_of_their_own(repo: Path) -> None:
    # No plugin goes into unittest's run: the function is called on the probes by pedro's call runner instead, and
    # the mean that only fits the test's own list loses to the two medians, as under pytest.
    (repo / "stats.py").write_text(STATS)
    (repo / "test_stats.py").write_text(
        "import unittest\n\nfrom stats import middle\n\n\nclass MiddleTests(unittest.TestCase):\n"
        "    def test_middle(self):\n        self.assertEqual(middle([3, 1, 2]), 2)\n"
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "stats")
    command = f"{sys.executable} -m unittest -v test_stats"
    outcome, _, events = repair_with(repo, [MEAN, MEDIAN, MEDIAN_TOO], candidates=4, rivals=2, command=command)
    assert outcome.fixed, outcome.summary
    chosen = [dict(e.data) for e in events if e.type == "repair.chosen"]
    assert len(chosen) == 1 and chosen[0]["n"] == 2 and chosen[0]["probes"] > 1, chosen
    assert "Nothing checked it beyond the tests" not in outcome.summary
    assert (repo / "stats.py").read_text() == "def middle(values):\n    return sorted(values)[len(values) // 2]\n"


# Whether one key's value orders after another's, None where either is missing or they cannot be ordered; its test
# wants strings ordered too. Dropping the guard passes the test, and `None > 'a'` then raises where it returned None.
LATER = (
    "def later(data, a, b):\n    left, right = data.get(a), data.get(b)\n"
    "    if not (isinstance(left, int) and isinstance(right, int)):\n        return None\n    return left > right\n"
)
LATER_TESTS = "from order import later\n\n\ndef test_strings():\n    assert later({'x': 'b', 'y': 'a'}, 'x', 'y')\n"
LATER_UNGUARDED = "```python\ndef later(data, a, b):\n    return data.get(a) > data.get(b)\n```"
LATER_GUARDED = (
    "```python\ndef later(data, a, b):\n    left, right = data.get(a), data.get(b)\n"
    "    if left is None or right is None or type(left) is not type(right):\n        return None\n"
    "    return left > right\n```"
)


@pytest.fixture
def order(repo: Path) -> Path:
    return commit_files(repo, {"order.py": LATER, "test_order.py": LATER_TESTS})


def test_a_fix_that_crashes_where_the_code_answered_is_no_fix(order: Path) -> None:
    outcome, _, events = repair(order, [LATER_UNGUARDED, LATER_GUARDED])
    first = of_type(events, "repair.candidate")[0]
    assert first["status"] == "overfits", first
    # The first probe it fails on: the test's record with its last key dropped (`None > 'b'`).
    assert first["reason"] == (
        "it makes later({'x': 'b'}, 'x', 'y') raise TypeError, where the code it replaces returned None"
    )
    assert outcome.fixed and "type(left) is not type(right)" in (order / "order.py").read_text()


def test_when_every_fix_crashes_where_the_code_answered_repair_says_so_and_keeps_none(order: Path) -> None:
    outcome, _, _ = repair(order, [LATER_UNGUARDED])
    assert not outcome.fixed and (order / "order.py").read_text() == LATER
    assert "1 candidate passed the tests and was no fix (candidate 1: it makes later(" in outcome.summary


def test_a_fix_may_raise_what_the_failing_test_expects(repo: Path) -> None:
    # The test wants a TypeError for a value that cannot be ordered: a fix that raises it elsewhere too is no crash.
    tests = LATER_TESTS + (
        "\n\ndef test_unordered():\n    import pytest\n\n    with pytest.raises(TypeError):\n"
        "        later({'x': 'b', 'y': 1}, 'x', 'y')\n"
    )
    commit_files(repo, {"order.py": LATER, "test_order.py": tests})
    outcome, _, events = repair(repo, [LATER_UNGUARDED])
    assert outcome.fixed, [(c["status"], c["reason"]) for c in of_type(events, "repair.candidate")]


# A function that writes the file it is named, called by a test that works in a folder of its own. Its probes call it
# on neighbours of that name ("OUT.TXT", "txt.tuo"): those files must not land in the user's repository, where the
# job's commit would take them. (The test's folder is not pytest's tmp_path: the runs inside this test would clear
# away this test's own, which holds the repository.)
REPORT = (
    'def write_report(lines, output):\n    with open(output_path, "w") as handle:\n'
    '        handle.write("\\n".join(lines))\n    return len(lines)\n'
)
REPORT_TESTS = (
    "import os\nimport tempfile\nimport unittest\n\nfrom report import write_report\n\n\n"
    "class ReportTests(unittest.TestCase):\n    def test_write(self):\n        here = os.getcwd()\n"
    "        with tempfile.TemporaryDirectory() as folder:\n            os.chdir(folder)\n            try:\n"
    "                self.assertEqual(write_report(['a', 'b'], 'out.txt'), 2)\n            finally:\n"
    "                os.chdir(here)\n"
)
REPORT_FIXED = REPORT.replace("output_path", "output")


@pytest.mark.parametrize(
    "command", [PYTEST, f"{sys.executable} -m unittest -v test_report"], ids=["pytest", "unittest"]
)
def test_the_probes_leave_no_file_in_the_repository(repo: Path, command: str) -> None:
    commit_files(repo, {"report.py": REPORT, "test_report.py": REPORT_TESTS})
    outcome, _, _ = repair_with(repo, [f"```python\n{REPORT_FIXED}```"], candidates=2, command=command)
    # The probes ran: the fix's outputs on them are named.
    assert outcome.fixed and "write_report(['a'], 'out.txt'): raises NameError → 1" in outcome.summary, outcome.summary
    assert (repo / "report.py").read_text() == REPORT_FIXED
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == " M report.py\n"


# The count of names greeted, which returns the last name's length instead. `len(name) - 1` passes the test (two
# names of three letters) by shifting every count the code gave, and raises on no names as the code did.
GREET = 'def greet(names):\n    for name in names:\n        print("Hello, " + name)\n    return len(name)\n'
GREET_TESTS = "from greet import greet\n\n\ndef test_greet():\n    assert greet(['Ann', 'Bob']) == 2\n"


def test_a_shift_of_the_codes_answers_loses_though_both_raise_alike_where_the_code_raised(repo: Path) -> None:
    commit_files(repo, {"greet.py": GREET, "test_greet.py": GREET_TESTS})
    outcome, _, events = repair_with(repo, [], coverage=True, mutants=40, candidates=0, rivals=2)
    assert outcome.fixed, outcome.summary
    kept = [dict(e.data) for e in events if e.type == "repair.chosen"]
    assert len(kept) == 1 and len(kept[0]["candidates"]) >= 2, kept
    assert "return len(names)" in (repo / "greet.py").read_text()


# A rectangle's area that multiplies its width by itself. A model answer that adds the width passes the test's one
# rectangle; the objects its neighbours make (`Rect(3, 3)`, `Rect(2, 4)`) tell it from `self.w * self.h`.
RECT = (
    "class Rect:\n    def __init__(self, w, h):\n        self.w = w\n        self.h = h\n\n"
    "    @property\n    def area(self):\n        return self.w * self.w\n"
)
RECT_TESTS = (
    "import unittest\n\nfrom shapes import Rect\n\n\nclass RectTest(unittest.TestCase):\n"
    "    def test_area(self):\n        self.assertEqual(Rect(2, 3).area, 6)\n"
)
RECT_WRONG = RECT.replace("return self.w * self.w", "return self.w + self.w * self.w")


def test_a_propertys_probes_are_the_objects_its_tests_make_and_their_neighbours(repo: Path) -> None:
    commit_files(repo, {"shapes.py": RECT, "test_shapes.py": RECT_TESTS})
    spec = probe_spec(unit("shapes.py", "Rect.area", tests=("test_shapes.py::RectTest::test_area",)), repo)
    assert spec is not None and (spec.module, spec.function, spec.method, spec.called) == (
        "shapes",
        "Rect",
        "area",
        False,
    )
    assert spec.pinned == 1 and spec.call(0) == "Rect(2, 3).area"
    assert "Rect(3, 3).area" in [spec.call(k) for k in range(len(spec.inputs))]


@pytest.mark.parametrize(
    "command", [PYTEST, f"{sys.executable} -m unittest -v test_shapes"], ids=["pytest", "unittest"]
)
def test_a_property_fixed_for_the_tests_object_only_loses_to_a_right_fix(repo: Path, command: str) -> None:
    commit_files(repo, {"shapes.py": RECT, "test_shapes.py": RECT_TESTS})
    outcome, _, events = repair_with(
        repo, [f"```python\n{RECT_WRONG}```"], coverage=True, mutants=40, candidates=1, rivals=2, command=command
    )
    assert outcome.fixed, outcome.summary
    (chosen,) = of_type(events, "repair.chosen")
    assert len(chosen["candidates"]) >= 2 and chosen["probes"] > 1, chosen
    assert "self.h" in (repo / "shapes.py").read_text() and "self.w +" not in (repo / "shapes.py").read_text()
