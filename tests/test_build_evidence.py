"""Builds and debug jobs judged against their baseline, through the real `pedro` process: the description is the job,
failures that were there before are named and not held against it, and every job ends in bounded time."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, fenced, pedro
from repo_util import PYTEST, git

from pedro.evidence import TestStates, compare

CALC = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n"
TESTS = (
    "from calc import add, mul\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_mul():\n    assert mul(2, 3) == 6\n"
)
ADD_SUB = fenced(
    "code_edit",
    {"path": "calc.py", "old": "def mul(a, b):", "new": "def sub(a, b):\n    return a - b\n\n\ndef mul(a, b):"},
)
DONE = "TASK COMPLETE\nsub() added"


@pytest.fixture
def mul_repo(repo: Path) -> Path:
    """A repository whose mul() adds: its test fails before any job, and has nothing to do with the request."""
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    return repo


@pytest.fixture
def env(cli_env: dict[str, str]) -> dict[str, str]:
    return {**cli_env, "PEDRO_AGENT__TEST_COMMAND": PYTEST}


def debug(server: Any, repo: Path, env: dict[str, str], description: str) -> Any:
    """`pedro debug --test PYTEST --json` against the stub server, never prompting."""
    return pedro(
        "debug", "--test", PYTEST, "-d", description, "--backend", "openai", "--base-url", f"{server.url}/v1",
        "--model", "m", "--no-input", "--json", env=env, cwd=repo,
    )  # fmt: skip


def events_of(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def finished(stdout: str) -> dict[str, Any]:
    return [event for event in events_of(stdout) if event["type"] == "job.finished"][-1]


def test_a_build_does_what_was_asked_and_names_the_failure_it_found(
    mul_repo: Path, stub_server: Any, env: dict[str, str]
) -> None:
    server = stub_server([ADD_SUB, DONE])
    proc = build(server, mul_repo, env, "--json", description="Add a function sub(a, b) to calc.py")
    assert proc.returncode == 0, proc.stderr
    events = events_of(proc.stdout)
    assert not [e for e in events if e["type"].startswith("repair.")]  # mul's failure is not the build's task
    assert "def sub(a, b):" in (mul_repo / "calc.py").read_text()
    end = finished(proc.stdout)
    assert end["reason"] == "completed"
    assert "1 test failed before this job and still fails: test_calc.py::test_mul" in end["summary"]
    evidence = end["evidence"]
    assert evidence["baseline"] == {"passed": ["test_calc.py::test_add"], "failed": ["test_calc.py::test_mul"]}
    assert evidence["verdict"] == {"test_calc.py::test_add": "passing", "test_calc.py::test_mul": "still_failing"}
    assert evidence["holds"] is True
    phases = [e["phase"] for e in events if e["type"] == "tests.run"]
    assert phases == ["baseline", "evidence"]
    job = json.loads((mul_repo / ".pedro" / "jobs" / end["job_id"] / "job.json").read_text())
    assert job["evidence"]["verdict"] == evidence["verdict"]


def test_the_same_build_where_everything_passes_completes(
    mul_repo: Path, stub_server: Any, env: dict[str, str]
) -> None:
    (mul_repo / "calc.py").write_text(CALC.replace("return a + b\n", "return a * b\n").replace("a * b", "a + b", 1))
    git(mul_repo, "commit", "-qam", "mul multiplies")
    server = stub_server([ADD_SUB, DONE])
    proc = build(server, mul_repo, env, "--json", description="Add a function sub(a, b) to calc.py")
    assert proc.returncode == 0, proc.stderr
    end = finished(proc.stdout)
    assert end["reason"] == "completed" and "failed before" not in end["summary"]
    assert set(end["evidence"]["verdict"].values()) == {"passing"}


def test_a_build_that_breaks_a_passing_test_is_finished_by_repair_then_claimed_again(
    mul_repo: Path, stub_server: Any, env: dict[str, str]
) -> None:
    breaks_add = fenced("code_edit", {"path": "calc.py", "old": "def add(a, b):\n    return a + b", "new": (
        "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b"
    )})  # fmt: skip
    fix_add = "```python\ndef add(a, b):\n    return a + b\n```"
    server = stub_server([breaks_add, DONE, fix_add, DONE])
    env = {**env, "PEDRO_REPAIR__MUTANTS": "0"}  # the model's answer finishes the build, not a one-token variant
    proc = build(server, mul_repo, env, "--json", description="Add a function sub(a, b) to calc.py")
    assert proc.returncode == 0, proc.stderr
    events = events_of(proc.stdout)
    types = [e["type"] for e in events]
    assert types.index("repair.started") > types.index("model.completed")  # only after the loop changed things
    started = next(e for e in events if e["type"] == "repair.started")
    assert started["units"] == ["calc.py:1 add"]  # the test the job broke, not mul's old failure
    # Repair's success does not end the build: the model reads it and claims completion once more.
    assert "repaired the failing tests" in server.requests[-1]["messages"][-1]["content"]
    end = finished(proc.stdout)
    assert end["reason"] == "completed" and end["evidence"]["verdict"]["test_calc.py::test_add"] == "passing"
    assert "def sub(a, b):" in (mul_repo / "calc.py").read_text()


def test_a_build_whose_new_test_fails_does_not_complete(mul_repo: Path, stub_server: Any, env: dict[str, str]) -> None:
    add_test = fenced("code_edit", {"path": "test_calc.py", "old": "def test_mul():", "new": (
        "def test_sub():\n    from calc import sub\n    assert sub(5, 3) == 2\n\n\ndef test_mul():"
    )})  # fmt: skip
    env = {**env, "PEDRO_REPAIR__ENABLED": "false"}
    server = stub_server([add_test, DONE, DONE])
    proc = build(server, mul_repo, env, "--json", description="Add a function sub(a, b) to calc.py")
    assert proc.returncode == 1, proc.stderr
    end = finished(proc.stdout)
    assert end["reason"] == "tests_failed"
    assert end["evidence"]["verdict"]["test_calc.py::test_sub"] == "added_failing"
    assert "test_calc.py::test_sub" in end["summary"] and "test_mul" not in end["summary"].split("still fail")[0]
    feedback = server.requests[2]["messages"][-1]["content"]
    assert "These fail because of this job" in feedback and "test_calc.py::test_sub" in feedback
    assert "not your task" in feedback and "test_calc.py::test_mul" in feedback
    # The command is quoted once, as a command (a detected runner is named bare: test_prompts_name_tests_once).
    assert f"(`{env['PEDRO_AGENT__TEST_COMMAND']}`)" in feedback, feedback


def test_a_debug_job_completes_when_its_bug_is_fixed_and_names_the_other_failure(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (repo / "test_calc.py").write_text(
        "from pathlib import Path\n\nfrom calc import add\n\n\n"
        "def test_add():\n    assert add(2, 3) == 5\n\n\n"
        "def test_fixture_file():\n    assert Path('fixture.json').exists()\n"
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    server = stub_server(["```python\ndef add(a, b):\n    return a + b\n```"])
    proc = debug(server, repo, cli_env, "add() is wrong")
    assert proc.returncode == 0, proc.stderr
    end = finished(proc.stdout)
    assert end["reason"] == "repaired"
    assert "1 test failed before this job and still fails: test_calc.py::test_fixture_file" in end["summary"]
    assert end["evidence"]["verdict"] == {
        "test_calc.py::test_add": "fixed",
        "test_calc.py::test_fixture_file": "still_failing",
    }


def test_a_debug_job_whose_repair_fixed_one_of_two_bugs_goes_on_and_does_not_end_as_completed(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a + b\n")
    (repo / "test_calc.py").write_text(
        "from calc import add, mul\n\n\n"
        "def test_add():\n    assert add(2, 3) == 5\n\n\n"
        "def test_mul():\n    assert mul(2, 3) == 6\n"
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    # The model's one answer fixes add; nothing fixes mul (no variants, no more answers), and the loop's model
    # only talks.
    fix_add = "```python\ndef add(a, b):\n    return a + b\n```"
    server = stub_server([fix_add, "mul looks wrong.", "I am not sure.", "Maybe."])
    env = {**cli_env, "PEDRO_REPAIR__CANDIDATES": "1", "PEDRO_REPAIR__MUTANTS": "0", "PEDRO_REPAIR__COVERAGE": "false"}
    proc = debug(server, repo, env, "add() and mul() are wrong")
    end = finished(proc.stdout)
    assert proc.returncode != 0 and end["reason"] != "repaired", end
    assert end["evidence"]["verdict"] == {"test_calc.py::test_add": "fixed", "test_calc.py::test_mul": "still_failing"}
    assert "return a + b\n\n\ndef mul" in (repo / "calc.py").read_text()  # the progress stays
    # The loop's model was told what is left: mul, and the test that still fails.
    handover = next(
        m["content"] for r in server.requests for m in r["messages"] if "repaired part of the failure" in m["content"]
    )
    assert "it changed calc.py:1 add" in handover and "points at calc.py:5 mul" in handover, handover
    assert "test_calc.py::test_mul" in handover and "test_calc.py::test_add" not in handover


def test_a_debug_job_whose_test_command_already_passes_has_nothing_to_fix_and_asks_no_model(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (repo / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (repo / "test_calc.py").write_text("from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    server = stub_server(["TASK COMPLETE"])
    proc = debug(server, repo, cli_env, "add() is wrong")
    assert proc.returncode == 0, proc.stderr
    end = finished(proc.stdout)
    assert end["reason"] == "nothing_to_fix" and "there is nothing to fix" in end["summary"], end
    assert server.requests == []
    empty = pedro("debug", "--test", " ", "-d", "x", "--no-input", env=cli_env, cwd=repo)
    assert empty.returncode == 2 and "--test needs the command that reproduces the failure" in empty.stderr


def test_a_debug_job_ends_soon_after_a_failed_repair_when_the_model_cannot_drive_the_loop(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (repo / "test_calc.py").write_text("from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    wrong = "```python\ndef add(a, b):\n    return a - b - 10\n```"  # further from 5: no progress
    server = stub_server([wrong, "I think the bug is in add.", "Maybe add is wrong.", "It could be add."])
    # One whole-function question, one answer: this test is about the loop after repair.
    env = {**cli_env, "PEDRO_REPAIR__CANDIDATES": "1", "PEDRO_REPAIR__COVERAGE": "false", "PEDRO_REPAIR__MUTANTS": "0"}
    proc = debug(server, repo, env, "add() is wrong")
    end = finished(proc.stdout)
    assert end["reason"] == "no_progress", end
    assert "repair tried 1 candidate; 1 of 1 failing test still fails" in end["summary"]
    assert "no successful tool call in 2 rounds after repair" in end["summary"]
    assert len(server.requests) == 3  # one repair answer, then two rounds of the loop


def test_a_job_stops_at_its_time_limit_wherever_it_is(mul_repo: Path, stub_server: Any, env: dict[str, str]) -> None:
    release = threading.Event()
    server = stub_server([DONE], on_request=lambda _n: release.wait(60))
    try:
        proc = build(server, mul_repo, env, "--json", "--time-limit", "3", description="Add sub()")
    finally:
        release.set()
    assert proc.returncode == 4, proc.stderr
    end = finished(proc.stdout)
    assert end["reason"] == "time_limit"
    assert "time limit of 3 s" in end["summary"] and "--time-limit" in end["summary"]


def test_a_package_or_file_that_failed_whole_is_fixed_when_the_tests_inside_it_pass() -> None:
    # A build failure names the package, a collection error the file: no test inside them ran at the baseline.
    baseline = TestStates(frozenset({"example.com/other.TestX"}), frozenset({"example.com/calc", "test_x.py"}))
    fixed = TestStates(
        frozenset({"example.com/calc.TestSum", "example.com/calc.TestSum/empty", "test_x.py::test_a"}),
        frozenset({"example.com/other.TestX", "test_xy.py::test_b"}),
    )
    assert compare(baseline, fixed).states == {
        "example.com/calc": "fixed",
        "test_x.py": "fixed",
        "example.com/calc.TestSum": "added_passing",
        "example.com/calc.TestSum/empty": "added_passing",
        "test_x.py::test_a": "added_passing",
        "example.com/other.TestX": "broken",
        "test_xy.py::test_b": "added_failing",  # another file: no part of test_x.py
    }
    half = TestStates(frozenset({"test_x.py::test_a"}), frozenset({"test_x.py::test_b"}))
    assert compare(baseline, half).states["test_x.py"] == "still_failing"
    assert compare(baseline, TestStates(frozenset(), frozenset())).states["example.com/calc"] == "gone"


def test_a_test_that_fails_inside_a_file_that_failed_whole_failed_before_and_blocks_nothing() -> None:
    # The file could not be collected at the baseline (`from calc import sub` before sub existed): a test in it that
    # now runs and fails was never seen to pass, so it is still failing, not the job's breakage.
    baseline = TestStates(frozenset(), frozenset({"test_sub.py", "example.com/calc"}))
    now = TestStates(
        frozenset({"test_sub.py::test_one", "test_calc.py::test_add"}),
        frozenset({"test_sub.py::test_two", "example.com/calc.TestSum", "test_subtract.py::test_x"}),
    )
    verdict = compare(baseline, now)
    assert verdict.states == {
        "test_sub.py": "still_failing",
        "example.com/calc": "still_failing",
        "test_sub.py::test_one": "added_passing",
        "test_sub.py::test_two": "still_failing",
        "example.com/calc.TestSum": "still_failing",
        "test_calc.py::test_add": "added_passing",
        "test_subtract.py::test_x": "added_failing",  # a file whose name only starts like it
    }
    assert verdict.blocking == ["test_subtract.py::test_x"]


def test_a_python_job_whose_test_module_could_not_be_imported_completes_once_it_imports_and_passes(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # pytest names the module it could not import, where no test of it ran: the job's failure is that file's.
    (repo / "calc.py").write_text("START = 0\n\n\ndef add(a, b=STRAT):\n    return a + b\n")
    (repo / "test_calc.py").write_text("from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    server = stub_server(["```python\ndef add(a, b):\n    return a - b\n```"] * 4)
    proc = debug(server, repo, cli_env, "the tests cannot import calc")
    events = events_of(proc.stdout)
    end = finished(proc.stdout)
    assert proc.returncode == 0 and end["reason"] == "repaired", json.dumps(
        [e for e in events if e["type"].startswith(("repair", "tests"))]
    )[:3000]
    assert end["evidence"]["verdict"] == {"test_calc.py": "fixed", "test_calc.py::test_add": "added_passing"}
    assert "def add(a, b=START):" in (repo / "calc.py").read_text()
