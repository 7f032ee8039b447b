"""Deterministic compaction: old tool outputs are masked in blocks, and a task-state note kept by code stands in."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pedro.effects import Effects
from pedro.messages import Message, ToolCall, ToolResult
from pedro.prompts import render_prompt
from pedro.tokens import estimate_tokens

# Saves a masked message's full text and returns the path the model can read it back from (None: not kept).
OutputSaver = Callable[[int, str], "str | None"]

# Outputs kept verbatim at the end of the conversation; the model is working on them.
KEEP_RECENT = 3
# Shorter messages cost less than the note that would replace them.
MIN_MASKED_CHARS = 600
# Call arguments longer than this (file contents being written) are shortened in masked assistant messages.
MAX_KEPT_ARGUMENT_CHARS = 300
_GOAL_CHARS = 500


@dataclass
class TaskState:
    """What the job has done so far, kept by code from the tool results (never summarised by the model)."""

    goal: str
    files_changed: list[str] = field(default_factory=list)
    last_test: str = ""

    def record(self, call: ToolCall, result: ToolResult, effects: Effects) -> None:
        """Update the state from one finished call and what its tool declared it does."""
        if result.ok:
            for path in effects.changed_paths:
                if path not in self.files_changed:
                    self.files_changed.append(path)
        if call.name == "test":
            first = next((line.strip() for line in result.output.splitlines() if line.strip()), "")
            self.last_test = f"{'passed' if result.ok else 'failed'}: {first[:200]}"

    def note(self) -> str:
        """The note the model reads after a compaction."""
        goal = " ".join(self.goal.split())
        return render_prompt(
            "context/task_state.md",
            goal=goal if len(goal) <= _GOAL_CHARS else goal[: _GOAL_CHARS - 1] + "…",
            files=", ".join(self.files_changed) or "none",
            last_test=self.last_test or "no test run yet",
        )


class Compactor:
    """Decides which messages of a job's history the model sees masked; the history itself is never changed.

    Masks only grow, and a compaction masks a whole block at once, so between two compactions every request
    extends the previous one and the server's cached prefix survives.
    """

    def __init__(self, save: OutputSaver | None = None, *, keep_recent: int = KEEP_RECENT) -> None:
        self._save = save
        self.keep_recent = keep_recent
        self._masked: dict[int, Message] = {}
        self.compactions = 0

    @property
    def masked_count(self) -> int:
        return len(self._masked)

    def view(self, history: Sequence[Message]) -> list[Message]:
        """The messages to send: the history with every masked message replaced by its stand-in."""
        return [self._masked.get(index, message) for index, message in enumerate(history)]

    def compact(self, history: Sequence[Message], state: TaskState, *, keep_recent: int | None = None) -> int:
        """Mask every eligible message older than the last `keep_recent` outputs; return how many were masked."""
        keep = self.keep_recent if keep_recent is None else keep_recent
        outputs = [i for i, m in enumerate(history) if i >= 2 and m.role in ("tool", "user")]
        boundary = outputs[-keep] if 0 < keep <= len(outputs) else len(history) if keep == 0 else 2
        chosen = [i for i in range(2, boundary) if i not in self._masked and _worth_masking(history[i])]
        if not chosen:
            return 0
        for index in chosen:
            self._masked[index] = self._stand_in(index, history[index])
        last = chosen[-1]
        # The task state rides on the newest masked message: stable until the next compaction rewrites nothing.
        stand_in = self._masked[last]
        self._masked[last] = replace(stand_in, content=stand_in.content.rstrip() + "\n\n" + state.note())
        self.compactions += 1
        return len(chosen)

    def _stand_in(self, index: int, message: Message) -> Message:
        if message.role == "assistant":
            calls = tuple(replace(call, arguments=_shorten(call.arguments)) for call in message.tool_calls)
            content = message.content
            if len(content) > MIN_MASKED_CHARS:
                content = self._masked_text(index, content, "your earlier reply")
            return replace(message, content=content, tool_calls=calls)
        what = f"the result of {message.name}" if message.role == "tool" and message.name else _describe(message)
        return replace(message, content=self._masked_text(index, message.content, what))

    def _masked_text(self, index: int, text: str, what: str) -> str:
        path = self._save(index, text) if self._save is not None else None
        recall = (
            render_prompt("context/recall_saved.md", path=path) if path else render_prompt("context/recall_lost.md")
        )
        tokens = estimate_tokens(text)
        return render_prompt("context/masked_output.md", what=what, tokens=tokens, recall=recall.strip())


def _worth_masking(message: Message) -> bool:
    if len(message.content) > MIN_MASKED_CHARS:
        return True
    values = (value for call in message.tool_calls for value in call.arguments.values())
    return any(len(str(value)) > MAX_KEPT_ARGUMENT_CHARS for value in values)


def _shorten(arguments: dict[str, Any]) -> dict[str, Any]:
    def short(value: Any) -> Any:
        too_long = isinstance(value, str) and len(value) > MAX_KEPT_ARGUMENT_CHARS
        return f"[{len(value)} characters masked]" if too_long else value

    return {key: short(value) for key, value in arguments.items()}


def _describe(message: Message) -> str:
    """A few words naming what a feedback message held, taken from its first line."""
    first = next((line.strip() for line in message.content.splitlines() if line.strip()), "")
    return f'tool results beginning "{first[:80]}"' if first else "tool results"
