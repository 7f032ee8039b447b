"""The stack's outer layers: every outcome of the layers below becomes a ToolResult (redacted, held to the output
limit, cut in the middle), and a reported run is told as `tool_call.started` and `tool_call.finished` events."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from pedro.debuglog import LOGGER
from pedro.dispatch.call import PreparedCall
from pedro.messages import ToolResult
from pedro.safety.secrets import Redactor
from pedro.tools.base import OutputTooLargeError, ToolFailure


@dataclass(frozen=True)
class Results:
    """Turns the answer of the layers below, or the failure they raised, into a ToolResult; it never raises for a
    tool's fault, so a raising tool cannot take the loop down."""

    redactor: Redactor
    """Secrets never reach the model: known key shapes and this process's secret env values are masked."""

    def __call__(self, call: PreparedCall, inner: Callable[[PreparedCall], str]) -> ToolResult:
        started = time.monotonic()
        try:
            output = inner(call)
        except ToolFailure as exc:
            return self.result(call, started, str(exc), exc)
        except Exception as exc:  # noqa: BLE001 - a raising tool must never take the loop down
            LOGGER.exception("the %s tool raised on arguments %r", call.call.name, call.call.arguments)
            name = call.call.name
            message = f"the {name} tool failed unexpectedly ({type(exc).__name__}: {exc}); try different arguments"
            return self.result(call, started, message, ToolFailure(message))
        return self.result(call, started, output, None)

    def result(self, call: PreparedCall, started: float, output: str, failure: ToolFailure | None) -> ToolResult:
        """`output` redacted and cut to fit; a successful output over the limit under tool_output_overflow = "error"
        becomes TOOL_OUTPUT_TOO_LARGE."""
        text = self.redactor.redact(output)
        if failure is None:
            try:
                call.ctx.check_output_size(call.call.name, len(text.encode("utf-8", errors="replace")))
            except OutputTooLargeError as exc:
                text, failure = str(exc), exc
        text, truncated = truncate_middle(text, call.ctx.output_limit)
        return ToolResult(
            name=call.call.name,
            ok=failure is None,
            output=text,
            error_kind=failure.kind if failure is not None else None,
            truncated=truncated,
            duration_ms=int((time.monotonic() - started) * 1000),
            call_id=call.call.id,
            error_code=failure.code if failure is not None else None,
        )


def reported(call: PreparedCall, inner: Callable[[PreparedCall], ToolResult]) -> ToolResult:
    """A reported run between its `tool_call.started` and `tool_call.finished` events; a plain run passes."""
    if call.emit is None:
        return inner(call)
    call.emit("tool_call.started", id=call.call.id, name=call.call.name, arguments=call.call.arguments)
    result = inner(call)
    call.emit(
        "tool_call.finished",
        id=call.call.id,
        name=call.call.name,
        ok=result.ok,
        error_kind=result.error_kind,
        error_code=result.error_code,
        duration_ms=result.duration_ms,
        truncated=result.truncated,
        output=result.output,
    )
    return result


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
