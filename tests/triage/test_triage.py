"""Triage as a report: pedro parses real runner logs itself, then writes JSON, Markdown, SARIF and GitHub output."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from repo_util import git

from pedro.triage.logparse import parse_log
from pedro.triage.report import build_report, github_annotations, to_sarif

CALC = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a + b\n"
TESTS = (
    "from calc import add, mul\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_mul():\n    assert mul(2, 3) == 6\n\n\n"
    "def test_fine():\n    assert add(0, 0) == 0\n"
)


@pytest.fixture
def failing(repo: Path) -> Path:
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    return repo


def run_log(repo: Path, *argv: str) -> str:
    done = subprocess.run(argv, cwd=repo, capture_output=True, text=True, check=False)
    return done.stdout + done.stderr


def test_a_real_pytest_log_gives_both_failures_with_file_line_and_message(failing: Path) -> None:
    log = run_log(failing, sys.executable, "-m", "pytest", "-p", "no:cacheprovider")
    parsed = parse_log(log)
    assert parsed is not None and parsed.runner == "pytest" and (parsed.failed, parsed.passed) == (2, 1)
    by_name = {f.name: f for f in parsed.failures}
    assert set(by_name) == {"test_calc.py::test_add", "test_calc.py::test_mul"}
    assert (by_name["test_calc.py::test_add"].file, by_name["test_calc.py::test_add"].line) == ("test_calc.py", 5)
    assert "assert -1 == 5" in by_name["test_calc.py::test_add"].message
    assert "def test_mul" in by_name["test_calc.py::test_mul"].excerpt


def test_a_real_unittest_log(failing: Path) -> None:
    (failing / "test_u.py").write_text(
        "import unittest\nfrom calc import add\n\n\nclass T(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
    )
    log = run_log(failing, sys.executable, "-m", "unittest", "test_u")
    parsed = parse_log(log)
    assert parsed is not None and parsed.runner == "unittest"
    (only,) = parsed.failures
    assert only.name == "test_u.T.test_add" and only.file.endswith("test_u.py") and only.line == 7
    assert only.message == "AssertionError: -1 != 5"


def test_a_unittest_failure_on_two_strings_is_named_by_its_exception_not_its_diff_s_last_line(failing: Path) -> None:
    # assertEqual on two strings ends its output with a diff whose last line is `? ^`.
    (failing / "test_s.py").write_text(
        "import unittest\n\n\nclass T(unittest.TestCase):\n"
        "    def test_greet(self):\n        self.assertEqual('hello world', 'Hello world')\n"
    )
    (only,) = parse_log(run_log(failing, sys.executable, "-m", "unittest", "test_s")).failures  # type: ignore[union-attr]
    assert only.message == "AssertionError: 'hello world' != 'Hello world'" and only.line == 6


def test_a_go_test_log() -> None:
    log = (
        "--- FAIL: TestReport (0.00s)\n    report_test.go:9: Report() = wrong\n"
        "--- PASS: TestEmpty (0.00s)\nFAIL\nFAIL\texample.com/grades\t0.002s\nFAIL\n"
    )
    parsed = parse_log(log)
    assert parsed is not None and parsed.runner == "go test"
    (only,) = parsed.failures
    assert (only.file, only.line, only.message) == ("report_test.go", 9, "Report() = wrong")


def test_a_real_go_log_names_the_test_file_by_its_path_in_the_repository(tmp_path: Path) -> None:
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    (tmp_path / "gostat").mkdir()
    (tmp_path / "go.mod").write_text("module example.com/m\n\ngo 1.19\n")
    (tmp_path / "gostat" / "mean.go").write_text("package gostat\n\nfunc Mean(xs []int) int { return 0 }\n")
    (tmp_path / "gostat" / "mean_test.go").write_text(
        'package gostat\n\nimport "testing"\n\nfunc TestMean(t *testing.T) {\n'
        '\tif Mean([]int{2}) != 2 {\n\t\tt.Errorf("bad")\n\t}\n}\n'
    )
    # go prints the file by its name in the package's folder, then the test binary's own FAIL line, then the
    # package's: the path comes from the package's line, never from the bare FAIL before it.
    log = run_log(tmp_path, "go", "test", "./...")
    assert "\nFAIL\nFAIL\texample.com/m/gostat" in log
    # go test -v prints each test's lines after its `=== RUN` and before its `--- FAIL`, not after it.
    verbose = run_log(tmp_path, "go", "test", "-v", "./...")
    assert "=== RUN   TestMean\n    mean_test.go:7: bad\n--- FAIL: TestMean" in verbose
    for printed in (log, verbose):
        parsed = parse_log(printed, root=tmp_path)
        assert parsed is not None
        (only,) = parsed.failures
        assert (only.file, only.line, only.message) == ("gostat/mean_test.go", 7, "bad"), printed


def test_reports_say_where_each_fact_came_from(failing: Path) -> None:
    parsed = parse_log(run_log(failing, sys.executable, "-m", "pytest", "-p", "no:cacheprovider"))
    summary = (
        "Failing tests: test_add, test_mul\nProbable cause: add subtracts and mul adds.\n"
        "Suspected files: calc.py:2, calc.py:6, nowhere.py:1\nSuggested fix: use + in add and * in mul\n"
        "Confidence: high"
    )
    report = build_report("job-1", "completed", parsed, summary, failing)
    data = report.to_dict()
    assert data["schema"] == "pedro.triage/1" and len(data["failing_tests"]) == 2
    assert all(t["source"] == "parser" for t in data["failing_tests"])
    assert data["root_cause"] == {"text": "add subtracts and mul adds.", "source": "model"}
    assert {"file": "calc.py", "line": 6, "source": "model"} in data["suspected_files"]
    assert not any(s["file"] == "nowhere.py" for s in data["suspected_files"])  # an invented path is no fact
    assert data["confidence"] == "high"
    lines = github_annotations(report)
    assert lines[0].startswith("::error file=test_calc.py,line=5,title=test_calc.py%3A%3Atest_add::")
    sarif = to_sarif(report)
    assert sarif["version"] == "2.1.0" and len(sarif["runs"][0]["results"]) == 2


def test_pedro_triage_in_github_actions(failing: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    log = run_log(failing, sys.executable, "-m", "pytest", "-p", "no:cacheprovider")
    answer = "TASK COMPLETE\nFailing tests: test_add, test_mul\nProbable cause: wrong operators in calc.py."
    server = stub_server([answer])
    step_summary = failing.parent / "step-summary.md"
    env = {**cli_env, "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(step_summary)}
    report = failing.parent / "triage.json"
    proc = pedro(
        "triage", "--no-input", "--base-url", f"{server.url}/v1", "--model", "m", "--report", str(report),
        "--sarif", str(failing.parent / "triage.sarif"), env=env, cwd=failing, stdin=log + "caf\xe9\n",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "::error file=test_calc.py,line=5,title=test_calc.py%3A%3Atest_add::" in proc.stderr
    assert "::error file=test_calc.py,line=9,title=test_calc.py%3A%3Atest_mul::" in proc.stderr
    data = json.loads(report.read_text())
    assert [t["name"] for t in data["failing_tests"]] == ["test_calc.py::test_add", "test_calc.py::test_mul"]
    assert data["root_cause"]["text"] == "wrong operators in calc.py." and data["root_cause"]["source"] == "model"
    markdown = step_summary.read_text()
    assert "`test_calc.py::test_add`" in markdown and "`test_calc.py::test_mul`" in markdown
    assert json.loads((failing.parent / "triage.sarif").read_text())["version"] == "2.1.0"
    # The model was given what the parser found.
    assert "test_calc.py::test_mul (test_calc.py:9)" in json.dumps(server.requests[0]["messages"])


def test_a_model_that_says_nothing_still_gives_the_parsed_report(
    failing: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    log = run_log(failing, sys.executable, "-m", "pytest", "-p", "no:cacheprovider")
    server = stub_server(["hmm", "hmm?", "hmm!"])
    report = failing.parent / "triage.md"
    proc = pedro(
        "triage", "--no-input", "--base-url", f"{server.url}/v1", "--model", "m", "--report", str(report),
        env=cli_env, cwd=failing, stdin=log,
    )  # fmt: skip
    assert proc.returncode == 4, proc.stderr
    text = report.read_text()
    assert "`test_calc.py::test_add`" in text and "test_calc.py:5" in text and "Probable cause" not in text


def test_a_latin_1_byte_in_the_log_is_read_with_replacement(
    failing: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    log = run_log(failing, sys.executable, "-m", "pytest", "-p", "no:cacheprovider").encode() + b"caf\xe9 \xff\n"
    server = stub_server(["TASK COMPLETE\nProbable cause: add subtracts."])
    proc = subprocess.run(
        [sys.executable, "-m", "pedro", "triage", "--no-input", "--base-url", f"{server.url}/v1", "--model", "m"],
        cwd=failing, env=cli_env, input=log, capture_output=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"internal error" not in proc.stderr
    assert "caf\ufffd" in json.dumps(server.requests[0]["messages"], ensure_ascii=False)


def test_triage_without_a_model_reads_a_log_outside_any_git_repository(tmp_path: Path, cli_env: dict[str, str]) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    log = "FAILED test_x.py::test_a - assert 1 == 2\n=== 1 failed in 0.1s ===\n"
    proc = subprocess.run(
        [sys.executable, "-m", "pedro", "triage", "--no-model"],
        cwd=folder, env=cli_env, input=log, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 5, proc.stderr  # failing tests found, no model asked
    assert "| `test_x.py::test_a` |" in proc.stdout and "not inside a git repository" not in proc.stderr
    # Review compares with a git base: outside git it still says so, as before.
    review = subprocess.run(
        [sys.executable, "-m", "pedro", "review", "--no-model"],
        cwd=folder, env=cli_env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert review.returncode == 2 and "not inside a git repository" in review.stderr, review.stderr
