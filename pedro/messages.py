"""The shared vocabulary of every layer: messages, calls, results, completions, events, statuses."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

ErrorKind = Literal["unknown_tool", "invalid_args", "denied", "timeout", "failed", "too_large"]
# Stable codes of the guardrails of [tool_calling], for the model and for whoever reads the trace.
ErrorCode = Literal["ARGUMENTS_TOO_LARGE", "TOOL_OUTPUT_TOO_LARGE", "TOOL_NOT_ALLOWED"]

ExitStatus = Literal["completed", "failed", "usage_error", "backend_error", "limit_reached", "interrupted"]
EXIT_CODES: dict[ExitStatus, int] = {
    "completed": 0,
    "failed": 1,
    "usage_error": 2,
    "backend_error": 3,
    "limit_reached": 4,
    "interrupted": 130,
}

MessageRole = Literal["system", "user", "assistant", "tool"]

RoleName = Literal["builder", "debugger", "reviewer", "triager"]

EventType = Literal[
    "job.started",
    "round.started",
    "model.delta",
    "model.completed",
    "format.problem",
    "tool_call.started",
    "tool_call.finished",
    "tool_calls.ignored",
    "round.finished",
    "snapshot.taken",
    "context.compacted",
    "context.truncated",
    "tests.run",
    "repair.spectrum",
    "repair.started",
    "repair.candidate",
    "repair.kept",
    "repair.dropped",
    "repair.chosen",
    "repair.restored",
    "repair.finished",
    "build.started",
    "build.answer",
    "build.chosen",
    "build.test",
    "build.finished",
    "notice",
    "job.finished",
    "triage.fix",
]
EVENT_SCHEMA_VERSION = 1
EVENT_ENVELOPE = ("schema", "type", "job_id", "seq", "ts")
"""The keys every recorded event has (Event.to_dict); the rest are its data."""


def event_data(record: Mapping[str, Any]) -> dict[str, Any]:
    """A recorded event's own data, without the envelope every event shares."""
    return {key: value for key, value in record.items() if key not in EVENT_ENVELOPE}


@dataclass(frozen=True)
class ToolCall:
    """One call the model asked for: a tool name and a JSON object of arguments."""

    name: str
    arguments: dict[str, Any]
    id: str | None = None


@dataclass(frozen=True)
class Message:
    """One chat message in pedro's own shape; backends translate it to their wire format."""

    role: MessageRole
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Message:
        """The inverse of to_dict, for a job's saved history."""
        calls = tuple(ToolCall(str(c["name"]), dict(c["arguments"]), c.get("id")) for c in data.get("tool_calls", []))
        return cls(data["role"], str(data["content"]), calls, data.get("tool_call_id"), data.get("name"))


@dataclass(frozen=True)
class Usage:
    """Token counts a server reported for one completion (0 when it reported none)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cached_tokens + other.cached_tokens,
        )


@dataclass(frozen=True)
class TokenChoice:
    """One token a model wrote, with its log-probability and the likeliest tokens it could have written there
    (itself among them), as the server reported them (`logprobs.content`)."""

    text: str
    logprob: float
    likeliest: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Completion:
    """The final result of one model request, whatever the wire protocol was."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    reasoning: str = ""
    usage: Usage = field(default_factory=Usage)
    timings: dict[str, Any] = field(default_factory=dict)
    finish_reason: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)
    notices: tuple[str, ...] = ()
    """Things the user should be told about this request, e.g. a switch to text mode."""
    tokens: tuple[TokenChoice, ...] = ()
    """Each token written and its likeliest alternatives, where they were asked for (`GenerationOptions.likeliest`)
    and the server sends them; empty otherwise."""


@dataclass(frozen=True)
class ToolResult:
    """The envelope every tool call ends in; `output` is exactly what the model sees."""

    name: str
    ok: bool
    output: str
    error_kind: ErrorKind | None = None
    truncated: bool = False
    duration_ms: int = 0
    call_id: str | None = None
    error_code: ErrorCode | None = None
    """The stable code of a guardrail that stopped or replaced the call's output, e.g. ARGUMENTS_TOO_LARGE."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Event:
    """One thing that happened in a job; the CLI renders it, the job store persists it."""

    type: EventType
    job_id: str
    seq: int
    data: dict[str, Any] = field(default_factory=dict)
    ts: float = field(default_factory=time.time)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": EVENT_SCHEMA_VERSION,
            "type": self.type,
            "job_id": self.job_id,
            "seq": self.seq,
            "ts": self.ts,
            **self.data,
        }
