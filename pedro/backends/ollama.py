"""OllamaBackend: Ollama's native `POST /api/chat` with NDJSON streaming, native tools and a fixed num_ctx."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from pedro.backends import ollama_context
from pedro.backends.base import (
    GenerationOptions,
    Notify,
    iter_ndjson,
)
from pedro.backends.connection import Connection
from pedro.backends.extras import EXTRA_SAMPLING_KEYS, BodyExtras
from pedro.backends.http import HttpTransport, ReplyReader, ShownText, not_a_model_reply, stream_cut
from pedro.backends.ollama_context import choose_num_ctx
from pedro.backends.openai_compat import NO_STREAM_NOTICE
from pedro.backends.openai_wire import parse_arguments, token_entries
from pedro.backends.replyguard import ReplyGuard
from pedro.backends.textfallback import TextFallback
from pedro.config import BackendConfig, PedroConfig, config_default
from pedro.errors import BackendError
from pedro.messages import Completion, Message, TokenChoice, ToolCall, Usage

_TIMING_KEYS = (
    "total_duration",
    "load_duration",
    "prompt_eval_count",
    "prompt_eval_duration",
    "eval_count",
    "eval_duration",
)
_NOT_FOUND = re.compile(r"model ['\"]?(?P<model>[^'\"]+?)['\"]? not found", re.IGNORECASE)


def to_ollama_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """pedro messages in Ollama's shape: call arguments are objects, tool results carry `tool_name`."""
    wire: list[dict[str, Any]] = []
    for message in messages:
        item: dict[str, Any] = {"role": message.role, "content": message.content}
        if message.role == "assistant" and message.tool_calls:
            item["tool_calls"] = [
                {"function": {"name": call.name, "arguments": call.arguments}} for call in message.tool_calls
            ]
        if message.role == "tool" and message.name is not None:
            item["tool_name"] = message.name
        wire.append(item)
    return wire


