"""Test-driven repair: run the tests, find the failing unit, ask the model for that unit only, apply it as a
code_edit, run the tests again, and sample more candidates until one passes or the budget is spent."""

from __future__ import annotations

import re
import textwrap
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from pedro.backends.base import Backend, GenerationOptions
from pedro.dispatch import Dispatcher
from pedro.effects import Effects
from pedro.evidence import ProjectTests, count, describe_test_run
from pedro.messages import Message, ToolCall, ToolResult, Usage
from pedro.modelcall import complete
from pedro.prompts import render_prompt
from pedro.repair.candidate import read_candidate
from pedro.repair.locate import Unit, failing_test, locate
from pedro.safety.guard import record_snapshot
from pedro.tools.test import TestRun
from pedro.tools.testreport import FailedTest
from pedro.tools.textfile import stamp_file

Emit = Callable[..., None]
"""The job's event emitter: emit(type, **data)."""

_FENCE_NAMES = {"python": "python", "go": "go", "javascript": "javascript", "typescript": "typescript", "tsx": "tsx"}
_MAX_FAILURE_LINES = 24
_MAX_FAILURE_CHARS = 1600
_MAX_FAILURES_SHOWN = 2
_MAX_TEST_LINES = 30
_ANSWER_SLACK_TOKENS = 96
_MAX_TEMPERATURE = 1.5
# Stack lines inside a runtime or a test runner say nothing the model can act on.
_NOISE = re.compile(r"^\s*(?:at .*(?:node:|node_modules/|\(<anonymous>\))|at (?:Test|TestContext|AsyncResource)\.)")


class ChangeGuard(Protocol):
    """Takes a snapshot before repair changes files and one after it (pedro.safety.guard.SnapshotGuard): the
    candidates it tries and the restores between them are never undo steps."""

    def open_step(self, step: str, calls: list[Effects]) -> dict[str, Any] | None: ...

    def close_step(self) -> dict[str, Any] | None: ...


@dataclass(frozen=True)
class RepairSettings:
    """The budget and sampling of one repair."""

    candidates: int = 8
    """Model answers asked for per unit."""
    temperature: float = 0.8
    """For every answer after the first, which is greedy."""
    max_tokens: int = 512
    max_units: int = 4
    """Functions asked for, taking turns; all of them together get at most candidates × max_units answers."""


@dataclass
class RepairOutcome:
    """What repair achieved and learned; the loop goes on from it when the tests still fail."""

    fixed: bool = False
    ran: bool = False
    """Whether there was anything to repair (failing tests, a unit to ask for)."""
    summary: str = ""
    handover: str = ""
    """What the loop's model reads first when repair did not finish; empty when there is nothing to say."""
    usage: Usage = field(default_factory=Usage)
    candidates: int = 0
    tool_calls: int = 0
    """Edits pedro made through the dispatcher: each candidate and each undo of one."""
    stopped: str = ""
    """Why repair stopped early (a file changed under it), or empty."""
    changed: bool = False
    """A candidate was kept: the code differs from where repair started."""
    last_run: TestRun | None = None
    """The tests as repair leaves the code: after the last kept candidate, else where it started."""


@dataclass
class _Try:
    """The state of one unit's attempts."""

    unit: Unit
    asked: int = 0
    """Answers asked for so far: the first is greedy."""
    tried: set[str] = field(default_factory=set)
    last_problem: str = ""


