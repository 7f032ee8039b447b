"""Native tools, and text mode for the rest of the job once a server refuses them: one rule for every backend."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pedro.backends.base import GenerationOptions, ToolsRejectedError
from pedro.errors import BackendError
from pedro.messages import Completion

Request = Callable[[Sequence[Mapping[str, Any]]], Completion]


class TextFallback:
    """Whether a backend has stopped sending native tools, and the one way it stops: the server refused them (or
    the model cannot take them, which the backend learns first)."""

    def __init__(self) -> None:
        self.text_mode = False

    def sends_tools(self, options: GenerationOptions) -> bool:
        """Native tools unless text mode was asked for or this job switched to it."""
        return options.tool_mode != "text" and not self.text_mode

    def send(
        self,
        request: Request,
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        notices: list[str],
        *,
        refused: str,
        native_only: str,
    ) -> Completion:
        """`request` with the tools (when sent at all); when the server refuses them, text mode from now on and the
        same request without them, told in `notices`. `--tool-mode native` makes the refusal an error instead.
        `refused` and `native_only` are the messages, with `{detail}` for the server's words."""
        try:
            return request(tools if tools and self.sends_tools(options) else ())
        except ToolsRejectedError as exc:
            if options.tool_mode == "native":
                raise BackendError(native_only.format(detail=exc.detail)) from exc
            self.text_mode = True
            notices.append(refused.format(detail=exc.detail))
            return request(())
