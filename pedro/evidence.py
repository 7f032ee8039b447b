"""The job's test command, run by pedro itself, and its results compared with the job's baseline test by test: the
evidence a builder or debugger needs to complete (SWE-bench's rule: nothing that passed may fail now)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pedro.process import ChildResult
from pedro.tools.base import ToolContext, ToolFailure
from pedro.tools.test import RunInstrument, RunTestsArgs, TestRun, detect_framework, run_tests

TestState = Literal["passing", "fixed", "broken", "still_failing", "added_passing", "added_failing", "gone"]
"""A test's verdict against the baseline: it passed then and now, failed then and passes now, passed then and fails
now, failed both times, is new and passes, is new and fails, or is no longer run."""
_DETECTED_LABELS = {"pytest": "pytest", "go": "go test", "npm": "npm test"}
_NAMES_SHOWN = 5


@dataclass(frozen=True)
class ProjectTests:
    """Runs one test command (or the detected runner) the same way every time it is asked."""

    args: RunTestsArgs
    ctx: ToolContext

    @property
    def command(self) -> str:
        """The command as the user wrote it, or the detected runner ("pytest, detected")."""
        if self.args.command:
            return self.args.command
        found = detect_framework(self.ctx.root, self.ctx.root, self.args.framework)
        return f"{_DETECTED_LABELS.get(found[0], found[0])}, detected" if found else "the detected test runner"

    @property
    def named(self) -> str:
        """The command for a sentence: `make test` in backticks as written, or "pytest, detected" as it is."""
        return f"`{self.args.command}`" if self.args.command else self.command

    def run(
        self, *, instrument: RunInstrument | None = None, only: Sequence[str] = (), timeout: float | None = None
    ) -> TestRun:
        """One run in the sandbox, without the network; a command that cannot start is a failed run, never a crash.
        `instrument` changes the run and reads what it left (repair's line coverage); `only` holds it to those test
        ids where the runner allows it; `timeout` bounds it below the configured limit."""
        args = self.args if timeout is None else self.args.model_copy(update={"timeout": timeout})
        try:
            return run_tests(args, self.ctx, instrument=instrument, only=only)
        except ToolFailure as exc:
            result = ChildResult(
                outcome="exited", exit_code=None, output="", total_bytes=0, cut_bytes=0, duration_s=0.0
            )
            return TestRun(f"{self.command}: {exc}", None, result, self.command)


@dataclass(frozen=True)
class TestStates:
    """Which tests passed and which failed in one run, by id."""

    __test__ = False  # a name pytest would otherwise collect in the modules that import it

    passed: frozenset[str]
    failed: frozenset[str]

    @classmethod
    def of(cls, run: TestRun) -> TestStates | None:
        """The states of a run whose runner named every test; None when it did not (or the run did not finish)."""
        report = run.report
        if report is None or run.result.outcome != "exited" or not report.names_tests:
            return None
        failed = frozenset(failure.test_id for failure in report.failures)
        return cls(frozenset(report.passing) - failed, failed)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TestStates | None:
        """The states saved in a job record, or None when there are none."""
        passed, failed = data.get("passed"), data.get("failed")
        if not isinstance(passed, list) or not isinstance(failed, list):
            return None
        return cls(frozenset(map(str, passed)), frozenset(map(str, failed)))

    def to_dict(self) -> dict[str, list[str]]:
        return {"passed": sorted(self.passed), "failed": sorted(self.failed)}


@dataclass(frozen=True)
class TestVerdict:
    """Each test's state against the baseline."""

    __test__ = False

    states: dict[str, TestState]

    def named(self, state: TestState) -> list[str]:
        return sorted(test for test, found in self.states.items() if found == state)

    @property
    def blocking(self) -> list[str]:
        """The job's own failures: tests that passed at the baseline and fail now, and new tests that fail."""
        return self.named("broken") + self.named("added_failing")


def compare(baseline: TestStates, now: TestStates) -> TestVerdict:
    """Every test of either run, with its state."""
    states: dict[str, TestState] = {}
    for test in baseline.passed | baseline.failed | now.passed | now.failed:
        was = "passed" if test in baseline.passed else "failed" if test in baseline.failed else None
        is_ = "passed" if test in now.passed else "failed" if test in now.failed else None
        if was == "failed" and is_ is None:
            is_ = _state_inside(test, now)
        elif was is None and is_ == "failed" and any(inside(test, container) for container in baseline.failed):
            # A file that could not be collected (or a package that did not build) failed as a whole at the
            # baseline: a test in it that runs now and fails failed before too, it was never seen to pass.
            was = "failed"
        states[test] = _STATE[(was, is_)]
    return TestVerdict(states)


def inside(test: str, container: str) -> bool:
    """Whether `test` is a test inside the file or package whose id is `container`."""
    return test.startswith(tuple(f"{container}{sep}" for sep in _INSIDE))


_INSIDE = (".", "::", "/")
"""What follows a package's or a file's id in the ids of the tests inside it: Go's `pkg.TestX`, pytest's
`tests/test_x.py::test_y`, a subtest's `TestX/case`."""


def _state_inside(container: str, now: TestStates) -> str | None:
    """A failure of a whole package or file (Go's build failed, pytest could not collect it), as the tests inside it
    run now: failed if any fails, passed if they all pass, None where none runs."""
    if any(inside(test, container) for test in now.failed):
        return "failed"
    return "passed" if any(inside(test, container) for test in now.passed) else None


_STATE: dict[tuple[str | None, str | None], TestState] = {
    ("passed", "passed"): "passing",
    ("failed", "passed"): "fixed",
    ("passed", "failed"): "broken",
    ("failed", "failed"): "still_failing",
    (None, "passed"): "added_passing",
    (None, "failed"): "added_failing",
    ("passed", None): "gone",
    ("failed", None): "gone",
}


@dataclass(frozen=True)
class Judgement:
    """Whether the tests now back a completion claim, and what to say about them."""

    holds: bool
    run: TestRun
    verdict: TestVerdict | None = None
    """None when the runner names no tests: then the whole command had to pass."""
    targets: frozenset[str] = frozenset()
    """The failing tests that are the job's to fix (what repair may be asked about)."""
    notes: tuple[str, ...] = ()
    """What people and the model read beside the verdict: pre-existing failures, the fallback rule."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"holds": self.holds, "notes": list(self.notes)}
        if self.verdict is not None:
            data["verdict"] = dict(sorted(self.verdict.states.items()))
        return data


@dataclass
class TestEvidence:
    """The job's tests and their state when the job began; judges each later run against it."""

    __test__ = False

    tests: ProjectTests
    baseline: TestStates | None
    """None when the baseline run named no tests: then completion needs the whole command to pass, as it says."""
    must_fix: bool = False
    """The job is to fix failing tests (a debugger): at least one test that failed at the baseline must pass now."""
    baseline_run: TestRun | None = field(default=None, compare=False)
    """The baseline run itself, in the process that made it (repair starts from it)."""
    given: bool = False
    """The person gave this command to reproduce the failure (`debug --test`), rather than pedro finding it."""

    @property
    def command(self) -> str:
        return self.tests.command

    def run(self, *, timeout: float | None = None) -> TestRun:
        return self.tests.run(timeout=timeout)

    def judge(self, run: TestRun) -> Judgement:
        """SWE-bench's rule: no test that passed at the baseline fails now, new tests pass, and (for a job that fixes
        tests) one that failed passes now. Tests that failed before the job and still fail are reported, not held
        against it. Without per-test ids on either side, the whole command must pass."""
        now = TestStates.of(run)
        if self.baseline is None or now is None:
            note = f"{self.tests.named} does not name its tests, so the whole command had to pass"
            return Judgement(run.passed, run, targets=run.failing, notes=(note,))
        verdict = compare(self.baseline, now)
        blocking = verdict.blocking
        notes: list[str] = []
        still = verdict.named("still_failing")
        if still:
            notes.append(f"{count(len(still), 'test')} failed before this job and still {_verb(still)}: {names(still)}")
        holds = not blocking
        if self.must_fix and self.baseline.failed and not verdict.named("fixed"):
            holds = False
            notes.append(f"none of the {count(len(self.baseline.failed), 'failing test')} passes yet")
        targets = frozenset(blocking) or (frozenset(still) if self.must_fix else frozenset())
        return Judgement(holds, run, verdict, targets, tuple(notes))

    def to_dict(self) -> dict[str, Any]:
        """What the job record keeps: the command and the baseline's states."""
        return {"command": self.command, "baseline": self.baseline.to_dict() if self.baseline is not None else None}


def find_test_command(root: Path, given: str | None, configured: str) -> RunTestsArgs | None:
    """The job's test command: the one given (--test), else [agent].test_command, else the detected runner."""
    for command in (given, configured):
        if command and command.strip():
            return RunTestsArgs(command=command.strip())
    return RunTestsArgs() if detect_framework(root, root) is not None else None


def describe_test_run(run: TestRun, phase: str, command: str) -> dict[str, Any]:
    """A test run as the data of a `tests.run` event."""
    report = run.report
    return {
        "phase": phase,
        "command": command,
        "passed": run.passed,
        "exit_code": run.result.exit_code,
        "counts": {
            "passed": report.passed if report else 0,
            "failed": report.failed if report else 0,
            "errors": report.errors if report else 0,
        },
        "failing": sorted(run.failing),
        "output": run.summary,
    }


def count(n: int, noun: str) -> str:
    """`1 test`, `2 tests`: a number and its noun, agreeing."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def names(tests: Iterable[str]) -> str:
    """Test ids for a sentence: the first few, then how many more."""
    listed = list(tests)
    shown = ", ".join(listed[:_NAMES_SHOWN])
    return f"{shown} and {len(listed) - _NAMES_SHOWN} more" if len(listed) > _NAMES_SHOWN else shown


def _verb(tests: list[str]) -> str:
    return "fails" if len(tests) == 1 else "fail"
