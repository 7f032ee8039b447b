"""Repair with scripted model answers against real test runs in real git repositories."""

from __future__ import annotations

import re
import shutil
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from repo_util import PYTEST, git

from pedro.backends.base import GenerationOptions
from pedro.backends.scripted import ScriptedBackend
from pedro.config import RepairConfig
from pedro.deadline import NO_DEADLINE, Deadline
from pedro.dispatch import Dispatcher
from pedro.evidence import ProjectTests, TestEvidence
from pedro.jobs.facts import changed_files, job_diff
from pedro.jobstore import JobStore
from pedro.loop.agent import Agent, AgentParts, Limits, RunResult
from pedro.messages import Completion, Event, Message
from pedro.repair import Repairer, answers
from pedro.roles import get_role
from pedro.safety.guard import SnapshotGuard
from pedro.safety.snapshots import list_snapshots
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext
from pedro.tools.test import RunTestsArgs

CALC = (
    "def add(a, b):\n    return a - b\n\n\ndef double(n):\n    return add(n, n)\n\n\ndef square(n):\n    return n * n\n"
)
TESTS = (
    "from calc import add, square\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_add_zero():\n    assert add(0, 0) == 0\n\n\n"
    "def test_square():\n    assert square(3) == 9\n"
)
FIX = "```python\ndef add(a, b):\n    return a + b\n```"
BREAKS = "```python\ndef add(a, b):\n    return a + b + (a == 0)\n```"  # passes test_add, breaks test_add_zero
WRONG = "```python\ndef add(a, b):\n    return a - b - 1\n```"  # the actual value moves away from the expected
BROKEN = "```python\ndef add(a, b):\n    return a +\n```"


@pytest.fixture
def calc(repo: Path) -> Path:
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    return repo


def repair(
    repo: Path,
    replies: Any,
    *,
    candidates: int = 8,
    guard: SnapshotGuard | None = None,
    coverage: bool = False,
    time_budget_s: float | None = None,
    rivals: int = 0,
    mutants: int = 0,
    command: str = PYTEST,
    deadline: Deadline = NO_DEADLINE,
    backend: ScriptedBackend | None = None,
    on_event: Callable[[str], None] | None = None,
) -> tuple[Any, ScriptedBackend, list[Event]]:
    """Repair `repo` with scripted answers; by the traceback alone (whole-function questions) unless `coverage`,
    keeping the first fix unless `rivals` (tests/repair/test_probes.py checks fixes against rivals), and asking the
    model at once unless `mutants` (tests/repair/test_mutants.py tries one-token variants first)."""
    backend = backend or ScriptedBackend(replies)
    ctx = ToolContext(root=repo)
    dispatcher = Dispatcher(ToolRegistry.default(get_role("debugger").tools), ctx, guard=guard)
    events: list[Event] = []

    def emit(type_: str, **data: Any) -> None:
        events.append(Event(type=type_, job_id="j", seq=len(events) + 1, data=data))  # type: ignore[arg-type]
        if on_event is not None:
            on_event(type_)

    repairer = Repairer(
        backend=backend,
        dispatcher=dispatcher,
        tests=ProjectTests(RunTestsArgs(command=command), ctx),
        config=RepairConfig(
            candidates=candidates,
            coverage=coverage,
            rivals=rivals,
            mutants=mutants,
            **({"time_budget_s": time_budget_s} if time_budget_s is not None else {}),
        ),
        options=GenerationOptions(temperature=0.2, max_tokens=2048),
    )
    return repairer.run(emit, deadline=deadline), backend, events


def statuses(events: list[Event]) -> list[str]:
    return [str(e.data["status"]) for e in events if e.type == "repair.candidate"]


def test_a_candidate_that_fixes_the_failure_is_kept(calc: Path) -> None:
    outcome, backend, events = repair(calc, [FIX])
    assert outcome.fixed and outcome.candidates == 1
    assert "return a + b" in (calc / "calc.py").read_text()
    # The model was asked for the located function, shown in its whole (small) file, with the failure in view, and
    # no tools.
    prompt = backend.requests[0][0][-1].content
    assert "def add(a, b):\n    return a - b" in prompt and "assert add(2, 3) == 5" in prompt
    assert "This is calc.py, with the function add" in prompt and "def square" in prompt
    assert backend.requests[0][1] == [] and "corrected add function" in prompt
    # Room for a few times the function, not for rambling.
    assert backend.options[0].max_tokens < 200
    # pytest's own text shows the test's code, so it is not added a second time.
    assert prompt.count("def test_add():") == 1 and "The test, in" not in prompt
    # The failing test first, then every test, then the whole command once as the final check.
    runs = [(e.data["phase"], e.data.get("scope"), e.data.get("final")) for e in events if e.type == "tests.run"]
    assert runs == [("baseline", None, None), ("candidate", "failing", None), ("candidate", "all", None),
                    ("candidate", None, True)]  # fmt: skip


