"""The timeout layer: SWE-agent's rule that commands timing out again and again pause the run."""

from __future__ import annotations

from collections.abc import Callable

from pedro.dispatch.call import PreparedCall, Refusal
from pedro.effects import Effects
from pedro.messages import ToolCall
from pedro.prompts import render_prompt
from pedro.tools.base import ApprovalRequest, ToolFailure

# This many bash/test timeouts in a row stop the run (or ask the person whether to go on).
MAX_CONSECUTIVE_TIMEOUTS = 3


class TimeoutLimit:
    """Counts the timeouts in a row of calls that run commands; at the limit the person decides whether the run goes
    on, and when nobody says so the run is halted: every later call is refused and the loop ends the job."""

    def __init__(self, effects: Callable[[ToolCall], Effects], *, can_ask: bool) -> None:
        self.effects = effects
        """What a call declares it does, to tell the calls that run commands."""
        self.can_ask = can_ask
        """Whether the person may be asked (approval = "ask"); else the limit halts the run."""
        self.in_a_row = 0
        self.halted: str | None = None
        """Why the run must stop; the loop ends the job when this is set."""

    def __call__(self, call: PreparedCall, inner: Callable[[PreparedCall], str]) -> str:
        if self.halted is not None:
            raise Refusal("denied", render_prompt("feedback/halted.md", reason=self.halted))
        try:
            output = inner(call)
        except Refusal:
            raise  # the call never ran: it says nothing about commands that time out
        except ToolFailure as exc:
            if exc.kind != "denied" and self.effects(call.call).runs_commands:
                self._count(call, exc)
            raise
        if self.effects(call.call).runs_commands:
            self.in_a_row = 0
        return output

    def _count(self, call: PreparedCall, failure: ToolFailure) -> None:
        """One more command failed: a timeout adds to the count, anything else resets it; at the limit, ask."""
        self.in_a_row = self.in_a_row + 1 if failure.kind == "timeout" else 0
        if self.in_a_row < MAX_CONSECUTIVE_TIMEOUTS:
            return
        reason = f"{self.in_a_row} bash/test commands in a row timed out"
        question = ApprovalRequest(
            kind="timeouts",
            subject=str(call.call.arguments.get("command") or call.call.name),
            risk=f"{reason}; the model may be stuck on commands that never finish",
        )
        if self.can_ask and call.ctx.request(question) in ("yes", "always"):
            self.in_a_row = 0
            return
        self.halted = reason
        note = render_prompt("feedback/halted.md", reason=reason)
        raise ToolFailure(f"{failure}\n\n{note}", kind="timeout") from failure