class Repairer:
    """Repairs failing tests one unit at a time, keeping only candidates the tests confirm."""

    def __init__(
        self,
        *,
        backend: Backend,
        dispatcher: Dispatcher,
        tests: ProjectTests,
        settings: RepairSettings,
        options: GenerationOptions,
        guard: ChangeGuard | None = None,
    ) -> None:
        self.backend = backend
        self.dispatcher = dispatcher
        self.tests = tests
        self.settings = settings
        # Repair asks for code, not tool calls: plain text replies, no tools, no call grammar.
        self.options = replace(options, tool_mode="text", max_tokens=settings.max_tokens)
        self.guard = guard
        self.root: Path = dispatcher.ctx.root

    def run(self, emit: Emit, *, start: TestRun | None = None, targets: frozenset[str] | None = None) -> RepairOutcome:
        """From the tests as they are (`start`, else a fresh run), while `targets` (else every failing test) fail and
        the budget lasts, ask for one unit at a time and keep what helps without breaking a passing test.

        The located units take turns: each gets its greedy answer before any gets a sample, since the function
        a test points at first is often not the one with the bug (a caller before its helper).
        """
        outcome = RepairOutcome()
        run = start if start is not None else self._test(emit, "baseline")
        outcome.last_run = run
        wanted = targets if targets is not None else run.failing
        if run.passed or (targets is not None and not wanted & run.failing):
            outcome.summary = "the tests already pass"
            return outcome
        units = locate(self._failures(run, wanted), self.root, limit=self.settings.max_units)
        emit("repair.started", command=self.tests.command, units=[_describe(u) for u in units])
        if not units:
            outcome.handover = self._handover(run, outcome, [], "no function could be located from the failures")
            return outcome
        outcome.ran = True
        if self.guard is not None:
            effects = [self.dispatcher.effects(ToolCall("code_edit", {"action": "replace", "path": units[0].path}))]
            record_snapshot(emit, self.guard.open_step, "repair", effects)
        try:
            run = self._attempts(units, run, wanted, outcome, emit)
        finally:
            if self.guard is not None:
                record_snapshot(emit, self.guard.close_step)
        emit("repair.finished", fixed=outcome.fixed, candidates=outcome.candidates, summary=outcome.summary)
        return outcome

    def _attempts(
        self, units: list[Unit], start: TestRun, wanted: frozenset[str], outcome: RepairOutcome, emit: Emit
    ) -> TestRun:
        """Candidates for the units in turn until the wanted tests pass or the budget is spent; the last kept run."""
        run, last = start, ""
        # One attempt per version of a unit, (path, name, text): a unit whose code changed (a kept candidate made
        # progress) starts afresh, one that did not keeps what it has spent.
        attempts: dict[tuple[str, str, str], _Try] = {}
        asked: dict[str, None] = {}
        turns = deque(_attempt(attempts, unit) for unit in units)
        while turns and outcome.candidates < self.settings.candidates * self.settings.max_units:
            attempt = turns.popleft()
            asked[_describe(attempt.unit)] = None
            result = self._candidate(attempt, run, wanted, outcome, emit)
            last = attempt.last_problem or last
            if outcome.stopped:
                last = outcome.stopped
                break
            if result is None:
                if attempt.asked < self.settings.candidates:
                    turns.append(attempt)
                continue
            run, outcome.changed, outcome.last_run = result, True, result
            if not wanted & run.failing and _verdict_fixed(run):
                outcome.fixed = True
                break
            # Progress without a full pass: look again from what still fails.
            located = locate(self._failures(run, wanted), self.root, limit=self.settings.max_units)
            turns = deque(
                attempt
                for attempt in (_attempt(attempts, unit) for unit in located)
                if attempt.asked < self.settings.candidates
            )
        outcome.summary = self._summary(outcome, start, run, wanted)
        if not outcome.fixed:
            outcome.handover = self._handover(start, outcome, list(asked), last)
        return run

    @staticmethod
    def _failures(run: TestRun, wanted: frozenset[str]) -> list[FailedTest]:
        failures = run.report.failures if run.report is not None else []
        return [failure for failure in failures if failure.test_id in wanted] or failures[: 1 if not wanted else 0]

    def _candidate(
        self, attempt: _Try, run: TestRun, wanted: frozenset[str], outcome: RepairOutcome, emit: Emit
    ) -> TestRun | None:
        """Ask for, apply and test one candidate for the attempt's unit: the test run when it helped, else None.

        A candidate that does not help is undone; `attempt.last_problem` says why it failed, and
        `outcome.stopped` is set when a file changed under repair.
        """
        unit = attempt.unit
        number = attempt.asked
        attempt.asked += 1
        outcome.candidates += 1
        index = outcome.candidates
        path = self.dispatcher.ctx.resolve(unit.path)
        if number == 0:
            # As if the model had read the file: an edit by anyone else from now on is noticed, never overwritten.
            self.dispatcher.ctx.read_stamps[path] = stamp_file(path)
        failing = [f for f in (run.report.failures if run.report else []) if f.test_id in unit.tests] or (
            run.report.failures[:1] if run.report else []
        )
        try:
            file_text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            outcome.stopped = f"{unit.path} cannot be read any more ({exc.strerror})"
            return None
        reply = self._ask(unit, failing, attempt.last_problem, number, outcome, emit)
        candidate = read_candidate(reply, unit, file_text)
        if candidate.text is None or candidate.text in attempt.tried:
            attempt.last_problem = candidate.problem or "the same answer as before"
            status = "unusable" if candidate.text is None else "duplicate"
            emit("repair.candidate", n=index, unit=_describe(unit), status=status, reason=attempt.last_problem)
            return None
        attempt.tried.add(candidate.text)
        if self._changed_by_someone(path):
            outcome.stopped = f"{unit.path} changed while pedro was repairing it; it is left as you made it"
            emit("repair.candidate", n=index, unit=_describe(unit), status="stopped", reason=outcome.stopped)
            return None
        applied = self._edit(emit, outcome, unit, unit.text, candidate.text)
        if not applied.ok:
            attempt.last_problem = _first_line(applied.output)
            emit("repair.candidate", n=index, unit=_describe(unit), status="rejected", reason=attempt.last_problem)
            return None
        try:
            after = self._test(emit, "candidate", candidate=index)
        except BaseException:
            # Interrupted (Ctrl-C) or failed while testing: an unconfirmed candidate never stays in the file.
            if not self._changed_by_someone(path):
                self._restore(emit, outcome, index, unit, candidate.text)
            raise
        verdict, problem = _judge(run, after, wanted)
        emit("repair.candidate", n=index, unit=_describe(unit), status=verdict, reason=problem)
        if verdict in ("fixed", "progress"):
            attempt.last_problem = problem
            return after
        attempt.last_problem = problem
        if self._changed_by_someone(path) or not self._restore(emit, outcome, index, unit, candidate.text).ok:
            outcome.stopped = (
                f"{unit.path} changed while candidate {index} was being tested, so pedro did not put the old "
                f"code back; the file keeps candidate {index} and your change"
            )
            emit("notice", message=outcome.stopped)
        return None

    def _ask(
        self, unit: Unit, failing: list[FailedTest], problem: str, number: int, outcome: RepairOutcome, emit: Emit
    ) -> str:
        """One fresh request for the unit: greedy first, then sampled with a new seed each time."""
        retry = "\n" + render_prompt("repair/retry.md", reason=problem).strip() if number and problem else ""
        prompt = render_prompt(
            "repair/fix.md",
            failure="\n\n".join(self._with_test_source(f) for f in failing[:_MAX_FAILURES_SHOWN]),
            name=unit.name,
            path=unit.path,
            fence=_FENCE_NAMES[unit.language],
            code=unit.text,
            retry=retry,
        )
        # Greedy first; then sampled, a little hotter each time, since a small model's samples often repeat.
        temperature = 0.0 if number == 0 else min(self.settings.temperature + 0.1 * (number - 1), _MAX_TEMPERATURE)
        # One function is the whole answer: room for a few times its length (a second block often holds the
        # better version), not for the rambling that otherwise takes most of a small model's sample time.
        room = min(self.settings.max_tokens, len(unit.text) + _ANSWER_SLACK_TOKENS)
        options = replace(self.options, temperature=temperature, seed=number or None, max_tokens=room)

        completion = complete(
            self.backend, [Message("user", prompt)], [], options, emit, purpose="repair", temperature=temperature
        )
        outcome.usage += completion.usage
        return completion.text

    def _with_test_source(self, failure: FailedTest) -> str:
        """The failure, and the test's own code when the runner's text does not show it (go test, node --test)."""
        described = describe_failure(failure)
        test = failing_test(failure, self.root)
        if test is None or test.text.strip().splitlines()[0].strip() in described:
            return described
        code = "\n".join(textwrap.dedent(test.text).splitlines()[:_MAX_TEST_LINES])
        source = render_prompt("repair/test_source.md", path=test.path, fence=_FENCE_NAMES[test.language], code=code)
        return f"{described}\n\n{source.strip()}"

    def _edit(self, emit: Emit, outcome: RepairOutcome, unit: Unit, old: str, new: str) -> ToolResult:
        """Replace `old` by `new` in the unit's file through the dispatcher: the gate, journal and checks apply."""
        call = ToolCall("code_edit", {"action": "replace", "path": unit.path, "old": old, "new": new}, id=None)
        outcome.tool_calls += 1
        return self.dispatcher.run_reported(call, emit)

    def _restore(self, emit: Emit, outcome: RepairOutcome, index: int, unit: Unit, candidate: str) -> ToolResult:
        """Put the unit's code back after a rejected candidate: through the dispatcher like any edit, but reported
        as one quiet line (`repair.restored`), not as an edit of the model's."""
        arguments = {"action": "replace", "path": unit.path, "old": candidate, "new": unit.text}
        call = ToolCall("code_edit", arguments, id=None)
        outcome.tool_calls += 1
        result = self.dispatcher.run(call)
        emit("repair.restored", n=index, path=unit.path, ok=result.ok, output="" if result.ok else result.output)
        return result

    def _changed_by_someone(self, path: Path) -> bool:
        """Whether the file differs from what pedro last read or wrote there."""
        seen = self.dispatcher.ctx.read_stamps.get(path)
        try:
            now = stamp_file(path)
        except OSError:
            return True
        return seen is None or (seen.size, seen.sha256) != (now.size, now.sha256)

    def _test(self, emit: Emit, phase: str, **extra: Any) -> TestRun:
        run = self.tests.run()
        emit("tests.run", **describe_test_run(run, phase, self.tests.command), **extra)
        return run

    def _summary(self, outcome: RepairOutcome, start: TestRun, run: TestRun, wanted: frozenset[str]) -> str:
        before = len(wanted & start.failing) or 1
        tries = count(outcome.candidates, "candidate")
        if outcome.fixed:
            passes = f"; {self.tests.named} passes" if run.passed else ""
            return f"fixed {count(before, 'failing test')} in {tries}{passes}"
        if outcome.stopped:
            return f"repair stopped after {tries}: {outcome.stopped}"
        left = len(wanted & run.failing) if run.report is not None else before
        verb = "fails" if left == 1 else "fail"
        return f"repair tried {tries}; {left} of {count(before, 'failing test')} still {verb}"

    def _handover(self, run: TestRun, outcome: RepairOutcome, units: list[str], last: str) -> str:
        report = run.report
        counts = f"passed {report.passed}, failed {report.failed + report.errors}" if report else "it failed"
        failing = "\n".join(f"- {describe_failure(f)}" for f in (report.failures[:3] if report else []))
        return render_prompt(
            "repair/handover.md",
            command=self.tests.command,
            counts=counts,
            failing=failing,
            tries=outcome.candidates,
            units=", ".join(units) or "no function",
            last=last or "no usable answer",
        )