def test_a_long_test_pytest_shows_in_its_traceback_is_not_shown_again(calc: Path) -> None:
    # pytest's traceback shows the test's body up to the failing line, but not its `def` when the text is cut to
    # its last lines: the test's code is in the prompt once.
    setup = "".join(f"    values_{n} = [{n}, {n + 1}, {n + 2}]\n" for n in range(30))
    (calc / "test_calc.py").write_text(
        f'{TESTS}\n\ndef test_add_many():\n    """Adds lists\' heads."""\n{setup}'
        "    assert add(values_0[0], values_29[0]) == 29\n"
    )
    git(calc, "commit", "-qam", "a long test")
    _, backend, _ = repair(calc, [FIX])
    prompt = backend.requests[0][0][-1].content
    assert "test_add_many" in prompt
    assert prompt.count("values_29 = [29, 30, 31]") == 1 and "The test, in" not in prompt


def test_the_code_pytest_quotes_from_the_function_asked_about_is_shown_once(repo: Path) -> None:
    # The error is raised inside the function: pytest's traceback quotes its code, which the question shows anyway.
    (repo / "total.py").write_text(
        "def total(prices):\n    result = 0\n    for price in prices:\n        result += price.amount\n"
        "    return result\n"
    )
    tests = "from total import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"
    (repo / "test_total.py").write_text(tests)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "total")
    _, backend, _ = repair(repo, ["```python\ndef total(prices):\n    return sum(prices)\n```"])
    prompt = backend.requests[0][0][-1].content
    assert prompt.count("for price in prices:") == 1  # the file's code, not pytest's quote of it
    assert ">           result += price.amount" in prompt and "AttributeError: 'int' object has no attribute" in prompt
    assert "prices = [1, 2]" in prompt  # the arguments pytest shows for the frame stay


def test_a_recursion_without_its_base_case_reads_as_its_frames_once_and_how_often_they_came(repo: Path) -> None:
    (repo / "halves.py").write_text(
        "def halves(items):\n    if len(items) == 0:\n        return items\n"
        "    middle = len(items) // 2\n    return halves(items[:middle]) + halves(items[middle:])\n"
    )
    (repo / "test_halves.py").write_text(
        "import pytest\nfrom halves import halves\n\n\n@pytest.mark.parametrize('items', [[1], [2]])\n"
        "def test_one(items):\n    assert halves(items) == items\n"
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "halves")
    _, backend, _ = repair(repo, ["```python\ndef halves(items):\n    return items\n```"])
    prompt = backend.requests[0][0][-1].content
    assert "RecursionError" in prompt and prompt.count("return halves(items[:middle])") == 1
    assert prompt.count("FAILED ") == 1  # the second case fails alike: said once
    assert re.search(r"halves\.py:5: in halves \(\d+ times\)", prompt), prompt


def test_a_candidate_that_does_not_parse_is_no_edit(calc: Path) -> None:
    outcome, _, events = repair(calc, [BROKEN, FIX])
    assert outcome.fixed and statuses(events) == ["unusable", "fixed"]
    # The unparseable answer never reached the file: the only edits are the fix's (tried, taken back while others
    # could be looked for, and put back once chosen), and every test run is the fix's.
    assert {str(e.data["arguments"]["new"]) for e in events if e.type == "tool_call.started"} == {FIX[10:-4]}
    assert {e.data.get("candidate") for e in events if e.type == "tests.run" and e.data["phase"] == "candidate"} <= {
        2,
        None,
    }


def test_a_candidate_that_breaks_a_passing_test_is_undone(calc: Path) -> None:
    outcome, backend, events = repair(calc, [BREAKS, FIX])
    assert outcome.fixed
    assert statuses(events) == ["breaks", "fixed"]
    breaks = next(e for e in events if e.type == "repair.candidate")
    assert "test_calc.py::test_add_zero" in str(breaks.data["reason"])
    # The second request is the same question, sampled: the server's prompt cache holds all of it.
    assert backend.requests[1][0] == backend.requests[0][0]
    assert backend.options[0].temperature == 0.0 and backend.options[1].temperature > 0
    assert backend.options[1].seed is not None


