"""OpenAICompatBackend: any server speaking `POST {base}/chat/completions` (vLLM, LM Studio, llama-server's /v1)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any, Final, Literal, Self

import httpx

from pedro.backends.base import (
    GenerationOptions,
    Notify,
    decode_json_object,
    unreachable,
)
from pedro.backends.connection import Connection
from pedro.backends.connection import read_api_key as read_api_key  # where the CLI has long imported it
from pedro.backends.extras import BodyExtras
from pedro.backends.http import HttpTransport, ReplyReader, ShownText, not_a_model_reply, stream_cut
from pedro.backends.openai_wire import StreamAssembler, parse_chat_response, to_openai_messages
from pedro.backends.replyguard import ReplyGuard
from pedro.backends.sse import iter_sse_events
from pedro.backends.textfallback import TextFallback
from pedro.config import BackendConfig, PedroConfig, config_default
from pedro.errors import BackendError
from pedro.messages import Completion, Message
from pedro.presets import SamplingKey

ToolChoice = Literal["auto", "required", "none"]

NO_STREAM_NOTICE = (
    "the server sent one whole reply although pedro asked for a stream, and pedro used it. This server does not "
    "stream: set [backend].stream = false"
)


LLAMA_SERVER_OWNER: Final = "llamacpp"
"""llama-server's owned_by in GET /v1/models."""


def names_model(entry: Mapping[str, Any], wanted: str) -> bool:
    """Whether a GET /models entry is the model `wanted` names: its id or an alias, or (llama-server names a model
    by its GGUF path) that path's file name or stem."""
    if not wanted:
        return False
    for name in [entry.get("id"), *(entry.get("aliases") or [])]:
        if isinstance(name, str) and wanted in (name, PurePath(name).name, PurePath(name).stem):
            return True
    return False


def listed_entry(entries: Sequence[Any], wanted: str) -> Mapping[str, Any] | None:
    """The GET /models entry of the model `wanted` names, else the one model of a llama-server that lists one (it
    serves that model whatever name a request carries)."""
    models = [entry for entry in entries if isinstance(entry, Mapping) and isinstance(entry.get("id"), str)]
    match = next((entry for entry in models if names_model(entry, wanted)), None)
    if match is None and len(models) == 1 and models[0].get("owned_by") == LLAMA_SERVER_OWNER:
        return models[0]
    return match


def listed_window(entry: Mapping[str, Any]) -> int | None:
    """The context window a GET /models entry gives: `max_model_len` (vLLM), `context_length` or
    `max_context_length` (LM Studio and others), or llama-server's `meta.n_ctx` (the window it runs with)."""
    meta = entry.get("meta")
    candidates = [entry.get(key) for key in ("max_model_len", "context_length", "max_context_length")]
    candidates.append(meta.get("n_ctx") if isinstance(meta, Mapping) else None)
    return next((c for c in candidates if isinstance(c, int) and not isinstance(c, bool) and c > 0), None)


@dataclass(frozen=True)
class ChatSettings:
    """What [backend] sets for a chat-completions server beside its connection and the model's name."""

    tool_choice: ToolChoice | None = None
    parallel_tool_calls: bool | None = None
    context_window: int = config_default(BackendConfig, "context_window")
    """The context size to assume, when the server does not say (0: ask it)."""
    extras: BodyExtras | None = None
    """Sampling and request overrides sent in each body (none: the server's defaults)."""


