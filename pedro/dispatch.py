"""The Dispatcher: lookup, validate, run, and wrap every outcome in a ToolResult; it never raises for tool faults."""

from __future__ import annotations

import json
import os
import time
from typing import Any

from pydantic import ValidationError

from pedro.messages import ErrorKind, ToolCall, ToolResult
from pedro.safety.gate import Gate
from pedro.safety.secrets import Redactor, secret_values
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext, ToolFailure


class Dispatcher:
    """Runs the model's calls against a registry inside one tool context."""

    def __init__(
        self, registry: ToolRegistry, ctx: ToolContext, *, redactor: Redactor | None = None, gate: Gate | None = None
    ) -> None:
        self.registry = registry
        self.ctx = ctx
        self.gate = gate
        # Secrets never reach the model: known key shapes and this process's secret env values are masked.
        self.redactor = redactor if redactor is not None else Redactor(secret_values(os.environ))

    def run(self, call: ToolCall) -> ToolResult:
        """Run one call; every failure becomes `ok=False` with a message the model can act on."""
        started = time.monotonic()
        try:
            output = self._run(call)
        except ToolFailure as exc:
            return self._result(call, False, str(exc), exc.kind, started)
        except _Refusal as exc:
            return self._result(call, False, str(exc), exc.kind, started)
        except Exception as exc:  # noqa: BLE001 - a raising tool must never take the loop down
            message = f"the {call.name} tool failed unexpectedly ({type(exc).__name__}: {exc}); try different arguments"
            return self._result(call, False, message, "failed", started)
        return self._result(call, True, output, None, started)

    def _run(self, call: ToolCall) -> str:
        tool = self.registry.get(call.name)
        if tool is None:
            names = ", ".join(self.registry.names())
            raise _Refusal("unknown_tool", f"there is no tool named {call.name!r}; the tools you can call are: {names}")
        size = len(json.dumps(call.arguments, ensure_ascii=False, default=str).encode())
        limit = self.ctx.config.max_argument_bytes
        if size > limit:
            raise _Refusal(
                "too_large",
                f"the arguments are {size} bytes; the limit is {limit}. Split the work into "
                "smaller calls (e.g. several code_edit calls instead of one huge write)",
            )
        try:
            args = tool.Args.model_validate(call.arguments)
        except ValidationError as exc:
            raise _Refusal("invalid_args", _describe_validation(call.name, exc, tool.Args.model_json_schema())) from exc
        if self.gate is not None:
            self.gate.check(call.name, args, self.ctx)
        return tool.run(args, self.ctx)

    def _result(self, call: ToolCall, ok: bool, output: str, kind: ErrorKind | None, started: float) -> ToolResult:
        text, truncated = truncate_middle(self.redactor.redact(output), self.ctx.config.max_output_bytes)
        return ToolResult(
            name=call.name,
            ok=ok,
            output=text,
            error_kind=kind,
            truncated=truncated,
            duration_ms=int((time.monotonic() - started) * 1000),
            call_id=call.id,
        )


class _Refusal(Exception):
    def __init__(self, kind: ErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind


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
