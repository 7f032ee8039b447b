"""The extraction entry point: detect the payload shape, scan, apply precedence, check names, render problems."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pedro.messages import ToolCall
from pedro.toolcalls import harmony
from pedro.toolcalls.completion import is_narrated
from pedro.toolcalls.model import Candidate, Extraction, FormatProblem, Found, Issue, Segment
from pedro.toolcalls.names import Registry, TextFileCheck
from pedro.toolcalls.native import NativeReply, read_chunks, read_message
from pedro.toolcalls.problems import render_narrated, render_problem
from pedro.toolcalls.scanner import new_scan, scan_text

MAX_PROBLEMS = 8
_BLANK_LINES = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")


@dataclass
class Parsed:
    """A reply taken apart, before names are checked and problems rendered."""

    text: str = ""
    reasoning: list[str] = field(default_factory=list)
    found: list[Found] = field(default_factory=list)
    incomplete: bool = False


def parse_text(text: str, registry: Registry, *, final: bool = True) -> Parsed:
    """Reasoning, visible text and call candidates of raw assistant text."""
    text = text.replace("\r\n", "\n")
    scan = new_scan(text, registry, final=final)
    if harmony.is_harmony(text):
        reply = harmony.parse(scan)
        return Parsed("".join(reply.visible), reply.reasoning, reply.found, reply.truncated)
    return assemble(scan_text(scan))


def assemble(segments: list[Segment]) -> Parsed:
    """Apply §2.1 precedence: when structured calls are present, fence calls are illustrations."""
    structured = any(seg.role == "call" and seg.found for seg in segments)
    parsed = Parsed()
    visible: list[str] = []
    for seg in segments:
        if seg.role == "reasoning":
            parsed.reasoning.append(seg.reasoning)
        elif seg.role == "fence_call" and structured:
            visible.append(seg.source)
            continue
        else:
            visible.append(seg.visible)
            parsed.found.extend(seg.found)
        parsed.incomplete = parsed.incomplete or seg.incomplete
    parsed.text = "".join(visible)
    return parsed


def _clean(text: str) -> str:
    return _BLANK_LINES.sub("\n\n", text).strip()


def _reply(payload: Any, registry: Registry) -> tuple[Parsed, str | None, bool]:
    """Parsed reply, the payload's own finish reason, and whether it came as a structured payload."""
    if isinstance(payload, str):
        return parse_text(payload, registry), None, False
    native: NativeReply
    if isinstance(payload, dict):
        native = read_message(payload)
    elif isinstance(payload, list):
        native = read_chunks(payload, registry)
    else:
        return Parsed(), None, False
    parsed = parse_text(native.content, registry)
    parsed.reasoning.insert(0, native.reasoning)
    if native.found:  # native calls win; markup left in content must not run a second time
        parsed.found = list(native.found)
    return parsed, native.finish_reason, True


def finalize(parsed: Parsed, registry: Registry, finish_reason: str | None, *, structured: bool) -> Extraction:
    """Check names against the registry, apply the truncation rule, give ids, render problems."""
    dialects = [item.dialect for item in parsed.found]
    calls, issues = _resolved(parsed.found, registry)
    problems = _problems(issues, registry)
    if finish_reason == "length" and any(p.kind == "truncated" for p in problems):
        calls = []  # §2.3: a reply cut off inside a call executes nothing
    text = _clean(parsed.text)
    if not calls and not problems and is_narrated(text):
        problems.append(render_narrated(registry, "native" if structured else "fenced"))
    calls = [ToolCall(c.name, c.arguments, c.id or f"call_{i}") for i, c in enumerate(calls)]
    reasoning = "\n".join(r for r in parsed.reasoning if r.strip()).strip()
    return Extraction(tuple(calls), text, tuple(problems), reasoning, dialects[0] if dialects else None)


def _resolved(found: Sequence[Found], registry: Registry) -> tuple[list[ToolCall], list[Issue]]:
    """The calls whose names the registry knows, and the issues: those found, and one per unknown name."""
    calls: list[ToolCall] = []
    issues: list[Issue] = []
    for item in found:
        if isinstance(item, Issue):
            issues.append(item)
            continue
        name, problem = registry.resolve(item.name)
        if problem is not None:
            issues.append(Issue(problem, item.dialect, item.raw, name=name))
            continue
        calls.append(ToolCall(name, item.arguments, item.id))
    return calls, issues


def _problems(issues: list[Issue], registry: Registry) -> list[FormatProblem]:
    """The first MAX_PROBLEMS issues rendered, and a cut-off call among the rest, which decides what runs."""
    # a reply with thousands of broken calls needs a handful of messages, not thousands
    problems = [render_problem(item, registry) for item in issues[:MAX_PROBLEMS]]
    if any(item.kind == "truncated" for item in issues[MAX_PROBLEMS:]):
        problems.append(render_problem(next(i for i in issues if i.kind == "truncated"), registry))
    return problems


def extract_unguarded(
    payload: str | dict[str, Any] | list[Any],
    tools: Sequence[Mapping[str, Any]],
    *,
    finish_reason: str | None = None,
    text_file: TextFileCheck | None = None,
) -> Extraction:
    """extract() without its safety net; the property tests call this so that a crash cannot hide."""
    registry = Registry(tools, text_file)
    parsed, own_reason, structured = _reply(payload, registry)
    return finalize(parsed, registry, finish_reason or own_reason, structured=structured)


def extract(
    payload: str | dict[str, Any] | list[Any],
    tools: Sequence[Mapping[str, Any]],
    *,
    finish_reason: str | None = None,
    text_file: TextFileCheck | None = None,
) -> Extraction:
    """Calls, visible text and format problems of one assistant reply; never raises (contract §4).

    `text_file` says whether a path names a text file in the repository; with it, `file PATH` alone in a bash
    block is a read of PATH (dialect `cli`), without it that line stays a shell command."""
    try:
        return extract_unguarded(payload, tools, finish_reason=finish_reason, text_file=text_file)
    except Exception:  # noqa: BLE001 - model output must never crash the loop; nothing runs from a failed parse
        # A bug here would look like a model that made no call: the traceback goes to pedro's own log.
        logging.getLogger("pedro").exception("extract() failed on a reply; it was read as text without calls")
        return Extraction((), payload if isinstance(payload, str) else "", ())


__all__ = ["Candidate", "extract", "extract_unguarded", "finalize", "parse_text"]
