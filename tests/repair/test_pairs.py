"""Pairs of failed candidates: which two are tried together first, and when a failure came nearer to passing."""

from __future__ import annotations

import shutil
from collections import deque
from pathlib import Path

import pytest
from repo_util import node_test
from test_mutants import fixed_by_a_variant

from pedro.process import ChildResult
from pedro.repair import pairs as pairs_module
from pedro.repair import search as search_module
from pedro.repair.clues import Clues
from pedro.repair.locate import Unit
from pedro.repair.pairs import pairings, slip_kind
from pedro.repair.progress import failed_later, fails_alike, nearer_sign, remaining
from pedro.repair.search import Search
from pedro.tools.test import TestRun
from pedro.tools.testreport import FailedTest, RunReport

SUM = Unit("stats.py", "total", "total", "python", 1, 2, "def total(xs):\n    return sum(xs) + 1")
Tried = pairs_module.Tested
MEAN = Unit("stats.py", "mean", "mean", "python", 5, 6, "def mean(xs):\n    return total(xs) / (len(xs) - 1)")


def test_two_candidates_that_each_came_nearer_are_paired_first() -> None:
    tested = [
        Tried(1, SUM, "def total(xs):\n    return sum(xs) - 1"),
        Tried(2, MEAN, "def mean(xs):\n    return total(xs) * (len(xs) - 1)"),
        Tried(3, SUM, "def total(xs):\n    return sum(xs)", nearer=True),
        Tried(4, MEAN, "def mean(xs):\n    return total(xs) / (len(xs))", nearer=True),
    ]
    pairs = pairings(tested, 3)
    assert [(first.n, second.n) for first, second, _ in pairs] == [(3, 4), (3, 2), (4, 1)]
    assert pairs[0][2] == [(SUM, tested[2].text), (MEAN, tested[3].text)]
    # Two changes of the same unit are merged when they touch different lines, else never paired.
    same = [Tried(5, SUM, "def total(ys):\n    return sum(xs) + 1"), Tried(6, SUM, "def total(xs):\n    return 0")]
    assert pairings(same, 3)[0][2] == [(SUM, "def total(ys):\n    return 0")]
    assert pairings([same[1], Tried(7, SUM, "def total(xs):\n    return 1")], 3) == []


def failure(message: str) -> FailedTest:
    return FailedTest("test_x.py::test_x", "test_x.py:5", message)


def test_a_number_or_a_text_nearer_the_expected_one_counts_as_nearer() -> None:
    assert nearer_sign(failure("assert 6.5 == 4"), failure("assert 6 == 4")) == 1
    assert nearer_sign(failure("assert 6.5 == 4"), failure("assert 26 == 4")) == -1
    assert nearer_sign(failure("AssertionError: assert '2 km' == '2.5 km'"), failure("assert '2.5 m' == '2.5 km'")) == 1
    assert nearer_sign(failure("assert '2 km' == '2.5 km'"), failure("assert '2.0 km' == '2.5 km'")) == 0
    go = 'AddMinutes("08:30", 45) = "{}", <nil>; want "09:15"'
    assert nearer_sign(failure(go.format("8:53")), failure(go.format("9:15"))) == 1
    assert nearer_sign(failure(go.format("8:53")), failure(go.format("18:53"))) == -1
    node = "Expected values to be strictly equal:\n\n'{}' !== '1:05'\n"
    assert nearer_sign(failure(node.format("1:5")), failure(node.format("1:05"))) == 1
    # chai's (vitest's) `expected 26 to be 4`, on numbers and on text.
    chai = "expected {} to be {} // Object.is equality"
    assert nearer_sign(failure(chai.format(26, 4)), failure(chai.format(6, 4))) == 1
    assert nearer_sign(failure(chai.format("'he'", "'hello'")), failure(chai.format("'hell'", "'hello'"))) == 1
    # unittest's assertEqual, with or without the test's own message after it.
    assert nearer_sign(failure("AssertionError: 26 != 4 : the total"), failure("AssertionError: 6 != 4")) == 1
    unittest = "AssertionError: '{0}' != 'hello'\n- {0}\n+ hello\n"
    assert nearer_sign(failure(unittest.format("he")), failure(unittest.format("hell"))) == 1
    # pytest shortens long text with "...": what it hides cannot be compared.
    assert nearer_sign(failure("assert 'ab...yz' == 'ab...zz'"), failure("assert 'ab...zz' == 'ab...zz'")) == 0


