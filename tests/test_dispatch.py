"""The Dispatcher turns every outcome into an envelope and never raises."""

from __future__ import annotations

import threading
from typing import Any, ClassVar, Literal

import pytest
from pydantic import model_validator

from pedro.config import ToolCallingConfig
from pedro.dispatch import Dispatcher, truncate_middle
from pedro.loop.context import render_tool_result
from pedro.messages import ToolCall
from pedro.safety.secrets import Redactor
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolArgs, ToolContext, ToolFailure


class EchoArgs(ToolArgs):
    action: Literal["echo", "fail", "crash", "flood"] = "echo"
    text: str = ""

    @model_validator(mode="after")
    def _needs_text(self) -> EchoArgs:
        if self.action == "echo" and not self.text:
            raise ValueError("echo needs 'text'")
        return self


class EchoTool:
    """A real tool implementing the protocol, used to exercise every dispatch path."""

    name: ClassVar[str] = "echo"
    Args: ClassVar[type[ToolArgs]] = EchoArgs

    def run(self, args: Any, ctx: ToolContext) -> str:
        if args.action == "fail":
            raise ToolFailure("cannot do that; try echo")
        if args.action == "crash":
            raise RuntimeError("boom")
        if args.action == "flood":
            return "x" * 100_000
        return str(args.text)


@pytest.fixture
def dispatcher(ctx: ToolContext) -> Dispatcher:
    ctx.calling = ToolCallingConfig(max_tool_output_bytes=2048, max_tool_args_bytes=1024)
    return Dispatcher(ToolRegistry([EchoTool()]), ctx)


def test_ok_result(dispatcher: Dispatcher) -> None:
    result = dispatcher.run(ToolCall("echo", {"text": "hi"}, id="c1"))
    assert (result.ok, result.output, result.error_kind, result.call_id) == (True, "hi", None, "c1")


@pytest.mark.parametrize(
    ("call", "kind", "hint"),
    [
        (ToolCall("nope", {}), "unknown_tool", "echo"),
        (ToolCall("echo", {"action": "echo"}), "invalid_args", "echo needs 'text'"),
        (ToolCall("echo", {"action": "dance"}), "invalid_args", "action"),
        (ToolCall("echo", {"text": "y" * 5000}), "too_large", "limit is 1024"),
        (ToolCall("echo", {"action": "fail"}), "failed", "try echo"),
        (ToolCall("echo", {"action": "crash"}), "failed", "RuntimeError: boom"),
    ],
)
def test_failures_become_envelopes(dispatcher: Dispatcher, call: ToolCall, kind: str, hint: str) -> None:
    result = dispatcher.run(call)
    assert not result.ok
    assert result.error_kind == kind
    assert hint in result.output


def test_oversize_output_is_truncated_with_marker(dispatcher: Dispatcher) -> None:
    result = dispatcher.run(ToolCall("echo", {"action": "flood"}))
    assert result.ok and result.truncated
    assert len(result.output.encode()) <= 2048
    assert "truncated" in result.output


def test_truncate_middle_keeps_head_and_tail() -> None:
    text = "HEAD" + "." * 10_000 + "TAIL"
    out, cut = truncate_middle(text, 1000)
    assert cut and out.startswith("HEAD") and out.endswith("TAIL")
    assert truncate_middle("short", 1000) == ("short", False)


def test_arguments_over_the_limit_are_refused_before_the_tool_runs(dispatcher: Dispatcher) -> None:
    result = dispatcher.run(ToolCall("echo", {"action": "fail", "text": "y" * 5000}))
    # The tool would have failed with its own message; the size check stops the call first.
    assert (result.ok, result.error_kind, result.error_code) == (False, "too_large", "ARGUMENTS_TOO_LARGE")
    assert "limit is 1024" in result.output and "try echo" not in result.output
    assert "Result of echo: ERROR (ARGUMENTS_TOO_LARGE)" in render_tool_result(result)
    dispatcher.ctx.calling = ToolCallingConfig(max_tool_args_bytes=8192)
    assert dispatcher.run(ToolCall("echo", {"text": "y" * 5000})).ok