class OllamaBackend:
    """An Ollama server at its root URL; num_ctx is sized once from /api/show and never changed mid-job."""

    name = "ollama"
    continues_answers = True
    server = "Ollama server"

    def __init__(
        self,
        connection: Connection,
        model: str,
        *,
        context_window: int = config_default(BackendConfig, "context_window"),
        keep_alive: str = config_default(BackendConfig, "keep_alive"),
        available_memory: Callable[[str], int | None] | None = None,
        extras: BodyExtras | None = None,
    ) -> None:
        self.connection = connection
        self.base_url = connection.base_url
        self.model = model
        self.keep_alive = keep_alive
        # Ollama takes every sampling key, in the request's "options".
        self.extras = extras if extras is not None else BodyExtras(server=self.server)
        self._configured_window = context_window
        self._available_memory = available_memory
        self._num_ctx: int | None = None
        self._capabilities: list[str] | None = None
        self._parameters: int | None = None
        self._tools = TextFallback()
        self._announced_no_tools = False
        self._told_no_stream = False
        self.transport = HttpTransport(connection, server=self.server, explain_status=self._explain_status)

    @classmethod
    def from_config(
        cls, config: PedroConfig, *, client: httpx.Client | None = None, sleep: Callable[[float], None] = time.sleep
    ) -> OllamaBackend:
        """A backend built from [backend]; OLLAMA_HOST is already folded into resolved_base_url()."""
        backend = config.backend
        return cls(
            Connection.from_config(config, client=client, sleep=sleep),
            backend.model,
            context_window=backend.context_window,
            keep_alive=backend.keep_alive,
            extras=BodyExtras.from_config(config, accepted=EXTRA_SAMPLING_KEYS, server=cls.server),
        )

    @property
    def chat_url(self) -> str:
        return self.base_url + "/api/chat"

    @property
    def text_mode(self) -> bool:
        return self._tools.text_mode

    def close(self) -> None:
        self.transport.close()

    def count_tokens(self, text: str) -> int | None:
        """Ollama has no tokenize endpoint; pedro estimates and checks against prompt_eval_count."""
        return None

    def sends_tools(self, options: GenerationOptions) -> bool:
        """Native tools unless text mode was asked for, or the model or server cannot take them."""
        if not self._tools.sends_tools(options):
            return False
        no_tools = self._capabilities is not None and "tools" not in self._capabilities
        return not (options.tool_mode == "auto" and no_tools)

    def context_window(self) -> int:
        """The num_ctx every request of this job sends: the model's length capped by config or by free memory."""
        if self._num_ctx is None:
            show = self.transport.post_json(self.base_url + "/api/show", {"model": self.model})
            measure = self._available_memory or ollama_context.local_available_memory
            available = None if self._configured_window else measure(self.base_url)
            self._num_ctx = choose_num_ctx(show.get("model_info"), self._configured_window, available)
            info = show.get("model_info")
            count = info.get("general.parameter_count") if isinstance(info, dict) else None
            self._parameters = count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else None
            capabilities = show.get("capabilities")
            if isinstance(capabilities, list):
                self._capabilities = [str(c) for c in capabilities]
        return self._num_ctx

    def parameter_count(self) -> int | None:
        """`general.parameter_count` from /api/show's model_info, asked with the window."""
        self.context_window()
        return self._parameters

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        on_token: Callable[[str], None] | None = None,
        on_notice: Notify | None = None,
    ) -> Completion:
        """Send one chat request; a model without tool support moves the job to text mode."""
        num_ctx = self.context_window()
        notices = self.extras.notices()
        if (
            options.tool_mode == "auto"
            and self._capabilities is not None
            and "tools" not in self._capabilities
            and not self._announced_no_tools
        ):
            self._tools.text_mode = self._announced_no_tools = True
            notices.append(f"Ollama says {self.model} cannot call tools; pedro uses text mode for this job")
        completion = self._tools.send(
            lambda sent: self._request(messages, sent, options, num_ctx, on_token, on_notice),
            tools,
            options,
            notices,
            refused="Ollama refused native tools ({detail}); pedro switched to text mode for the rest of this job",
            native_only=f"the Ollama server at {self.chat_url} refuses native tools for {self.model} ({{detail}}); "
            "run with --tool-mode text (or auto), or pick a model with tool support",
        )
        if notices:
            completion = replace(completion, notices=(*notices, *completion.notices))
        return completion

    def build_body(
        self,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        num_ctx: int,
    ) -> dict[str, Any]:
        """The JSON body of one /api/chat request."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": to_ollama_messages(messages),
            "stream": options.stream,
            "keep_alive": self.keep_alive,
            "options": {"temperature": options.temperature, "num_predict": options.max_tokens, "num_ctx": num_ctx},
        }
        if options.seed is not None:
            body["options"]["seed"] = options.seed
        if options.stop:
            body["options"]["stop"] = list(options.stop)
        if tools:
            body["tools"] = [dict(tool) for tool in tools]
        if options.likeliest:
            # Top-level fields (Ollama 0.12.11 and later); an older server ignores them and reports none.
            body["logprobs"] = True
            body["top_logprobs"] = options.likeliest
        return body

    def _request(
        self,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        num_ctx: int,
        on_token: Callable[[str], None] | None,
        on_notice: Notify | None = None,
    ) -> Completion:
        body = self.build_body(messages, tools, options, num_ctx)
        self.extras.apply(body, sampling_in="options")
        if not options.stream:
            payload = self.transport.post_json(
                self.chat_url, body, sent_tools=bool(tools), on_notice=on_notice, reply=True
            )
            return ShownText(on_token).whole(self._assemble(iter([payload])))
        shown = ShownText(on_token)

        def consume(lines: Iterator[str], guard: ReplyGuard) -> Completion:
            return self._assemble(iter_ndjson(lines, url=self.chat_url, server=self.server), shown.emit, guard)

        def whole(payload: dict[str, Any]) -> Completion:
            return self._whole_reply(payload, shown.emit)

        completion = self.transport.stream_lines(
            self.chat_url,
            body,
            ReplyReader("ndjson", consume, whole),
            sent_tools=bool(tools),
            on_retry=shown.note_retry,
            on_notice=on_notice,
        )
        return shown.finished(completion)

    def _whole_reply(self, payload: dict[str, Any], emit: Callable[[str], None]) -> Completion:
        """A server that ignores `stream: true` sent its whole reply as one JSON object: use it as such."""
        if "error" not in payload and not isinstance(payload.get("message"), Mapping):
            text = json.dumps(payload)
            raise not_a_model_reply(self.chat_url, self.server, "application/json", text, expected="a chat reply")
        completion = self._assemble(iter([payload]), emit)
        if not self._told_no_stream:
            self._told_no_stream = True
            completion = replace(completion, notices=(NO_STREAM_NOTICE, *completion.notices))
        return completion

    def _assemble(
        self,
        objects: Iterator[dict[str, Any]],
        emit: Callable[[str], None] | None = None,
        guard: ReplyGuard | None = None,
    ) -> Completion:
        reply = _Reply()
        final: dict[str, Any] | None = None
        for item in objects:
            if "error" in item:
                raise BackendError(
                    f"the Ollama server at {self.chat_url} reported an error: {item['error']}. "
                    "Run `ollama ps` and check the server log"
                )
            content, thought = reply.add(item.get("message"), emit)
            reply.tokens.extend(token_entries(item.get("logprobs")))
            if item.get("done") is True:
                final = item
                break
            if guard is not None and guard.feed(content, thought):
                break
        if final is None:
            if guard is None or guard.cut is None:
                raise stream_cut(self.chat_url, self.server)
            final = {}  # cut by pedro: what arrived is the reply
        completion = reply.completion(final)
        return guard.finish(completion) if guard is not None else completion

    def _explain_status(self, status: int, detail: str, url: str) -> BackendError | None:
        match = _NOT_FOUND.search(detail)
        if status == 404 and match:
            name = match.group("model")
            return BackendError(
                f"the Ollama server at {self.base_url} has no model '{name}'. Run `ollama pull {name}`, "
                "or pick an installed one (`ollama list`) with --model / [backend].model"
            )
        return None


@dataclass
class _Reply:
    """What the chunks of one /api/chat reply have said so far: its text, its thinking and its calls."""

    text: list[str] = field(default_factory=list)
    thinking: list[str] = field(default_factory=list)
    wire_calls: list[dict[str, Any]] = field(default_factory=list)
    tokens: list[TokenChoice] = field(default_factory=list)
    """The tokens each chunk's top-level `logprobs` reported, with their likeliest others, where they were asked."""

    def add(self, message: Any, emit: Callable[[str], None] | None) -> tuple[str, str]:
        """Take one chunk's message; return the text and the thinking it adds."""
        if not isinstance(message, Mapping):
            return "", ""
        given = message.get("content")
        content = given if isinstance(given, str) else ""
        if content:
            self.text.append(content)
            if emit is not None:
                emit(content)
        thought = ""
        if isinstance(message.get("thinking"), str):
            thought = message["thinking"]
            self.thinking.append(thought)
        calls = message.get("tool_calls")
        if isinstance(calls, list):
            # Ollama sends each call whole, once; later chunks add calls rather than fragments.
            self.wire_calls.extend(dict(call) for call in calls if isinstance(call, Mapping))
        return content, thought

    def completion(self, final: Mapping[str, Any]) -> Completion:
        """The Completion of the reply, with the usage and timings of its final chunk."""
        # Ollama gives calls no ids; number them so each result can be matched to its call.
        for position, call in enumerate(self.wire_calls):
            if not isinstance(call.get("id"), str) or not call.get("id"):
                call["id"] = f"call_{position}"
        tool_calls = tuple(call for call in (_to_tool_call(c) for c in self.wire_calls) if call is not None)
        joined = "".join(self.text)
        raw_message: dict[str, Any] = {"role": "assistant", "content": joined}
        if self.wire_calls:
            raw_message["tool_calls"] = self.wire_calls
        if self.thinking:
            raw_message["thinking"] = "".join(self.thinking)
        reason = final.get("done_reason")
        return Completion(
            text=joined,
            tool_calls=tool_calls,
            reasoning="".join(self.thinking),
            usage=Usage(
                prompt_tokens=_count(final.get("prompt_eval_count")),
                completion_tokens=_count(final.get("eval_count")),
            ),
            timings={key: final[key] for key in _TIMING_KEYS if key in final},
            finish_reason=reason if isinstance(reason, str) else None,
            raw={"message": raw_message, "final": final},
            tokens=tuple(self.tokens),
        )


def _to_tool_call(wire: Mapping[str, Any]) -> ToolCall | None:
    function = wire.get("function")
    if not isinstance(function, Mapping):
        return None
    name = function.get("name")
    arguments = parse_arguments(function.get("arguments"))
    if not isinstance(name, str) or not name or arguments is None:
        return None
    call_id = wire.get("id")
    return ToolCall(name=name, arguments=arguments, id=call_id if isinstance(call_id, str) else None)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