class OpenAICompatBackend:
    """The OpenAI chat wire with SSE streaming, native tools when the server takes them, text mode otherwise."""

    name = "openai"
    continues_answers = False
    server = "OpenAI-compatible server"
    chat_path = "/chat/completions"
    # The OpenAI API defines top_p; servers that follow it strictly refuse top_k, min_p and repeat_penalty.
    sampling_keys: tuple[SamplingKey, ...] = ("top_p",)

    def __init__(self, connection: Connection, model: str, settings: ChatSettings | None = None) -> None:
        settings = settings or ChatSettings()
        self.connection = connection
        self.base_url = connection.base_url
        self.model = model
        self.tool_choice = settings.tool_choice
        self.parallel_tool_calls = settings.parallel_tool_calls
        self.extras = settings.extras or BodyExtras(accepted=self.sampling_keys, server=self.server)
        self._configured_window = settings.context_window
        self._listed_window: int | None = None
        self._listing: tuple[Mapping[str, Any] | None] | None = None
        self._tools = TextFallback()
        self._told_no_stream = False
        self.transport = HttpTransport(connection, server=self.server, explain_status=self._explain_status)

    @classmethod
    def from_config(
        cls, config: PedroConfig, *, client: httpx.Client | None = None, sleep: Callable[[float], None] = time.sleep
    ) -> Self:
        """A backend built from [backend]."""
        connection = Connection.from_config(config, client=client, sleep=sleep)
        return cls(connection, config.backend.model, **cls.config_kwargs(config))

    @classmethod
    def config_kwargs(cls, config: PedroConfig) -> dict[str, Any]:
        """The keyword arguments [backend] sets beside the connection; subclasses add their own keys."""
        backend = config.backend
        settings = ChatSettings(
            tool_choice=backend.tool_choice or None,
            parallel_tool_calls={"true": True, "false": False}.get(backend.parallel_tool_calls),
            context_window=backend.context_window,
            extras=BodyExtras.from_config(config, accepted=cls.sampling_keys, server=cls.server),
        )
        return {"settings": settings}

    @property
    def chat_url(self) -> str:
        return self.base_url + self.chat_path

    @property
    def text_mode(self) -> bool:
        """Whether this backend stopped sending native tools after the server refused them."""
        return self._tools.text_mode

    def context_window(self) -> int | None:
        """The configured window, else what the server's /models entry for the model says (vLLM, LM Studio)."""
        if self._configured_window:
            return self._configured_window
        if self._listed_window is None:
            self._listed_window = self._window_from_models()
        return self._listed_window or None

    def _window_from_models(self) -> int:
        """The window GET /models lists for the model (listed_window); 0 if none."""
        entry = self._listed_entry()
        return (listed_window(entry) or 0) if entry is not None else 0

    def parameter_count(self) -> int | None:
        """How many parameters the model has, where GET /models says (llama-server's `meta.n_params`)."""
        entry = self._listed_entry()
        meta = entry.get("meta") if entry is not None else None
        count = meta.get("n_params") if isinstance(meta, Mapping) else None
        return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else None

    def _listed_entry(self) -> Mapping[str, Any] | None:
        """The model's GET /models entry, asked once; None when the server lists none."""
        if self._listing is None:
            try:
                listing = self.transport.get_json(self.base_url + "/models", retries=False)
            except BackendError as exc:
                if unreachable(exc):
                    raise  # the job cannot run, and says so before it touches the repository
                listing = {}
            entries = listing.get("data")
            self._listing = (listed_entry(entries if isinstance(entries, list) else [], self.model),)
        return self._listing[0]

    def count_tokens(self, text: str) -> int | None:
        """A generic /v1 server has no tokenize endpoint; pedro estimates instead."""
        return None

    def sends_tools(self, options: GenerationOptions) -> bool:
        """Native tools unless text mode was asked for or the server refused them."""
        return self._tools.sends_tools(options)

    def close(self) -> None:
        self.transport.close()

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        on_token: Callable[[str], None] | None = None,
        on_notice: Notify | None = None,
    ) -> Completion:
        """Send one chat request; a refusal of `tools` switches to text mode and retries once without them."""
        notices = [*self._prepare(options, on_notice), *self.extras.notices()]
        names = [_tool_name(tool) for tool in tools]
        completion = self._tools.send(
            lambda sent: self._request(messages, sent, options, on_token, names, on_notice),
            tools,
            options,
            notices,
            refused="the server refused native tools ({detail}); pedro switched to text mode for the rest of this job",
            native_only=f"the {self.server} at {self.chat_url} refuses native tools ({{detail}}); run with "
            "--tool-mode text (or auto), or start the server with tool support (llama-server --jinja)",
        )
        if notices:
            completion = replace(completion, notices=(*notices, *completion.notices))
        return completion

    def _prepare(self, options: GenerationOptions, on_notice: Notify | None = None) -> list[str]:
        """Work to do before a request (llama-server polls /health here); returns notices for the user."""
        return []

    def build_body(
        self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]], options: GenerationOptions
    ) -> dict[str, Any]:
        """The JSON body of one chat request."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": to_openai_messages(messages),
            "temperature": options.temperature,
            "max_tokens": options.max_tokens,
            "stream": options.stream,
        }
        if options.stream:
            body["stream_options"] = {"include_usage": True}
        if options.seed is not None:
            body["seed"] = options.seed
        if options.stop:
            body["stop"] = list(options.stop)
        if options.likeliest:
            body["logprobs"] = True
            body["top_logprobs"] = options.likeliest
        if tools:
            body["tools"] = [dict(tool) for tool in tools]
            if self.tool_choice is not None:
                body["tool_choice"] = self.tool_choice
            if self.parallel_tool_calls is not None:
                body["parallel_tool_calls"] = self.parallel_tool_calls
        return body

    def _request(
        self,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        on_token: Callable[[str], None] | None,
        names: Sequence[str],
        on_notice: Notify | None = None,
    ) -> Completion:
        body = self.build_body(messages, tools, options)
        self.extras.apply(body)
        if not options.stream:
            payload = self.transport.post_json(
                self.chat_url, body, sent_tools=bool(tools), on_notice=on_notice, reply=True
            )
            self._raise_embedded_error(payload)
            return ShownText(on_token).whole(parse_chat_response(payload, names))
        shown = ShownText(on_token)

        def consume(lines: Iterator[str], guard: ReplyGuard) -> Completion:
            # A fresh assembler per attempt: a retried stream never mixes text from the attempt that was cut.
            return self._assemble_stream(lines, shown.emit, names, guard)

        def whole(payload: dict[str, Any]) -> Completion:
            return self._whole_reply(payload, shown.emit, names)

        completion = self.transport.stream_lines(
            self.chat_url,
            body,
            ReplyReader("sse", consume, whole),
            sent_tools=bool(tools),
            on_retry=shown.note_retry,
            on_notice=on_notice,
        )
        return shown.finished(completion)

    def _assemble_stream(
        self, lines: Iterator[str], emit: Callable[[str], None], names: Sequence[str], guard: ReplyGuard
    ) -> Completion:
        assembler = StreamAssembler(known_names=names)
        done = False
        for field_name, data in iter_sse_events(lines):
            if field_name == "data" and data.strip() == "[DONE]":
                done = True
                break
            chunk = decode_json_object(data, url=self.chat_url, server=self.server, what="stream event")
            if field_name == "error" or "error" in chunk:
                error = chunk if "error" in chunk else {"error": chunk}
                detail = _error_detail(error)
                if _UNREAD_OUTPUT.search(detail) and assembler.text:
                    # The model's reply came whole; only the server's reading of it as its chat format failed. The
                    # reply is the model's to be judged (pedro reads calls itself), not a fault of the server's.
                    said = f"the {self.server} could not read the model's reply in its chat format ({detail})"
                    completion = guard.finish(assembler.finish())
                    return replace(completion, finish_reason=completion.finish_reason or "stop",
                                   notices=(*completion.notices, f"{said}; pedro read the text itself"))  # fmt: skip
                self._raise_embedded_error(error)
            thought = len(assembler.reasoning)
            text = assembler.add(chunk)
            if text:
                emit(text)
            if guard.feed(text, "".join(assembler.reasoning[thought:])):
                break
        if not done and assembler.finish_reason is None and guard.cut is None:
            raise stream_cut(self.chat_url, self.server)
        return guard.finish(assembler.finish())

    def _whole_reply(self, payload: dict[str, Any], emit: Callable[[str], None], names: Sequence[str]) -> Completion:
        """A server that ignores `stream: true` sent one chat completion: use it as the non-streamed reply."""
        self._raise_embedded_error(payload)
        if not isinstance(payload.get("choices"), list):
            text = json.dumps(payload)
            raise not_a_model_reply(self.chat_url, self.server, "application/json", text, expected="a chat completion")
        completion = parse_chat_response(payload, names)
        if completion.text:
            emit(completion.text)
        if not self._told_no_stream:
            self._told_no_stream = True
            completion = replace(completion, notices=(NO_STREAM_NOTICE, *completion.notices))
        return completion

    def _raise_embedded_error(self, payload: Mapping[str, Any]) -> None:
        if payload.get("error") is None:
            return
        detail = _error_detail(payload)
        raise BackendError(
            f"the {self.server} at {self.chat_url} reported an error: {detail}. The server log may say more"
        )

    def _explain_status(self, status: int, detail: str, url: str) -> BackendError | None:
        if status == 404 and not self.base_url.endswith("/v1") and url == self.chat_url:
            return BackendError(
                f"the {self.server} at {url} answered 404: {detail}. For --backend openai the base URL "
                "usually ends in /v1 (e.g. http://127.0.0.1:8080/v1); check --base-url / [backend].base_url"
            )
        return None


# llama-server's words when the text a model wrote does not parse as its chat template's format (tool calls,
# reasoning): said after the whole reply was streamed.
_UNREAD_OUTPUT = re.compile(r"model produced output that does not match|does not match the expected [\w-]+ format")


def _error_detail(payload: Mapping[str, Any]) -> str:
    """The message of the error a reply holds (`{"error": {"message": …}}` or `{"error": "…"}`)."""
    error = payload.get("error")
    return str(error.get("message", error)) if isinstance(error, Mapping) else str(error)


def _tool_name(tool: Mapping[str, Any]) -> str:
    function = tool.get("function")
    name = function.get("name") if isinstance(function, Mapping) else tool.get("name")
    return name if isinstance(name, str) else ""