def test_node_s_multi_line_diff_of_two_numbers_is_read() -> None:
    diff = "Expected values to be strictly equal:\n\n+ actual - expected\n\n+ {}\n- 4\n"
    assert nearer_sign(failure(diff.format("6.5")), failure(diff.format("4.333333333333333"))) == 1


def test_text_that_differs_only_in_its_numbers_is_nearer_only_when_the_numbers_are() -> None:
    # Two compensating slips (the shipping rate up, the items' total down) each changed "$18.99"; neither brought
    # it nearer "$20.49", and their pair passed the test by accident: such halves are not paired at once.
    go = 'Summary() = "3 items, 2500 g: ${}", want "3 items, 2500 g: $20.49"'
    assert nearer_sign(failure(go.format("18.99")), failure(go.format("21.99"))) == 0
    assert nearer_sign(failure(go.format("18.99")), failure(go.format("17.49"))) == -1
    assert nearer_sign(failure(go.format("18.99")), failure(go.format("19.49"))) == 1
    # Only the formatting of the same numbers changed: the text tells (two-digit hours, as the expected has).
    clock = 'AddMinutes("08:30", 45) = "{}", <nil>; want "09:15"'
    assert nearer_sign(failure(clock.format("8:53")), failure(clock.format("08:53"))) == 1


def test_how_far_a_run_is_from_passing_sums_its_wanted_failures() -> None:
    def run(*failures: FailedTest) -> TestRun:
        report = RunReport("pytest", failed=len(failures), failures=list(failures))
        return TestRun("", report, ChildResult("exited", 1, "", 0, 0, 0.1), "pytest")

    wanted = frozenset({"test_x.py::test_x", "test_y.py::test_y"})
    other = FailedTest("test_y.py::test_y", "test_y.py:3", "AssertionError: assert '9:15' == '09:15'")
    assert remaining(run(failure("assert 6.5 == 4"), other), wanted) == 2.5 + 1
    assert remaining(run(failure("ZeroDivisionError: division by zero")), wanted) is None  # it does not say
    assert remaining(run(), wanted) == 0


def test_after_the_early_pairs_each_nearer_candidate_is_paired_with_the_nearest_one() -> None:
    # Only the pairing is exercised: no runs, edits or model.
    search = Search(Path(), None, None, lambda *_a, **_k: None, frozenset(), None, Clues(), [], None,  # type: ignore[arg-type]
                    lambda _unit: None)  # fmt: skip
    for n in range(1, 14):  # halves that moved by chance spend the early pairs
        search._remember_tested(Tried(n, SUM if n % 2 else MEAN, f"def total(xs):\n    return {n}", True, 50.0 - n))
    assert search._early_pairs == search_module._EARLY_PAIRS
    search._queued.clear()
    search._remember_tested(Tried(20, SUM, "def total(xs):\n    return sum(xs) - 1", True, 1.0))  # the nearest yet
    search._remember_tested(Tried(21, MEAN, "def mean(xs):\n    return total(xs) / len(xs)", True, 4.0))
    assert [proposal.label["combines"] for proposal in search._queued] == [[12, 20], [20, 21]]


def run_failing(*failures: FailedTest) -> TestRun:
    report = RunReport("pytest", failed=len(failures), failures=list(failures))
    return TestRun("", report, ChildResult("exited", 1, "", 0, 0, 0.1), "pytest")


