"""The results of extraction (calls, visible text, format problems) and the parsers' internal records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pedro.messages import ToolCall

ProblemKind = Literal[
    "truncated",
    "invalid_json",
    "unknown_tool",
    "not_json",
    "narrated",
    "invalid_name",
    "invalid_arguments",
    "missing_name",
]

SegmentRole = Literal["call", "fence_call", "text", "reasoning"]


@dataclass(frozen=True)
class FormatProblem:
    """Something wrong with how the model wrote a call; `message` is fit to send back to the model as is."""

    kind: ProblemKind
    message: str
    raw: str = ""


@dataclass(frozen=True)
class Extraction:
    """What one assistant reply asks for: calls in order, the visible text, and the problems found."""

    calls: tuple[ToolCall, ...]
    text: str
    problems: tuple[FormatProblem, ...]
    reasoning: str = ""
    dialect: str | None = None


@dataclass(frozen=True)
class Candidate:
    """A call as a dialect parser read it, before its name is checked against the registry."""

    name: str
    arguments: dict[str, Any]
    dialect: str
    raw: str = ""
    id: str | None = None


@dataclass(frozen=True)
class Issue:
    """A problem as a dialect parser found it, before its message is rendered."""

    kind: ProblemKind
    dialect: str
    raw: str = ""
    name: str = ""
    error: str = ""


Found = Candidate | Issue


@dataclass
class Segment:
    """One span of the scanned text: a call, a fence call, reasoning, or text that stays visible."""

    end: int
    found: list[Found] = field(default_factory=list)
    role: SegmentRole = "call"
    visible: str = ""
    reasoning: str = ""
    incomplete: bool = False
    source: str = ""