def _attempt(attempts: dict[tuple[str, str, str], _Try], unit: Unit) -> _Try:
    """The attempt for this version of `unit`, with the unit as located now (its lines may have moved)."""
    key = (unit.path, unit.qualified_name, unit.text)
    attempt = attempts.setdefault(key, _Try(unit))
    attempt.unit = unit
    return attempt


def _judge(before: TestRun, after: TestRun, wanted: frozenset[str]) -> tuple[str, str]:
    """fixed (the wanted tests pass, none new fails), progress (fewer of them fail, none new), breaks (a test that
    passed now fails) or fails."""
    if after.passed:
        return "fixed", ""
    if after.report is None or (not after.failing and after.report.total == 0):
        return "fails", _first_line(after.summary)
    newly = sorted(after.failing - before.failing)
    if newly:
        return "breaks", f"it broke {', '.join(newly[:3])}"
    if not wanted & after.failing and _verdict_fixed(after):
        return "fixed", ""
    if wanted & after.failing < wanted & before.failing:
        gained = len(wanted & before.failing) - len(wanted & after.failing)
        return "progress", f"{count(gained, 'failing test')} now {'passes' if gained == 1 else 'pass'}"
    failure = next(iter(after.report.failures), None)
    return "fails", describe_failure(failure, short=True) if failure else _first_line(after.summary)


def _verdict_fixed(run: TestRun) -> bool:
    """The run names its failures (so the wanted tests can be told from the rest), or it passed outright."""
    return run.passed or (run.report is not None and run.report.names_tests)


def describe_failure(failure: FailedTest, *, short: bool = False) -> str:
    """A failing test as the model reads it: its id and the runner's text without runtime stack noise."""
    text = failure.details or failure.message
    lines = [line.rstrip() for line in text.splitlines() if line.strip() and not _NOISE.match(line)]
    if short:
        message = failure.message.strip().splitlines()
        return f"{failure.test_id}: {message[0] if message else 'failed'}"
    body = "\n".join(lines[-_MAX_FAILURE_LINES:])[-_MAX_FAILURE_CHARS:]
    return f"FAILED {failure.test_id}\n{body}" if body else f"FAILED {failure.test_id}"


def _describe(unit: Unit) -> str:
    return f"{unit.path}:{unit.start_line} {unit.qualified_name}"


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")
