"""When and how a job ends: every ending rule of the loop (rounds, idle replies, repeats, timeouts, context,
evidence) and the named outcome each one gives."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pedro.config import AgentConfig, ToolCallingConfig, config_default
from pedro.deadline import NO_DEADLINE, Deadline
from pedro.errors import Terminated, TimeLimitReached
from pedro.evidence import Judgement, TestEvidence, count, describe_test_run, names
from pedro.limits import MAX_ROUNDS
from pedro.loop.context import (
    render_no_evidence,
    render_nudge,
    render_repair_finished,
    render_repeat_warning,
    render_tests_broken,
    render_tests_failing,
)
from pedro.messages import ExitStatus, ToolCall, ToolResult
from pedro.roles import Role
from pedro.toolcalls import find_completion
from pedro.toolcalls.completion import without_marker
from pedro.workspace import fingerprint

if TYPE_CHECKING:
    from pedro.build import BuildOutcome
    from pedro.repair import RepairOutcome
    from pedro.tools.test import TestRun


class RepairStep(Protocol):
    """Test-driven repair (pedro.repair.Repairer): before the loop for a role that starts with it, or as a finisher
    on the failing tests a completion claim left."""

    def run(
        self,
        emit: Callable[..., None],
        *,
        start: TestRun | None = None,
        targets: frozenset[str] | None = None,
        deadline: Deadline = NO_DEADLINE,
        outcome: RepairOutcome | None = None,
    ) -> RepairOutcome: ...

    def warming(self) -> AbstractContextManager[None]:
        """Around the job's baseline: what the repair will need, started beside it."""
        ...

    def baseline(
        self, emit: Callable[..., None], deadline: Deadline, *, ran: Callable[[TestRun], None] = ...
    ) -> TestRun:
        """The job's tests before anything changes, with this repair to follow: a command that hangs is stopped at
        its share of `deadline` (`ran` hears of that run) and its tests run one by one, each with a limit."""
        ...


class BuildStep(Protocol):
    """Build's direct way (pedro.build.DirectBuild): before the loop, for a role that writes code directly."""

    def run(
        self, emit: Callable[..., None], *, deadline: Deadline = NO_DEADLINE, outcome: BuildOutcome | None = None
    ) -> BuildOutcome: ...


@dataclass(frozen=True)
class Limits:
    """When the loop gives up."""

    max_rounds: int = MAX_ROUNDS
    max_idle_replies: int = config_default(AgentConfig, "max_idle_replies")
    max_repeats: int = config_default(AgentConfig, "max_repeats")
    time_limit_s: float | None = None
    """Wall-clock seconds for the whole job; None for no limit."""
    rounds_after_failed_repair: int = 2
    """Rounds the model gets after a failed repair to make its first successful tool call."""


@dataclass(frozen=True)
class Ending:
    """How a job ended: the exit status, a stable reason (job.finished's `reason`) and a summary for people."""

    status: ExitStatus
    reason: str
    summary: str


@dataclass(frozen=True)
class Verdict:
    """What a rule says about a reply: the job ends, or it goes on with feedback for the model (maybe none)."""

    ending: Ending | None = None
    feedback: tuple[str, ...] = ()


GO_ON = Verdict()


@dataclass
class Counters:
    """What the rules count across rounds; one per run, never global."""

    idle: int = 0
    repeats: int = 0
    last_calls: str = ""
    evidence_refusals: int = 0
    test_refusals: int = 0
    ok_calls: int = 0
    failed_calls: int = 0
    last_failure: str = ""
    """The calls (or malformed calls) of the last round when every one of them failed, else ""."""


def round_limit(limits: Limits) -> Ending:
    """The ending when the rounds run out (also the one a job has until another rule ends it)."""
    return Ending(
        "limit_reached",
        "round_limit",
        f"stopped after {count(limits.max_rounds, 'round')} without completion; raise the limit with --max-rounds N or "
        "[agent].max_rounds",
    )


