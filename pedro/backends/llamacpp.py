"""LlamaCppBackend: llama-server's OpenAI wire plus prompt caching, a fixed slot, /health, /props and /tokenize."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import httpx

from pedro.backends.base import GenerationOptions, run_with_retries
from pedro.backends.openai_compat import OpenAICompatBackend, ToolChoice
from pedro.errors import BackendError
from pedro.messages import Message

NO_TOOL_TEMPLATE_NOTICE = (
    "llama-server says the model's chat template cannot call tools; pedro uses text mode for this job"
)


class LlamaCppBackend(OpenAICompatBackend):
    """llama-server at its root URL; chat goes to /v1/chat/completions and every reply's `timings` is kept."""

    name = "llamacpp"
    server = "llama-server"
    chat_path = "/v1/chat/completions"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        client: httpx.Client | None = None,
        api_key: str | None = None,
        connect_timeout: float = 5.0,
        read_timeout: float = 600.0,
        max_retries: int = 3,
        sleep: Callable[[float], None] = time.sleep,
        tool_choice: ToolChoice | None = None,
        parallel_tool_calls: bool | None = None,
        context_window: int = 0,
        slot: int | None = None,
        health_timeout: float = 300.0,
        health_poll_interval: float = 1.0,
    ) -> None:
        super().__init__(
            base_url,
            model,
            client=client,
            api_key=api_key,
            connect_timeout=connect_timeout,
            read_timeout=read_timeout,
            max_retries=max_retries,
            sleep=sleep,
            tool_choice=tool_choice,
            parallel_tool_calls=parallel_tool_calls,
            context_window=context_window,
        )
        self._sleep = sleep
        self._slot = slot
        self._health_timeout = health_timeout
        self._poll_interval = health_poll_interval
        self._ready = False
        self._props: dict[str, Any] | None = None

    def _prepare(self, options: GenerationOptions) -> list[str]:
        """Before the first request: wait for the model to load, read /props, pick the slot."""
        if self._ready:
            return []
        self.wait_until_ready()
        props = self.props()
        if self._slot is None:
            total = props.get("total_slots")
            # One slot per job keeps its prompt cache warm; the pid spreads concurrent jobs over the slots.
            self._slot = os.getpid() % total if isinstance(total, int) and total > 0 else 0
        self._ready = True
        if options.tool_mode == "auto" and self.template_supports_tools() is False:
            self._text_mode = True
            return [NO_TOOL_TEMPLATE_NOTICE]
        return []

    def wait_until_ready(self) -> None:
        """Poll /health while it answers 503 "Loading model", up to health_timeout seconds."""
        url = self.base_url + "/health"
        polls = max(1, math.ceil(self._health_timeout / self._poll_interval))
        for _ in range(polls):
            status, _ = run_with_retries(lambda: self.transport.get_status(url), self.transport.retry)
            if status != 503:
                # 200 is ready; anything else (an old server without /health) is left to the chat request to judge.
                return
            self._sleep(self._poll_interval)
        raise BackendError(
            f"llama-server at {url} was still loading the model after {self._health_timeout:.0f}s; "
            "wait for it to finish (see its log) and run pedro again"
        )

    def props(self) -> dict[str, Any]:
        """The server's /props, fetched once; empty if the server does not offer it."""
        if self._props is None:
            try:
                self._props = self.transport.get_json(self.base_url + "/props", retries=False)
            except BackendError:
                self._props = {}
        return self._props

    def template_supports_tools(self) -> bool | None:
        """What /props `chat_template_caps` says about tool calls; None when it does not say."""
        caps = self.props().get("chat_template_caps")
        if not isinstance(caps, Mapping):
            return None
        values = [caps.get(key) for key in ("supports_tool_calls", "supports_tools")]
        known = [value for value in values if isinstance(value, bool)]
        return all(known) if known else None

    @property
    def slot(self) -> int | None:
        """The id_slot this job is pinned to (chosen before the first request)."""
        return self._slot

    def context_window(self) -> int | None:
        """n_ctx from /props, capped by [backend].context_window when that is set."""
        settings = self.props().get("default_generation_settings")
        n_ctx = settings.get("n_ctx") if isinstance(settings, Mapping) else None
        if not isinstance(n_ctx, int):
            n_ctx = self.props().get("n_ctx")  # older servers put it at the top level
        server_window = n_ctx if isinstance(n_ctx, int) and n_ctx > 0 else None
        windows = [w for w in (server_window, self._configured_window or None) if w]
        return min(windows) if windows else None

    def count_tokens(self, text: str) -> int | None:
        """The exact token count of `text` from /tokenize; None if the server cannot say."""
        try:
            reply = self.transport.post_json(self.base_url + "/tokenize", {"content": text, "add_special": False})
        except BackendError:
            return None
        tokens = reply.get("tokens")
        return len(tokens) if isinstance(tokens, list) else None

    def build_body(
        self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]], options: GenerationOptions
    ) -> dict[str, Any]:
        body = super().build_body(messages, tools, options)
        body["cache_prompt"] = True
        if self._slot is not None:
            body["id_slot"] = self._slot
        return body
