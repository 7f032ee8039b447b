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
from repo_util import PYTEST, commit_files, git

from pedro.backends.base import GenerationOptions
from pedro.backends.scripted import ScriptedBackend
from pedro.config import RepairConfig
from pedro.deadline import NO_DEADLINE, Deadline
from pedro.dispatch import Dispatcher
from pedro.evidence import ProjectTests, TestEvidence
from pedro.jobstore import JobStore
from pedro.loop.agent import Agent, AgentParts, Limits, RunResult
from pedro.messages import Completion, Event, Message
from pedro.repair import Repairer, answers
from pedro.roles import get_role
from pedro.safety.guard import SnapshotGuard
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
WRONG = "```python\ndef add(a, b):\n    return a - b - 1\n```"  # the actual value moves away from the expected


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


def test_a_failing_doctest_is_repaired_in_the_function_whose_docstring_shows_it(repo: Path) -> None:
    # `--doctest-modules`: the failing "test" is `mathx.py::mathx.cube`, and mathx.py is the code, not a file of tests.
    cube = 'def cube(n):\n    """The cube of n.\n\n    >>> cube(3)\n    27\n    """\n    return n * n\n'
    commit_files(repo, {"mathx.py": cube, "pytest.ini": "[pytest]\naddopts = --doctest-modules\n"})
    fixed = cube.replace("n * n", "n ** 3")
    outcome, _, events = repair(repo, [f"```python\n{fixed}```"])
    assert outcome.fixed, outcome.summary
    started = [e.data for e in events if e.type == "repair.started"]
    assert started[0]["units"] == ["mathx.py:1 cube"]
    assert (repo / "mathx.py").read_text() == fixed


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


def test_a_parametrized_tests_table_of_cases_is_not_quoted_in_the_question(calc: Path) -> None:
    # pytest quotes a decorated test from its decorator: the table of every case, once for each failing case. The
    # failing case's own values are in its id.
    cases = "".join(f"        ({n}, {n + 100}, {2 * n + 100}),\n" for n in range(20))
    (calc / "test_calc.py").write_text(
        f"import pytest\n\n{TESTS}\n\n@pytest.mark.parametrize(\n    ('a', 'b', 'total'),\n    [\n{cases}    ],\n)\n"
        "def test_add_table(a, b, total):\n    assert add(a, b) == total\n"
    )
    git(calc, "commit", "-qam", "a table of cases")
    _, backend, _ = repair(calc, [FIX])
    prompt = backend.requests[0][0][-1].content
    assert "(19, 119, 138)" not in prompt and "parametrize" not in prompt
    assert "def test_add_table(a, b, total):" in prompt and ">       assert add(a, b) == total" in prompt
    assert "FAILED test_calc.py::test_add_table[" in prompt


def test_pytests_explanation_of_an_operand_is_read_without_its_parts_own_explanations(repo: Path) -> None:
    (repo / "box.py").write_text(
        "class Box:\n    def __init__(self, v):\n        self.v = v\n\n    def get(self):\n        return self\n\n\n"
        "def make(v):\n    return Box(v - 1)\n"
    )
    (repo / "test_box.py").write_text("from box import make\n\n\ndef test_make():\n    assert make(2).get().v == 2\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "box")
    _, backend, _ = repair(repo, ["```python\ndef make(v):\n    return Box(v)\n```"])
    prompt = backend.requests[0][0][-1].content
    assert re.search(r"\+  where 1 = <box\.Box object at 0x\w+>\.v", prompt), prompt
    assert "where get =" not in prompt and "= make(2)" not in prompt


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


def test_passing_tests_mean_nothing_to_repair(calc: Path) -> None:
    (calc / "calc.py").write_text(CALC.replace("a - b", "a + b"))
    outcome, backend, _ = repair(calc, [])
    assert not outcome.ran and not outcome.fixed and backend.requests == []


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


def test_within_its_time_budget_repair_asks_until_the_tests_pass(calc: Path) -> None:
    outcome, backend, _ = repair(calc, [WRONG, WRONG, FIX], time_budget_s=3600)
    assert outcome.fixed and not outcome.out_of_time
    assert len(backend.requests) >= 3


def test_secret_values_in_the_code_never_reach_the_model(calc: Path) -> None:
    secret = "abcdefghijklmnopqrstuvwxyz0123456789"
    (calc / ".env").write_text(f"API_TOKEN={secret}\n")
    (calc / "calc.py").write_text(CALC + f'\n\nTOKEN = "{secret}"\n')
    outcome, backend, _ = repair(calc, [FIX])
    assert outcome.fixed
    prompt = backend.requests[0][0][-1].content
    assert secret not in prompt and "TOKEN = " in prompt  # the file is shown whole, its secret value redacted
    assert f'TOKEN = "{secret}"' in (calc / "calc.py").read_text()


class Writing(ScriptedBackend):
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


def test_a_test_helper_two_failures_share_is_shown_once_and_without_its_docstring(calc: Path) -> None:
    # unittest's traceback names each frame by one line, so the question shows the test's code: the helper both
    # failing tests call is shown once, and what its docstring says about calling it is left out.
    (calc / "test_calc.py").write_text(
        "import unittest\n\nfrom calc import add\n\n\nclass AddTests(unittest.TestCase):\n"
        "    def check(self, a, b, total):\n"
        '        """Checks add.\n\n        How to call it, at length.\n        """\n'
        "        self.assertEqual(add(a, b), total)\n\n"
        "    def test_small(self):\n        self.check(2, 3, 5)\n\n"
        "    def test_large(self):\n        self.check(20, 30, 50)\n"
    )
    git(calc, "commit", "-qam", "unittest with a helper")
    _, backend, _ = repair(calc, [FIX], command="python -m unittest -v test_calc")
    prompt = backend.requests[0][0][-1].content
    assert prompt.count("FAILED ") == 2 and "-1 != 5" in prompt and "-10 != 50" in prompt, prompt
    assert prompt.count("The test, in test_calc.py") == 1 and prompt.count("def check(self, a, b, total):") == 1
    assert "How to call it" not in prompt
    # Its frames name the test file as the repository does, not by where this machine keeps it.
    assert 'File "test_calc.py", line 12, in check' in prompt and str(calc) not in prompt


def test_tests_that_cannot_import_the_projects_own_package_say_what_the_command_needs(repo: Path) -> None:
    # A src layout tested without src on the path: no edit of the code fixes it, and the user is told what to change.
    commit_files(
        repo,
        {
            "src/inv/__init__.py": "",
            "src/inv/stock.py": "def low(levels):\n    return [k for k, v in levels.items() if v < 1]\n",
            "tests/__init__.py": "",
            "tests/test_stock.py": "import unittest\n\nfrom inv.stock import low\n",
        },
    )
    command = f"{sys.executable} -m unittest discover -s tests -t ."
    outcome, _, events = repair(repo, [], command=command)
    assert not outcome.fixed
    notices = [str(e.data["message"]) for e in events if e.type == "notice"]
    assert any("cannot import inv, which is src/inv" in n and "PYTHONPATH=src" in n for n in notices), notices