REPAIRED = frozenset({"repaired", "repaired_unsure"})
"""The reasons of a job that repair ended with a fix."""


def repaired(summary: str, *, unsure: bool = False) -> Ending:
    """Repair fixed the failing tests and the evidence backs it; `repaired_unsure` when plausible fixes disagreed on
    inputs the tests do not pin, so that the fix is not taken for a clean one (the summary names the inputs)."""
    return Ending("completed", "repaired_unsure" if unsure else "repaired", summary)


def built(summary: str, *, verified: bool) -> Ending:
    """The direct way kept an answer that passed every check it had; `unverified` when none of them checked what the
    code does (no test of it, no example, no command given), so that a script reading the record can tell."""
    return Ending("completed", "built" if verified else "unverified", summary)


def build_failed(summary: str) -> Ending:
    """No answer of the direct way passed its checks; the code is as it was."""
    return Ending("failed", "build_failed", summary)


def nothing_to_fix(command: str) -> Ending:
    """The command a debug job was given to reproduce the failure (`command`, as a sentence names it) passed before
    anything changed."""
    return Ending(
        "completed",
        "nothing_to_fix",
        f"{command} passes as the code is: there is nothing to fix. Give --test a command that fails, or describe "
        "the symptom without --test",
    )


def time_limit(limits: Limits) -> Ending:
    """The job's wall-clock limit passed: the ending names it and how to raise it."""
    return Ending(
        "limit_reached",
        "time_limit",
        f"stopped at the job's time limit of {limits.time_limit_s:g} s; raise it with --time-limit SECONDS or "
        "[agent].time_limit_s",
    )


def stalled_after_repair(repair_summary: str, rounds: int) -> Ending:
    """Repair failed and the model could not drive the loop either: end with what repair learned, and say so."""
    return Ending(
        "failed",
        "no_progress",
        f"{repair_summary}; the model made no successful tool call in {count(rounds, 'round')} after repair, so the "
        "job stopped there",
    )


def context_full(message: str) -> Ending:
    return Ending("limit_reached", "context_full", message)


def backend_failed(message: str) -> Ending:
    return Ending("backend_error", "backend_error", message)


def interrupted(how: KeyboardInterrupt) -> Ending:
    """Ctrl-C, or SIGTERM (reason `terminated`, exit 143): the job is saved and can be resumed. The job's time
    limit stops a run the same way (its alarm raises TimeLimitReached wherever the run is)."""
    if isinstance(how, TimeLimitReached):
        return time_limit(Limits(time_limit_s=how.seconds))
    if isinstance(how, Terminated):
        return Ending("interrupted", "terminated", "stopped by SIGTERM; the job is saved")
    return Ending("interrupted", "interrupted", "interrupted by the user; the job is saved")


def unprotected(message: str) -> Ending:
    """The snapshot of the user's work (or the switch to the job branch) failed: nothing ran, nothing changed."""
    return Ending("failed", "unprotected", message)


def internal_error(exc: BaseException) -> Ending:
    """A fault in pedro itself: the job is recorded as failed, and the traceback goes to the job's debug log."""
    return Ending("failed", "internal_error", f"internal error: {type(exc).__name__}: {exc} (see the job's debug.log)")


def timeouts(halted: str | None) -> Ending | None:
    """Commands that kept timing out paused the run and nobody said to go on (Dispatcher.halted)."""
    return Ending("limit_reached", "timeouts", halted) if halted is not None else None


def chat_reply(text: str) -> Ending:
    """tool_use_mode = "disabled": the first reply is the result; an empty one is none."""
    if not text.strip():
        return Ending("failed", "empty_reply", "the model's reply was empty")
    return Ending("completed", "completed", text.strip())


