"""ScriptedBackend: a test double that answers from a queue of replies or a function of the conversation."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pedro.backends.base import GenerationOptions
from pedro.errors import BackendError
from pedro.messages import Completion, Message

Reply = Completion | str
ReplyFunction = Callable[[list[Message], list[dict[str, Any]]], Reply]


class ScriptedBackend:
    """Replays scripted replies and records every request, so the agent loop can be tested without a server."""

    name = "scripted"
    continues_answers = False

    def __init__(
        self,
        replies: Iterable[Reply] | ReplyFunction,
        *,
        context_window: int | None = None,
        tokenizer: Callable[[str], int] | None = None,
        parameters: int | None = None,
    ) -> None:
        self._function: ReplyFunction | None = replies if callable(replies) else None
        self._queue: deque[Reply] = deque() if callable(replies) else deque(replies)
        self._window = context_window
        self._tokenizer = tokenizer
        self._parameters = parameters
        self.requests: list[tuple[list[Message], list[dict[str, Any]]]] = []
        self.options: list[GenerationOptions] = []
        self.closed = False

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        on_token: Callable[[str], None] | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> Completion:
        """The next scripted reply; a plain string becomes a Completion with that text."""
        recorded_messages = list(messages)
        recorded_tools = [dict(tool) for tool in tools]
        self.requests.append((recorded_messages, recorded_tools))
        self.options.append(options)
        if self._function is not None:
            reply = self._function(list(recorded_messages), [dict(tool) for tool in recorded_tools])
        elif self._queue:
            reply = self._queue.popleft()
        else:
            raise BackendError(
                f"scripted backend ran out of replies after {len(self.requests) - 1} request(s); "
                "queue more replies in the test"
            )
        completion = Completion(text=reply) if isinstance(reply, str) else reply
        if on_token is not None and completion.text:
            on_token(completion.text)
        return completion

    def context_window(self) -> int | None:
        return self._window

    def parameter_count(self) -> int | None:
        """The size the test gave the model, if any."""
        return self._parameters

    def count_tokens(self, text: str) -> int | None:
        """The test's tokenizer, if it gave one."""
        return self._tokenizer(text) if self._tokenizer is not None else None

    def sends_tools(self, options: GenerationOptions) -> bool:
        """A scripted model reads no tool list."""
        return False

    def close(self) -> None:
        self.closed = True