def test_a_failure_at_a_later_assertion_and_one_left_exactly_as_it_was_are_told_apart() -> None:
    wanted = frozenset({"test_x.py::test_x"})
    before = run_failing(
        FailedTest("test_x.py::test_x", "test_x.py:5", "assert 2 == 1\n + where 2 = <function f at 0x7f6c>(2)")
    )
    later = run_failing(FailedTest("test_x.py::test_x", "test_x.py:8", "assert 3 == 0"))
    # The same failure, told by another run: an object's address differs, nothing else.
    same = run_failing(
        FailedTest("test_x.py::test_x", "test_x.py:5", "assert 2 == 1\n + where 2 = <function f at 0x7f23>(2)")
    )
    moved_value = run_failing(FailedTest("test_x.py::test_x", "test_x.py:5", "assert 3 == 1"))
    assert failed_later(before, later, wanted) and not fails_alike(before, later, wanted)
    assert fails_alike(before, same, wanted) and not failed_later(before, same, wanted)
    assert not failed_later(before, moved_value, wanted) and not fails_alike(before, moved_value, wanted)
    assert not failed_later(later, before, wanted)  # earlier is no half of a fix


def test_a_node_failure_given_no_place_moves_with_the_assertion_in_its_stack() -> None:
    """node --test gives no place for a test's failure (the test tool reads none); the assertion that failed is the
    innermost frame of the test file in the stack."""
    wanted = frozenset({"eat"})

    def failing_at(line: int) -> TestRun:
        stack = (
            f"    at testEat (/tmp/w/eat.test.js:{line}:10)\n    at TestContext.<anonymous> (/tmp/w/eat.test.js:15:3)"
        )
        return run_failing(FailedTest("eat", "", "AssertionError: falsy", stack))

    assert failed_later(failing_at(6), failing_at(9), wanted)
    assert not failed_later(failing_at(9), failing_at(6), wanted)
    assert not failed_later(failing_at(6), failing_at(6), wanted) and fails_alike(failing_at(6), failing_at(6), wanted)


def test_a_go_test_that_reports_every_failing_check_is_alike_while_its_first_stays_as_it_was() -> None:
    """Go's t.Errorf (and testify) go on past a failing check: the half of a fix in the other branch mends some later
    checks and leaves the first as it was, which is what fails alike means for a runner that stops at the first."""
    wanted = frozenset({"task.TestEat"})
    reports = {9: "[]int{11, 9}", 10: "[]int{12, 5}", 12: "[]int{18, 0}", 14: "[]int{10, 0}"}

    def failing(*lines: int) -> TestRun:
        details = "".join(f"    eat_test.go:{k}: Not equal:\n        actual  : {reports[k]}\n" for k in lines)
        message = "\n".join(f"Not equal:\nactual  : {reports[k]}" for k in lines)
        return run_failing(FailedTest("task.TestEat", f"eat_test.go:{lines[0]}", message, details))

    before = failing(9, 10, 12, 14)
    assert fails_alike(before, failing(9, 10), wanted) and not failed_later(before, failing(9, 10), wanted)
    assert failed_later(before, failing(12, 14), wanted) and not fails_alike(before, failing(12, 14), wanted)
    reports[9] = "[]int{11, 1}"  # the first check now fails otherwise: something it reaches changed
    changed_first = failing(9, 10)
    assert not fails_alike(before, changed_first, wanted)


def test_a_candidate_that_moved_the_failure_later_is_paired_with_those_that_left_it_as_it_was() -> None:
    search = Search(Path(), None, None, lambda *_a, **_k: None, frozenset(), None, Clues(), [], None,  # type: ignore[arg-type]
                    lambda _unit: None)  # fmt: skip
    two = Unit("eat.py", "eat", "eat", "python", 1, 3, "def eat(a, b):\n    x = a + b\n    y = a + b")
    search._remember_tested(Tried(1, two, "def eat(a, b):\n    x = a + b\n    y = b", alike=True))
    search._remember_tested(Tried(2, two, "def eat(a, b):\n    x = a - b\n    y = a + b"))  # moved the value: neither
    search._remember_tested(Tried(3, two, "def eat(a, b):\n    x = b\n    y = a + b", nearer=True, later=True))
    search._remember_tested(Tried(4, two, "def eat(a, b):\n    x = a + b\n    y = a", alike=True))
    search._remember_tested(Tried(5, two, "def eat(a, b):\n    x = a * b\n    y = a + b", alike=True))  # same line as 3
    pairs = [proposal.label["combines"] for proposal in search._halves_queue]
    assert pairs == [[3, 4], [1, 3]]  # the newest first: its partner was just tried
    assert search._halves_queue[1].edits == [(two, "def eat(a, b):\n    x = b\n    y = b")]
    # Tried one after every few variants, not before them: a one-place fix stays likelier.
    assert search._queued == deque()


