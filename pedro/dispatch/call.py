"""A call on its way through the dispatcher's stack, the refusal a layer raises, and how the layers are composed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from pedro.effects import NONE as NO_EFFECTS
from pedro.effects import Effects
from pedro.messages import ErrorCode, ErrorKind, ToolCall
from pedro.tools.base import Tool, ToolArgs, ToolContext, ToolFailure

Emit = Callable[..., None]
"""The job's event emitter: emit(type, **data)."""

T = TypeVar("T")


@dataclass(frozen=True)
class PreparedCall:
    """One call going down the stack with what the layers above learned and granted: its tool, the validated
    arguments, their declared effects, and the context made for this call alone (the policy's grants ride here,
    never on the shared context). `emit` is set for a reported run, whose events and snapshots the job records."""

    call: ToolCall
    ctx: ToolContext
    emit: Emit | None = None
    tool: Tool | None = None
    args: ToolArgs | None = None
    effects: Effects = NO_EFFECTS

    def found(self) -> Tool:
        """The call's tool, which the Mask layer looked up; a stack without that layer is a bug in pedro."""
        if self.tool is None:
            raise RuntimeError(f"the {self.call.name} call reached a layer that needs its tool before the Mask layer")
        return self.tool

    def runnable(self) -> tuple[Tool, ToolArgs]:
        """The tool and the arguments it runs on, which the Validate layer checked."""
        if self.args is None:
            raise RuntimeError(f"the {self.call.name} call reached its tool without the Validate layer")
        return self.found(), self.args


class Refusal(ToolFailure):
    """A layer refused the call before its tool could run. Unlike a tool's own failure it says nothing about how the
    tool's commands fare, so it never counts toward the timeouts in a row."""

    def __init__(self, kind: ErrorKind, message: str, code: ErrorCode | None = None) -> None:
        super().__init__(message, kind=kind)
        self.code = code


class Layer(Protocol[T]):
    """One wrapper of the stack: it sees the call before the layers below it and their answer after them; it may
    refuse (raise), pass on a call that knows more, or look at the answer."""

    def __call__(self, call: PreparedCall, inner: Callable[[PreparedCall], T], /) -> T: ...


def compose(layers: Sequence[Layer[T]], innermost: Callable[[PreparedCall], T]) -> Callable[[PreparedCall], T]:
    """The layers around `innermost`, the first one outermost: composed once, then called for every call."""
    run = innermost
    for layer in reversed(layers):
        run = _wrapped(layer, run)
    return run


def _wrapped(layer: Layer[T], inner: Callable[[PreparedCall], T]) -> Callable[[PreparedCall], T]:
    def run(call: PreparedCall) -> T:
        return layer(call, inner)

    return run
