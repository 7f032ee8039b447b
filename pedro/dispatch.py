"""The Dispatcher: lookup, validate, run, and wrap every outcome in a ToolResult; it never raises for tool faults."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from pedro.debuglog import LOGGER
from pedro.effects import IN_DOUBT, Effects
from pedro.effects import NONE as NO_EFFECTS
from pedro.gate import Gate
from pedro.messages import ErrorCode, ErrorKind, ToolCall, ToolResult
from pedro.prompts import render_prompt
from pedro.safety.guard import record_snapshot
from pedro.safety.journal import Journal
from pedro.safety.secrets import Redactor, secret_values
from pedro.tools import ToolRegistry
from pedro.tools.base import ApprovalRequest, OutputTooLargeError, Tool, ToolContext, ToolFailure

# SWE-agent's rule: this many bash/test timeouts in a row stop the run (or ask the person whether to go on).
MAX_CONSECUTIVE_TIMEOUTS = 3


class Dispatcher:
    """Runs the model's calls against a registry inside one tool context."""

    def __init__(
        self,
        registry: ToolRegistry,
        ctx: ToolContext,
        *,
        redactor: Redactor | None = None,
        gate: Gate | None = None,
        journal: Journal | None = None,
        after_call: Callable[[ToolCall], dict[str, Any] | None] | None = None,
    ) -> None:
        self.registry = registry
        self.ctx = ctx
        self.gate = gate
        self.journal = journal
        # Secrets never reach the model: known key shapes and this process's secret env values are masked.
        self.redactor = redactor if redactor is not None else Redactor(secret_values(os.environ, root=ctx.root))
        self.timeouts = 0
        """bash/test timeouts in a row."""
        self.halted: str | None = None
        """Why the run must stop (e.g. too many timeouts in a row); the loop ends the job when this is set."""
        self.after_call = after_call
        """Told about every call run_reported ran: the snapshot guard closes a round with it (safety/guard.py)."""
        if gate is not None:
            gate.attach(ctx)

    def run(self, call: ToolCall) -> ToolResult:
        """Run one call; every failure becomes `ok=False` with a message the model can act on."""
        started = time.monotonic()
        if self.halted is not None:
            return self._result(call, False, render_prompt("feedback/halted.md", reason=self.halted), "denied", started)
        try:
            output = self._run(call)
        except ToolFailure as exc:
            result = self._result(call, False, str(exc), exc.kind, started, exc.code)
        except _Refusal as exc:
            return self._result(call, False, str(exc), exc.kind, started, exc.code)
        except Exception as exc:  # noqa: BLE001 - a raising tool must never take the loop down
            LOGGER.exception("the %s tool raised on arguments %r", call.name, call.arguments)
            message = f"the {call.name} tool failed unexpectedly ({type(exc).__name__}: {exc}); try different arguments"
            return self._result(call, False, message, "failed", started)
        else:
            result = self._result(call, True, output, None, started)
        if result.error_kind != "denied" and self.effects(call).runs_commands:
            result = self._count_timeouts(call, result)
        return result

    @property
    def allowed(self) -> tuple[str, ...]:
        """The tools offered to the model and allowed to run: the registry less [tool_calling]'s masks and the tools
        of an MCP server that has stopped."""
        calling = self.ctx.calling
        return tuple(
            tool.name
            for tool in self.registry
            if (not calling.allow_tools or tool.name in calling.allow_tools)
            and tool.name not in calling.deny_tools
            and getattr(tool, "available", True)
        )

    def specs(self, *, short: bool = False) -> list[dict[str, Any]]:
        """The definitions of the tools offered to the model, in registry order."""
        return [spec for spec in self.registry.specs(short=short) if spec["function"]["name"] in self.allowed]

    def effects(self, call: ToolCall) -> Effects:
        """What `call` would do if it ran: its tool's declaration from the validated arguments. Nothing for a call
        that cannot run (an unknown tool, invalid arguments); anything for a tool that cannot say."""
        tool = self.registry.get(call.name)
        if tool is None:
            return NO_EFFECTS
        try:
            args = tool.Args.model_validate(call.arguments)
        except ValidationError:
            return NO_EFFECTS
        return _declared(tool, args)

    def run_reported(self, call: ToolCall, emit: Callable[..., None]) -> ToolResult:
        """Run one call between its `tool_call.started` and `tool_call.finished` events."""
        emit("tool_call.started", id=call.id, name=call.name, arguments=call.arguments)
        result = self.run(call)
        emit(
            "tool_call.finished",
            id=call.id,
            name=call.name,
            ok=result.ok,
            error_kind=result.error_kind,
            error_code=result.error_code,
            duration_ms=result.duration_ms,
            truncated=result.truncated,
            output=result.output,
        )
        self._report_done(call, emit)
        return result

    def _report_done(self, call: ToolCall, emit: Callable[..., None]) -> None:
        """Tell `after_call` (the snapshot guard) that a call ran; a snapshot it takes becomes an event."""
        if self.after_call is not None:
            record_snapshot(emit, self.after_call, call)

    def _count_timeouts(self, call: ToolCall, result: ToolResult) -> ToolResult:
        """Three commands in a row that time out pause the run: the person decides, or (never) the run ends."""
        self.timeouts = self.timeouts + 1 if result.error_kind == "timeout" else 0
        if self.timeouts < MAX_CONSECUTIVE_TIMEOUTS:
            return result
        reason = f"{self.timeouts} bash/test commands in a row timed out"
        can_ask = self.gate is None or self.gate.policy.approval == "ask"
        question = ApprovalRequest(
            kind="timeouts",
            subject=str(call.arguments.get("command") or call.name),
            risk=f"{reason}; the model may be stuck on commands that never finish",
        )
        if can_ask and self.ctx.request(question) in ("yes", "always"):
            self.timeouts = 0
            return result
        self.halted = reason
        note = render_prompt("feedback/halted.md", reason=reason)
        return self._result(call, False, f"{result.output}\n\n{note}", "timeout", time.monotonic())

    def _run(self, call: ToolCall) -> str:
        tool = self.registry.get(call.name)
        if tool is None:
            names = ", ".join(self.allowed)
            raise _Refusal("unknown_tool", f"there is no tool named {call.name!r}; the tools you can call are: {names}")
        if call.name not in self.allowed:
            allowed = ", ".join(self.allowed) or "none"
            message = render_prompt("feedback/tool_not_allowed.md", name=call.name, allowed=allowed)
            raise _Refusal("denied", message.strip(), "TOOL_NOT_ALLOWED")
        size = len(json.dumps(call.arguments, ensure_ascii=False, default=str).encode())
        limit = self.ctx.calling.max_tool_args_bytes
        if size > limit:
            message = render_prompt("feedback/arguments_too_large.md", name=call.name, size=size, limit=limit)
            raise _Refusal("too_large", message.strip(), "ARGUMENTS_TOO_LARGE")
        try:
            args = tool.Args.model_validate(call.arguments)
        except ValidationError as exc:
            raise _Refusal("invalid_args", _describe_validation(call.name, exc, tool.Args.model_json_schema())) from exc
        effects = _declared(tool, args)
        # What the policy grants goes with this call only: the next call is decided afresh.
        ctx = self.ctx.for_call(self.gate.check(effects, self.ctx)) if self.gate is not None else self.ctx
        written = _written_path(effects, ctx) if self.journal is not None else None
        if written is None or self.journal is None:
            return tool.run(args, ctx)
        # Before and after the atomic rename: an interrupted round can say exactly which files changed.
        self.journal.applying(written)
        try:
            output = tool.run(args, ctx)
        except ToolFailure:
            self.journal.applied(written, changed=False)
            raise
        self.journal.applied(written, changed=True)
        return output

    def _result(
        self,
        call: ToolCall,
        ok: bool,
        output: str,
        kind: ErrorKind | None,
        started: float,
        code: ErrorCode | None = None,
    ) -> ToolResult:
        text = self.redactor.redact(output)
        if ok:
            try:
                self.ctx.check_output_size(call.name, len(text.encode("utf-8", errors="replace")))
            except OutputTooLargeError as exc:
                ok, text, kind, code = False, str(exc), exc.kind, exc.code
        text, truncated = truncate_middle(text, self.ctx.output_limit)
        return ToolResult(
            name=call.name,
            ok=ok,
            output=text,
            error_kind=kind,
            truncated=truncated,
            duration_ms=int((time.monotonic() - started) * 1000),
            call_id=call.id,
            error_code=code,
        )