def test_a_second_half_of_the_first_halfs_kind_is_paired_first_and_beyond_its_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A slip written into two branches is often the same slip twice: an operand dropped in one branch, and one
    dropped in the other, pair first, even after the first half has spent its share of pairs."""
    monkeypatch.setattr(search_module, "_HALF_PAIRS", 1)
    search = Search(Path(), None, None, lambda *_a, **_k: None, frozenset(), None, Clues(), [], None,  # type: ignore[arg-type]
                    lambda _unit: None)  # fmt: skip
    eat = Unit("eat.py", "eat", "eat", "python", 1, 4, "def eat(a, b):\n    x = a + b\n    y = a + b\n    z = a - b")
    kind = slip_kind("`a +` dropped")
    search._remember_tested(Tried(1, eat, "def eat(a, b):\n    x = b\n    y = a + b\n    z = a - b", later=True,
                                  kind=kind))  # fmt: skip
    search._remember_tested(Tried(2, eat, "def eat(a, b):\n    x = a + b\n    y = a - b\n    z = a - b", alike=True,
                                  kind=slip_kind("`+` → `-`")))  # fmt: skip
    search._remember_tested(Tried(3, eat, "def eat(a, b):\n    x = a + b\n    y = a + b\n    z = a * b", alike=True,
                                  kind=slip_kind("`-` → `*`")))  # fmt: skip
    search._remember_tested(Tried(4, eat, "def eat(a, b):\n    x = a + b\n    y = a\n    z = a - b", alike=True,
                                  kind=slip_kind("`+ b` dropped")))  # fmt: skip
    assert [proposal.label["combines"] for proposal in search._halves_queue] == [[1, 4], [1, 2]]
    assert (slip_kind("`a` and `b` swapped"), slip_kind("`x` → `y`"), slip_kind("`return` added")) == (
        "swapped", "x → y", "")  # fmt: skip


def test_a_slip_in_each_of_two_branches_is_fixed_by_the_pair_of_halves(repo: Path) -> None:
    # Each branch returns one too many; the first assertion reaches only the first branch, so the second half of the
    # fix leaves its failure as it was, and only the first half moves it to the next assertion. Within the variants'
    # limit (40), no pair is tried but these.
    events = fixed_by_a_variant(
        repo,
        {
            "tiers.py": (
                "def tier(n, base=0):\n    step = base + 1\n    if n < 10 * step:\n        return 2\n"
                "    if n < 100 * step:\n        return 3\n    return 4\n"
            ),
            "test_tiers.py": (
                "from tiers import tier\n\n\ndef test_tier():\n    assert tier(5) == 1\n    assert tier(50) == 2\n"
            ),
        },
    )
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed[0]["question"] == "pair", fixed
    assert "        return 1\n    if n < 100 * step:\n        return 2\n" in (repo / "tiers.py").read_text()


def test_a_slip_in_each_of_two_branches_of_javascript_is_fixed_by_the_pair_of_halves(repo: Path) -> None:
    # node places both failures at the test's declaration; the stack says the first half moved it later.
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    code = (
        "const eat = (number, need, remaining) => {\n  if (need <= remaining) {\n"
        "    return [need + number, number + remaining - need]\n  }\n  return [remaining + need + number, 0]\n}\n\n"
        "module.exports = { eat };\n"
    )
    checks = [f"assert.deepEqual(eat({args}), [{want}]);" for args, want in
              (("5, 6, 10", "11, 4"), ("4, 8, 9", "12, 1"), ("2, 11, 5", "7, 0"), ("4, 5, 1", "5, 0"))]  # fmt: skip
    files = {"eat.js": code, "eat.test.js": node_test("eat", "eat", *checks)}
    # The second half (`+ need` dropped in the last line) comes late among the variants of five lines.
    events = fixed_by_a_variant(repo, files, mutants=120, command="node --test")
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed and fixed[0]["question"] == "pair", fixed
    assert "return [need + number, remaining - need]" in (repo / "eat.js").read_text()
    assert "return [remaining + number, 0]" in (repo / "eat.js").read_text()
