"""ReplyGuard: the limits of one streamed reply (its time, its repetition), and the failed reply a cut leaves."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from pedro.backends.repetition import RepetitionDetector
from pedro.messages import Completion

TIME_LIMIT = "time_limit"
"""finish_reason of a reply cut because it streamed past [backend].reply_time_limit_s."""
REPETITION = "repetition"
"""finish_reason of a reply cut because the model repeated itself."""
CUT_REASONS = frozenset({TIME_LIMIT, REPETITION})
"""The finish reasons of a reply pedro cut: a failed reply, never a completion claim."""

REPLY_TIME_LIMIT_KEY = "[backend].reply_time_limit_s"
_REPLY_TIME_LIMIT_ENV = "PEDRO_BACKEND__REPLY_TIME_LIMIT_S"


@dataclass(frozen=True)
class ReplyCut:
    """Why a reply was cut, what the person is told, and the trailing copies to drop from each channel."""

    reason: str
    notice: str
    text_surplus: int = 0
    reasoning_surplus: int = 0


def time_limit_notice(limit: float) -> str:
    """What the person reads when a reply ran out of time."""
    return (
        f"the reply was cut after {limit:g} s of streaming ({REPLY_TIME_LIMIT_KEY}, the most one reply may take); "
        f"raise it ({_REPLY_TIME_LIMIT_ENV}) for a slow model, or lower [backend].max_tokens"
    )


def non_streamed_timeout_message(server: str, url: str, limit: float) -> str:
    """The error of a reply that was not streamed and did not arrive within the limit."""
    return (
        f"the {server} at {url} sent no reply within {limit:g} s ({REPLY_TIME_LIMIT_KEY}, the most one reply may "
        f"take; a reply that is not streamed arrives whole at its end). Raise {REPLY_TIME_LIMIT_KEY} "
        f"({_REPLY_TIME_LIMIT_ENV}), lower [backend].max_tokens, or stream replies ([backend].stream = true)"
    )


class ReplyGuard:
    """Watches one streamed reply: the clock starts at the first event the server sends (after the prompt is read)
    and is checked at every line, keep-alives included; the text and the reasoning are each fed to a detector.

    A cut is not an error: the stream is closed and the reply ends with what arrived, `finish_reason` set to
    TIME_LIMIT or REPETITION and a notice (finish()).
    """

    def __init__(self, limit: float | None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit if limit else None
        self._clock = clock
        self._started: float | None = None
        self._text = RepetitionDetector()
        self._reasoning = RepetitionDetector()
        self.cut: ReplyCut | None = None

    def lines(self, lines: Iterable[str]) -> Iterator[str]:
        """The stream's lines until the time limit passes (the iteration then just ends, with `cut` set)."""
        for line in lines:
            if self.see(line):
                return
            yield line

    def see(self, line: str) -> bool:
        """Note one line of the stream: the first event starts the clock; True once the reply's time is up."""
        if self._started is None:
            if line.strip() and not line.startswith(":"):  # an SSE comment or a blank line is a keep-alive
                self._started = self._clock()
            return self.cut is not None
        return self._out_of_time()

    def feed(self, text: str = "", reasoning: str = "") -> bool:
        """Take what the reply added; True once it is to be cut (then stop reading the stream)."""
        if self.cut is None and text:
            found = self._text.feed(text)
            if found is not None:
                self.cut = ReplyCut(REPETITION, _repetition_notice(found.description), text_surplus=found.surplus)
        if self.cut is None and reasoning:
            found = self._reasoning.feed(reasoning)
            if found is not None:
                notice = _repetition_notice(f"in its reasoning, {found.description}")
                self.cut = ReplyCut(REPETITION, notice, reasoning_surplus=found.surplus)
        return self.cut is not None or self._out_of_time()

    def finish(self, completion: Completion) -> Completion:
        """The completion as it stands, or, after a cut, the failed reply: one copy of a loop, the reason, a notice."""
        cut = self.cut
        if cut is None:
            return completion
        text = _drop(completion.text, cut.text_surplus)
        raw = dict(completion.raw)
        message = raw.get("message")
        if isinstance(message, dict) and isinstance(message.get("content"), str):
            raw["message"] = {**message, "content": _drop(message["content"], cut.text_surplus)}
        return replace(
            completion,
            text=text,
            reasoning=_drop(completion.reasoning, cut.reasoning_surplus),
            finish_reason=cut.reason,
            raw=raw,
            notices=(*completion.notices, cut.notice),
        )

    def _out_of_time(self) -> bool:
        if self.cut is not None:
            return True
        if self.limit is None or self._started is None or self._clock() - self._started < self.limit:
            return False
        self.cut = ReplyCut(TIME_LIMIT, time_limit_notice(self.limit))
        return True


def _repetition_notice(description: str) -> str:
    return f"the model repeated itself ({description}); pedro cut the reply there"


def _drop(text: str, surplus: int) -> str:
    return text[: len(text) - surplus] if 0 < surplus <= len(text) else text
