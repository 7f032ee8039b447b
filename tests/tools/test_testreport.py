"""Parsers for runner reports, on fixtures recorded from real pytest, go, node, jest, vitest and mocha runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pedro.tools.testreport import (
    NODE_RUNNER,
    FailedTest,
    ReportError,
    RunReport,
    parse_go_test_json,
    parse_jest_json,
    parse_junit_xml,
    parse_raw,
    parse_vitest_json,
    with_crash_cause,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "testreports"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["pytest_junit_xunit1.xml", "pytest_junit_xunit2.xml"])
def test_pytest_junit(name: str) -> None:
    report = parse_junit_xml(fixture(name))
    assert (report.passed, report.failed, report.skipped, report.errors) == (2, 2, 1, 1)
    first = report.failures[0]
    assert (first.test_id, first.location, first.message) == (
        "tests/test_calc.py::test_add_wrong",
        "tests/test_calc.py:13",
        "assert 4 == 5\n +  where 4 = add(2, 2)",
    )
    # The full traceback is kept for repair, which reads its frames.
    assert first.details.startswith("def test_add_wrong():") and first.details.endswith("AssertionError")
    assert report.failures[1].test_id == "tests/test_calc.py::TestGroup::test_raises"
    assert report.failures[1].location == "tests/test_calc.py:21"
    assert report.failures[1].message == "ValueError: boom"
    assert report.failures[2].test_id == "tests/test_err.py::test_uses_broken"
    assert "fixture exploded" in report.failures[2].message


def test_junit_uses_def_line_when_traceback_has_none() -> None:
    xml = (
        '<testsuites><testsuite><testcase classname="t.test_a" name="test_x" file="t/test_a.py" line="4">'
        '<failure message="boom">no location here</failure></testcase></testsuite></testsuites>'
    )
    failure = parse_junit_xml(xml).failures[0]
    assert failure.location == "t/test_a.py:5"
    assert failure.test_id == "t/test_a.py::test_x"


def test_malformed_junit_raises_report_error() -> None:
    with pytest.raises(ReportError):
        parse_junit_xml("<testsuites><testcase")


def test_go_test_json() -> None:
    report = parse_go_test_json(fixture("go_test.jsonl").splitlines(), module="example.com/demo")
    # TestAdd, TestTable/ok pass; TestAddWrong and TestTable/bad fail (TestTable is not counted twice).
    assert (report.passed, report.failed, report.skipped) == (2, 2, 1)
    assert report.failures[0] == FailedTest(
        test_id="example.com/demo/calc.TestAddWrong", location="calc/calc_test.go:13", message="Add(2, 2) = 4, want 5"
    )
    assert report.failures[1].test_id == "example.com/demo/calc.TestTable/bad"
    assert report.failures[1].location == "calc/calc_test.go:19"
    assert report.failures[2].test_id == "example.com/demo/broken"
    assert report.errors == 1


def test_go_test_json_with_build_errors_on_the_same_stream() -> None:
    report = parse_go_test_json(fixture("go_test_merged.jsonl").splitlines(), module="example.com/demo")
    broken = next(f for f in report.failures if f.test_id == "example.com/demo/broken")
    assert broken.location == "broken/broken.go:3"
    assert 'cannot use "s"' in broken.message
    assert broken.message.startswith("build failed")


def test_go_124_build_output_events() -> None:
    report = parse_go_test_json(fixture("go124_build_fail.jsonl").splitlines(), module="example.com/demo")
    assert (report.passed, report.failed, report.errors) == (1, 0, 1)
    assert report.failures == [
        FailedTest(
            test_id="example.com/demo/broken",
            location="broken/broken.go:3",
            message='build failed: broken/broken.go:3:23: cannot use "s" (untyped string constant) as int value '
            "in return statement",
        )
    ]


def test_a_go_test_that_takes_the_test_binary_down_is_the_failing_test() -> None:
    # A stack overflow is a fatal error: no `--- FAIL` line, no fail event for the test, only the package's. A parallel
    # test paused behind it never ran: it is no failure.
    report = parse_go_test_json(fixture("go_test_crash.jsonl").splitlines(), module="example.com/demo")
    assert (report.passed, report.failed, report.errors) == (1, 1, 0)
    (crashed,) = report.failures
    assert crashed.test_id == "example.com/demo/calc.TestEight"
    assert "fatal error: stack overflow" in crashed.message
    assert "calc/calc.go:11" in crashed.details  # the frame repair locates the recursion by


def test_go_parser_tolerates_garbage() -> None:
    report = parse_go_test_json(["not json", "{broken", "[1, 2]", ""])
    assert report.total == 0
    assert report.failures == []


def test_jest_json() -> None:
    report = parse_jest_json(fixture("jest.json"), root=Path("/tmp/rec/js"))
    assert (report.passed, report.failed, report.skipped, report.errors) == (1, 1, 1, 1)
    failure = report.failures[0]
    assert failure.test_id == "calc.test.js > add > adds wrong"
    assert failure.location == "calc.test.js:8"
    assert "Expected: 5" in failure.message
    assert "jest-circus" not in failure.message
    suite = report.failures[1]
    assert suite.test_id == "broken.test.js"
    assert "Jest encountered an unexpected token" in suite.message
    assert "\x1b[" not in suite.message


def test_vitest_json() -> None:
    report = parse_vitest_json(fixture("vitest.json"), root=Path("/tmp/rec/vt"))
    assert report.runner == "vitest"
    assert (report.passed, report.failed, report.skipped, report.errors) == (1, 1, 1, 1)
    failure = next(f for f in report.failures if f.test_id.startswith("calc.test.js"))
    assert failure == FailedTest(
        test_id="calc.test.js > add > adds wrong",
        location="calc.test.js:10",
        message="AssertionError: expected 4 to be 5 // Object.is equality",
    )
    assert report.failures[0].test_id == "broken.test.js"
    assert "Parse failure" in report.failures[0].message


def test_malformed_jest_raises_report_error() -> None:
    with pytest.raises(ReportError):
        parse_jest_json("{not json")
    with pytest.raises(ReportError):
        parse_jest_json("[]")


@pytest.mark.parametrize(
    ("name", "runner", "counts", "first_failure"),
    [
        ("pytest_output.txt", "pytest", (2, 2, 1, 1), "tests/test_calc.py::test_add_wrong"),
        ("go_test_plain.txt", "go test", (0, 2, 0, 1), "TestAddWrong"),
        ("jest_output.txt", "jest", (1, 1, 1, 0), "add › adds wrong"),
        ("vitest_output.txt", "vitest", (1, 1, 1, 0), "calc.test.js > add > adds wrong"),
        ("mocha_output.txt", "mocha", (1, 1, 1, 0), None),
    ],
)
def test_raw_output(name: str, runner: str, counts: tuple[int, int, int, int], first_failure: str | None) -> None:
    report = parse_raw(fixture(name))
    assert report is not None
    assert report.runner == runner
    assert (report.passed, report.failed, report.skipped, report.errors) == counts
    if first_failure is not None:
        assert report.failures[0].test_id == first_failure


def test_raw_pytest_message_from_short_summary() -> None:
    report = parse_raw(fixture("pytest_output.txt"))
    assert report is not None
    assert report.failures[0].message == "assert 4 == 5"


def test_raw_cargo_and_unknown() -> None:
    report = parse_raw("test result: FAILED. 3 passed; 1 failed; 2 ignored; 0 measured")
    assert report is not None
    assert (report.passed, report.failed, report.skipped) == (3, 1, 2)
    assert parse_raw("make: *** No rule to make target 'test'.  Stop.") is None


def test_long_messages_are_capped() -> None:
    body = "\n".join(f"line {n}" for n in range(100))
    xml = f'<testsuites><testcase classname="t" name="x"><failure message="">{body}</failure></testcase></testsuites>'
    failure = parse_junit_xml(xml).failures[0]
    assert failure.message == "line 0"
    long_message = "x" * 5000
    xml = f'<testsuites><testcase classname="t" name="x"><failure message="{long_message}"/></testcase></testsuites>'
    assert "more characters" in parse_junit_xml(xml).failures[0].message


def test_junit_says_how_long_the_slowest_passing_test_took() -> None:
    xml = (
        '<testsuites><testsuite name="pytest">'
        '<testcase classname="test_a" name="test_fast" time="0.004"/>'
        '<testcase classname="test_a" name="test_slow" time="0.75"/>'
        '<testcase classname="test_a" name="test_hung" time="9.0"><failure message="TestHung: stopped">x</failure>'
        '</testcase><testcase classname="test_a" name="test_odd" time="n/a"/>'
        "</testsuite></testsuites>"
    )
    report = parse_junit_xml(xml)
    assert report.passed == 3 and report.slowest_s == 0.75  # a failing test's time is not a passing test's


def test_a_node_test_file_that_died_of_a_signal_says_the_fatal_error_its_output_gives() -> None:
    # node 20's junit report of a file whose process V8 ended (an array a loop grew without end) says only "test
    # failed" and the signal; its output says why.
    report = parse_junit_xml(fixture("node_fatal_size.xml"), runner=NODE_RUNNER)
    assert [failure.message for failure in report.failures] == ["test failed"]
    report = with_crash_cause(report, fixture("node_fatal_size.log"))
    (failure,) = report.failures
    assert failure.test_id == "/repo/solution.test.js"
    assert failure.message.startswith("test failed: Fatal JavaScript invalid size error")
    assert "Fatal JavaScript invalid size error" in failure.details and "SIGTRAP" in failure.details


def test_a_node_failure_with_no_signal_is_left_as_it_is_whatever_the_output_says() -> None:
    failed = FailedTest("t.test.js", message="expected 2", details="AssertionError: expected 2")
    report = RunReport(NODE_RUNNER, failed=1, failures=[failed])
    assert with_crash_cause(report, "# Fatal JavaScript invalid size error 1\n").failures == [failed]


def test_a_unittest_test_whose_subtests_fail_is_one_failing_test(tmp_path: Path) -> None:
    # unittest prints a failure for each failing subtest, and counts the test once: the report names one failing
    # test beside the passing one, so that runs can still be compared test by test.
    (tmp_path / "test_ranges.py").write_text(
        "import unittest\n\n\nclass Ranges(unittest.TestCase):\n"
        "    def test_each(self):\n        for n in (1, 2, 3):\n            with self.subTest(n=n):\n"
        "                self.assertEqual(n, 1)\n\n"
        "    def test_plain(self):\n        self.assertTrue(True)\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "unittest", "-v", "test_ranges"], cwd=tmp_path, capture_output=True, text=True
    )
    report = parse_raw(run.stdout + run.stderr)
    assert report is not None and report.names_tests, report
    assert (report.passed, report.failed, report.errors) == (1, 1, 0)
    assert report.passing == ["test_ranges.Ranges.test_plain"]
    assert [failure.test_id for failure in report.failures] == ["test_ranges.Ranges.test_each"]
    assert "AssertionError: 2 != 1" in report.failures[0].message


def test_a_unittest_module_that_fails_to_import_is_a_failing_test_named_by_the_module(tmp_path: Path) -> None:
    # `unittest discover` counts a test module it cannot import as one test that errs, under a name with dots in it.
    # Read as no failure at all, its run said "passed 1, failed 0", and repair had nothing to look at.
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("")
    (tmp_path / "tests" / "test_stock.py").write_text("import unittest\n\nfrom inv.stock import restock\n")
    run = subprocess.run(
        [sys.executable, "-m", "unittest", "discover", "-s", "tests", "-t", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    report = parse_raw(run.stdout + run.stderr)
    assert report is not None and (report.passed, report.failed, report.errors) == (0, 0, 1), report
    (failure,) = report.failures
    assert failure.test_id == "tests.test_stock"
    assert "No module named 'inv'" in failure.message and failure.location.endswith("test_stock.py:3")