@pytest.mark.parametrize(
    "command",
    [f"{PYTEST} test_calc.py::AddTests::test_add", f"{sys.executable} -m unittest -v test_calc.AddTests.test_add"],
    ids=["pytest", "unittest"],
)
def test_a_candidate_that_breaks_a_test_beside_the_one_named_is_undone(repo: Path, command: str) -> None:
    # The user names one test; the others in its file are not in the command, yet a fix must keep them passing.
    (repo / "calc.py").write_text(CALC)
    tests = "import unittest\n\nfrom calc import add\n\n\nclass AddTests(unittest.TestCase):\n"
    tests += "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n"
    tests += "    def test_add_zero(self):\n        self.assertEqual(add(0, 0), 0)\n"
    (repo / "test_calc.py").write_text(tests)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    outcome, _, events = repair(repo, [BREAKS, FIX], command=command)
    assert outcome.fixed and statuses(events) == ["breaks", "fixed"]
    assert "test_add_zero" in str(next(e for e in events if e.type == "repair.candidate").data["reason"])
    started = next(e for e in events if e.type == "repair.started")
    assert "1 passing test beside them in their files guard each fix" in str(started.data["runs"])
    assert "return a + b" in (repo / "calc.py").read_text()


JS_HANGS = (
    "function sumBelow(n) {\n  let total = 0;\n  const step = 0;\n  for (let i = 0; i < n; i += step) total += i;\n"
    "  return total;\n}\n\nfunction square(n) {\n  return n * n;\n}\n\nmodule.exports = { sumBelow, square };\n"
)
JS_HANGS_TESTS = (
    'const test = require("node:test");\nconst assert = require("node:assert/strict");\n'
    'const { sumBelow, square } = require("./calc.js");\n\n'
    "const checkSums = () => {\n  assert.equal(sumBelow(4), 6);\n};\n\n"
    'test("sums below", () => {\n  checkSums();\n});\n\ntest("square", () => {\n  assert.equal(square(3), 9);\n});\n'
)


