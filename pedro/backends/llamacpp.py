"""LlamaCppBackend: llama-server's OpenAI wire plus prompt caching, /health, /props and /tokenize."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from pedro.backends.base import LOAD_TIMEOUT_KEY, GenerationOptions, Notify, run_with_retries, unreachable
from pedro.backends.connection import Connection
from pedro.backends.extras import EXTRA_SAMPLING_KEYS
from pedro.backends.grammar import build_call_grammar
from pedro.backends.openai_compat import ChatSettings, OpenAICompatBackend
from pedro.config import PedroConfig
from pedro.errors import BackendError
from pedro.messages import Completion, Message
from pedro.presets import SamplingKey

NO_TOOL_TEMPLATE_NOTICE = (
    "llama-server says the model's chat template cannot call tools; pedro uses text mode for this job"
)
CONSTRAINED_NOTICE = (
    "[backend].constrain_calls is on: a grammar limits every reply to fenced tool calls or TASK COMPLETE "
    "(text mode, no native tools)"
)
CONSTRAIN_IGNORED_NOTICE = (
    "[backend].constrain_calls is ignored with tool_mode native: llama-server cannot combine a grammar with "
    "native tools; use tool_mode auto or text to constrain calls"
)


class LlamaCppBackend(OpenAICompatBackend):
    """llama-server at its root URL; chat goes to /v1/chat/completions and every reply's `timings` is kept."""

    name = "llamacpp"
    continues_answers = True
    server = "llama-server"
    chat_path = "/v1/chat/completions"
    sampling_keys: tuple[SamplingKey, ...] = EXTRA_SAMPLING_KEYS

    def __init__(
        self,
        connection: Connection,
        model: str,
        settings: ChatSettings | None = None,
        *,
        slot: int | None = None,
        health_poll_interval: float = 1.0,
        constrain_calls: bool = False,
    ) -> None:
        super().__init__(connection, model, settings)
        self._sleep = connection.retry.sleep
        self._slot = slot
        self._health_timeout = connection.retry.load_timeout
        self._poll_interval = health_poll_interval
        self._ready = False
        self._props: dict[str, Any] | None = None
        self.constrain_calls = constrain_calls
        self._grammar: str | None = None  # the grammar of the request being sent, if any
        self._grammars: dict[str, str | None] = {}
        self._told_constraint = False

    @classmethod
    def config_kwargs(cls, config: PedroConfig) -> dict[str, Any]:
        """The OpenAI keys plus [backend].constrain_calls."""
        return {**super().config_kwargs(config), "constrain_calls": config.backend.constrain_calls}

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        on_token: Callable[[str], None] | None = None,
        on_notice: Notify | None = None,
    ) -> Completion:
        """One chat request; with constrain_calls the reply is held to the call grammar of `tools`."""
        native = options.tool_mode == "native"
        grammar = self.call_grammar(tools) if self.constrain_calls and not native else None
        if grammar is not None:
            # llama-server refuses a grammar next to `tools`, so constrained requests describe tools in text only.
            options = replace(options, tool_mode="text")
        self._grammar = grammar
        try:
            completion = super().complete(
                messages, tools=tools, options=options, on_token=on_token, on_notice=on_notice
            )
        finally:
            self._grammar = None
        notice = self._constraint_notice(constrained=grammar is not None, native=native)
        if notice:
            completion = replace(completion, notices=(notice, *completion.notices))
        return completion

    def sends_tools(self, options: GenerationOptions) -> bool:
        """Not when a grammar constrains the reply, nor when the model's template cannot call tools."""
        if self.constrain_calls and options.tool_mode != "native":
            return False
        if options.tool_mode == "auto" and not self._ready and self.template_supports_tools() is False:
            return False
        return super().sends_tools(options)

    def call_grammar(self, tools: Sequence[Mapping[str, Any]]) -> str | None:
        """The GBNF for `tools`, built once per tool set so every round sends the same bytes."""
        key = json.dumps(list(tools), sort_keys=True, default=str)
        if key not in self._grammars:
            self._grammars[key] = build_call_grammar(tools)
        return self._grammars[key]

    def _constraint_notice(self, *, constrained: bool, native: bool) -> str | None:
        """Said once per job: that replies are constrained, or why they are not although it was asked."""
        if self._told_constraint or not (constrained or (self.constrain_calls and native)):
            return None
        self._told_constraint = True
        return CONSTRAINED_NOTICE if constrained else CONSTRAIN_IGNORED_NOTICE

    def _prepare(self, options: GenerationOptions, on_notice: Notify | None = None) -> list[str]:
        """Before the first request: wait for the model to load, read /props, pick the slot."""
        if self._ready:
            return []
        self.wait_until_ready(on_notice)
        # No slot is pinned unless asked for: the server gives each request an idle slot, the one whose cached
        # prompt is most like it (its own job's, round after round). Two jobs pinned to one slot wait on each
        # other while another slot idles, and llama-server has sent one slot's tokens to both requests.
        self.props()
        self._ready = True
        if options.tool_mode == "auto" and self.template_supports_tools() is False:
            self._tools.text_mode = True
            return [NO_TOOL_TEMPLATE_NOTICE]
        return []

    def wait_until_ready(self, on_notice: Notify | None = None) -> None:
        """Poll /health while it answers 503 "Loading model", up to [backend].load_timeout seconds."""
        url = self.base_url + "/health"
        polls = max(1, math.ceil(self._health_timeout / self._poll_interval))
        for _ in range(polls):
            status, _ = run_with_retries(lambda: self.transport.get_status(url), self.transport.retry)
            if status != 503:
                # 200 is ready; anything else (an old server without /health) is left to the chat request to judge.
                return
            if on_notice is not None:
                # One notice: the /health polls are many and quick.
                on_notice(
                    f"waiting for llama-server to load the model (up to {self._health_timeout:g} s, {LOAD_TIMEOUT_KEY})"
                )
                on_notice = None
            self._sleep(self._poll_interval)
        raise BackendError(
            f"llama-server at {url} was still loading the model after {self._health_timeout:.0f}s; wait for it to "
            f"finish (see its log) and run pedro again, or raise {LOAD_TIMEOUT_KEY} (PEDRO_BACKEND__LOAD_TIMEOUT)"
        )

    def props(self) -> dict[str, Any]:
        """The server's /props, fetched once; empty if the server does not offer it."""
        if self._props is None:
            try:
                self._props = self.transport.get_json(self.base_url + "/props", retries=False)
            except BackendError as exc:
                if unreachable(exc):
                    raise  # the job cannot run, and says so before it touches the repository
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
        """The id_slot this job is pinned to, when it was given one; else the server picks an idle slot."""
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
        if self._grammar is not None and not tools:
            body["grammar"] = self._grammar
        return body
