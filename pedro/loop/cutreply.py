"""A reply pedro cut (it repeated itself, or streamed past its time) is a failed reply: no call in it runs, it is no
completion claim, the model reads one line about it, and it counts toward the idle-reply limit."""

from __future__ import annotations

from pedro.backends.replyguard import CUT_REASONS, REPETITION
from pedro.loop.endings import Counters, Ending, Limits, Verdict
from pedro.prompts import render_prompt

_FEEDBACK = {REPETITION: "feedback/reply_repeated.md"}
_TIME_FEEDBACK = "feedback/reply_too_long.md"
_WHY = {REPETITION: "the model repeated itself"}
_TIME_WHY = "it streamed past [backend].reply_time_limit_s"


def was_cut(finish_reason: str | None) -> bool:
    """Whether the backend cut the reply (ReplyGuard's finish reasons)."""
    return finish_reason in CUT_REASONS


def cut_reply(finish_reason: str | None, counters: Counters, limits: Limits) -> Verdict:
    """The verdict on a cut reply: feedback for the model, or no_progress once the idle replies run out."""
    counters.idle += 1
    if counters.idle >= limits.max_idle_replies:
        why = _WHY.get(finish_reason or "", _TIME_WHY)
        message = (
            f"{counters.idle} replies in a row without a usable tool call or the completion marker; "
            f"the last was cut because {why}"
        )
        return Verdict(Ending("limit_reached", "no_progress", message))
    return Verdict(feedback=(render_prompt(_FEEDBACK.get(finish_reason or "", _TIME_FEEDBACK)).strip(),))