def test_oversize_output_becomes_tool_output_too_large_when_chosen(dispatcher: Dispatcher) -> None:
    dispatcher.ctx.calling = ToolCallingConfig(max_tool_output_bytes=2048, tool_output_overflow="error")
    result = dispatcher.run(ToolCall("echo", {"action": "flood"}))
    assert (result.ok, result.error_kind, result.error_code, result.truncated) == (
        False,
        "too_large",
        "TOOL_OUTPUT_TOO_LARGE",
        False,
    )
    assert "x" * 100 not in result.output and "100000 bytes, over the limit of 2048" in result.output
    assert "Result of echo: ERROR (TOOL_OUTPUT_TOO_LARGE)" in render_tool_result(result)
    assert dispatcher.run(ToolCall("echo", {"text": "short"})).ok


def test_a_tool_that_cuts_its_own_output_reports_it_too_large_when_chosen(ctx: ToolContext) -> None:
    ctx.calling = ToolCallingConfig(max_tool_output_bytes=4096, tool_output_overflow="error")
    dispatcher = Dispatcher(ToolRegistry.default(["bash"]), ctx)
    result = dispatcher.run(ToolCall("bash", {"command": "seq 1 20000"}))
    assert (result.ok, result.error_code) == (False, "TOOL_OUTPUT_TOO_LARGE")
    assert "bash call ran" in result.output and "\n19999\n" not in result.output
    ctx.calling = ToolCallingConfig(max_tool_output_bytes=4096)
    cut = dispatcher.run(ToolCall("bash", {"command": "seq 1 20000"}))
    assert cut.ok and cut.error_code is None and "20000" in cut.output and "bytes cut" in cut.output


def test_masked_tools_are_neither_offered_nor_run(ctx: ToolContext) -> None:
    (ctx.root / "notes.txt").write_text("keep me\n")
    ctx.calling = ToolCallingConfig(deny_tools=["bash"])
    dispatcher = Dispatcher(ToolRegistry.default(["file", "bash", "search"]), ctx)
    assert [spec["function"]["name"] for spec in dispatcher.specs()] == ["file", "search"]
    result = dispatcher.run(ToolCall("bash", {"command": "rm notes.txt"}))
    assert (result.ok, result.error_kind, result.error_code) == (False, "denied", "TOOL_NOT_ALLOWED")
    assert "file, search" in result.output and (ctx.root / "notes.txt").exists()
    ctx.calling = ToolCallingConfig(allow_tools=["file"])
    assert [spec["function"]["name"] for spec in dispatcher.specs()] == ["file"]
    assert dispatcher.run(ToolCall("search", {"action": "grep", "pattern": "keep"})).error_code == "TOOL_NOT_ALLOWED"
    assert dispatcher.run(ToolCall("file", {"action": "read", "path": "notes.txt"})).ok


def test_the_trace_carries_the_error_code(dispatcher: Dispatcher) -> None:
    events: list[tuple[str, dict[str, Any]]] = []
    dispatcher.run_reported(ToolCall("echo", {"text": "y" * 5000}), lambda type_, **data: events.append((type_, data)))
    finished = next(data for type_, data in events if type_ == "tool_call.finished")
    assert finished["error_code"] == "ARGUMENTS_TOO_LARGE"


def test_secret_values_are_found_beside_a_call_that_changes_nothing_and_after_one_that_writes(ctx: ToolContext) -> None:
    (ctx.root / "notes.txt").write_text("the token is correcthorsebatterystaple\n")
    (ctx.root / ".env").write_text("DB_PASSWORD=correcthorsebatterystaple\n")
    found_on: list[str] = []
    redactor = Redactor.for_job({}, ctx.root)
    later = redactor._later  # the repository's own env values, as a job finds them
    assert later is not None
    redactor._later = lambda: (found_on.append(threading.current_thread().name), *later())[1:]
    dispatcher = Dispatcher(ToolRegistry.default(["file", "bash"]), ctx, redactor=redactor)
    read = dispatcher.run(ToolCall("file", {"action": "read", "path": "notes.txt"}))
    assert read.ok and "correcthorsebatterystaple" not in read.output and "[REDACTED:env_value]" in read.output
    # A read changes nothing: the values were found on a thread of their own, beside the read.
    assert found_on == ["pedro-secret-values"]


def test_a_secret_file_a_command_writes_is_seen_by_the_redaction_of_its_own_output(ctx: ToolContext) -> None:
    dispatcher = Dispatcher(ToolRegistry.default(["bash"]), ctx)
    made = dispatcher.run(ToolCall("bash", {"command": "echo API_TOKEN=s3cr3t-made-by-the-call > .env.local; "
                                                       "echo made s3cr3t-made-by-the-call"}))  # fmt: skip
    assert made.ok and "s3cr3t-made-by-the-call" not in made.output, made.output