def tool_failed(results: Sequence[ToolResult], counters: Counters, calling: ToolCallingConfig) -> Ending | None:
    """Counts each call's outcome; under an enforced, fatal policy the first failed call ends the run."""
    failed = [result for result in results if not result.ok]
    counters.ok_calls += len(results) - len(failed)
    counters.failed_calls += len(failed)
    if not failed or calling.tool_use_mode != "enforced" or calling.tool_failure_policy != "fatal":
        return None
    first = failed[0]
    why = first.error_code or first.error_kind or "failed"
    return Ending("failed", "tool_failed", f"the {first.name} call failed ({why}) and tool_failure_policy is fatal")


def tool_use(ending: Ending, counters: Counters, calling: ToolCallingConfig) -> Ending:
    """Under tool_use_mode = "enforced", a completion holds only after at least one successful tool call (the
    repair step's edits count: they are tool calls too)."""
    if calling.tool_use_mode != "enforced" or ending.status != "completed" or ending.reason in REPAIRED:
        return ending
    if counters.ok_calls == 0:
        tried = f" ({counters.failed_calls} failed)" if counters.failed_calls else ""
        return Ending(
            "failed", "no_tool_call", f"the run ended without a successful tool call{tried}; {ending.summary}"
        )
    return ending


def repeated_failure(
    calls: Sequence[ToolCall], results: Sequence[ToolResult], problems: Sequence[str], counters: Counters
) -> Ending | None:
    """The same failing calls (or the same malformed ones) twice in a row end the run: what was refused twice is
    refused a third time, and a small model that repeats itself does not stop on its own."""
    failing = (bool(calls) or bool(problems)) and not any(result.ok for result in results)
    signature = json.dumps([[(c.name, c.arguments) for c in calls], list(problems)], sort_keys=True, default=str)
    again = failing and signature == counters.last_failure
    counters.last_failure = signature if failing else ""
    if not again:
        return None
    failed = next((result for result in results if not result.ok), None)
    why = _first_line(failed.output) if failed is not None else (problems[0] if problems else "")
    return Ending("limit_reached", "loop", f"the model sent the same failing call twice in a row: {why}")


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")[:200]


def repeated_calls(calls: Sequence[ToolCall], counters: Counters, limits: Limits) -> Verdict:
    """The loop guard: the same calls again and again get a warning, then end the run, headless or not."""
    signature = json.dumps([(call.name, call.arguments) for call in calls], sort_keys=True, default=str)
    counters.repeats = counters.repeats + 1 if signature == counters.last_calls else 0
    counters.last_calls = signature
    if counters.repeats >= limits.max_repeats:
        return Verdict(
            Ending(
                "limit_reached", "loop", f"the model repeated the same tool calls {counters.repeats + 1} times in a row"
            )
        )
    if counters.repeats == limits.max_repeats - 1:
        return Verdict(feedback=(render_repeat_warning(counters.repeats + 1),))
    return GO_ON


@dataclass
class Evidence:
    """What a completion claim is checked against: the role's rule, the repository's state at the start, the
    tests and their baseline when the job has a command; and what the checks found."""

    role: Role
    root: Path
    baseline: str
    tests: TestEvidence | None = None
    emit: Callable[..., None] = field(default=lambda *_a, **_k: None)
    finisher: RepairStep | None = None
    """Repair as a finisher (Role.repair == "finisher"): run once on the tests a refused claim left failing."""
    last: Judgement | None = None
    """The latest judgement of the tests, for job.finished."""
    repairs: list[RepairOutcome] = field(default_factory=list)
    """What repair did as a finisher, for the job's totals."""
    deadline: Deadline = NO_DEADLINE
    """The job's, which a finishing repair keeps."""

    def judge(self, phase: str) -> Judgement:
        """Run the job's tests, record the run and judge it against the baseline."""
        assert self.tests is not None
        run = self.tests.run()
        self.emit("tests.run", **describe_test_run(run, phase, self.tests.command))
        return self.judge_run(run)

    def judge_run(self, run: TestRun) -> Judgement:
        assert self.tests is not None
        self.last = self.tests.judge(run)
        return self.last