@pytest.mark.slow
def test_a_node_test_that_hangs_is_named_by_running_the_tests_one_by_one_and_repaired(repo: Path) -> None:
    """The same under `node --test`, whose report of a command that never ends names no test: the tests node's runner
    lists run one by one in a warm node, each stopped at its own limit; the one still running fails, the function its
    test reaches through a helper of the test file is located, and a variant fixes it."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    (repo / "calc.js").write_text(JS_HANGS)
    (repo / "calc.test.js").write_text(JS_HANGS_TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    backend = ScriptedBackend([])
    role = get_role("debugger")
    ctx = ToolContext(root=repo)
    dispatcher = Dispatcher(ToolRegistry.default(role.tools), ctx)
    tests = ProjectTests(RunTestsArgs(command="node --test"), ctx)
    config = RepairConfig(candidates=0, coverage=False, rivals=0)
    repairer = Repairer(backend=backend, dispatcher=dispatcher, tests=tests, config=config, options=GenerationOptions())
    events: list[Event] = []
    parts = AgentParts(
        role=role,
        backend=backend,
        dispatcher=dispatcher,
        limits=Limits(max_rounds=1, time_limit_s=120),
        options=GenerationOptions(),
        repair=repairer,
        tests=TestEvidence(tests, None, must_fix=True, given=True),
    )
    result = Agent(parts, on_event=events.append).run("Fix the failing test.")
    assert (result.exit_status, result.reason) == ("completed", "repaired"), result.summary
    notices = [str(e.data["message"]) for e in events if e.type == "notice"]
    assert any("1 test hung (sums below)" in text for text in notices), notices
    baselines = [e.data for e in events if e.type == "tests.run" and e.data["phase"] == "baseline"]
    assert baselines[0]["counts"] == {"passed": 0, "failed": 0, "errors": 0}
    assert baselines[1]["failing"] == ["sums below"] and "TestHung" in str(baselines[1]["output"])
    started = next(e.data for e in events if e.type == "repair.started")
    assert started["units"] == ["calc.js:1 sumBelow"], started
    assert "const step = 1;" in (repo / "calc.js").read_text()


def test_the_code_is_restored_between_candidates(calc: Path) -> None:
    guard = SnapshotGuard(calc, "job1")
    guard.start()
    asked: list[str] = []

    def answer(messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        asked.append(messages[-1].content)
        return [WRONG, BREAKS][len(asked) - 1] if len(asked) <= 2 else WRONG.replace("- 1", "- 2")

    outcome, _, events = repair(calc, answer, candidates=3, guard=guard)
    assert not outcome.fixed and outcome.candidates == 3
    # Every question showed the original code, whichever candidate the file held while the model wrote.
    assert len(asked) == 3 and all("    return a - b\n" in prompt and "a - b - " not in prompt for prompt in asked)
    assert (calc / "calc.py").read_text() == CALC  # and it is back as it was
    assert git(calc, "status", "--porcelain").strip() == ""
    # Rejected candidates are never undo steps: repair is one step, and one that changed nothing leaves none.
    labels = [s.label for s in list_snapshots(calc, "job1")]
    assert labels == ["job start"]
    assert outcome.handover and "calc.py:1 add" in outcome.handover


def test_a_kept_fix_is_pedros_step_and_counts_as_the_jobs_change(calc: Path) -> None:
    guard = SnapshotGuard(calc, "job1")
    guard.start()
    outcome, _, _ = repair(calc, [FIX], guard=guard)
    guard.finish()
    assert outcome.fixed
    # The fix is repair's own step, never a change the user made before the job ended.
    shots = list_snapshots(calc, "job1")
    assert [(s.label, s.changes_by) for s in shots] == [("job start", None), ("after repair", "pedro")]
    assert changed_files(calc, shots) == ["calc.py"] and "+    return a + b" in job_diff(calc, shots, ["calc.py"])


def test_a_file_changed_by_the_user_between_tries_is_left_alone(calc: Path) -> None:
    calls = 0

    def answer(_messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        nonlocal calls
        calls += 1
        if calls == 1:  # the user edits calc.py while the model writes its first answer
            (calc / "calc.py").write_text(CALC + "\n\ndef user_added():\n    return 1\n")
        return FIX

    outcome, _, events = repair(calc, answer)
    assert not outcome.fixed and outcome.stopped
    assert "changed while pedro was repairing it" in outcome.stopped
    text = (calc / "calc.py").read_text()
    assert "def user_added" in text and "return a - b" in text  # the user's version, untouched
    assert statuses(events)[-1] == "stopped"


def test_duplicate_answers_are_not_tested_twice_nor_counted_as_answers(calc: Path) -> None:
    # Three answers at most, yet the repeated one is no answer: the third new one is the fix.
    outcome, backend, events = repair(calc, [WRONG, WRONG, WRONG.replace("- 1", "- 2"), FIX], candidates=3)
    assert outcome.fixed and statuses(events) == ["fails", "fails", "fixed"] and len(backend.requests) == 4
    # The baseline; the failing test for each wrong answer; for the fix the failing test, then all, then the command.
    assert len([e for e in events if e.type == "tests.run"]) == 6


def test_a_question_that_only_repeats_itself_is_asked_no_more(calc: Path) -> None:
    outcome, backend, events = repair(calc, lambda _messages, _tools: WRONG, candidates=32)
    assert not outcome.fixed and statuses(events) == ["fails"]
    # One new answer, then four repeats of it: the question is spent long before its 32 answers.
    assert len(backend.requests) == 5


def test_passing_tests_mean_nothing_to_repair(calc: Path) -> None:
    (calc / "calc.py").write_text(CALC.replace("a - b", "a + b"))
    outcome, backend, _ = repair(calc, [])
    assert not outcome.ran and not outcome.fixed and backend.requests == []


def test_a_callee_is_tried_when_the_caller_cannot_be_fixed(calc: Path) -> None:
    (calc / "test_calc.py").write_text("from calc import double\n\n\ndef test_double():\n    assert double(4) == 8\n")
    answers = iter(["```python\ndef double(n):\n    return add(n, n) + 0\n```", FIX])
    outcome, backend, events = repair(calc, lambda _m, _t: next(answers), candidates=1)
    assert outcome.fixed
    units = [e.data["unit"] for e in events if e.type == "repair.candidate"]
    assert units == ["calc.py:5 double", "calc.py:1 add"]


def test_after_progress_the_other_failing_function_is_still_asked_for(calc: Path) -> None:
    (calc / "calc.py").write_text(CALC.replace("n * n", "n + n"))
    square = "```python\ndef square(n):\n    return n * n\n```"
    answers = iter([FIX, square])
    outcome, _, events = repair(calc, lambda _m, _t: next(answers))
    assert outcome.fixed, outcome.summary
    assert statuses(events) == ["progress", "fixed"]
    units = [e.data["unit"] for e in events if e.type == "repair.candidate"]
    assert units == ["calc.py:1 add", "calc.py:9 square"]


def test_every_located_function_gets_its_greedy_answer_before_any_is_sampled(calc: Path) -> None:
    (calc / "test_calc.py").write_text("from calc import double\n\n\ndef test_double():\n    assert double(4) == 8\n")
    caller = "```python\ndef double(n):\n    return add(n, n) - {}\n```"
    answers = iter([caller.format(1), "```python\ndef add(a, b):\n    return a * b\n```", caller.format(2), FIX])
    outcome, backend, events = repair(calc, lambda _m, _t: next(answers), candidates=3)
    assert outcome.fixed and outcome.candidates == 4
    units = [e.data["unit"] for e in events if e.type == "repair.candidate"]
    assert units == ["calc.py:5 double", "calc.py:1 add", "calc.py:5 double", "calc.py:1 add"]
    # Greedy for each function's first answer, sampled after.
    temperatures = [e.data["temperature"] for e in events if e.type == "model.completed"]
    assert temperatures[:2] == [0.0, 0.0] and all(t > 0 for t in temperatures[2:])


# ---- the loop: a repair that passes ends the job; one that does not hands over; evidence is required


def run_job(
    repo: Path, replies: Any, *, with_repair: bool, store: JobStore | None = None, rivals: int = 0
) -> tuple[RunResult, ScriptedBackend, list[Event]]:
    backend = ScriptedBackend(replies)
    role = get_role("debugger")
    ctx = ToolContext(root=repo)
    dispatcher = Dispatcher(ToolRegistry.default(role.tools), ctx)
    tests = ProjectTests(RunTestsArgs(command=PYTEST), ctx)
    repairer = (
        Repairer(
            backend=backend,
            dispatcher=dispatcher,
            tests=tests,
            config=RepairConfig(candidates=1 + rivals, coverage=False, rivals=rivals, mutants=0),
            options=GenerationOptions(),
        )
        if with_repair
        else None
    )
    events: list[Event] = []
    job = store.create(role="debugger", task="t", backend="scripted", model="m") if store else None
    result = Agent(
        AgentParts(
            role=role,
            backend=backend,
            dispatcher=dispatcher,
            limits=Limits(max_rounds=6, max_idle_replies=3),
            options=GenerationOptions(),
            store=store,
            job=job,
            repair=repairer,
            tests=TestEvidence(tests, None, must_fix=role.fixes_failing_tests),
        ),
        on_event=events.append,
    ).run("Fix the failing test.")
    return result, backend, events


def test_a_repaired_job_completes_with_the_passing_run_on_record(calc: Path, cli_env: dict[str, str]) -> None:
    store = JobStore(calc)
    try:
        result, _, _ = run_job(calc, [FIX], with_repair=True, store=store)
    finally:
        store.close()
    assert (result.exit_status, result.reason, result.rounds) == ("completed", "repaired", 0)
    recorded = [event["type"] for event in store.events(result.job_id)]
    assert recorded.count("tests.run") == 4 and "repair.candidate" in recorded and "model.completed" in recorded
    assert recorded[-1] == "job.finished"
    finished = store.events(result.job_id)[-1]
    assert finished["totals"]["repair_candidates"] == 1 and finished["totals"]["tool_calls"] == 1
    # `pedro jobs show` tells the story: the failing run, the candidate with its diff, the passing run.
    shown = pedro("jobs", "show", result.job_id, env=cli_env, cwd=calc).stdout
    order = [
        "tests (baseline): FAIL",
        "failing: test_calc.py::test_add",
        "-    return a - b",
        "+    return a + b",
        "tests (candidate 1, failing tests): pass",
        "candidate 1 for calc.py:1 add: fixed",
    ]
    positions = [shown.find(text) for text in order]
    assert -1 not in positions and positions == sorted(positions), shown


def test_an_unfinished_repair_hands_over_to_the_loop(calc: Path) -> None:
    fenced_fix = '```code_edit\n{"path": "calc.py", "old": "return a - b", "new": "return a + b"}\n```'
    result, backend, _ = run_job(calc, [WRONG, fenced_fix, "TASK COMPLETE fixed add"], with_repair=True)
    assert result.exit_status == "completed" and result.rounds == 2
    first_loop_request = backend.requests[1][0]
    assert first_loop_request[0].role == "system"
    assert "Before asking you, pedro ran the tests" in first_loop_request[1].content


def test_completion_with_failing_tests_is_fed_back_then_fails(calc: Path) -> None:
    wrong_edit = '```code_edit\n{"path": "calc.py", "old": "return a - b", "new": "return a * b"}\n```'
    replies = [wrong_edit, "TASK COMPLETE done", "TASK COMPLETE really done"]
    result, backend, events = run_job(calc, replies, with_repair=False)
    assert (result.exit_status, result.reason) == ("failed", "tests_failed")
    assert "the tests still fail" in backend.requests[2][0][-1].content
    assert [e.data["phase"] for e in events if e.type == "tests.run"] == ["baseline", "evidence", "evidence"]


def test_completion_with_passing_tests_is_accepted(calc: Path) -> None:
    fenced_fix = '```code_edit\n{"path": "calc.py", "old": "return a - b", "new": "return a + b"}\n```'
    result, _, events = run_job(calc, [fenced_fix, "TASK COMPLETE fixed"], with_repair=False)
    assert result.exit_status == "completed"
    assert [e.data["passed"] for e in events if e.type == "tests.run"] == [False, True]


def test_a_test_command_that_cannot_start_is_a_failed_run_not_a_crash(calc: Path) -> None:
    ctx = ToolContext(root=calc)
    run = ProjectTests(RunTestsArgs(command="definitely-not-a-program-xyz --run"), ctx).run()
    assert not run.passed and run.report is None
    missing_runner = ProjectTests(RunTestsArgs(path="nowhere/at/all"), ctx).run()
    assert not missing_runner.passed and "nowhere/at/all" in missing_runner.summary


def test_the_prompt_shows_the_test_when_the_runner_does_not(tmp_path: Path) -> None:
    import shutil

    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    repo = tmp_path / "words"
    repo.mkdir()
    (repo / "go.mod").write_text("module example.com/words\n\ngo 1.19\n")
    (repo / "words.go").write_text("package words\n\nfunc Double(n int) int {\n\treturn n + 2\n}\n")
    (repo / "words_test.go").write_text(
        'package words\n\nimport "testing"\n\nfunc TestDouble(t *testing.T) {\n'
        '\tif got := Double(3); got != 6 {\n\t\tt.Errorf("Double(3) = %d, want 6", got)\n\t}\n}\n'
    )
    git(repo, "init", "-q", "-b", "main")
    backend = ScriptedBackend(["```go\nfunc Double(n int) int {\n\treturn n * 2\n}\n```"])
    ctx = ToolContext(root=repo)
    repairer = Repairer(
        backend=backend,
        dispatcher=Dispatcher(ToolRegistry.default(get_role("debugger").tools), ctx),
        tests=ProjectTests(RunTestsArgs(command="go test ./..."), ctx),
        config=RepairConfig(candidates=1, mutants=0),
        options=GenerationOptions(),
    )
    assert repairer.run(lambda *_a, **_k: None).fixed
    prompt = backend.requests[0][0][-1].content
    assert "Double(3) = 5, want 6" in prompt  # the runner's message
    assert "The test, in words_test.go:" in prompt and "if got := Double(3); got != 6 {" in prompt
    assert "\treturn n + 2" in prompt


def test_a_function_that_made_progress_is_asked_for_again(calc: Path) -> None:
    (calc / "calc.py").write_text(CALC.replace("return a - b", "return a - b + 1"))
    partial = "```python\ndef add(a, b):\n    return a - b\n```"  # fixes test_add_zero only
    outcome, backend, events = repair(calc, [partial, FIX], candidates=1)
    assert outcome.fixed and statuses(events) == ["progress", "fixed"]
    # The second request shows the function as the first answer left it.
    assert "return a - b\n" in backend.requests[1][0][-1].content and "+ 1" not in backend.requests[1][0][-1].content


def test_a_snapshot_that_fails_during_repair_is_a_notice_and_the_repair_goes_on(calc: Path) -> None:
    guard = SnapshotGuard(calc, "job-broken")
    guard.start()
    shutil.rmtree(calc / ".git")  # git is gone mid-job: no snapshot can be taken any more
    outcome, _, events = repair(calc, [FIX], candidates=1, guard=guard)
    assert outcome.fixed and "return a + b" in (calc / "calc.py").read_text()
    notices = [str(e.data["message"]) for e in events if e.type == "notice"]
    assert notices and all("could not snapshot the working tree" in n for n in notices)
    assert not [e for e in events if e.type == "snapshot.taken"]


def test_no_question_is_asked_once_the_time_budget_is_spent(calc: Path) -> None:
    # A budget shorter than any answer and its test run: the first answer is tried, and no other is asked for.
    outcome, _, events = repair(calc, [WRONG, WRONG, FIX], time_budget_s=0.001)
    assert not outcome.fixed and outcome.out_of_time
    assert statuses(events) == []
    assert "in its time budget of 0.001 s" in outcome.summary
    assert "[repair].time_budget_s" in outcome.handover


def test_repair_stops_in_time_for_its_final_check_before_the_jobs_time_limit(calc: Path) -> None:
    # The job's time limit is nearer than repair's own budget and leaves no room for a candidate and the final
    # check: repair stops at once and says which limit stopped it, so the job can end on its own terms.
    outcome, _, events = repair(calc, [WRONG, WRONG, FIX], time_budget_s=3600, deadline=Deadline.after(1.0))
    assert not outcome.fixed and outcome.out_of_time == "the job's time limit of 1 s"
    assert statuses(events) == []
    assert "in the job's time limit of 1 s" in outcome.summary and "--time-limit" in outcome.handover


def test_within_its_time_budget_repair_asks_until_the_tests_pass(calc: Path) -> None:
    outcome, backend, _ = repair(calc, [WRONG, WRONG, FIX], time_budget_s=3600)
    assert outcome.fixed and not outcome.out_of_time
    assert len(backend.requests) >= 3


SHOP = (
    "def subtotal(prices):\n"
    '    """The sum of the prices."""\n'
    "    return sum(prices[1:])\n"
    "\n\n"
    "def with_tax(amount, rate):\n"
    '    """The amount with the tax at `rate` (0.2 is 20 %) added."""\n'
    "    return amount * rate\n"
    "\n\n"
    "def total(prices, rate):\n"
    "    return with_tax(subtotal(prices), rate)\n"
)
SHOP_TESTS = (
    "from shop import total\n\n\n"
    "def test_total():\n"
    "    assert total([10, 20], 0.5) == 45\n\n\n"
    "def test_no_tax():\n"
    "    assert total([4, 6], 0) == 10\n"
)
WHOLE_FILE_FIX = (
    "Both helpers are wrong:\n\n```python\n"
    + SHOP.replace("prices[1:]", "prices").replace("amount * rate", "amount * (1 + rate)")
    + "```"
)


def test_an_answer_that_rewrites_the_whole_file_is_tried_as_one_candidate(repo: Path) -> None:
    # Two functions are wrong, and every failing test goes through both: no one-function candidate passes a test.
    # Shown the whole (small) file, the model rewrites it; its answer is read as the file it gives.
    (repo / "shop.py").write_text(SHOP)
    (repo / "test_shop.py").write_text(SHOP_TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "shop")
    outcome, _, events = repair(repo, [WHOLE_FILE_FIX] * 8)
    assert outcome.fixed, outcome.summary
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed and fixed[0]["question"] == "file" and fixed[0]["functions"] == ["subtotal", "with_tax"]
    text = (repo / "shop.py").read_text()
    assert "return sum(prices)\n" in text and "amount * (1 + rate)" in text and "def total" in text


def test_secret_values_in_the_code_never_reach_the_model(calc: Path) -> None:
    secret = "abcdefghijklmnopqrstuvwxyz0123456789"
    (calc / ".env").write_text(f"API_TOKEN={secret}\n")
    (calc / "calc.py").write_text(CALC + f'\n\nTOKEN = "{secret}"\n')
    outcome, backend, _ = repair(calc, [FIX])
    assert outcome.fixed
    prompt = backend.requests[0][0][-1].content
    assert secret not in prompt and "TOKEN = " in prompt  # the file is shown whole, its secret value redacted
    assert f'TOKEN = "{secret}"' in (calc / "calc.py").read_text()


class _Writing(ScriptedBackend):
    """A model that writes its answer token by token and never ends it: counts the tokens written after `after`."""

    def __init__(self) -> None:
        super().__init__([])
        self.after = threading.Event()
        self.written_after = 0

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        on_token: Callable[[str], None] | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> Completion:
        self.requests.append((list(messages), [dict(tool) for tool in tools]))
        assert on_token is not None
        for _ in range(3000):  # 30 s at most
            time.sleep(0.01)
            self.written_after += self.after.is_set()
            on_token("x ")  # where the repair abandons the answer
        return Completion(text="never reached")


def test_the_answer_being_written_is_abandoned_before_the_final_check_not_after_it(calc: Path) -> None:
    # A variant fixes add() while the model is still writing; the final check runs the whole command (a second or
    # so) and the model, asked nothing more, must not share the cores with it.
    writing = _Writing()
    seen = lambda kind: writing.after.set() if kind == "repair.chosen" else None  # noqa: E731
    outcome, _, events = repair(calc, [], candidates=1, mutants=8, backend=writing, on_event=seen)
    assert outcome.fixed and writing.requests
    assert [e.data["phase"] for e in events if e.type == "tests.run"][-1:] == ["candidate"]
    assert writing.written_after <= 2, writing.written_after


class _Reading(ScriptedBackend):
    """A server still reading a long prompt: no token comes until the test lets it go."""

    def __init__(self) -> None:
        super().__init__([])
        self.go = threading.Event()

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        on_token: Callable[[str], None] | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> Completion:
        self.requests.append((list(messages), [dict(tool) for tool in tools]))
        self.go.wait(60)
        return Completion(text=FIX)


def test_a_finished_repair_does_not_wait_for_an_answer_the_server_has_not_begun(calc: Path) -> None:
    # A variant fixes add() while the server is still reading the question: the job has its fix, and waiting for
    # the server's first token (seconds, on a busy machine) would only hold it. A restart, which must not ask
    # beside the old request, waits up to _STOP_WAIT_S; the end of a repair does not.
    reading = _Reading()
    last: dict[str, float] = {}
    outcome, _, events = repair(
        calc, [], candidates=1, mutants=8, backend=reading, on_event=lambda kind: last.update({kind: time.monotonic()})
    )
    finished = time.monotonic()
    reading.go.set()
    assert outcome.fixed and reading.requests
    final_check = last["tests.run"]
    assert finished - final_check < answers._STOP_WAIT_S, finished - final_check
    assert not [e for e in events if e.type == "model.completed"]


def test_with_variants_off_no_variant_is_tried_after_a_kept_answer(calc: Path) -> None:
    # [repair].mutants = 0: the kept answer's line has variants, but none may be tried in its place either.
    (calc / "calc.py").write_text(CALC.replace("return a - b", "return a - b + 1"))
    partial = "```python\ndef add(a, b):\n    return a - b\n```"  # fixes test_add_zero only
    _, _, events = repair(calc, [partial, *["no idea"] * 7], candidates=8)
    tried = [e.data for e in events if e.type == "repair.candidate"]
    assert tried and tried[0]["status"] == "progress"
    assert [data for data in tried if data["question"] == "mutation"] == []


HANGS = (
    "def add(a, b):\n    total = a\n    while b:\n        total += 1\n    return total\n\n\n"
    "def square(n):\n    return n * n\n"
)


@pytest.mark.slow
def test_a_test_that_hangs_is_stopped_where_it_hangs_and_repaired(repo: Path) -> None:
    """A classic endless-loop bug: the whole command never ends. The baseline stops at its share of the job's time,
    the tests run one by one with a limit each, the one that hangs fails where it loops, and repair fixes it."""
    (repo / "calc.py").write_text(HANGS)
    (repo / "test_calc.py").write_text(TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    backend = ScriptedBackend([FIX])
    role = get_role("debugger")
    ctx = ToolContext(root=repo)
    dispatcher = Dispatcher(ToolRegistry.default(role.tools), ctx)
    tests = ProjectTests(RunTestsArgs(command=PYTEST), ctx)
    config = RepairConfig(candidates=1, coverage=False, rivals=0, mutants=0)
    repairer = Repairer(backend=backend, dispatcher=dispatcher, tests=tests, config=config, options=GenerationOptions())
    events: list[Event] = []
    parts = AgentParts(
        role=role,
        backend=backend,
        dispatcher=dispatcher,
        limits=Limits(max_rounds=2, time_limit_s=120),
        options=GenerationOptions(),
        repair=repairer,
        tests=TestEvidence(tests, None, must_fix=True, given=True),
    )
    result = Agent(parts, on_event=events.append).run("Fix the failing test.")
    assert (result.exit_status, result.reason) == ("completed", "repaired"), result.summary
    notices = [str(e.data["message"]) for e in events if e.type == "notice"]
    assert any("1 test hung (test_calc.py::test_add)" in text for text in notices), notices
    baselines = [e.data for e in events if e.type == "tests.run" and e.data["phase"] == "baseline"]
    # The command's own run was stopped; the run test by test names the hung test with where it looped.
    assert baselines[0]["counts"] == {"passed": 0, "failed": 0, "errors": 0}
    assert baselines[1]["failing"] == ["test_calc.py::test_add"] and "TestHung" in str(baselines[1]["output"])
    assert "return a + b" in (repo / "calc.py").read_text()