def _declared(tool: Tool, args: Any) -> Effects:
    """The tool's own declaration of what the call does; anything, when the tool cannot say."""
    try:
        return tool.effects(args)
    except Exception:  # noqa: BLE001 - a tool that cannot describe its call is taken to do anything
        LOGGER.exception("the %s tool could not declare its effects", tool.name)
        return IN_DOUBT


def _written_path(effects: Effects, ctx: ToolContext) -> str | None:
    """The file a call writes or deletes, as the model sees it; None for other calls."""
    changed = effects.changed_paths
    if not changed:
        return None
    try:
        return ctx.rel(ctx.resolve(changed[0]))
    except ToolFailure:
        return None


class _Refusal(Exception):
    def __init__(self, kind: ErrorKind, message: str, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.code: ErrorCode | None = code


def _describe_validation(name: str, exc: ValidationError, schema: dict[str, Any]) -> str:
    problems = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"]) or "arguments"
        problems.append(f"{where}: {error['msg']}")
    props = schema.get("properties", {})
    keys = ", ".join(f"{key} ({_type_of(spec)})" for key, spec in props.items())
    return f"invalid arguments for {name}: {'; '.join(problems)}. It takes: {keys}"


def _type_of(spec: dict[str, Any]) -> str:
    if "enum" in spec:
        return "|".join(str(v) for v in spec["enum"])
    if "anyOf" in spec:
        return "|".join(_type_of(s) for s in spec["anyOf"] if s.get("type") != "null")
    return str(spec.get("type", "any"))


def truncate_middle(text: str, limit: int) -> tuple[str, bool]:
    """Keep the head and tail of `text` within `limit` bytes, with a marker saying how much was cut."""
    data = text.encode("utf-8", errors="replace")
    if len(data) <= limit:
        return text, False
    keep = max(limit - 80, 0)
    head = data[: keep * 2 // 3].decode("utf-8", errors="ignore")
    tail = data[len(data) - keep // 3 :].decode("utf-8", errors="ignore")
    cut = len(data) - len(head.encode()) - len(tail.encode())
    return f"{head}\n[... truncated {cut} bytes ...]\n{tail}", True