def reply_without_calls(
    text: str, had_problems: bool, counters: Counters, limits: Limits, evidence: Evidence
) -> Verdict:
    """A reply without calls either completes the task, earns feedback, or ends the run for lack of progress."""
    summary = None if had_problems else find_completion(text)
    if summary is not None:
        return _completion_claim(summary or without_marker(text), counters, evidence)
    counters.idle += 1
    if counters.idle >= limits.max_idle_replies:
        message = f"{counters.idle} replies in a row without a usable tool call or the completion marker"
        return Verdict(Ending("limit_reached", "no_progress", message))
    if had_problems:
        return GO_ON
    return Verdict(feedback=(render_nudge(counters.idle, limits.max_idle_replies),))


def _completion_claim(summary: str, counters: Counters, evidence: Evidence) -> Verdict:
    """Completion holds for a role that must change things only with a change, and with the tests backing it when
    the job has a test command (pedro.evidence: nothing that passed fails now); the first claim without them is fed
    back (after repair, for a role that finishes with it, tried the failing tests), the second ends the job failed."""
    if evidence.role.evidence == "changes" and fingerprint(evidence.root) == evidence.baseline:
        counters.evidence_refusals += 1
        if counters.evidence_refusals > 1:
            return Verdict(
                Ending("failed", "no_evidence", "the model reported completion but changed nothing in the repository")
            )
        return Verdict(feedback=(render_no_evidence(),))
    tests = evidence.tests
    if evidence.role.evidence != "changes" or tests is None:
        return Verdict(Ending("completed", "completed", summary))
    judgement = evidence.judge("evidence")
    if not judgement.holds and judgement.targets and evidence.finisher is not None and not evidence.repairs:
        outcome = evidence.finisher.run(
            evidence.emit, start=judgement.run, targets=judgement.targets, deadline=evidence.deadline
        )
        evidence.repairs.append(outcome)
        if outcome.last_run is not None and evidence.judge_run(outcome.last_run).holds:
            return Verdict(feedback=(render_repair_finished(outcome.summary),))
        judgement = evidence.last or judgement
    if judgement.holds:
        return Verdict(Ending("completed", "completed", with_notes(summary, judgement)))
    counters.test_refusals += 1
    if counters.test_refusals > 1:
        message = f"the model reported completion but {tests.tests.named} {_what_fails(judgement)}"
        return Verdict(Ending("failed", "tests_failed", with_notes(message, judgement)))
    return Verdict(feedback=(_tests_feedback(tests.tests.named, judgement),))


def with_notes(summary: str, judgement: Judgement | None) -> str:
    """A summary followed by what the tests' judgement says besides (pre-existing failures, the fallback rule)."""
    if judgement is None or not judgement.notes:
        return summary
    return f"{summary.rstrip().rstrip('.')}. " + "; ".join(judgement.notes)


def _what_fails(judgement: Judgement) -> str:
    verdict = judgement.verdict
    if verdict is None or not verdict.blocking:
        return "still fails"
    return f"fails on tests that passed before or are new: {names(verdict.blocking)}"


def _tests_feedback(command: str, judgement: Judgement) -> str:
    verdict = judgement.verdict
    if verdict is None or not verdict.blocking:
        return render_tests_failing(command, judgement.run.summary)
    still = verdict.named("still_failing")
    return render_tests_broken(command, judgement.run.summary, names(verdict.blocking), names(still) if still else "")


__all__ = [
    "GO_ON",
    "Counters",
    "RepairStep",
    "BuildStep",
    "Ending",
    "Evidence",
    "Limits",
    "Verdict",
    "backend_failed",
    "chat_reply",
    "context_full",
    "internal_error",
    "interrupted",
    "nothing_to_fix",
    "repaired",
    "REPAIRED",
    "repeated_calls",
    "reply_without_calls",
    "round_limit",
    "stalled_after_repair",
    "time_limit",
    "timeouts",
    "tool_failed",
    "tool_use",
    "with_notes",
]
