"""What one run of pedro did, read from its event stream, and the one mapping from that to why a run failed."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args

FailureReason = Literal[
    "no_tool_call",
    "empty_reply",
    "bad_format",
    "bad_arguments",
    "tool_failed",
    "tests_failed",
    "check_failed",
    "unverified",
    "no_answer_passed",
    "no_change",
    "no_progress",
    "round_limit",
    "loop",
    "context_full",
    "tool_timeouts",
    "time_limit",
    "timeout",
    "server_error",
    "usage_error",
    "crashed",
    "interrupted",
    "internal_error",
    "mismatch",
    "other",
]
"""Why a run did not count as a success (docs/eval.md has the table)."""
FAILURE_REASONS: tuple[str, ...] = get_args(FailureReason)

# job.finished reasons that say by themselves why the run failed.
_BY_REASON: Final[Mapping[str, FailureReason]] = {
    "backend_error": "server_error",
    "tests_failed": "tests_failed",
    "no_evidence": "no_change",
    "context_full": "context_full",
    "timeouts": "tool_timeouts",
    "interrupted": "interrupted",
    "terminated": "interrupted",
    "internal_error": "internal_error",
    "no_tool_call": "no_tool_call",
    "empty_reply": "empty_reply",
    "build_failed": "no_answer_passed",
    "unverified": "unverified",
    "time_limit": "time_limit",
}
# Error kinds of calls the model wrote wrongly (as opposed to calls that ran and failed).
_ARGUMENT_ERRORS: Final = frozenset({"invalid_args", "unknown_tool", "too_large"})
# Endings of a run that went nowhere, refined by what its calls show.
_LIMIT_REASONS: Final[Mapping[str, FailureReason]] = {
    "round_limit": "round_limit",
    "loop": "loop",
    "no_progress": "no_progress",
    "tool_failed": "tool_failed",
}
USAGE_EXIT_CODE: Final = 2


@dataclass(frozen=True)
class Outcome:
    """The facts of one run: how its job ended and what its calls did."""

    finished: bool
    """Whether the stream holds job.finished (a run that crashed or was refused has none)."""
    status: str
    """job.finished's exit_status, or "none"."""
    reason: str
    """job.finished's reason, or "none"."""
    exit_code: int | None
    timed_out: bool = False
    interrupted: bool = False
    calls: tuple[str, ...] = ()
    """Each call in order: "name ok", or "name <error_kind>" when it failed."""
    codes: tuple[str, ...] = ()
    """The stable error codes the model was shown, in the order first seen."""
    problems: tuple[str, ...] = ()
    """The kind of each format problem fed back (a call that could not run: invalid_json, unknown_tool, …)."""
    rounds: int = 0
    tool_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    repair_candidates: int = 0
    settings: Mapping[str, Any] = field(default_factory=dict)
    """The settings job.started recorded (the run's composed [tool_calling], sampling, tool mode)."""

    @property
    def ok_calls(self) -> int:
        return sum(call.endswith(" ok") for call in self.calls)


def read_events(stdout: str) -> list[dict[str, Any]]:
    """The JSON events of a `--json` run, in order; lines that are not events are skipped."""
    events = []
    for line in stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and isinstance(event.get("type"), str):
            events.append(event)
    return events


def read_outcome(
    events: Iterable[Mapping[str, Any]], *, exit_code: int | None, timed_out: bool = False, interrupted: bool = False
) -> Outcome:
    """The outcome of a run from its events and how its process ended."""
    calls: list[str] = []
    codes: list[str] = []
    problems: list[str] = []
    finished: Mapping[str, Any] | None = None
    settings: Mapping[str, Any] = {}
    for event in events:
        kind = event.get("type")
        if kind == "job.started" and isinstance(event.get("settings"), Mapping):
            settings = event["settings"]
        elif kind == "tool_call.finished":
            calls.append(_call_line(event))
            code = event.get("error_code")
            if isinstance(code, str) and code and code not in codes:
                codes.append(code)
        elif kind == "format.problem":
            problems.append(str(event.get("kind", "")))
        elif kind == "job.finished":
            finished = event
    totals = _totals(finished)
    return Outcome(
        finished=finished is not None,
        status=str(finished.get("exit_status", "none")) if finished is not None else "none",
        reason=str(finished.get("reason", "none")) if finished is not None else "none",
        exit_code=exit_code,
        timed_out=timed_out,
        interrupted=interrupted,
        calls=tuple(calls),
        codes=tuple(codes),
        problems=tuple(problems),
        rounds=_count(totals, "rounds"),
        tool_calls=_count(totals, "tool_calls") or len(calls),
        prompt_tokens=_count(totals, "prompt_tokens"),
        completion_tokens=_count(totals, "completion_tokens"),
        repair_candidates=_count(totals, "repair_candidates"),
        settings=settings,
    )


def _call_line(event: Mapping[str, Any]) -> str:
    """A finished tool call as the outcome lists it: its name, then `ok` or the kind of error."""
    return f"{event.get('name')} {'ok' if event.get('ok') else event.get('error_kind') or 'failed'}"


def _totals(finished: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """The totals the job.finished event carries; empty when there is none or it is malformed."""
    totals = finished.get("totals", {}) if finished is not None else {}
    return totals if isinstance(totals, Mapping) else {}


def failure_reason(outcome: Outcome, *, solved: bool) -> FailureReason | None:
    """Why a run failed (None when it succeeded): the job's own reason where it says enough, else what the trace
    shows about the calls. The one place this mapping lives."""
    if solved:
        return None
    if outcome.timed_out:
        return "timeout"
    if outcome.interrupted:
        return "interrupted"
    if not outcome.finished:
        return "usage_error" if outcome.exit_code == USAGE_EXIT_CODE else "crashed"
    if outcome.reason in _BY_REASON:
        return _BY_REASON[outcome.reason]
    if outcome.reason in ("completed", "repaired", "repaired_unsure", "built"):
        return "check_failed"  # pedro's own evidence held, the task's hidden check did not
    return _reason_from_calls(outcome)


def _reason_from_calls(outcome: Outcome) -> FailureReason:
    """Why a finished job whose reason says no more failed, from what its calls show."""
    if not outcome.calls:
        return "bad_format" if outcome.problems else "no_tool_call"
    failed = [call.split(" ", 1)[1] for call in outcome.calls if not call.endswith(" ok")]
    if outcome.ok_calls == 0 and failed and all(kind in _ARGUMENT_ERRORS for kind in failed):
        return "bad_arguments"
    return _LIMIT_REASONS.get(outcome.reason, "other")


def _count(totals: Mapping[str, Any], key: str) -> int:
    value = totals.get(key, 0)
    return value if isinstance(value, int) else 0
