"""The Dispatcher: the stack of layers every tool call passes through, composed once, behind run and run_reported."""

from __future__ import annotations

import os
from typing import Any

from pydantic import ValidationError

from pedro.dispatch.call import Emit, Layer, PreparedCall, compose
from pedro.dispatch.layers import Journalled, Mask, PolicyGate, declared, run_tool, size_limit, validate
from pedro.dispatch.results import Results, reported
from pedro.dispatch.snapshot import ChangeGuard, SnapshotLayer
from pedro.dispatch.timeouts import TimeoutLimit
from pedro.effects import NONE as NO_EFFECTS
from pedro.effects import Effects
from pedro.gate import Gate
from pedro.messages import ToolCall, ToolResult
from pedro.safety.journal import Journal
from pedro.safety.secrets import Redactor
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext


class Dispatcher:
    """Runs the model's calls against a registry inside one tool context, through the layers, outermost first:

    snapshot ─► report ─► result ─► timeouts ─► mask ─► size limit ─► validate ─► policy gate ─► journal ─► tool

    Every outcome becomes a ToolResult; it never raises for a tool's fault. The gate, the journal and the guard are
    optional: a stack without them runs the calls ungated, unjournalled and unsnapshotted.
    """

    def __init__(
        self,
        registry: ToolRegistry,
        ctx: ToolContext,
        *,
        redactor: Redactor | None = None,
        gate: Gate | None = None,
        journal: Journal | None = None,
        guard: ChangeGuard | None = None,
    ) -> None:
        self.registry = registry
        self.ctx = ctx
        self.mask = Mask(registry)
        self.limit = TimeoutLimit(self.effects, can_ask=gate is None or gate.policy.approval == "ask")
        self.snapshots = SnapshotLayer(guard)
        """The one place snapshots are taken and reported: after each reported call, and for the steps the loop
        and repair open and close (before, open_step, close_step, finish)."""
        redactor = redactor if redactor is not None else Redactor.for_job(os.environ, ctx.root)
        self.redactor = redactor
        """What every result is redacted with; pedro's own prompts built from the project's files use it too."""
        inner: list[Layer[str]] = [self.limit, self.mask, size_limit, validate]
        inner += [PolicyGate(gate)] if gate is not None else []
        inner += [Journalled(journal)] if journal is not None else []
        tools = compose(inner, run_tool)
        results = Results(redactor)
        self._stack = compose([self.snapshots, reported], lambda call: results(call, tools))
        if gate is not None:
            gate.attach(ctx)

    def run(self, call: ToolCall) -> ToolResult:
        """Run one call; every failure becomes `ok=False` with a message the model can act on."""
        self._prefetch(call)
        return self._stack(PreparedCall(call, self.ctx))

    def run_reported(self, call: ToolCall, emit: Emit) -> ToolResult:
        """Run one call between its `tool_call.started` and `tool_call.finished` events; the guard hears of it."""
        self._prefetch(call)
        return self._stack(PreparedCall(call, self.ctx, emit=emit))

    def _prefetch(self, call: ToolCall) -> None:
        """The call's output will be redacted: for a call that changes nothing, the repository's secret values are
        found beside it (on a large tree their listing costs about a search). A call that may write finds them
        after it, so that a secret file it makes is seen."""
        # Once the values are found (or being found), no call asks again: effects() validates the arguments.
        if self.redactor.waiting and not self.effects(call).changes_files:
            self.redactor.prefetch()

    @property
    def halted(self) -> str | None:
        """Why the run must stop (e.g. too many timeouts in a row); the loop ends the job when this is set."""
        return self.limit.halted

    @property
    def timeouts(self) -> int:
        """bash/test timeouts in a row."""
        return self.limit.in_a_row

    @property
    def allowed(self) -> tuple[str, ...]:
        """The tools offered to the model and allowed to run: the registry less [tool_calling]'s masks and the tools
        of an MCP server that has stopped."""
        return self.mask.allowed(self.ctx.calling)

    def specs(self, *, short: bool = False) -> list[dict[str, Any]]:
        """The definitions of the tools offered to the model, in registry order."""
        allowed = self.allowed
        return [spec for spec in self.registry.specs(short=short) if spec["function"]["name"] in allowed]

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
        return declared(tool, args)


__all__ = ["Dispatcher"]
