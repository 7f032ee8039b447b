"""One model request and its events: the visible text shown live as it arrives (call markup held back), the
backend's notices, and `model.completed`. The loop and repair both ask the model through it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pedro.backends.base import Backend, GenerationOptions
from pedro.messages import Completion, Message, Usage
from pedro.toolcalls import StreamExtractor

Emit = Callable[..., None]
"""A job's event emitter: emit(type, **data)."""


def complete(
    backend: Backend,
    messages: Sequence[Message],
    tools: list[dict[str, Any]],
    options: GenerationOptions,
    emit: Emit,
    **recorded: Any,
) -> Completion:
    """One request; `recorded` joins the `model.completed` event (repair's purpose and temperature)."""
    live = StreamExtractor(tools)

    def on_token(delta: str) -> None:
        visible = live.feed(delta)
        if visible:
            emit("model.delta", persist=False, text=visible)

    def on_notice(text: str) -> None:
        emit("notice", message=text)

    # The backend decides what goes on the wire (native tools, or a grammar in text mode); it always knows the tools.
    completion = backend.complete(list(messages), tools=tools, options=options, on_token=on_token, on_notice=on_notice)
    held_back = live.flush()  # text held back in case it began call markup, now known to be prose
    if held_back:
        emit("model.delta", persist=False, text=held_back)
    for notice in completion.notices:
        emit("notice", message=notice)
    emit(
        "model.completed",
        text=completion.text,
        reasoning=completion.reasoning,
        native_calls=len(completion.tool_calls),
        finish_reason=completion.finish_reason,
        usage=usage_dict(completion.usage),
        timings=completion.timings,
        **recorded,
    )
    return completion


def usage_dict(usage: Usage) -> dict[str, int]:
    """Token counts as events and totals carry them."""
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "cached_tokens": usage.cached_tokens,
    }
