"""How repair runs a candidate's tests: a warm forked pytest (or the command held to the failing tests), bounded in
time, isolated from one candidate to the next, checked against the test command before it is trusted."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from repo_util import PYTEST, commit_files, js_runner_modules
from test_repairer import repair

from pedro.evidence import ProjectTests
from pedro.repair.evaluate import (
    CPU_SLACK_S,
    TIMEOUT_FACTOR,
    TIMEOUT_SLACK_S,
    CandidateRuns,
    WarmStart,
    turned_off_plugins,
)
from pedro.repair.judge import judge
from pedro.repair.warm_pytest import _Reading
from pedro.tools.base import ToolContext
from pedro.tools.test import RunTestsArgs, TestRun

CALC = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
TESTS = (
    "from calc import add, mul\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_mul():\n    assert mul(2, 3) == 6\n"
)


def runs(
    repo: Path, tmp_path: Path, command: str = PYTEST, *, use_warm: bool = True
) -> tuple[CandidateRuns, list[str]]:
    tests = ProjectTests(RunTestsArgs(command=command), ToolContext(root=repo))
    baseline = tests.run()
    notices: list[str] = []
    folder = tmp_path / "repair"
    folder.mkdir()
    candidate_runs = CandidateRuns(tests, baseline, notices.append, folder)
    candidate_runs.start(sorted(baseline.failing), use_warm=use_warm)
    return candidate_runs, notices


def test_a_warm_pytest_runs_only_the_failing_tests_on_the_code_as_it_is_on_disk(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    candidate_runs, notices = runs(repo, tmp_path)
    try:
        assert candidate_runs.warm is not None and notices == []
        first = candidate_runs.first(["test_calc.py::test_add"])
        assert first.failing == {"test_calc.py::test_add"} and first.report is not None and first.report.total == 1
        # The child imports the project's module afresh: the edit is seen at once, whatever the bytecode cache says.
        (repo / "calc.py").write_text(CALC.replace("a - b", "a + b"))
        again = candidate_runs.first(["test_calc.py::test_add"])
        assert again.passed and again.report is not None and again.report.passing == ["test_calc.py::test_add"]
        everything = candidate_runs.known(["test_calc.py::test_add", "test_calc.py::test_mul"])
        assert everything.passed and everything.report is not None and everything.report.total == 2
    finally:
        candidate_runs.close()


def test_the_warm_pytests_rehearsal_leaves_nothing_a_candidates_tests_can_see(repo: Path, tmp_path: Path) -> None:
    # The server rehearses a session before the first candidate (a passing and a failing test of its own), so
    # that no child pays for what every child would; the project's tests must still find the interpreter as the
    # plain command leaves it: no rehearsal module, no rehearsal folder on the path.
    probe = (
        "import sys\n\n\n"
        "def test_clean():\n"
        "    assert not [m for m in sys.modules if 'rehearsal' in m]\n"
        "    assert not [p for p in sys.path if 'pedro-warm-' in p]\n"
    )
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS, "test_clean.py": probe})
    candidate_runs, notices = runs(repo, tmp_path)
    try:
        assert candidate_runs.warm is not None and notices == []
        clean = candidate_runs.known(["test_clean.py::test_clean"])
        assert clean.passed, clean.summary
    finally:
        candidate_runs.close()


@pytest.mark.parametrize("how", ["option", "PYTEST_ADDOPTS", "left on"])
def test_a_plugin_the_command_turns_off_is_not_imported_by_the_warm_pytest_either(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    # `-p no:NAME`, in the command or in PYTEST_ADDOPTS, keeps pytest from loading an installed plugin: the warm pytest
    # leaves it unimported as well, rather than paying for an import (hypothesis's: a second) no run uses. Left on, it
    # is there, as in the command's own run.
    probe = "import sys\n\n\ndef test_plugin():\n    assert '_hypothesis_pytestplugin' not in sys.modules\n"
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS, "test_plugin.py": probe})
    command = PYTEST if how == "option" else PYTEST.replace(" -p no:hypothesispytest", "")
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:hypothesispytest" if how == "PYTEST_ADDOPTS" else "")
    candidate_runs, notices = runs(repo, tmp_path, command)
    try:
        assert candidate_runs.warm is not None and notices == []
        assert candidate_runs.known(["test_plugin.py::test_plugin"]).passed is (how != "left on")
    finally:
        candidate_runs.close()


def test_the_plugins_a_command_turns_off_are_read_from_its_options() -> None:
    options = ["-q", "-p", "no:hypothesispytest", "-pno:xdist", "-p", "myplugin", "--pdb", "-p"]
    assert turned_off_plugins(options) == ["hypothesispytest", "xdist"]


SHOP_TESTS = TESTS.replace("from calc import", "from shop.calc import")


def shop(repo: Path, folder: str = "", **more: str) -> None:
    """CALC as the package `shop` (in `folder`), tested from tests/ (no __init__.py)."""
    package = {f"{folder}shop/__init__.py": "", f"{folder}shop/calc.py": CALC}
    commit_files(repo, {**package, "tests/test_calc.py": SHOP_TESTS, **more})


def served_warm_where_add_fails(repo: Path, tmp_path: Path, command: str) -> None:
    """The warm pytest serves `command`, and its child finds test_add failing, as the code on disk makes it."""
    candidate_runs, notices = runs(repo, tmp_path, command)
    try:
        assert candidate_runs.warm is not None and notices == []
        assert candidate_runs.first(["tests/test_calc.py::test_add"]).failing == {"tests/test_calc.py::test_add"}
    finally:
        candidate_runs.close()


def test_a_package_beside_a_tests_folder_is_found_as_python_m_pytest_finds_it(repo: Path, tmp_path: Path) -> None:
    # `python -m pytest` puts the working folder on sys.path, which is how tests/ (no __init__.py) imports the
    # package beside it; the warm pytest does the same, so it serves such a project rather than falling back.
    shop(repo)
    served_warm_where_add_fails(repo, tmp_path, f"{PYTEST} tests/test_calc.py::test_add")


def test_the_projects_own_package_installed_as_well_is_not_what_the_warm_pytest_tests(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A released copy of the package, with the bug fixed, installed where Python finds it (the project's own virtual
    # environment): `python -m pytest` in the project imports the project's own; so does each warm child.
    shop(repo, **{".gitignore": ".venv/\n"})
    installed = repo / ".venv" / "lib" / "site-packages"
    (installed / "shop").mkdir(parents=True)
    (installed / "shop" / "__init__.py").write_text("")
    (installed / "shop" / "calc.py").write_text(CALC.replace("a - b", "a + b"))
    monkeypatch.setenv("PYTHONPATH", str(installed))
    served_warm_where_add_fails(repo, tmp_path, f"{PYTEST} tests/test_calc.py::test_add")


def test_a_src_layout_whose_command_sets_the_path_is_served_warm(repo: Path, tmp_path: Path) -> None:
    shop(repo, "src/")
    served_warm_where_add_fails(repo, tmp_path, f"PYTHONPATH=src {PYTEST} tests/test_calc.py")


def test_a_pytest_that_is_a_shell_shim_is_served_warm_by_the_python_on_its_path(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A version manager's `pytest` is a shell script that finds the real one: its first line names no Python, so
    # the `python3` on the same PATH runs the warm pytest, once its verdicts agree with the command's.
    bin_dir = tmp_path / "shims"
    bin_dir.mkdir()
    for name, line in (("pytest", f'exec {sys.executable} -m pytest "$@"'), ("python3", f'exec {sys.executable} "$@"')):
        (bin_dir / name).write_text(f"#!/usr/bin/env bash\n{line}\n")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    candidate_runs, notices = runs(repo, tmp_path, "pytest -q -p no:cacheprovider")
    try:
        assert candidate_runs.warm is not None and notices == [], notices
        assert candidate_runs.first(["test_calc.py::test_add"]).failing == {"test_calc.py::test_add"}
    finally:
        candidate_runs.close()


def test_nothing_of_one_candidate_reaches_the_next(repo: Path, tmp_path: Path) -> None:
    # Each run appends to a module-level list and fails unless it is the first to do so in its process.
    state = "seen = []\n\n\ndef mark():\n    seen.append(1)\n    return len(seen)\n"
    test = "from state import mark\n\n\ndef test_first_in_its_process():\n    assert mark() == 1\n    assert False\n"
    commit_files(repo, {"state.py": state, "test_state.py": test})
    candidate_runs, _ = runs(repo, tmp_path)
    try:
        assert candidate_runs.warm is not None
        for _ in range(3):
            run = candidate_runs.first(["test_state.py::test_first_in_its_process"])
            failure = run.report.failures[0] if run.report is not None else None
            assert failure is not None and "assert False" in failure.details, run.summary
    finally:
        candidate_runs.close()


def outcomes_as_calc_is_edited(
    candidate_runs: CandidateRuns, repo: Path, runs: int = 6, *, same_stamp: bool = False
) -> list[bool]:
    """Whether test_add passes in each of `runs` runs in a row, with add() broken and fixed in turn before each; with
    `same_stamp`, each edit keeps the file's size and time, as an edit within a file system's time grain does."""
    passed = []
    for index in range(runs):
        text = CALC.replace("a - b", "a + b") if index % 2 else CALC
        if same_stamp:
            rewrite_keeping_stamp(repo / "calc.py", text)
        else:
            (repo / "calc.py").write_text(text)
        passed.append(candidate_runs.first(["test_calc.py::test_add"]).passed)
    return passed


def rewrite_keeping_stamp(path: Path, text: str) -> None:
    """`path` given `text`, its modification time set back to what it was."""
    stamp = path.stat()
    path.write_text(text)
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))


def test_the_run_every_candidate_repeats_is_set_up_once_and_still_sees_each_edit(repo: Path, tmp_path: Path) -> None:
    # pytest's own set-up (the options, the conftests, every plugin configured, their fixtures read) is done once in
    # the warm pytest for the run each candidate repeats; each child still imports the code as it is on disk.
    conftest = (
        "from pathlib import Path\n\n\ndef pytest_configure(config):\n"
        "    with Path(__file__).with_name('configured.log').open('a') as log:\n        log.write('configured\\n')\n"
    )
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS, "conftest.py": conftest})
    candidate_runs, notices = runs(repo, tmp_path)
    try:
        assert candidate_runs.warm is not None and notices == []
        before = (repo / "configured.log").read_text().count("configured")
        assert outcomes_as_calc_is_edited(candidate_runs, repo) == [False, True] * 3
        # Configured in none of the six runs' children: set up once in the warm pytest, before them.
        assert (repo / "configured.log").read_text().count("configured") == before
    finally:
        candidate_runs.close()


def test_a_set_up_whose_verdict_differs_from_a_plain_childs_is_not_used(repo: Path, tmp_path: Path) -> None:
    # This conftest's configuring must happen in the process that runs the tests: set up in the warm pytest, the
    # test fails there and passes in a plain child, so the set-up is dropped and each candidate runs plainly.
    conftest = "import os\n\n\ndef pytest_configure(config):\n    config.configured_in = os.getpid()\n"
    tests = (
        "import os\n"
        + TESTS
        + ("\n\ndef test_configured_here(pytestconfig):\n    assert pytestconfig.configured_in == os.getpid()\n")
    )
    commit_files(repo, {"calc.py": CALC, "test_calc.py": tests, "conftest.py": conftest})
    candidate_runs, notices = runs(repo, tmp_path)
    try:
        assert candidate_runs.warm is not None and notices == []
        ids = ["test_calc.py::test_add", "test_calc.py::test_configured_here"]
        failing = [candidate_runs.first(ids).failing for _ in range(3)]
        assert failing == [{"test_calc.py::test_add"}] * 3
    finally:
        candidate_runs.close()


def test_a_conftest_that_imports_the_project_leaves_each_candidate_its_own_import(repo: Path, tmp_path: Path) -> None:
    # Set up in the warm pytest, this conftest would import calc there, and every child would test that stale copy.
    conftest = "import calc\nimport pytest\n\n\n@pytest.fixture\ndef adder():\n    return calc.add\n"
    tests = "def test_add(adder):\n    assert adder(2, 3) == 5\n"
    commit_files(repo, {"calc.py": CALC, "test_calc.py": tests, "conftest.py": conftest})
    candidate_runs, notices = runs(repo, tmp_path)
    try:
        assert candidate_runs.warm is not None and notices == []
        assert outcomes_as_calc_is_edited(candidate_runs, repo, same_stamp=True) == [False, True] * 3
    finally:
        candidate_runs.close()


def test_a_conftest_changed_after_the_set_up_is_read_again(repo: Path, tmp_path: Path) -> None:
    conftest = "import pytest\n\n\n@pytest.fixture\ndef expected():\n    return 5\n"
    tests = "from calc import add\n\n\ndef test_add(expected):\n    assert add(2, 3) == expected\n"
    commit_files(repo, {"calc.py": CALC.replace("a - b", "a + b"), "test_calc.py": tests, "conftest.py": conftest})
    (repo / "calc.py").write_text(CALC)
    candidate_runs, _ = runs(repo, tmp_path)
    try:
        assert candidate_runs.warm is not None
        (repo / "calc.py").write_text(CALC.replace("a - b", "a + b"))
        assert [candidate_runs.first(["test_calc.py::test_add"]).passed for _ in range(3)] == [True] * 3
        (repo / "conftest.py").write_text(conftest.replace("return 5", "return 6"))
        again = candidate_runs.first(["test_calc.py::test_add"])
        assert again.failing == {"test_calc.py::test_add"}, again.summary
    finally:
        candidate_runs.close()


def test_a_test_file_changed_after_the_set_up_is_read_again(repo: Path, tmp_path: Path) -> None:
    # The warm pytest rewrites the failing tests' asserts once; a child takes that code only while the file reads
    # the same, whatever its time and size say.
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    candidate_runs, _ = runs(repo, tmp_path)
    try:
        assert [candidate_runs.first(["test_calc.py::test_add"]).passed for _ in range(3)] == [False] * 3
        rewrite_keeping_stamp(repo / "test_calc.py", TESTS.replace("add(2, 3) == 5", "add(2, 3) <= 5"))
        again = candidate_runs.first(["test_calc.py::test_add"])
        assert again.passed, again.summary
    finally:
        candidate_runs.close()


def test_a_failures_report_shows_the_statement_as_the_test_file_reads_now(repo: Path, tmp_path: Path) -> None:
    # The warm pytest parses the failing tests' files once for the statements a failure's report shows; a test file
    # rewritten since (its time and size kept) is parsed afresh: the statement shown is the one that failed.
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    candidate_runs, _ = runs(repo, tmp_path)
    try:
        shown = [failure_details(candidate_runs.first(["test_calc.py::test_add"])) for _ in range(3)]
        assert all(">       assert add(2, 3) == 5" in details for details in shown), shown[0]
        # The assert now spans the line where the old file's next statement (`def test_mul`) began: a parse of the
        # old text would end the statement shown there, at its first line.
        spread = TESTS.replace("assert add(2, 3) == 5", "assert add(2, 3) == (\n\n\n        5\n    )")
        rewrite_keeping_stamp(repo / "test_calc.py", spread)
        details = failure_details(candidate_runs.first(["test_calc.py::test_add"]))
        assert ">       assert add(2, 3) == (" in details and "\n            5\n        )\n" in details, details
    finally:
        candidate_runs.close()


def failure_details(run: TestRun) -> str:
    assert run.report is not None and len(run.report.failures) == 1
    return run.report.failures[0].details


def test_the_submodules_the_project_imports_are_loaded_once_before_any_candidate(repo: Path, tmp_path: Path) -> None:
    # A module first imported in a child is compiled from its source there, since a child reads no bytecode cache
    # but its own: what the project imports from the standard library or an installed package, submodules too, is
    # imported in the warm pytest before any child.
    uses = "from xml.dom import minidom\n\n\ndef add(a, b):\n    return a - b\n"
    probe = "import sys\n\n\ndef test_loaded():\n    assert 'xml.dom.minidom' in sys.modules\n"
    commit_files(repo, {"calc.py": uses, "test_calc.py": TESTS, "test_loaded.py": probe})
    candidate_runs, notices = runs(repo, tmp_path, f"{PYTEST} test_calc.py::test_add")
    try:
        assert candidate_runs.warm is not None and notices == []
        loaded = candidate_runs.first(["test_loaded.py::test_loaded"], repeated=False)
        assert loaded.passed, loaded.summary
    finally:
        candidate_runs.close()


@pytest.mark.parametrize("runner", ["pytest", "unittest"])
def test_a_project_file_a_candidate_left_as_it_was_is_not_compiled_again(
    repo: Path, tmp_path: Path, runner: str
) -> None:
    # The warm runner compiles the project's files once; a child takes that code for a file that reads byte for byte
    # the same, and compiles the one a candidate changed, whose edit it runs.
    probe = (
        "import importlib\nimport sys\nimport unittest\n\n\nclass Compiled(unittest.TestCase):\n"
        "    def test_helper(self):\n        compiled = []\n"
        "        sys.addaudithook(lambda event, args: compiled.append(str(args[1])) if event == 'compile' else None)\n"
        "        helper = importlib.import_module('helper')\n"
        "        self.assertEqual(helper.VALUE, 1)\n"
        "        self.assertEqual([name for name in compiled if name.endswith('helper.py')], [])\n"
    )
    files = {"calc.py": CALC, "helper.py": "VALUE = 1\n", "test_compiled.py": probe}
    commit_files(repo, {**files, "test_calc.py": TESTS if runner == "pytest" else UNITTEST_TESTS})
    command = f"{PYTEST} test_calc.py" if runner == "pytest" else f"{sys.executable} -m unittest test_calc"
    probe_id = "test_compiled.py::Compiled::test_helper" if runner == "pytest" else "test_compiled.Compiled.test_helper"
    candidate_runs, notices = runs(repo, tmp_path, command)
    try:
        assert candidate_runs.warm is not None and notices == []
        same = candidate_runs.first([probe_id], repeated=False)
        assert same.passed, same.summary
        (repo / "helper.py").write_text("VALUE = 2\n")
        changed = candidate_runs.first([probe_id], repeated=False)
        [failure] = changed.report.failures if changed.report is not None else []
        assert "AssertionError: 2 != 1" in failure.message, failure.message
    finally:
        candidate_runs.close()


def test_the_projects_regular_expressions_and_imports_are_read_from_its_files(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "words.py").write_text(
        "import re\nimport xml.dom\nfrom email import message\nfrom json import *\n"
        "WORD = re.compile(r'\\w+', re.I | re.M)\n"
        "BYTES = re.compile(b'[0-9]', flags=re.A)\n"
        "LATER = re.compile(PART)\n"
        "ODD = re.compile('x', FLAGS)\n"
    )
    reading = _Reading().read(str(tmp_path))
    assert list(reading.patterns) == [(r"\w+", int(re.I | re.M)), (b"[0-9]", int(re.A))]
    assert reading.imported == {"re", "xml.dom", "email", "email.message", "json"}
    assert reading.own == {"pkg"}


def test_a_candidate_that_loops_is_stopped_at_a_multiple_of_the_original_time(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    candidate_runs, _ = runs(repo, tmp_path)
    try:
        assert candidate_runs.timeout_s is not None and candidate_runs.timeout_s < 30
        # The limit is a multiple of the original code's own run of the failing test, plus a little.
        assert candidate_runs.timeout_s > TIMEOUT_SLACK_S
        assert (candidate_runs.timeout_s - TIMEOUT_SLACK_S) / TIMEOUT_FACTOR < 5
        (repo / "calc.py").write_text(CALC.replace("return a - b", "while True:\n        pass"))
        run = candidate_runs.first(["test_calc.py::test_add"])
        assert run.result.outcome == "timeout"
        assert run.result.duration_s < candidate_runs.timeout_s + 2
    finally:
        candidate_runs.close()


def test_a_candidate_that_spins_is_stopped_at_a_multiple_of_the_original_cpu_time(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    candidate_runs, _ = runs(repo, tmp_path)
    try:
        warm = candidate_runs.warm
        assert warm is not None and warm.cpu_limit_s is not None
        assert CPU_SLACK_S < warm.cpu_limit_s < 5
        candidate_runs.timeout_s = 60.0  # only the CPU limit can stop it in time
        (repo / "calc.py").write_text(CALC.replace("return a - b", "while True:\n        pass"))
        run = candidate_runs.first(["test_calc.py::test_add"])
        assert run.result.outcome == "timeout"
        # The system's CPU accounting (ticks) may read a little under the limit its timer fired at.
        assert run.result.cpu_s is not None and run.result.cpu_s >= 0.8 * warm.cpu_limit_s
        assert run.result.duration_s < 30
        verdict, why = judge(candidate_runs.baseline, run, frozenset(["test_calc.py::test_add"]))
        assert verdict == "fails" and "on the CPU" in why
        # A run that waits uses no CPU: on a busy machine, a candidate slowed as much is not stopped early.
        waits = f"import time\n    time.sleep({warm.cpu_limit_s + 0.5})\n    return a + b"
        (repo / "calc.py").write_text(CALC.replace("return a - b", waits))
        assert candidate_runs.first(["test_calc.py::test_add"]).passed
        # Runs measured otherwise (every known test) are bounded by their time alone.
        assert candidate_runs.known(["test_calc.py::test_add", "test_calc.py::test_mul"]).passed
    finally:
        candidate_runs.close()


def test_tests_that_behave_otherwise_in_a_forked_process_fall_back_to_the_plain_command_once(
    repo: Path, tmp_path: Path
) -> None:
    # A test that looks at how it was started: it passes under the test command and fails in the warm child.
    test = TESTS + (
        "\n\ndef test_started_as_pytest():\n    import sys\n\n"
        "    assert sys.argv[0].endswith(('__main__.py', 'pytest', 'py.test'))\n"
    )
    commit_files(repo, {"calc.py": CALC, "test_calc.py": test})
    candidate_runs, notices = runs(repo, tmp_path)
    try:
        assert candidate_runs.warm is None
        assert len(notices) == 1 and "plain test command" in notices[0] and "fork" in notices[0]
        assert candidate_runs.how == "the test command held to the failing tests"
        run = candidate_runs.first(["test_calc.py::test_add"])
        assert run.failing == {"test_calc.py::test_add"} and run.report is not None and run.report.total == 1
    finally:
        candidate_runs.close()


UNITTEST_TESTS = (
    "import unittest\n\nfrom calc import add, mul\n\n\nclass CalcTest(unittest.TestCase):\n"
    "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n"
    "    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n"
)


@pytest.mark.parametrize("warm", [True, False])
def test_python_s_own_runner_is_held_to_the_failing_tests(repo: Path, tmp_path: Path, warm: bool) -> None:
    # Warm (a unittest process forked per candidate) or the command held to the failing ids: the same account.
    commit_files(repo, {"calc.py": CALC, "test_calc.py": UNITTEST_TESTS})
    candidate_runs, notices = runs(repo, tmp_path, f"{sys.executable} -m unittest", use_warm=warm)
    try:
        baseline = candidate_runs.baseline
        assert baseline.report is not None and baseline.report.runner == "unittest"
        assert baseline.failing == {"test_calc.CalcTest.test_add"}
        assert baseline.report.passing == ["test_calc.CalcTest.test_mul"] and baseline.report.names_tests
        assert (candidate_runs.warm is not None) is warm and notices == []
        run = candidate_runs.first(["test_calc.CalcTest.test_add"])
        assert run.report is not None and run.report.total == 1 and run.failing == {"test_calc.CalcTest.test_add"}
        failure = run.report.failures[0]
        assert failure.location.endswith("test_calc.py:8") and "AssertionError: -1 != 5" in failure.message
    finally:
        candidate_runs.close()


def test_python_s_own_runner_is_served_warm_on_the_code_as_it_is_on_disk(repo: Path, tmp_path: Path) -> None:
    # Each child imports the project afresh, and runs unittest's own program: nothing of pytest is loaded.
    probe = "import sys\nimport unittest\n\n\nclass Clean(unittest.TestCase):\n"
    probe += "    def test_no_pytest(self):\n        self.assertNotIn('_pytest', sys.modules)\n"
    commit_files(repo, {"calc.py": CALC, "test_calc.py": UNITTEST_TESTS, "test_clean.py": probe})
    candidate_runs, notices = runs(repo, tmp_path, f"{sys.executable} -m unittest test_calc")
    try:
        assert candidate_runs.warm is not None and notices == [], notices
        assert candidate_runs.how.startswith("a warm unittest, forked per candidate")
        (repo / "calc.py").write_text(CALC.replace("a - b", "a + b"))
        fixed = candidate_runs.first(["test_calc.CalcTest.test_add"])
        assert fixed.passed and fixed.report is not None and fixed.report.passing == ["test_calc.CalcTest.test_add"]
        (repo / "calc.py").write_text(CALC.replace("a - b", "a * b"))
        assert candidate_runs.first(["test_calc.CalcTest.test_add"]).failing == {"test_calc.CalcTest.test_add"}
        clean = candidate_runs.first(["test_clean.Clean.test_no_pytest"], repeated=False)
        assert clean.passed, clean.summary
    finally:
        candidate_runs.close()


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ("discover -s .", "discovers its tests"),
        ("-k add", "does not take (-k)"),
    ],
)
def test_a_unittest_command_the_warm_runner_cannot_read_runs_plainly(
    repo: Path, tmp_path: Path, options: str, why: str
) -> None:
    commit_files(repo, {"calc.py": CALC, "test_calc.py": UNITTEST_TESTS})
    candidate_runs, notices = runs(repo, tmp_path, f"{sys.executable} -m unittest {options}")
    try:
        assert candidate_runs.warm is None and why in notices[0], notices
    finally:
        candidate_runs.close()


@pytest.mark.parametrize("runner", ["jest", "vitest"])
def test_jest_and_vitest_given_as_npm_test_are_held_to_the_failing_tests(
    repo: Path, tmp_path: Path, runner: str
) -> None:
    modules = js_runner_modules(runner)
    vitest = runner == "vitest"
    package = {"name": "calc", "scripts": {"test": runner}, **({"type": "module"} if vitest else {})}
    calc = "function add(a, b) {\n  return a - b;\n}\nfunction mul(a, b) {\n  return a * b;\n}\n"
    tests = (
        ("import { describe, test, expect } from 'vitest';\nimport { add, mul } from './calc.js';\n" if vitest else "")
        + ("" if vitest else "const { add, mul } = require('./calc');\n")
        + "describe('calc', () => {\n  test('add', () => { expect(add(2, 3)).toBe(5); });\n"
        + "  test('mul', () => { expect(mul(2, 3)).toBe(6); });\n});\n"
    )
    exports = "export { add, mul };\n" if vitest else "module.exports = { add, mul };\n"
    commit_files(repo, {"package.json": json.dumps(package), "calc.js": calc + exports, "calc.test.js": tests})
    (repo / "node_modules").symlink_to(modules)
    candidate_runs, notices = runs(repo, tmp_path, "npm test")
    try:
        assert candidate_runs.baseline.failing == {"calc.test.js > calc > add"}
        assert candidate_runs.how == "the test command held to the failing tests", notices
        run = candidate_runs.first(["calc.test.js > calc > add"])
        assert run.report is not None and (run.report.passed, run.report.failed) == (0, 1)
    finally:
        candidate_runs.close()


def test_unittest_names_every_test_even_doctests_and_tests_that_warn(repo: Path, tmp_path: Path) -> None:
    # A warning a test writes lands between its ` ... ` and its `ok`; a doctest load_tests adds has two lines.
    # Both count among the passing tests by name, or no run could be compared test by test.
    calc = '"""Arithmetic."""\n\nimport warnings\n\n\ndef square(n):\n'
    calc += '    """The square.\n\n    >>> square(3)\n    9\n    """\n    return n * n\n\n\n'
    calc += "def mul(a, b):\n    warnings.warn('mul is old', DeprecationWarning)\n    return a * b\n"
    calc += "\n\ndef add(a, b):\n    return a - b\n"
    tests = (
        "import doctest\nimport unittest\nimport warnings\n\nimport calc\n\n\n"
        "def load_tests(loader, tests, ignore):\n    tests.addTests(doctest.DocTestSuite(calc))\n    return tests\n\n\n"
        "class CalcTest(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(calc.add(2, 3), 5)\n\n"
        "    def test_mul(self):\n        warnings.simplefilter('always')\n"
        "        self.assertEqual(calc.mul(2, 3), 6)\n"
    )
    commit_files(repo, {"calc.py": calc, "test_calc.py": tests})
    command = f"{sys.executable} -m unittest -v test_calc.CalcTest.test_add"
    candidate_runs, _ = runs(repo, tmp_path, command)
    try:
        report = candidate_runs.first(["test_calc"]).report
        assert report is not None and report.names_tests, report
        assert set(report.passing) == {"test_calc.CalcTest.test_mul", "calc.square"}
        # The doctest runs with its module, but not by its name (naming `calc.square` calls square()): the tests
        # beside the named one that guard each fix are those of its own module.
        assert candidate_runs.beside == ("test_calc.CalcTest.test_mul",)
        guarded = candidate_runs.known(["test_calc.CalcTest.test_add"])
        assert guarded.report is not None and guarded.report.passing == ["test_calc.CalcTest.test_mul"]
        assert guarded.failing == {"test_calc.CalcTest.test_add"}
    finally:
        candidate_runs.close()


def test_a_warm_pytest_started_before_the_baseline_is_the_one_the_candidates_run_in(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    tests = ProjectTests(RunTestsArgs(command=PYTEST), ToolContext(root=repo))
    folder = tmp_path / "repair"
    folder.mkdir()
    early = WarmStart(tests, folder)  # starts on its own thread while the baseline runs
    baseline = tests.run()
    notices: list[str] = []
    candidate_runs = CandidateRuns(tests, baseline, notices.append, folder)
    candidate_runs.early = early
    try:
        candidate_runs.start(sorted(baseline.failing))
        assert candidate_runs.warm is not None and not notices, notices
        assert candidate_runs.how == "a warm pytest, forked per candidate"
        pid = candidate_runs.warm.process.pid
        assert early.take() is None  # taken: the early pytest is the repair's now, not ended with the early start
        assert candidate_runs.first(["test_calc.py::test_add"]).failing == {"test_calc.py::test_add"}
        assert candidate_runs.warm.process.pid == pid and candidate_runs.warm.process.poll() is None
    finally:
        candidate_runs.close()


def test_a_warm_pytest_nobody_takes_is_ended(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    tests = ProjectTests(RunTestsArgs(command=PYTEST), ToolContext(root=repo))
    early = WarmStart(tests, tmp_path)  # the baseline passed, say, and no repair ran
    leader = early._warm.process if early._warm is not None else None
    assert leader is not None and leader.poll() is None
    early.close()
    assert leader.poll() is not None and early.take() is None


def test_no_warm_pytest_starts_early_for_another_runner(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS})
    tests = ProjectTests(RunTestsArgs(command="go test ./..."), ToolContext(root=repo))
    early = WarmStart(tests, tmp_path)
    assert early.take() is None and early.error == "the test runner is neither pytest nor python -m unittest"


@pytest.mark.parametrize("runner", ["pytest", "unittest"])
def test_with_a_limit_per_test_a_test_that_hangs_fails_where_it_loops_and_the_others_still_run(
    repo: Path, tmp_path: Path, runner: str
) -> None:
    hangs = CALC.replace("return a - b", "while b:\n        a += 0\n    return a")
    commit_files(repo, {"calc.py": hangs, "test_calc.py": TESTS if runner == "pytest" else UNITTEST_TESTS})
    command = f"{PYTEST} test_calc.py" if runner == "pytest" else f"{sys.executable} -m unittest test_calc"
    tests = ProjectTests(RunTestsArgs(command=command), ToolContext(root=repo))
    early = WarmStart(tests, tmp_path)
    warm = early.take()
    assert warm is not None and warm.launch.paths == (("test_calc.py",) if runner == "pytest" else ("test_calc",))
    try:
        warm.per_test_s = 0.5
        run = warm.run(warm.launch.paths, timeout=30)
        mul, add = ("test_calc.py::test_mul", "test_calc.py::test_add")
        if runner == "unittest":
            mul, add = ("test_calc.CalcTest.test_mul", "test_calc.CalcTest.test_add")
        assert run.report is not None and run.report.passing == [mul]
        [hung] = run.report.failures
        assert hung.test_id == add and "TestHung: the test still ran" in hung.message, hung
        # The frame where it loops: `while b:`.
        assert ("calc.py:2: in add" if runner == "pytest" else 'calc.py", line 2, in add') in hung.details
    finally:
        warm.close()


# python-dotenv's bug: a key read from a line that starts with a byte order mark keeps it. Starting the key one
# character later passes the failing case and breaks every other one.
KEYS = 'def key_of(line):\n    start = 0\n    return line[start : line.index("=")]\n'
KEY_TESTS = (
    "import pytest\n\nfrom keys import key_of\n\n\n"
    '@pytest.mark.parametrize(("line", "key"), [("\\ufeffa=b", "a"), ("a=b", "a"), ("bb=c", "bb")],'
    ' ids=["bom", "plain", "long"])\n'
    "def test_key(line, key):\n    assert key_of(line) == key\n"
)


@pytest.mark.parametrize("use_warm", [True, False])
def test_a_quoted_parametrized_id_is_held_to_and_guarded_by_the_tests_beside_it(
    repo: Path, tmp_path: Path, use_warm: bool
) -> None:
    # The brackets of a node id are text between single quotes: the command is pytest's, which can be held to
    # named tests, and the file's other cases guard each fix.
    commit_files(repo, {"keys.py": KEYS, "test_keys.py": KEY_TESTS})
    candidate_runs, _ = runs(repo, tmp_path, f"{PYTEST} 'test_keys.py::test_key[bom]'", use_warm=use_warm)
    try:
        assert candidate_runs.beside == ("test_keys.py::test_key[long]", "test_keys.py::test_key[plain]")
    finally:
        candidate_runs.close()


def test_a_variant_that_breaks_the_cases_beside_a_quoted_parametrized_id_is_no_fix(repo: Path) -> None:
    # `start = 0` → `start = 1` passes the failing case: the file's other cases, run beside it, refuse it.
    commit_files(repo, {"keys.py": KEYS, "test_keys.py": KEY_TESTS})
    command = f"{PYTEST} 'test_keys.py::test_key[bom]'"
    _, _, events = repair(repo, [], mutants=40, candidates=0, command=command)
    shifted = [dict(e.data) for e in events if e.type == "repair.candidate" and e.data.get("change") == "`0` → `1`"]
    assert shifted and shifted[0]["status"] == "breaks", shifted
    assert "start = 1" not in (repo / "keys.py").read_text()


def test_a_project_that_makes_warnings_errors_is_served_warm(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The warm pytest imports the installed plugins (xdist here) before any child's pytest can mark them for assert
    # rewriting; pytest warns so in each child, `filterwarnings = error` made that an error before any test ran, and
    # every candidate of such a project ran the plain command.
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:hypothesispytest -p no:anyio")  # this suite turns xdist off too
    ini = "[pytest]\nfilterwarnings =\n    error\n"
    commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS, "pytest.ini": ini})
    candidate_runs, notices = runs(repo, tmp_path, f"{sys.executable} -m pytest -q -p no:cacheprovider")
    try:
        assert candidate_runs.warm is not None and notices == []
        assert candidate_runs.first(["test_calc.py::test_add"]).failing == {"test_calc.py::test_add"}
    finally:
        candidate_runs.close()
