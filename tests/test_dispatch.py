"""The Dispatcher turns every outcome into an envelope and never raises."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import pytest
from pydantic import model_validator

from pedro.config import ToolsConfig
from pedro.dispatch import Dispatcher, truncate_middle
from pedro.messages import ToolCall
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
    ctx.config = ToolsConfig(max_output_bytes=2048, max_argument_bytes=1024)
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
