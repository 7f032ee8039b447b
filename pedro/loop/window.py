"""ContextBudget: keeps every request of a job inside the model's window, compacting and catching truncation."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pedro.backends.base import GenerationOptions
from pedro.errors import PedroError
from pedro.loop.compaction import Compactor, TaskState
from pedro.messages import EventType, ExitStatus, Message
from pedro.tokens import Measure, TokenLedger

# Compaction starts when the next request would fill more of the window than this.
COMPACT_AT = 0.85
# ... and masks enough to bring it under this, so the cached prefix then serves several rounds.
COMPACT_TO = 0.6
# The least room a reply must have; a request leaving less is never sent.
MIN_REPLY_TOKENS = 128


@dataclass(frozen=True)
class Request:
    """What goes to the model this round, and how big pedro counts it."""

    messages: list[Message]
    tools: Sequence[Mapping[str, Any]]
    """The tool list as the prompt carries it: empty when the server gets none natively."""
    options: GenerationOptions
    measured: Measure

    @property
    def prompt_tokens(self) -> int:
        return self.measured.tokens


class ContextFullError(PedroError):
    """Even with every older output masked the request would not fit; carries the reason for the run's end."""

    exit_status: ExitStatus = "limit_reached"


class ContextBudget:
    """Counts each request before it is sent, compacts when it would pass COMPACT_AT of the window, and
    compares the server's own count afterwards so a truncating server is never silent."""

    def __init__(
        self,
        ledger: TokenLedger,
        compactor: Compactor,
        window: int | None,
        emit: Callable[..., None],
    ) -> None:
        self.ledger = ledger
        self.compactor = compactor
        self.window = window
        self._emit = emit

    def prepare(
        self,
        history: Sequence[Message],
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        state: TaskState,
        round_no: int = 0,
    ) -> Request:
        """The request for this round: compacted if needed, its reply limit fitted to the room left.

        `tools` are the tools the prompt itself carries: those sent natively, which the template renders in.
        """
        messages = self.compactor.view(history)
        measured = self.ledger.measure(messages, tools)
        if self.window is None:
            return Request(messages, tools, options, measured)
        if measured.tokens > COMPACT_AT * self.window:
            messages, measured = self._compact(history, tools, state, measured.tokens, round_no)
        tokens = measured.tokens
        room = self.window - tokens
        if room < MIN_REPLY_TOKENS:
            raise ContextFullError(
                f"the conversation needs about {tokens} tokens even with older tool outputs masked, and the "
                f"model's window is {self.window}; use a model with a longer context, or raise the server's window "
                "and [backend].context_window"
            )
        if options.max_tokens > room:
            options = replace(options, max_tokens=room)
        return Request(messages, tools, options, measured)

    def observe(self, request: Request, reported: int, round_no: int = 0) -> None:
        """Check the server's count of the request just answered; a shortfall is reported as truncation."""
        seen = self.ledger.observe(request.messages, request.tools, request.measured, reported)
        if seen is None or not seen.truncated:
            return
        # The server kept only `reported` tokens, so its real window is no bigger than that, whatever it claimed.
        self.window = min(self.window or reported, reported)
        self._event(
            "context.truncated",
            round=round_no,
            message=(
                f"the server evaluated only {reported} of about {seen.estimated} prompt tokens: it silently "
                f"dropped part of the conversation; pedro now keeps requests inside {self.window} tokens"
            ),
            estimated=seen.estimated,
            reported=reported,
            window=self.window,
        )

    def refused(self, request: Request, window: int | None) -> None:
        """The server refused `request` as too long: keep to the window it named, or well under what was sent."""
        smaller = window if window else int(request.prompt_tokens * COMPACT_TO)
        self.window = min(self.window or smaller, smaller)
        self.ledger.forget_prefix()
        self._event("notice", message=f"the server's context window is smaller than pedro assumed; now {self.window}")

    def _compact(
        self,
        history: Sequence[Message],
        tools: Sequence[Mapping[str, Any]],
        state: TaskState,
        before: int,
        round_no: int,
    ) -> tuple[list[Message], Measure]:
        """Mask older outputs in one block, big enough that several rounds fit before the next compaction.

        The newest outputs stay verbatim while that is enough; only a request that cannot fit otherwise loses them.
        """
        assert self.window is not None
        masked, messages, measured = 0, self.compactor.view(history), Measure(before, 0)
        for keep in range(self.compactor.keep_recent, -1, -1):
            if keep == 0 and measured.tokens <= self.window - MIN_REPLY_TOKENS:
                break
            masked += self.compactor.compact(history, state, keep_recent=keep)
            messages = self.compactor.view(history)
            measured = self.ledger.measure(messages, tools)
            if measured.tokens <= COMPACT_TO * self.window:
                break
        if masked:
            self._event(
                "context.compacted",
                round=round_no,
                message=(
                    f"context compacted: {masked} older outputs masked, about {before} → {measured.tokens} of "
                    f"{self.window} tokens"
                ),
                masked=masked,
                before_tokens=before,
                after_tokens=measured.tokens,
                window=self.window,
            )
        return messages, measured

    def _event(self, type_: EventType, **data: Any) -> None:
        self._emit(type_, **data)
